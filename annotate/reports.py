"""Organiser report pages (SPEC G6, S3, S7): the agreement report of a dataset and the
leaderboard of uploaded system files against its compiled gold.

The numbers come from the same library functions as the command lines
(``python -m scoring.agreement``, ``python -m scoring.compare``); this module only
compiles the dataset, calls them and draws the charts. Like every organiser page these
refuse annotators (``tests/test_organiser.py``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, render_template, request
from markupsafe import Markup

from annotate.charts import Bar, bar_chart
from annotate.extensions import db
from annotate.gold import CompiledGold
from annotate.gold.write import annotator_lines, gold_lines, scorer_view
from annotate.goldfiles import compile_dataset
from annotate.inspect import find_instance, item_answers
from annotate.models import Dataset
from annotate.organiser import organiser_required
from scoring.agreement import parse_annotators
from scoring.agreement.report import KEYS, report
from scoring.gold import read_gold
from scoring.leaderboard import Settings, leaderboard, system_names
from scoring.official import ScorerDied

bp = Blueprint("reports", __name__, url_prefix="/organiser")

HEADLINE = ("best.R", "oot.R", "new_best.R", "rank.R", "gap")
"""The measures the leaderboard chart draws (each system has some of them)."""


@bp.get("/datasets/<int:dataset_id>/agreement")
@organiser_required
def agreement(dataset_id: int) -> str:
    """Table 1 for the dataset's current responses, per annotator, alpha and kappa, with
    bootstrap intervals over lemmas, and the charts."""
    dataset = db.get_or_404(Dataset, dataset_id)
    compiled = compile_dataset(dataset)
    lines = list(annotator_lines(compiled))
    items = parse_annotators(lines, f"{dataset.name} annotators") if lines else ()
    seed = request.args.get("seed", 12345, type=int)
    body = report(items, leave_out=True, with_intervals=True, seed=seed).to_json()
    return render_template("reports/agreement.html", dataset=dataset, body=body, keys=KEYS,
                           charts=_agreement_charts(body), compiled=compiled)


@bp.get("/datasets/<int:dataset_id>/problems")
@organiser_required
def problems(dataset_id: int) -> str:
    """The answers the compiler leaves out (a value breaks the rule of a valid
    substitute) and the values it keeps but flags, each with a link to its item."""
    dataset = db.get_or_404(Dataset, dataset_id)
    compiled = compile_dataset(dataset)
    return render_template("reports/problems.html", dataset=dataset, compiled=compiled)


@bp.get("/datasets/<int:dataset_id>/items/<path:xml_id>")
@organiser_required
def item(dataset_id: int, xml_id: str) -> str:
    """One sentence with every annotator's current answer, and its problems."""
    dataset = db.get_or_404(Dataset, dataset_id)
    instance = find_instance(dataset, xml_id)
    if instance is None:
        abort(404)
    compiled = compile_dataset(dataset)
    return render_template(
        "reports/item.html", dataset=dataset, instance=instance,
        answers=item_answers(instance),
        left_out=[p for p in compiled.left_out if p.instance == xml_id],
        flagged=[p for p in compiled.flagged if p.instance == xml_id])


def _agreement_charts(body: dict[str, Any]) -> list[Markup]:
    def bar(row: dict[str, Any], key: str) -> Bar:
        interval = row.get("intervals", {}).get(key)
        return Bar(row[key], *(interval or (None, None)))

    shown = [key for key in KEYS if body[key]["T"]]
    charts = [bar_chart("Agreement by PoS (%), with 95% intervals over lemmas", shown,
                        {name: [bar(body[key], name) for key in shown]
                         for name in ("PA", "PAm")})]
    annotators = body["annotators"]
    if annotators:
        charts.append(bar_chart(
            "Agreement per annotator (%)", list(annotators),
            {"with others": [Bar(v["with_others"]) for v in annotators.values()],
             "with mode": [Bar(v["with_mode"]) for v in annotators.values()]}))
    return charts


@bp.route("/datasets/<int:dataset_id>/scores", methods=["GET", "POST"])
@organiser_required
def scores(dataset_id: int) -> str:
    """Upload best, oot or ranked system files and score them against the dataset's gold
    as compiled now: the leaderboard, its chart, and (if asked) paired significance."""
    dataset = db.get_or_404(Dataset, dataset_id)
    result: dict[str, Any] | None = None
    chart: Markup | None = None
    compiled = compile_dataset(dataset)
    if request.method == "POST":
        uploads = [f for f in request.files.getlist("systems") if f.filename]
        if not uploads:
            flash("Choose one or more system files to score.", "error")
        else:
            result, chart = _leaderboard(dataset, compiled, uploads)
    return render_template("reports/scores.html", dataset=dataset, result=result, chart=chart,
                           significance=request.form.get("significance") == "on",
                           fixed=request.form.get("fixed") == "on", compiled=compiled,
                           scorer=scorer_view(compiled))


def _leaderboard(dataset: Dataset, compiled: CompiledGold,
                 uploads: list[Any]) -> tuple[dict[str, Any] | None, Markup | None]:
    names = system_names([upload.filename for upload in uploads])
    try:
        systems = [(name, upload.read().decode("utf-8")) for name, upload in
                   zip(names, uploads, strict=True)]
    except UnicodeDecodeError as error:
        flash(f"A system file is not UTF-8 text: {error}", "error")
        return None, None
    gold = read_gold(list(gold_lines(compiled)),
                     "fixed" if request.form.get("fixed") == "on" else "compat",
                     f"{dataset.name} gold")
    if not gold.items:
        flash("The dataset's gold has no item in T yet: nothing to score against.", "error")
        return None, None
    settings = Settings(significance=request.form.get("significance") == "on",
                        seed=request.form.get("seed", 12345, type=int))
    try:
        result = leaderboard(gold, systems, settings).to_json()
    except (ValueError, ScorerDied) as error:
        flash(f"Not scored: {error}", "error")
        return None, None
    measures = [m for m in HEADLINE if any(m in row for row in result["systems"].values())]
    intervals = result.get("intervals", {})
    chart = bar_chart("Systems (%)", measures, {
        name: [Bar(values.get(m), *intervals.get(name, {}).get(m, (None, None)))
               for m in measures]
        for name, values in result["systems"].items()})
    return result, chart
