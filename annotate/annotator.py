"""The annotation flow (A4-A6, A9): one sentence a page, every word's sentences in turn,
in the datasets assigned to the annotator only (A10: any other sentence is a 404)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import func, select
from werkzeug.wrappers import Response

from annotate.answers import FIELDS, MAX_LENGTH, FormCheck, validate_answer
from annotate.extensions import db, limiter, login_manager
from annotate.i18n import common_language, use_language
from annotate.models import Dataset, Instance, Lexelt, User
from annotate.models import Response as Answered
from annotate.rounds import rounds_of
from annotate.services import ServiceError, answered_ids, resume, save_answer, used_dictionary
from annotate.study import (
    can_open,
    participant,
    sentence_filter,
    standings,
    study_dataset,
    visible_datasets,
)

bp = Blueprint("annotator", __name__)


@bp.get("/")
def home() -> str | Response:
    if not current_user.is_authenticated:
        return render_template("home.html")
    rows = standings(current_user)
    use_language(common_language(row.dataset.language for row in rows))
    return render_template("annotate/home.html", rows=rows)


@bp.get("/instructions")
def instructions() -> str:
    """How to annotate, the keyboard shortcuts, and the guidelines of the datasets the
    annotator may open."""
    datasets = visible_datasets(current_user) if current_user.is_authenticated else []
    use_language(common_language(d.language for d in datasets))
    return render_template(
        "annotate/instructions.html",
        guided=[d for d in datasets if d.guidelines.strip()],
        limit=MAX_LENGTH,
    )


def landing(user: User) -> str:
    """Where ``user`` goes after logging in: an organiser to the organiser dashboard; an
    annotator to the first unanswered sentence of their first unfinished dataset, else
    (every dataset finished, or none assigned) a judge of a round to their rounds
    (/judge), anyone else to their home page."""
    if user.is_organiser:
        return url_for("organiser.dashboard")
    for standing in standings(user):
        if not standing.finished:
            instance = resume(user, standing.dataset)
            if instance is not None:
                return url_for("annotator.item", instance_id=instance.id)
    if rounds_of(user):
        return url_for("judge.home")
    return url_for("annotator.home")


@bp.get("/annotate")
@login_required
def start() -> str | Response:
    """The first unanswered sentence of the first unfinished assigned dataset."""
    for standing in standings(current_user):
        instance = resume(current_user, standing.dataset)
        if instance is not None:
            return redirect(url_for("annotator.item", instance_id=instance.id))
    rows = standings(current_user)
    use_language(common_language(row.dataset.language for row in rows))
    return render_template("annotate/done.html", dataset=None, left=[], unassigned=not rows)


def _visible(dataset_id: int) -> Dataset:
    """The dataset, if the current user may open it; else 404."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if dataset.id not in {d.id for d in visible_datasets(current_user)}:
        abort(404)
    return dataset


@bp.get("/annotate/dataset/<int:dataset_id>")
@login_required
def dataset_start(dataset_id: int) -> str | Response:
    dataset = _visible(dataset_id)
    instance = resume(current_user, dataset)
    if instance is None:
        return redirect(url_for("annotator.finished", dataset_id=dataset.id))
    return redirect(url_for("annotator.item", instance_id=instance.id))


@bp.get("/annotate/dataset/<int:dataset_id>/done")
@login_required
def finished(dataset_id: int) -> str | Response:
    """A finished dataset: says so, what is left in the others, and to a crowd
    participant the completion code. Not finished yet: its first unanswered sentence."""
    dataset = _visible(dataset_id)
    use_language(dataset.language)
    instance = resume(current_user, dataset)
    if instance is not None:
        flash(
            gettext(
                "Not finished yet: %(count)s of your sentences of %(dataset)s have no "
                "answer. This is the first.",
                count=len(_unanswered(dataset)),
                dataset=dataset.name,
            ),
            "info",
        )
        return redirect(url_for("annotator.item", instance_id=instance.id))
    left = [s for s in standings(current_user) if s.dataset.id != dataset.id and not s.finished]
    code = dataset.completion_code if current_user.participant_id else None
    return render_template(
        "annotate/done.html", dataset=dataset, left=left, code=code, unassigned=False
    )


def _unanswered(dataset: Dataset) -> list[int]:
    mine = db.session.scalars(select(Instance.id).where(sentence_filter(current_user, dataset)))
    done = answered_ids(current_user, dataset)
    return [i for i in mine if i not in done]


def _study_limit() -> str:
    from flask import current_app

    return str(current_app.config["LOGIN_LIMIT"])


PARTICIPANT_PARAMETERS = ("PROLIFIC_PID", "participant", "workerId")
"""Where a study link carries the participant id: Prolific, ours, Mechanical Turk."""


@bp.get("/study/<token>")
@limiter.limit(_study_limit)
def study(token: str) -> str | Response | tuple[str, int]:
    """A crowd study link: the participant id in the URL makes (or finds) their account,
    without a password, logs them in and opens their sentences."""
    dataset = study_dataset(token)
    if dataset is None:
        abort(404)
    use_language(dataset.language)
    given = next(
        (request.args[key] for key in PARTICIPANT_PARAMETERS if request.args.get(key)), ""
    ).strip()
    if not given:
        return render_template("annotate/study.html", dataset=dataset, error=None)
    try:
        user = participant(dataset, given)
    except ServiceError as error:
        db.session.rollback()
        return render_template("annotate/study.html", dataset=dataset, error=str(error)), 400
    if not user.active:
        abort(403)
    if current_user.is_authenticated and current_user.id != user.id:
        logout_user()
    login_user(user)
    return redirect(url_for("annotator.dataset_start", dataset_id=dataset.id))


