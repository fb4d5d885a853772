"""Inter-annotator agreement on ``annotators.jsonl``.

Definitions follow McCarthy & Navigli (2009), section 2.2.2: H is the set of annotators,
h_i annotator h's SET of substitutes for item i (empty when the answer was ``name`` or
``nil``), T the items with non-empty answers from at least two annotators, P_i the pairs
of non-empty answers for item i, H_i the multiset union of the h_i and m_i the mode, the
substitute strictly more frequent in H_i than every other (T_m: the items of T with one).

* :func:`pairwise_agreement` is PA, equation 1 (and the pooled variant of McCarthy & Navigli (2007),
  section 6);
* :func:`mode_agreement` is PA_m, equation 2, with the share |T_m| / |T|;
* :func:`agreement_table` is the layout of Table 1 (per PoS and for all);
* :func:`annotator_agreement` and :func:`leave_one_out` are the per-annotator figures;
* :func:`cohen_kappa`, :func:`fleiss_kappa` and :func:`nominal_alpha` are for label data.

Every function is pure: it takes values and returns values (frozen dataclasses), and
raises ``ValueError`` naming the rule when a figure is undefined, never returning NaN.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Literal

from scoring.agreement.alpha import alpha_from_counts as alpha_from_counts
from scoring.agreement.alpha import indicator_alpha as indicator_alpha
from scoring.agreement.alpha import indicator_counts as indicator_counts
from scoring.agreement.alpha import masi_alpha as masi_alpha
from scoring.agreement.alpha import masi_distance as masi_distance
from scoring.agreement.alpha import nominal_alpha as nominal_alpha
from scoring.agreement.multiword import MultiwordAgreement as MultiwordAgreement
from scoring.agreement.multiword import annotator_multiword as annotator_multiword
from scoring.agreement.multiword import mean_or_none
from scoring.agreement.multiword import multiword_agreement as multiword_agreement
from scoring.formats.annotators import Item
from scoring.terms import mode

PA_VARIANTS = ("per_item", "pooled_2007")
PaVariant = Literal["per_item", "pooled_2007"]
TABLE_KEYS = ("n", "v", "a", "r", "all")


# --- PA and PA_m ----------------------------------------------------------------------------


def jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    """|h_i and h'_i| / |h_i or h'_i| (intersection over union), the term of equation 1
    (McCarthy & Navigli 2009) for one pair."""
    if not first or not second:
        raise ValueError("both sets must be non-empty (P_i pairs non-empty answers only)")
    return len(first & second) / len(first | second)


def pair_scores(item: Item) -> list[float]:
    """The equation-1 term of every pair in P_i (pairs of non-empty answers), in a fixed
    order."""
    answers = item.answers  # non-empty sets only, so :func:`jaccard`'s check is not needed
    return [
        len(first & second) / len(first | second)
        for x, first in enumerate(answers)
        for second in answers[x + 1 :]
    ]


def _in_t(items: Iterable[Item]) -> list[Item]:
    in_t = [item for item in items if item.in_t]
    if not in_t:
        raise ValueError("T is empty (no item has non-empty answers from two annotators)")
    return in_t


def pairwise_agreement(items: Iterable[Item], variant: PaVariant = "per_item") -> float:
    """PA, equation 1 of McCarthy & Navigli (2009), section 2.2.2::

        PA = Σ_{i∈T} Σ_{{h_i,h'_i}∈P_i} (|h_i and h'_i| / |h_i or h'_i|) / (|P_i| · |T|)

    the mean over the pairs of each item, then the mean over T (``per_item``). With
    ``pooled_2007`` it is the reading of McCarthy & Navigli (2007), section 6: the sum of the pair
    scores over all items of T divided by the number of pairs, so items with more annotators
    weigh more. Items outside T are ignored; an empty T raises ``ValueError``."""
    if variant not in PA_VARIANTS:
        raise ValueError(f"variant {variant!r} is not one of {', '.join(PA_VARIANTS)}")
    scores = [pair_scores(item) for item in _in_t(items)]
    if variant == "per_item":
        return math.fsum(math.fsum(s) / len(s) for s in scores) / len(scores)
    return math.fsum(math.fsum(s) for s in scores) / sum(len(s) for s in scores)


def item_mode(item: Item) -> str | None:
    """m_i: the substitute strictly more frequent in H_i (the multiset union of the h_i)
    than every other, or None (McCarthy & Navigli 2009, section 2.2.2)."""
    return _mode_of(item.answers)


def _mode_of(answers: Sequence[frozenset[str]]) -> str | None:
    return mode(Counter(chain.from_iterable(answers)).items())


@dataclass(frozen=True, slots=True)
class ModeAgreement:
    """PA_m with what it is computed over."""

    PAm: float | None
    """Equation 2; None when T_m is empty."""
    mode_share: float
    """|T_m| / |T|."""
    T: int
    Tm: int


def mode_credit(answer: frozenset[str], mode: str) -> float:
    """The term of equation 2 for one non-empty h_i: 1/|h_i| if m_i ∈ h_i, else 0."""
    return 1 / len(answer) if mode in answer else 0.0


def mode_agreement(items: Iterable[Item]) -> ModeAgreement:
    """PA_m, equation 2 of McCarthy & Navigli (2009), section 2.2.2::

        PA_m = Σ_{i∈T_m} Σ_{h∈H} (1 if m_i ∈ h_i) / |h_i|  /  |HT_m|

    where HT_m is the set of all non-empty h_i of the items in T_m; with the share of
    the items of T that have a mode. An empty T raises ``ValueError``."""
    in_t = _in_t(items)
    credits: list[float] = []
    with_mode = 0
    for item in in_t:
        answers = item.answers
        mode = _mode_of(answers)
        if mode is None:
            continue
        with_mode += 1
        credits.extend(1 / len(answer) if mode in answer else 0.0 for answer in answers)
    pam = mean_or_none(credits)
    return ModeAgreement(pam, with_mode / len(in_t), len(in_t), with_mode)


# --- Table 1 ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgreementRow:
    """One row of Table 1 of McCarthy & Navigli (2009): PA, PA_m, |T| and the share of T with a
    mode, as fractions (PA and PA_m are None, mode_share 0, when T is empty)."""

    PA: float | None
    PAm: float | None
    T: int
    mode_share: float


def agreement_row(items: Iterable[Item]) -> AgreementRow:
    """PA (equation 1), PA_m (equation 2), |T| and |T_m|/|T| for a set of items."""
    in_t = [item for item in items if item.in_t]
    if not in_t:
        return AgreementRow(None, None, 0, 0.0)
    mode = mode_agreement(in_t)
    return AgreementRow(pairwise_agreement(in_t), mode.PAm, len(in_t), mode.mode_share)


def agreement_table(items: Iterable[Item]) -> dict[str, AgreementRow]:
    """Table 1 of McCarthy & Navigli (2009): a row for each PoS ``n``, ``v``, ``a``, ``r`` and for
    ``all`` (items of other PoS count in ``all`` only)."""
    listed = list(items)
    table = {pos: agreement_row(i for i in listed if i.pos == pos) for pos in TABLE_KEYS[:4]}
    table["all"] = agreement_row(listed)
    return table


# --- per annotator ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AnnotatorAgreement:
    """One annotator's agreement with the others and with the mode."""

    with_others: float | None
    """Equation 1 restricted to the pairs holding this annotator: over the items of T
    where they gave a non-empty answer, the mean of |h_i and h'_i| / |h_i or h'_i| over the
    other non-empty answers h'_i, then the mean over those items (None if none)."""
    with_mode: float | None
    """Equation 2 restricted to this annotator's non-empty answers to items of T_m: the
    mean of 1/|h_i| if m_i ∈ h_i, else 0 (m_i computed with every annotator; None if
    none)."""
    items: int
    """Items of T with a non-empty answer from this annotator."""
    mode_items: int
    """Items of T_m with a non-empty answer from this annotator."""


def annotator_agreement(items: Iterable[Item]) -> dict[str, AnnotatorAgreement]:
    """:class:`AnnotatorAgreement` for every annotator, sorted by annotator."""
    others: dict[str, list[float]] = {}
    modes: dict[str, list[float]] = {}
    seen: set[str] = set()
    for item in items:
        seen.update(r.annotator for r in item.responses)
        if not item.in_t:
            continue
        given = [r for r in item.responses if r.substitutes]
        mode = item_mode(item)
        for response in given:
            scores = [
                jaccard(response.substitutes, other.substitutes)
                for other in given
                if other is not response
            ]
            others.setdefault(response.annotator, []).append(math.fsum(scores) / len(scores))
            if mode is not None:
                credit = mode_credit(response.substitutes, mode)
                modes.setdefault(response.annotator, []).append(credit)

    return {
        a: AnnotatorAgreement(
            mean_or_none(others.get(a, [])),
            mean_or_none(modes.get(a, [])),
            len(others.get(a, [])),
            len(modes.get(a, [])),
        )
        for a in sorted(seen)
    }


def leave_one_out(items: Iterable[Item]) -> dict[str, dict[str, AgreementRow]]:
    """For every annotator, :func:`agreement_table` with that annotator's answers removed
    (T and the modes recomputed without them), as McCarthy & Navigli (2009) report PA and PA_m
    without one annotator (section 2.2.2)."""
    listed = list(items)
    annotators = sorted({r.annotator for item in listed for r in item.responses})
    return {a: agreement_table(item.without(a) for item in listed) for a in annotators}


# --- label data ---------------------------------------------------------------------------


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Cohen's kappa (Cohen 1960) of two annotators' labels on the same items:
    kappa = (p_o - p_e) / (1 - p_e), p_o the observed share of agreement, p_e = Σ_c p_1c p_2c
    from each annotator's own label distribution."""
    if len(first) != len(second):
        raise ValueError(f"{len(first)} labels against {len(second)} (one label each per item)")
    if not first:
        raise ValueError("no items (kappa needs at least one)")
    n = len(first)
    observed = sum(1 for x, y in zip(first, second, strict=True) if x == y) / n
    one, two = Counter(first), Counter(second)
    expected = math.fsum(one[c] * two[c] for c in one) / (n * n)
    if expected == 1:
        raise ValueError(
            "both annotators used one and the same label (p_e = 1, kappa is undefined)"
        )
    return (observed - expected) / (1 - expected)


def fleiss_kappa(counts: Sequence[Sequence[int]]) -> float:
    """Fleiss' kappa (Fleiss 1971) from a subjects x categories table: ``counts[i][j]`` is
    the number of raters who put subject i in category j, the same number n ≥ 2 of raters
    for every subject. P_i = (Σ_j n_ij² - n) / (n(n - 1)), p_j = Σ_i n_ij / (N n),
    P̄ = mean P_i, P̄_e = Σ_j p_j², kappa = (P̄ - P̄_e) / (1 - P̄_e)."""
    if not counts:
        raise ValueError("no subjects (kappa needs at least one)")
    width = len(counts[0])
    raters = sum(counts[0])
    for number, row in enumerate(counts):
        if len(row) != width:
            raise ValueError(
                f"subject {number} has {len(row)} categories, not {width} (one column per category)"
            )
        if any(c < 0 for c in row):
            raise ValueError(f"subject {number} has a negative count {list(row)}")
        if sum(row) != raters:
            raise ValueError(
                f"subject {number} has {sum(row)} ratings, not {raters} (the "
                "same number of raters for every subject)"
            )
    if raters < 2:
        raise ValueError(f"{raters} raters per subject (Fleiss' kappa needs at least 2)")
    subjects = len(counts)
    agreement = (
        math.fsum((sum(c * c for c in row) - raters) / (raters * (raters - 1)) for row in counts)
        / subjects
    )
    shares = [sum(row[j] for row in counts) / (subjects * raters) for j in range(width)]
    expected = math.fsum(p * p for p in shares)
    if expected == 1:
        raise ValueError("every rating is in one category (P_e = 1, kappa is undefined)")
    return (agreement - expected) / (1 - expected)


def first_substitute_units(items: Iterable[Item]) -> tuple[list[str], list[list[str | None]]]:
    """The nominal view for alpha: the annotators (sorted) and, for each item, each
    annotator's first substitute (None for no or an empty answer). ``annotators.jsonl``
    keeps h_i as a sorted set, so "first" is the alphabetically first substitute; it is the
    substitute itself when the annotator gave one only."""
    listed = list(items)
    annotators = sorted({r.annotator for item in listed for r in item.responses})
    units = []
    for item in listed:
        given = {r.annotator: min(r.substitutes) for r in item.responses if r.substitutes}
        units.append([given.get(a) for a in annotators])
    return annotators, units
