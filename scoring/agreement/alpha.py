"""Krippendorff's alpha on substitution answers: three views of the same sets.

All three are alpha = 1 - D_o / D_e in the coincidence-matrix form of Krippendorff,
"Computing Krippendorff's alpha-reliability" (2011) and *Content Analysis* (2004): D_o
is the mean distance between two values given to the SAME unit by different annotators,
D_e the mean distance between two values drawn from ALL pairable values (of every unit:
of every lemma, when items of many lemmas are pooled); 1 is perfect agreement, 0
agreement at chance level, below 0 systematic disagreement.

* :func:`nominal_alpha`: one value per annotator and unit; ``first_substitute_units``
  feeds it each annotator's first substitute (the nominal view).
* :func:`indicator_alpha`: one binary unit per (item, substitute s), s in the union of
  the item's answers: "did this annotator give s?", asked of every annotator with a
  non-empty answer to the item. Computed by ``krippendorff.alpha(value_counts=...)``;
  :func:`alpha_from_counts` is our closed form of the same number.
* :func:`masi_alpha`: the item is the unit and the annotator's whole SET is the value,
  with the MASI distance of Passonneau (2006), "Measuring Agreement on Set-valued Items
  (MASI) for Semantic and Pragmatic Annotation", LREC: 1 - J·M with J the Jaccard index
  and M = 1 (equal), 2/3 (one set contains the other), 1/3 (they overlap otherwise) or
  0 (disjoint). D_e is computed exactly without visiting pairs of distinct sets (see
  :func:`set_pair_counts`), so it stays linear in the data.

In the item views only non-empty answers count (``name`` and ``nil`` answers are not
values), and an item is pairable when it has two of them, that is when it is in T.
Preconditions are checked first: a ``ValueError`` states the rule, never a NaN.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from itertools import chain, combinations, count
from operator import is_not
from typing import TYPE_CHECKING

import krippendorff
import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from scoring.formats.annotators import Item

Counts = npt.NDArray[np.int64]
MAX_SET = 16
"""The largest answer set :func:`set_pair_counts` accepts (annotators give at most 3)."""
SetDistance = Callable[[frozenset[str], frozenset[str]], float]


# --- nominal --------------------------------------------------------------------------------


def nominal_alpha(units: Sequence[Sequence[Hashable | None]]) -> float:
    """Krippendorff's alpha for nominal data (Krippendorff, *Content Analysis*, the
    coincidence-matrix form): ``units[u]`` holds each annotator's value for unit u, None
    when missing. Units with fewer than two values are not pairable and drop out. With
    o_ck = Σ_u (pairs of values c, k in u) / (m_u - 1), n_c = Σ_k o_ck, n = Σ_c n_c:
    alpha = 1 - (n - 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k. Linear in the values seen; the
    sums are integers grouped by m_u, so the order of the units does not matter."""
    pairs, totals = nominal_terms(units)
    return nominal_from_sums(pairs, sum(totals.values()), sum(c * c for c in totals.values()))


def nominal_terms(
    units: Iterable[Sequence[Hashable | None]],
) -> tuple[Counter[int], Counter[Hashable]]:
    """What :func:`nominal_alpha` adds up over the pairable units (those with m_u ≥ 2
    values): by m_u, the ordered pairs of different values within a unit (m_u² - Σ_c
    m_uc²), and how often each value occurs. Both are sums over units, so the terms of a
    resample are the terms of its units added (:mod:`scoring.agreement.resampled`)."""
    pairs: Counter[int] = Counter()
    pooled: list[Hashable] = []
    present = partial(is_not, None)
    for unit in units:
        values = list(filter(present, unit))
        m = len(values)
        if m < 2:
            continue
        pooled += values
        # ordered pairs of different values in the unit: m² - Σ_c m_c²
        distinct = set(values)
        if len(distinct) == m:
            pairs[m] += m * m - m
        elif len(distinct) > 1:
            pairs[m] += m * m - sum(c * c for c in map(values.count, distinct))
    return pairs, Counter(pooled)


def nominal_from_sums(pairs: Mapping[int, int], n: int, squares: int) -> float:
    """Nominal alpha from the sums of :func:`nominal_terms`: ``pairs`` (m_u → ordered
    pairs of different values in the units of m_u values), ``n`` the values and
    ``squares`` Σ_c n_c² (n_c how often value c occurs):
    alpha = 1 - (n - 1) Σ_m pairs_m / (m - 1) / (n² - Σ_c n_c²)."""
    disagree = math.fsum(p / (m - 1) for m, p in pairs.items())
    if n == 0:
        raise ValueError("no unit has two values (alpha needs pairable values)")
    expected = n * n - squares
    if expected == 0:
        raise ValueError("every value is the same (expected disagreement 0, alpha is undefined)")
    return 1 - (n - 1) * disagree / expected


def _pairable(value_counts: npt.ArrayLike) -> Counts:
    """The rows of a units x values count table with at least two values, checked."""
    counts = np.asarray(value_counts)
    if counts.ndim != 2 or counts.shape[1] < 1:
        raise ValueError(
            f"value counts of shape {counts.shape} (one row per unit, one column per value)"
        )
    if counts.size and not np.issubdtype(counts.dtype, np.integer):
        raise ValueError(f"value counts of type {counts.dtype} (counts are integers)")
    counts = counts.astype(np.int64)
    if (counts < 0).any():
        raise ValueError("a negative value count (counts are of annotators)")
    pairable: Counts = counts[counts.sum(axis=1) >= 2]
    if not len(pairable):
        raise ValueError("no unit has two values (alpha needs pairable values)")
    totals = pairable.sum(axis=0)
    if (totals > 0).sum() < 2:
        raise ValueError("every value is the same (expected disagreement 0, alpha is undefined)")
    return pairable


def alpha_from_counts(value_counts: npt.ArrayLike) -> float:
    """Nominal alpha from a units x values table (``value_counts[u][c]`` annotators gave
    value c to unit u), our closed form of the coincidence matrix: over the units with
    m_u ≥ 2 values, n_c = Σ_u n_uc, n = Σ_c n_c,
    alpha = 1 - (n - 1) Σ_u (m_u² - Σ_c n_uc²) / (m_u - 1) / (n² - Σ_c n_c²).
    The sums are exact integers grouped by m_u, so the result does not depend on the
    order of the units."""
    return alpha_from_sums(*count_terms(_pairable(value_counts)))


def count_terms(pairable: Counts) -> tuple[list[int], list[int]]:
    """What :func:`alpha_from_counts` adds up over the units of a table with m_u ≥ 2
    values: Σ_u (m_u² - Σ_c n_uc²) for each m_u (index m_u), and each value's n_c."""
    m = pairable.sum(axis=1)
    within = m * m - (pairable * pairable).sum(axis=1)
    by_m = np.bincount(m, weights=within)  # integers below 2**53: exact
    return [int(x) for x in by_m], [int(t) for t in pairable.sum(axis=0)]


def alpha_from_sums(by_m: Sequence[int], totals: Sequence[int]) -> float:
    """:func:`alpha_from_counts` from its sums (:func:`count_terms`, or those of many
    tables added up): ``by_m[m]`` is Σ_u (m_u² - Σ_c n_uc²) over the units of m values,
    ``totals[c]`` how often value c occurs in them."""
    n = sum(totals)
    if n == 0:
        raise ValueError("no unit has two values (alpha needs pairable values)")
    if sum(1 for t in totals if t > 0) < 2:
        raise ValueError("every value is the same (expected disagreement 0, alpha is undefined)")
    observed = math.fsum(by_m[k] / (k - 1) for k in range(2, len(by_m)) if by_m[k])
    expected = n * n - sum(t * t for t in totals)
    return 1 - (n - 1) * observed / expected


def ordinal_alpha(value_counts: npt.ArrayLike) -> float:
    """Krippendorff's alpha for ordinal data from a units x values table (columns in
    the values' order), after Krippendorff, "Computing Krippendorff's alpha-reliability"
    (2011), section C: the coincidences o_ck = Σ_u n_uc (n_uk - [c = k]) / (m_u - 1)
    over the units with m_u ≥ 2 values, n_c = Σ_k o_ck, n = Σ_c n_c, the ordinal metric
    δ²_ck = (Σ_{g=c..k} n_g - (n_c + n_k) / 2)², and
    alpha = 1 - (n - 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck. ``krippendorff.alpha(value_counts=…,
    level_of_measurement="ordinal")`` gives the same number (the tests compare them).
    ValueError when no unit is pairable or every value is the same."""
    pairable = _pairable(value_counts)
    m = pairable.sum(axis=1).astype(np.float64)
    weighted = pairable / (m - 1)[:, np.newaxis]
    coincidences = weighted.T @ pairable - np.diag(weighted.sum(axis=0))
    totals = coincidences.sum(axis=1)
    n = totals.sum()
    cumulative = np.concatenate(([0.0], np.cumsum(totals)))
    size = len(totals)
    c, k = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    low, high = np.minimum(c, k), np.maximum(c, k)
    delta = (cumulative[high + 1] - cumulative[low] - (totals[c] + totals[k]) / 2) ** 2
    observed = math.fsum((coincidences * delta).ravel().tolist())
    expected = math.fsum((np.outer(totals, totals) * delta).ravel().tolist())
    return float(1 - (n - 1) * observed / expected)


def package_alpha(value_counts: npt.ArrayLike) -> float:
    """``krippendorff.alpha(value_counts=..., level_of_measurement="nominal")`` after the
    preconditions of :func:`alpha_from_counts` (so a ``ValueError``, never a NaN)."""
    pairable = _pairable(value_counts)
    return float(krippendorff.alpha(value_counts=pairable, level_of_measurement="nominal"))


# --- indicator ------------------------------------------------------------------------------


def indicator_counts(items: Iterable[Item]) -> Counts:
    """The value counts of the indicator view: one row per (item, s) for s in the union of
    the item's non-empty answers (items in order, s sorted), columns [annotators who gave
    s, annotators with a non-empty answer to the item who did not]. Annotators who
    answered ``name`` or ``nil`` or not at all are missing values, not "did not give s"."""
    gave: list[int] = []
    answered: list[int] = []
    for item in items:
        answers = [r.substitutes for r in item.responses if r.substitutes]
        given = list(chain.from_iterable(answers))
        union = sorted(set(given))
        gave += map(given.count, union)  # each answer is a set: count = answers with s
        answered += [len(answers)] * len(union)
    yes = np.array(gave, dtype=np.int64)
    return np.stack([yes, np.array(answered, dtype=np.int64) - yes], axis=1)


def indicator_alpha(items: Iterable[Item]) -> float:
    """Alpha on binary indicators: for each item of T and each substitute s anyone gave
    for it, every annotator with a non-empty answer says yes (s ∈ h_i) or no. It answers
    "do annotators agree on which substitutes apply, one candidate at a time?"; a
    candidate given by one annotator of five is a disagreement. Computed with
    ``krippendorff.alpha`` on :func:`indicator_counts`; ``alpha_from_counts`` of the same
    counts is the closed form (equal to 1e-9 in the tests)."""
    return package_alpha(indicator_counts(items))


# --- MASI -----------------------------------------------------------------------------------


def masi_distance(first: frozenset[str], second: frozenset[str]) -> float:
    """1 - J·M (Passonneau 2006): J = |A ∩ B| / |A or B|, M = 1 if A = B, 2/3 if one set
    contains the other, 1/3 if they intersect otherwise, 0 if they are disjoint.
    ``nltk.metrics.distance.masi_distance`` is the same function only from NLTK 3.10 on
    (the version the tests run against): NLTK 3.9 and earlier weight 0.67 and 0.33, not
    2/3 and 1/3, so {1, 2} and {1, 2, 3, 4} are 0.665 apart there and 2/3 here."""
    if not first or not second:
        raise ValueError("MASI is defined on non-empty sets (name and nil are not values)")
    common = len(first & second)
    union = len(first) + len(second) - common
    if common == len(first) == len(second):
        monotonicity = 1.0
    elif common == min(len(first), len(second)):
        monotonicity = 2 / 3
    elif common:
        monotonicity = 1 / 3
    else:
        monotonicity = 0.0
    return 1 - common / union * monotonicity


@dataclass(frozen=True, slots=True)
class SetPairCounts:
    """The sufficient statistics of alpha on sets for any distance that sees only the
    sizes of two sets and of their intersection (true of every distance that treats the
    substitutes as opaque labels, such as MASI and Jaccard)."""

    observed: Mapping[tuple[int, int, int, int], int]
    """(m, |A|, |B|, |A ∩ B|) → ordered pairs (A, B) of answers of two different
    annotators to one item with m non-empty answers."""
    expected: Mapping[tuple[int, int, int], int]
    """(|A|, |B|, |A ∩ B|) → ordered pairs of two different pairable values anywhere:
    Σ n_A (n_B - [A = B]) over the distinct sets A, B."""
    n: int
    """Pairable values: the non-empty answers to the items of T."""


@dataclass(frozen=True)
class Subsets:
    """The non-empty subsets t of some distinct sets (:func:`subsets`), laid out so that
    :func:`subset_cover` can count, for any number n_k of each set k, N_b(t) = Σ n_k over
    the sets k ⊇ t with |k| = b."""

    sets: tuple[frozenset[str], ...]
    rows: Counts
    """For each set k, in order, and each of its 2^|k| - 1 subsets: the subset's row."""
    sizes: Counts
    """|k| for each set."""
    lengths: Counts
    """|t| for each row."""
    width: int
    """The largest |k| + 1."""


def subsets(sets: Iterable[frozenset[str]]) -> Subsets:
    """The :class:`Subsets` of distinct non-empty ``sets``. ValueError when there is no
    set or one has more than :data:`MAX_SET` members."""
    listed = tuple(sets)
    if not listed:
        raise ValueError("T is empty (no item has non-empty answers from two annotators)")
    sizes = np.fromiter(map(len, listed), dtype=np.int64, count=len(listed))
    largest = int(sizes.max())
    if largest > MAX_SET:
        raise ValueError(
            f"an answer of {largest} substitutes (alpha on sets enumerates the "
            f"2^|A| subsets of each answer: at most {MAX_SET} substitutes)"
        )
    keys: list[tuple[str, ...]] = []
    for value in listed:
        ordered = sorted(value)
        for j in range(1, len(ordered) + 1):
            keys += combinations(ordered, j)  # 2^|k| - 1 subsets, in this order
    index = dict(zip(dict.fromkeys(keys), count()))  # each distinct subset → its row
    rows = np.fromiter(map(index.__getitem__, keys), dtype=np.int64, count=len(keys))
    lengths = np.fromiter(map(len, index), dtype=np.int64, count=len(index))
    return Subsets(listed, rows, sizes, lengths, largest + 1)


def subset_cover(layout: Subsets, counts: npt.ArrayLike) -> Counts:
    """N_b(t) = Σ n_k over the sets k ⊇ t with |k| = b, for every subset t of the
    layout (``counts[k]`` = n_k, whole numbers ≥ 0): a (subsets x width) table."""
    spans = (1 << layout.sizes) - 1
    weights = np.repeat(np.asarray(counts, dtype=np.float64), spans)
    cover = np.bincount(
        layout.rows * layout.width + np.repeat(layout.sizes, spans),
        weights=weights,
        minlength=len(layout.lengths) * layout.width,
    )  # integers below 2**53: exact
    return cover.astype(np.int64).reshape(len(layout.lengths), layout.width)


def expected_pairs(layout: Subsets, counts: Counts) -> dict[tuple[int, int, int], int]:
    """:attr:`SetPairCounts.expected` of the sets of ``layout``, set k occurring
    ``counts[k]`` times (see :func:`set_pair_counts`); sets counted 0 times change
    nothing."""
    cover = subset_cover(layout, counts)
    width = layout.width
    by_size = np.bincount(layout.sizes, weights=counts, minlength=width).astype(np.int64)
    moments = np.zeros((width, width, width), dtype=np.int64)  # S(a, b, j)
    moments[:, :, 0] = np.outer(by_size, by_size)
    for j in range(1, width):
        rows = cover[layout.lengths == j]
        moments[:, :, j] = rows.T @ rows
    return expected_from_moments(moments, by_size)


def expected_from_moments(moments: Counts, by_size: Counts) -> dict[tuple[int, int, int], int]:
    """:attr:`SetPairCounts.expected` from S(a, b, j) = Σ_{|t| = j} N_a(t) N_b(t) (S(a, b,
    0) = the values of size a times those of size b) and the values of each size, by
    binomial inversion (:func:`set_pair_counts`)."""
    width = len(by_size)
    moment: list[list[list[int]]] = moments.tolist()
    sized: list[int] = by_size.tolist()
    expected: dict[tuple[int, int, int], int] = {}
    for a in range(1, width):
        for b in range(a, width):
            for i in range(min(a, b) + 1):
                w = sum(
                    (-1) ** (j - i) * math.comb(j, i) * moment[a][b][j]
                    for j in range(i, min(a, b) + 1)
                )
                if a == b == i:
                    w -= sized[a]  # a value is not paired with itself
                if w:
                    expected[a, b, i] = w if a == b else 2 * w  # (A, B) and (B, A)
    return expected


def observed_pairs(
    items: Iterable[Item],
) -> tuple[Counter[tuple[int, int, int, int]], Counter[frozenset[str]]]:
    """:attr:`SetPairCounts.observed` of the items, and how often each non-empty answer
    occurs in the items of T (the pairable values)."""
    pairs: list[tuple[int, int, int, int]] = []
    pooled: list[frozenset[str]] = []
    for item in items:
        answers = [r.substitutes for r in item.responses if r.substitutes]
        m = len(answers)
        if m < 2:
            continue
        pooled += answers
        pairs += [(m, len(x), len(y), len(x & y)) for x, y in combinations(answers, 2)]
    observed: Counter[tuple[int, int, int, int]] = Counter()
    for (m, a, b, i), number in Counter(pairs).items():
        observed[m, min(a, b), max(a, b), i] += 2 * number  # (A, B) and (B, A)
    return observed, Counter(pooled)


def set_pair_counts(items: Iterable[Item]) -> SetPairCounts:
    """:class:`SetPairCounts` of the non-empty answers of the items of T.

    ``expected`` needs Σ n_A n_B over pairs of distinct sets grouped by (|A|, |B|,
    |A ∩ B|): with up to a million distinct sets that is 10^12 pairs, and even the
    pairs that share a substitute are quadratic in how often a popular substitute
    occurs. Instead, counting the j-subsets t of A ∩ B gives
    Σ_{A,B} n_A n_B C(|A ∩ B|, j) = Σ_{|t| = j} N_a(t) N_b(t) (N from
    :func:`subset_cover`), and binomial inversion recovers the exact counts:
    W(a, b, i) = Σ_{j ≥ i} (-1)^(j-i) C(j, i) S(a, b, j). The cost is Σ_A 2^|A| (at
    most 7 subsets per answer of up to three substitutes), all in integers."""
    observed, values = observed_pairs(items)
    layout = subsets(values)
    counts = np.fromiter(values.values(), dtype=np.int64, count=len(values))
    return SetPairCounts(dict(observed), expected_pairs(layout, counts), sum(values.values()))


@lru_cache(maxsize=8)
def _size_distance(distance: SetDistance) -> Callable[[int, int, int], float]:
    """The distance of two sets of sizes a and b sharing i members, measured on
    stand-ins of those sizes (once for each sizes: the resamples of
    :mod:`scoring.agreement.resampled` ask for the same ones a thousand times)."""

    @cache
    def by_sizes(a: int, b: int, i: int) -> float:
        first = frozenset(str(x) for x in range(a))
        return distance(first, frozenset(str(x) for x in range(a - i, a - i + b)))

    return by_sizes


def set_alpha(counts: SetPairCounts, distance: SetDistance = masi_distance) -> float:
    """Alpha from :class:`SetPairCounts`: D_o = Σ O(m, a, b, i) d(a, b, i) / (m - 1) / n,
    D_e = Σ W(a, b, i) d(a, b, i) / (n (n - 1)), alpha = 1 - D_o / D_e."""
    d = _size_distance(distance)
    observed = math.fsum(
        c * d(a, b, i) / (m - 1) for (m, a, b, i), c in sorted(counts.observed.items())
    )
    expected = math.fsum(c * d(a, b, i) for (a, b, i), c in sorted(counts.expected.items()))
    if expected == 0:
        raise ValueError(
            "expected disagreement 0 (every answer is the same set, or the "
            "distance is 0 between all of them): alpha is undefined"
        )
    return 1 - (counts.n - 1) * observed / expected


def masi_alpha(items: Iterable[Item], distance: SetDistance = masi_distance) -> float:
    """Krippendorff's alpha with the items of T as units and each non-empty answer h_i as
    one value, at the MASI distance (Passonneau 2006) by default. It credits partial
    overlap: {glad, merry} against {glad} is 1 - (1/2)(2/3) = 2/3 apart, not 1. Any
    ``distance`` that treats substitutes as opaque labels may be given (NLTK's
    ``masi_distance`` or ``jaccard_distance``, for instance); it is evaluated once per
    (|A|, |B|, |A ∩ B|)."""
    return set_alpha(set_pair_counts(items), distance)
