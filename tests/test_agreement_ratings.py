"""Agreement on 1-5 complexity ratings: ordinal and interval alpha, hand-computed, equal
to the other implementations of the project, with seeded bootstrap intervals."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.agreement.alpha import ordinal_alpha
from scoring.agreement.metric_alpha import interval_alpha
from scoring.agreement.ratings import rating_agreement, rating_alpha

# Three targets rated twice: (1, 2), (3, 3), (4, 5). n_c = 1, 1, 2, 1, 1 (n = 6); the
# observed disagreement sums o_12 + o_21 + o_45 + o_54 = 4 pairs, each 1 apart.
HAND = [[1, 2], [3, 3], [4, 5]]


def test_interval_alpha_by_hand() -> None:
    # expected: Σ n_c n_k (c - k)² = 2 (n Σ n_c c² - (Σ n_c c)²) = 2 (6 * 64 - 18²) = 120
    assert rating_alpha(HAND, "interval") == pytest.approx(1 - 5 * 4 / 120, abs=1e-15)


def test_ordinal_alpha_by_hand() -> None:
    # δ²(1,2) = δ²(4,5) = (2 - 1)² = 1, so observed = 4; the expected sum over unordered
    # pairs n_c n_k δ²_ck is 1 + 12.5 + 16 + 25 + 4.5 + 9 + 16 + 4.5 + 12.5 + 1 = 102.
    assert rating_alpha(HAND, "ordinal") == pytest.approx(1 - 5 * 4 / 204, abs=1e-15)


def test_missing_ratings_and_single_ratings_drop_out() -> None:
    assert rating_alpha([[1, 2, None], [3, None, 3], [4, 5], [2]], "interval") == pytest.approx(
        5 / 6
    )


@pytest.mark.parametrize("seed", range(5))
def test_both_levels_equal_the_projects_other_implementations(seed: int) -> None:
    rng = random.Random(seed)
    units = [
        [rng.choice([None, 1, 2, 3, 4, 5]) for _ in range(rng.randint(2, 6))] for _ in range(30)
    ]
    assert rating_alpha(units, "interval") == pytest.approx(interval_alpha(units), abs=1e-12)
    counts = np.array([[unit.count(value) for value in range(1, 6)] for unit in units])
    assert rating_alpha(units, "ordinal") == pytest.approx(ordinal_alpha(counts), abs=1e-12)


@pytest.mark.parametrize(
    ("units", "message"),
    [
        ([[1], [2]], "no target has two ratings"),
        ([[3, 3], [3, 3]], "every rating is the same"),
        ([[1, 6]], "rating 6 is not one of 1-5"),
    ],
)
def test_undefined_alpha_is_refused(units: list[list[int]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rating_alpha(units, "interval")


def test_agreement_has_seeded_intervals_around_the_figures() -> None:
    rng = random.Random(7)
    units = [[rng.randint(1, 3) + bias for _ in range(4)] for bias in (0, 1, 2) for _ in range(10)]
    first = rating_agreement(units, resamples=200, seed=3)
    assert first == rating_agreement(units, resamples=200, seed=3)
    assert (first.units, first.pairable) == (30, 30)
    assert first.intervals is not None
    for level in ("ordinal", "interval"):
        low, high = first.intervals[level]
        assert low <= first.alpha[level] <= high
    assert first.to_json()["seed"] == 3


def test_one_pairable_target_has_no_interval() -> None:
    agreement = rating_agreement([[1, 5], [2]])
    assert agreement.intervals is None
    assert agreement.alpha["interval"] == pytest.approx(rating_alpha([[1, 5]], "interval"))


@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=2, max_size=6),
        min_size=2,
        max_size=20,
    ),
    st.randoms(use_true_random=False),
)
def test_a_permutation_of_targets_or_annotators_changes_no_alpha(
    units: list[list[int | None]], rng: random.Random
) -> None:
    try:
        figures = [rating_alpha(units, level) for level in ("ordinal", "interval")]
    except ValueError:
        return  # undefined: nothing to compare
    shuffled = [rng.sample(unit, len(unit)) for unit in rng.sample(units, len(units))]
    again = [rating_alpha(shuffled, level) for level in ("ordinal", "interval")]
    assert again == pytest.approx(figures, abs=1e-12)
