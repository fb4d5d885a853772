"""``flask --app wsgi lexsub checks``: a study's attention-check items from a file, or
listed (thin: parse, call :mod:`annotate.services.checks`, print). Errors end with
``Error: …`` (exit 1)."""

from __future__ import annotations

from pathlib import Path

import click
from flask.cli import with_appcontext
from sqlalchemy import select

from annotate.extensions import db
from annotate.models import Dataset
from annotate.services.checks import check_lines, check_text, parse_check_lines, set_checks
from annotate.services.rules import ServiceError
from scoring.files import TextError, read_text


@click.command("checks")
@with_appcontext
@click.option("--dataset", "name", required=True, help="The dataset (its study).")
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
def checks_command(name: str, file: Path | None) -> None:
    """Make the sentences listed in FILE the dataset's attention checks (replacing the
    ones it had; an empty FILE removes them), or print them without FILE. One a line:
    the sentence's id, white space, then the accepted substitutes apart by ';'. An
    answer matches when a substitute equals an accepted one after the compiler's
    normalisation and lemmatisation."""
    dataset: Dataset | None = db.session.scalar(select(Dataset).where(Dataset.name == name))
    if dataset is None:
        raise click.ClickException(f"no dataset {name!r}")
    if file is None:
        click.echo(check_text(check_lines(dataset)), nl=False)
        return
    try:
        text = read_text(file)
    except OSError as error:
        raise click.ClickException(f"cannot read {file}: {error.strerror}") from error
    except TextError as error:
        raise click.ClickException(str(error)) from error
    try:
        count = set_checks(dataset, parse_check_lines(text, str(file)), str(file))
    except ServiceError as error:
        db.session.rollback()
        raise click.ClickException(f"no check item saved: {error}") from error
    click.echo(f"{count} check items in {dataset.name}")
