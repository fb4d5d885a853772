"""Label sets of judgement studies, as data.

A :class:`LabelSet` names its labels (best first when they are ordered), the key that
chooses each label on the judging page, and its binary view:

* ``posthoc`` (McCarthy & Navigli 2009, section 4.4): good > reasonable > bad, ordered; binary view
  good or reasonable (positive) against bad.
* ``lexical-reference`` (Glickman et al. 2006, section 3.2): true-word, true-phrase, true-context
  (the three sub-categories of *true*) and false, not ordered; binary view any true
  against false, the view on which Glickman et al. (2006) report kappa 0.63 (0.5 on the
  sub-categories).
* ``swords`` (Lee et al. 2021): TRUE > UNSURE > FALSE, ordered so that UNSURE sits
  between; binary view TRUE against FALSE with UNSURE a missing value, as
  :mod:`scoring.agreement.swords` reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

POSITIVE = "positive"
NEGATIVE = "negative"
BINARY = (POSITIVE, NEGATIVE)
"""The two categories of every binary view, in this order."""


@dataclass(frozen=True, slots=True)
class LabelSet:
    """One label set: its labels, their keys and titles, whether they are ordered (best
    first) and the binary view (label → positive, negative or None for missing)."""

    name: str
    labels: tuple[str, ...]
    keys: tuple[str, ...]
    titles: tuple[str, ...]
    ordered: bool
    binary: Mapping[str, str | None]

    def __post_init__(self) -> None:
        if not self.labels or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"label set {self.name}: labels {self.labels} are empty or repeat")
        if len(self.keys) != len(self.labels) or len(set(self.keys)) != len(self.keys):
            raise ValueError(f"label set {self.name}: one distinct key per label is needed")
        if len(self.titles) != len(self.labels):
            raise ValueError(f"label set {self.name}: one title per label is needed")
        if set(self.binary) != set(self.labels) or not set(self.binary.values()) <= {
            *BINARY,
            None,
        }:
            raise ValueError(
                f"label set {self.name}: the binary view maps every label to "
                f"{' or '.join(BINARY)} (or None)"
            )

    @property
    def positive(self) -> tuple[str, ...]:
        """The labels of the positive side of the binary view, in label order."""
        return tuple(label for label in self.labels if self.binary[label] == POSITIVE)

    def rank(self, label: str) -> int:
        """The label's place, 0 for the first (the best, when ordered)."""
        return self.labels.index(label)

    def key_of(self, label: str) -> str:
        return self.keys[self.rank(label)]

    def title_of(self, label: str) -> str:
        return self.titles[self.rank(label)]


POSTHOC = LabelSet(
    "posthoc",
    ("good", "reasonable", "bad"),
    ("g", "r", "b"),
    ("Good", "Reasonable", "Bad"),
    True,
    {"good": POSITIVE, "reasonable": POSITIVE, "bad": NEGATIVE},
)
LEXICAL_REFERENCE = LabelSet(
    "lexical-reference",
    ("true-word", "true-phrase", "true-context", "false"),
    ("w", "p", "c", "f"),
    ("True: a word", "True: a phrase", "True: the context", "False"),
    False,
    {
        "true-word": POSITIVE,
        "true-phrase": POSITIVE,
        "true-context": POSITIVE,
        "false": NEGATIVE,
    },
)
SWORDS = LabelSet(
    "swords",
    ("TRUE", "UNSURE", "FALSE"),
    ("t", "u", "f"),
    ("True", "Unsure", "False"),
    True,
    {"TRUE": POSITIVE, "UNSURE": None, "FALSE": NEGATIVE},
)
LABEL_SETS: dict[str, LabelSet] = {s.name: s for s in (POSTHOC, LEXICAL_REFERENCE, SWORDS)}


def label_set(name: str) -> LabelSet:
    """The label set called ``name``; ValueError naming the known ones otherwise."""
    try:
        return LABEL_SETS[name]
    except KeyError:
        raise ValueError(f"label set {name!r} is not one of {', '.join(LABEL_SETS)}") from None


def guess_label_set(labels: set[str]) -> LabelSet:
    """The first label set (posthoc, lexical-reference, swords) whose labels include
    every label used; ValueError when none does."""
    for candidate in LABEL_SETS.values():
        if labels <= set(candidate.labels):
            return candidate
    raise ValueError(
        f"labels {', '.join(sorted(labels))} are not those of one label set ("
        + "; ".join(f"{s.name}: {', '.join(s.labels)}" for s in LABEL_SETS.values())
        + ")"
    )
