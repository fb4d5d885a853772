"""Agreement of the SWORDS judgements (Lee et al. 2021, "Swords: A Benchmark for Lexical
Substitution with Improved Data Coverage and Quality", NAACL), release v1.1.

A SWORDS file (``swords-v1.1_{dev,test}.json.gz``, gzip of one JSON object) holds
``contexts``, ``targets``, ``substitutes`` (each with its ``target_id`` and the
``substitute`` string) and ``substitute_labels``: for each substitute id, the list of
its raters' labels, ``TRUE`` (a good substitute in this context), ``FALSE`` or ``UNSURE``.
A substitute has 3 or 10 labels: in v1.1 no 3-label substitute has a ``TRUE`` and
every 10-label one has at least one (as if 7 more labels were asked for exactly the
candidates that one of the first 3 raters accepted). The units of agreement are the
substitutes; the file does not say which rater gave which label, so the raters are
exchangeable and only per-unit label counts are used.

Two views of the labels:

* ``three_way``: the categories FALSE, TRUE, UNSURE as labelled;
* ``binary``: FALSE and TRUE, with UNSURE dropped as a missing value (the ``swords``
  library's own ``stats`` counts only TRUE and FALSE as informative labels), so a unit
  may have fewer raters than it had labels.

Figures (:func:`swords_agreement`), for the 3-label units, the 10-label units and all:

* Fleiss' kappa (Fleiss 1971) on the three-way counts; for a group with one number of
  raters this is ``fleiss_kappa``, for all units :func:`generalised_fleiss_kappa`;
* Krippendorff's alpha (nominal) from the value counts by ``krippendorff.alpha``, in
  both views (``alpha_from_counts`` is the closed form; equal to 1e-9 in the tests).

The file is read by :mod:`scoring.formats.swords`.

The two stages matter when reading them: the 3-label units contain no TRUE at all, so
their agreement is about UNSURE against FALSE (and their binary alpha is undefined), and
the 10-label units were selected for having a TRUE.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from scoring.agreement import fleiss_kappa
from scoring.agreement.alpha import Counts, package_alpha
from scoring.formats.swords import LABELS, Swords, SwordsSubstitute

View = Literal["three_way", "binary"]
VIEWS: tuple[View, ...] = ("three_way", "binary")


def label_counts(substitutes: Sequence[SwordsSubstitute], view: View = "three_way") -> Counts:
    """One row per substitute: its labels counted per category, columns FALSE, TRUE,
    UNSURE (``three_way``) or FALSE, TRUE with UNSURE dropped (``binary``)."""
    if view not in VIEWS:
        raise ValueError(f"view {view!r} is not one of {', '.join(VIEWS)}")
    columns = LABELS if view == "three_way" else LABELS[:2]
    return np.array(
        [[s.labels.count(c) for c in columns] for s in substitutes], dtype=np.int64
    ).reshape(-1, len(columns))


def generalised_fleiss_kappa(counts: Sequence[Sequence[int]] | Counts) -> float:
    """Fleiss' kappa when the number of raters n_i ≥ 2 differs between subjects, every
    subject weighing the same in both terms: P_i = Σ_j n_ij (n_ij - 1) / (n_i (n_i - 1)),
    P̄ = mean_i P_i, p_j = mean_i n_ij / n_i, P̄_e = Σ_j p_j²,
    kappa = (P̄ - P̄_e) / (1 - P̄_e). With one n for all subjects it is Fleiss (1971)
    exactly (``fleiss_kappa``). Pooling p_j over ratings instead (Σ_i n_ij / Σ_i n_i)
    would mix two weightings; on SWORDS it would give 0.563 where this gives 0.310 (dev).
    Subjects with fewer than two ratings are refused: drop them first."""
    table = np.asarray(counts, dtype=np.int64)
    if table.ndim != 2 or not len(table):
        raise ValueError("no subjects (kappa needs at least one)")
    if (table < 0).any():
        raise ValueError("a negative count (counts are of raters)")
    raters = table.sum(axis=1)
    if (raters < 2).any():
        first = int(np.argmax(raters < 2))
        raise ValueError(
            f"subject {first} has {int(raters[first])} ratings (each needs at least 2)"
        )
    within = (table * (table - 1)).sum(axis=1) / (raters * (raters - 1))
    agreement = math.fsum(within.tolist()) / len(table)
    shares = table / raters[:, np.newaxis]
    expected = math.fsum(math.fsum(column.tolist()) ** 2 for column in shares.T) / len(table) ** 2
    if expected == 1:
        raise ValueError("every rating is in one category (P_e = 1, kappa is undefined)")
    return (agreement - expected) / (1 - expected)


@dataclass(frozen=True, slots=True)
class SwordsAgreement:
    """The agreement figures of one group of units (None where undefined)."""

    raters: str
    """``3``, ``10`` or ``all``: the number of labels of the units in the group."""
    units: int
    labels: int
    fleiss_kappa: float | None
    """Three-way; Fleiss (1971) for one number of raters, the generalised form for all."""
    alpha_three_way: float | None
    alpha_binary: float | None
    """UNSURE dropped; units left with fewer than two labels drop out."""
    binary_units: int
    """Units with at least two TRUE or FALSE labels."""


def _or_none(function: Callable[[Counts], float], counts: Counts) -> float | None:
    """The figure, or None where it is undefined (the function's ValueError)."""
    try:
        return function(counts)
    except ValueError:
        return None


def _kappa(counts: Counts) -> float:
    """Fleiss (1971) when every unit has the same number of labels, else generalised."""
    if len(set(counts.sum(axis=1).tolist())) == 1:
        return fleiss_kappa(counts.tolist())
    return generalised_fleiss_kappa(counts)


def _agreement(raters: str, group: Sequence[SwordsSubstitute]) -> SwordsAgreement:
    three = label_counts(group, "three_way")
    binary = label_counts(group, "binary")
    return SwordsAgreement(
        raters,
        len(group),
        int(three.sum()),
        _or_none(_kappa, three),
        _or_none(package_alpha, three),
        _or_none(package_alpha, binary),
        int((binary.sum(axis=1) >= 2).sum()),
    )


def swords_agreement(data: Swords) -> tuple[SwordsAgreement, ...]:
    """:class:`SwordsAgreement` for the units with each number of labels (ascending),
    then for all units."""
    groups: dict[int, list[SwordsSubstitute]] = {}
    for substitute in data.substitutes:
        groups.setdefault(len(substitute.labels), []).append(substitute)
    rows = [_agreement(str(size), groups[size]) for size in sorted(groups)]
    return (*rows, _agreement("all", data.substitutes))
