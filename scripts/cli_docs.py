"""Write ``docs/cli.md``, the command-line reference, from the commands' own parsers.

Run from the checkout's root::

    python -m scripts.cli_docs          # rewrite docs/cli.md
    python -m scripts.cli_docs --check  # exit 1 when docs/cli.md is not what it would write

Every ``python -m`` entry point of ``scoring/`` and ``annotate/`` (a ``__main__.py``, or a
module ending in ``if __name__ == "__main__":``) is run in this process with its argument
parser captured, so the page holds each parser's ``--help`` text and its subcommands';
``lexsub score``, which takes score.pl's arguments and has no parser, gives what it prints
for ``--help``. The page follows ``lexsub --help``: each command's section, the app's from
click; then the ``python -m`` entry points that no ``lexsub`` command runs. Help is
formatted at a fixed width (``COLUMNS=100``), so the page does not depend on the terminal;
it names the Python
version it was made with, since argparse's layout changes between versions.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import re
import runpy
import sys
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import click

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "cli.md"
PACKAGES = ("scoring", "annotate")
WIDTH = 100
FLASK_GROUP = "flask --app wsgi lexsub"
COMMAND = "python -m scripts.cli_docs"
PYTHON = f"Python {sys.version_info.major}.{sys.version_info.minor}"
"""argparse lays help out a little differently from one Python version to the next."""


@dataclass(frozen=True)
class Help:
    """A command's ``--help`` text and its subcommands' (name, help), in parser order."""

    text: str
    subcommands: tuple[tuple[str, str], ...] = ()


class _Captured(Exception):
    def __init__(self, parser: argparse.ArgumentParser) -> None:
        super().__init__(parser.prog)
        self.parser = parser


@contextlib.contextmanager
def _fixed_width() -> Iterator[None]:
    """argparse wraps help to ``COLUMNS``: fix it while the help is formatted."""
    with mock.patch.dict(os.environ, {"COLUMNS": str(WIDTH)}):
        yield


def _subparsers(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    return [
        (name, sub)
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name, sub in action.choices.items()
    ]


def _help_of(run: Callable[[], object], argv0: str) -> Help:
    """The help of the command ``run`` starts: its parser's, captured when it parses, or
    what it prints for ``--help`` (on either stream) when it has no argparse parser."""

    def capture(parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        raise _Captured(parser)

    printed = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    with (
        _fixed_width(),
        mock.patch.object(argparse.ArgumentParser, "parse_known_args", capture),
        mock.patch.object(sys, "argv", [argv0, "--help"]),
        contextlib.redirect_stdout(printed),
        contextlib.redirect_stderr(io.StringIO()) as errors,
    ):
        try:
            run()
        except _Captured as captured:
            parser = captured.parser
            return Help(
                parser.format_help(),
                tuple((name, sub.format_help()) for name, sub in _subparsers(parser)),
            )
        except SystemExit:
            pass
        printed.flush()
    buffer = printed.buffer
    assert isinstance(buffer, io.BytesIO)
    return Help(buffer.getvalue().decode("utf-8") + errors.getvalue())


def entry_points() -> list[str]:
    """Every module of the packages that ``python -m`` runs, sorted."""
    modules = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__main__":
                modules.append(".".join(parts[:-1]))
            elif re.search(r'^if __name__ == "__main__":', path.read_text("utf-8"), re.M):
                modules.append(".".join(parts))
    return sorted(modules)


def console_scripts() -> dict[str, str]:
    """``[project.scripts]`` of pyproject.toml: script name → ``module:function``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    scripts: dict[str, str] = project.get("scripts", {})
    return scripts


def module_help(module: str) -> Help:
    return _help_of(lambda: runpy.run_module(module, run_name="__main__"), module)


def script_help(name: str, target: str) -> Help:
    module, _, function = target.partition(":")
    entry = getattr(importlib.import_module(module), function)
    return _help_of(entry, name)


def _block(text: str) -> list[str]:
    return ["```text", text.rstrip("\n"), "```", ""]


def _argparse_section(title: str, also: list[str], help: Help) -> list[str]:
    lines = [f"## `{title}`", ""]
    if also:
        names = ", ".join(f"`{name}`" for name in also)
        lines += [f"Console script: {names} (the same arguments and output).", ""]
    lines += _block(help.text)
    for name, text in help.subcommands:
        lines += [f"### `{title} {name}`", "", *_block(text)]
    return lines


def _click_sections(command: click.Command, ctx: click.Context, level: int) -> list[str]:
    lines = [f"{'#' * level} `{ctx.command_path}`", "", *_block(command.get_help(ctx))]
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                child = click.Context(sub, info_name=name, parent=ctx)
                lines += _click_sections(sub, child, min(level + 1, 3))
    return lines


def app_sections(name: str) -> list[str]:
    """``lexsub NAME`` of the app's click group, and its subcommands."""
    from annotate.cli import lexsub

    root = click.Context(lexsub, info_name="lexsub", terminal_width=WIDTH, max_content_width=WIDTH)
    command = lexsub.get_command(root, name)
    assert command is not None, name
    return _click_sections(command, click.Context(command, info_name=name, parent=root), 2)


def lexsub_help() -> Help:
    from scoring.lexsub import main

    return _help_of(lambda: main(["--help"]), "lexsub")


def command_help(name: str) -> Help:
    """``lexsub NAME --help`` of a command with an argparse parser (or score's own text)."""
    from scoring.lexsub import COMMANDS

    command = COMMANDS[name]
    run = getattr(importlib.import_module(command.module), command.function)
    return _help_of(lambda: run(["--help"]), f"lexsub {name}")


def render() -> str:
    """The text of docs/cli.md."""
    from scoring.lexsub import COMMANDS

    scripts = console_scripts()
    # the modules first: runpy runs a module best before anything has imported it
    module_helps = {module: module_help(module) for module in entry_points()}
    umbrella = lexsub_help()
    lines = [
        "# Command-line reference",
        "",
        f"Generated by `{COMMAND}` from the commands' own parsers (their `--help`, at",
        f"{WIDTH} columns, with {PYTHON}); `tests/test_cli_docs.py` fails when this page is out",
        "of date. Do not edit it by hand: change the parser, then run the command above.",
        "The works the help cites by author and year are in [references.md](references.md).",
        "",
        "Every command is `lexsub COMMAND`; the annotation study's commands are also",
        f"`{FLASK_GROUP} COMMAND` (the same click commands, on the app `--app` names).",
        "The console scripts below run the same commands as `lexsub` does:",
        "",
        "| console script | runs |",
        "|---|---|",
        *(f"| `{name}` | `{target}` |" for name, target in scripts.items()),
        "",
        "## `lexsub`",
        "",
        *_block(umbrella.text),
    ]
    covered = [umbrella]
    for name, command in COMMANDS.items():
        if command.named:
            lines += app_sections(name)
            continue
        help = command_help(name)
        covered.append(help)
        lines += _argparse_section(f"lexsub {name}", [], help)
    for module, help in module_helps.items():
        if help not in covered:
            lines += _argparse_section(f"python -m {module}", [], help)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description="Write docs/cli.md.")
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/cli.md differs")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = DOCS.read_text("utf-8") if DOCS.exists() else ""
        if current != text:
            name = os.path.relpath(DOCS, ROOT)
            print(f"Error: {name} is out of date: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    DOCS.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
