"""Interval and ratio alpha: Krippendorff's (2011) worked example, a case computed by
hand, and the ``krippendorff`` package on random data with missing values (to 1e-12)."""

from __future__ import annotations

import random
from fractions import Fraction

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.agreement.metric_alpha import (
    Level,
    Number,
    interval_alpha,
    metric_alpha_exact,
    ratio_alpha,
)

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers x 12 units,
# values 1..5, None where an observer did not code the unit.
OBSERVERS: list[list[Number | None]] = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def units_of(observers: list[list[Number | None]]) -> list[list[Number | None]]:
    return [list(unit) for unit in zip(*observers, strict=True)]


def package(observers: list[list[Number | None]], level: Level) -> float:
    data = np.array([[np.nan if v is None else float(v) for v in row] for row in observers])
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level))


def test_krippendorff_worked_example() -> None:
    # the published figures: interval 0.849, ratio 0.797
    units = units_of(OBSERVERS)
    assert round(interval_alpha(units), 3) == 0.849
    assert round(ratio_alpha(units), 3) == 0.797
    assert interval_alpha(units) == pytest.approx(package(OBSERVERS, "interval"), abs=1e-12)
    assert ratio_alpha(units) == pytest.approx(package(OBSERVERS, "ratio"), abs=1e-12)


def test_hand_computed_interval_and_ratio() -> None:
    # Two units: (1, 3) and (2, 2, None). Pairable values 1, 3, 2, 2: n = 4.
    # Interval: observed Σ o_ck δ² = (2·(1-3)²)/1 + 0 = 8; expected Σ n_c n_k δ² over the
    # pooled values = 2·[(1-3)² + 2·(1-2)² + 2·(3-2)²] = 2·8 = 16 (value 2 counted twice);
    # alpha = 1 - 3·8/16 = -1/2.
    units: list[list[Number | None]] = [[1, 3], [2, 2, None]]
    assert metric_alpha_exact(units, "interval") == Fraction(-1, 2)
    # Ratio: δ²(1, 3) = (2/4)² = 1/4, δ²(1, 2) = 1/9, δ²(2, 3) = 1/25. Observed 2·1/4 = 1/2;
    # expected 2·[1/4 + 2·1/9 + 2·1/25] = 2·(225 + 200 + 72)/900 = 497/450;
    # alpha = 1 - 3·(1/2)/(497/450) = 1 - 675/497 = -178/497.
    assert metric_alpha_exact(units, "ratio") == Fraction(-178, 497)


@pytest.mark.parametrize("level", ["interval", "ratio"])
def test_random_data_with_missing_values_equal_the_package(level: Level) -> None:
    rng = random.Random(27)
    for trial in range(60):
        observers = rng.randint(2, 5)
        units = rng.randint(2, 15)
        floats = trial % 2 == 1
        rows: list[list[Number | None]] = [
            [
                None
                if rng.random() < 0.25
                else (round(rng.uniform(0, 10), 3) if floats else rng.randint(0, 6))
                for _ in range(units)
            ]
            for _ in range(observers)
        ]
        try:
            ours = metric_alpha_exact(units_of(rows), level)
        except ValueError:
            continue  # nothing pairable or one value only: the package gives NaN or raises
        assert float(ours) == pytest.approx(package(rows, level), abs=1e-12)


@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(0, 9)), min_size=2, max_size=4),
        min_size=2,
        max_size=8,
    ),
    st.sampled_from(["interval", "ratio"]),
    st.randoms(use_true_random=False),
)
def test_order_of_units_and_annotators_does_not_matter(
    units: list[list[Number | None]], level: Level, rng: random.Random
) -> None:
    try:
        alpha = metric_alpha_exact(units, level)
    except ValueError:
        return
    shuffled = [rng.sample(unit, len(unit)) for unit in rng.sample(units, len(units))]
    assert metric_alpha_exact(shuffled, level) == alpha


def test_refusals() -> None:
    with pytest.raises(ValueError, match="no unit has two values"):
        interval_alpha([[1, None], [2]])
    with pytest.raises(ValueError, match="every value is the same"):
        interval_alpha([[2, 2], [2, 2, None]])
    with pytest.raises(ValueError, match="negative"):
        ratio_alpha([[1, -2]])
    with pytest.raises(ValueError, match="not finite"):
        interval_alpha([[1.0, float("nan")]])
    with pytest.raises(ValueError, match="not a number"):
        interval_alpha([[1, "2"]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="level 'ordinal'"):
        metric_alpha_exact([[1, 2]], "ordinal")  # type: ignore[arg-type]
