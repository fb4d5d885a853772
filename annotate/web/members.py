"""Organiser pages of a study: a dataset's members, design, guidelines and study
link, and accounts made in bulk.

Every route here refuses annotators with 403, as the other organiser pages do.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from annotate.extensions import db
from annotate.models import Dataset, User
from annotate.numeric import MAX_PAGE, form_id, form_ids, form_number
from annotate.services.checks import (
    CHECK_ACTIONS,
    check_lines,
    check_text,
    parse_check_lines,
    set_check_rules,
    set_checks,
)
from annotate.services.crowd import set_public
from annotate.services.exclusions import exclude, include
from annotate.services.model_annotation import model_annotations
from annotate.services.onboarding import set_onboarding
from annotate.services.participants import SPEEDER_SECONDS, participant_page, set_speeder_seconds
from annotate.services.rules import ServiceError
from annotate.services.study import (
    BATCH_SIZE,
    DESIGNS,
    MAX_PARTICIPANTS,
    PER_SENTENCE,
    RELEASE_MINUTES,
    NewAccount,
    answered_count,
    assign,
    close_study,
    create_users,
    members,
    open_study,
    parse_user_lines,
    sentence_count,
    set_design,
    set_study_rules,
    study_participants,
    unassign,
)
from annotate.web.access import organiser_required
from annotate.web.uploads import upload_name, uploaded_text
from scoring.files.bounded import ACCOUNTS_FILE

bp = Blueprint("members", __name__, url_prefix="/organiser")
MAX_GUIDELINES = 20000


@bp.route("/datasets/<id:dataset_id>/members", methods=["GET", "POST"])
@organiser_required
def dataset_members(dataset_id: int) -> str | Response:
    """Tick the annotators of a dataset (all at once), choose its design, write its
    guidelines, open or close its study link."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if request.method == "POST":
        try:
            _change(dataset, request.form.get("action", ""))
        except ServiceError as error:
            db.session.rollback()
            flash(str(error), "error")
        return redirect(url_for("members.dataset_members", dataset_id=dataset.id))
    annotators = list(
        db.session.scalars(
            select(User)
            .where(User.role == "annotator", User.study_id.is_(None))
            .order_by(User.username)
        )
    )
    current = {user.id for user in members(dataset)}
    rows = [
        (
            user,
            user.id in current,
            answered_count(user, dataset) if user.id in current else 0,
            sentence_count(user, dataset) if user.id in current else 0,
        )
        for user in annotators
    ]
    link = None
    if dataset.study_token:
        link = url_for("annotator.study", token=dataset.study_token, _external=True)
    return render_template(
        "members/dataset.html",
        dataset=dataset,
        rows=rows,
        designs=DESIGNS,
        link=link,
        templates=study_templates(link) if link else {},
        participants=study_participants(dataset),
        max_guidelines=MAX_GUIDELINES,
        models=model_annotations(dataset),
    )


def study_templates(link: str) -> dict[str, str]:
    """The study link as each platform is given it, with the platform's placeholders:
    Prolific substitutes ``{{%PROLIFIC_PID%}}``, ``{{%STUDY_ID%}}`` and
    ``{{%SESSION_ID%}}``; Mechanical Turk (an ExternalQuestion HIT) appends
    ``assignmentId``, ``hitId``, ``turkSubmitTo`` and ``workerId`` to the bare link
    itself, as shown (lexsub reads ``workerId``)."""
    return {
        "Prolific": f"{link}?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}"
        "&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}",
        "MTurk": f"{link}?assignmentId=ASSIGNMENT_ID&hitId=HIT_ID"
        "&turkSubmitTo=SUBMIT_URL&workerId=WORKER_ID",
    }


