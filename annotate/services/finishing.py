"""A crowd participant's finishing: the completion code is decided once, when their
sentences of the study are first all answered, and the decision stands.

At that moment (the save of their last sentence, or the finished page if it comes first)
their attention-check score is taken (:func:`annotate.services.checks.check_scores`) and
the study's rule applied (:func:`annotate.services.checks.blocks`): ``completed`` (the
completion code is theirs) or ``blocked`` (the screen-out code, if the study has one).
Editing a check answer afterwards changes the score the study page shows beside the
decision, never the decision: a participant cannot turn a blocked batch into a completion
code. The decision is written with a conditional ``UPDATE`` (only while none is kept), so
two requests at once keep one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import update

from annotate.extensions import db
from annotate.models import Dataset, User, now
from annotate.services.checks import CheckScore, blocks, check_scores
from annotate.services.study import completed

Decision = Literal["completed", "blocked"]
DECISIONS: tuple[Decision, ...] = ("completed", "blocked")


@dataclass(frozen=True)
class Finish:
    """What a participant's finishing decided, and their check score then."""

    decision: Decision
    score: CheckScore


def kept(user: User) -> Finish | None:
    """The decision kept for ``user`` (None: not finished yet)."""
    if user.finish_decision not in DECISIONS:
        return None
    decision: Decision = "blocked" if user.finish_decision == "blocked" else "completed"
    return Finish(decision, CheckScore(user.finish_answered or 0, user.finish_matched or 0))


def finish(user: User, dataset: Dataset) -> Finish | None:
    """The finishing of ``user`` (a participant of ``dataset``'s study): the kept one, or,
    when their sentences there are all answered and none is kept yet, decided now and
    kept (committed). None for anyone else, or before they have finished."""
    if user.study_id != dataset.id or user.participant_id is None:
        return None
    found = kept(user)
    if found is not None or not completed(user, dataset):
        return found
    score = check_scores(dataset, [user.id]).get(user.id, CheckScore(0, 0))
    decision: Decision = "blocked" if blocks(dataset, score) else "completed"
    db.session.execute(
        update(User)
        .where(User.id == user.id, User.finish_decision.is_(None))
        .values(
            finished_at=now(),
            finish_decision=decision,
            finish_matched=score.matched,
            finish_answered=score.answered,
        )
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    db.session.refresh(user)
    return kept(user)
