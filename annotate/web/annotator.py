"""The annotation flow: one sentence a page, every word's sentences in turn,
in the datasets assigned to the annotator only (any other sentence is a 404)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from flask_login import current_user, login_required, login_user, logout_user
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape
from sqlalchemy import select
from werkzeug.wrappers import Response

from annotate.answers import FIELDS, MAX_LENGTH, FormCheck, validate_answer, validate_rating
from annotate.extensions import db, login_manager
from annotate.i18n import N_, common_language, html_text, translate, use_language
from annotate.models import Dataset, Instance, User
from annotate.numeric import MAX_ID, FormError, whole_number
from annotate.services.crowd import closed_study, public_name
from annotate.services.finishing import finish
from annotate.services.itempage import DatasetName, ItemPage, read
from annotate.services.participants import record_view
from annotate.services.responses import (
    NOT_THERE,
    SentenceGone,
    answered_ids,
    resume,
    save_answer,
)
from annotate.services.rules import ServiceError
from annotate.services.study import (
    StudyFull,
    has_account,
    is_member,
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
        tasks={d.task for d in datasets},
        limit=MAX_LENGTH,
    )


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


def _onboarding(dataset_id: int) -> Response | None:
    """A participant of this dataset's study who has not pressed Start, or was screened
    out: their onboarding page (:mod:`annotate.web.onboarding`), never a sentence."""
    user = current_user
    if (
        user.participant_id
        and user.study_id == dataset_id
        and (user.started_at is None or user.screened_out_at is not None)
    ):
        return redirect(url_for("onboarding.onboarding", dataset_id=dataset_id))
    return None


@bp.get("/annotate/dataset/<id:dataset_id>")
@login_required
def dataset_start(dataset_id: int) -> str | Response | tuple[str, int]:
    released = _onboarding(dataset_id) or _released(dataset_id)
    if released is not None:
        return released
    dataset = _visible(dataset_id)
    instance = resume(current_user, dataset)
    if instance is None:
        return redirect(url_for("annotator.finished", dataset_id=dataset.id))
    return redirect(url_for("annotator.item", instance_id=instance.id))


@bp.get("/annotate/dataset/<id:dataset_id>/done")
@login_required
def finished(dataset_id: int) -> str | Response | tuple[str, int]:
    """A finished dataset: says so, what is left in the others, and to a crowd
    participant the completion code (the screen-out code instead when their attention-check
    score is under a threshold that blocks). Not finished yet: its first unanswered sentence."""
    released = _onboarding(dataset_id) or _released(dataset_id)
    if released is not None:
        return released
    dataset = _visible(dataset_id)
    use_language(dataset.language)
    instance = resume(current_user, dataset)
    if instance is not None:
        flash(
            gettext(
                "Not finished yet: %(count)s of your sentences of %(dataset)s have no "
                "answer. This is the first.",
                count=len(_unanswered(dataset)),
                dataset=public_name(dataset)
                if current_user.study_id == dataset.id
                else dataset.name,
            ),
            "info",
        )
        return redirect(url_for("annotator.item", instance_id=instance.id))
    left = [s for s in standings(current_user) if s.dataset.id != dataset.id and not s.finished]
    decided = finish(current_user, dataset)  # decided once, at finishing: it stands
    checks_failed = decided is not None and decided.decision == "blocked"
    code = dataset.completion_code if decided is not None and not checks_failed else None
    return render_template(
        "annotate/done.html",
        dataset=dataset,
        left=left,
        code=code,
        unassigned=False,
        checks_failed=checks_failed,
    )


def _unanswered(dataset: Dataset) -> list[int]:
    mine = db.session.scalars(select(Instance.id).where(sentence_filter(current_user, dataset)))
    done = answered_ids(current_user, dataset)
    return [i for i in mine if i not in done]


PARTICIPANT_PARAMETERS = ("PROLIFIC_PID", "participant", "workerId")
"""Where a study link carries the participant id: Prolific, ours, Mechanical Turk."""


def _given_id() -> str:
    """The participant id the study link's request carries ('' when none)."""
    return next(
        (request.args[key] for key in PARTICIPANT_PARAMETERS if request.args.get(key)), ""
    ).strip()


