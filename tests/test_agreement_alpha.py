"""Krippendorff's alpha on substitution answers: the closed form from value
counts, the indicator view and MASI alpha, on hand-computed cases and against the
``krippendorff`` package, NLTK's ``AnnotationTask`` and a brute-force reference."""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import krippendorff
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import jaccard_distance as nltk_jaccard
from nltk.metrics.distance import masi_distance as nltk_masi

from scoring.agreement import (
    alpha_from_counts,
    indicator_alpha,
    indicator_counts,
    masi_alpha,
    masi_distance,
    nominal_alpha,
)
from scoring.agreement.alpha import SetDistance, package_alpha, set_alpha, set_pair_counts
from scoring.formats.annotators import Item
from scoring.types import Answer


def item(instance: str, *answers: str) -> Item:
    """An item whose annotators 1, 2, ... gave the answers ("a b" is {a, b}; "" nil)."""
    return Item(
        "w.n",
        instance,
        tuple(
            Answer(str(k), "substitutes" if text else "nil", frozenset(text.split()))
            for k, text in enumerate(answers, start=1)
        ),
    )


# --- the closed form from value counts ------------------------------------------------------


def test_krippendorff_worked_example_from_counts() -> None:
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", 4 observers x 12
    # units, nominal alpha 0.743: the same data as value counts (columns values 1..5).
    rows = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    counts = [[[r[u] for r in rows].count(v) for v in range(1, 6)] for u in range(12)]
    assert round(alpha_from_counts(counts), 3) == 0.743
    units = [[r[u] for r in rows] for u in range(12)]
    assert math.isclose(alpha_from_counts(counts), nominal_alpha(units), abs_tol=1e-12)
    assert math.isclose(alpha_from_counts(counts), package_alpha(counts), abs_tol=1e-12)


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([[1, 0], [0, 1]], "no unit has two values"),
        ([[2, 0], [3, 0], [1, 0]], "every value is the same"),
        ([[1, -1]], "a negative value count"),
        ([[0.5, 1.5]], "value counts of type float64"),
        ([1, 2], r"value counts of shape \(2,\)"),
    ],
)
def test_counts_preconditions(counts: Any, message: str) -> None:
    for alpha in (alpha_from_counts, package_alpha):
        with pytest.raises(ValueError, match=message):
            alpha(counts)


@pytest.mark.parametrize("seed", range(30))
def test_closed_form_matches_the_package(seed: int) -> None:
    rng = random.Random(seed)
    width = rng.randint(2, 5)
    counts = [
        [rng.choice([0, 0, 1, 2, 3]) for _ in range(width)] for _ in range(rng.randint(1, 40))
    ]
    if seed == 15:  # the one undefined draw: both refuse it, for the same reason
        for alpha in (alpha_from_counts, package_alpha):
            with pytest.raises(ValueError, match="every value is the same"):
                alpha(counts)
        return
    ours = alpha_from_counts(counts)
    direct = krippendorff.alpha(value_counts=np.array(counts), level_of_measurement="nominal")
    assert math.isclose(ours, float(direct), abs_tol=1e-9)


# --- indicator alpha ------------------------------------------------------------------------

# A: {a}, {a}, {a, b}; B: {c}, {d}, nil; C: {e} alone (not pairable).
INDICATOR = [item("A", "a", "a", "a b"), item("B", "c", "d", ""), item("C", "e")]


