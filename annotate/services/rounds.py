"""Judgement rounds in the database: creating a round from a
:class:`~scoring.judgements.rounds.RoundSpec`, assigning judges, the screens a judge works
through, saving labels with their history, progress, and the export in the judgements
format (:mod:`scoring.formats.judgements`), which the report reads.

The content of a round is built by the pure :mod:`scoring.judgements.rounds`; every figure
comes from :func:`scoring.judgements.report`. This module only reads and writes the
database, following the patterns of :mod:`annotate.services.responses` (a save updates the current
label and appends a revision in one transaction, retried on a concurrent save).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Exists, exists, func, select

from annotate.extensions import db
from annotate.gold import CompiledGold
from annotate.models import (
    CandidateLabel,
    Dataset,
    IdValue,
    Instance,
    JudgementRound,
    LabelRevision,
    RoundCandidate,
    RoundItem,
    RoundJudge,
    User,
    now,
)
from annotate.services.goldfiles import compile_dataset
from annotate.services.responses import retried
from annotate.services.rules import (
    MAX_DATASET_NAME,
    ServiceError,
    check_storable,
    check_text,
    shown,
)
from scoring.errors import FormatError
from scoring.formats.judgements import GOLD, HUMAN, Judgement
from scoring.judgements.candidates import read_candidates, source_name
from scoring.judgements.labels import LABEL_SETS, LabelSet, label_set
from scoring.judgements.rounds import GoldItem, RoundSpec, Sentence, posthoc_round
from scoring.leaderboard.rows import detect_kind, first_answers

LAYOUTS = ("sentence", "candidate")
"""All candidates of a sentence on one screen (the default), or one candidate a screen."""


def label_set_of(round_: JudgementRound) -> LabelSet:
    return label_set(round_.label_set)


def gold_items(compiled: CompiledGold) -> tuple[GoldItem, ...]:
    """What the sampling rule needs of each item of a compiled gold."""
    return tuple(
        GoldItem(
            item.instance,
            item.lexelt,
            tuple(s for s, _ in item.counts),
            item.names,
            sum(1 for answer in item.answers if answer.multiword),
        )
        for item in compiled.items
    )


def sentences(dataset: Dataset) -> dict[str, Sentence]:
    """The dataset's sentences by instance id."""
    return {
        row.xml_id: Sentence(row.before, row.head, row.after)
        for row in db.session.scalars(select(Instance).where(Instance.dataset_id == dataset.id))
    }


def system_answers(files: Mapping[str, str]) -> dict[str, dict[str, list[str]]]:
    """Each best file's answers (item id → guesses); another kind is refused."""
    answers: dict[str, dict[str, list[str]]] = {}
    for name, text in files.items():
        try:
            kind = detect_kind(text, name)
        except ValueError as error:
            raise ServiceError(str(error)) from error
        if kind != "best":
            raise ServiceError(
                f"{name} is a {kind} file; a post hoc round mixes the systems' answers for "
                "the best task (lexelt id :: a;b)"
            )
        answers[name] = first_answers(text, "best")
    return answers


def candidate_answers(
    files: Mapping[str, str],
    sentences: Mapping[str, Sentence],
    gold: Sequence[GoldItem],
    top: int | None = None,
) -> dict[str, dict[str, list[str]]]:
    """Each file of candidates (name → text: ranked, oot or TSAR) as a source, named by the
    file's stem: item id → candidates, best first (the first ``top`` when given).
    ServiceError for two files of one stem or a file that answers no item of the gold;
    FormatError from the reader."""
    known = {item.id for item in gold}
    sources: dict[str, dict[str, list[str]]] = {}
    for name, text in files.items():
        found = read_candidates(text, name, sentences, top)
        if found.source in sources:
            raise ServiceError(
                f"{name}: another file is named {found.source!r} too (a source is named by "
                "its file's stem: rename one)"
            )
        if not known & found.answers.keys():
            raise ServiceError(
                f"{name}: the {found.kind} file answers no item of the gold (it names "
                f"{', '.join(sorted(found.answers)[:3]) or 'none'})"
            )
        sources[found.source] = {item: list(answers) for item, answers in found.answers.items()}
    return sources


