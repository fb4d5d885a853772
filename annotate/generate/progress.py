"""A one-line progress bar on standard error: items done, rate, time left.

Drawn only on a terminal (a log file gets the summary line alone), at most every
:data:`EVERY` seconds, so a run of cached replies does not spend its time drawing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

EVERY = 0.2
WIDTH = 24


def duration(seconds: float) -> str:
    """``1h02m``, ``3m05s`` or ``42s``.

    >>> duration(3725), duration(185), duration(42.4)
    ('1h02m', '3m05s', '42s')
    """
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    if minutes:
        return f"{minutes}m{secs:02d}s"
    return f"{secs}s"


def bar_line(done: int, total: int, seconds: float, unit: str = "items") -> str:
    """The bar's text after ``done`` of ``total`` items (or ``unit``) in ``seconds``.

    >>> bar_line(50, 200, 10.0)
    '[######------------------]  50/200 items  5.0/s  ETA 30s'
    """
    filled = WIDTH * done // total if total else WIDTH
    rate = done / seconds if seconds > 0 else 0.0
    left = f"ETA {duration((total - done) / rate)}" if rate > 0 else "ETA ?"
    return f"[{'#' * filled}{'-' * (WIDTH - filled)}]  {done}/{total} {unit}  {rate:.1f}/s  {left}"


def progress_bar(
    total: int, unit: str = "items", stream: TextIO | None = None
) -> Callable[[int], None]:
    """A callback drawing the bar for ``done`` items (a no-op off a terminal); the last
    call (``done == total``) ends the line."""
    out = sys.stderr if stream is None else stream
    if not out.isatty():
        return lambda done: None
    started = time.perf_counter()
    last = [0.0]

    def draw(done: int) -> None:
        now = time.perf_counter()
        if done < total and now - last[0] < EVERY:
            return
        last[0] = now
        out.write("\r" + bar_line(done, total, now - started, unit))
        if done >= total:
            out.write("\n")
        out.flush()

    return draw
