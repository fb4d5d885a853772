"""Organiser pages: datasets and import, accounts, progress, export.

Every route here refuses annotators with 403 (``tests/test_organiser.py`` checks them all).
"""

from __future__ import annotations

import io
import json
import shlex
from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_login import current_user
from sqlalchemy import func, select
from werkzeug.wrappers import Response as BaseResponse

from annotate.extensions import db
from annotate.gold import CompileOptions, summary
from annotate.gold.write import FILES
from annotate.models import Dataset, Instance, User
from annotate.services.accounts import create_user
from annotate.services.datasets import (
    delete_dataset,
    deletions,
    export_records,
    import_dataset,
    progress_by_annotator,
    progress_by_word,
    rename_dataset,
    set_archived,
)
from annotate.services.exclusions import exclude, include, stored_exclusions
from annotate.services.goldfiles import (
    BrokenDataset,
    accept_all,
    compile_dataset,
    decide,
    gold_files,
    gold_zip,
    lemma_review_of,
)
from annotate.services.home import ENOUGH_ITEMS, dataset_home, dataset_row
from annotate.services.pseudonyms import pseudonyms_of
from annotate.services.rules import ServiceError
from annotate.web.access import organiser_required
from scoring.formats.importers.read import parse_source
from scoring.formats.language import iso639_1, language_name
from scoring.formats.registry import NAMES

bp = Blueprint("organiser", __name__, url_prefix="/organiser")
T_RULES = ("annotators", "responses")


@bp.app_errorhandler(BrokenDataset)
def broken_dataset(error: BrokenDataset) -> tuple[str, int]:
    """A page that compiles a dataset whose stored responses break the gold's rules
    (imported by an older version): the problem, never a 500."""
    return render_template("error.html", code=409, message=str(error)), 409


@bp.get("/")
@organiser_required
def dashboard() -> str:
    """Every dataset in use, one row each (task, language, progress, what needs the
    organiser, last activity) linking to its home; the archived ones collapsed."""
    datasets = list(db.session.scalars(select(Dataset).order_by(Dataset.id)))
    return render_template(
        "organiser/dashboard.html",
        rows=[dataset_row(d) for d in datasets if d.archived_at is None],
        archived=[d for d in datasets if d.archived_at is not None],
        endpoints=set(current_app.view_functions),
        deletions=deletions(),
    )


@bp.route("/datasets", methods=["GET", "POST"])
@organiser_required
def datasets() -> str | BaseResponse:
    """The datasets and the import form: a file in any format of
    :mod:`scoring.formats.importers` (told from the content unless chosen), the dataset's
    name and, optionally, its language; the same parsing and storing as ``lexsub import``."""
    report: dict[str, Any] | None = None
    typed = {"name": "", "format": "", "language": ""}  # what was typed, kept after an error
    if request.method == "POST":
        upload = request.files.get("file")
        name = request.form.get("name", "").strip()
        format_ = request.form.get("format") or None
        language = request.form.get("language", "").strip() or None
        typed = {"name": name, "format": format_ or "", "language": language or ""}
        if upload is None or not upload.filename:
            flash("Choose a file to import.", "error")
        else:
            data = upload.read()
            try:
                limits = current_app.config["IMPORT_LIMITS"]
                result = parse_source(data, upload.filename, format_, language, limits)
                imported = import_dataset(result, name or upload.filename, upload.filename, data)
            except ValueError as error:  # SourceError, ServiceError, a bad format or language
                flash(f"Nothing imported: {error}", "error")
            else:
                typed = dict.fromkeys(typed, "")
                report = {
                    "dataset": imported.dataset.name,
                    "created": imported.created,
                    "instances": imported.instances,
                    "repairs": result.repairs,
                    "notes": result.notes,
                }
    listing = list(db.session.scalars(select(Dataset).order_by(Dataset.id)))
    return render_template(
        "organiser/datasets.html", datasets=listing, report=report, formats=NAMES, typed=typed
    )


@bp.get("/datasets/<id:dataset_id>")
@organiser_required
def dataset(dataset_id: int) -> str:
    """A dataset's home: what the study is, its state at a glance (progress, answers
    today, agreement so far), what needs the organiser and the study's next step
    (:mod:`annotate.services.home`, computed on this request only)."""
    dataset = db.get_or_404(Dataset, dataset_id)
    return render_template(
        "organiser/dataset.html",
        dataset=dataset,
        home=dataset_home(dataset),
        names=pseudonyms_of(dataset).on_organiser_pages,
        enough=ENOUGH_ITEMS,
        language=language_name(dataset.language),
    )


