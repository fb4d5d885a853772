"""Attention checks (gold items): sentences the organiser marks with the substitutes they
accept, and each participant's score on them.

An answer matches a check item when one of its substitutes takes, in the gold, the form
of an accepted one: both go through the compiler's own rule
(:func:`annotate.gold.form_matcher`: the substitute rules, normalisation, the dataset's
lemmatiser and lemma decisions), never string equality; for languages other than English
the forms are compared with case folded, as the compiler counts them. So ``Brilliant``,
``brilliant `` and ``brilliantly``'s lemma match as the gold would count them.

The check items' format, one a line (the form on the study page and
``lexsub checks``)::

    INSTANCE-ID  accepted; accepted; …

the sentence's id in the dataset, white space, then the accepted substitutes apart by
``;``. Blank lines and lines starting with ``#`` are skipped. Check items stay out of the
gold and the agreement unless asked (:func:`annotate.services.goldfiles.dataset_records`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import delete, select

from annotate.extensions import db
from annotate.gold import CompileOptions, form_matcher
from annotate.models import Assignment, CheckItem, Dataset, Instance, Lexelt, Response, User
from annotate.services.goldfiles import decisions_of
from annotate.services.rules import ServiceError, check_storable, shown

_T = TypeVar("_T")

CHECK_ACTIONS = ("warn", "block")
"""What a participant's check score under the study's threshold does: ``warn`` flags
them to the organiser; ``block`` also withholds the completion code."""
MAX_ACCEPTED = 50


@dataclass(frozen=True)
class CheckLine:
    """A check item as the organiser wrote it: the sentence's id and accepted substitutes."""

    instance: str
    accepted: tuple[str, ...]


def parse_check_lines(text: str, source: str = "the check items") -> list[CheckLine]:
    """The check items of ``text`` (the format above); :class:`ServiceError` naming the
    line for one without an accepted substitute or with an id twice."""
    lines: list[CheckLine] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        check_storable(line, f"{source}:{number}: the line")
        parts = re.split(r"\s+", line, maxsplit=1)
        accepted = tuple(
            dict.fromkeys(a.strip() for a in (parts[1] if len(parts) > 1 else "").split(";"))
        )
        accepted = tuple(a for a in accepted if a)
        if not accepted:
            raise ServiceError(
                f"{source}:{number}: {shown(line)} has no accepted substitute "
                "(INSTANCE-ID, white space, then substitutes apart by ';')"
            )
        if len(accepted) > MAX_ACCEPTED:
            raise ServiceError(
                f"{source}:{number}: {len(accepted)} accepted substitutes; at most {MAX_ACCEPTED}"
            )
        if parts[0] in seen:
            raise ServiceError(f"{source}:{number}: sentence {shown(parts[0])} is listed twice")
        seen.add(parts[0])
        lines.append(CheckLine(parts[0], accepted))
    return lines


BATCH = 5000
"""Ids per query when looking the check items up: PostgreSQL takes at most 65,535
parameters a statement, and a list of 70,000 check items passed that in one query."""


def batched(values: list[_T], size: int) -> Iterator[list[_T]]:
    """``values`` in lists of at most ``size``, in order.

    >>> list(batched([1, 2, 3, 4, 5], 2))
    [[1, 2], [3, 4], [5]]
    """
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _options(dataset: Dataset) -> CompileOptions:
    return CompileOptions(language=dataset.language or "en", decisions=decisions_of(dataset))


def set_checks(dataset: Dataset, lines: list[CheckLine], source: str = "the check items") -> int:
    """Make ``lines`` the dataset's check items (replacing the ones it had; none: no
    checks). All or nothing: an id that is not a sentence of the dataset, or an accepted
    substitute that the compiler's rules refuse, is a :class:`ServiceError` naming it."""
    rows: dict[str, int] = {}
    lexelts: dict[int, str] = {}
    for batch in batched([line.instance for line in lines], BATCH):
        rows.update(
            db.session.execute(
                select(Instance.xml_id, Instance.id).where(
                    Instance.dataset_id == dataset.id, Instance.xml_id.in_(batch)
                )
            ).all()
        )
    for ids in batched(list(rows.values()), BATCH):
        lexelts.update(
            db.session.execute(
                select(Instance.id, Lexelt.item)
                .join(Lexelt, Lexelt.id == Instance.lexelt_id)
                .where(Instance.id.in_(ids))
            ).all()
        )
    form = form_matcher(_options(dataset))
    items = []
    for line in lines:
        if line.instance not in rows:
            raise ServiceError(
                f"{source}: sentence {shown(line.instance)} is not in {dataset.name!r}"
            )
        for value in line.accepted:
            if not form(value, lexelts[rows[line.instance]]):
                raise ServiceError(
                    f"{source}: sentence {line.instance}: {shown(value)} is refused by the "
                    "substitute rules (it would never count in the gold)"
                )
        items.append(
            CheckItem(
                dataset_id=dataset.id, instance_id=rows[line.instance], accepted=list(line.accepted)
            )
        )
    db.session.execute(delete(CheckItem).where(CheckItem.dataset_id == dataset.id))
    db.session.add_all(items)
    _into_batches(dataset, [item.instance_id for item in items])
    db.session.commit()
    return len(items)