def posthoc_spec(
    dataset: Dataset,
    systems: Mapping[str, str],
    size: int,
    seed: int,
    gold: Sequence[GoldItem] | None = None,
    candidates: Mapping[str, str] | None = None,
    top: int | None = None,
) -> RoundSpec:
    """A post hoc round's content: ``gold`` (from a gold file) or the dataset's compiled
    gold, the best files ``systems`` and the files of ``candidates`` (ranked, oot or
    TSAR; name → text each; an item's first ``top`` candidates of each when given), the
    dataset's sentences. With candidates every source is named by its file's stem and the
    gold's substitutes are the source ``gold``; without, a system by its file's name and
    the gold ``human``."""
    if gold is None:
        try:
            gold = gold_items(compile_dataset(dataset))
        except ValueError as error:
            raise ServiceError(f"dataset {dataset.name!r} does not compile: {error}") from error
    texts = sentences(dataset)
    try:
        answers = system_answers(systems)
        gold_name = HUMAN
        if candidates:
            gold_name = GOLD
            named = candidate_answers(candidates, texts, gold, top)
            by_stem: dict[str, dict[str, list[str]]] = {}
            for source, found in [
                *((source_name(name), found) for name, found in answers.items()),
                *named.items(),
            ]:
                if source in by_stem:
                    raise ServiceError(
                        f"two files are named {source!r} (a source is named by its file's "
                        "stem: rename one)"
                    )
                by_stem[source] = found
            answers = by_stem
        return posthoc_round(gold, answers, texts, size, seed, gold_name)
    except FormatError:
        raise
    except ValueError as error:
        raise ServiceError(str(error)) from error


def posthoc_source(
    gold_file: str | None, dataset: str, systems: Sequence[str], candidates: Sequence[str]
) -> str:
    """What a post hoc round was made from, as its page shows it."""
    text = f"gold {gold_file if gold_file else 'compiled from ' + dataset}"
    if systems or not candidates:
        text += "; systems " + ", ".join(systems)
    if candidates:
        text += "; candidates " + ", ".join(candidates)
    return text


def create_round(
    plan: RoundSpec,
    name: str,
    kind: str,
    labels: str,
    layout: str = "sentence",
    dataset: Dataset | None = None,
    who: str = "",
    source: str = "",
) -> JudgementRound:
    """Store a round, its items and candidates, in one transaction."""
    check_text(name, "round name", MAX_DATASET_NAME)
    if labels not in LABEL_SETS:
        raise ServiceError(f"label set {shown(labels)} is not one of {', '.join(LABEL_SETS)}")
    if layout not in LAYOUTS:
        raise ServiceError(f"layout {shown(layout)} is not one of {', '.join(LAYOUTS)}")
    if db.session.scalar(select(JudgementRound).where(JudgementRound.name == name)):
        raise ServiceError(f"round {name!r} exists already")
    if not plan.items:
        raise ServiceError("the round has no item")
    check_storable(source, "source")
    for item in plan.items:  # every text the round keeps, by the one rule
        where = f"item {shown(item.id)}"
        for text in (item.id, item.word, item.sentence.before, item.sentence.target):
            check_storable(text, where)
        check_storable(item.sentence.after, where)
        for candidate in item.candidates:
            check_storable(candidate.text, f"{where}: candidate")
            for origin in candidate.origin:
                check_storable(origin, f"{where}: origin")
    try:
        round_ = JudgementRound(
            name=name,
            kind=kind,
            label_set=labels,
            layout=layout,
            dataset_id=dataset.id if dataset else None,
            seed=plan.seed,
            eligible=plan.eligible,
            systems=list(plan.systems),
            source=source,
            created_by=who,
        )
        db.session.add(round_)
        db.session.flush()
        for position, item in enumerate(plan.items):
            row = RoundItem(
                round_id=round_.id,
                position=position,
                item=item.id,
                word=item.word,
                before=item.sentence.before,
                target=item.sentence.target,
                after=item.sentence.after,
            )
            db.session.add(row)
            db.session.flush()
            db.session.add_all(
                RoundCandidate(
                    round_id=round_.id,
                    round_item_id=row.id,
                    position=index,
                    text=candidate.text,
                    origin=list(candidate.origin),
                )
                for index, candidate in enumerate(item.candidates)
            )
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return round_


def round_by_name(name: str) -> JudgementRound:
    found: JudgementRound | None = db.session.scalar(
        select(JudgementRound).where(JudgementRound.name == name)
    )
    if found is None:
        raise ServiceError(f"no round {name!r}")
    return found


def judges(round_: JudgementRound) -> list[User]:
    return list(
        db.session.scalars(
            select(User)
            .join(RoundJudge, RoundJudge.user_id == User.id)
            .where(RoundJudge.round_id == round_.id)
            .order_by(User.username)
        )
    )