PENDING = "pending_answer"
"""Session key of an answer sent after the session ended, kept to fill the form again."""


@bp.route("/annotate/<int:instance_id>", methods=["GET", "POST"])
def item(instance_id: int) -> str | Response:
    if not current_user.is_authenticated:
        if request.method == "POST":
            return keep_and_log_in(instance_id)
        return login_manager.unauthorized()  # type: ignore[no-any-return]
    instance = db.get_or_404(Instance, instance_id)
    if not can_open(current_user, instance):
        abort(404)  # another dataset's sentence, or not one of the annotator's
    dataset = db.session.get(Dataset, instance.dataset_id)
    assert dataset is not None
    use_language(dataset.language)
    check = FormCheck(None)
    if request.method == "POST":
        form = {key: request.form.get(key, "") for key in (*FIELDS, "confirm")}
        check = validate_answer(form, (instance.lexelt.lemma, instance.head))
        if check.answer is not None:
            new = instance.id not in answered_ids(current_user, dataset)
            save_answer(current_user, instance, check.answer)
            following = _neighbour(instance, +1)
            if following is None or (new and resume(current_user, dataset) is None):
                flash(gettext("Saved."), "info")  # the dataset's finished page, or what is left
                return redirect(url_for("annotator.finished", dataset_id=dataset.id))
            flash(gettext("Saved."), "info")
            return redirect(url_for("annotator.item", instance_id=following.id))
    else:
        form = _pending_form(instance) or _form_of(instance)
    return render_template(
        "annotate/item.html", **_page(instance), form=form, check=check, limit=MAX_LENGTH
    )


def keep_and_log_in(instance_id: int) -> Response:
    """An answer sent after the session ended (logged out elsewhere, expired, reset): keep
    what was typed in the new session, ask to log in, and come back to the sentence with
    the values filled in (nothing is saved until the annotator presses Save again)."""
    session[PENDING] = {
        "instance": instance_id,
        "form": {key: request.form.get(key, "")[:500] for key in FIELDS},
    }
    flash(
        "Your session had ended, so your answer was not saved yet. Log in again: the "
        "answer you typed will be back in the form.",
        "error",
    )
    return redirect(url_for("auth.login", next=url_for("annotator.item", instance_id=instance_id)))


def _pending_form(instance: Instance) -> dict[str, str] | None:
    """The answer kept by :func:`keep_and_log_in` for this sentence, once."""
    pending = session.get(PENDING)
    if not isinstance(pending, dict) or pending.get("instance") != instance.id:
        return None
    session.pop(PENDING)
    flash(gettext("This answer is not saved yet: check it and press Save and next."), "info")
    return {key: str(value) for key, value in pending.get("form", {}).items() if key in FIELDS}


def _form_of(instance: Instance) -> dict[str, str]:
    """The saved answer as form values (empty for a new sentence)."""
    saved = db.session.scalar(
        select(Answered).where(
            Answered.user_id == current_user.id, Answered.instance_id == instance.id
        )
    )
    form = {"used_dictionary": "on" if used_dictionary(current_user, instance.lexelt_id) else ""}
    if saved is not None:
        for index, substitute in enumerate(saved.substitutes[:3], 1):
            form[f"sub{index}"] = substitute
        form["name"] = "on" if saved.kind == "name" else ""
        form["nil"] = "on" if saved.kind == "nil" else ""
        form["mw"] = "on" if saved.multiword else ""
        form["multiword"] = saved.multiword or ""
    return form


def _neighbour(instance: Instance, step: int) -> Instance | None:
    """The annotator's next (``step`` +1) or previous (-1) sentence of the dataset."""
    dataset = db.session.get(Dataset, instance.dataset_id)
    assert dataset is not None
    order = Instance.position.asc() if step > 0 else Instance.position.desc()
    compare = (
        Instance.position > instance.position if step > 0 else Instance.position < instance.position
    )
    return db.session.scalar(
        select(Instance)
        .where(sentence_filter(current_user, dataset), compare)
        .order_by(order)
        .limit(1)
    )


def _page(instance: Instance) -> dict[str, object]:
    """What the page shows besides the form: the dataset, the sentence, the word's other
    sentences, and progress (word k of n, sentence k of n, done / total) over the
    annotator's sentences."""
    lexelt = instance.lexelt
    dataset = db.session.get(Dataset, instance.dataset_id)
    if dataset is None:
        abort(404)
    mine = sentence_filter(current_user, dataset)
    words = list(
        db.session.scalars(
            select(Lexelt.id)
            .join(Instance, Instance.lexelt_id == Lexelt.id)
            .where(mine)
            .group_by(Lexelt.id, Lexelt.position)
            .order_by(Lexelt.position)
        )
    )
    siblings = list(
        db.session.scalars(
            select(Instance)
            .where(mine, Instance.lexelt_id == lexelt.id)
            .order_by(Instance.position)
        )
    )
    done = answered_ids(current_user, dataset)
    total = db.session.scalar(select(func.count(Instance.id)).where(mine)) or 0
    return {
        "instance": instance,
        "dataset": dataset,
        "word_index": words.index(lexelt.id) + 1,
        "words": len(words),
        "sentence_index": next(i for i, s in enumerate(siblings, 1) if s.id == instance.id),
        "siblings": siblings,
        "answered": done,
        "done": len(done),
        "total": total,
        "previous": _neighbour(instance, -1),
    }
