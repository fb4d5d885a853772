"""Organiser report pages: the agreement report of a dataset and the
stored leaderboard of uploaded system files against its compiled gold, and the pages on
which organisers read every answer (``annotate.services.inspect``).

The numbers come from the same library functions as the command lines
(``lexsub agreement``, ``lexsub compare``); this module only
compiles the dataset, calls them and draws the charts. Like every organiser page these
refuse annotators (``tests/test_organiser.py``).
"""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user
from markupsafe import Markup
from sqlalchemy import select
from werkzeug.wrappers import Response as BaseResponse

from annotate.extensions import db
from annotate.gold import CompileOptions
from annotate.gold.methods import FORMATS, methods_text, methods_warnings
from annotate.gold.write import scorer_view
from annotate.models import Dataset, SystemRun, User
from annotate.numeric import MAX_SEED, form_id, form_number
from annotate.services import systems
from annotate.services.goldfiles import compile_dataset
from annotate.services.inspect import (
    FILTERS,
    PROBLEMS,
    annotators_with_answers,
    dataset_answers,
    find_instance,
    item_answers,
    item_revisions,
    matches,
    problem_marks,
)
from annotate.services.methods import SEED, dataset_agreement, model_comparisons, study_methods
from annotate.services.pseudonyms import pseudonyms_of
from annotate.services.rules import MAX_USERNAME, ServiceError, storable
from annotate.services.taskgold import BENCHMARKS, rating_agreement_of, score_system
from annotate.web.access import organiser_required
from annotate.web.charts import Bar, bar_chart
from annotate.web.uploads import upload_name, uploaded_bytes, uploaded_text
from scoring.agreement.report import KEYS, AgreementReport, PosReport
from scoring.errors import ScorerDied
from scoring.files.bounded import SYSTEM_FILE
from scoring.registry import MEASURES
from scoring.signature import PROVENANCE_SUFFIX

bp = Blueprint("reports", __name__, url_prefix="/organiser")

HEADLINE = ("best.R", "oot.R", "new_best.R", "rank.R", "gap")
"""The measures the leaderboard chart draws (each system has some of them)."""


@bp.get("/datasets/<id:dataset_id>/agreement")
@organiser_required
def agreement(dataset_id: int) -> str:
    """Table 1 for the dataset's current responses, per annotator, alpha and kappa, with
    bootstrap intervals over lemmas, and the charts; model annotators (``llm:…``) in a
    table of their own beside the people, never in the figures. Attention-check
    sentences are left out unless ``?keep_checks=on``."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if dataset.task == "complexity":  # ratings, not sets of substitutes
        try:
            rated, reason = rating_agreement_of(dataset, _seed()), None
        except ValueError as error:
            rated, reason = None, str(error)
        return render_template(
            "reports/rating_agreement.html", dataset=dataset, agreement=rated, reason=reason
        )
    keep = request.args.get("keep_checks") == "on"
    compiled = compile_dataset(
        dataset, CompileOptions(keep_checks=keep), names=pseudonyms_of(dataset)
    )
    found = dataset_agreement(dataset, compiled, _seed(), leave_out=True)
    return render_template(
        "reports/agreement.html",
        dataset=dataset,
        report=found,
        keys=KEYS,
        charts=_agreement_charts(found),
        compiled=compiled,
        models=model_comparisons(dataset, keep),
    )


def _seed() -> int:
    """The query string's ``seed`` of the resampling, 12345 when none is given."""
    seed = form_number(request.args, "seed", "seed", 0, MAX_SEED)
    return SEED if seed is None else seed


@bp.get("/datasets/<id:dataset_id>/methods")
@organiser_required
def methods(dataset_id: int) -> str:
    """The methods paragraph: the study as papers report it, in Markdown and LaTeX (the
    text of ``lexsub report``)."""
    dataset = db.get_or_404(Dataset, dataset_id)
    figures = study_methods(dataset, _seed())
    return render_template(
        "reports/methods.html",
        dataset=dataset,
        figures=figures,
        texts={format: methods_text(figures, format) for format in FORMATS},
        warnings=methods_warnings(figures),
    )


