"""The project's argument parser (:class:`ArgumentParser`: a usage error is one line
``Error: …`` and status 2; ``--version`` prints ``COMMAND VERSION``), and, from
:mod:`scoring.errors`, how every command line ends a failure: one line ``Error: …`` on
standard error and exit status 1. Never a traceback: the message names the file (and
line) and the rule. The options of the commands that resample (:func:`add_resampling`)
and their checks (:func:`check_resampling`, :func:`check_count`) are written here once.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from scoring.errors import (
    ERROR_STATUS,
    FAILURES,
    USAGE_STATUS,
    describe,
    fail,
    guarded,
    one_line,
    version_line,
)

__all__ = [
    "ERROR_STATUS",
    "FAILURES",
    "MAX_RESAMPLES",
    "RESAMPLES_HELP",
    "USAGE_STATUS",
    "ArgumentParser",
    "ShowVersion",
    "add_resampling",
    "check_count",
    "check_resampling",
    "check_seed",
    "describe",
    "fail",
    "guarded",
    "one_line",
    "version_line",
]

MAX_RESAMPLES = 1_000_000
"""The most resamples (and permutation trials) a command runs: at a million, the Monte
Carlo error of a tail share near 2.5 % is about 0.016 percentage points (sqrt(p(1-p)/B)),
far below the digits reported; more only costs time and memory (``--resamples 100000000``
ran for hours)."""
RESAMPLES_HELP = (
    f"resamples of the bootstrap (default 1000, at most {MAX_RESAMPLES:,}: beyond that the "
    "Monte Carlo error is far below the digits shown)"
)


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


def add_resampling(parser: argparse.ArgumentParser, trials: bool = False) -> None:
    """The options of a command that resamples, in this order in its ``--help``:
    ``--resamples`` (the bootstrap's, default 1000), ``--trials`` when ``trials`` (a
    permutation test's, default 1000), ``--seed`` (default 12345) and ``--confidence``
    (default 0.95). The command checks them with :func:`check_resampling`."""
    parser.add_argument("--resamples", type=int, default=1000, help=RESAMPLES_HELP)
    if trials:
        parser.add_argument(
            "--trials",
            type=int,
            default=1000,
            help=f"permutation trials (default 1000, at most {MAX_RESAMPLES:,})",
        )
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--confidence", type=float, default=0.95)


def check_resampling(parser: argparse.ArgumentParser, options: argparse.Namespace) -> None:
    """Usage errors for the options :func:`add_resampling` gave, worded alike in every
    command: a count out of bounds (:func:`check_count`), a negative seed, a confidence
    not strictly between 0 and 1."""
    check_count(parser, "--resamples", options.resamples)
    trials = getattr(options, "trials", None)
    if trials is not None:
        check_count(parser, "--trials", trials)
    check_seed(parser, options.seed)
    if not 0 < options.confidence < 1:
        parser.error(f"--confidence {options.confidence:g}: it must be between 0 and 1")


def check_seed(parser: argparse.ArgumentParser, seed: int) -> None:
    """A usage error for a negative ``--seed`` (NumPy's generators take none)."""
    if seed < 0:
        parser.error(f"--seed {seed}: it must be 0 or more")


def check_count(parser: argparse.ArgumentParser, option: str, value: int) -> None:
    """A usage error for a count of resamples, trials or permutations (``option``, as the
    user typed it) below 1 or above :data:`MAX_RESAMPLES`."""
    if value < 1:
        parser.error(f"{option} {value}: it must be at least 1")
    if value > MAX_RESAMPLES:
        parser.error(f"{option} {value}: it must be at most {MAX_RESAMPLES:,}")
