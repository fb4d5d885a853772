"""What the ``lexsub`` commands share: reading a file they are given and finding a dataset
by name, each failure a :class:`click.ClickException` (``Error: …``, exit 1)."""

from __future__ import annotations

from pathlib import Path

import click

from annotate.models import Dataset
from annotate.services.rounds import dataset_named
from annotate.services.rules import ServiceError
from scoring.errors import FormatError
from scoring.files.bounded import read_text

DATABASE_OPTION = "--database-url"
DATABASE_HELP = (
    "The database: --database-url URL, else the DATABASE_URL variable, else the SQLite file "
    "in the instance folder (LEXSUB_INSTANCE)."
)
"""Which database the app's commands use (``lexsub COMMAND --database-url URL``)."""


def read_file(path: Path) -> str:
    """The text of ``path`` (UTF-8, or the rule it breaks, naming the file)."""
    try:
        return read_text(path)
    except OSError as error:
        raise click.ClickException(f"cannot read {path}: {error.strerror}") from error
    except FormatError as error:  # not UTF-8 text, or past the reading bounds
        raise click.ClickException(str(error)) from error


def dataset_called(name: str) -> Dataset:
    """The dataset named ``name`` (``no dataset 'NAME'`` when there is none)."""
    try:
        return dataset_named(name)
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
