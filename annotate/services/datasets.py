"""Datasets: importing a parsed file, exporting the responses, the progress pages."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy import text as sql

from annotate.extensions import db
from annotate.importer import ImportResult
from annotate.models import Dataset, Instance, Lexelt, Response, User
from annotate.services.responses import dictionary_flags
from annotate.services.rules import MAX_DATASET_NAME, ServiceError, check_text, safe_source
from annotate.services.study import answered_count, members, sentence_count


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
            task=result.task,
            reference=result.reference,
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
    ones assigned to them; :mod:`annotate.services.study`), and their last save."""
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
