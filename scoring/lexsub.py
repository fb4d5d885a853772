"""``lexsub COMMAND ARGS``: every command of the scoring library and the gold compiler
under one console script.

``lexsub score ARGS`` is ``lexsub-score ARGS`` (``python -m scoring.score ARGS``) exactly:
the same output, standard error and exit status; so are ``compare``, ``agreement``,
``compile``, ``judgements`` and ``benchmark``. Only the command that runs is imported (the
scorer's start-up time matters), and nothing here imports Flask. ``lexsub --version``
prints ``lexsub VERSION``; a missing or unknown command is a usage error (one line
``Error: …``, exit status 2).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import cast

from scoring.command import ArgumentParser

COMMANDS: dict[str, tuple[str, str, str]] = {
    "score": ("scoring.score", "run", "score a system as score.pl does (best, oot, mw)"),
    "compare": ("scoring.compare", "main", "many systems against one gold in one table"),
    "agreement": ("scoring.agreement.__main__", "main", "agreement report on annotators.jsonl"),
    "compile": ("annotate.compile", "run", "compile a gold from responses"),
    "judgements": ("scoring.judgements.cli", "main", "verdicts of a judgement round"),
    "benchmark": ("scoring.benchmark.cli", "main", "score a system on the field's benchmarks"),
}
"""Each command: the module that holds it, its function taking the arguments (``argv``)
and returning the exit status, and what it does."""


def parser() -> ArgumentParser:
    """The umbrella's own parser: the command's name, ``--help`` and ``--version``."""
    result = ArgumentParser(
        prog="lexsub",
        command="lexsub",
        description="Score lexical-substitution systems, compare them, report agreement "
        "and compile gold standards. `lexsub COMMAND --help` describes each command.",
        epilog="commands: "
        + "; ".join(f"{name}: {what}" for name, (_, _, what) in COMMANDS.items()),
    )
    result.add_argument("command", choices=tuple(COMMANDS), metavar="COMMAND")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``lexsub COMMAND ARGS``; the command's exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    # only the first word is the umbrella's: the rest, options included, is the command's
    name = parser().parse_args(arguments[:1]).command
    module, function, _ = COMMANDS[name]
    run = cast(Callable[[list[str]], int], getattr(importlib.import_module(module), function))
    return run(arguments[1:])


if __name__ == "__main__":
    sys.exit(main())