def not_an_admission() -> bool:
    """Whether this study-link request cannot admit anyone new (no participant id, a study
    that is not open, or an id that has its account already): such requests are exempt
    from the admission limit (``ADMISSION_LIMIT`` per address, the factory), which so
    counts the accounts an address makes, not a participant's returns."""
    token = (request.view_args or {}).get("token", "")
    given = _given_id()
    if not given or len(given) > 64:
        return True
    dataset = study_dataset(str(token))
    return dataset is None or has_account(dataset, given)


def _study_full(dataset: Dataset, error: StudyFull) -> tuple[str, int]:
    """The study-full page: to a participant refused after starting (their batch was
    released, none is free) with the study's screen-out code, if it has one."""
    screenout = dataset.screenout_code if error.started else None
    page = render_template(
        "annotate/study.html", dataset=dataset, error=str(error), screenout=screenout, full=True
    )
    return page, 409


def _released(dataset_id: int) -> str | Response | tuple[str, int] | None:
    """A participant of this dataset's study who is no longer a member (their batch was
    released while they were away) and comes back in the same session: a new batch if
    one is free (and the study link is open), else the study-full page. None when they
    are still a member, or not one of its participants."""
    if current_user.study_id != dataset_id or not current_user.participant_id:
        return None
    dataset = db.get_or_404(Dataset, dataset_id)
    if is_member(current_user, dataset):
        return None
    use_language(dataset.language)
    try:
        if not dataset.study_token:
            raise StudyFull(f"the study {public_name(dataset)!r} is closed", True)
        participant(dataset, current_user.participant_id)
    except StudyFull as error:
        db.session.rollback()
        return _study_full(dataset, error)
    return redirect(url_for("annotator.dataset_start", dataset_id=dataset.id))


@bp.get("/study/<token>")  # limited per address, as a log-in is (factory)
def study(token: str) -> str | Response | tuple[str, int]:
    """A crowd study link: the participant id in the URL makes (or finds) their account
    in this study, without a password, logs them in and opens their sentences. Never
    cached (the factory marks logged-in pages; this one is also seen logged out)."""
    dataset = study_dataset(token)
    if dataset is None:
        closed = closed_study(token)
        if closed is None:
            abort(404)
        use_language(closed.language)
        return render_template("annotate/study.html", dataset=closed, closed=True), 410
    use_language(dataset.language)
    given = _given_id()
    if not given:
        return render_template("annotate/study.html", dataset=dataset, error=None)
    try:
        user = participant(dataset, given)
    except StudyFull as error:
        db.session.rollback()
        return _study_full(dataset, error)
    except ServiceError as error:
        db.session.rollback()
        return render_template("annotate/study.html", dataset=dataset, error=str(error)), 400
    if not user.active:
        abort(403)
    if current_user.is_authenticated and current_user.id != user.id:
        logout_user()
    login_user(user)
    return redirect(url_for("annotator.dataset_start", dataset_id=dataset.id))


@bp.after_request
def _study_not_cached(response: Response) -> Response:
    """``Cache-Control: no-store`` on the study link's pages, logged in or not."""
    if request.endpoint == "annotator.study":
        response.headers["Cache-Control"] = "no-store"
    return response


PENDING = "pending_answer"
"""Session key of an answer sent after the session ended, kept to fill the form again."""


def wants_json() -> bool:
    """Whether the page's script sent the form (``Accept: application/json``): it is
    answered with JSON and takes the next sentence without a page load."""
    best = request.accept_mimetypes.best_match(("text/html", "application/json"))
    return best == "application/json"


def session_ended() -> tuple[Response, int]:
    """401 for the page's script: it sends the form again as a page, which keeps the
    answer and asks to log in (:func:`keep_and_log_in`)."""
    return jsonify(error="Your session had ended: log in again."), 401


