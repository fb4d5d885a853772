"""Database operations shared by the web pages and the command line."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, ScalarSelect, func, select
from sqlalchemy import text as sql
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import QueryableAttribute, aliased

from annotate.answers import Answer
from annotate.extensions import db
from annotate.importer import ImportResult
from annotate.models import Dataset, Instance, Lexelt, Response, Revision, User, now

IdValue = int | ColumnElement[int] | QueryableAttribute[int]
"""An id in SQL: a value, or a column (of an aliased table, a CTE) in a larger query."""


class ServiceError(ValueError):
    """A request that breaks a rule (the message says which)."""


# What no name or id may hold: C0 and C1 controls (NUL, tab, line breaks), the line and
# paragraph separators, bidi controls (they reorder what a page shows) and lone surrogates.
# PostgreSQL refuses NUL in text outright.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
MAX_USERNAME = 80
MAX_DATASET_NAME = 120
MAX_SOURCE = 255


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message (control characters escaped), cut to ``limit``."""
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


def check_text(value: str, what: str, limit: int) -> str:
    """``value`` if the database can keep it as a name: not empty or only white space, no
    character of :data:`UNSAFE`, at most ``limit`` characters. Otherwise
    :class:`ServiceError` naming the value and the rule."""
    if not value.strip():
        raise ServiceError(f"{what} {shown(value)} is empty")
    bad = UNSAFE.search(value)
    if bad is not None:
        raise ServiceError(
            f"{what} {shown(value)} contains U+{ord(bad.group()):04X}: "
            "control characters, line breaks and bidi controls are not "
            "allowed"
        )
    if len(value) > limit:
        raise ServiceError(f"{what} {shown(value)} has {len(value)} characters; at most {limit}")
    return value


def safe_source(file_name: str) -> str:
    """An uploaded file's name as a dataset keeps it: the characters of :data:`UNSAFE`
    removed and, past :data:`MAX_SOURCE` characters, shortened (ending in '…')."""
    cleaned = UNSAFE.sub("", file_name)
    return cleaned if len(cleaned) <= MAX_SOURCE else cleaned[: MAX_SOURCE - 1] + "…"


def create_user(username: str, password: str, role: str = "annotator") -> User:
    if role not in ("annotator", "organiser"):
        raise ServiceError(f"role {shown(role)} is not annotator or organiser")
    if (
        not username
        or len(username) > MAX_USERNAME
        or not username.replace("_", "").replace("-", "").replace(".", "").isalnum()
    ):
        raise ServiceError(
            f"username {shown(username)} must be 1-{MAX_USERNAME} letters, digits, '.', '_' or '-'"
        )
    if len(password) < 8:
        raise ServiceError("a password has at least 8 characters")
    if db.session.scalar(select(User).where(User.username == username)):
        raise ServiceError(f"user {username!r} exists already")
    user = User(username=username, role=role)
    user.set_password(password)
    db.session.add(user)
    db.session.commit()
    return user


@dataclass(frozen=True)
class Imported:
    dataset: Dataset
    created: bool  # False: the same file was imported before (nothing changed)
    instances: int


INSERT_BATCH = 5000
"""Instances inserted at a time by :func:`import_dataset` (the parameters of all of them
at once would add ~50 MB to the largest import)."""


