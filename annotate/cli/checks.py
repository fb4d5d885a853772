"""``lexsub checks``: a study's attention-check items from a file, or
listed (thin: parse, call :mod:`annotate.services.checks`, print). Errors end with
``Error: …`` (exit 1)."""

from __future__ import annotations

from pathlib import Path

import click
from flask.cli import with_appcontext

from annotate.cli.common import dataset_called, read_file
from annotate.extensions import db
from annotate.services.checks import check_lines, check_text, parse_check_lines, set_checks
from annotate.services.rules import ServiceError


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
    dataset = dataset_called(name)
    if file is None:
        click.echo(check_text(check_lines(dataset)), nl=False)
        return
    text = read_file(file)
    try:
        count = set_checks(dataset, parse_check_lines(text, str(file)), str(file))
    except ServiceError as error:
        db.session.rollback()
        raise click.ClickException(f"no check item saved: {error}") from error
    click.echo(f"{count} check items in {dataset.name}")
