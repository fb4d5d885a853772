"""``lexsub …`` (or ``flask --app wsgi lexsub …``): the app's thin commands (parse, call
a service, print); :mod:`annotate.cli.app` runs them from the ``lexsub`` command.

No command prints a traceback: a file that cannot be read or written, bad data and a
database error end with ``Error: …`` naming the file (exit status 1), bad usage with
click's usage message (2).
"""

from __future__ import annotations

import copy
import json
import secrets
import time
from contextlib import suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup, ScriptInfo
from flask_migrate import upgrade
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from annotate.cli.common import DATABASE_HELP, DATABASE_OPTION, dataset_called, read_file
from annotate.extensions import db
from annotate.gold import CompileOptions
from annotate.gold.lemmatisers import kept_as_typed
from annotate.gold.methods import FORMATS as REPORT_FORMATS
from annotate.gold.methods import Format, methods_text, methods_warnings, models_text
from annotate.gold.review import review_lines
from annotate.importer import parse_lexsub_xml
from annotate.models import TASKS, Dataset, User, shown_time
from annotate.numeric import MAX_SEED
from annotate.services.accounts import create_user
from annotate.services.datasets import export_records, import_dataset
from annotate.services.exclusions import exclude, exclusions_of, include, stored_exclusions
from annotate.services.goldfiles import (
    decide,
    proposed_changes,
    write_dataset_gold,
    write_task_files,
)
from annotate.services.inspect import annotators_with_answers
from annotate.services.methods import SEED, model_comparisons, study_methods
from annotate.services.rules import ServiceError
from annotate.services.study import assign, create_users, parse_user_lines, unassign
from scoring.command import FAILURES, describe, one_line, version_line
from scoring.formats.exclusions import Exclusion, parse_exclusion
from scoring.formats.importers.read import parse_source, read_limited
from scoring.formats.instances import SourceError
from scoring.formats.language import iso639_1, language_name
from scoring.formats.registry import NAMES


class OneLineUsageError(click.UsageError):
    """A usage error shown as every command shows one: a line ``Error: …`` (status 2)."""

    def show(self, file: Any = None) -> None:
        hint = f" (see {self.ctx.command_path} --help)" if self.ctx is not None else ""
        click.echo(f"Error: {one_line(self.format_message())}{hint}", file=file, err=True)


class Commands(AppGroup):
    """The ``lexsub`` group: a database error, a file that cannot be read and bad usage in
    any command are a one-line message, not a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OneLineUsageError:
            raise
        except click.UsageError as error:
            raise OneLineUsageError(error.format_message(), error.ctx) from error
        except click.ClickException as error:
            raise click.ClickException(one_line(error.message)) from error
        except FAILURES as error:
            raise click.ClickException(one_line(describe(error))) from error
        except SQLAlchemyError as error:
            with ctx.ensure_object(ScriptInfo).load_app().app_context():
                with suppress(SQLAlchemyError):
                    db.session.rollback()
                url = db.engine.url.render_as_string(hide_password=True)
            problem = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
            raise click.ClickException(f"database {url}: {problem}") from error


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``lexsub --version``: ``lexsub VERSION``, as every command prints it."""
    if value and not ctx.resilient_parsing:
        click.echo(version_line("lexsub"))
        ctx.exit()


