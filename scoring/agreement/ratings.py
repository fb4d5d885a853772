"""Agreement on complexity ratings (1 to 5, as MultiLS collected them; Shardlow et al.
2024): Krippendorff's alpha at the ordinal and the interval level, with percentile
bootstrap intervals over the rated targets.

Each target (unit) becomes one row of sufficient statistics, its coincidences
o_ck = (pairs of ratings c, k in the unit) / (m_u - 1) (Krippendorff 2011, section C; a
unit with fewer than two ratings gives zeros), and alpha at either level is a function of
their sum: n_c = Σ_k o_ck, n = Σ_c n_c,

    alpha = 1 - (n - 1) Σ_{c,k} o_ck δ²_ck / Σ_{c,k} n_c n_k δ²_ck

with the interval difference δ²_ck = (c - k)² and the ordinal one
δ²_ck = (Σ_{g=c..k} n_g - (n_c + n_k) / 2)². So the one resampler of
:mod:`scoring.significance` draws targets and sums their rows for both levels. The point
figures are those of :func:`scoring.agreement.metric_alpha.interval_alpha` and
:func:`scoring.agreement.alpha.ordinal_alpha` (the tests compare them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from scoring import significance
from scoring.significance import Array

SCALE = (1, 2, 3, 4, 5)
"""The ratings a target may get: 1 (very easy) to 5 (very difficult)."""
RatingLevel = Literal["ordinal", "interval"]
LEVELS: tuple[RatingLevel, ...] = ("ordinal", "interval")


def coincidence_rows(units: Sequence[Sequence[int | None]]) -> Array:
    """One row per unit: its coincidences o_ck (c, k in :data:`SCALE`) flattened to 25
    columns; zeros for a unit with fewer than two ratings. ValueError for a rating off the
    scale."""
    size = len(SCALE)
    rows = np.zeros((len(units), size * size))
    for index, unit in enumerate(units):
        ratings = [rating for rating in unit if rating is not None]
        for rating in ratings:
            if isinstance(rating, bool) or rating not in SCALE:
                raise ValueError(f"rating {rating!r} is not one of {SCALE[0]}-{SCALE[-1]}")
        if len(ratings) < 2:
            continue
        counts = np.bincount(np.array(ratings) - SCALE[0], minlength=size).astype(np.float64)
        pairs = np.outer(counts, counts) - np.diag(counts)
        rows[index] = (pairs / (len(ratings) - 1)).ravel()
    return rows


def _deltas(totals: Array, level: RatingLevel) -> Array:
    """δ²_ck for each row of ``totals`` (B, 5): shape (B, 5, 5)."""
    size = len(SCALE)
    c, k = np.meshgrid(np.arange(size), np.arange(size), indexing="ij")
    if level == "interval":
        values = np.array(SCALE, dtype=np.float64)
        return np.broadcast_to((values[c] - values[k]) ** 2, (len(totals), size, size))
    cumulative = np.concatenate((np.zeros((len(totals), 1)), np.cumsum(totals, axis=1)), axis=1)
    low, high = np.minimum(c, k), np.maximum(c, k)
    spans = cumulative[:, high + 1] - cumulative[:, low]
    return (spans - (totals[:, c] + totals[:, k]) / 2) ** 2


def alpha_of_sums(sums: Array, level: RatingLevel) -> Array:
    """Alpha for each row of summed coincidences (B, 25); 0 where the expected
    disagreement is 0 (a resample whose ratings are all one value), as the figures of
    :func:`rating_alpha` have always been resampled; never NaN, so every resample counts
    in the intervals (:data:`scoring.significance.Corpus`)."""
    size = len(SCALE)
    coincidences = sums.reshape(-1, size, size)
    totals = coincidences.sum(axis=2)
    n = totals.sum(axis=1)
    delta = _deltas(totals, level)
    observed = (coincidences * delta).sum(axis=(1, 2))
    expected = (totals[:, :, None] * totals[:, None, :] * delta).sum(axis=(1, 2))
    safe = np.where(expected == 0, 1.0, expected)
    return np.where(expected == 0, 0.0, 1 - (n - 1) * observed / safe)


def _defined(interval: significance.Interval) -> tuple[float, float]:
    """The bounds of an interval whose figure is defined on every resample."""
    bounds = interval.bounds
    assert bounds is not None, "alpha_of_sums is defined on every resample"
    return bounds


def rating_alpha(units: Sequence[Sequence[int | None]], level: RatingLevel) -> float:
    """Krippendorff's alpha of 1-5 ratings (``units[u]``: each annotator's rating of
    target u, None when missing) at ``level``. ValueError when no target has two ratings
    or every rating is the same (alpha is undefined), never a NaN.

    >>> round(rating_alpha([[1, 2], [3, 3], [4, 5]], "interval"), 6)  # 1 - 5 * 4 / 120
    0.833333
    """
    sums = coincidence_rows(units).sum(axis=0, keepdims=True)
    if not sums.any():
        raise ValueError("no target has two ratings (alpha needs pairable values)")
    if np.count_nonzero(sums.reshape(len(SCALE), -1).sum(axis=1)) < 2:
        raise ValueError("every rating is the same (expected disagreement 0, alpha is undefined)")
    return float(alpha_of_sums(sums, level)[0])


@dataclass(frozen=True)
class RatingAgreement:
    """Alpha at both levels over ``units`` rated targets (``pairable`` of them with two
    ratings or more), with percentile bootstrap intervals over the targets when there
    were at least two pairable ones (None otherwise)."""

    units: int
    pairable: int
    alpha: dict[str, float]
    intervals: dict[str, tuple[float, float]] | None
    resamples: int
    seed: int
    confidence: float

    def to_json(self) -> dict[str, object]:
        return {
            "units": self.units,
            "pairable": self.pairable,
            "alpha": dict(self.alpha),
            "intervals": None
            if self.intervals is None
            else {name: list(bounds) for name, bounds in self.intervals.items()},
            "resamples": self.resamples,
            "seed": self.seed,
            "confidence": self.confidence,
        }


def rating_agreement(
    units: Sequence[Sequence[int | None]],
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> RatingAgreement:
    """Ordinal and interval alpha of the ratings, and their bootstrap intervals over
    the pairable targets (:func:`scoring.significance.bootstrap_intervals`, seeded)."""
    rows = coincidence_rows(units)
    alpha: dict[str, float] = {level: rating_alpha(units, level) for level in LEVELS}
    pairable = [index for index, row in enumerate(rows) if row.any()]
    intervals: dict[str, tuple[float, float]] | None = None
    if len(pairable) >= 2:
        found = significance.bootstrap_intervals(
            rows[pairable],
            {level: _corpus(level) for level in LEVELS},
            resamples=resamples,
            seed=seed,
            confidence=confidence,
        )
        # alpha_of_sums is 0 (never undefined) where the expected disagreement is 0
        intervals = {level: _defined(found[level]) for level in LEVELS}
    return RatingAgreement(len(units), len(pairable), alpha, intervals, resamples, seed, confidence)


def _corpus(level: RatingLevel) -> significance.Corpus:
    return lambda sums: alpha_of_sums(sums, level)
