"""Weighted Cohen's kappa of two annotators' ratings on an ordered scale (Cohen 1968).

kappa_w = 1 - Σ_ij w_ij o_ij / Σ_ij w_ij e_ij, with o_ij the number of items the first
annotator rated with the i-th category and the second with the j-th, e_ij = r_i c_j / n
the count expected from each annotator's own distribution (r_i, c_j the margins, n the
items) and the disagreement weights w_ij = |i - j| (``linear``) or (i - j)² (``quadratic``)
on the categories' RANKS, not their values: with categories 1, 2 and 5, rating 1 against 5
is two steps apart. Unweighted kappa (Cohen 1960) is w_ij = [i ≠ j]. This is what
scikit-learn's ``cohen_kappa_score(first, second, weights=…)`` computes (the tests compare
them); the figure here is exact (:class:`fractions.Fraction` from integer counts).

The categories are the values either annotator used, sorted, unless ``categories`` gives
the whole scale in its order (then a category nobody used still counts as a step, as
scikit-learn's ``labels=``); a rating outside the given scale is an error, never dropped.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Literal, get_args

Weighting = Literal["linear", "quadratic", "none"]


def _weight(i: int, j: int, weighting: Weighting) -> int:
    if weighting == "linear":
        return abs(i - j)
    if weighting == "quadratic":
        return (i - j) ** 2
    return int(i != j)


def weighted_kappa_exact(
    first: Sequence[Hashable],
    second: Sequence[Hashable],
    weighting: Weighting = "linear",
    categories: Sequence[Hashable] | None = None,
) -> Fraction:
    """Weighted kappa (Cohen 1968) of two annotators' ratings of the same items, exactly:
    ``first[t]`` and ``second[t]`` rate item t. With o_ij, the margins r_i = Σ_j o_ij and
    c_j = Σ_i o_ij and n items, kappa_w = 1 - n Σ w_ij o_ij / Σ w_ij r_i c_j (the e_ij = r_i
    c_j / n of the module docstring, multiplied through by n). ValueError when the
    sequences differ in length or are empty, a rating is not in ``categories``, or the
    expected disagreement is 0 (both annotators used one and the same category)."""
    if weighting not in get_args(Weighting):
        raise ValueError(f"weighting {weighting!r} (one of {', '.join(get_args(Weighting))})")
    if len(first) != len(second):
        raise ValueError(f"{len(first)} ratings against {len(second)} (one rating each per item)")
    if not first:
        raise ValueError("no items (kappa needs at least one)")
    if categories is None:
        scale: list[Hashable] = sorted({*first, *second})  # type: ignore[type-var]
    else:
        scale = list(categories)
        if len(set(scale)) != len(scale):
            raise ValueError(f"categories {scale!r} repeat a category (each once, in order)")
    rank = {category: index for index, category in enumerate(scale)}
    outside = [value for value in (*first, *second) if value not in rank]
    if outside:
        raise ValueError(f"rating {outside[0]!r} is not one of the categories {scale!r}")
    size = len(scale)
    observed = [[0] * size for _ in range(size)]
    for x, y in zip(first, second, strict=True):
        observed[rank[x]][rank[y]] += 1
    rows = [sum(row) for row in observed]
    columns = [sum(column) for column in zip(*observed, strict=True)]
    disagreement = sum(
        _weight(i, j, weighting) * observed[i][j] for i in range(size) for j in range(size)
    )
    expected = sum(
        _weight(i, j, weighting) * rows[i] * columns[j] for i in range(size) for j in range(size)
    )
    if expected == 0:
        raise ValueError(
            "both annotators used one and the same category (expected disagreement 0, "
            "kappa is undefined)"
        )
    return 1 - Fraction(len(first) * disagreement, expected)


def weighted_kappa(
    first: Sequence[Hashable],
    second: Sequence[Hashable],
    weighting: Weighting = "linear",
    categories: Sequence[Hashable] | None = None,
) -> float:
    """:func:`weighted_kappa_exact` as a float (the nearest double to the exact figure)."""
    return float(weighted_kappa_exact(first, second, weighting, categories))
