"""The gold of a simplification or complexity study from the database: its sentences and
answers read here, laid out by :mod:`annotate.gold.tasks` and (ratings) agreed on by
:mod:`scoring.agreement.ratings`, both pure."""

from __future__ import annotations

import json
from collections import defaultdict

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold.tasks import TaskInstance, complexity_gold, simplification_gold
from annotate.models import Dataset, Instance, Response, User
from annotate.sources.language import language_name
from scoring.agreement.ratings import RatingAgreement, rating_agreement

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


def rating_agreement_of(dataset: Dataset) -> RatingAgreement:
    """Ordinal and interval alpha of the study's ratings, with bootstrap intervals."""
    return rating_agreement(list(ratings_by_instance(dataset).values()))


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