@bp.route("/annotate/<id:instance_id>", methods=["GET", "POST"])
def item(instance_id: int) -> str | Response | tuple[Response, int] | tuple[str, int]:
    """One sentence's page (GET), or its answer saved (POST) and the annotator's next
    sentence: a redirect to its page, or, for the page's script, JSON with the next page's
    content (the fetch protocol: docs/app.md, *Saving without a page load*). A save costs four
    SQL statements (the user, :func:`annotate.services.itempage.read`, the save's two, one on
    PostgreSQL), the page two (the user, its read); a refused answer's page one more read."""
    if not current_user.is_authenticated:
        if request.method == "POST":
            return session_ended() if wants_json() else keep_and_log_in(instance_id)
        return login_manager.unauthorized()  # type: ignore[no-any-return]
    # the user behind the proxy, found once: each use of the proxy looks it up again
    user: User = current_user._get_current_object()
    # a participant's views are timed: their id read before a save expires the user
    study = user.study_id
    timed = user.id if study is not None else None
    if study is not None:
        onboarding = _onboarding(study)
        if onboarding is not None:
            return onboarding
    posted = request.method == "POST"
    # the jump field's sentence number (GET ?sentence=N), held to the number rule: here to
    # an id's range, once the word's count is read to 1 to that count (_jumped)
    asked = "" if posted else request.args.get("sentence", "").strip()
    wanted = 0
    if asked:
        with suppress(FormError):  # said with the word's count (_jumped)
            wanted = whole_number(asked, JUMP_FIELD, 1, MAX_ID)
    found = read(user, instance_id, following=posted, jump=wanted)
    if found is None or not found[0].may_open:
        if study is not None and not wants_json():
            # a participant's sentence that is not theirs (their batch was released, or
            # another study's): their own study's start says what is next
            return redirect(url_for("annotator.dataset_start", dataset_id=study))
        if posted and not wants_json():  # a save: say why there is nothing to save to
            return render_template("error.html", code=404, message=NOT_THERE), 404
        abort(404)  # no such sentence, another dataset's, or not one of the annotator's
    addressed, page = found
    use_language(addressed.dataset.language)
    if not posted:
        assert page is not None  # the sentence's own page
        if asked:
            return _jumped(page, asked, addressed.judging)
        form = _pending_form(instance_id) or page.form()
        if timed is not None:
            record_view(timed, instance_id)
        return _render(page, form, FormCheck(None), addressed.judging, study)
    # a plain dict: a missing field costs no KeyError, as the form's own get() does
    posted_form = request.form.to_dict()
    form = {key: posted_form.get(key, "") for key in (*FIELDS, "confirm")}
    if addressed.dataset.task == "complexity":
        check = validate_rating(form)
    else:
        check = validate_answer(form, addressed.targets)
    if check.answer is None:
        if wants_json():
            return _refused(check)
        own = read(user, instance_id, following=False)
        assert own is not None and own[1] is not None
        return _render(own[1], form, check, addressed.judging, study)
    try:
        saved = save_answer(user, instance_id, check.answer)
    except SentenceGone as gone:  # the dataset was deleted while they answered
        return render_template("error.html", code=410, message=str(gone)), 410
    done = addressed.done + saved.new
    if page is None or (saved.new and done >= addressed.total):
        if study == addressed.dataset.id:  # a participant's last sentence: decided now
            finish(user, db.get_or_404(Dataset, study))
        url = url_for("annotator.finished", dataset_id=addressed.dataset.id)
        flash(gettext("Saved."), "info")  # on the finished page (or what is left)
        if wants_json():
            return _saved(instance_id, url, None, done, addressed.total, None)
        return redirect(url)
    following = page.after_save(
        instance_id, addressed.lexelt_id, saved.new, check.answer.used_dictionary
    )
    context = _context(following, following.form(), FormCheck(None), study)
    url = f"{context['item_path']}{following.instance.id}"  # its url_for (item_path)
    if wants_json():
        if timed is not None:
            record_view(timed, following.instance.id)
        html = render_template("annotate/_item.html", **context)
        return _saved(instance_id, url, following.instance.id, done, addressed.total, html)
    flash(gettext("Saved."), "info")
    return redirect(url)


JUMP_FIELD = "sentence number"
"""The jump field's name in the number rule's messages (:func:`annotate.numeric.whole_number`)."""