def is_judge(user: User, round_: JudgementRound) -> bool:
    return (
        db.session.scalar(
            select(RoundJudge.id).where(
                RoundJudge.round_id == round_.id, RoundJudge.user_id == user.id
            )
        )
        is not None
    )


def assign_judge(user: User, round_: JudgementRound) -> bool:
    """Make ``user`` a judge of the round; False if they were one already."""
    if not user.active:
        raise ServiceError(f"user {user.username!r} is deactivated")
    if is_judge(user, round_):
        return False
    db.session.add(RoundJudge(round_id=round_.id, user_id=user.id))
    db.session.commit()
    return True


def unassign_judge(user: User, round_: JudgementRound) -> bool:
    """Take the round away from ``user`` (their labels stay); False if not a judge."""
    row = db.session.scalar(
        select(RoundJudge).where(RoundJudge.round_id == round_.id, RoundJudge.user_id == user.id)
    )
    if row is None:
        return False
    db.session.delete(row)
    db.session.commit()
    return True


def judges_a_round(user_id: IdValue) -> Exists:
    """SQL: the user is a judge of some round (the header's *Judging* link)."""
    return exists().where(RoundJudge.user_id == user_id)


def rounds_of(user: User) -> list[JudgementRound]:
    return list(
        db.session.scalars(
            select(JudgementRound)
            .join(RoundJudge, RoundJudge.round_id == JudgementRound.id)
            .where(RoundJudge.user_id == user.id)
            .order_by(JudgementRound.id)
        )
    )


@dataclass(frozen=True)
class Screen:
    """What one screen shows: an item and its candidates (all, or one)."""

    item: RoundItem
    candidates: tuple[RoundCandidate, ...]


def screens(round_: JudgementRound) -> list[Screen]:
    """The round's screens in order: one per item (``sentence`` layout) or one per
    candidate (``candidate`` layout)."""
    items = list(
        db.session.scalars(
            select(RoundItem).where(RoundItem.round_id == round_.id).order_by(RoundItem.position)
        )
    )
    by_item: dict[int, list[RoundCandidate]] = {}
    for candidate in db.session.scalars(
        select(RoundCandidate)
        .where(RoundCandidate.round_id == round_.id)
        .order_by(RoundCandidate.round_item_id, RoundCandidate.position)
    ):
        by_item.setdefault(candidate.round_item_id, []).append(candidate)
    result: list[Screen] = []
    for item in items:
        found = by_item.get(item.id, [])
        if round_.layout == "candidate":
            result.extend(Screen(item, (candidate,)) for candidate in found)
        else:
            result.append(Screen(item, tuple(found)))
    return result


def labels_of(user: User, round_: JudgementRound) -> dict[int, str]:
    """candidate id → this judge's current label, in this round."""
    return dict(
        db.session.execute(
            select(CandidateLabel.candidate_id, CandidateLabel.label)
            .join(RoundCandidate, RoundCandidate.id == CandidateLabel.candidate_id)
            .where(CandidateLabel.user_id == user.id, RoundCandidate.round_id == round_.id)
        ).all()
    )


def first_open(user: User, round_: JudgementRound) -> int | None:
    """The index of the first screen with a candidate this judge has not labelled."""
    done = labels_of(user, round_)
    for index, screen in enumerate(screens(round_)):
        if any(c.id not in done for c in screen.candidates):
            return index
    return None


def save_labels(
    user: User, round_: JudgementRound, chosen: Mapping[int, str], attempts: int = 20
) -> int:
    """Save a judge's labels (candidate id → label) of this round, each updating the
    current label and appending a revision, in one transaction; a concurrent save is
    retried, never lost. Returns how many were saved."""
    allowed = set(label_set_of(round_).labels)
    bad = sorted({label for label in chosen.values() if label not in allowed})
    if bad:
        raise ServiceError(
            f"label {shown(bad[0])} is not one of {', '.join(sorted(allowed))} (round "
            f"{round_.name})"
        )
    own = set(
        db.session.scalars(
            select(RoundCandidate.id).where(
                RoundCandidate.round_id == round_.id, RoundCandidate.id.in_(list(chosen))
            )
        )
    )
    if own != set(chosen):
        raise ServiceError("a candidate is not of this round")
    return retried(lambda: _save_once(user, chosen), attempts)


