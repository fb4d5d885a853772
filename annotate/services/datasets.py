"""Datasets: importing a parsed file, exporting the responses, the progress pages."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Column, Table, delete, func, select, update
from sqlalchemy import text as sql
from sqlalchemy.exc import IntegrityError, OperationalError

from annotate.extensions import db
from annotate.importer import ImportResult
from annotate.models import Dataset, DatasetDeletion, Instance, Lexelt, Response, User, aware
from annotate.models import now as utc_now
from annotate.services.responses import dictionary_flags
from annotate.services.rules import MAX_DATASET_NAME, ServiceError, check_text, safe_source
from annotate.services.study import answered_counts, members, sentence_counts


@dataclass(frozen=True)
class Imported:
    dataset: Dataset
    created: bool  # False: the same file was imported before (nothing changed)
    instances: int


INSERT_BATCH = 5000
"""Instances inserted at a time by :func:`import_dataset` (the parameters of all of them
at once would add ~50 MB to the largest import)."""


def import_dataset(result: ImportResult, name: str, source: str, data: bytes) -> Imported:
    """Store a parsed file (any format of :mod:`scoring.formats.importers`) as dataset
    ``name``, in its language (``result.language``), in one transaction. Importing the same
    bytes again changes nothing; another file under the same name is refused, and so is a
    name that :func:`check_text` refuses. ``source`` (the file's name) is kept as
    :func:`safe_source` makes it. The dataset's figures (:attr:`Dataset.sentences`,
    :attr:`Dataset.words`, :attr:`Lexelt.word_index`) are stored with it: they change
    only here, and the annotation page reads them instead of counting the dataset."""
    check_text(name, "dataset name", MAX_DATASET_NAME)
    source = safe_source(source)
    digest = hashlib.sha256(data).hexdigest()
    existing = named(name)
    if existing is not None:
        return _imported_already(existing, digest)
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
    except (IntegrityError, OperationalError):
        # a double-submitted import: the other one stored the name after the check above
        db.session.rollback()
        existing = named(name)
        if existing is None:
            raise
        return _imported_already(existing, digest)
    except Exception:
        db.session.rollback()
        raise
    _analyse()
    return Imported(dataset, True, position)


def named(name: str) -> Dataset | None:
    """The dataset called ``name``, if any."""
    dataset: Dataset | None = db.session.scalar(select(Dataset).where(Dataset.name == name))
    return dataset


def _imported_already(existing: Dataset, digest: str) -> Imported:
    """An import under a name taken: nothing to do for the same file (imported twice, or
    sent twice at once), :class:`ServiceError` for another."""
    if existing.source_sha256 == digest:
        return Imported(existing, False, existing.sentences)
    raise ServiceError(f"dataset {existing.name!r} exists already with another file")


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
    query = (  # the columns only: no ORM object is built for a row (a compile reads them all)
        select(
            User.username,
            Lexelt.item,
            Instance.xml_id,
            Response.kind,
            Response.substitutes,
            Response.multiword,
            User.id,
            Lexelt.id,
            Response.updated_at,
        )
        .join(Instance, Response.instance_id == Instance.id)
        .join(Lexelt, Instance.lexelt_id == Lexelt.id)
        .join(User, Response.user_id == User.id)
        .where(Instance.dataset_id == dataset.id)
        .order_by(Instance.position, User.username)
    )
    for row in db.session.execute(query):
        username, item, xml_id, kind, substitutes, multiword, user_id, lexelt_id, updated = row
        yield {
            "annotator": username,
            "lexelt": item,
            "instance": xml_id,
            "kind": kind,
            "substitutes": list(substitutes),
            "multiword": multiword,
            "used_dictionary": flags.get((user_id, lexelt_id), False),
            "updated_at": aware(updated).isoformat(),
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
    ones assigned to them; :mod:`annotate.services.study`), and their last save. A few
    grouped queries, whatever the number of annotators."""
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
    done = answered_counts(dataset)
    totals = sentence_counts(dataset, list(people))
    return [
        Progress(
            user.username,
            done.get(user.id, 0),
            totals[user.id],
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


# --- rename, archive, delete -------------------------------------------------------------


def rename_dataset(dataset: Dataset, name: str) -> None:
    """Give ``dataset`` a new name (:func:`check_text`'s rule; no other dataset may have
    it). Nothing else changes: its answers, members and study link stay."""
    name = name.strip()
    check_text(name, "dataset name", MAX_DATASET_NAME)
    if name == dataset.name:
        return
    taken = ServiceError(f"a dataset is named {name!r} already")
    if named(name) is not None:
        raise taken
    dataset.name = name
    try:
        db.session.commit()
    except (IntegrityError, OperationalError):
        # another rename (or import) took the name after the check above
        db.session.rollback()
        if named(name) is None:
            raise
        raise taken from None


def set_archived(dataset: Dataset, archived: bool) -> None:
    """Archive ``dataset`` (kept whole, hidden from annotators: not listed, not opened,
    its study link closed) or bring it back."""
    dataset.archived_at = utc_now() if archived else None
    db.session.commit()


@dataclass(frozen=True)
class Removal:
    """What deleting a dataset removes (or removed): rows per table, the tables whose
    rows only lose their link to it (a judgement round made from it keeps its own copy
    of the sentences), and its participant accounts, deleted or kept."""

    rows: dict[str, int]
    unlinked: dict[str, int]
    accounts_deleted: list[str]
    accounts_kept: list[str]


def _references(table: Table) -> list[tuple[Table, Column[Any]]]:
    """Every (table, column) of the schema whose foreign key points at ``table``'s id."""
    return [
        (other, column)
        for other in db.metadata.sorted_tables
        for column in other.columns
        for key in column.foreign_keys
        if key.column.table is table
    ]


def _walk(table: Table, chosen: Any, rows: dict[str, int], unlinked: dict[str, int]) -> None:
    """Delete the rows of ``table`` whose id is in the SELECT ``chosen``, counting them,
    and first what points at them: rows whose foreign key may be empty lose the link
    (set to NULL), the others go too, all the way down the schema. A table added later is
    covered as soon as its foreign key is declared. The counts are the statements' own
    (their rowcount): a count read before would miss an answer saved just before the
    delete (a save racing the deletion), and the audit line would say one answer less."""
    references = _references(table)
    if references:
        # Locked before anything under them goes: a row added meanwhile that points at one
        # of them (an answer saved while the deletion runs) waits for the deletion, then
        # finds its sentence gone, instead of making the deletion's own DELETE break the
        # foreign key (PostgreSQL; SQLite writes one transaction at a time, no FOR UPDATE).
        db.session.execute(select(table.c.id).where(table.c.id.in_(chosen)).with_for_update())
    for other, column in references:
        where = column.in_(chosen)
        if column.nullable:
            done = db.session.execute(update(other).where(where).values({column.name: None}))
            linked = done.rowcount  # type: ignore[attr-defined]
            if linked:
                unlinked[other.name] = unlinked.get(other.name, 0) + linked
            continue
        _walk(other, select(other.c.id).where(where), rows, unlinked)
    done = db.session.execute(delete(table).where(table.c.id.in_(chosen)))
    if done.rowcount:  # type: ignore[attr-defined]
        rows[table.name] = rows.get(table.name, 0) + done.rowcount  # type: ignore[attr-defined]


def _still_used(user_id: int) -> bool:
    """Whether any row of the schema still points at the account."""
    return any(
        db.session.scalar(select(func.count()).select_from(other).where(column == user_id))
        for other, column in _references(_table(User))
    )


def _table(model: type[Any]) -> Table:
    table: Table = model.__table__
    return table


def delete_dataset(
    dataset: Dataset, typed_name: str, preview: bool = False, who: str = ""
) -> Removal:
    """Delete ``dataset`` and everything of it, in one transaction: its words, sentences,
    answers and their history, members, assignments, lemma decisions and stored systems
    (every row whose foreign key leads to it, :func:`_walk`). A judgement round made from
    it stays (it holds its own copy of the sentences) and loses the link. Its participant
    accounts (``users.study_id``: made by its study link) are deleted with it when
    nothing else points at them (no answer, membership or judgement anywhere else); one
    that belongs somewhere else too is kept, its link to the study gone.

    ``typed_name`` must equal the dataset's name (the organiser typed it to confirm).
    With ``preview`` the same deletion runs and is rolled back: the :class:`Removal`
    says exactly what would go, and nothing changes. A deletion leaves an audit line
    (:class:`DatasetDeletion`: the name, ``who``, when, how much went; :func:`deletions`)."""
    if not preview and typed_name != dataset.name:
        raise ServiceError(
            f"type the dataset's name {dataset.name!r} to delete it"
            f" (typed {typed_name[:MAX_DATASET_NAME]!r})"
        )
    rows: dict[str, int] = {}
    unlinked: dict[str, int] = {}
    deleted: list[str] = []
    kept: list[str] = []
    table = _table(Dataset)
    name = dataset.name
    try:
        accounts = list(db.session.scalars(select(User).where(User.study_id == dataset.id)))
        _walk(table, select(table.c.id).where(table.c.id == dataset.id), rows, unlinked)
        unlinked.pop("users", None)  # the study's accounts: told apart below
        for user in accounts:
            db.session.expire(user)
            if _still_used(user.id):
                kept.append(user.username)
            else:
                deleted.append(user.username)
                db.session.execute(delete(User).where(User.id == user.id))
        if deleted:
            rows["users"] = len(deleted)
        if preview:
            db.session.rollback()
        else:
            db.session.add(
                DatasetDeletion(
                    dataset_name=name,
                    deleted_by=who,
                    answers=rows.get("responses", 0),
                    sentences=rows.get("instances", 0),
                    accounts=len(deleted),
                )
            )
            db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return Removal(rows, unlinked, sorted(deleted), sorted(kept))


def deletions(limit: int = 10) -> list[DatasetDeletion]:
    """The latest dataset deletions, newest first (the organisers' dashboard shows them)."""
    return list(
        db.session.scalars(
            select(DatasetDeletion)
            .order_by(DatasetDeletion.deleted_at.desc(), DatasetDeletion.id.desc())
            .limit(limit)
        )
    )
