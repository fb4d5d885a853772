"""``flask --app wsgi lexsub ...``: thin commands (parse, call a service, print)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import click
from flask import Flask
from flask.cli import AppGroup
from flask_migrate import upgrade
from sqlalchemy import select

from annotate.extensions import db
from annotate.importer import XMLImportError, parse_lexsub_xml
from annotate.models import Dataset, User
from annotate.services import ServiceError, create_user, export_records, import_dataset

lexsub = AppGroup("lexsub", help="lexsub: database, accounts, datasets, responses.")
DEMO = Path(__file__).resolve().parent / "demo" / "demo.xml"
DEMO_USERS = (("organiser", "organiser", "demo-organiser"),
              ("alice", "annotator", "demo-alice"), ("bob", "annotator", "demo-bob"))


def init_app(app: Flask) -> None:
    app.cli.add_command(lexsub)


@lexsub.command("init-db")
def init_db() -> None:
    """Create or upgrade the schema (Alembic migrations); safe to run again."""
    upgrade()
    click.echo(f"database ready: {db.engine.url.render_as_string(hide_password=True)}")


@lexsub.command("create-user")
@click.argument("name")
@click.option("--role", type=click.Choice(["annotator", "organiser"]), default="annotator",
              show_default=True)
@click.option("--password", help="Prompted for (hidden, twice) when not given.")
def create_user_command(name: str, role: str, password: str | None) -> None:
    """Create an account."""
    if password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    try:
        user = create_user(name, password, role)
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"created {user.role} {user.username}")


@lexsub.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--dataset", "name", required=True, help="Name of the dataset to create.")
def import_command(file: Path, name: str) -> None:
    """Import the task's XML (corpus/lexelt/instance/context/head) as a dataset."""
    started = time.perf_counter()
    data = file.read_bytes()
    try:
        result = parse_lexsub_xml(data, str(file))
        imported = import_dataset(result, name, file.name, data)
    except (XMLImportError, ServiceError) as error:
        raise click.ClickException(f"nothing imported: {error}") from error
    for repair in result.repairs:
        click.echo(f"repaired {file}:{repair.line} (instance {repair.instance_id}): "
                   f"{repair.what}")
    verb = "imported" if imported.created else "already imported, unchanged:"
    click.echo(f"{verb} {imported.instances} instances in {len(result.lexelts)} words as "
               f"dataset {name!r} ({len(result.repairs)} repairs, "
               f"{time.perf_counter() - started:.2f} s)")


@lexsub.command("export-responses")
@click.option("--dataset", "name", required=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def export_command(name: str, out: Path) -> None:
    """Write every (annotator, instance) answer as JSON Lines (docs/formats.md)."""
    dataset = db.session.scalar(select(Dataset).where(Dataset.name == name))
    if dataset is None:
        raise click.ClickException(f"no dataset {name!r}")
    count = 0
    with out.open("w", encoding="utf-8") as handle:
        for record in export_records(dataset):
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
    click.echo(f"wrote {count} responses to {out}")


@lexsub.command("demo")
def demo_command() -> None:
    """Create the demo dataset and demo accounts (once) and print the log-ins."""
    data = DEMO.read_bytes()
    imported = import_dataset(parse_lexsub_xml(data, str(DEMO)), "demo", DEMO.name, data)
    click.echo(f"demo dataset: {imported.instances} sentences")
    for username, role, password in DEMO_USERS:
        if db.session.scalar(select(User).where(User.username == username)) is None:
            create_user(username, password, role)
        click.echo(f"  {role:<9}  username {username:<9}  password {password}")
