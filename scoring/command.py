"""How every command line of the project ends a failure: one line ``Error: …`` on
standard error and exit status 1; a usage error exits with status 2, also with one line
``Error: …``. Never a traceback: the message names the file (and line) and the rule.
Every command answers ``--version`` with one line, ``COMMAND VERSION`` (:func:`version_line`).
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

import scoring

USAGE_STATUS = 2
ERROR_STATUS = 1
FAILURES: tuple[type[BaseException], ...] = (OSError, ValueError, EOFError, zlib.error)
"""What reading and checking a file raise: the file system's errors, a format broken
(``ValueError``: FormatError, TextError, JSON errors…), a truncated or corrupt gzip file."""


def one_line(message: str) -> str:
    """A message on one line: the lines of a multi-line message joined by ``; ``."""
    return "; ".join(part for part in message.splitlines() if part.strip()) or message


def describe(error: BaseException) -> str:
    """What went wrong, naming the file: ``FILE: reason`` for the file system's errors."""
    if isinstance(error, OSError) and error.strerror:
        if error.filename is not None:
            return f"cannot use {error.filename}: {error.strerror}"
        return error.strerror
    if isinstance(error, EOFError | zlib.error):
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
    except FAILURES as error:
        return fail(describe(error), err)


class ShowVersion(argparse.Action):
    """``--version``: print :func:`version_line` on standard output and exit with status 0."""

    def __init__(
        self, option_strings: Sequence[str], dest: str, command: str, help: str | None = None
    ) -> None:
        super().__init__(
            option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, nargs=0, help=help
        )
        self.command = command

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> NoReturn:
        print(version_line(self.command))
        parser.exit(0)


class ArgumentParser(argparse.ArgumentParser):
    """``argparse`` with the project's usage error, one line ``Error: …`` and status 2, and
    a ``--version`` option that prints ``COMMAND VERSION``: ``command`` is the console
    script's name (``lexsub-compare``), the program's name (``prog``) when not given."""

    def __init__(self, *args: Any, command: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.add_argument(
            "--version",
            action=ShowVersion,
            command=command or self.prog,
            help="print the version and exit",
        )

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_STATUS, f"Error: {one_line(message)} (see {self.prog} --help)\n")
