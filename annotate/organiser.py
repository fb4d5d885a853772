"""Organiser pages (A8): datasets and import, accounts, progress, export.

Every route here refuses annotators with 403 (``tests/test_organiser.py`` checks them all).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_login import current_user, login_required
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from annotate.extensions import db
from annotate.goldfiles import decide, gold_zip, proposed_changes
from annotate.importer import XMLImportError, parse_lexsub_xml
from annotate.models import Dataset, User
from annotate.services import (
    ServiceError,
    create_user,
    export_records,
    import_dataset,
    progress_by_annotator,
    progress_by_word,
)

bp = Blueprint("organiser", __name__, url_prefix="/organiser")
F = TypeVar("F", bound=Callable[..., Any])


def organiser_required(view: F) -> F:
    @wraps(view)
    @login_required
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_organiser:
            abort(403)
        return view(*args, **kwargs)

    return cast(F, wrapped)


@bp.get("/")
@organiser_required
def dashboard() -> str:
    datasets = list(db.session.scalars(select(Dataset).order_by(Dataset.id)))
    return render_template("organiser/dashboard.html",
                           rows=[(d, progress_by_annotator(d)) for d in datasets])


@bp.route("/datasets", methods=["GET", "POST"])
@organiser_required
def datasets() -> str | BaseResponse:
    report: dict[str, Any] | None = None
    if request.method == "POST":
        upload = request.files.get("file")
        name = request.form.get("name", "").strip()
        if upload is None or not upload.filename:
            flash("Choose an XML file to import.", "error")
        else:
            data = upload.read()
            try:
                result = parse_lexsub_xml(data, upload.filename)
                imported = import_dataset(result, name or upload.filename, upload.filename, data)
            except (XMLImportError, ServiceError) as error:
                flash(f"Nothing imported: {error}", "error")
            else:
                report = {"dataset": imported.dataset.name, "created": imported.created,
                          "instances": imported.instances, "repairs": result.repairs}
    listing = list(db.session.scalars(select(Dataset).order_by(Dataset.id)))
    return render_template("organiser/datasets.html", datasets=listing, report=report)


@bp.get("/datasets/<int:dataset_id>/progress")
@organiser_required
def progress(dataset_id: int) -> str:
    dataset = db.get_or_404(Dataset, dataset_id)
    annotators = progress_by_annotator(dataset)
    return render_template("organiser/progress.html", dataset=dataset, annotators=annotators,
                           words=progress_by_word(dataset))


@bp.get("/datasets/<int:dataset_id>/export")
@organiser_required
def export(dataset_id: int) -> Response:
    dataset = db.get_or_404(Dataset, dataset_id)
    body = "".join(json.dumps(record, ensure_ascii=False) + "\n"
                   for record in export_records(dataset))
    return _download(body.encode("utf-8"), "application/x-ndjson",
                     f"{dataset.name}.responses.jsonl")


def _download(data: bytes, mimetype: str, name: str) -> Response:
    """An attachment whose file name may hold any character (RFC 6266 ``filename*``)."""
    return send_file(io.BytesIO(data), mimetype=mimetype, as_attachment=True,
                     download_name=name, max_age=0)


@bp.route("/users", methods=["GET", "POST"])
@organiser_required
def users() -> str:
    if request.method == "POST":
        try:
            user = create_user(request.form.get("username", "").strip(),
                               request.form.get("password", ""),
                               request.form.get("role", "annotator"))
        except ServiceError as error:
            flash(str(error), "error")
        else:
            flash(f"Account {user.username} created.", "info")
    listing = list(db.session.scalars(select(User).order_by(User.username)))
    return render_template("organiser/users.html", users=listing)


@bp.post("/users/<int:user_id>/active")
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


@bp.post("/users/<int:user_id>/password")
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


@bp.route("/datasets/<int:dataset_id>/lemmas", methods=["GET", "POST"])
@organiser_required
def lemmas(dataset_id: int) -> str | BaseResponse:
    """The lemma review (C3): every change the lemmatiser proposes, to accept, reject or
    correct, for every word or for one."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if request.method == "POST":
        try:
            decide(dataset, request.form.get("surface", ""), request.form.get("action", ""),
                   request.form.get("lemma"), request.form.get("lexelt") or None,
                   current_user.username)
        except ServiceError as error:
            flash(str(error), "error")
        else:
            flash(f"Decision on {request.form.get('surface')!r} stored.", "info")
        return redirect(url_for("organiser.lemmas", dataset_id=dataset.id))
    return render_template("organiser/lemmas.html", dataset=dataset,
                           changes=proposed_changes(dataset))


@bp.get("/datasets/<int:dataset_id>/gold")
@organiser_required
def gold(dataset_id: int) -> Response:
    """Compile now and download gold, mwgold, annotators.jsonl, summary.json and
    decisions.json as one zip."""
    dataset = db.get_or_404(Dataset, dataset_id)
    return _download(gold_zip(dataset), "application/zip", f"{dataset.name}.gold.zip")
