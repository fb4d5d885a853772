"""Majority verdicts and the post hoc tables (McCarthy & Navigli 2009, section 4.4, Tables 11 and
12).

The paper's rule: "we took the majority verdict for each substitute. If there is one
reasonable and one good verdict, then we categorise the substitute as reasonable"; with
three judges who all differ (good, reasonable, bad) the verdict is reasonable.

For an **ordered** label set (best first) that rule is, for any number n of judges:
*the verdict is the best label that more than half of the judges gave or bettered*.
With three judges it is the median, hence the paper's rule: two or three equal labels
win, and good + reasonable + bad is reasonable. When more than half the judges give one
label, that label is the verdict (a strict majority always wins). With an even number
of judges and no strict majority it leans to the worse side: good + bad is bad, good +
reasonable is reasonable (the paper's sentence about one good and one reasonable
verdict), good + good + bad + bad is bad.

For a label set that is **not ordered** (lexical reference): the binary verdict first,
positive when more than half of the judges gave a positive label (a tie is negative);
then, on that side, the label given most often, a tie going to the label listed first
(true-word before true-phrase before true-context).

The **binary verdict** (:func:`binary_verdict`) is positive when more than half of the
judges whose label has a binary value gave a positive one; None when no judge's label
has one (SWORDS: only UNSURE).

Table 11 counts each candidate type under ``sys`` when its origin names a system and
under ``origA`` when it names ``"human"`` (a type given by both counts in both rows);
Table 12 splits them into ``sys_only``, ``origA_only`` and ``both``. Percentages are of
the row's total, 0-100 at full precision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.formats.judgements import Candidate
from scoring.judgements.labels import NEGATIVE, POSITIVE, LabelSet


def _check(labels: Sequence[str], label_set: LabelSet) -> None:
    if not labels:
        raise ValueError("no labels (a verdict needs at least one judgement)")
    unknown = sorted(set(labels) - set(label_set.labels))
    if unknown:
        raise ValueError(
            f"label {', '.join(unknown)} is not one of {', '.join(label_set.labels)} "
            f"(label set {label_set.name})"
        )


def verdict(labels: Sequence[str], label_set: LabelSet) -> str:
    """The majority verdict of one candidate's labels (see the module docstring).

    >>> from scoring.judgements.labels import POSTHOC
    >>> verdict(["good", "reasonable", "bad"], POSTHOC)
    'reasonable'
    >>> verdict(["good", "bad", "good"], POSTHOC)
    'good'
    """
    _check(labels, label_set)
    half = len(labels) / 2
    if label_set.ordered:
        at_least = 0
        counts = Counter(labels)
        for label in label_set.labels:
            at_least += counts[label]
            if at_least > half:
                return label
        raise AssertionError("unreachable: every label is at least the worst")
    side = binary_verdict(labels, label_set) or NEGATIVE
    on_side = [label for label in labels if label_set.binary[label] == side]
    if not on_side:  # a tie went to the negative side: its first label
        return next(label for label in label_set.labels if label_set.binary[label] == side)
    counts = Counter(on_side)
    top = max(counts.values())
    return next(label for label in label_set.labels if counts[label] == top)


def binary_verdict(labels: Sequence[str], label_set: LabelSet) -> str | None:
    """Positive when more than half of the labels with a binary value are positive,
    negative otherwise; None when no label has one."""
    _check(labels, label_set)
    values = [label_set.binary[label] for label in labels if label_set.binary[label]]
    if not values:
        return None
    return POSITIVE if values.count(POSITIVE) > len(values) / 2 else NEGATIVE


@dataclass(frozen=True, slots=True)
class Verdict:
    """One candidate with its verdicts."""

    candidate: Candidate
    label: str
    binary: str | None


def verdicts(candidates: Iterable[Candidate], label_set: LabelSet) -> tuple[Verdict, ...]:
    """The verdict of every candidate, in the order given."""
    return tuple(
        Verdict(
            c,
            verdict(list(c.labels.values()), label_set),
            binary_verdict(list(c.labels.values()), label_set),
        )
        for c in candidates
    )


@dataclass(frozen=True, slots=True)
class Breakdown:
    """One row of Table 11 or 12: how many candidates, and the percentage (0-100) of
    them whose verdict is each label (None when the row is empty)."""

    total: int
    percent: Mapping[str, float | None]

    def to_json(self) -> dict[str, Any]:
        return {"total": self.total, **self.percent}


def breakdown(found: Iterable[Verdict], label_set: LabelSet) -> Breakdown:
    """The row of a set of verdicts."""
    counts = Counter(v.label for v in found)
    total = sum(counts.values())
    return Breakdown(
        total,
        {label: 100 * counts[label] / total if total else None for label in label_set.labels},
    )


def table11(found: Sequence[Verdict], label_set: LabelSet) -> dict[str, Breakdown]:
    """Table 11: ``sys`` (origin names a system) and ``origA`` (origin names "human")."""
    return {
        "sys": breakdown((v for v in found if v.candidate.system), label_set),
        "origA": breakdown((v for v in found if v.candidate.human), label_set),
    }


def table12(found: Sequence[Verdict], label_set: LabelSet) -> dict[str, Breakdown]:
    """Table 12: types given by systems only, by the original annotators only, by both."""
    return {
        "sys_only": breakdown(
            (v for v in found if v.candidate.system and not v.candidate.human), label_set
        ),
        "origA_only": breakdown(
            (v for v in found if v.candidate.human and not v.candidate.system), label_set
        ),
        "both": breakdown(
            (v for v in found if v.candidate.human and v.candidate.system), label_set
        ),
    }


def by_origin(found: Sequence[Verdict], label_set: LabelSet) -> dict[str, Breakdown]:
    """A Table 11-style row for every origin name (sorted): the candidates whose origin
    includes it (SWORDS: ``human`` for CoInCo, ``roget`` for the thesaurus)."""
    names = sorted({name for v in found for name in v.candidate.origin})
    return {
        name: breakdown((v for v in found if name in v.candidate.origin), label_set)
        for name in names
    }