def _version_option() -> click.Option:
    return click.Option(
        ["--version"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_show_version,
        help="Print the version and exit.",
    )


def _refuse_database_url(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    """``--database-url`` reaches a command only under ``flask --app``, whose app (and
    database) is made already: say so instead of ignoring it."""
    if value is not None and not ctx.resilient_parsing:
        raise click.UsageError(
            "--database-url is for the lexsub command; under flask --app, set DATABASE_URL"
        )


def _database_option() -> click.Option:
    return click.Option(
        [DATABASE_OPTION],
        metavar="URL",
        expose_value=False,
        callback=_refuse_database_url,
        help="The database (default: DATABASE_URL, else the instance folder's SQLite file).",
    )


def _finish(command: click.Command) -> None:
    """Give ``command`` and every command under it ``--version`` and ``--database-url``
    (once), and say in its help which database it uses."""
    names = {param.name for param in command.params}
    if "version" not in names:
        command.params.append(_version_option())
    if "database_url" not in names:
        command.params.append(_database_option())
    if not command.epilog:
        command.epilog = DATABASE_HELP
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            _finish(sub)


def _alias(command: click.Command, name: str) -> click.Command:
    """``command`` under its former ``name``, kept working and left out of the help."""
    alias = copy.copy(command)
    alias.name = name
    alias.hidden = True
    return alias


lexsub = Commands(
    "lexsub", help="lexsub: database, accounts, datasets, responses.", params=[_version_option()]
)
db_group = AppGroup("db", help="The database: create or upgrade its schema.")
users_group = AppGroup("users", help="Accounts: create one, or many from a file.")
lexsub.add_command(db_group)
lexsub.add_command(users_group)
DEMO = Path(__file__).resolve().parents[1] / "demo" / "demo.xml"
DEMO_USERS = (
    ("organiser", "organiser", None),
    ("alice", "annotator", "demo-alice"),
    ("bob", "annotator", "demo-bob"),
)
"""The demo accounts: the organiser's password is made for each install
(:func:`demo_command`), the annotators' are known."""
OLD_ORGANISER_PASSWORD = "demo-organiser"
"""The demo organiser's password before each install made its own: an install whose
organiser still has it gets a new one."""


def init_app(app: Flask) -> None:
    """``flask --app wsgi lexsub …``: the same commands as ``lexsub …``."""
    app.cli.add_command(lexsub)


@db_group.command("upgrade")
def init_db() -> None:
    """Create or upgrade the schema (Alembic migrations); safe to run again."""
    upgrade()
    click.echo(f"database ready: {db.engine.url.render_as_string(hide_password=True)}")


lexsub.add_command(_alias(init_db, "init-db"))


@lexsub.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=5000, show_default=True)
def serve_command(host: str, port: int) -> None:
    """Run the development server (one process; behind gunicorn for a real study, see
    docs/deploy.md)."""
    click.echo(
        f"serving {db.engine.url.render_as_string(hide_password=True)} at http://{host}:{port}/",
        err=True,
    )
    current_app.run(host=host, port=port, debug=False, load_dotenv=False)


@users_group.command("create")
@click.argument("name")
@click.option(
    "--role", type=click.Choice(["annotator", "organiser"]), default="annotator", show_default=True
)
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


lexsub.add_command(_alias(create_user_command, "create-user"))


def _language(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--language``: an ISO 639-1 code, or click's usage error naming the rule."""
    if value is None:
        return None
    try:
        return iso639_1(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from error


class _FileOrFolder(click.Path):
    """A file, or the folder of ``--format hf``; named "File" in messages, as before."""

    def __init__(self) -> None:
        super().__init__(exists=True, path_type=Path)
        self.name = "file"


@lexsub.command("import")
@click.argument("file", type=_FileOrFolder())
@click.option("--dataset", "name", required=True, help="Name of the dataset to create.")
@click.option(
    "--language",
    callback=_language,
    metavar="CODE",
    help="The dataset's language, an ISO 639-1 code (wins over the file's <corpus lang>).",
)
@click.option(
    "--format",
    "format_",
    type=click.Choice((*NAMES, "hf")),
    help="The file's format (default: told from the content); hf: a folder export-hf wrote.",
)
@click.option(
    "--task",
    type=click.Choice(TASKS),
    help="What the annotators do (default: simplification or complexity for --format tsar, "
    "else substitution).",
)
def import_command(
    file: Path, name: str, language: str | None, format_: str | None, task: str | None
) -> None:
    """Import FILE as a dataset: the task's XML, CoInCo XML, SWORDS JSON, a TSV or CSV
    table (id, lexelt, sentence with <head>...</head>), any of them gzip-compressed, or
    (--format tsar) a TSAR-2022 or MLSP-2024 file: SENTENCE<TAB>WORD[<TAB>SUBSTITUTE...]
    makes a simplification study, MLSP's *_lcp.tsv a complexity study; or (--format hf)
    a folder that export-hf wrote, with its answers."""
    started = time.perf_counter()
    if format_ == "hf" or file.is_dir():
        _import_hub(file, name, language, format_)
        return
    limits = current_app.config["IMPORT_LIMITS"]
    try:
        data = read_limited(file, limits)
    except OSError as error:
        raise click.ClickException(f"cannot read {file}: {error.strerror}") from error
    except SourceError as error:
        raise click.ClickException(f"nothing imported: {error}") from error
    try:
        result = parse_source(data, str(file), format_, language, limits)
        if task is not None:
            result = replace(result, task=task)
        imported = import_dataset(result, name, file.name, data)
    except SourceError as error:  # it names FILE:LINE or FILE:PATH
        raise click.ClickException(f"nothing imported: {error}") from error
    except ServiceError as error:
        raise click.ClickException(f"nothing imported from {file}: {error}") from error
    for repair in result.repairs:
        click.echo(f"repaired {file}:{repair.line} (instance {repair.instance_id}): {repair.what}")
    for note in result.notes:
        click.echo(f"{file}: {note}")
    click.echo(f"language {imported.dataset.language} ({language_name(imported.dataset.language)})")
    click.echo(f"task {imported.dataset.task}")
    if imported.dataset.reference:
        click.echo(f"the file's {imported.dataset.task} gold is kept as the reference gold")
    verb = "imported" if imported.created else "already imported, unchanged:"
    click.echo(
        f"{verb} {imported.instances} instances in {len(result.lexelts)} words as "
        f"dataset {name!r} ({len(result.repairs)} repairs, "
        f"{time.perf_counter() - started:.2f} s)"
    )


def _import_hub(folder: Path, name: str, language: str | None, format_: str | None) -> None:
    """``lexsub import DIR --format hf``: the folder's gold rows and answers
    (:func:`annotate.services.hub.import_hub`)."""
    from annotate.services.hub import import_hub
    from scoring.formats.hf import NeedsPyarrow

    if format_ != "hf":
        raise click.UsageError(f"{folder} is a folder: only --format hf reads a folder")
    if not folder.is_dir():
        raise click.UsageError(f"{folder} is a file: --format hf reads the folder export-hf wrote")
    try:
        imported = import_hub(folder, name, language)
    except NeedsPyarrow as error:
        raise click.ClickException(str(error)) from error
    except ServiceError as error:
        raise click.ClickException(f"nothing imported from {folder}: {error}") from error
    verb = "imported" if imported.created else "already imported, unchanged:"
    click.echo(f"language {imported.dataset.language} ({language_name(imported.dataset.language)})")
    click.echo(
        f"{verb} {imported.instances} instances as dataset {name!r} with the answers of "
        f"{folder / 'annotations'}"
    )


@lexsub.command("export")
@click.option("--dataset", "name", required=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def export_command(name: str, out: Path) -> None:
    """Write every (annotator, instance) answer as JSON Lines (docs/formats.md)."""
    dataset = dataset_called(name)
    count = 0
    try:
        with out.open("w", encoding="utf-8") as handle:
            for record in export_records(dataset):
                handle.write(json.dumps(record, ensure_ascii=False) + "\n")
                count += 1
    except OSError as error:
        raise click.ClickException(f"cannot write {out}: {error.strerror}") from error
    click.echo(f"wrote {count} responses to {out}")


lexsub.add_command(_alias(export_command, "export-responses"))


@lexsub.command("demo")
@click.option(
    "--organiser-password",
    help="Give the demo organiser this password (for scripts and tests; default: a random"
    " one when the account is made, printed once).",
)
def demo_command(organiser_password: str | None) -> None:
    """Create the demo dataset and demo accounts (once) and print the log-ins. The demo
    organiser's password is made for this install and printed only then; an annotator's
    known password is printed only while it still opens the account."""
    data = DEMO.read_bytes()
    imported = import_dataset(parse_lexsub_xml(data, str(DEMO)), "demo", DEMO.name, data)
    click.echo(f"demo dataset: {imported.instances} sentences")
    try:
        for username, role, known in DEMO_USERS:
            user = db.session.scalar(select(User).where(User.username == username))
            if known is None:
                user, shown = _demo_organiser(user, username, organiser_password)
            else:
                if user is None:
                    user = create_user(username, known, role)
                assign(user, imported.dataset)  # the demo dataset is theirs only
                works = user.check_password(known)
                shown = known if works else "not shown (changed since the account was made)"
            click.echo(f"  {role:<9}  username {username:<9}  password {shown}")
    except ServiceError as error:
        raise click.ClickException(str(error)) from error


def _demo_organiser(user: User | None, username: str, given: str | None) -> tuple[User, str]:
    """The demo organiser and what to print of its password: made (``given``, else a
    random one) when the account is new, still has :data:`OLD_ORGANISER_PASSWORD`, or
    ``given`` is; otherwise not shown, since only its maker knows it."""
    if user is not None and given is None and not user.check_password(OLD_ORGANISER_PASSWORD):
        return user, (
            "not shown (printed once, when it was made; `lexsub demo"
            " --organiser-password NEW` sets another)"
        )
    password = given or secrets.token_urlsafe(12)
    if user is None:
        user = create_user(username, password, "organiser")
    else:
        if len(password) < 8:
            raise ServiceError("a password has at least 8 characters")
        user.set_password(password)
        db.session.commit()
    return user, password if given else f"{password}  (made for this install: shown only now)"


@lexsub.command("assign")
@click.argument("username")
@click.option("--dataset", "name", required=True, help="The dataset to assign.")
@click.option("--remove", is_flag=True, help="Take the dataset away (answers stay).")
def assign_command(username: str, name: str, remove: bool) -> None:
    """Assign a dataset to an annotator (only members see and open it), or --remove it."""
    dataset = dataset_called(name)
    user = db.session.scalar(select(User).where(User.username == username))
    if user is None:
        raise click.ClickException(f"no user {username!r}")
    try:
        changed = unassign(user, dataset) if remove else assign(user, dataset)
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    if remove:
        click.echo(
            f"{username} {'removed from' if changed else 'was not a member of'} dataset {name!r}"
        )
    else:
        click.echo(
            f"{username} {'assigned to' if changed else 'already assigned to'} dataset {name!r}"
        )


@users_group.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--dataset", "name", help="Assign every new account to this dataset.")
def create_users_command(file: Path, name: str | None) -> None:
    """Create annotator accounts from FILE: one username a line, optionally a tab or
    space and a password; generated passwords are printed once."""
    dataset = dataset_called(name) if name else None
    text = read_file(file)
    try:
        created = create_users(parse_user_lines(text, str(file)), dataset)
    except ServiceError as error:
        raise click.ClickException(f"no account created: {error}") from error
    for account in created:
        click.echo(f"{account.username}\t{account.password}")
    click.echo(f"created {len(created)} annotator accounts", err=True)


lexsub.add_command(_alias(create_users_command, "create-users"))


def _exclusions(
    ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
) -> tuple[Exclusion, ...]:
    """``--exclude USER[=REASON]``: each an :class:`Exclusion`, or click's usage error."""
    try:
        return tuple(parse_exclusion(value) for value in values)
    except ValueError as error:
        raise click.BadParameter(str(error)) from error


def _check_answered(dataset: Dataset, excluded: tuple[Exclusion, ...]) -> None:
    """Refuse an ``--exclude`` naming nobody who answered in the dataset (a typo would
    otherwise leave everyone in, silently)."""
    answered = set(annotators_with_answers(dataset))
    absent = [exclusion.annotator for exclusion in excluded if exclusion.annotator not in answered]
    if absent:
        raise click.ClickException(
            f"dataset {dataset.name!r} has no answers of {', '.join(map(repr, absent))} "
            "(--exclude names an annotator who answered); nothing written"
        )


@lexsub.command("compile")
@click.option("--dataset", "name", required=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option("--no-normalise", is_flag=True, help="Keep the forms as typed.")
@click.option("--no-lemmatise", is_flag=True, help="Do not lemmatise.")
@click.option(
    "--t-rule",
    type=click.Choice(["annotators", "responses"]),
    default="annotators",
    show_default=True,
    help="T: two annotators, or two responses.",
)
@click.option("--only-t", is_flag=True, help="Write only the items in T to gold.")
@click.option(
    "--exclude",
    "excluded",
    multiple=True,
    callback=_exclusions,
    metavar="USER[=REASON]",
    help="Leave USER's answers out of this compile, with REASON (repeatable); "
    "'lexsub exclude' keeps an exclusion for every compile and page.",
)
@click.option(
    "--keep-checks",
    is_flag=True,
    help="Keep the attention-check sentences (left out by default; summary.json counts them).",
)
@click.option(
    "--include-models",
    is_flag=True,
    help="Compile the answers of model annotators (llm:MODEL) too (left out by default).",
)
def compile_command(
    name: str,
    out: Path,
    no_normalise: bool,
    no_lemmatise: bool,
    t_rule: str,
    only_t: bool,
    excluded: tuple[Exclusion, ...],
    keep_checks: bool,
    include_models: bool,
) -> None:
    """Compile the dataset's responses, with the stored lemma decisions, in the dataset's
    language, into DIR: gold, mwgold, annotators.jsonl, summary.json and decisions.json.
    The annotators left out (--exclude, 'lexsub exclude', and removed or deactivated
    members) are listed with their reasons in summary.json's "excluded"."""
    options = CompileOptions(
        normalise=not no_normalise,
        lemmatise=not no_lemmatise,
        t_rule=t_rule,  # type: ignore[arg-type]
        only_t=only_t,
        excluded=excluded,
        keep_checks=keep_checks,
        include_models=include_models,
    )
    dataset = dataset_called(name)
    if dataset.task == "complexity":
        _compile_ratings(dataset, out)
        return
    _check_answered(dataset, excluded)
    try:
        gold = write_dataset_gold(dataset, out, options)
    except OSError as error:
        raise click.ClickException(
            f"cannot write {error.filename or out}: {error.strerror}"
        ) from error
    except ValueError as error:  # responses the compiler refuses: it names each
        raise click.ClickException(f"dataset {name!r} not compiled into {out}: {error}") from error
    in_t = sum(1 for item in gold.items if item.in_t)
    language = ""
    if gold.language != "en":  # English's line stays as it was
        lemmatiser = (
            " ".join(gold.lemmatiser[:2])
            if gold.lemmatiser
            else f"no lemmatiser: {kept_as_typed(gold.language)}"
        )
        language = f" (language {gold.language}, {lemmatiser})"
    click.echo(
        f"compiled {gold.responses} responses of {len(gold.annotators)} annotators{language}: "
        f"{len(gold.items)} items, {in_t} in T; files in {out}"
    )
    for left in gold.excluded:
        click.echo(f"left out {left.annotator} ({left.responses} responses): {left.reason}")
    if dataset.task == "simplification":
        click.echo(f"simplification study: TSAR's gold layout in {out / 'tsar_gold.tsv'}")


def _compile_ratings(dataset: Dataset, out: Path) -> None:
    """``lexsub compile`` of a complexity study: MLSP's layout and the ratings' alpha."""
    try:
        files = write_task_files(dataset, out)
    except OSError as error:
        raise click.ClickException(
            f"cannot write {error.filename or out}: {error.strerror}"
        ) from error
    rated = files["lcp_gold.tsv"].count("\n")
    agreement = json.loads(files["agreement.json"])
    alpha = agreement["alpha"]
    figures = (
        f"ordinal alpha {alpha['ordinal']:.4f}, interval alpha {alpha['interval']:.4f}"
        if alpha
        else f"no alpha: {agreement['reason']}"
    )
    click.echo(
        f"compiled the ratings of {rated} targets ({figures}): lcp_gold.tsv and "
        f"agreement.json in {out}"
    )


@lexsub.command("exclude")
@click.argument("username", required=False)
@click.option("--dataset", "name", required=True)
@click.option("--reason", help="Why USER is left out (required to leave out).")
@click.option("--undo", is_flag=True, help="Take USER back into the gold.")
def exclude_command(name: str, username: str | None, reason: str | None, undo: bool) -> None:
    """Leave USER out of the dataset's gold, agreement and scores (every compile, page and
    download), with --reason; their answers stay. --undo takes them back. Without USER,
    list everyone left out: these, and removed or deactivated members."""
    dataset = dataset_called(name)
    if username is None:
        if reason is not None or undo:
            raise click.UsageError("--reason and --undo need USER")
        stored = {row.annotator: row for row in stored_exclusions(dataset)}
        every = exclusions_of(dataset)
        for exclusion in every:
            row = stored.get(exclusion.annotator)
            by = f" (by {row.excluded_by}, {shown_time(row.excluded_at)})" if row else ""
            click.echo(f"{exclusion.annotator}\t{exclusion.reason}{by}")
        click.echo(f"{len(every)} annotators left out of dataset {name!r}", err=True)
        return
    try:
        if undo:
            if reason is not None:
                raise click.UsageError("give --reason or --undo, not both")
            done = include(dataset, username)
            click.echo(
                f"{username} {'taken back into' if done else 'was not left out of'} "
                f"dataset {name!r}"
            )
            return
        if reason is None:
            raise click.UsageError("give --reason (why the annotator is left out)")
        exclude(dataset, username, reason, "cli")
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"{username} left out of dataset {name!r}: {reason.strip()}")


@lexsub.command("report")
@click.option("--dataset", "name", required=True)
@click.option(
    "--format",
    "format_",
    type=click.Choice(REPORT_FORMATS),
    default="markdown",
    show_default=True,
    help="Markdown or LaTeX.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, MAX_SEED),
    default=SEED,
    show_default=True,
    help="Seed of the bootstrap intervals over lemmas.",
)
@click.option(
    "--include-models",
    is_flag=True,
    help="Count the model annotators (llm:MODEL) among the annotators of the paragraph.",
)
def report_command(name: str, format_: Format, seed: int, include_models: bool) -> None:
    """Print the methods paragraph: annotators (and who was left out, why), items,
    responses and substitutes per item, T, PA and PAm with their bootstrap intervals,
    alpha (MASI), and the signatures; the text of the dataset's Methods paragraph page.
    When a model answered the dataset (lexsub llm-annotate), a section after the
    paragraph sets each model beside the people: its PA and PAm against the human gold,
    and, leaving each person out in turn, the person's PA with the rest beside the
    model's."""
    dataset = dataset_called(name)
    try:
        figures = study_methods(dataset, seed, include_models)
        comparisons = model_comparisons(dataset)
    except ValueError as error:  # responses the compiler refuses: it names each
        raise click.ClickException(f"dataset {name!r}: {error}") from error
    click.echo(methods_text(figures, format_), nl=False)
    click.echo(models_text(comparisons, format_), nl=False)
    for warning in methods_warnings(figures):  # beside the paragraph, not inside it
        click.echo(f"Warning: {warning}", err=True)


@lexsub.command("lemmas")
@click.option("--dataset", "name", required=True)
@click.option("--accept", "accept", metavar="SURFACE", help="Accept the proposed lemma.")
@click.option("--reject", "reject", metavar="SURFACE", help="Keep the surface form.")
@click.option("--correct", nargs=2, metavar="SURFACE LEMMA", help="Use LEMMA instead.")
@click.option("--lexelt", help="Decide for this word only (default: every word).")
def lemmas_command(
    name: str,
    accept: str | None,
    reject: str | None,
    correct: tuple[str, str] | None,
    lexelt: str | None,
) -> None:
    """List the lemma changes the compiler proposes (surface → lemma, count, items), or
    record a decision on one; decisions win over the lemmatiser."""
    dataset = dataset_called(name)
    chosen = [
        (a, s, lemma)
        for a, s, lemma in (
            ("accept", accept, None),
            ("reject", reject, None),
            ("correct", *(correct or (None, None))),
        )
        if s
    ]
    if len(chosen) > 1:
        raise click.UsageError("give one of --accept, --reject, --correct")
    if chosen:
        action, surface, lemma = chosen[0]
        assert surface is not None
        try:
            decide(dataset, surface, action, lemma, lexelt, "cli")
        except ServiceError as error:
            raise click.ClickException(str(error)) from error
        click.echo(
            f"{action} {surface!r}{' → ' + lemma if lemma else ''} for {lexelt or 'every word'}"
        )
        return
    try:
        changes = proposed_changes(dataset)
    except ValueError as error:  # responses the compiler refuses: it names each
        raise click.ClickException(f"dataset {name!r}: {error}") from error
    for line in review_lines(changes):
        click.echo(line)
    click.echo(
        f"{len(changes)} lemma changes, "
        f"{sum(1 for change in changes if change.decision is None)} undecided"
    )


def _register_groups() -> None:
    """The groups of their own modules (they import this one), and every command's
    ``--version``, ``--database-url`` and help on the database."""
    from annotate.cli.checks import checks_command
    from annotate.cli.datasets import dataset_group
    from annotate.cli.hub import export_hf_command
    from annotate.cli.llm import llm_annotate_command
    from annotate.cli.rounds import round_group

    lexsub.add_command(dataset_group)
    lexsub.add_command(round_group)
    lexsub.add_command(checks_command)
    lexsub.add_command(export_hf_command)
    lexsub.add_command(llm_annotate_command)
    _finish(lexsub)


_register_groups()