def import_dataset(result: ImportResult, name: str, source: str, data: bytes) -> Imported:
    """Store a parsed file (any format of :mod:`annotate.sources`) as dataset ``name``, in
    its language (``result.language``), in one transaction. Importing the same bytes again
    changes nothing; another file under the same name is refused, and so is a name that
    :func:`check_text` refuses. ``source`` (the file's name) is kept as
    :func:`safe_source` makes it. The dataset's figures (:attr:`Dataset.sentences`,
    :attr:`Dataset.words`, :attr:`Lexelt.word_index`) are stored with it: they change
    only here, and the annotation page reads them instead of counting the dataset."""
    check_text(name, "dataset name", MAX_DATASET_NAME)
    source = safe_source(source)
    digest = hashlib.sha256(data).hexdigest()
    existing = db.session.scalar(select(Dataset).where(Dataset.name == name))
    if existing is not None:
        if existing.source_sha256 == digest:
            return Imported(existing, False, existing.sentences)
        raise ServiceError(f"dataset {name!r} exists already with another file")
    try:
        words = 0
        dataset = Dataset(
            name=name,
            source=source,
            source_sha256=digest,
            language=result.language,
            sentences=sum(len(lexelt.instances) for lexelt in result.lexelts),
            words=sum(1 for lexelt in result.lexelts if lexelt.instances),
        )
        db.session.add(dataset)
        db.session.flush()
        position = 0
        rows: list[dict[str, Any]] = []
        for index, lexelt in enumerate(result.lexelts):
            words += bool(lexelt.instances)
            row = Lexelt(
                dataset_id=dataset.id,
                item=lexelt.item,
                lemma=lexelt.lemma,
                pos=lexelt.pos,
                position=index,
                word_index=words,
            )
            db.session.add(row)
            db.session.flush()
            for instance in lexelt.instances:
                rows.append(
                    {
                        "dataset_id": dataset.id,
                        "lexelt_id": row.id,
                        "xml_id": instance.id,
                        "position": position,
                        "before": instance.before,
                        "head": instance.head,
                        "after": instance.after,
                    }
                )
                position += 1
                if len(rows) == INSERT_BATCH:
                    db.session.execute(Instance.__table__.insert(), rows)
                    rows = []
        if rows:
            db.session.execute(Instance.__table__.insert(), rows)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    _analyse()
    return Imported(dataset, True, position)


def _analyse() -> None:
    """On PostgreSQL, fresh planner statistics for the tables an import fills: until
    autovacuum gets to them (up to a minute later) the save path's one SELECT is planned
    for empty tables and takes ~30 ms instead of ~2.5 ms (bench/RESULTS.md)."""
    if db.engine.dialect.name == "postgresql":
        db.session.execute(sql("ANALYZE lexelts, instances"))
        db.session.commit()


def answered_ids(user: User, dataset: Dataset) -> set[int]:
    """The ids of this annotator's sentences of ``dataset`` (annotate.study) that have
    their answer."""
    from annotate.study import sentence_filter  # annotate.study builds on this module

    return set(
        db.session.scalars(
            select(Response.instance_id)
            .join(Instance)
            .where(Response.user_id == user.id, sentence_filter(user, dataset))
        )
    )


def resume(user: User, dataset: Dataset) -> Instance | None:
    """The first of this annotator's sentences of ``dataset`` (annotate.study), in the
    order everyone gets, that they have not answered."""
    from annotate.study import sentence_filter  # annotate.study builds on this module

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


def save_answer(user: User, instance_id: int, answer: Answer, attempts: int = 20) -> Saved:
    """Store ``answer`` as the annotator's current answer to the sentence and append it
    to the history, in one transaction of two statements (:func:`_save_once`); a save
    that a concurrent one makes fail (two tabs, two workers) is retried, never lost."""
    user_id = user.id  # read once: the rollback before a retry expires the object
    return retried(lambda: _save_once(user_id, instance_id, answer), attempts)


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


def save_statements(
    user_id: int, instance_id: int, answer: Answer
) -> tuple[tuple[Any, dict[str, Any]], tuple[Any, dict[str, Any]]]:
    """A save's two statements with their parameters: the current answer made or
    updated (:func:`_upsert`), then the revision appended."""
    stamp = now()
    answered = {
        "user_id": user_id,
        "instance_id": instance_id,
        "kind": answer.kind,
        "substitutes": list(answer.substitutes),
        "multiword": answer.multiword,
        "used_dictionary": answer.used_dictionary,
    }
    upsert = _upsert(db.session.get_bind().dialect.name)
    return (
        (upsert, {**answered, "updated_at": stamp, "saves": 1}),
        (Revision.__table__.insert(), {**answered, "saved_at": stamp}),
    )


