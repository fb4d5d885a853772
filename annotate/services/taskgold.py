"""The gold of a simplification or complexity study from the database: its sentences and
answers read here, laid out by :mod:`annotate.gold.tasks` and (ratings) agreed on by
:mod:`scoring.agreement.ratings`, both pure."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold.tasks import TaskInstance, complexity_gold, simplification_gold
from annotate.models import Dataset, Instance, Response, User
from annotate.services.rules import ServiceError
from scoring.agreement.ratings import RatingAgreement, rating_agreement
from scoring.benchmark import lcp, tsar
from scoring.errors import FormatError
from scoring.formats.language import language_name
from scoring.formats.lcp import parse_lcp
from scoring.formats.text import universal_lines
from scoring.formats.tsar import parse_tsar

TASK_FILES = {"simplification": "tsar_gold.tsv", "complexity": "lcp_gold.tsv"}
"""The benchmark layout each task's study compiles to, by file name."""


def task_instances(dataset: Dataset) -> list[TaskInstance]:
    """The dataset's sentences in its order, whole, with their targets."""
    rows = db.session.execute(
        select(Instance.xml_id, Instance.before, Instance.head, Instance.after)
        .where(Instance.dataset_id == dataset.id)
        .order_by(Instance.position)
    )
    return [TaskInstance(id_, before + head + after, head) for id_, before, head, after in rows]


def answers_by_instance(dataset: Dataset, kind: str) -> dict[str, list[list[str]]]:
    """Instance id → each annotator's answer of ``kind`` (by username), as stored."""
    rows = db.session.execute(
        select(Instance.xml_id, Response.substitutes)
        .join(Instance, Response.instance_id == Instance.id)
        .join(User, Response.user_id == User.id)
        .where(Instance.dataset_id == dataset.id, Response.kind == kind)
        .order_by(Instance.position, User.username)
    )
    found: dict[str, list[list[str]]] = defaultdict(list)
    for id_, values in rows:
        found[id_].append(list(values))
    return dict(found)


def ratings_by_instance(dataset: Dataset) -> dict[str, list[int]]:
    """Instance id → its ratings (1-5), one per annotator, by username."""
    return {
        id_: [int(answer[0]) for answer in answers]
        for id_, answers in answers_by_instance(dataset, "rating").items()
    }


def rating_agreement_of(dataset: Dataset, seed: int = 12345) -> RatingAgreement:
    """Ordinal and interval alpha of the study's ratings, with bootstrap intervals over
    the targets (``seed``); ValueError when alpha is undefined (no target rated twice,
    every rating the same)."""
    return rating_agreement(list(ratings_by_instance(dataset).values()), seed=seed)


def task_files(dataset: Dataset) -> dict[str, str]:
    """File name → text of the study's gold in its benchmark's layout: ``tsar_gold.tsv``
    (simplification) or ``lcp_gold.tsv`` and ``agreement.json`` (complexity); none for a
    substitution study."""
    if dataset.task == "simplification":
        gold = simplification_gold(
            task_instances(dataset), answers_by_instance(dataset, "substitutes")
        )
        return {TASK_FILES["simplification"]: gold}
    if dataset.task != "complexity":
        return {}
    ratings = ratings_by_instance(dataset)
    files = {
        TASK_FILES["complexity"]: complexity_gold(
            task_instances(dataset), ratings, language_name(dataset.language).lower()
        )
    }
    try:
        agreement: dict[str, object] = rating_agreement(list(ratings.values())).to_json()
    except ValueError as error:  # no target rated twice, or one rating only
        agreement = {"alpha": None, "reason": str(error)}
    files["agreement.json"] = json.dumps(agreement, indent=2, sort_keys=True) + "\n"
    return files


BENCHMARKS = {
    "simplification": "TSAR-2022 (tsar_eval.py)",
    "complexity": "MLSP-2024 LCP (lcp_evaluate.py)",
}
"""The scorer a study's task is scored with, as the page names it."""


@dataclass(frozen=True)
class BenchmarkScores:
    """A system scored against a study's gold by its benchmark's scorer: the figures
    (fractions, unfloored), the text the official script prints, and notes."""

    benchmark: str
    against: str
    system: str
    metrics: dict[str, float]
    text: str
    notes: tuple[str, ...]


def score_system(dataset: Dataset, data: bytes, name: str, reference: bool) -> BenchmarkScores:
    """Score a system file (TSAR's prediction layout, or MLSP's ``ID<TAB>VALUE``) against
    the study's gold as compiled now, or (``reference``) the gold of the file it was
    imported from, with the benchmark's own scorer (:mod:`scoring.benchmark.tsar`,
    :mod:`scoring.benchmark.lcp`). :class:`ServiceError` naming the rule otherwise."""
    task = dataset.task
    if task not in BENCHMARKS:
        raise ServiceError(
            f"dataset {dataset.name!r} is a {task} study: only simplification and complexity "
            "studies are scored by TSAR's and MLSP's scorers"
        )
    if reference and not dataset.reference:
        raise ServiceError(f"dataset {dataset.name!r} was imported from a file without a gold")
    gold_text = dataset.reference if reference else task_files(dataset)[TASK_FILES[task]]
    against = "the imported file's gold" if reference else "the study's gold as compiled now"
    try:
        system = universal_lines(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ServiceError(f"{name}: not UTF-8 text") from None
    try:
        if task == "simplification":
            found = tsar.score(
                parse_tsar(universal_lines(gold_text), "gold"),
                parse_tsar(system, name),
                prediction_name=name,
            )
            return BenchmarkScores(
                BENCHMARKS[task],
                against,
                name,
                found.metrics,
                tsar.text_of(found.metrics),
                found.notes,
            )
        gold_lines = ["\t".join(line.split("\t")[:5]) for line in universal_lines(gold_text)]
        scored = lcp.score(parse_lcp(gold_lines, "gold"), parse_lcp(system, name), name)
        return BenchmarkScores(
            BENCHMARKS[task],
            against,
            name,
            scored.metrics,
            lcp.text_of(scored.metrics),
            scored.notes,
        )
    except FormatError as error:
        raise ServiceError(f"not scored: {error}") from None