def _change(dataset: Dataset, action: str) -> None:
    """One of the page's forms; :class:`ServiceError` says what was refused."""
    if action == "members":
        wanted = set(form_ids(request.form.getlist("user"), "annotator"))
        added = removed = 0
        for user in db.session.scalars(
            select(User).where(User.role == "annotator", User.study_id.is_(None))
        ):
            current = user.id in {member.id for member in members(dataset)}
            if user.id in wanted and not current:
                added += assign(user, dataset)
            elif user.id not in wanted and current:
                removed += unassign(user, dataset)
        flash(f"{added} annotators assigned, {removed} removed.", "info")
    elif action == "design":
        set_design(
            dataset,
            request.form.get("design", ""),
            form_number(request.form, "per_sentence", "annotators per sentence", *PER_SENTENCE),
            form_number(request.form, "batch_size", "batch size", *BATCH_SIZE),
        )
        flash(f"Design of {dataset.name}: {dataset.design}.", "info")
    elif action == "guidelines":
        text = request.form.get("guidelines", "").replace("\r\n", "\n").replace("\x00", "")
        if len(text) > MAX_GUIDELINES:
            raise ServiceError(
                f"the guidelines have {len(text)} characters; at most {MAX_GUIDELINES}"
            )
        dataset.guidelines = text
        db.session.commit()
        flash("Guidelines saved.", "info")
    elif action == "open-study":
        open_study(
            dataset,
            request.form.get("completion_code", "").strip() or None,
            request.form.get("platform") or None,
        )
        flash("The study link is open.", "info")
    elif action == "study-rules":
        set_study_rules(
            dataset,
            form_number(request.form, "release_minutes", "release minutes", *RELEASE_MINUTES),
            form_number(request.form, "max_participants", "most participants", *MAX_PARTICIPANTS),
            request.form.get("screenout_code", "").strip() or None,
        )
        flash("Study rules saved.", "info")
    elif action == "close-study":
        close_study(dataset)
        flash("The study link is closed.", "info")
    elif action == "llm-annotate":
        _llm_annotate(dataset)
    else:
        raise ServiceError("unknown action")


def _llm_annotate(dataset: Dataset) -> None:
    """The form "A model as an annotator": the model of the endpoint answers every
    sentence (:func:`annotate.services.model_annotation.annotate_dataset`); the API key is
    the server's ``LEXSUB_API_KEY``, never a field of the form."""
    from annotate.generate.client import Endpoint, EndpointError
    from annotate.generate.llm import Parameters
    from annotate.generate.prompt import PromptError
    from annotate.services.model_annotation import MAX_SAMPLES, annotate_dataset

    base_url = request.form.get("base_url", "").strip()
    model = request.form.get("model", "").strip()
    samples = form_number(request.form, "samples", "samples", 1, MAX_SAMPLES) or 1
    if not base_url or not model:
        raise ServiceError("give the endpoint's base URL and the model")
    try:
        endpoint = Endpoint.from_environment(base_url)
        parameters = Parameters(
            model, samples, 0.0 if samples == 1 else 0.8, None, 256, "annotation",
            dataset.language or "en",
        )  # fmt: skip
        done = annotate_dataset(dataset, endpoint, parameters)
    except (EndpointError, PromptError) as error:
        raise ServiceError(str(error)) from None
    failures = sum(done.provenance["failures"].values())
    flash(
        f"{', '.join(done.annotators)}: {done.answered} of {done.items} items answered "
        f"({done.saved} answers saved, {done.unchanged} unchanged, {done.removed} removed"
        + (f"; {failures} requests failed" if failures else "")
        + ").",
        "info",
    )


