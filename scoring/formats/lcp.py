"""The lexical complexity files of MLSP-2024 (Shardlow et al. 2024): the gold
``*_lcp.tsv``, ``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>VALUE``, and a system's two
columns ``ID<TAB>VALUE``. The id and the value are what the organisers' evaluation
(``lcp_evaluate.py``, CompLex's script, on ``ID,VALUE``) reads. Lines end as in
:mod:`scoring.formats.tsar`. The benchmark :mod:`scoring.benchmark.lcp` scores them.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.errors import Problems
from scoring.formats.text import read_universal_lines


@dataclass(frozen=True, slots=True)
class LcpLine:
    """One line of a complexity file: the target's id and its complexity (gold: the mean
    rating in [0, 1]; a system: its prediction)."""

    id: str
    value: float
    location: str


def parse_lcp(lines: Sequence[str], name: str = "<lcp>") -> tuple[LcpLine, ...]:
    """Every line ``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>VALUE`` (MLSP's layout) or
    ``ID<TAB>VALUE``. :class:`scoring.errors.FormatError` names ``FILE:LINE`` for another
    number of columns, an empty id, or a value that is not a finite number."""
    parsed: list[LcpLine] = []
    problems = Problems()  # the first 20 kept, the rest counted
    for number, text in enumerate(lines, 1):
        location = f"{name}:{number}"
        fields = text.split("\t")
        if len(fields) not in (2, 5):
            problems.add(
                f"{location}: {len(fields)} tab-separated columns (ID<TAB>LANGUAGE<TAB>"
                "SENTENCE<TAB>WORD<TAB>VALUE, or ID<TAB>VALUE)"
            )
            continue
        ident, written = fields[0], fields[-1]
        try:
            value = float(written)
        except ValueError:
            value = math.nan
        if not ident:
            problems.add(f"{location}: empty id (the first column names the target)")
        elif not math.isfinite(value):
            problems.add(f"{location}: value {written!r} is not a finite number")
        else:
            parsed.append(LcpLine(ident, value, location))
    if problems:
        raise problems.error()
    return tuple(parsed)


def read_lcp(path: str | os.PathLike[str]) -> tuple[LcpLine, ...]:
    """:func:`parse_lcp` of a file."""
    return parse_lcp(read_universal_lines(path), os.fspath(path))


def format_lcp(lines: Iterable[LcpLine]) -> str:
    """A predictions file's text, ``ID<TAB>VALUE`` a line each ending ``\\n``, the value in
    Python's shortest round-trip form (:func:`parse_lcp` reads it back). ValueError for an
    id that is empty or holds a tab or a line break, or a value that is not finite.

    >>> format_lcp([LcpLine("en_1", 0.25, "")])
    'en_1\\t0.25\\n'
    """
    out: list[str] = []
    for line in lines:
        if not line.id or any(c in line.id for c in "\t\n\r"):
            raise ValueError(f"id {line.id!r} is empty or holds a tab or a line break")
        if not math.isfinite(line.value):
            raise ValueError(f"value {line.value!r} of {line.id!r} is not a finite number")
        out.append(f"{line.id}\t{line.value!r}\n")
    return "".join(out)