def _save_once(user: User, chosen: Mapping[int, str]) -> int:
    stamp = now()
    current = {
        row.candidate_id: row
        for row in db.session.scalars(
            select(CandidateLabel).where(
                CandidateLabel.user_id == user.id, CandidateLabel.candidate_id.in_(list(chosen))
            )
        )
    }
    for candidate_id, label in sorted(chosen.items()):
        row = current.get(candidate_id)
        if row is None:
            row = CandidateLabel(user_id=user.id, candidate_id=candidate_id, saves=1)
            db.session.add(row)
        else:
            row.saves = CandidateLabel.saves + 1
        row.label = label
        row.updated_at = stamp
        db.session.add(
            LabelRevision(user_id=user.id, candidate_id=candidate_id, label=label, saved_at=stamp)
        )
    db.session.commit()
    return len(chosen)


def revisions(
    round_: JudgementRound, user: User | None = None
) -> list[tuple[str, str, str, str, datetime]]:
    """Every save of the round (judge, item, candidate, label, time), oldest first."""
    query = (
        select(
            User.username,
            RoundItem.item,
            RoundCandidate.text,
            LabelRevision.label,
            LabelRevision.saved_at,
        )
        .join(RoundCandidate, RoundCandidate.id == LabelRevision.candidate_id)
        .join(RoundItem, RoundItem.id == RoundCandidate.round_item_id)
        .join(User, User.id == LabelRevision.user_id)
        .where(RoundCandidate.round_id == round_.id)
        .order_by(LabelRevision.id)
    )
    if user is not None:
        query = query.where(LabelRevision.user_id == user.id)
    return [tuple(row) for row in db.session.execute(query).all()]  # type: ignore[misc]


@dataclass(frozen=True)
class JudgeProgress:
    judge: str
    done: int
    total: int
    last: datetime | None
    assigned: bool

    @property
    def percent(self) -> float:
        return 100 * self.done / self.total if self.total else 0.0


def candidate_count(round_: JudgementRound) -> int:
    return (
        db.session.scalar(
            select(func.count(RoundCandidate.id)).where(RoundCandidate.round_id == round_.id)
        )
        or 0
    )


def progress(round_: JudgementRound) -> list[JudgeProgress]:
    """Each judge (assigned, then anyone else with a label), by username: labelled
    candidates of the round's, and their last save."""
    total = candidate_count(round_)
    rows = db.session.execute(
        select(
            CandidateLabel.user_id,
            func.count(CandidateLabel.id),
            func.max(CandidateLabel.updated_at),
        )
        .join(RoundCandidate, RoundCandidate.id == CandidateLabel.candidate_id)
        .where(RoundCandidate.round_id == round_.id)
        .group_by(CandidateLabel.user_id)
    ).all()
    done = {user_id: (count, last) for user_id, count, last in rows}
    assigned = {user.id for user in judges(round_)}
    people = db.session.scalars(
        select(User).where(User.id.in_(assigned | set(done))).order_by(User.username)
    )
    return [
        JudgeProgress(
            user.username,
            done.get(user.id, (0, None))[0],
            total,
            done.get(user.id, (0, None))[1],
            user.id in assigned,
        )
        for user in people
    ]


def candidate_origins(round_: JudgementRound) -> list[tuple[str, ...]]:
    """The origin of every candidate of the round, judged or not (the report's figures by
    source count them)."""
    return [
        tuple(origin)
        for origin in db.session.scalars(
            select(RoundCandidate.origin).where(RoundCandidate.round_id == round_.id)
        )
    ]


def export_judgements(round_: JudgementRound) -> list[Judgement]:
    """Every current label of the round as judgements (item order, candidate order,
    judge): the judgements file's records."""
    query = (
        select(
            RoundItem.item,
            RoundCandidate.text,
            User.username,
            CandidateLabel.label,
            RoundCandidate.origin,
        )
        .join(RoundCandidate, RoundCandidate.id == CandidateLabel.candidate_id)
        .join(RoundItem, RoundItem.id == RoundCandidate.round_item_id)
        .join(User, User.id == CandidateLabel.user_id)
        .where(RoundCandidate.round_id == round_.id)
        .order_by(RoundItem.position, RoundCandidate.position, User.username)
    )
    return [
        Judgement(item, text, judge, label, tuple(origin))
        for item, text, judge, label, origin in db.session.execute(query).all()
    ]


def dataset_named(name: str) -> Dataset:
    found: Dataset | None = db.session.scalar(select(Dataset).where(Dataset.name == name))
    if found is None:
        raise ServiceError(f"no dataset {name!r}")
    return found


def users_named(names: Iterable[str]) -> list[User]:
    found = []
    for name in names:
        user = db.session.scalar(select(User).where(User.username == name))
        if user is None:
            raise ServiceError(f"no user {name!r}")
        found.append(user)
    return found
