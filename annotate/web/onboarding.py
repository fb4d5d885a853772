"""A crowd participant's onboarding page (:mod:`annotate.services.onboarding`): the
dataset's guidelines, the consent text, the comprehension questions and Start, before the
first sentence; the screen-out code after a second failed comprehension attempt."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from annotate.comprehension import ATTEMPTS
from annotate.extensions import db
from annotate.i18n import use_language
from annotate.models import Dataset
from annotate.numeric import form_number
from annotate.services.onboarding import answer_questions, questions_of, screened_out, start

bp = Blueprint("onboarding", __name__)


def _choice(index: int) -> int | None:
    """The option chosen for question ``index`` (the number rule of :mod:`annotate.numeric`:
    ASCII digits, 0 to 999; None when none was chosen)."""
    return form_number(request.form, f"q{index}", f"answer to question {index + 1}", 0, 999)


@bp.route("/study/dataset/<id:dataset_id>/start", methods=["GET", "POST"])
@login_required
def onboarding(dataset_id: int) -> str | Response | tuple[str, int]:
    """GET: the onboarding page of the participant's own study. POST: Start (with the
    comprehension answers, if the study has questions). Anyone else: 404."""
    if current_user.study_id != dataset_id or not current_user.participant_id:
        abort(404)
    dataset = db.get_or_404(Dataset, dataset_id)
    use_language(dataset.language)
    questions = questions_of(dataset)
    failed = False
    if request.method == "POST" and not screened_out(current_user):
        if not questions:
            start(current_user)
            return redirect(url_for("annotator.dataset_start", dataset_id=dataset.id))
        answers = {index: _choice(index) for index in range(len(questions))}
        outcome = answer_questions(current_user, dataset, answers)
        if outcome == "started":
            return redirect(url_for("annotator.dataset_start", dataset_id=dataset.id))
        failed = outcome == "retry"
    elif current_user.started_at is not None and not screened_out(current_user):
        return redirect(url_for("annotator.dataset_start", dataset_id=dataset.id))
    out = screened_out(current_user)
    page = render_template(
        "annotate/onboarding.html",
        dataset=dataset,
        questions=questions,
        failed=failed,
        screened_out=out,
        left=ATTEMPTS - current_user.comprehension_failures,
    )
    return (page, 422) if failed else page


@bp.after_request
def _not_cached(response: Response) -> Response:
    """The onboarding page carries a screen-out code: never cached."""
    response.headers["Cache-Control"] = "no-store"
    return response
