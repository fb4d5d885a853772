"""How every command line of the project ends a failure: one line ``Error: …`` on
standard error and exit status 1; a usage error exits with status 2, also with one line
``Error: …``. Never a traceback: the message names the file (and line) and the rule.
Every command answers ``--version`` with one line, ``COMMAND VERSION`` (:func:`version_line`).

Without ``argparse`` (:mod:`scoring.command` adds the project's argument parser): the
drop-in scorer parses score.pl's arguments by hand and starts without it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import scoring
from scoring import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TextIO

USAGE_STATUS = 2
ERROR_STATUS = 1
READING: tuple[type[BaseException], ...] = (OSError, ValueError, MemoryError)
"""What reading and checking a file raise, a gzip file's failures aside
(:func:`failures`)."""


def _gzip_failures() -> tuple[type[BaseException], ...]:
    """What a truncated or corrupt gzip file raises: ``EOFError``, and ``zlib.error`` once
    ``zlib`` is loaded (a process that has not loaded it cannot have raised its error)."""
    zlib = sys.modules.get("zlib")
    return (EOFError,) if zlib is None else (EOFError, zlib.error)


def failures() -> tuple[type[BaseException], ...]:
    """What reading and checking a file raise: the file system's errors, a format broken
    (``ValueError``: FormatError, TextError, JSON errors…), memory running out, a
    truncated or corrupt gzip file (:func:`_gzip_failures`). ``zlib`` is not loaded for
    it: the drop-in scorer starts without the shared library (``except failures()`` is
    evaluated only when something is raised)."""
    return (*READING, *_gzip_failures())


def __getattr__(name: str) -> tuple[type[BaseException], ...]:
    """``FAILURES``: :func:`failures` with ``zlib`` loaded, for the commands that
    import it by name."""
    if name == "FAILURES":
        import zlib  # noqa: F401 - loaded, so that failures() names its error

        return failures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def one_line(message: str) -> str:
    """A message on one line: the lines of a multi-line message joined by ``; ``."""
    return "; ".join(part for part in message.splitlines() if part.strip()) or message


def describe(error: BaseException) -> str:
    """What went wrong, naming the file: ``FILE: reason`` for the file system's errors."""
    if isinstance(error, OSError) and error.strerror:
        if error.filename is not None:
            return f"cannot use {error.filename}: {error.strerror}"
        return error.strerror
    if isinstance(error, MemoryError):
        return "not enough memory to read the files (a file too large for this machine)"
    if isinstance(error, _gzip_failures()):
        return f"not a complete gzip file ({error})"
    return str(error) or type(error).__name__


def version_line(command: str) -> str:
    """What ``COMMAND --version`` prints: ``COMMAND VERSION``, the version written in
    ``pyproject.toml`` (``scoring.__version__``, read only when asked for)."""
    return f"{command} {scoring.__version__}"


def fail(message: str, err: TextIO | None = None) -> int:
    """Print ``Error: MESSAGE`` (on one line) on standard error; the exit status 1."""
    print(f"Error: {one_line(message)}", file=err or sys.stderr)
    return ERROR_STATUS


def guarded(body: Callable[[], int], err: TextIO | None = None) -> int:
    """Run a command's body: its exit status, or :func:`fail` on a file's failure."""
    try:
        return body()
    except failures() as error:
        return fail(describe(error), err)