@bp.get("/datasets/<id:dataset_id>/problems")
@organiser_required
def problems(dataset_id: int) -> str:
    """The answers the compiler leaves out (a value breaks the rule of a valid
    substitute) and the values it keeps but flags, each with a link to its item."""
    dataset = db.get_or_404(Dataset, dataset_id)
    compiled = compile_dataset(dataset, names=pseudonyms_of(dataset))
    return render_template(
        "reports/problems.html", dataset=dataset, compiled=compiled, filters=FILTERS
    )


@bp.get("/datasets/<id:dataset_id>/items/<item_id:xml_id>")
@organiser_required
def item(dataset_id: int, xml_id: str) -> str:
    """One sentence with every annotator's current answer, what the compiler does with
    each, its problems and, with ``?revisions=on``, every save of every answer."""
    dataset = db.get_or_404(Dataset, dataset_id)
    instance = find_instance(dataset, xml_id)
    if instance is None:
        abort(404)
    names = pseudonyms_of(dataset)  # annotators by pseudonym, as every report names them
    compiled = compile_dataset(dataset, names=names)
    answers = [
        replace(a, annotator=names(a.annotator), lexelt=instance.lexelt.item, instance=xml_id)
        for a in item_answers(instance)
    ]
    with_revisions = request.args.get("revisions") == "on"
    revisions = None
    if with_revisions:
        revisions = [replace(r, annotator=names(r.annotator)) for r in item_revisions(instance)]
    return render_template(
        "reports/item.html",
        dataset=dataset,
        instance=instance,
        answers=answers,
        marks=problem_marks(compiled, answers),
        problems=PROBLEMS,
        revisions=revisions,
        left_out=[p for p in compiled.left_out if p.instance == xml_id],
        flagged=[p for p in compiled.flagged if p.instance == xml_id],
    )


@bp.get("/datasets/<id:dataset_id>/answers")
@organiser_required
def answers(dataset_id: int) -> str:
    """Every current answer of the dataset, in annotation order, with the marks of the
    compiler (``?problem=`` one of :data:`annotate.services.inspect.FILTERS` keeps those only),
    and a link to each annotator's page and each item's page."""
    return _answers_page(db.get_or_404(Dataset, dataset_id), None)


