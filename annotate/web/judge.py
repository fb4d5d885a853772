"""Judgement rounds on the web: the organiser creates rounds, assigns judges,
follows progress, exports the labels and reads the report (Tables 11 and 12 with a
chart, agreement, models ranked with their curves); a judge labels each screen's
candidates (all candidates of a sentence at once by default), by mouse or by keyboard
(annotate/static/judge.js: the label's key labels the candidate in focus and moves on).

Every organiser route refuses annotators with 403; a judge opens only the rounds they
are assigned to (any other is a 404). A screen sent after the session ended is kept and
the judge asked to log in again, as an annotation is (nothing is lost).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar, cast

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from flask_login import current_user
from flask_wtf.csrf import CSRFError, validate_csrf
from markupsafe import Markup
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from annotate.extensions import csrf, db, login_manager
from annotate.i18n import common_language, use_language
from annotate.models import Dataset, JudgementRound, SystemRun, User
from annotate.numeric import MAX_SEED, form_id, form_ids, form_number, whole_number
from annotate.services.pseudonyms import judge_pseudonyms
from annotate.services.rounds import (
    LAYOUTS,
    Screen,
    assign_judge,
    candidate_count,
    candidate_origins,
    create_round,
    export_judgements,
    first_open,
    is_judge,
    judges,
    judges_a_round,
    label_set_of,
    labels_of,
    posthoc_source,
    posthoc_spec,
    progress,
    rounds_of,
    save_labels,
    screens,
    unassign_judge,
)
from annotate.services.rules import MAX_DATASET_NAME, ServiceError
from annotate.web.access import judge_required, organiser_required
from annotate.web.charts import Bar, bar_chart, verdict_colours
from annotate.web.uploads import uploaded_text
from scoring.errors import FormatError
from scoring.files.bounded import GOLD_FILE, ROWS_FILE, SYSTEM_FILE, Bounds
from scoring.formats.judgements import format_judgements
from scoring.formats.text import split_lines
from scoring.judgements.labels import LABEL_SETS
from scoring.judgements.models import Key, parse_scores
from scoring.judgements.report import JudgementReport, curve_charts, report
from scoring.judgements.rounds import gold_items_from_file, parse_rows

bp = Blueprint("judge", __name__)
F = TypeVar("F", bound=Callable[..., Any])
PENDING = "pending_labels"
MAX_SAMPLE = 100000


class _Judging:
    """Whether the user is a judge of a round (the header's *Judging* link), asked of the
    database only when a page shows the header, once a request."""

    def __bool__(self) -> bool:
        if "judging" not in g:
            g.judging = bool(
                current_user.is_authenticated
                and not current_user.is_organiser
                and db.session.scalar(select(judges_a_round(current_user.id)))
            )
        return bool(g.judging)


@bp.app_context_processor
def _judging() -> dict[str, _Judging]:
    """``judging`` for every page (a page that passes its own ``judging`` wins)."""
    return {"judging": _Judging()}


def round_language(round_: JudgementRound) -> str | None:
    """The language of a round's sentences and of its judges' pages: its dataset's
    (English for a round of no dataset, such as one from a rows file)."""
    if round_.dataset_id is None:
        return None
    dataset = db.session.get(Dataset, round_.dataset_id)
    return dataset.language if dataset is not None else None


def _upload_text(field: str, bounds: Bounds) -> tuple[str, str] | None:
    upload = request.files.get(field)
    if upload is None or not upload.filename:
        return None
    return upload.filename, uploaded_text(upload, bounds)


# --- organiser ------------------------------------------------------------------------------


@bp.route("/organiser/rounds", methods=["GET", "POST"])
@organiser_required
def rounds() -> str | BaseResponse:
    """Every round, and the forms that create one (post hoc, or from a rows file)."""
    if request.method == "POST":
        try:
            made = _create(request.form.get("action", ""))
        except (ServiceError, FormatError) as error:
            db.session.rollback()
            flash(f"No round created: {error}", "error")
        else:
            extra = f" (seed {made.seed})" if made.seed is not None else ""
            flash(f"Round {made.name} created{extra}.", "info")
            return redirect(url_for("judge.round_page", round_id=made.id))
    listed = list(db.session.scalars(select(JudgementRound).order_by(JudgementRound.id)))
    datasets = list(db.session.scalars(select(Dataset).order_by(Dataset.id)))
    stored = list(
        db.session.scalars(select(SystemRun).where(SystemRun.kind == "best").order_by(SystemRun.id))
    )
    return render_template(
        "judge/rounds.html",
        rounds=[(r, candidate_count(r), len(judges(r))) for r in listed],
        datasets=datasets,
        stored=stored,
        label_sets=LABEL_SETS,
        layouts=LAYOUTS,
        form=request.form,
        max_name=MAX_DATASET_NAME,  # create_round's limit of a name
    )


def _create(action: str) -> JudgementRound:
    name = request.form.get("name", "").strip()
    layout = request.form.get("layout", "sentence")
    labels = request.form.get("labels", "")
    chosen = form_id(request.form, "dataset", "dataset")
    dataset = None if chosen is None else db.session.get(Dataset, chosen)
    if action == "rows":
        upload = _upload_text("rows", ROWS_FILE)
        if upload is None:
            raise ServiceError("choose a rows file")
        plan = parse_rows(split_lines(upload[1]), upload[0])
        return create_round(
            plan,
            name,
            "rows",
            labels or "lexical-reference",
            layout,
            dataset,
            current_user.username,
            upload[0],
        )
    if action != "posthoc":
        raise ServiceError("unknown action")
    if dataset is None:
        raise ServiceError("choose the dataset whose sentences the round shows")
    size = whole_number(request.form.get("sample", "").strip(), "sample size", 1, MAX_SAMPLE)
    seed = form_number(request.form, "seed", "seed", 0, MAX_SEED)
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    systems: dict[str, str] = {}
    for run_id in form_ids(request.form.getlist("stored"), "stored system"):
        run = db.session.get(SystemRun, run_id)
        if run is None or run.dataset_id != dataset.id:
            raise ServiceError("a stored system is not of this dataset")
        systems[run.file_name] = run.content
    for file in request.files.getlist("systems"):
        if file.filename:
            systems[file.filename] = uploaded_text(file, SYSTEM_FILE)
    candidates: dict[str, str] = {}
    for file in request.files.getlist("candidates"):
        if file.filename:
            candidates[file.filename] = uploaded_text(file, SYSTEM_FILE)
    gold = _upload_text("gold", GOLD_FILE)
    mwgold = _upload_text("mwgold", GOLD_FILE)
    items = None
    if gold is not None:
        items = gold_items_from_file(
            split_lines(gold[1]),
            gold[0],
            split_lines(mwgold[1]) if mwgold else (),
            mwgold[0] if mwgold else "<mwgold>",
        )
    if not systems and not candidates:
        raise ServiceError("choose a system's best file or a file of candidates")
    top = form_number(request.form, "top", "candidates of a file", 1, MAX_SAMPLE)
    if top is not None and not candidates:
        raise ServiceError(
            "an item's candidates of each file, at most: choose a file of candidates"
        )
    plan = posthoc_spec(dataset, systems, size, seed, items, candidates, top)
    source = posthoc_source(
        gold[0] if gold else None, dataset.name, list(systems), list(candidates)
    )
    return create_round(
        plan,
        name,
        "posthoc",
        labels or "posthoc",
        layout,
        dataset,
        current_user.username,
        source,
    )


@bp.route("/organiser/rounds/<id:round_id>", methods=["GET", "POST"])
@organiser_required
def round_page(round_id: int) -> str | BaseResponse:
    """A round: its judges (ticked, many at once), their progress, its links."""
    round_ = db.get_or_404(JudgementRound, round_id)
    if request.method == "POST":
        wanted = set(form_ids(request.form.getlist("user"), "judge"))
        current = {user.id for user in judges(round_)}
        added = removed = 0
        try:
            for user in db.session.scalars(
                select(User).where(User.role == "annotator", User.study_id.is_(None))
            ):
                if user.id in wanted and user.id not in current:
                    added += assign_judge(user, round_)
                elif user.id not in wanted and user.id in current:
                    removed += unassign_judge(user, round_)
        except ServiceError as error:
            db.session.rollback()
            flash(str(error), "error")
        else:
            flash(f"{added} judges assigned, {removed} removed.", "info")
        return redirect(url_for("judge.round_page", round_id=round_.id))
    annotators = list(
        db.session.scalars(
            select(User)
            .where(User.role == "annotator", User.study_id.is_(None))
            .order_by(User.username)
        )
    )
    current = {user.id for user in judges(round_)}
    return render_template(
        "judge/round.html",
        round=round_,
        label_set=label_set_of(round_),
        annotators=[(user, user.id in current) for user in annotators],
        progress=progress(round_),
        screens=len(screens(round_)),
        candidates=candidate_count(round_),
        link=url_for("judge.start", round_id=round_.id, _external=True),
    )


@bp.get("/organiser/rounds/<id:round_id>/export")
@organiser_required
def export(round_id: int) -> Response:
    """Every label as JSON Lines: item, candidate, judge, label, origin."""
    round_ = db.get_or_404(JudgementRound, round_id)
    body = format_judgements(export_judgements(round_))
    return Response(
        body,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="round-{round_.id}.jsonl"'},
    )


@bp.route("/organiser/rounds/<id:round_id>/report", methods=["GET", "POST"])
@organiser_required
def report_page(round_id: int) -> str | tuple[str, int]:
    """Tables 11 and 12 with a chart, agreement, and (scores uploaded) the models."""
    round_ = db.get_or_404(JudgementRound, round_id)
    label_set = label_set_of(round_)
    names = judge_pseudonyms(round_)  # the report names judges by pseudonym
    found = [replace(row, judge=names(row.judge)) for row in export_judgements(round_)]
    scores: dict[str, dict[Key, float]] = {}
    problem = None
    if request.method == "POST":
        try:
            for upload in request.files.getlist("scores"):
                if upload.filename:
                    text = uploaded_text(upload, GOLD_FILE)
                    scores.update(parse_scores(split_lines(text), upload.filename))
            if not scores:
                raise ServiceError("choose a scores file")
        except (ServiceError, FormatError) as error:
            problem = str(error)
    result: JudgementReport | None = None
    if found:
        proposed = candidate_origins(round_)
        try:
            result = report(found, label_set, scores, proposed=proposed)
        except ValueError as error:
            problem = str(error)
            result = report(found, label_set, proposed=proposed)
    charts: dict[str, Markup] = {}
    if result is not None:
        rows = {
            "sys": result.table11["sys"],
            "origA": result.table11["origA"],
            **{k.replace("_", " "): v for k, v in result.table12.items()},
        }
        shown = {name: row for name, row in rows.items() if row.total}
        if not shown:
            shown = {"all": result.overall}
        charts["tables"] = bar_chart(
            "Verdicts (% of each row)",
            list(shown),
            {
                label: [Bar(_fraction(r.percent[label])) for r in shown.values()]
                for label in label_set.labels
            },
            colours=verdict_colours(label_set.labels, label_set.binary),
        )
        if result.models:
            rp, roc = curve_charts(result.models)
            charts["rp"], charts["roc"] = Markup(rp), Markup(roc)
    page = render_template(
        "judge/report.html",
        round=round_,
        label_set=label_set,
        result=result,
        sources=result.sources if result is not None else (),
        charts=charts,
        problem=problem,
    )
    return (page, 400) if problem and request.method == "POST" else page


def _fraction(percent: float | None) -> float | None:
    return None if percent is None else percent / 100


# --- judges ---------------------------------------------------------------------------------


@bp.get("/judge")
@judge_required
def home() -> str:
    """The rounds this judge is assigned to, with their progress."""
    rows = []
    assigned = rounds_of(current_user)
    for round_ in assigned:
        done = len(labels_of(current_user, round_))
        rows.append((round_, done, candidate_count(round_)))
    use_language(common_language(round_language(r) or "en" for r in assigned))
    return render_template("judge/home.html", rows=rows)


def _round(round_id: int) -> JudgementRound:
    """The round, if the current user judges it (else 404); its pages in its language."""
    round_ = db.get_or_404(JudgementRound, round_id)
    if not is_judge(current_user, round_):
        abort(404)
    use_language(round_language(round_))
    return round_


@bp.get("/judge/<id:round_id>")
@judge_required
def start(round_id: int) -> BaseResponse:
    """Resume: the first screen with a candidate not labelled yet, or the finished page."""
    round_ = _round(round_id)
    index = first_open(current_user, round_)
    if index is None:
        return redirect(url_for("judge.finished", round_id=round_.id))
    return redirect(url_for("judge.screen", round_id=round_.id, index=index + 1))


@bp.get("/judge/<id:round_id>/done")
@judge_required
def finished(round_id: int) -> str:
    round_ = _round(round_id)
    return render_template("judge/done.html", round=round_, open=first_open(current_user, round_))


@bp.route("/judge/<id:round_id>/<id:index>", methods=["GET", "POST"])
def screen(round_id: int, index: int) -> str | BaseResponse | tuple[str, int]:
    """One screen: the sentence with its target in bold and the candidates to label. The
    form's CSRF token is checked here, so that labels sent after the session ended are
    kept for the next log-in instead of refused."""
    if request.method == "POST":
        if not current_user.is_authenticated:
            sent = {k: v[:40] for k, v in request.form.items() if k.startswith("c")}
            return _keep_and_log_in(round_id, index, sent)
        if current_app.config.get("WTF_CSRF_ENABLED", True):
            try:
                validate_csrf(request.form.get("csrf_token"))
            except ValueError:  # wtforms.ValidationError: missing, expired or forged
                raise CSRFError("The CSRF token is missing or invalid.") from None
    if not current_user.is_authenticated:
        return cast(BaseResponse, login_manager.unauthorized())
    round_ = _round(round_id)
    all_screens = screens(round_)
    if not 1 <= index <= len(all_screens):
        abort(404)
    shown = all_screens[index - 1]
    label_set = label_set_of(round_)
    saved = labels_of(current_user, round_)
    chosen = {c.id: saved[c.id] for c in shown.candidates if c.id in saved}
    missing: list[int] = []
    if request.method == "POST":
        given = {
            c.id: request.form[f"c{c.id}"] for c in shown.candidates if request.form.get(f"c{c.id}")
        }
        try:
            save_labels(current_user, round_, given)
        except ServiceError as error:
            db.session.rollback()
            flash(str(error), "error")
            return redirect(url_for("judge.screen", round_id=round_.id, index=index))
        chosen.update(given)
        missing = [c.id for c in shown.candidates if c.id not in chosen]
        if not missing:
            flash(gettext("Saved."), "info")
            following = _next_open(all_screens, index, labels_of(current_user, round_))
            if following is None:
                return redirect(url_for("judge.finished", round_id=round_.id))
            return redirect(url_for("judge.screen", round_id=round_.id, index=following))
    else:
        pending = _pending(round_.id, index)
        for candidate in shown.candidates:
            label = pending.get(f"c{candidate.id}")
            if label in label_set.labels:
                chosen[candidate.id] = label
    done = len(labels_of(current_user, round_))
    page = render_template(
        "judge/screen.html",
        round=round_,
        label_set=label_set,
        screen=shown,
        index=index,
        screens=len(all_screens),
        chosen=chosen,
        missing=missing,
        done=done,
        total=candidate_count(round_),
        sentence_lang=round_language(round_),
    )
    return (page, 200)


csrf.exempt(screen)  # the view checks the token itself (a stale form is kept)


def _next_open(all_screens: list[Screen], index: int, saved: dict[int, str]) -> int | None:
    """The number (from 1) of the next screen after ``index`` with a candidate not
    labelled, wrapping round to the first; None when every candidate has a label."""
    order = list(range(index, len(all_screens))) + list(range(index))
    for position in order:
        if any(c.id not in saved for c in all_screens[position].candidates):
            return position + 1
    return None


def _keep_and_log_in(round_id: int, index: int, sent: dict[str, str]) -> BaseResponse:
    session[PENDING] = {"round": round_id, "index": index, "labels": sent}
    flash(
        "Your session had ended, so your labels were not saved yet. Log in again: they "
        "will be back on the screen.",
        "error",
    )
    return redirect(
        url_for("auth.login", next=url_for("judge.screen", round_id=round_id, index=index))
    )


def _pending(round_id: int, index: int) -> dict[str, str]:
    pending = session.get(PENDING)
    if not isinstance(pending, dict) or (pending.get("round"), pending.get("index")) != (
        round_id,
        index,
    ):
        return {}
    session.pop(PENDING)
    flash(gettext("These labels are not saved yet: check them and press Save and next."), "info")
    labels = pending.get("labels", {})
    return {str(k): str(v) for k, v in labels.items()} if isinstance(labels, dict) else {}
