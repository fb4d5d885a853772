"""The annotation flow (A4-A6, A9): one sentence a page, every word's sentences in turn."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_login import current_user, login_required
from sqlalchemy import func, select
from werkzeug.wrappers import Response

from annotate.answers import FIELDS, FormCheck, validate_answer
from annotate.extensions import db, login_manager
from annotate.models import Dataset, Instance, Lexelt
from annotate.models import Response as Answered
from annotate.services import answered_ids, resume, save_answer, used_dictionary

bp = Blueprint("annotator", __name__)


@bp.get("/")
def home() -> str | Response:
    if not current_user.is_authenticated:
        return render_template("home.html")
    datasets = list(db.session.scalars(select(Dataset).order_by(Dataset.id)))
    rows = []
    for dataset in datasets:
        total = db.session.scalar(select(func.count(Instance.id)).where(
            Instance.dataset_id == dataset.id)) or 0
        rows.append((dataset, len(answered_ids(current_user, dataset)), total))
    return render_template("annotate/home.html", rows=rows)


@bp.get("/instructions")
def instructions() -> str:
    return render_template("annotate/instructions.html")


@bp.get("/annotate")
@login_required
def start() -> str | Response:
    """Land on the first unanswered sentence (of the first dataset not finished)."""
    for dataset in db.session.scalars(select(Dataset).order_by(Dataset.id)):
        instance = resume(current_user, dataset)
        if instance is not None:
            return redirect(url_for("annotator.item", instance_id=instance.id))
    return render_template("annotate/done.html")


@bp.get("/annotate/dataset/<int:dataset_id>")
@login_required
def dataset_start(dataset_id: int) -> str | Response:
    dataset = db.get_or_404(Dataset, dataset_id)
    instance = resume(current_user, dataset)
    if instance is None:
        return render_template("annotate/done.html", dataset=dataset)
    return redirect(url_for("annotator.item", instance_id=instance.id))


PENDING = "pending_answer"
"""Session key of an answer sent after the session ended, kept to fill the form again."""


@bp.route("/annotate/<int:instance_id>", methods=["GET", "POST"])
def item(instance_id: int) -> str | Response:
    if not current_user.is_authenticated:
        if request.method == "POST":
            return keep_and_log_in(instance_id)
        return login_manager.unauthorized()  # type: ignore[no-any-return]
    instance = db.get_or_404(Instance, instance_id)
    check = FormCheck(None)
    if request.method == "POST":
        form = {key: request.form.get(key, "") for key in (*FIELDS, "confirm")}
        check = validate_answer(form, (instance.lexelt.lemma, instance.head))
        if check.answer is not None:
            save_answer(current_user, instance, check.answer)
            following = _neighbour(instance, +1)
            if following is None:
                flash("Saved. That was the last sentence.", "info")
                return redirect(url_for("annotator.start"))
            return redirect(url_for("annotator.item", instance_id=following.id))
    else:
        form = _pending_form(instance) or _form_of(instance)
    return render_template("annotate/item.html", **_page(instance), form=form, check=check)


def keep_and_log_in(instance_id: int) -> Response:
    """An answer sent after the session ended (logged out elsewhere, expired, reset): keep
    what was typed in the new session, ask to log in, and come back to the sentence with
    the values filled in (nothing is saved until the annotator presses Save again)."""
    session[PENDING] = {"instance": instance_id,
                        "form": {key: request.form.get(key, "")[:500] for key in FIELDS}}
    flash("Your session had ended, so your answer was not saved yet. Log in again: the "
          "answer you typed will be back in the form.", "error")
    return redirect(url_for("auth.login", next=url_for("annotator.item",
                                                       instance_id=instance_id)))


def _pending_form(instance: Instance) -> dict[str, str] | None:
    """The answer kept by :func:`keep_and_log_in` for this sentence, once."""
    pending = session.get(PENDING)
    if not isinstance(pending, dict) or pending.get("instance") != instance.id:
        return None
    session.pop(PENDING)
    flash("This answer is not saved yet: check it and press Save and next.", "info")
    return {key: str(value) for key, value in pending.get("form", {}).items() if key in FIELDS}


def _form_of(instance: Instance) -> dict[str, str]:
    """The saved answer as form values (empty for a new sentence)."""
    saved = db.session.scalar(select(Answered).where(
        Answered.user_id == current_user.id, Answered.instance_id == instance.id))
    form = {"used_dictionary": "on" if used_dictionary(current_user, instance.lexelt_id)
            else ""}
    if saved is not None:
        for index, substitute in enumerate(saved.substitutes[:3], 1):
            form[f"sub{index}"] = substitute
        form["name"] = "on" if saved.kind == "name" else ""
        form["nil"] = "on" if saved.kind == "nil" else ""
        form["mw"] = "on" if saved.multiword else ""
        form["multiword"] = saved.multiword or ""
    return form


def _neighbour(instance: Instance, step: int) -> Instance | None:
    order = Instance.position.asc() if step > 0 else Instance.position.desc()
    compare = (Instance.position > instance.position if step > 0
               else Instance.position < instance.position)
    return db.session.scalar(select(Instance).where(
        Instance.dataset_id == instance.dataset_id, compare).order_by(order).limit(1))


def _page(instance: Instance) -> dict[str, object]:
    """What the page shows besides the form: the sentence, the word's other sentences,
    and progress (word k of n, sentence k of n, done / total)."""
    lexelt = instance.lexelt
    dataset = db.session.get(Dataset, instance.dataset_id)
    if dataset is None:
        abort(404)
    words = db.session.scalar(select(func.count(Lexelt.id)).where(
        Lexelt.dataset_id == dataset.id)) or 0
    siblings = lexelt.instances
    done = answered_ids(current_user, dataset)
    total = db.session.scalar(select(func.count(Instance.id)).where(
        Instance.dataset_id == dataset.id)) or 0
    return {
        "instance": instance, "dataset": dataset,
        "word_index": lexelt.position + 1, "words": words,
        "sentence_index": next(i for i, s in enumerate(siblings, 1) if s.id == instance.id),
        "siblings": siblings, "answered": done, "done": len(done), "total": total,
        "previous": _neighbour(instance, -1),
    }
