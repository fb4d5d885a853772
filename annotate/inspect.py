"""What organisers read of a dataset's answers: one item's answers as stored now, with
the rule problems the compiler finds in them. Read only: the export and the compiler
stay the source of the gold."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from annotate.extensions import db
from annotate.models import Dataset, Instance, Response, User, WordFlag


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


def find_instance(dataset: Dataset, xml_id: str) -> Instance | None:
    """The sentence with this id (None for an id no sentence can have: PostgreSQL refuses
    a NUL in a query, and ids are at most 64 characters)."""
    if "\x00" in xml_id or len(xml_id) > 64:
        return None
    return db.session.scalar(select(Instance).where(Instance.dataset_id == dataset.id,
                                                    Instance.xml_id == xml_id))


def item_answers(instance: Instance) -> list[StoredAnswer]:
    """Every annotator's current answer to ``instance``, by annotator name."""
    flags = {user_id: used for user_id, used in db.session.execute(select(
        WordFlag.user_id, WordFlag.used_dictionary).where(
        WordFlag.lexelt_id == instance.lexelt_id))}
    rows = db.session.execute(select(Response, User.username).join(
        User, Response.user_id == User.id).where(Response.instance_id == instance.id)
        .order_by(User.username))
    return [StoredAnswer(name, row.kind, tuple(row.substitutes), row.multiword,
                         bool(flags.get(row.user_id)), row.updated_at, row.saves)
            for row, name in rows]