def _save_once(user_id: int, instance_id: int, answer: Answer) -> Saved:
    """One statement makes or updates the current answer (:func:`_upsert`: the database
    counts ``saves``, and a concurrent first save meets the unique key and updates
    instead, so nothing is lost from the counter; ``saves`` is 1 after the first); a
    second appends the revision."""
    (upsert, answered), (append, revision) = save_statements(user_id, instance_id, answer)
    response_id, saves = db.session.execute(upsert, answered).one()
    db.session.execute(append, revision)
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


def export_records(dataset: Dataset) -> Iterator[dict[str, Any]]:
    """One object per (annotator, instance) with an answer, in instance then user order:
    the responses format the gold compiler reads (docs/formats.md)."""
    flags = dictionary_flags(dataset.id)
    query = (
        select(Response, Instance, Lexelt, User)
        .join(Instance, Response.instance_id == Instance.id)
        .join(Lexelt, Instance.lexelt_id == Lexelt.id)
        .join(User, Response.user_id == User.id)
        .where(Instance.dataset_id == dataset.id)
        .order_by(Instance.position, User.username)
    )
    for response, instance, lexelt, user in db.session.execute(query):
        yield {
            "annotator": user.username,
            "lexelt": lexelt.item,
            "instance": instance.xml_id,
            "kind": response.kind,
            "substitutes": list(response.substitutes),
            "multiword": response.multiword,
            "used_dictionary": flags.get((user.id, lexelt.id), False),
            "updated_at": response.updated_at.isoformat(),
        }


@dataclass(frozen=True)
class Progress:
    """One annotator's progress in a dataset: answers among their own sentences, how
    many sentences are theirs, and when they last saved an answer there."""

    annotator: str
    done: int
    total: int
    last_activity: datetime | None = None
    member: bool = True
    """False: no longer a member of the dataset, but their answers are still there."""

    @property
    def percent(self) -> float:
        return 100 * self.done / self.total if self.total else 0.0


def progress_by_annotator(dataset: Dataset) -> list[Progress]:
    """Each annotator of the dataset (its members, then anyone else with an answer in
    it), by username: their answered sentences of their own (all the dataset's, or the
    ones assigned to them; annotate.study), and their last save."""
    from annotate.study import answered_count, members, sentence_count  # study uses us

    last = dict(
        db.session.execute(
            select(Response.user_id, func.max(Response.updated_at))
            .join(Instance)
            .where(Instance.dataset_id == dataset.id)
            .group_by(Response.user_id)
        ).all()
    )
    people = {user.id: (user, True) for user in members(dataset)}
    for user in db.session.scalars(select(User).where(User.id.in_(list(last)))):
        people.setdefault(user.id, (user, False))
    return [
        Progress(
            user.username,
            answered_count(user, dataset),
            sentence_count(user, dataset),
            last.get(user.id),
            member,
        )
        for user, member in sorted(people.values(), key=lambda pair: pair[0].username)
    ]


def progress_by_word(dataset: Dataset) -> list[tuple[str, dict[str, int], int]]:
    """(lexelt, {annotator: answered}, sentences) for each word, in order."""
    rows = db.session.execute(
        select(Lexelt.item, User.username, func.count(Response.id))
        .join(Instance, Instance.lexelt_id == Lexelt.id)
        .join(Response, Response.instance_id == Instance.id)
        .join(User, User.id == Response.user_id)
        .where(Lexelt.dataset_id == dataset.id)
        .group_by(Lexelt.item, User.username)
    ).all()
    done: dict[str, dict[str, int]] = {}
    for item, username, count in rows:
        done.setdefault(item, {})[username] = count
    sizes = db.session.execute(
        select(Lexelt.item, func.count(Instance.id))
        .join(Instance)
        .where(Lexelt.dataset_id == dataset.id)
        .group_by(Lexelt.item, Lexelt.position)
        .order_by(Lexelt.position)
    ).all()
    return [(item, done.get(item, {}), size) for item, size in sizes]