@bp.route("/datasets/<id:dataset_id>/settings", methods=["GET", "POST"])
@organiser_required
def settings(dataset_id: int) -> str | BaseResponse:
    """A dataset's settings: its source, its size and its language, which can be changed here
    (an ISO 639-1 code; it picks the lemmatiser and the annotator pages' language); its
    name; archiving (hidden from annotators, kept) and the way to its deletion."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if request.method == "POST":
        action = request.form.get("action", "language")
        if action == "rename":
            old = dataset.name
            try:
                rename_dataset(dataset, request.form.get("name", ""))
            except ServiceError as error:
                flash(f"Not renamed: {error}", "error")
            else:
                flash(f"Dataset {old} is now named {dataset.name}.", "info")
        elif action in ("archive", "unarchive"):
            set_archived(dataset, action == "archive")
            flash(
                f"{dataset.name} is archived: annotators no longer see it."
                if dataset.archived_at
                else f"{dataset.name} is back: its members see it again.",
                "info",
            )
        else:
            try:
                code = iso639_1(request.form.get("language", ""))
            except ValueError as error:
                flash(f"Language not changed: {error}", "error")
            else:
                dataset.language = code
                db.session.commit()
                flash(f"Language of {dataset.name} set to {code} ({language_name(code)}).", "info")
        return redirect(url_for("organiser.settings", dataset_id=dataset.id))
    instances = db.session.scalar(
        select(func.count(Instance.id)).where(Instance.dataset_id == dataset.id)
    )
    return render_template(
        "organiser/settings.html",
        dataset=dataset,
        words=len(dataset.lexelts),
        instances=instances or 0,
        language=language_name(dataset.language),
    )


@bp.route("/datasets/<id:dataset_id>/delete", methods=["GET", "POST"])
@organiser_required
def delete(dataset_id: int) -> str | BaseResponse:
    """Deleting a dataset: what would go (counted by running the deletion and rolling it
    back), the export and the gold to download first, and a form that deletes only when
    the dataset's name is typed; the deletion is one transaction."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if request.method == "POST":
        name = dataset.name
        try:
            removal = delete_dataset(
                dataset, request.form.get("name", ""), who=current_user.username
            )
        except ServiceError as error:
            flash(f"Not deleted: {error}", "error")
            return redirect(url_for("organiser.delete", dataset_id=dataset_id))
        flash(
            f"Dataset {name} deleted: {removal.rows.get('responses', 0)} answers,"
            f" {removal.rows.get('instances', 0)} sentences,"
            f" {len(removal.accounts_deleted)} participant accounts.",
            "info",
        )
        return redirect(url_for("organiser.datasets"))
    removal = delete_dataset(dataset, "", preview=True)
    return render_template("organiser/delete.html", dataset=dataset, removal=removal)


@bp.get("/datasets/<id:dataset_id>/progress")
@organiser_required
def progress(dataset_id: int) -> str:
    dataset = db.get_or_404(Dataset, dataset_id)
    annotators = progress_by_annotator(dataset)
    return render_template(
        "organiser/progress.html",
        dataset=dataset,
        annotators=annotators,
        names=pseudonyms_of(dataset).on_organiser_pages,
        words=progress_by_word(dataset),
    )


@bp.get("/datasets/<id:dataset_id>/export")
@organiser_required
def export(dataset_id: int) -> Response:
    dataset = db.get_or_404(Dataset, dataset_id)
    body = "".join(
        json.dumps(record, ensure_ascii=False) + "\n" for record in export_records(dataset)
    )
    return _download(
        body.encode("utf-8"), "application/x-ndjson", f"{dataset.name}.responses.jsonl"
    )


def _download(data: bytes, mimetype: str, name: str) -> Response:
    """An attachment whose file name may hold any character (RFC 6266 ``filename*``)."""
    return send_file(
        io.BytesIO(data), mimetype=mimetype, as_attachment=True, download_name=name, max_age=0
    )


