"""A dataset's home page: its state at a glance and what needs the organiser.

Everything here is computed when the home page (or the dashboard) is asked for, from
grouped queries and one compile of the gold; nothing runs in the annotators' save path.
The figures reuse the pages' own functions: progress (:func:`progress_by_annotator`),
participants flagged (:func:`flagged_participants`), the compiler's problem answers,
lemma changes and exclusions (:func:`compile_dataset`), and the agreement report's
measures (:mod:`scoring.agreement`: PA, Krippendorff's alpha with MASI distance and their
bootstrap intervals over lemmas).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, select

from annotate.extensions import db
from annotate.gold import CompiledGold
from annotate.gold.write import annotator_lines
from annotate.models import MODEL_ROLE, Dataset, DatasetMember, Instance, Response, User
from annotate.services.datasets import Progress, progress_by_annotator
from annotate.services.goldfiles import BrokenDataset, compile_dataset
from annotate.services.methods import SEED
from annotate.services.participants import Flagged, flagged_participants
from annotate.services.taskgold import ratings_by_instance
from scoring.agreement import agreement_row
from scoring.agreement.ratings import rating_agreement
from scoring.agreement.report import alphas, intervals
from scoring.agreement.resampled import alpha_intervals
from scoring.formats.annotators import parse_annotators

_EPOCH = datetime(1970, 1, 1)

ENOUGH_ITEMS = 20
"""Agreement is shown once at least this many items have two answers or more."""
SHOWN_PEOPLE = 50
"""The most annotators or participants the home lists (the most recently active)."""


@dataclass(frozen=True)
class AgreementSoFar:
    """The agreement of the answers so far: ``items`` with two answers or more (T);
    PA and alpha (MASI distance; interval level for ratings) with 95% intervals over
    lemmas, or None each while fewer than :data:`ENOUGH_ITEMS` items have two answers
    or where undefined."""

    items: int
    pa: float | None = None
    pa_interval: tuple[float, float] | None = None
    alpha: float | None = None
    alpha_interval: tuple[float, float] | None = None

    @property
    def enough(self) -> bool:
        return self.items >= ENOUGH_ITEMS


@dataclass(frozen=True)
class Need:
    """Something that needs the organiser: what, how many, and the page that shows it
    (an endpoint of the dataset, with an optional anchor)."""

    key: str
    label: str
    count: int
    endpoint: str
    anchor: str = ""


@dataclass(frozen=True)
class Step:
    """A step of a study's life, whether it is done, and the page where it is taken."""

    key: str
    label: str
    done: bool
    endpoint: str


@dataclass(frozen=True)
class DatasetHome:
    """Everything the home page shows besides the dataset's own fields."""

    people: tuple[Progress, ...]
    """The most recently active annotators or participants (:data:`SHOWN_PEOPLE`)."""
    count: int
    """All annotators or participants (members, and anyone else with an answer)."""
    done: int
    assigned: int
    answers: int
    answers_today: int
    last_activity: datetime | None
    agreement: AgreementSoFar
    needs: tuple[Need, ...]
    steps: tuple[Step, ...]
    broken: str | None = None
    """Why the dataset cannot be compiled (stored by an older version against the gold's
    rules), or None."""

    @property
    def percent(self) -> float:
        return 100 * self.done / self.assigned if self.assigned else 0.0

    @property
    def flags(self) -> int:
        """Everything that needs the organiser, added up (the dashboard's count)."""
        return sum(need.count for need in self.needs)

    @property
    def next_step(self) -> Step | None:
        return next((step for step in self.steps if not step.done), None)


