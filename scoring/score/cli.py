"""``lexsub score SYSTEM_FILE GOLD_FILE [-t best|oot|mw] [-v]``: the drop-in for
the official ``score.pl``.

It takes score.pl's arguments, read the way score.pl reads them, and in compat mode (the
default) prints to standard output exactly the bytes score.pl prints. Extra options, which
score.pl does not have, start with ``--``:

``--fixed``             score with score.pl's defects corrected (docs/scoring.md)
``--format text|json|csv``  text is score.pl's output; JSON and CSV give fractions
``--by-pos``            scores for All, n, v, a, r laid out like Tables 4-8 of the 2009 paper
``--strict``            refuse a system file with any malformed line or any byte that is not
                        UTF-8 (FILE:LINE: rule)
``--no-diagnosis``      do not print the diagnosis of defects to standard error
``--cache``             keep the gold's readings in the cache of gold readings, and load
                        them from it (:mod:`scoring.score.cache`); also when the environment
                        sets ``LEXSUB_GOLD_CACHE=1``. Off by default: the gold is read from
                        its text, and nothing is written (``--no-cache`` says so explicitly)
``--version``           print ``lexsub-score VERSION`` and exit

Standard error gets a short diagnosis of what in the system file gained or lost credit
only because of a defect of score.pl (see :mod:`scoring.score.diagnose`).

Exit status: 0 done, 1 an error, 2 bad usage: an unknown option, or no files at all
(score.pl's usage line is printed, and nothing is scored). A failure ends with one line
``Error: …`` on standard error naming the file; score.pl's own messages (its usage line,
``Error in FILE on line N``) stay on standard output, where score.pl prints them.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from scoring.errors import (
    USAGE_STATUS,
    FormatError,
    ScorerDied,
    describe,
    fail,
    failures,
    version_line,
)
from scoring.files.bounded import not_utf8, read_bounded, read_text, without_mark
from scoring.formats.gold import Gold
from scoring.formats.perl import perl_truthy
from scoring.formats.text import encode
from scoring.score.library import died_here, score
from scoring.types import Rules

if TYPE_CHECKING:
    from typing import BinaryIO, Literal, NoReturn, TextIO


class UsageError(ValueError):
    """Arguments the command cannot use (exit status 2)."""


USAGE = "score.pl usage: systemfile goldfile [-t best|oot|mw] [-v]\n"
HELP = """\
usage: lexsub score SYSTEM_FILE GOLD_FILE [-t best|oot|mw] [-v] [--fixed] [--format FORMAT]
                    [--by-pos] [--strict] [--no-diagnosis] [--cache] [--version]

Score a system as the official score.pl does: score.pl's arguments, read as score.pl reads
them; in compat mode (the default) standard output gets exactly the bytes score.pl prints.

options score.pl does not have:
  --fixed                 score with score.pl's defects corrected (docs/scoring.md)
  --format text|json|csv  text is score.pl's output; JSON and CSV give fractions
  --by-pos                scores for All, n, v, a, r laid out like Tables 4-8 of the 2009 paper
  --strict                refuse a system file with any malformed line or any byte that is
                          not UTF-8 (FILE:LINE: rule)
  --no-diagnosis          do not print the diagnosis of defects to standard error
  --cache                 keep the gold's readings in a cache and load them from it on the
                          next run (also when LEXSUB_GOLD_CACHE=1); by default the gold is
                          read from its text and nothing is written (--no-cache)
  --version               print lexsub-score VERSION and exit