@bp.route("/users", methods=["GET", "POST"])
@organiser_required
def users() -> str:
    if request.method == "POST":
        try:
            user = create_user(
                request.form.get("username", "").strip(),
                request.form.get("password", ""),
                request.form.get("role", "annotator"),
            )
        except ServiceError as error:
            flash(str(error), "error")
        else:
            flash(f"Account {user.username} created.", "info")
    listing = list(db.session.scalars(select(User).order_by(User.username)))
    return render_template("organiser/users.html", users=listing)


@bp.post("/users/<id:user_id>/active")
@organiser_required
def toggle_active(user_id: int) -> BaseResponse:
    user = db.get_or_404(User, user_id)
    if user.id == current_user.id:
        flash("You cannot deactivate yourself.", "error")
    else:
        user.set_active(not user.active)  # ends the account's sessions
        db.session.commit()
        flash(f"{user.username} is now {'active' if user.active else 'deactivated'}.", "info")
    return redirect(url_for("organiser.users"))


@bp.post("/users/<id:user_id>/password")
@organiser_required
def reset_password(user_id: int) -> BaseResponse:
    user = db.get_or_404(User, user_id)
    password = request.form.get("password", "")
    if len(password) < 8:
        flash("A password has at least 8 characters.", "error")
    else:
        user.set_password(password)  # ends the account's sessions
        db.session.commit()
        flash(f"Password of {user.username} reset.", "info")
    return redirect(url_for("organiser.users"))


