"""The names under which a dataset's annotators appear in what may leave the app: the
methods paragraph, the report pages and their charts, the gold files (``annotators.jsonl``,
``summary.json``) and their zip.

Each annotator of a dataset is ``A1``, ``A2``, …; each crowd participant (an account made
by the dataset's study link, whose username is the platform's id) ``P1``, ``P2``, …. The
numbers follow the accounts' creation (their ids), so a pseudonym stays the same while the
study goes on: a later annotator is given the next number, nobody is renumbered. Only the
organiser's raw export of the responses and the study page name participants by their
platform id. A model annotator (``llm:MODEL``) is named as it is everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import or_, select

from annotate.extensions import db
from annotate.gold.model_annotators import is_model_annotator
from annotate.models import (
    AnnotatorExclusion,
    CandidateLabel,
    Dataset,
    DatasetMember,
    Instance,
    JudgementRound,
    Response,
    RoundCandidate,
    RoundJudge,
    User,
)


@dataclass(frozen=True)
class Pseudonyms:
    """Username → pseudonym of one dataset (:func:`pseudonyms_of`)."""

    names: dict[str, str]

    def __call__(self, username: str) -> str:
        """The pseudonym of ``username``; a name the dataset does not know (no answer,
        membership or exclusion there) is never shown: ``unknown annotator``."""
        return self.names.get(username, "unknown annotator")

    def on_organiser_pages(self, username: str) -> str:
        """How the organiser's own pages (the home, progress) name someone: a crowd
        participant by pseudonym (their username holds the platform's id, which only the
        study page and the raw export show), anyone else by username."""
        shown = self.names.get(username, "")
        return shown if shown.startswith("P") else username

    def username(self, pseudonym: str) -> str | None:
        """The username behind ``pseudonym`` (a form on a report page sends the
        pseudonym it shows), None when it names nobody."""
        return next((name for name, shown in self.names.items() if shown == pseudonym), None)


def assign(accounts: Iterable[tuple[str, bool]]) -> Pseudonyms:
    """Pseudonyms for ``accounts`` given in creation order as (username, participant):
    participants ``P1``, ``P2``, …, the others ``A1``, ``A2``, …; a model annotator
    (``llm:…``) keeps its name (it is no person) and takes no number.

    >>> assign([("ann", False), ("llm:m", False), ("5f3c9a", True), ("bob", False)]).names
    {'ann': 'A1', 'llm:m': 'llm:m', '5f3c9a': 'P1', 'bob': 'A2'}
    """
    counts = {"A": 0, "P": 0}
    names: dict[str, str] = {}
    for username, participant in accounts:
        if is_model_annotator(username):
            names[username] = username
            continue
        prefix = "P" if participant else "A"
        counts[prefix] += 1
        names[username] = f"{prefix}{counts[prefix]}"
    return Pseudonyms(names)


def pseudonyms_of(dataset: Dataset) -> Pseudonyms:
    """The pseudonyms of everyone the dataset knows: who answered in it, its members, its
    study's participants and who an organiser left out of it, by account creation."""
    answered = (
        select(Response.id)
        .join(Instance, Response.instance_id == Instance.id)
        .where(Instance.dataset_id == dataset.id, Response.user_id == User.id)
        .exists()
    )
    member = (
        select(DatasetMember.id)
        .where(DatasetMember.dataset_id == dataset.id, DatasetMember.user_id == User.id)
        .exists()
    )
    left_out = (
        select(AnnotatorExclusion.id)
        .where(AnnotatorExclusion.dataset_id == dataset.id, AnnotatorExclusion.user_id == User.id)
        .exists()
    )
    rows = db.session.execute(
        select(User.username, User.study_id)
        .where(or_(User.study_id == dataset.id, answered, member, left_out))
        .order_by(User.id)
    )
    return assign((username, study_id == dataset.id) for username, study_id in rows)


def judge_pseudonyms(round_: JudgementRound) -> Pseudonyms:
    """The pseudonyms of a judgement round's judges (assigned, or with a label in it), by
    account creation: its report names them so, as a dataset's reports name annotators."""
    labelled = (
        select(CandidateLabel.id)
        .join(RoundCandidate, RoundCandidate.id == CandidateLabel.candidate_id)
        .where(RoundCandidate.round_id == round_.id, CandidateLabel.user_id == User.id)
        .exists()
    )
    assigned = (
        select(RoundJudge.id)
        .where(RoundJudge.round_id == round_.id, RoundJudge.user_id == User.id)
        .exists()
    )
    rows = db.session.execute(
        select(User.username, User.study_id).where(or_(labelled, assigned)).order_by(User.id)
    )
    return assign((username, study_id is not None) for username, study_id in rows)
