"""A crowd study's participants as its organiser sees them: progress, onboarding, check
score and time per sentence.

A participant's time on a sentence runs from when they first saw it (:func:`record_view`,
a :class:`~annotate.models.SentenceView`) to their first save of it (the first
:class:`~annotate.models.Revision`); their median over the sentences they answered is
reported, and a median under the study's ``speeder_seconds`` flags them as a speeder.
Only study participants' views are recorded (an organiser's annotators are not timed).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from sqlalchemy import func, select

from annotate.extensions import db
from annotate.models import Dataset, Instance, Revision, SentenceView, User, now
from annotate.services.checks import CheckScore, check_scores
from annotate.services.exclusions import stored_exclusions
from annotate.services.finishing import Finish, kept
from annotate.services.rules import ServiceError
from annotate.services.study import answered_count, is_member, sentence_count

PER_PAGE = 50
SPEEDER_SECONDS = (1, 3600)
"""The range of a study's speeder threshold (seconds per sentence)."""


def record_view(user_id: int, instance_id: int) -> None:
    """Keep when the user (a study participant) first saw the sentence; later views
    change nothing. Committed."""
    if db.session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]
    db.session.execute(
        insert(SentenceView)
        .values(user_id=user_id, instance_id=instance_id, first_at=now())
        .on_conflict_do_nothing(index_elements=["user_id", "instance_id"])
    )
    db.session.commit()


def seconds_per_sentence(dataset: Dataset, user_ids: list[int]) -> dict[int, list[float]]:
    """user id → their seconds from first view to first save, for each sentence of
    ``dataset`` that they saw and answered, in sentence order."""
    first_save = (
        select(
            Revision.user_id,
            Revision.instance_id,
            func.min(Revision.saved_at).label("saved_at"),
        )
        .where(Revision.user_id.in_(user_ids))
        .group_by(Revision.user_id, Revision.instance_id)
        .subquery()
    )
    rows = db.session.execute(
        select(SentenceView.user_id, SentenceView.first_at, first_save.c.saved_at)
        .join(
            first_save,
            (first_save.c.user_id == SentenceView.user_id)
            & (first_save.c.instance_id == SentenceView.instance_id),
        )
        .join(Instance, Instance.id == SentenceView.instance_id)
        .where(Instance.dataset_id == dataset.id, SentenceView.user_id.in_(user_ids))
        .order_by(SentenceView.user_id, Instance.position)
    )
    times: dict[int, list[float]] = {}
    for user_id, seen, saved in rows:
        times.setdefault(user_id, []).append(max(0.0, (saved - seen).total_seconds()))
    return times


@dataclass(frozen=True)
class ParticipantRow:
    """One participant of a study, as its page lists them."""

    user: User
    member: bool
    done: int
    total: int
    check: CheckScore
    check_flagged: bool
    median_seconds: float | None
    timed: int
    speeder: bool
    finish: Finish | None
    """What finishing decided (:mod:`annotate.services.finishing`) and the score then."""
    left_out: str | None
    """The organiser's reason for leaving them out of the gold (None: in)."""

    @property
    def flagged(self) -> bool:
        """Under the check threshold now or at finishing, or a speeder: the page offers
        to leave them out."""
        return (
            self.check_flagged
            or self.speeder
            or (self.finish is not None and self.finish.decision == "blocked")
        )


@dataclass(frozen=True)
class ParticipantPage:
    rows: tuple[ParticipantRow, ...]
    page: int
    pages: int
    count: int
    left_out: tuple[str, ...]
    """The study's participants left out of the gold (participant ids, every page's)."""


def is_speeder(median: float | None, dataset: Dataset) -> bool:
    """The speeder rule: a participant whose median seconds per sentence is under the
    study's ``speeder_seconds`` (never without a threshold or a timed sentence)."""
    return (
        median is not None
        and dataset.speeder_seconds is not None
        and median < dataset.speeder_seconds
    )


@dataclass(frozen=True)
class Flagged:
    """How many of a study's participants its page flags: speeders, under the check
    threshold, and either (a participant flagged twice counts once)."""

    speeders: int
    under_checks: int
    either: int


def flagged_participants(dataset: Dataset) -> Flagged:
    """Every participant of the study the study page would flag (:func:`is_speeder`,
    :meth:`CheckScore.below`), counted over all of them at once."""
    ids = list(db.session.scalars(select(User.id).where(User.study_id == dataset.id)))
    if not ids:
        return Flagged(0, 0, 0)
    scores = check_scores(dataset, ids)
    times = seconds_per_sentence(dataset, ids)
    speeders = {
        user_id
        for user_id, mine in times.items()
        if is_speeder(statistics.median(mine) if mine else None, dataset)
    }
    under = {user_id for user_id, score in scores.items() if score.below(dataset.check_threshold)}
    return Flagged(len(speeders), len(under), len(speeders | under))


def participant_page(dataset: Dataset, page: int = 1, per_page: int = PER_PAGE) -> ParticipantPage:
    """The study's participants (accounts its link made), by username, ``per_page`` a
    page; page 1 is the first."""
    count = db.session.scalar(select(func.count(User.id)).where(User.study_id == dataset.id)) or 0
    pages = max(1, -(-count // per_page))
    page = min(max(1, page), pages)
    users = list(
        db.session.scalars(
            select(User)
            .where(User.study_id == dataset.id)
            .order_by(User.username)
            .offset((page - 1) * per_page)
            .limit(per_page)
        )
    )
    ids = [user.id for user in users]
    scores = check_scores(dataset, ids)
    times = seconds_per_sentence(dataset, ids)
    reasons = {row.annotator: row.reason for row in stored_exclusions(dataset)}
    rows = []
    for user in users:
        member = is_member(user, dataset)
        score = scores.get(user.id, CheckScore(0, 0))
        mine = times.get(user.id, [])
        median = statistics.median(mine) if mine else None
        rows.append(
            ParticipantRow(
                user,
                member,
                answered_count(user, dataset) if member else 0,
                sentence_count(user, dataset) if member else 0,
                score,
                score.below(dataset.check_threshold),
                median,
                len(mine),
                is_speeder(median, dataset),
                kept(user),
                reasons.get(user.username),
            )
        )
    left_out = tuple(
        participant_id or ""
        for participant_id in db.session.scalars(
            select(User.participant_id)
            .where(User.study_id == dataset.id, User.username.in_(list(reasons)))
            .order_by(User.participant_id)
        )
    )
    return ParticipantPage(tuple(rows), page, pages, count, left_out)


def set_speeder_seconds(dataset: Dataset, seconds: int | None) -> None:
    """The median seconds per sentence under which a participant is flagged (None: never)."""
    if seconds is not None and not SPEEDER_SECONDS[0] <= seconds <= SPEEDER_SECONDS[1]:
        raise ServiceError(
            f"a speeder threshold is {SPEEDER_SECONDS[0]}-{SPEEDER_SECONDS[1]} seconds, "
            f"not {seconds}"
        )
    dataset.speeder_seconds = seconds
    db.session.commit()
