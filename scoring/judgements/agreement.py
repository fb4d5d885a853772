"""Agreement on judgements: Cohen's kappa for every pair of
judges, Fleiss' kappa, Krippendorff's alpha nominal and (for an ordered label set such
as good > reasonable > bad) ordinal, per round and per judge, on the full labels and on
the binary view (:mod:`scoring.judgements.labels`).

The units are the candidates; a judge's label is a value, a label that is missing in the
binary view (SWORDS' UNSURE) is no value there. Measures reused from
:mod:`scoring.agreement`: :func:`~scoring.agreement.cohen_kappa`,
:func:`~scoring.agreement.fleiss_kappa` (one number of judges per candidate),
:func:`~scoring.agreement.swords.generalised_fleiss_kappa` (numbers that differ; equal to
Fleiss 1971 when they do not) and :func:`~scoring.agreement.alpha.alpha_from_counts`
(nominal alpha) and :func:`~scoring.agreement.alpha.ordinal_alpha` (Krippendorff's
ordinal alpha from the same value counts). A figure that is undefined (one category
only, no pairable unit) is None.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from scoring.agreement import cohen_kappa, fleiss_kappa
from scoring.agreement.alpha import alpha_from_counts, ordinal_alpha
from scoring.agreement.swords import generalised_fleiss_kappa
from scoring.formats.judgements import Candidate
from scoring.judgements.labels import BINARY, LabelSet
from scoring.judgements.verdicts import binary_verdict, verdict

View = Literal["full", "binary"]
VIEWS: tuple[View, ...] = ("full", "binary")


def categories(label_set: LabelSet, view: View) -> tuple[str, ...]:
    """The values of a view: the labels (in order) or positive, negative."""
    if view not in VIEWS:
        raise ValueError(f"view {view!r} is not one of {', '.join(VIEWS)}")
    return label_set.labels if view == "full" else BINARY


def value_of(label: str, label_set: LabelSet, view: View) -> str | None:
    """A label's value in a view (None: missing)."""
    return label if view == "full" else label_set.binary[label]


def value_counts(
    found: Sequence[Candidate], label_set: LabelSet, view: View = "full"
) -> npt.NDArray[np.int64]:
    """One row per candidate, one column per category of the view: how many judges gave
    it."""
    columns = {name: index for index, name in enumerate(categories(label_set, view))}
    table = np.zeros((len(found), len(columns)), dtype=np.int64)
    for row, candidate in enumerate(found):
        for label in candidate.labels.values():
            value = value_of(label, label_set, view)
            if value is not None:
                table[row, columns[value]] += 1
    return table


def _or_none(function: Callable[..., float], *arguments: Any) -> float | None:
    try:
        return function(*arguments)
    except ValueError:
        return None


def kappa(table: npt.NDArray[np.int64]) -> float:
    """Fleiss' kappa of the units with two or more values: Fleiss (1971) when they all
    have as many, the generalised form otherwise."""
    rows = table[table.sum(axis=1) >= 2]
    if not len(rows):
        raise ValueError("no candidate has two judgements (kappa needs them)")
    if len(set(rows.sum(axis=1).tolist())) == 1:
        return fleiss_kappa(rows.tolist())
    return generalised_fleiss_kappa(rows)


@dataclass(frozen=True, slots=True)
class JudgeAgreement:
    """One judge: how many candidates they judged, Cohen's kappa with each other judge
    (over the candidates both gave a value to), its mean over the defined ones, and the
    share of their values equal to the verdict's value."""

    judged: int
    cohen: Mapping[str, float | None]
    mean_cohen: float | None
    with_verdict: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "judged": self.judged,
            "cohen": dict(self.cohen),
            "mean_cohen": self.mean_cohen,
            "with_verdict": self.with_verdict,
        }


@dataclass(frozen=True, slots=True)
class ViewAgreement:
    """The agreement of one view of a round."""

    view: View
    units: int
    """Candidates with at least two values."""
    fleiss_kappa: float | None
    alpha_nominal: float | None
    alpha_ordinal: float | None
    """Only for the full view of an ordered label set (None otherwise)."""
    cohen: Mapping[str, float | None]
    """Cohen's kappa of each pair of judges, ``"a|b"`` with a < b."""
    judges: Mapping[str, JudgeAgreement]

    def to_json(self) -> dict[str, Any]:
        return {
            "units": self.units,
            "fleiss_kappa": self.fleiss_kappa,
            "alpha_nominal": self.alpha_nominal,
            "alpha_ordinal": self.alpha_ordinal,
            "cohen": dict(self.cohen),
            "judges": {name: judge.to_json() for name, judge in self.judges.items()},
        }


def _pair_kappa(found: Sequence[Candidate], a: str, b: str, value: Any) -> float | None:
    pairs = [
        (value(c.labels[a]), value(c.labels[b])) for c in found if a in c.labels and b in c.labels
    ]
    pairs = [(x, y) for x, y in pairs if x is not None and y is not None]
    if not pairs:
        return None
    return _or_none(cohen_kappa, [x for x, _ in pairs], [y for _, y in pairs])


def view_agreement(
    found: Sequence[Candidate], label_set: LabelSet, view: View = "full"
) -> ViewAgreement:
    """Every agreement figure of one view."""
    table = value_counts(found, label_set, view)

    def value(label: str) -> str | None:
        return value_of(label, label_set, view)

    judges = sorted({judge for c in found for judge in c.labels})
    pairs = {f"{a}|{b}": _pair_kappa(found, a, b, value) for a, b in combinations(judges, 2)}
    decided = [
        verdict(list(c.labels.values()), label_set)
        if view == "full"
        else binary_verdict(list(c.labels.values()), label_set)
        for c in found
    ]
    per_judge: dict[str, JudgeAgreement] = {}
    for judge in judges:
        mine = {
            other: pairs[f"{min(judge, other)}|{max(judge, other)}"]
            for other in judges
            if other != judge
        }
        defined = [k for k in mine.values() if k is not None]
        hits = [
            value(c.labels[judge]) == decision
            for c, decision in zip(found, decided, strict=True)
            if judge in c.labels and value(c.labels[judge]) is not None
        ]
        per_judge[judge] = JudgeAgreement(
            sum(1 for c in found if judge in c.labels),
            mine,
            math.fsum(defined) / len(defined) if defined else None,
            sum(hits) / len(hits) if hits else None,
        )
    ordinal = None
    if view == "full" and label_set.ordered:
        ordinal = _or_none(ordinal_alpha, table)
    return ViewAgreement(
        view,
        int((table.sum(axis=1) >= 2).sum()),
        _or_none(kappa, table),
        _or_none(alpha_from_counts, table),
        ordinal,
        pairs,
        per_judge,
    )


def round_agreement(found: Sequence[Candidate], label_set: LabelSet) -> dict[str, ViewAgreement]:
    """:func:`view_agreement` of the full labels and of the binary view."""
    return {view: view_agreement(found, label_set, view) for view in VIEWS}