def test_indicator_counts_and_hand_computed_alpha() -> None:
    # Units (gave, answered but did not give): A-a (3, 0), A-b (1, 2), B-c (1, 1),
    # B-d (1, 1), C-e (1, 0); the nil of B is missing, not a "no".
    counts = indicator_counts(INDICATOR)
    assert counts.tolist() == [[3, 0], [1, 2], [1, 1], [1, 1], [1, 0]]
    # C-e is not pairable. n = 3 + 3 + 2 + 2 = 10, yes 6, no 4. Within units:
    # (m² - Σ n_uc²) / (m - 1): A-a (9 - 9) / 2 = 0, A-b (9 - 5) / 2 = 2, B-c and B-d
    # (4 - 2) / 1 = 2 each: 6. alpha = 1 - (n - 1) · 6 / (n² - 36 - 16) = 1 - 54/48.
    assert indicator_alpha(INDICATOR) == pytest.approx(-1 / 8, abs=1e-12)
    assert alpha_from_counts(counts) == pytest.approx(-1 / 8, abs=1e-12)


def test_indicator_alpha_needs_a_no() -> None:
    # Complete agreement gives only "yes" values: no expected disagreement, no alpha.
    items = [item("1", "a b", "a b"), item("2", "c", "c", "c"), item("3", "d", "")]
    with pytest.raises(ValueError, match="every value is the same"):
        indicator_alpha(items)
    # Add {e} against {f}: units e (1, 1) and f (1, 1); with a (2, 0), b (2, 0),
    # c (3, 0) (d is not pairable): n = 11, yes 9, no 2; within units 2 + 2 = 4;
    # alpha = 1 - 10 · 4 / (121 - 81 - 4) = 1 - 40/36 = -1/9.
    items.append(item("4", "e", "f"))
    assert indicator_alpha(items) == pytest.approx(-1 / 9, abs=1e-12)


# --- MASI -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "distance"),
    [
        ("a", "a", Fraction(0)),  # J 1, M 1
        ("a b", "a b c d", Fraction(2, 3)),  # J 1/2, M 2/3 (NLTK's doctest)
        ("a", "a b", Fraction(2, 3)),  # J 1/2, M 2/3
        ("a b", "b c", Fraction(8, 9)),  # J 1/3, M 1/3
        ("a b c", "a b d", Fraction(5, 6)),  # J 2/4, M 1/3
        ("a", "b", Fraction(1)),  # J 0
    ],
)
def test_masi_distance(first: str, second: str, distance: Fraction) -> None:
    one, two = frozenset(first.split()), frozenset(second.split())
    assert masi_distance(one, two) == pytest.approx(float(distance), abs=1e-15)
    assert masi_distance(two, one) == masi_distance(one, two) == nltk_masi(one, two)


def test_masi_distance_refuses_empty_sets() -> None:
    with pytest.raises(ValueError, match="non-empty sets"):
        masi_distance(frozenset(), frozenset({"a"}))


# A: {a}, {a}, {a, b}; B: {c}, {d}.
MASI_ITEMS = [item("A", "a", "a", "a b"), item("B", "c", "d")]


def test_hand_computed_masi_alpha() -> None:
    # Values {a}, {a}, {a, b}, {c}, {d}: n = 5. d({a}, {a, b}) = 1 - (1/2)(2/3) = 2/3;
    # disjoint sets 1. D_o: A has 2 ordered pairs at 0 and 4 at 2/3, over m - 1 = 2:
    # 4/3; B has 2 at 1, over 1: 2; D_o = (4/3 + 2) / 5 = 2/3. D_e: of the 10 unordered
    # pairs, {a}-{a} is 0, {a}-{a, b} twice 2/3, the other 7 are 1: 2 (7 + 4/3) / 20 =
    # 5/6. alpha = 1 - (2/3) / (5/6) = 1/5.
    assert masi_alpha(MASI_ITEMS) == pytest.approx(0.2, abs=1e-12)
    counts = set_pair_counts(MASI_ITEMS)
    assert counts.n == 5
    assert counts.observed == {(3, 1, 1, 1): 2, (3, 1, 2, 1): 4, (2, 1, 1, 0): 2}
    # ordered pairs (|A|, |B|, |A and B|): {a}{a} 2; {a}{a, b} 4; disjoint singletons
    # ({a}{c}, {a}{d} twice, {c}{d}) 10; {a, b} with {c}, {d} 4: 20 = n (n - 1).
    assert counts.expected == {(1, 1, 1): 2, (1, 2, 1): 4, (1, 1, 0): 10, (1, 2, 0): 4}
    # one counting pass serves any distance: Jaccard d({a}, {a, b}) = 1/2:
    # D_o = (4 · 1/2 / 2 + 2) / 5 = 3/5, D_e = 2 (7 + 1) / 20 = 4/5, alpha = 1/4
    assert set_alpha(counts) == masi_alpha(MASI_ITEMS)
    assert set_alpha(counts, nltk_jaccard) == pytest.approx(0.25, abs=1e-12)