@bp.route("/datasets/<id:dataset_id>/study", methods=["GET", "POST"])
@organiser_required
def study_page(dataset_id: int) -> str | Response:
    """A crowd study's own page: its participants (paginated) with their progress,
    onboarding, attention-check score and median time per sentence; the onboarding texts
    (consent, comprehension questions), the check items and the quality thresholds."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if request.method == "POST":
        try:
            _study_change(dataset, request.form.get("action", ""))
        except ServiceError as error:
            db.session.rollback()
            flash(str(error), "error")
        return redirect(url_for("members.study_page", dataset_id=dataset.id))
    page = form_number(request.args, "page", "page", 1, MAX_PAGE) or 1
    found = participant_page(dataset, page)
    link = None
    if dataset.study_token:
        link = url_for("annotator.study", token=dataset.study_token, _external=True)
    return render_template(
        "members/study.html",
        dataset=dataset,
        found=found,
        link=link,
        checks=check_text(check_lines(dataset)),
        check_actions=CHECK_ACTIONS,
    )


def _study_change(dataset: Dataset, action: str) -> None:
    """One of the study page's forms; :class:`ServiceError` says what was refused."""
    if action == "onboarding":
        set_onboarding(
            dataset, request.form.get("consent", ""), request.form.get("comprehension", "")
        )
        flash("Onboarding saved.", "info")
    elif action == "checks":
        count = set_checks(dataset, parse_check_lines(request.form.get("checks", "")))
        flash(f"{count} check items saved.", "info")
    elif action == "quality":
        set_check_rules(
            dataset,
            form_number(request.form, "check_threshold", "check threshold", 0, 100),
            request.form.get("check_action", ""),
        )
        set_speeder_seconds(
            dataset,
            form_number(request.form, "speeder_seconds", "speeder threshold", *SPEEDER_SECONDS),
        )
        flash("Quality thresholds saved.", "info")
    elif action == "public":
        set_public(
            dataset,
            request.form.get("public_title", ""),
            request.form.get("return_url", "").strip() or None,
            request.form.get("platform") or None,
        )
        flash("What participants see is saved.", "info")
    elif action == "leave-out":
        user = _participant(dataset, form_id(request.form, "user", "participant"))
        exclude(dataset, user.username, LEAVE_OUT_REASON, current_user.username)
        flash(f"Participant {user.participant_id} is left out of the gold.", "info")
    elif action == "take-back":
        user = _participant(dataset, form_id(request.form, "user", "participant"))
        include(dataset, user.username)
        flash(f"Participant {user.participant_id} is back in the gold.", "info")
    else:
        raise ServiceError("unknown action")


LEAVE_OUT_REASON = "flagged on the study page (check score or speed)"
"""The reason a "leave out" on the study page records."""


def _participant(dataset: Dataset, user_id: int | None) -> User:
    """The study's participant of this account id; :class:`ServiceError` for another."""
    user = db.session.get(User, user_id) if user_id is not None else None
    if user is None or user.study_id != dataset.id:
        raise ServiceError(f"no participant {user_id} in this study")
    return user


@bp.route("/users/bulk", methods=["GET", "POST"])
@organiser_required
def bulk_users() -> str:
    """Annotator accounts from a list of usernames (typed or a file), each optionally
    with a password; generated passwords are shown once, on this page only."""
    datasets = list(db.session.scalars(select(Dataset).order_by(Dataset.id)))
    created: list[NewAccount] = []
    text = ""
    if request.method == "POST":
        upload = request.files.get("file")
        text = request.form.get("usernames", "")
        source = "the list"
        try:
            if upload is not None and upload.filename:
                text = uploaded_text(upload, ACCOUNTS_FILE)
                source = upload_name(upload)
            chosen = form_id(request.form, "dataset", "dataset")
            dataset = None if chosen is None else db.session.get(Dataset, chosen)
            created = create_users(parse_user_lines(text, source), dataset)
        except ServiceError as error:
            db.session.rollback()
            flash(f"No account created: {error}", "error")
        else:
            flash(
                f"{len(created)} accounts created"
                + (f" and assigned to {dataset.name}" if dataset else "")
                + ".",
                "info",
            )
            text = ""
    # passwords are shown once: the page is not cached (no-store, as every logged-in page)
    return render_template("members/bulk.html", created=created, datasets=datasets, text=text)
