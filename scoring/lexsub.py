"""``lexsub COMMAND ARGS``: every command of lexsub under one console script.

The scoring library's commands (``score``, ``compare``, ``agreement``, ``judgements``,
``benchmark``) and the gold compiler (``compile``) run as their own console scripts do:
the same output, standard error and exit status. The annotation study's commands
(``serve``, ``db upgrade``, ``import`` …) are the app's (:mod:`annotate.cli`), run on the
database that ``--database-url``, ``DATABASE_URL`` or the instance folder names. Only the
command that runs is imported, so the scorer never loads Flask. ``lexsub --version``
prints ``lexsub VERSION``; a missing or unknown command is a usage error (one line
``Error: …``, exit status 2).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import NamedTuple, cast

from scoring.command import ArgumentParser


class Command(NamedTuple):
    """One ``lexsub`` command: the module that holds it, its function (taking the
    arguments and returning the exit status), what it does and the group ``--help`` lists
    it under. ``named``: the function is given the command's name too (the app's commands
    are one click group)."""

    module: str
    function: str
    what: str
    group: str
    named: bool = False


STUDY = "annotation study"
GOLD = "gold"
SCORING = "scoring"
BENCHMARKS = "benchmarks"
GROUPS = (STUDY, GOLD, SCORING, BENCHMARKS)


def _app(what: str, group: str = STUDY) -> Command:
    return Command("annotate.cli.app", "run", what, group, named=True)


COMMANDS: dict[str, Command] = {
    "serve": _app("run the annotation app (development server)"),
    "db": _app("create or upgrade the database (db upgrade)"),
    "demo": _app("load the demo dataset and accounts"),
    "import": _app("import a dataset (the task's XML, CoInCo, SWORDS, TSV, TSAR, MLSP)"),
    "users": _app("create accounts (users create, users import)"),
    "assign": _app("make an annotator a member of a dataset"),
    "dataset": _app("rename, archive or delete a dataset"),
    "checks": _app("a crowd study's attention-check items"),
    "round": _app("judgement rounds"),
    "llm-annotate": _app("a language model answers a dataset as an annotator (llm:MODEL)"),
    "export": _app("export a dataset's responses (JSON Lines)", GOLD),
    "lemmas": _app("review the compiler's lemma changes", GOLD),
    "exclude": _app("leave an annotator out of the gold", GOLD),
    "compile": Command(
        "annotate.compile", "run", "compile a gold from responses or a dataset", GOLD
    ),
    "report": _app("the methods paragraph of a dataset", GOLD),
    "export-hf": _app("a gold as a Hugging Face dataset folder (Parquet, card)", GOLD),
    "agreement": Command(
        "scoring.agreement.__main__", "main", "agreement report on annotators.jsonl", GOLD
    ),
    "judgements": Command("scoring.judgements.cli", "main", "verdicts of a judgement round", GOLD),
    "score": Command(
        "scoring.score.cli", "main", "score a system as score.pl does (best, oot, mw)", SCORING
    ),
    "compare": Command(
        "scoring.leaderboard.cli", "main", "many systems against one gold in one table", SCORING
    ),
    "benchmark": Command(
        "scoring.benchmark.cli", "main", "score a system on the field's benchmarks", BENCHMARKS
    ),
    "generate": Command(
        "annotate.generate.cli",
        "run",
        "run the WordNet baseline or a language model on a dataset's items",
        SCORING,
    ),
    "convert": Command(
        "annotate.convert",
        "main",
        "convert gold and systems to and from SWORDS' JSON, gold to Hugging Face's",
        BENCHMARKS,
    ),
}
"""Every command, in the order ``lexsub --help`` lists them within their group."""

ALIASES = {
    "init-db": "db",
    "create-user": "users",
    "create-users": "users",
    "export-responses": "export",
}
"""The app's former command names: they still run (under ``flask --app wsgi lexsub`` too),
unlisted."""


def listing() -> str:
    """The commands by group, for ``lexsub --help``."""
    width = max(map(len, COMMANDS))
    blocks = []
    for group in GROUPS:
        lines = [f"{group}:"]
        lines += [
            f"  {name:<{width}}  {command.what}"
            for name, command in COMMANDS.items()
            if command.group == group
        ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n\n`lexsub COMMAND --help` describes each command."


def parser() -> ArgumentParser:
    """The umbrella's own parser: the command's name, ``--help`` and ``--version``."""
    result = ArgumentParser(
        prog="lexsub",
        command="lexsub",
        description="Annotation studies, gold standards and scoring for lexical substitution.",
        epilog=listing(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    result.add_argument("command", metavar="COMMAND", help="one of the commands below")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``lexsub COMMAND ARGS``; the command's exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    # only the first word is the umbrella's: the rest, options included, is the command's
    umbrella = parser()
    name = umbrella.parse_args(arguments[:1]).command
    if name not in COMMANDS and name not in ALIASES:
        close = difflib.get_close_matches(name, COMMANDS, n=1)
        umbrella.error(
            f"unknown command {name!r}" + (f": did you mean {close[0]!r}?" if close else "")
        )
    command = COMMANDS[ALIASES.get(name, name)]
    run = cast(
        Callable[[list[str]], int],
        getattr(importlib.import_module(command.module), command.function),
    )
    return run(arguments if command.named else arguments[1:])


if __name__ == "__main__":
    sys.exit(main())
