"""A crowd participant's onboarding: the dataset's guidelines, the organiser's consent
text and, optionally, a comprehension check (:mod:`annotate.comprehension`) come before
the first sentence.

A participant (an account of the dataset's study) gets no sentence before pressing Start
(:func:`start`), which records when (their consent, if the study has a consent text). With
comprehension questions, Start sends the answers: a participant who fails twice is
screened out (:func:`answer_questions`): their batch goes back to the pool, the study's
screen-out code is theirs, and their account gets no sentences again. Only study
participants are onboarded; annotators the organiser assigned are not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from sqlalchemy import delete, update

from annotate.comprehension import (
    ATTEMPTS,
    MAX_TEXT,
    ComprehensionError,
    Question,
    parse_questions,
    passes,
)
from annotate.extensions import db
from annotate.models import Assignment, Dataset, DatasetMember, User, now
from annotate.services.rules import ServiceError

MAX_CONSENT = 20000
"""The longest consent text (characters)."""

Outcome = Literal["started", "retry", "screened-out"]


def onboarding_due(user: User, dataset_id: int) -> bool:
    """Whether ``user`` is a participant of this dataset's study who has not started
    (pressed Start) yet: then they see the onboarding page, not a sentence."""
    return (
        user.study_id == dataset_id and user.participant_id is not None and user.started_at is None
    )


def screened_out(user: User) -> bool:
    """Whether ``user`` failed the comprehension check of their study twice."""
    return user.screened_out_at is not None


def questions_of(dataset: Dataset) -> tuple[Question, ...]:
    """The dataset's comprehension questions (() when it has none)."""
    try:
        return parse_questions(dataset.comprehension)
    except ComprehensionError:  # refused when saved: an old row, shown as no questions
        return ()


def start(user: User) -> None:
    """``user`` pressed Start: recorded with the time (their consent)."""
    if user.started_at is None:
        user.started_at = now()
    db.session.commit()


def answer_questions(user: User, dataset: Dataset, answers: Mapping[int, int | None]) -> Outcome:
    """``user``'s attempt at the comprehension check: passed, they start (:func:`start`);
    failed, another attempt (``retry``) until the second failure, which screens them out
    (``screened-out``): their membership and sentence assignments end (the batch goes
    back to the pool); their account stays, and gets no sentences again.

    A failure is counted in the database, not in the request: one ``UPDATE`` adds it
    (only while the participant is not screened out), holding their row until the commit,
    and the count it left decides. Attempts sent at once are counted one after the other,
    so no more than :data:`ATTEMPTS` are ever told ``retry`` or pass."""
    db.session.commit()  # what the request read of the user is read again below
    if passes(questions_of(dataset), answers):
        if _fresh(user).screened_out_at is not None:
            return "screened-out"
        start(user)
        return "started"
    counted = db.session.execute(
        update(User)
        .where(User.id == user.id, User.screened_out_at.is_(None))
        .values(comprehension_failures=User.comprehension_failures + 1)
        .execution_options(synchronize_session=False)
    )
    fresh = _fresh(user)
    if not counted.rowcount:  # type: ignore[attr-defined]
        db.session.commit()
        return "screened-out"
    if fresh.comprehension_failures < ATTEMPTS:
        db.session.commit()
        return "retry"
    fresh.screened_out_at = now()
    for table in (DatasetMember, Assignment):
        db.session.execute(
            delete(table).where(table.dataset_id == dataset.id, table.user_id == user.id)
        )
    db.session.commit()
    return "screened-out"


def _fresh(user: User) -> User:
    """``user`` as the database has it now (in this transaction)."""
    db.session.refresh(user)
    return user


def set_onboarding(dataset: Dataset, consent: str, comprehension: str) -> None:
    """The study's consent text and comprehension questions (either empty: none). The
    questions are checked first (:func:`annotate.comprehension.parse_questions`): a
    :class:`ServiceError` names the line and the rule, and nothing changes."""
    consent = consent.replace("\r\n", "\n").replace("\x00", "").strip()
    comprehension = comprehension.replace("\r\n", "\n").replace("\x00", "").strip()
    if len(consent) > MAX_CONSENT:
        raise ServiceError(f"the consent text has {len(consent)} characters; at most {MAX_CONSENT}")
    if len(comprehension) > MAX_TEXT:
        raise ServiceError(
            f"the comprehension questions have {len(comprehension)} characters; at most {MAX_TEXT}"
        )
    try:
        parse_questions(comprehension)
    except ComprehensionError as error:
        raise ServiceError(f"comprehension questions, {error}") from None
    dataset.consent = consent
    dataset.comprehension = comprehension
    db.session.commit()
