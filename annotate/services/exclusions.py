"""The annotators left out of a dataset's gold, agreement and scores, answers kept.

Two kinds, both applied by every compile of the dataset (:func:`exclusions_of`, called by
:func:`annotate.services.goldfiles.compile_dataset`, so the pages, the downloads and
``lexsub compile`` agree):

* **stored**: an organiser left the annotator out with a reason (:func:`exclude`, the
  compile and agreement pages, ``lexsub exclude``); :func:`include` takes them back;
* **automatic**: an annotator with answers in the dataset whose account is deactivated
  (reason ``deactivated``) or who is no longer a member of it (``removed``: only members
  can answer, so answers of a non-member are those of a removed one). Activating the
  account or assigning the dataset again brings their answers back. A model annotator
  (``llm:…``, :mod:`annotate.services.model_annotation`) is no member and is never left
  out so: the compile's ``include_models`` decides about it.

A stored reason wins over an automatic one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select

from annotate.extensions import db
from annotate.gold.model_annotators import is_model_annotator
from annotate.models import AnnotatorExclusion, Dataset, Instance, Response, User
from annotate.models import now as utc_now
from annotate.services.rules import ServiceError, check_storable, check_text
from annotate.services.study import member_of
from scoring.formats.exclusions import MAX_REASON, Exclusion, merge

DEACTIVATED = "deactivated"
REMOVED = "removed"


@dataclass(frozen=True)
class StoredExclusion:
    """An organiser's exclusion as stored: who, why, by whom and when."""

    annotator: str
    reason: str
    excluded_by: str
    excluded_at: datetime


def stored_exclusions(dataset: Dataset) -> list[StoredExclusion]:
    """The organisers' exclusions of the dataset, by annotator."""
    rows = db.session.execute(
        select(AnnotatorExclusion, User.username)
        .join(User, AnnotatorExclusion.user_id == User.id)
        .where(AnnotatorExclusion.dataset_id == dataset.id)
        .order_by(User.username)
    )
    return [
        StoredExclusion(username, row.reason, row.excluded_by, row.excluded_at)
        for row, username in rows
    ]


def automatic_exclusions(dataset: Dataset) -> list[Exclusion]:
    """The annotators with answers in the dataset who are deactivated or no longer
    members, by name, with the reason ``deactivated`` (which wins) or ``removed``."""
    answered = (
        select(User.username, User.active, member_of(User.id, dataset.id).label("member"))
        .where(
            select(Response.id)
            .join(Instance, Response.instance_id == Instance.id)
            .where(Instance.dataset_id == dataset.id, Response.user_id == User.id)
            .exists()
        )
        .order_by(User.username)
    )
    return [
        Exclusion(username, DEACTIVATED if not active else REMOVED)
        for username, active, member in db.session.execute(answered)
        if (not active or not member) and not is_model_annotator(username)
    ]


def exclusions_of(dataset: Dataset) -> tuple[Exclusion, ...]:
    """Everyone every compile of the dataset leaves out, by name: the stored exclusions
    and the automatic ones (a stored reason wins)."""
    stored = [Exclusion(row.annotator, row.reason) for row in stored_exclusions(dataset)]
    return merge(stored, automatic_exclusions(dataset))


def _annotator(username: str) -> User:
    check_storable(username, "username")
    user: User | None = db.session.scalar(select(User).where(User.username == username))
    if user is None:
        raise ServiceError(f"no user {username[:80]!r}")
    if user.is_organiser:
        raise ServiceError(f"{user.username} is an organiser: only annotators are left out")
    return user


def exclude(dataset: Dataset, username: str, reason: str, who: str) -> AnnotatorExclusion:
    """Leave ``username`` out of the dataset's compiles with ``reason`` (given, at most
    255 characters, no control character); a second call replaces the reason."""
    reason = reason.strip()
    if not reason:
        raise ServiceError("give the reason for leaving the annotator out")
    check_text(reason, "reason", MAX_REASON)
    user = _annotator(username)
    row = db.session.scalar(
        select(AnnotatorExclusion).where(
            AnnotatorExclusion.dataset_id == dataset.id, AnnotatorExclusion.user_id == user.id
        )
    )
    if row is None:
        row = AnnotatorExclusion(dataset_id=dataset.id, user_id=user.id)
        db.session.add(row)
    row.reason = reason
    row.excluded_by = who
    row.excluded_at = utc_now()
    db.session.commit()
    return row


def include(dataset: Dataset, username: str) -> bool:
    """Take back the organiser's exclusion of ``username`` (False: there was none). A
    removed or deactivated annotator stays out until assigned again or activated."""
    user = _annotator(username)
    done = db.session.execute(
        delete(AnnotatorExclusion).where(
            AnnotatorExclusion.dataset_id == dataset.id, AnnotatorExclusion.user_id == user.id
        )
    )
    db.session.commit()
    return bool(getattr(done, "rowcount", 0))
