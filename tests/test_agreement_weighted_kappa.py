"""Weighted Cohen's kappa against scikit-learn's ``cohen_kappa_score`` (random and
hand-made cases, to 1e-12) and one case computed by hand, exactly."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from scoring.agreement import cohen_kappa
from scoring.agreement.weighted_kappa import Weighting, weighted_kappa, weighted_kappa_exact

SKLEARN = {"linear": "linear", "quadratic": "quadratic", "none": None}


def test_hand_computed_case() -> None:
    # Ratings of four items on 1..3: (1, 1), (2, 3), (3, 3), (1, 2). Observed o_ij (rows the
    # first annotator): o_00 = o_12 = o_22 = o_01 = 1; margins r = (2, 1, 1), c = (1, 1, 2).
    # Linear: Σ|i-j| o_ij = 2; Σ|i-j| r_i c_j = 2·1·1 + 2·2·2 + 1·1·1 + 1·1·2 + 2·1·1 + 1·1·1
    # = 2 + 8 + 1 + 2 + 2 + 1 = 16, kappa = 1 - 4·2/16 = 1/2.
    # Quadratic: Σ(i-j)² o_ij = 2; Σ(i-j)² r_i c_j = 2 + 16 + 1 + 2 + 4 + 1 = 26,
    # kappa = 1 - 4·2/26 = 9/13.
    first, second = [1, 2, 3, 1], [1, 3, 3, 2]
    assert weighted_kappa_exact(first, second, "linear") == Fraction(1, 2)
    assert weighted_kappa_exact(first, second, "quadratic") == Fraction(9, 13)
    assert weighted_kappa(first, second, "quadratic") == 9 / 13


def test_weights_are_on_ranks_not_values() -> None:
    # Categories 1, 2 and 5 are ranks 0, 1, 2: rating 1 against 5 is two steps apart, as
    # scikit-learn has it; the whole scale 1..5 given as categories makes it four steps.
    first, second = [1, 2, 5, 5], [2, 2, 5, 1]
    assert weighted_kappa(first, second) == pytest.approx(
        cohen_kappa_score(first, second, weights="linear"), abs=1e-12
    )
    scale = [1, 2, 3, 4, 5]
    assert weighted_kappa(first, second, categories=scale) == pytest.approx(
        cohen_kappa_score(first, second, weights="linear", labels=scale), abs=1e-12
    )
    assert weighted_kappa(first, second) != weighted_kappa(first, second, categories=scale)


def test_unweighted_is_cohens_kappa() -> None:
    first, second = list("aabbcacb"), list("abbbccca")
    assert weighted_kappa(first, second, "none") == pytest.approx(cohen_kappa(first, second))


@pytest.mark.parametrize("weighting", ["linear", "quadratic", "none"])
def test_random_cases_equal_scikit_learn(weighting: Weighting) -> None:
    rng = random.Random(20261127)
    for _ in range(200):
        size = rng.randint(2, 40)
        levels = rng.randint(2, 7)
        first = [rng.randint(1, levels) for _ in range(size)]
        # the second annotator mostly agrees, sometimes a step off, sometimes at random
        second = [
            min(levels, max(1, x + rng.choice((-1, 0, 0, 1))))
            if rng.random() < 0.8
            else rng.randint(1, levels)
            for x in first
        ]
        if len(set(first) | set(second)) < 2:
            continue
        ours = weighted_kappa(first, second, weighting)
        theirs = cohen_kappa_score(first, second, weights=SKLEARN[weighting])
        assert ours == pytest.approx(theirs, abs=1e-12)


@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=30),
    st.sampled_from(["linear", "quadratic"]),
)
def test_properties(pairs: list[tuple[int, int]], weighting: Weighting) -> None:
    first = [x for x, _ in pairs]
    second = [y for _, y in pairs]
    if len(set(first) | set(second)) < 2:
        with pytest.raises(ValueError, match="same category"):
            weighted_kappa_exact(first, second, weighting)
        return
    kappa = weighted_kappa_exact(first, second, weighting)
    # the annotators are interchangeable; the order of the items does not matter
    assert weighted_kappa_exact(second, first, weighting) == kappa
    assert weighted_kappa_exact(first[::-1], second[::-1], weighting) == kappa
    assert float(kappa) == pytest.approx(
        cohen_kappa_score(first, second, weights=weighting), abs=1e-12
    )


def test_refusals() -> None:
    with pytest.raises(ValueError, match="3 ratings against 2"):
        weighted_kappa([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="no items"):
        weighted_kappa([], [])
    with pytest.raises(ValueError, match="rating 7 is not one of the categories"):
        weighted_kappa([1, 7], [1, 2], categories=[1, 2, 3])
    with pytest.raises(ValueError, match="repeat a category"):
        weighted_kappa([1, 2], [1, 2], categories=[1, 2, 1])
    with pytest.raises(ValueError, match="weighting 'cubic'"):
        weighted_kappa([1, 2], [1, 2], "cubic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="same category"):
        weighted_kappa([2, 2], [2, 2])