def test_masi_alpha_preconditions() -> None:
    with pytest.raises(ValueError, match="T is empty"):
        masi_alpha([item("1", "a", ""), item("2", "b")])
    with pytest.raises(ValueError, match="expected disagreement 0"):
        masi_alpha([item("1", "a b", "a b"), item("2", "a b", "a b", "")])
    many = " ".join(f"s{k}" for k in range(17))
    with pytest.raises(ValueError, match=r"an answer of 17 substitutes .* at most 16"):
        masi_alpha([item("1", many, "a")])


def random_items(seed: int, vocabulary: str = "abcdef", most: int = 3) -> list[Item]:
    rng = random.Random(seed)
    return [
        item(
            str(u),
            *(
                " ".join(rng.sample(vocabulary, rng.randint(0, most)))
                for _ in range(rng.randint(1, 6))
            ),
        )
        for u in range(rng.randint(2, 14))
    ]


def brute_force_alpha(items: list[Item], distance: SetDistance) -> float:
    """Alpha by definition: every ordered pair of values, O(n²)."""
    values: list[frozenset[str]] = []
    observed = 0.0
    for one in items:
        answers = one.answers
        if len(answers) < 2:
            continue
        values += answers
        observed += sum(
            distance(x, y) for i, x in enumerate(answers) for j, y in enumerate(answers) if i != j
        ) / (len(answers) - 1)
    n = len(values)
    expected = sum(
        distance(x, y) for i, x in enumerate(values) for j, y in enumerate(values) if i != j
    ) / (n * (n - 1))
    return 1 - observed / n / expected


def nltk_alpha(items: list[Item], distance: SetDistance) -> float:
    data = [
        (r.annotator, one.id, r.substitutes)
        for one in items
        if one.in_t
        for r in one.responses
        if r.substitutes
    ]
    return float(AnnotationTask(data, distance=distance).alpha())


def package_masi_alpha(items: list[Item]) -> float:
    """``krippendorff.alpha`` on value counts over the distinct sets, with MASI as its
    callable metric (the package indexes a distance matrix by value position)."""
    pairable = [one.answers for one in items if one.in_t]
    domain = sorted({v for answers in pairable for v in answers}, key=sorted)
    position = {v: k for k, v in enumerate(domain)}
    counts = np.zeros((len(pairable), len(domain)), dtype=np.int64)
    for u, answers in enumerate(pairable):
        for v in answers:
            counts[u, position[v]] += 1
    matrix = np.array([[masi_distance(x, y) for y in domain] for x in domain])

    def metric(
        v1: Any,
        v2: Any,
        i1: npt.NDArray[np.int_],
        i2: npt.NDArray[np.int_],
        n_v: Any,
        dtype: Any = np.float64,
    ) -> Any:
        return matrix[i1, i2].astype(dtype)

    return float(krippendorff.alpha(value_counts=counts, level_of_measurement=metric))


