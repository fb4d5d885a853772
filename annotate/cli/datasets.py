"""``lexsub dataset ...``: rename, archive and delete a dataset from the
command line (thin: parse, call :mod:`annotate.services.datasets`, print), as the
dataset's settings page does. Errors end with ``Error: …`` (exit 1)."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from annotate.services.datasets import Removal, delete_dataset, rename_dataset, set_archived
from annotate.services.rounds import dataset_named
from annotate.services.rules import ServiceError

dataset_group = AppGroup("dataset", help="Datasets: rename, archive, unarchive, delete.")


@dataset_group.command("rename")
@click.argument("name")
@click.argument("new_name")
def rename_command(name: str, new_name: str) -> None:
    """Rename dataset NAME to NEW_NAME (its answers, members and study link stay)."""
    try:
        rename_dataset(dataset_named(name), new_name)
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"renamed dataset {name!r} to {new_name.strip()!r}")


@dataset_group.command("archive")
@click.argument("name")
@click.option("--undo", is_flag=True, help="Unarchive it: its members see it again.")
def archive_command(name: str, undo: bool) -> None:
    """Archive dataset NAME: kept whole, hidden from annotators (not listed, not opened,
    its study link closed); --undo brings it back."""
    try:
        dataset = dataset_named(name)
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    set_archived(dataset, not undo)
    click.echo(f"dataset {name!r} {'unarchived' if undo else 'archived'}")


@dataset_group.command("delete")
@click.argument("name")
@click.option(
    "--confirm",
    "typed",
    metavar="NAME",
    help="The dataset's name again: without it nothing is deleted and what would go is printed.",
)
def delete_command(name: str, typed: str | None) -> None:
    """Delete dataset NAME and everything of it in one transaction (export its responses
    and gold first); without --confirm NAME, print what would go and delete nothing."""
    try:
        dataset = dataset_named(name)
        removal = delete_dataset(dataset, typed or "", preview=typed is None, who="cli")
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    click.echo(
        ("deleted" if typed is not None else f"would delete (confirm with --confirm {name!r})")
        + f" dataset {name!r}:"
    )
    click.echo(_removal_text(removal), nl=False)


def _removal_text(removal: Removal) -> str:
    """The rows per table, the unlinked rows, the participant accounts."""
    lines = [f"  {table}: {count} rows" for table, count in sorted(removal.rows.items())]
    lines += [
        f"  {table}: {count} rows kept without their link"
        for table, count in sorted(removal.unlinked.items())
    ]
    if removal.accounts_deleted:
        lines.append(f"  participant accounts deleted: {', '.join(removal.accounts_deleted)}")
    if removal.accounts_kept:
        lines.append(f"  participant accounts kept: {', '.join(removal.accounts_kept)}")
    return "".join(line + "\n" for line in lines)