def _into_batches(dataset: Dataset, check_ids: list[int]) -> None:
    """Every batch given already (the overlap design) gets the check sentences it lacks:
    every participant's batch includes them (:func:`annotate.services.study.give_batch`).
    Not committed."""
    holders = select(Assignment.user_id).where(Assignment.dataset_id == dataset.id).distinct()
    have = {
        (user_id, instance_id)
        for user_id, instance_id in db.session.execute(
            select(Assignment.user_id, Assignment.instance_id).where(
                Assignment.dataset_id == dataset.id, Assignment.instance_id.in_(check_ids)
            )
        )
    }
    users = list(db.session.scalars(holders))
    db.session.add_all(
        Assignment(dataset_id=dataset.id, user_id=user_id, instance_id=instance_id)
        for user_id in users
        for instance_id in check_ids
        if (user_id, instance_id) not in have
    )


def check_lines(dataset: Dataset) -> list[CheckLine]:
    """The dataset's check items, in sentence order."""
    return [
        CheckLine(xml_id, tuple(accepted))
        for xml_id, accepted in db.session.execute(
            select(Instance.xml_id, CheckItem.accepted)
            .join(Instance, Instance.id == CheckItem.instance_id)
            .where(CheckItem.dataset_id == dataset.id)
            .order_by(Instance.position)
        )
    ]


def check_text(lines: list[CheckLine]) -> str:
    """``lines`` in the format :func:`parse_check_lines` reads."""
    return "".join(f"{line.instance}\t{'; '.join(line.accepted)}\n" for line in lines)


@dataclass(frozen=True)
class CheckScore:
    """A participant's answers to check items: how many they answered and matched."""

    answered: int
    matched: int

    @property
    def percent(self) -> float | None:
        return None if not self.answered else 100 * self.matched / self.answered

    def below(self, threshold: int | None) -> bool:
        """Whether the score is under ``threshold`` percent (never without a threshold
        or before any check item is answered)."""
        percent = self.percent
        return threshold is not None and percent is not None and percent < threshold


def matches(accepted: list[str], substitutes: list[str], lexelt: str, dataset: Dataset) -> bool:
    """Whether one of ``substitutes`` takes the gold form of one of ``accepted`` (the
    module's rule), for one sentence of word ``lexelt``."""
    return bool(_matcher(dataset)(accepted, substitutes, lexelt))


Match = Callable[[list[str], list[str], str], bool]
"""(accepted, substitutes, lexelt) → whether one substitute matches an accepted one."""


def _matcher(dataset: Dataset) -> Match:
    form = form_matcher(_options(dataset))
    fold = (dataset.language or "en") != "en"

    def key(value: str, lexelt: str) -> str | None:
        found = form(value, lexelt)
        if not found:
            return None
        return found.casefold() if fold else found

    def match(accepted: list[str], substitutes: list[str], lexelt: str) -> bool:
        wanted = {key(value, lexelt) for value in accepted} - {None}
        return any(key(value, lexelt) in wanted for value in substitutes)

    return match


def check_scores(dataset: Dataset, user_ids: list[int] | None = None) -> dict[int, CheckScore]:
    """user id → :class:`CheckScore` for every annotator (or those of ``user_ids``) who
    answered a check item of ``dataset``. A name or nil answer matches nothing."""
    query = (
        select(
            Response.user_id, Response.kind, Response.substitutes, CheckItem.accepted, Lexelt.item
        )
        .join(CheckItem, CheckItem.instance_id == Response.instance_id)
        .join(Instance, Instance.id == Response.instance_id)
        .join(Lexelt, Lexelt.id == Instance.lexelt_id)
        .where(CheckItem.dataset_id == dataset.id)
        .order_by(Response.user_id, Instance.position)
    )
    if user_ids is not None:
        query = query.where(Response.user_id.in_(user_ids))
    match = _matcher(dataset)
    tally: dict[int, list[int]] = {}
    for user_id, kind, substitutes, accepted, lexelt in db.session.execute(query):
        counts = tally.setdefault(user_id, [0, 0])
        counts[0] += 1
        counts[1] += kind == "substitutes" and match(accepted, substitutes, lexelt)
    return {user_id: CheckScore(*counts) for user_id, counts in tally.items()}


def blocks(dataset: Dataset, score: CheckScore) -> bool:
    """The study's rule: whether ``score`` withholds the completion code (its check
    action is ``block`` and the score is under its threshold)."""
    return dataset.check_action == "block" and score.below(dataset.check_threshold)


def blocked(user: User, dataset: Dataset) -> bool:
    """Whether the study would block ``user``'s completion code on their check score now
    (:func:`blocks`); the code itself is decided once, at finishing
    (:mod:`annotate.services.finishing`)."""
    score = check_scores(dataset, [user.id]).get(user.id, CheckScore(0, 0))
    return blocks(dataset, score)


def set_check_rules(dataset: Dataset, threshold: int | None, action: str) -> None:
    """The study's check threshold (percent, 0-100; None: none) and what falling under it
    does (:data:`CHECK_ACTIONS`)."""
    if threshold is not None and not 0 <= threshold <= 100:
        raise ServiceError(f"a check threshold is 0-100 percent, not {threshold}")
    if action not in CHECK_ACTIONS:
        raise ServiceError(f"check action {shown(action)} is not one of {', '.join(CHECK_ACTIONS)}")
    dataset.check_threshold = threshold
    dataset.check_action = action
    db.session.commit()