def test_hand_case_against_the_references() -> None:
    for reference in (
        brute_force_alpha(MASI_ITEMS, masi_distance),
        nltk_alpha(MASI_ITEMS, nltk_masi),
        package_masi_alpha(MASI_ITEMS),
    ):
        assert reference == pytest.approx(0.2, abs=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_masi_alpha_matches_nltk_package_and_brute_force(seed: int) -> None:
    items = random_items(seed)
    ours = masi_alpha(items)  # defined for every seed here: a refusal fails the test
    assert math.isclose(ours, brute_force_alpha(items, masi_distance), abs_tol=1e-9)
    assert math.isclose(ours, package_masi_alpha(items), abs_tol=1e-9)
    # NLTK's masi_distance is Passonneau's (1, 2/3, 1/3, 0): passed to ours and to NLTK
    assert math.isclose(masi_alpha(items, nltk_masi), nltk_alpha(items, nltk_masi), abs_tol=1e-9)
    assert math.isclose(ours, nltk_alpha(items, nltk_masi), abs_tol=1e-9)
    assert math.isclose(
        masi_alpha(items, nltk_jaccard), nltk_alpha(items, nltk_jaccard), abs_tol=1e-9
    )


@pytest.mark.parametrize("seed", range(10))
def test_expected_pair_counts_match_enumeration(seed: int) -> None:
    # larger sets (up to 5 substitutes) from a small vocabulary: many overlaps
    items = random_items(seed, "abcdefg", most=5)
    counts = set_pair_counts(items)
    values = [v for one in items if one.in_t for v in one.answers]
    enumerated = Counter(
        (min(len(x), len(y)), max(len(x), len(y)), len(x & y))
        for i, x in enumerate(values)
        for j, y in enumerate(values)
        if i != j
    )
    assert counts.expected == dict(enumerated)
    assert sum(counts.expected.values()) == counts.n * (counts.n - 1)


def nominal_set_distance(first: frozenset[str], second: frozenset[str]) -> float:
    return 0.0 if first == second else 1.0


@pytest.mark.parametrize("seed", range(10))
def test_nominal_distance_on_sets_is_nominal_alpha(seed: int) -> None:
    items = random_items(seed, "abc")
    units: list[list[frozenset[str] | None]] = [list(one.answers) for one in items]
    expected = nominal_alpha(units)
    assert math.isclose(masi_alpha(items, nominal_set_distance), expected, abs_tol=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_indicator_alpha_matches_nominal_alpha_on_indicators(seed: int) -> None:
    items = random_items(seed)
    units: list[list[bool | None]] = [
        [s in r.substitutes if r.substitutes else None for r in one.responses]
        for one in items
        for s in sorted({s for a in one.answers for s in a})
    ]
    expected = nominal_alpha(units)
    assert math.isclose(indicator_alpha(items), expected, abs_tol=1e-9)
    assert math.isclose(alpha_from_counts(indicator_counts(items)), expected, abs_tol=1e-9)


# --- hypothesis: no order matters ----------------------------------------------------------

ANSWER = st.frozensets(st.sampled_from("abcde"), max_size=3)


@given(
    st.lists(st.lists(ANSWER, min_size=1, max_size=5), min_size=1, max_size=8),
    st.randoms(use_true_random=False),
)
def test_permutations_change_no_alpha(rows: list[list[frozenset[str]]], rng: random.Random) -> None:
    items = [item(str(u), *(" ".join(sorted(a)) for a in row)) for u, row in enumerate(rows)]
    shuffled = [
        item(str(u), *rng.sample([" ".join(sorted(a)) for a in row], len(row)))
        for u, row in enumerate(rows)
    ]
    rng.shuffle(shuffled)
    measures: list[Callable[[list[Item]], float]] = [
        masi_alpha,
        lambda i: alpha_from_counts(indicator_counts(i)),
    ]
    for measure in measures:
        try:
            value = measure(items)
        except ValueError as error:
            with pytest.raises(ValueError, match=re.escape(str(error))):
                measure(shuffled)
            continue
        assert measure(shuffled) == value  # exact: sums of integer counts
        assert value <= 1 + 1e-12
    if any(one.in_t for one in items):
        assert set_pair_counts(items) == set_pair_counts(shuffled)