@bp.route("/datasets/<id:dataset_id>/lemmas", methods=["GET", "POST"])
@organiser_required
def lemmas(dataset_id: int) -> str | BaseResponse:
    """The lemma review: every change the lemmatiser proposes, to accept, reject or
    correct, for every word or for one; and every form of the responses, where it occurs
    and its gold form, so that any of them can be corrected."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if request.method == "POST" and request.form.get("action") == "accept-all":
        accepted = accept_all(dataset, current_user.username)
        flash(
            f"{len(accepted)} proposal{'' if len(accepted) == 1 else 's'} accepted"
            + (f": {', '.join(accepted)}" if accepted else "")
            + ". Each is listed below: decide again to undo one.",
            "info",
        )
        return redirect(url_for("organiser.lemmas", dataset_id=dataset.id))
    if request.method == "POST":
        try:
            decide(
                dataset,
                request.form.get("surface", ""),
                request.form.get("action", ""),
                request.form.get("lemma"),
                request.form.get("lexelt") or None,
                current_user.username,
            )
        except ServiceError as error:
            flash(str(error), "error")
        else:
            flash(f"Decision on {request.form.get('surface')!r} stored.", "info")
        return redirect(url_for("organiser.lemmas", dataset_id=dataset.id))
    review = lemma_review_of(dataset)
    return render_template(
        "organiser/lemmas.html",
        dataset=dataset,
        changes=review.changes,
        irregular=review.irregular,
        pending=review.proposals,
        forms=review.forms,
        lexelts=[lexelt.item for lexelt in dataset.lexelts],
    )


def compile_options(args: Mapping[str, str]) -> CompileOptions:
    """The command line's options from a query string: ``t_rule`` (annotators or
    responses), ``only_t``, ``no_normalise`` and ``no_lemmatise`` (``on``). ServiceError
    for a T rule that is neither."""
    t_rule = args.get("t_rule") or "annotators"
    if t_rule not in T_RULES:
        raise ServiceError(f"T rule {t_rule[:40]!r} is not annotators or responses")
    return CompileOptions(
        normalise=args.get("no_normalise") != "on",
        lemmatise=args.get("no_lemmatise") != "on",
        t_rule=t_rule,  # type: ignore[arg-type]
        only_t=args.get("only_t") == "on",
        keep_checks=args.get("keep_checks") == "on",
    )


def command_line(dataset: Dataset, options: CompileOptions) -> str:
    """The ``lexsub compile`` command that writes the same files."""
    words = [
        "lexsub",
        "compile",
        "--dataset",
        dataset.name,
        "--out",
        "DIR",
    ]
    if not options.normalise:
        words.append("--no-normalise")
    if not options.lemmatise:
        words.append("--no-lemmatise")
    if options.t_rule != "annotators":
        words += ["--t-rule", options.t_rule]
    if options.only_t:
        words.append("--only-t")
    if options.keep_checks:
        words.append("--keep-checks")
    return shlex.join(words)


def _query(options: CompileOptions) -> dict[str, str]:
    """``options`` as the query string :func:`compile_options` reads."""
    query: dict[str, str] = {"t_rule": options.t_rule}
    for key, on in (
        ("only_t", options.only_t),
        ("no_normalise", not options.normalise),
        ("no_lemmatise", not options.lemmatise),
        ("keep_checks", options.keep_checks),
    ):
        if on:
            query[key] = "on"
    return query


@bp.get("/datasets/<id:dataset_id>/compile")
@organiser_required
def compile_gold(dataset_id: int) -> str:
    """The compile page: the command line's options, the summary of the gold they give
    (``summary.json``), and the download of the same files as ``lexsub compile``."""
    dataset = db.get_or_404(Dataset, dataset_id)
    body: dict[str, Any] | None = None
    try:
        options = compile_options(request.args)
    except ServiceError as error:
        flash(str(error), "error")
        options = CompileOptions()
    try:
        body = summary(compile_dataset(dataset, options, names=pseudonyms_of(dataset)))
    except ValueError as error:  # responses the compiler refuses: it names each
        flash(f"Not compiled: {error}", "error")
    return render_template(
        "organiser/compile.html",
        dataset=dataset,
        options=options,
        summary=body,
        command=command_line(dataset, options),
        query=_query(options),
        files=(*FILES, "decisions.json"),
        stored=stored_exclusions(dataset),
        names=pseudonyms_of(dataset),
    )


EXCLUSION_PAGES = {"compile": "organiser.compile_gold", "agreement": "reports.agreement"}
"""Where the exclusion forms send the organiser back to (``back``; default the compile page)."""


@bp.post("/datasets/<id:dataset_id>/exclusions")
@organiser_required
def exclusions(dataset_id: int) -> BaseResponse:
    """Leave ``username`` out of the dataset's gold, agreement and scores with ``reason``
    (as ``lexsub exclude``), or with ``undo=on`` take them back; their answers stay. The
    agreement page names annotators by pseudonym and sends ``pseudonym`` instead."""
    dataset = db.get_or_404(Dataset, dataset_id)
    names = pseudonyms_of(dataset)
    username = request.form.get("username", "")
    if "pseudonym" in request.form:
        pseudonym = request.form["pseudonym"]
        username = names.username(pseudonym) or ""
        if not username:
            flash(f"Not changed: no annotator {pseudonym[:40]!r} in this dataset", "error")
            return redirect(url_for("reports.agreement", dataset_id=dataset.id))
    shown = request.form.get("pseudonym") or names.on_organiser_pages(username)
    try:
        if request.form.get("undo") == "on":
            done = include(dataset, username)
            flash(
                f"{shown} is back in the gold."
                if done
                else f"{shown} was not left out by an organiser.",
                "info",
            )
        else:
            row = exclude(dataset, username, request.form.get("reason", ""), current_user.username)
            flash(f"{shown} is left out: {row.reason}", "info")
    except ServiceError as error:
        flash(f"Not changed: {error}", "error")
    page = EXCLUSION_PAGES.get(request.form.get("back", ""), "organiser.compile_gold")
    return redirect(url_for(page, dataset_id=dataset.id))


@bp.get("/datasets/<id:dataset_id>/gold")
@organiser_required
def gold(dataset_id: int) -> Response:
    """Compile now with the options of the query string (as on the compile page; none:
    the command's defaults) and download gold, mwgold, annotators.jsonl, summary.json and
    decisions.json as one zip, or with ``file=NAME`` that one file named after the dataset
    (``pilot.gold``): the same bytes as ``lexsub compile`` writes."""
    dataset = db.get_or_404(Dataset, dataset_id)
    try:
        options = compile_options(request.args)
    except ServiceError as error:
        abort(400, str(error))
    name = request.args.get("file")
    if name is None:
        return _download(gold_zip(dataset, options), "application/zip", f"{dataset.name}.gold.zip")
    files = gold_files(dataset, options)
    if name not in files:
        abort(404)
    return _download(
        files[name],
        "application/json"
        if name.endswith(".json")
        else "application/x-ndjson"
        if name.endswith(".jsonl")
        else "text/plain",
        f"{dataset.name}.{name}",  # pilot.gold, pilot.mwgold, pilot.summary.json
    )