def start_of_today(now: datetime | None = None) -> datetime:
    """Midnight UTC of ``now``'s day, naive as the database keeps times."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    return moment.replace(hour=0, minute=0, second=0, microsecond=0, tzinfo=None)


def answer_counts(dataset: Dataset, now: datetime | None = None) -> tuple[int, int]:
    """(current answers in the dataset, those saved today, UTC), in one query: the
    people's (a model annotator's, ``lexsub llm-annotate``, are not counted)."""
    today = start_of_today(now)
    row = db.session.execute(
        select(
            func.count(Response.id),
            func.count(Response.id).filter(Response.updated_at >= today),
        )
        .join(Instance, Instance.id == Response.instance_id)
        .join(User, User.id == Response.user_id)
        .where(Instance.dataset_id == dataset.id, User.role != MODEL_ROLE)
    ).one()
    return int(row[0]), int(row[1])


def _interval(bounds: list[float] | tuple[float, float] | None) -> tuple[float, float] | None:
    return None if bounds is None else (bounds[0], bounds[1])


def agreement_so_far(dataset: Dataset, compiled: CompiledGold | None) -> AgreementSoFar:
    """PA and Krippendorff's alpha (MASI distance) of the compiled gold with bootstrap
    intervals over lemmas (the agreement page's seed), once :data:`ENOUGH_ITEMS` items
    have two answers; a complexity study's interval-level alpha of its ratings."""
    if dataset.task == "complexity":
        units = [ratings for ratings in ratings_by_instance(dataset).values() if len(ratings) > 1]
        if len(units) < ENOUGH_ITEMS:
            return AgreementSoFar(len(units))
        try:
            rated = rating_agreement(units, seed=SEED)
        except ValueError:  # every rating the same: alpha undefined
            return AgreementSoFar(len(units))
        found = (rated.intervals or {}).get("interval")
        return AgreementSoFar(len(units), None, None, rated.alpha["interval"], found)
    if compiled is None:  # the dataset cannot be compiled: nothing to measure
        return AgreementSoFar(0)
    lines = list(annotator_lines(compiled))
    items = parse_annotators(lines, f"{dataset.name} annotators") if lines else ()
    row = agreement_row(items)
    if row.T < ENOUGH_ITEMS:
        return AgreementSoFar(row.T)
    return AgreementSoFar(
        row.T,
        row.PA,
        _interval(intervals(items, seed=SEED)["PA"]),
        alphas(items)["masi"],
        _interval(alpha_intervals(items, seed=SEED, views=("masi",))["masi"]),
    )


def needs_of(dataset: Dataset, compiled: CompiledGold | None, flagged: Flagged) -> tuple[Need, ...]:
    """What needs the organiser, each with its count and page: participants flagged
    (speeders, under the check threshold), problem answers (left out or flagged by the
    substitute rules), forms awaiting lemma review (no decision yet) and annotators left
    out of the gold; for a dataset that cannot be compiled (``compiled`` None), that one
    problem in place of the compiler's three."""
    study = "members.study_page"
    participants = (
        Need("speeders", "Speeders", flagged.speeders, study, "participants-heading"),
        Need(
            "under-checks",
            "Under the check threshold",
            flagged.under_checks,
            study,
            "participants-heading",
        ),
    )
    if compiled is None:
        return (*participants, Need("broken", "Cannot be compiled", 1, "organiser.compile_gold"))
    problems = {(p.annotator, p.instance) for p in (*compiled.left_out, *compiled.flagged)}
    awaiting = sum(1 for change in compiled.lemma_changes if change.decision is None)
    return (
        *participants,
        Need("problems", "Problem answers", len(problems), "reports.problems"),
        Need("lemmas", "Forms awaiting lemma review", awaiting, "organiser.lemmas"),
        Need(
            "left-out",
            "Annotators left out",
            len(compiled.excluded),
            "organiser.compile_gold",
            "left-out",
        ),
    )


def steps_of(
    dataset: Dataset,
    home_members: int,
    progress: tuple[int, int, int],
    needs: tuple[Need, ...],
    agreement: AgreementSoFar,
) -> tuple[Step, ...]:
    """The study's life, each step ticked when the dataset's state says it is done:
    imported; members (or a study link); guidelines written; the link open (or
    annotators answering already); every assigned sentence answered (``progress``:
    done, assigned, answers); no form awaiting lemma review; then the gold final (no
    problem answer left), its agreement computable (:data:`ENOUGH_ITEMS`) and so the
    methods paragraph's figures final."""
    done, assigned, answers = progress
    count = {need.key: need.count for need in needs}
    answered = answers > 0 and assigned > 0 and done >= assigned
    reviewed = answers > 0 and count.get("lemmas", 1) == 0
    final = answered and reviewed and count.get("problems", 1) == 0
    return (
        Step("import", "Import", True, "organiser.settings"),
        Step(
            "members",
            "Members and design",
            home_members > 0 or dataset.study_token is not None,
            "members.dataset_members",
        ),
        Step(
            "guidelines",
            "Guidelines and onboarding",
            bool(dataset.guidelines.strip()),
            "members.dataset_members",
        ),
        Step(
            "link",
            "Open the link",
            dataset.study_token is not None or answers > 0,
            "members.dataset_members",
        ),
        Step("answers", "Answers", answered, "reports.answers"),
        Step("lemmas", "Lemma review", reviewed, "organiser.lemmas"),
        Step("compile", "Compile", final, "organiser.compile_gold"),
        Step("agreement", "Agreement", final and agreement.enough, "reports.agreement"),
        Step("methods", "Methods paragraph", final and agreement.enough, "reports.methods"),
    )


def compiled_or_problem(dataset: Dataset) -> tuple[CompiledGold | None, str | None]:
    """The dataset's gold compiled with the default options, or None and the rule its
    stored answers break (:class:`BrokenDataset`): the home and the dashboard still show
    the rest."""
    try:
        return compile_dataset(dataset), None
    except BrokenDataset as error:
        return None, str(error)


def dataset_home(dataset: Dataset, now: datetime | None = None) -> DatasetHome:
    """The home page's figures for ``dataset`` (one compile, a few grouped queries)."""
    progress = progress_by_annotator(dataset)
    answers, today = answer_counts(dataset, now)
    compiled, broken = compiled_or_problem(dataset)
    agreement = agreement_so_far(dataset, compiled)
    needs = needs_of(dataset, compiled, flagged_participants(dataset))
    home_members = (
        db.session.scalar(
            select(func.count(DatasetMember.id)).where(DatasetMember.dataset_id == dataset.id)
        )
        or 0
    )
    current = [row for row in progress if row.member]
    done = sum(row.done for row in current)
    assigned = sum(row.total for row in current)
    recent = sorted(progress, key=lambda row: row.last_activity or _EPOCH, reverse=True)
    return DatasetHome(
        people=tuple(sorted(recent[:SHOWN_PEOPLE], key=lambda row: row.annotator)),
        count=len(progress),
        done=done,
        assigned=assigned,
        answers=answers,
        answers_today=today,
        last_activity=max(
            (row.last_activity for row in progress if row.last_activity), default=None
        ),
        agreement=agreement,
        needs=needs,
        steps=steps_of(dataset, home_members, (done, assigned, answers), needs, agreement),
        broken=broken,
    )


@dataclass(frozen=True)
class DatasetRow:
    """A dataset as the dashboard lists it: its progress (members' answered sentences
    of those given to them), everything that needs the organiser added up
    (:attr:`DatasetHome.flags`) and its last save."""

    dataset: Dataset
    done: int
    assigned: int
    flags: int
    last_activity: datetime | None

    @property
    def percent(self) -> float:
        return 100 * self.done / self.assigned if self.assigned else 0.0


def dataset_row(dataset: Dataset) -> DatasetRow:
    """The dashboard's row of ``dataset``: the home's figures without its agreement."""
    progress = progress_by_annotator(dataset)
    current = [row for row in progress if row.member]
    needs = needs_of(dataset, compiled_or_problem(dataset)[0], flagged_participants(dataset))
    return DatasetRow(
        dataset,
        sum(row.done for row in current),
        sum(row.total for row in current),
        sum(need.count for need in needs),
        max((row.last_activity for row in progress if row.last_activity), default=None),
    )
