"""What organisers read of a dataset's answers: every annotator's
current answer to an item and, on request, each revision; an annotator's answers in
order; and which answers the compiler leaves out or changes (normalisation, lemma
changes, flagged values). Read only: the export and the compiler stay the source of
the gold."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold import CompiledGold
from annotate.models import Dataset, Instance, Lexelt, Response, Revision, User
from annotate.services.responses import dictionary_flags
from annotate.services.rules import storable


@dataclass(frozen=True)
class StoredAnswer:
    """One annotator's current answer to one sentence, as stored."""

    annotator: str
    kind: str
    substitutes: tuple[str, ...]
    multiword: str | None
    used_dictionary: bool
    updated_at: datetime
    saves: int
    lexelt: str = ""
    instance: str = ""


def find_instance(dataset: Dataset, xml_id: str) -> Instance | None:
    """The sentence with this id (None for an id no sentence can have: PostgreSQL refuses
    a NUL in a query, and ids are at most 64 characters)."""
    if not storable(xml_id) or len(xml_id) > 64:
        return None
    return db.session.scalar(
        select(Instance).where(Instance.dataset_id == dataset.id, Instance.xml_id == xml_id)
    )


def item_answers(instance: Instance) -> list[StoredAnswer]:
    """Every annotator's current answer to ``instance``, by annotator name."""
    flags = dictionary_flags(instance.dataset_id, lexelt_id=instance.lexelt_id)
    rows = db.session.execute(
        select(Response, User.username)
        .join(User, Response.user_id == User.id)
        .where(Response.instance_id == instance.id)
        .order_by(User.username)
    )
    return [
        StoredAnswer(
            name,
            row.kind,
            tuple(row.substitutes),
            row.multiword,
            flags.get((row.user_id, instance.lexelt_id), False),
            row.updated_at,
            row.saves,
        )
        for row, name in rows
    ]


@dataclass(frozen=True)
class StoredRevision:
    """One save of an answer, as the revisions table keeps it."""

    annotator: str
    kind: str
    substitutes: tuple[str, ...]
    multiword: str | None
    used_dictionary: bool
    saved_at: datetime


def item_revisions(instance: Instance) -> list[StoredRevision]:
    """Every save of an answer to ``instance``, by annotator, oldest first."""
    rows = db.session.execute(
        select(Revision, User.username)
        .join(User, Revision.user_id == User.id)
        .where(Revision.instance_id == instance.id)
        .order_by(User.username, Revision.saved_at, Revision.id)
    )
    return [
        StoredRevision(
            name, row.kind, tuple(row.substitutes), row.multiword, row.used_dictionary, row.saved_at
        )
        for row, name in rows
    ]


def dataset_answers(dataset: Dataset, user: User | None = None) -> list[StoredAnswer]:
    """Every current answer in the dataset (or ``user``'s only), in the order the
    sentences are annotated, then by annotator."""
    flags = dictionary_flags(dataset.id, user_id=None if user is None else user.id)
    query = (
        select(Response, Instance, Lexelt, User.username)
        .join(Instance, Response.instance_id == Instance.id)
        .join(Lexelt, Instance.lexelt_id == Lexelt.id)
        .join(User, Response.user_id == User.id)
        .where(Instance.dataset_id == dataset.id)
        .order_by(Instance.position, User.username)
    )
    if user is not None:
        query = query.where(Response.user_id == user.id)
    return [
        StoredAnswer(
            name,
            row.kind,
            tuple(row.substitutes),
            row.multiword,
            flags.get((row.user_id, lexelt.id), False),
            row.updated_at,
            row.saves,
            lexelt.item,
            instance.xml_id,
        )
        for row, instance, lexelt, name in db.session.execute(query)
    ]


def annotators_with_answers(dataset: Dataset) -> list[str]:
    """The usernames with an answer in the dataset, sorted."""
    return list(
        db.session.scalars(
            select(User.username)
            .join(Response, Response.user_id == User.id)
            .join(Instance, Response.instance_id == Instance.id)
            .where(Instance.dataset_id == dataset.id)
            .distinct()
            .order_by(User.username)
        )
    )


PROBLEMS = {
    "left-out": "left out (a value breaks the rule of a valid substitute)",
    "flagged": "flagged (kept, worth a look)",
    "normalised": "changed by normalisation",
    "lemmatised": "changed by a lemma change",
    "excluded": "its annotator is left out of the gold (Compile gold says why)",
}
"""The marks :func:`problem_marks` gives an answer, and what each says."""
FILTERS = {
    **PROBLEMS,
    "changed": "changed by normalisation or a lemma change",
    "any": "any of these",
}
"""The filters of the answers pages: a mark, or a group of them."""


def problem_marks(
    compiled: CompiledGold, answers: Iterable[StoredAnswer]
) -> dict[tuple[str, str], tuple[str, ...]]:
    """(annotator, instance) → the marks of :data:`PROBLEMS` the compiler gives that
    answer: left out, flagged, or a value it changed by normalisation or a lemma change;
    an answer of an annotator the compile left out is marked ``excluded`` only (the
    compiler never read it)."""
    excluded = {row.annotator for row in compiled.excluded}
    left_out = {(p.annotator, p.instance) for p in compiled.left_out}
    flagged = {(p.annotator, p.instance) for p in compiled.flagged}
    normalised = {change.surface: change for change in compiled.normalisations}
    emptied = {change.surface: change for change in compiled.emptied}
    lemmas = {
        (change.surface, instance)
        for change in compiled.lemma_changes
        if change.applied
        for instance in change.items
    }
    marks: dict[tuple[str, str], tuple[str, ...]] = {}
    for answer in answers:
        key = (answer.annotator, answer.instance)
        if answer.annotator in excluded:
            marks[key] = ("excluded",)
            continue
        found = []
        if key in left_out:
            found.append("left-out")
        if key in flagged:
            found.append("flagged")
        values = [*answer.substitutes, *([answer.multiword] if answer.multiword else [])]
        changed_forms = False
        lemmatised = False
        for value in values:
            change = normalised.get(value) or emptied.get(value)
            if change is not None and answer.instance in change.items:
                changed_forms = True
            form = change.normalised if change is not None else value
            lemmatised = lemmatised or (form, answer.instance) in lemmas
        if changed_forms and key not in left_out:
            found.append("normalised")
        if lemmatised and key not in left_out:
            found.append("lemmatised")
        if found:
            marks[key] = tuple(found)
    return marks


def matches(marks: tuple[str, ...], chosen: str) -> bool:
    """Whether an answer with ``marks`` passes the filter ``chosen`` ('' passes all)."""
    if not chosen:
        return True
    if chosen == "any":
        return bool(marks)
    if chosen == "changed":
        return "normalised" in marks or "lemmatised" in marks
    return chosen in marks