Standard error gets a short diagnosis of what in the system file gained or lost credit only
because of a defect of score.pl. Exit status: 0 done, 1 an error, 2 bad usage (an unknown
option, or no files at all: score.pl's usage line is printed and nothing is scored). A failure
ends with one line "Error: ..." on standard error naming the file; score.pl's own messages
(its usage line, "Error in FILE on line N") stay on standard output, where score.pl prints
them."""
NOTHING_SCORED = (
    "nothing scored: give SYSTEM_FILE GOLD_FILE [-t best|oot|mw] [-v] (score.pl's usage "
    "line is on standard output)"
)


class Options(NamedTuple):
    """The arguments of one run, as :func:`parse_arguments` reads them (a record)."""

    system: str
    gold: str
    measure: str | None  # None: score.pl prints its usage line and scores nothing
    verbose: bool
    usage_lines: int
    rules: Rules
    format: str
    by_pos: bool
    strict: bool
    diagnosis: bool
    cache: bool = False


def parse_arguments(argv: Sequence[str]) -> Options:
    """score.pl's own argument handling (``top``), quirks included, plus the ``--`` options.

    score.pl prints its usage line when the system file ends in ``-t``/``-v`` or the gold
    path contains ``-t``/``-v`` anywhere, yet still scores best when no ``-t`` was given.
    """
    extras = [arg for arg in argv if arg.startswith("--")]
    plain = [arg for arg in argv if not arg.startswith("--")]
    rules: Rules = "compat"
    output = "text"
    flags = {"by_pos": False, "strict": False, "diagnosis": True, "cache": cache_asked()}
    for arg in extras:
        if arg == "--fixed":
            rules = "fixed"
        elif arg.startswith("--format="):
            output = arg.split("=", 1)[1]
        elif arg in ("--by-pos", "--strict", "--cache"):
            flags[arg[2:].replace("-", "_")] = True
        elif arg in ("--no-diagnosis", "--no-cache"):
            flags[arg[5:]] = False
        else:
            raise UsageError(f"unknown option {arg!r} (see --help)")
    if output not in ("text", "json", "csv"):
        raise UsageError(f"--format {output!r} is not one of text, json, csv")
    padded = [*plain, *[""] * 5][:5]
    ansfile, goldfile, kind, scoretype, verbose = padded
    measure: str | None = scoretype
    usage = 0
    odd_path = ansfile.endswith(("-t", "-v")) or "-t" in goldfile or "-v" in goldfile
    if not perl_truthy(ansfile) or not perl_truthy(goldfile) or (odd_path and rules == "compat"):
        usage += 1
        measure = None
    if not perl_truthy(kind):
        measure = "best"
    elif kind == "-v" and not perl_truthy(scoretype) and not perl_truthy(verbose):
        measure, verbose = "best", "-v"
    elif kind != "-t":
        usage += 1
        measure = None
    if perl_truthy(measure) and measure not in ("best", "oot", "mw"):
        usage += 1
        measure = None
    return Options(
        ansfile,
        goldfile,
        measure if perl_truthy(measure) else None,
        perl_truthy(verbose),
        usage,
        rules,
        output,
        flags["by_pos"],
        flags["strict"],
        flags["diagnosis"],
        flags["cache"],
    )


CACHE_SETTING = "LEXSUB_GOLD_CACHE"
"""The environment setting that turns the cache of gold readings on (``1``), as ``--cache``
does; ``--no-cache`` overrides it."""


def cache_asked() -> bool:
    """Whether the environment asks for the cache of gold readings (:data:`CACHE_SETTING`
    set to ``1``, ``true``, ``yes`` or ``on``)."""
    return os.environ.get(CACHE_SETTING, "").strip().lower() in ("1", "true", "yes", "on")


def _merge_format_option(argv: Sequence[str]) -> list[str]:
    """Accept ``--format json`` as well as ``--format=json``."""
    merged: list[str] = []
    items = list(argv)
    while items:
        arg = items.pop(0)
        if arg == "--format" and items:
            arg = f"--format={items.pop(0)}"
        merged.append(arg)
    return merged


def run(argv: Sequence[str], stdout: BinaryIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command; returns the exit status (0 ok, 1 error, 2 usage)."""
    out = stdout if stdout is not None else sys.stdout.buffer
    err = stderr if stderr is not None else sys.stderr
    if "--help" in argv or list(argv) == ["-h"]:
        print(HELP, file=err)
        return 0
    if "--version" in argv:
        out.write(encode(version_line("lexsub-score") + "\n"))
        return 0
    _KEPT.clear()  # a previous run's, in this process
    return _run(argv, out, err)


def _run(argv: Sequence[str], out: BinaryIO, err: TextIO) -> int:
    try:
        options = parse_arguments(_merge_format_option(argv))
    except UsageError as error:
        print(f"Error: {error}", file=err)
        return USAGE_STATUS
    write = out.write
    write(encode(USAGE * options.usage_lines))
    if options.measure is None and not options.usage_lines:
        return 0
    if options.measure is None or (not options.system and not options.gold):
        # score.pl's usage line is on standard output; it scores nothing (or dies dividing by 0)
        print(f"Error: {NOTHING_SCORED}", file=err)
        return USAGE_STATUS
    pending: list[Callable[[], None]] = []  # a new entry of the gold cache, written last
    try:
        return _score_and_print(options, out, err, pending)
    finally:
        for store in pending:
            store()


def _score_and_print(
    options: Options, out: BinaryIO, err: TextIO, pending: list[Callable[[], None]]
) -> int:
    assert options.measure is not None  # _run has returned otherwise
    write = out.write
    unread: list[str] = []
    try:
        if options.strict:
            from scoring.formats.system import read_system  # only then: start-up pays nothing

            check_utf8(options.system)
            read_system(options.system, _kind(options.measure))
        text, notes = _score(options, unread, pending)
    except failures() as error:
        wrong = _mixup(options)
        return fail(f"{wrong}; nothing scored" if wrong else describe(error), err)
    except ScorerDied as died:
        write(encode(died.stdout))  # score.pl's own messages, such as "Error in FILE on line N"
        wrong = _mixup(options)
        if wrong:
            return fail(f"{wrong}; nothing scored (score.pl dies dividing by zero)", err)
        return fail(
            "".join(f"{problem}; score.pl reads it as empty; " for problem in unread)
            + died_here(died, options.system, options.gold),
            err,
        )
    write(encode(text))
    for problem in unread:
        print(f"warning: {problem}; score.pl reads it as empty", file=err)
    wrong = _mixup(options)
    if wrong:
        print(f"warning: {wrong}", file=err)
    if options.diagnosis:
        for note in notes:
            print(note, file=err)
    return 0


def _mixup(options: Options) -> str | None:
    """The one line that names a mix-up of the files (the arguments swapped, an oot file
    scored as best, the task's XML or a binary file as the gold), or None. Standard error
    only: standard output stays score.pl's."""
    from scoring.formats.sniff import file_mixup, head_of, kind_of

    system, gold = kind_of(head_of(options.system)), kind_of(head_of(options.gold))
    if system == "gold" and gold in ("best", "oot"):
        return (
            f"the arguments look swapped: {options.system} is a gold file and {options.gold} "
            "a system file (give SYSTEM_FILE first, then GOLD_FILE)"
        )
    if system == "oot" and options.measure != "oot":
        return f"{options.system} holds oot answers (LEXELT ID ::: …): score it with -t oot"
    return file_mixup(options.gold, "score", ("gold",))


def check_utf8(path: str) -> None:
    """Raise :class:`FormatError` naming ``FILE:LINE`` of every line that is not UTF-8
    (``--strict``: the compat reader would keep such bytes as they are)."""
    data = without_mark(read_bounded(path, lines=True), path)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return
    problems = []
    for number, line in enumerate(data.split(b"\n"), 1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as error:
            problems.append(not_utf8(path, number, line, error.start))
    raise FormatError(problems)


def _kind(measure: str) -> Literal["best", "oot", "mw"]:
    return "oot" if measure == "oot" else "mw" if measure == "mw" else "best"


def _read(path: str, options: Options, unread: list[str]) -> str:
    """A file's text. score.pl reads a file it cannot open as empty, and compat does too,
    adding ``cannot read FILE: reason`` to ``unread``; the fixed rules refuse it."""
    try:
        return read_text(path, perl=True)
    except OSError as error:
        if options.rules == "fixed":
            raise
        unread.append(f"cannot read {path}: {error.strerror}")
        return ""


def _score(
    options: Options, unread: list[str], pending: list[Callable[[], None]]
) -> tuple[str, list[str]]:
    """Read the files (compat reads one it cannot open as empty), score them with
    :func:`scoring.score.library.score` and render the result: standard output's text
    and the diagnosis."""
    system_text = _read(options.system, options, unread)
    gold_text = _read(options.gold, options, unread)
    read_pair = None
    if options.cache and options.measure != "mw":
        from scoring.score.cache import cached_gold_pair

        def read_pair(text: str, name: str) -> tuple[Gold, Gold, set[str]]:
            return cached_gold_pair(text, name, later=pending, keep=_KEPT)

    result = score(
        system_text,
        gold_text,
        _kind(options.measure or "best"),
        options.rules,
        diagnose=options.diagnosis,
        verbose=options.verbose,
        by_pos=options.by_pos,
        system_name=options.system,
        gold_name=options.gold,
        read_pair=read_pair,
    )
    return result.render(_output(options.format)), list(result.notes)


def _output(format: str) -> Literal["text", "json", "csv"]:
    return "json" if format == "json" else "csv" if format == "csv" else "text"


_KEPT: list[object] = []
"""What a run loads and need not free (:func:`scoring.score.cache.cached_gold_pair`'s
``keep``): the process ends at once after it (:func:`_end`); a later run in the same
process frees it."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command's entry point: the console script ``lexsub-score`` and ``python -m
    scoring.score`` (no ``argv``: :func:`run` of the process's arguments, then the process
    ends at once, :func:`_end`), and ``lexsub score`` (``argv``: the status is returned)."""
    # The entry point alone turns the cyclic collector off (never run() or any other
    # function a caller may use in-process): a run makes millions of small acyclic objects
    # and no garbage, and collections cost about 13% of a million-item run's CPU time (oot,
    # repeated guesses: 1.9 s of 15; bench/RESULTS.md, 0.6.0). Called with ``argv`` it
    # gives the collector back as it found it.
    collecting = gc.isenabled()
    gc.disable()
    if argv is None:
        _end(run(sys.argv[1:]), collecting)
    try:
        return run(argv)
    finally:
        if collecting:
            gc.enable()


def _end(status: int, collecting: bool = True) -> NoReturn:
    """End the process with ``status`` once standard output and error are flushed,
    without the interpreter's finalisation, which frees every object and module one by one
    (the system returns the memory at once). This is the command's own documented fast
    exit, never a library function's. perl ends score.pl the same way: it skips its global
    destruction at exit. Nothing of the scorer runs at exit (the gold cache's new entry is
    written before :func:`run` returns). If a flush fails (a closed pipe), or a caller in
    this process has put streams of its own in place of standard output or error (as
    ``scripts/cli_docs.py`` does to read ``--help``), SystemExit is raised instead, as
    always: the caller's process goes on, its collector on again if ``collecting`` (as
    :func:`main` found it)."""
    own_streams = sys.stdout is sys.__stdout__ and sys.stderr is sys.__stderr__
    if not own_streams:
        if collecting:
            gc.enable()
        raise SystemExit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        if collecting:
            gc.enable()
        raise SystemExit(status) from None
    os._exit(status)
