"""``lexsub COMMAND …`` for the commands that need the app's database (``import``,
``report``, ``db upgrade`` …): the same click commands as ``flask --app wsgi lexsub …``,
run without ``--app``.

The database is the one ``--database-url URL`` names (anywhere among the arguments),
else ``DATABASE_URL``, else the SQLite file in the instance folder (``LEXSUB_INSTANCE``):
each command's ``--help`` says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import click
from flask import Flask
from flask.cli import ScriptInfo

from annotate.cli.common import DATABASE_OPTION


def split_database_url(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """``--database-url URL`` (or ``--database-url=URL``) taken out of ``argv``, anywhere
    before a ``--``; the rest unchanged. A second one, or one without its URL, is a usage
    error."""
    url: str | None = None
    rest: list[str] = []
    arguments = iter(argv)
    for argument in arguments:
        if argument == "--":
            rest.append(argument)
            rest.extend(arguments)
            break
        given: str | None
        if argument == DATABASE_OPTION:
            given = next(arguments, None)
            if given is None or given.startswith("--"):
                raise click.UsageError(f"{DATABASE_OPTION} needs a URL (such as sqlite:///x.db)")
        elif argument.startswith(DATABASE_OPTION + "="):
            given = argument.partition("=")[2]
        else:
            rest.append(argument)
            continue
        if url is not None:
            raise click.UsageError(f"{DATABASE_OPTION} given twice")
        if not given:
            raise click.UsageError(f"{DATABASE_OPTION} needs a URL (such as sqlite:///x.db)")
        url = given
    return url, rest


def make_app(url: str | None) -> Flask:
    """The app on the database ``url`` (None: the environment's or the instance folder's)."""
    from annotate import create_app

    return create_app({"SQLALCHEMY_DATABASE_URI": url} if url else None)


def run(argv: Sequence[str]) -> int:
    """Run ``lexsub ARGV`` (ARGV starting with an app command's name); the exit status."""
    from annotate.cli import OneLineUsageError, lexsub

    try:
        url, rest = split_database_url(argv)
    except click.UsageError as error:
        OneLineUsageError(error.format_message()).show()
        return 2
    info = ScriptInfo(create_app=lambda: make_app(url), set_debug_flag=False)
    try:
        lexsub.main(args=rest, prog_name="lexsub", obj=info, standalone_mode=True)
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0
