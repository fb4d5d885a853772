"""Krippendorff's alpha for interval and ratio data, exactly.

alpha = 1 - D_o / D_e in the coincidence-matrix form of Krippendorff, "Computing
Krippendorff's alpha-reliability" (2011), as :mod:`scoring.agreement.alpha` writes the
nominal and ordinal levels: a unit with m_u ≥ 2 values contributes the coincidences
o_ck = Σ_u (ordered pairs of values c, k in u) / (m_u - 1), n_c = Σ_k o_ck, n = Σ_c n_c,
and

    alpha = 1 - (n - 1) Σ_{c,k} o_ck δ²_ck / Σ_{c,k} n_c n_k δ²_ck

with the interval difference δ²_ck = (c - k)² and the ratio difference
δ²_ck = ((c - k) / (c + k))² (Krippendorff 2011, the metric differences; a ratio scale has
an absolute zero, so its values are ≥ 0, and two zeros are 0 apart). The sums are of
:class:`fractions.Fraction` (a float value is read exactly), so the figure is exact and does
not depend on the order of the units or of the annotators. ``krippendorff.alpha(
reliability_data=…, level_of_measurement="interval" | "ratio")`` gives the same number
(the tests compare them).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations
from typing import Literal, get_args

Level = Literal["interval", "ratio"]
Number = int | float | Fraction


def _value(value: Number, level: Level) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise ValueError(f"value {value!r} is not a number (interval and ratio data are numbers)")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"value {value!r} is not finite (a missing value is None)")
    exact = Fraction(value)
    if level == "ratio" and exact < 0:
        raise ValueError(f"value {value!r} is negative (ratio data are ≥ 0: the scale has a zero)")
    return exact


def difference(c: Fraction, k: Fraction, level: Level) -> Fraction:
    """δ²_ck of Krippendorff (2011): (c - k)² (interval), ((c - k) / (c + k))² (ratio; 0
    when c = k = 0)."""
    if level == "interval":
        return (c - k) ** 2
    if c + k == 0:
        return Fraction(0)
    return ((c - k) / (c + k)) ** 2


def _squares(values: Sequence[Fraction]) -> Fraction:
    """Σ over ordered pairs i ≠ j of (v_i - v_j)² = 2 m Σ v² - 2 (Σ v)²."""
    total = sum(values, Fraction(0))
    return 2 * len(values) * sum((v * v for v in values), Fraction(0)) - 2 * total * total


def metric_alpha_exact(units: Iterable[Sequence[Number | None]], level: Level) -> Fraction:
    """Krippendorff's alpha at the ``interval`` or ``ratio`` level: ``units[u]`` holds each
    annotator's value for unit u (None when missing; the rows may differ in length). Units
    with fewer than two values are not pairable and drop out. ValueError for a value that
    is not a finite number (or negative, at the ratio level), when no unit is pairable, or
    when the expected disagreement is 0 (every pairable value the same)."""
    if level not in get_args(Level):
        raise ValueError(f"level {level!r} (one of {', '.join(get_args(Level))})")
    observed = Fraction(0)
    pooled: Counter[Fraction] = Counter()
    for unit in units:
        values = [_value(v, level) for v in unit if v is not None]
        m = len(values)
        if m < 2:
            continue
        pooled.update(values)
        if level == "interval":
            within = _squares(values)
        else:  # each unordered pair twice: (c, k) and (k, c)
            within = 2 * sum(
                (difference(c, k, level) for c, k in combinations(values, 2)), Fraction(0)
            )
        observed += within / (m - 1)
    n = sum(pooled.values())
    if n == 0:
        raise ValueError("no unit has two values (alpha needs pairable values)")
    if level == "interval":
        expected = _squares(list(pooled.elements()))
    else:
        expected = 2 * sum(
            (
                pooled[c] * pooled[k] * difference(c, k, level)
                for c, k in combinations(sorted(pooled), 2)
            ),
            Fraction(0),
        )
    if expected == 0:
        raise ValueError("every value is the same (expected disagreement 0, alpha is undefined)")
    return 1 - (n - 1) * observed / expected


def interval_alpha(units: Iterable[Sequence[Number | None]]) -> float:
    """Krippendorff's alpha for interval data (δ²_ck = (c - k)²), as a float: see
    :func:`metric_alpha_exact`."""
    return float(metric_alpha_exact(units, "interval"))


def ratio_alpha(units: Iterable[Sequence[Number | None]]) -> float:
    """Krippendorff's alpha for ratio data (δ²_ck = ((c - k) / (c + k))²), as a float: see
    :func:`metric_alpha_exact`."""
    return float(metric_alpha_exact(units, "ratio"))