@bp.get("/datasets/<id:dataset_id>/annotators/<username>")
@organiser_required
def annotator(dataset_id: int, username: str) -> str:
    """One annotator's answers in the dataset, in the order they are annotated; the pages
    link it by pseudonym (``A1``), and a username still opens it."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if not storable(username) or len(username) > MAX_USERNAME:
        abort(404)
    username = pseudonyms_of(dataset).username(username) or username
    user = db.session.scalar(select(User).where(User.username == username))
    if user is None:
        abort(404)
    return _answers_page(dataset, user)


def _answers_page(dataset: Dataset, user: User | None) -> str:
    """The answers of the dataset (of one annotator when ``user`` is given), kept to the
    problem named by ``?problem=`` (one of :data:`annotate.services.inspect.FILTERS`)."""
    chosen = request.args.get("problem", "")
    if chosen not in FILTERS:
        chosen = ""
    names = pseudonyms_of(dataset)  # annotators by pseudonym, as every report names them
    every = [replace(a, annotator=names(a.annotator)) for a in dataset_answers(dataset, user)]
    marks = problem_marks(compile_dataset(dataset, names=names), every)
    shown = [a for a in every if matches(marks.get((a.annotator, a.instance), ()), chosen)]
    return render_template(
        "reports/answers.html",
        dataset=dataset,
        answers=shown,
        total=len(every),
        marks=marks,
        problems=PROBLEMS,
        filters=FILTERS,
        chosen=chosen,
        annotator=names(user.username) if user else None,
        annotators=sorted(
            (names(name) for name in annotators_with_answers(dataset)),
            key=lambda name: (name[0], int(name[1:]) if name[1:].isdigit() else 0),
        ),
    )


def _agreement_charts(found: AgreementReport) -> list[Markup]:
    def bar(pos: PosReport, key: str) -> Bar:
        interval = (pos.intervals or {}).get(key)
        return Bar(getattr(pos.row, key), *(interval or (None, None)))

    shown = [key for key in KEYS if found.pos[key].row.T]
    charts = [
        bar_chart(
            "Agreement by PoS (%), with 95% intervals over lemmas",
            shown,
            {name: [bar(found.pos[key], name) for key in shown] for name in ("PA", "PAm")},
        )
    ]
    annotators = found.annotators
    if annotators:
        charts.append(
            bar_chart(
                "Agreement per annotator (%)",
                list(annotators),
                {
                    "with others": [Bar(v.with_others) for v in annotators.values()],
                    "with mode": [Bar(v.with_mode) for v in annotators.values()],
                },
            )
        )
    return charts


@bp.get("/datasets/<id:dataset_id>/scores")
@organiser_required
def scores(dataset_id: int) -> str:
    """The stored leaderboard: every system file uploaded to the dataset, one table per
    kind ranked by the chosen measure (``?best=…&oot=…&ranked=…``), with coverage,
    warnings and score.pl's diagnosis; with ``?significance=on``, intervals and paired
    significance of the systems scored under ``rules``, against the gold as compiled now."""
    dataset = db.get_or_404(Dataset, dataset_id)
    if dataset.task == "complexity":  # ratings: MLSP's scorer only
        return render_template(
            "reports/task_scores.html", dataset=dataset, benchmark=BENCHMARKS[dataset.task]
        )
    compiled = compile_dataset(dataset)
    stored = systems.stored_systems(dataset)
    current = systems.scoring_gold(compiled, "compat", f"{dataset.name} gold")
    tables = systems.leaderboards(
        stored, {kind: request.args.get(kind, "") for kind in systems.KINDS}
    )
    names = systems.labels(stored)
    rules = "fixed" if request.args.get("rules") == "fixed" else "compat"
    compared = None
    if request.args.get("significance") == "on":
        try:
            compared = systems.significance(dataset, compiled, rules, _seed())
        except (ValueError, ScorerDied) as error:
            flash(f"Not compared: {error}", "error")
    return render_template(
        "reports/scores.html",
        dataset=dataset,
        compiled=compiled,
        scorer=scorer_view(compiled),
        systems=stored,
        tables=tables,
        names=names,
        current=current,
        measures={kind: systems.measures_of(kind) for kind in systems.KINDS},
        descriptions={name: measure.description for name, measure in MEASURES.items()},
        chart=_systems_chart(stored, names),
        compared=compared,
        rules=rules,
        low=systems.LOW_COVERAGE,
        benchmark=BENCHMARKS.get(dataset.task),
    )


@bp.post("/datasets/<id:dataset_id>/scores/benchmark")
@organiser_required
def benchmark_score(dataset_id: int) -> str | BaseResponse:
    """A simplification or complexity study's system file scored by its benchmark's own
    scorer (TSAR's, MLSP's LCP) against the study's gold as compiled now or the gold of
    the file it was imported from; the figures are shown, not stored."""
    dataset = db.get_or_404(Dataset, dataset_id)
    upload = request.files.get("system")
    if upload is None or not upload.filename:
        flash("Choose a system file to score.", "error")
        return redirect(url_for("reports.scores", dataset_id=dataset.id))
    try:
        result = score_system(
            dataset,
            uploaded_bytes(upload, SYSTEM_FILE),
            upload.filename,
            request.form.get("against") == "reference",
        )
    except ServiceError as error:
        flash(str(error), "error")
        return redirect(url_for("reports.scores", dataset_id=dataset.id))
    return render_template(
        "reports/task_scores.html",
        dataset=dataset,
        benchmark=BENCHMARKS[dataset.task],
        result=result,
    )


@bp.post("/datasets/<id:dataset_id>/scores")
@organiser_required
def upload_systems(dataset_id: int) -> BaseResponse:
    """Store and score uploaded system files (best, oot or ranked), under score.pl's rules
    or the fixed ones."""
    dataset = db.get_or_404(Dataset, dataset_id)
    uploads = [f for f in request.files.getlist("systems") if f.filename]
    if not uploads:
        flash("Choose one or more system files to score.", "error")
        return redirect(url_for("reports.scores", dataset_id=dataset.id))
    compiled = compile_dataset(dataset)
    rules = "fixed" if request.form.get("fixed") == "on" else "compat"
    # FILE.provenance.json (lexsub generate) uploaded with FILE: what made it
    made = {upload_name(f): f for f in uploads if upload_name(f).endswith(PROVENANCE_SUFFIX)}
    names = {upload_name(f) for f in uploads}
    for name in sorted(made):
        if name.removesuffix(PROVENANCE_SUFFIX) not in names:
            flash(
                f"Not stored: {name} is a provenance file, and no system file "
                f"{name.removesuffix(PROVENANCE_SUFFIX)} was uploaded with it.",
                "error",
            )
    for upload in uploads:
        if upload_name(upload) in made:
            continue
        found = made.get(upload_name(upload) + PROVENANCE_SUFFIX)
        try:
            row = systems.store_system(
                dataset,
                upload.filename or "",
                uploaded_bytes(upload, SYSTEM_FILE),
                rules,
                current_user.username,
                compiled,
                None if found is None else uploaded_text(found, SYSTEM_FILE),
            )
        except systems.DuplicateSystem as error:
            flash(f"Not stored: {error}", "info")
        except ServiceError as error:
            flash(f"Not scored: {error}", "error")
        else:
            flash(f"{row.file_name} stored and scored ({row.kind}, {row.rules} rules).", "info")
    return redirect(url_for("reports.scores", dataset_id=dataset.id))


@bp.post("/datasets/<id:dataset_id>/scores/rescore")
@organiser_required
def rescore(dataset_id: int) -> BaseResponse:
    """Score every stored system again, against the gold as compiled now."""
    dataset = db.get_or_404(Dataset, dataset_id)
    done, problems = systems.rescore(dataset, compile_dataset(dataset))
    flash(
        f"{done} system{'' if done == 1 else 's'} re-scored against the gold as compiled now.",
        "info",
    )
    for problem in problems:
        flash(f"Not re-scored (previous figures kept): {problem}", "error")
    return redirect(url_for("reports.scores", dataset_id=dataset.id))


@bp.post("/datasets/<id:dataset_id>/scores/delete")
@organiser_required
def delete_system(dataset_id: int) -> str | BaseResponse:
    """Delete a stored system once confirmed: without ``confirm=yes`` the page that asks
    (its name, kind and main figure, and the button that deletes it)."""
    dataset = db.get_or_404(Dataset, dataset_id)
    system_id = form_id(request.form, "system", "system") or 0
    try:
        if request.form.get("confirm") != "yes":
            return render_template(
                "reports/delete_system.html",
                dataset=dataset,
                row=systems.find_system(dataset, system_id),
            )
        row = systems.delete_system(dataset, system_id)
    except ServiceError as error:
        flash(str(error), "error")
    else:
        flash(f"{row.file_name} deleted.", "info")
    return redirect(url_for("reports.scores", dataset_id=dataset.id))


def _systems_chart(stored: list[SystemRun], names: dict[int, str]) -> Markup | None:
    measures = [m for m in HEADLINE if any(m in row.scores for row in stored)]
    if not measures:
        return None
    return bar_chart(
        "Systems (%)",
        measures,
        {names[row.id]: [Bar(row.scores.get(m)) for m in measures] for row in stored},
    )
