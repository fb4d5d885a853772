"""An annotator's answers: which sentences they answered, where they resume, saving an
answer (retried, with its revision) and the dictionary tick of a word."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import ScalarSelect, bindparam, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import aliased

from annotate.answers import Answer
from annotate.extensions import db
from annotate.models import Dataset, IdValue, Instance, Response, Revision, User, now
from annotate.services import core
from annotate.services.rules import ServiceError
from annotate.services.study import sentence_filter


def answered_ids(user: User, dataset: Dataset) -> set[int]:
    """The ids of this annotator's sentences of ``dataset``
    (:mod:`annotate.services.study`) that have their answer."""
    return set(
        db.session.scalars(
            select(Response.instance_id)
            .join(Instance)
            .where(Response.user_id == user.id, sentence_filter(user, dataset))
        )
    )


def resume(user: User, dataset: Dataset) -> Instance | None:
    """The first of this annotator's sentences of ``dataset``
    (:mod:`annotate.services.study`), in the order everyone gets, that they have not
    answered."""
    done = select(Response.instance_id).where(Response.user_id == user.id)
    return db.session.scalar(
        select(Instance)
        .where(sentence_filter(user, dataset), Instance.id.not_in(done))
        .order_by(Instance.position)
        .limit(1)
    )


_T = TypeVar("_T")


def retried(save: Callable[[], _T], attempts: int = 20) -> _T:
    """Run ``save`` (one transaction), again after a rollback when a concurrent save of
    the same rows (two tabs, two workers) makes it fail, so that no save is lost."""
    for attempt in range(attempts):
        try:
            return save()
        except (IntegrityError, OperationalError):
            db.session.rollback()
            if attempt == attempts - 1:
                raise
            time.sleep(0.01 * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class Saved:
    """A save stored: the id of the current answer, and whether this save made it (the
    sentence's first answer by this annotator)."""

    response_id: int
    new: bool


class SentenceGone(ServiceError):
    """The sentence of a save is no longer there: an organiser deleted its dataset while
    the annotator was answering (nothing else removes a sentence)."""


GONE = (
    "This sentence's dataset was deleted by an organiser while you were answering, so "
    "there is nothing left to save your answer to. Your earlier answers went with it."
)

NOT_THERE = (
    "There is no such sentence to save your answer to (nothing was saved): its dataset "
    "may have been deleted by an organiser, or the sentence is not one of yours."
)
"""A save sent to a sentence that is not there (its dataset deleted before the save
arrived) or not the annotator's: said on the 404 page instead of "No such page"."""


def save_answer(user: User, instance_id: int, answer: Answer, attempts: int = 20) -> Saved:
    """Store ``answer`` as the annotator's current answer to the sentence and append it
    to the history, in one transaction (:func:`_save_once`); a save that a concurrent
    one makes fail (two tabs, two workers) is retried, never lost. :class:`SentenceGone`
    when the sentence was deleted meanwhile (its dataset deleted)."""
    user_id = user.id  # read once: the rollback before a retry expires the object

    def once() -> Saved:
        try:
            return _save_once(user_id, instance_id, answer)
        except IntegrityError:
            db.session.rollback()
            if db.session.scalar(select(Instance.id).where(Instance.id == instance_id)) is None:
                raise SentenceGone(GONE) from None
            raise

    return retried(once, attempts)


ANSWER_COLUMNS = ("kind", "substitutes", "multiword", "used_dictionary", "updated_at")
"""What a save sets in the current answer (and the revision repeats)."""


@cache
def _upsert(dialect: str) -> Any:
    """The save's first statement, built once for the database (SQLite, PostgreSQL): the
    answer inserted, or on the (user, instance) key updated with ``saves =
    responses.saves + 1``; it returns the answer's id and ``saves``."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    elif dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    else:
        raise ServiceError(
            f"database {dialect!r} is not supported: lexsub runs on SQLite and PostgreSQL"
        )
    table = Response.__table__
    statement = insert(table)
    return statement.on_conflict_do_update(
        index_elements=[table.c.user_id, table.c.instance_id],
        set_={
            **{key: statement.excluded[key] for key in ANSWER_COLUMNS},
            "saves": table.c.saves + 1,
        },
    ).returning(table.c.id, table.c.saves)


SAVED_COLUMNS = ("user_id", "instance_id", "kind", "substitutes", "multiword", "used_dictionary")
"""What a save stores in the current answer and in the revision alike."""


@cache
def _upsert_and_append() -> Any:
    """PostgreSQL's save in one statement, built once: the upsert of :func:`_upsert` and
    the revision appended as two data-modifying parts of one ``WITH`` (PostgreSQL runs
    both, once, in the statement's snapshot), returning the answer's id and ``saves``. One
    round trip to the server instead of two; SQLite, which has no INSERT in a ``WITH``,
    keeps the two statements. Parameters: :data:`SAVED_COLUMNS` and ``stamp``."""
    from sqlalchemy.dialects.postgresql import insert

    table, history = Response.__table__, Revision.__table__
    values = {key: bindparam(key, type_=table.c[key].type) for key in SAVED_COLUMNS}
    stamp = bindparam("stamp", type_=table.c.updated_at.type)
    statement = insert(table).values(**values, updated_at=stamp, saves=1)
    saved = (
        statement.on_conflict_do_update(
            index_elements=[table.c.user_id, table.c.instance_id],
            set_={
                **{key: statement.excluded[key] for key in ANSWER_COLUMNS},
                "saves": table.c.saves + 1,
            },
        )
        .returning(table.c.id, table.c.saves)
        .cte("saved")
    )
    appended = history.insert().values(**values, saved_at=stamp).cte("appended")
    return select(saved.c.id, saved.c.saves).add_cte(appended)


def save_statements(
    user_id: int, instance_id: int, answer: Answer
) -> list[tuple[Any, dict[str, Any]]]:
    """A save's statements with their parameters, the first returning the answer's id
    and ``saves``: on PostgreSQL one (:func:`_upsert_and_append`), elsewhere two, the
    current answer made or updated (:func:`_upsert`), then the revision appended."""
    stamp = now()
    answered = {
        "user_id": user_id,
        "instance_id": instance_id,
        "kind": answer.kind,
        "substitutes": list(answer.substitutes),
        "multiword": answer.multiword,
        "used_dictionary": answer.used_dictionary,
    }
    dialect = db.session.get_bind().dialect.name
    if dialect == "postgresql":
        return [(_upsert_and_append(), {**answered, "stamp": stamp})]
    return [
        (_upsert(dialect), {**answered, "updated_at": stamp, "saves": 1}),
        (_append(), {**answered, "saved_at": stamp}),
    ]


@cache
def _append() -> Any:
    """The revision's INSERT (SQLite's second statement), built once as :func:`_upsert` is."""
    return Revision.__table__.insert()


def _save_once(user_id: int, instance_id: int, answer: Answer) -> Saved:
    """The current answer made or updated (the database counts ``saves``, and a
    concurrent first save meets the unique key and updates instead, so nothing is lost
    from the counter; ``saves`` is 1 after the first) and the revision appended, in one
    transaction: one statement on PostgreSQL, two on SQLite (:func:`save_statements`),
    each run as Core runs it (:func:`annotate.services.core.execute`)."""
    (upsert, answered), *appends = save_statements(user_id, instance_id, answer)
    response_id, saves = core.execute(upsert, answered).one()
    for append, revision in appends:
        core.execute(append, revision)
    db.session.commit()
    return Saved(response_id, saves == 1)


def word_flag(user_id: IdValue, lexelt_id: IdValue) -> ScalarSelect[bool]:
    """The rule of a word's dictionary tick, the one place it is read: the tick of
    the annotator's latest save in that word (every save carries it, so a save changes
    it for the whole word), NULL before their first. SQL, for a value or a column of a
    larger query."""
    answer = aliased(Response)
    word = aliased(Instance)
    return (
        select(answer.used_dictionary)
        .where(
            answer.user_id == user_id,
            answer.instance_id.in_(
                select(word.id).where(word.lexelt_id == lexelt_id).correlate_except(word)
            ),
        )
        .order_by(answer.updated_at.desc(), answer.id.desc())
        .limit(1)
        .scalar_subquery()
    )


def dictionary_flags(
    dataset_id: int, user_id: int | None = None, lexelt_id: int | None = None
) -> dict[tuple[int, int], bool]:
    """(annotator id, lexelt id) → the word's dictionary tick (:func:`word_flag`), for
    every annotator with an answer in the dataset and every word they answered (or one
    annotator's, or one word's)."""
    pairs = (
        select(Response.user_id, Instance.lexelt_id)
        .join(Instance, Instance.id == Response.instance_id)
        .where(Instance.dataset_id == dataset_id)
        .group_by(Response.user_id, Instance.lexelt_id)
    )
    if user_id is not None:
        pairs = pairs.where(Response.user_id == user_id)
    if lexelt_id is not None:
        pairs = pairs.where(Instance.lexelt_id == lexelt_id)
    found = pairs.subquery()
    return {
        (user, lexelt): bool(flag)
        for user, lexelt, flag in db.session.execute(
            select(
                found.c.user_id, found.c.lexelt_id, word_flag(found.c.user_id, found.c.lexelt_id)
            )
        )
    }