def _jumped(page: ItemPage, asked: str, judging: bool) -> Response | tuple[str, int]:
    """The jump field's answer: the asked sentence of the word (a redirect to its page),
    or, for a value that is not a whole number from 1 to the word's count, this page
    again with a message by the field (400, never a 500)."""
    try:
        whole_number(asked, JUMP_FIELD, 1, page.sentences)
    except FormError:
        shown = asked[:40] + ("…" if len(asked) > 40 else "")
        message = gettext(
            "Sentence number “%(value)s” is not a whole number from 1 to %(count)s.",
            value=shown,
            count=page.sentences,
        )
        check = FormCheck(None, focus="jump")
        html = render_template(
            "annotate/item.html",
            **_context(page, page.form(), check),
            judging=judging,
            jump_error=message,
            jump_value=shown,
        )
        return html, 400
    assert page.jump is not None  # the query reads the sentence of a number in range
    return redirect(url_for("annotator.item", instance_id=page.jump))


def item_path() -> str:
    """The path of a sentence's page without its id: ``url_for`` of
    ``annotator.item`` is this and the id, so the page links its sentences (a dozen
    links) with one ``url_for`` instead of one each."""
    path = url_for("annotator.item", instance_id=0)
    assert path.endswith("/0"), path
    return path[:-1]


TITLE_PREFIXES = (N_("Error:"), N_("Check:"))
"""What the title says first when the answer was refused, or has questions to confirm."""


@bp.app_template_global()
@pass_context
def item_title(
    context: Context, check: FormCheck, sentence_index: int, word_index: int, dataset: DatasetName
) -> Markup:
    """The annotation page's title: the page (annotate/item.html) and the content the
    page's script swaps in after a save (annotate/_item.html, its ``data-title``) say the
    same. A function of the templates' globals, not a macro imported from another
    template, whose call was a tenth of the page's rendering; escaped as that macro in its
    HTML template was."""
    error, caution = TITLE_PREFIXES
    prefix = ""
    if check.errors:
        prefix = f"{escape(html_text(context, error))} "
    elif check.cautions:
        prefix = f"{escape(html_text(context, caution))} "
    sentence = html_text(
        context,
        "Sentence %(sentence)s of word %(word)s",
        sentence=sentence_index,
        word=word_index,
    )
    return Markup(f"{prefix}{escape(sentence)} · {escape(dataset.name)} · lexsub")


def _context(
    page: ItemPage, form: dict[str, str], check: FormCheck, study: int | None = None
) -> dict[str, object]:
    """What templates/annotate/_item.html shows; to a participant of ``study`` (the
    user's, read before a save expires it) the study's public title, never the name."""
    dataset = page.dataset
    if study == dataset.id:
        dataset = replace(dataset, name=dataset.title or gettext("Study"), public=True)
    return {
        "item_path": item_path(),
        "instance": page.instance,
        "dataset": dataset,
        "word_index": page.word_index,
        "words": page.words,
        "sentence_index": page.sentence_index,
        "sentences": page.sentences,
        "links": page.links,
        "answered": page.answered,
        "done": page.done,
        "total": page.total,
        "previous": page.previous,
        "form": form,
        "check": check,
        "limit": MAX_LENGTH,
    }


def _render(
    page: ItemPage, form: dict[str, str], check: FormCheck, judging: bool, study: int | None
) -> str:
    return render_template(
        "annotate/item.html", **_context(page, form, check, study), judging=judging
    )


def _saved(
    instance_id: int, url: str, following: int | None, done: int, total: int, html: str | None
) -> Response:
    """The fetch protocol's answer to a save (docs/app.md, *Saving without a page load*)."""
    return jsonify(saved=instance_id, url=url, next=following, done=done, total=total, html=html)


def _refused(check: FormCheck) -> tuple[Response, int]:
    """422 for the page's script: each field → the messages that concern it (the errors,
    else the questions to confirm); the script then sends the form as a page, which
    shows them."""
    errors: dict[str, list[str]] = {}
    for message in check.errors or check.cautions:
        for field in message.fields:
            errors.setdefault(field, []).append(translate(message.template, message.values))
    return jsonify(errors=errors), 422


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


def _pending_form(instance_id: int) -> dict[str, str] | None:
    """The answer kept by :func:`keep_and_log_in` for this sentence, once."""
    pending = session.get(PENDING)
    if not isinstance(pending, dict) or pending.get("instance") != instance_id:
        return None
    session.pop(PENDING)
    flash(gettext("This answer is not saved yet: check it and press Save and next."), "info")
    return {key: str(value) for key, value in pending.get("form", {}).items() if key in FIELDS}
