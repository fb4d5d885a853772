"""Multi-valued alpha (Krippendorff & Craggs 2016): the paper's published examples, a
case computed by hand, the expected disagreement against a brute-force enumeration of
every pair of sets, and the view of substitution answers."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.agreement import Item, Response
from scoring.agreement.multivalued import (
    expected_weights,
    multivalued_alpha,
    multivalued_alpha_exact,
    set_difference,
    substitute_multivalued_alpha,
    substitute_sets,
)
from tests.conftest import shared_path

Units = list[list[frozenset[str] | None]]


def coded(*rows: str) -> Units:
    """Units from rows of annotators' codes: "bd" is {b, d}, "-" the empty set, "." not
    coded."""
    return [
        [
            None if cell == "." else frozenset() if cell == "-" else frozenset(cell)
            for cell in row.split()
        ]
        for row in rows
    ]


# Krippendorff & Craggs (2016): their examples (units as rows, observers as columns) and the
# figures they publish, as the R package mvalpha ships them.
PUBLISHED = {
    "3": (coded("bd d .", "abd b bd", "- a a", "a . ."), 0.2866),
    "8a": (coded("a a a", "abd abd abde", "d d d"), 0.947),
    "8b": (coded("a a a", "ab ab abd", "d d d"), 0.923),
    "8c": (coded("a a a", "b b bd", "d d d"), 0.895),
    "9a": (coded("a a a", "ab ad bd", "d d d"), 0.716),
    "9b": (coded("a a a", "ab de f", "d d d"), 0.554),
    "9c": (coded("a b ab", "ab de f", "bd d be"), -0.002),
}


@pytest.mark.parametrize("table", sorted(PUBLISHED))
def test_published_examples(table: str) -> None:
    units, figure = PUBLISHED[table]
    digits = len(str(figure).split(".")[1])
    assert round(multivalued_alpha(units), digits) == figure


def test_table_3_exactly() -> None:
    # Worked by hand. Pairable units: U1 {b,d},{d} (m=2); U2 {a,b,d},{b},{b,d} (m=3);
    # U3 {},{a},{a} (m=3); U4 has one set and drops out. n = 8.
    # Observed: U1 2·δ({b,d},{d}) = 2·(1 - 2/3) = 2/3; U2 2·[δ(abd,b) + δ(abd,bd) + δ(b,bd)]/2
    # = (1/2 + 1/5 + 1/3) = 31/30; U3 2·[1 + 1 + 0]/2 = 2. Σ = 2/3 + 31/30 + 2 = 37/10,
    # mvD_o = 37/80.
    # Expected: values a, b, d occur 3, 3, 4 times in the pairable sets; sizes: one empty
    # set, four of 1, two of 2, one of 3 (P = 1/8, 4/8, 2/8, 1/8); the enumeration of every
    # pair of sets gives mvD_e = 1141/1760, so mvalpha = 1 - (37/80)/(1141/1760) = 327/1141
    # (0.28659..., the paper's 0.2866).
    units, _ = PUBLISHED["3"]
    assert observed(units) == Fraction(37, 80)
    assert brute_force_expected(units) == Fraction(1141, 1760)
    assert multivalued_alpha_exact(units) == Fraction(327, 1141)


def test_set_difference() -> None:
    assert set_difference(frozenset(), frozenset()) == 0
    assert set_difference(frozenset(), frozenset("a")) == 1
    assert set_difference(frozenset("ab"), frozenset("a")) == Fraction(1, 3)
    assert set_difference(frozenset("ab"), frozenset("bc")) == Fraction(1, 2)
    assert set_difference(frozenset("ab"), frozenset("ab")) == 0


def brute_force_expected(units: Units) -> Fraction:
    """mvD_e by enumerating every set C of a values and K of b values of the vocabulary,
    weighted Π_{C or K} n_x Π_{C ∩ K} (n_x - 1)."""
    pooled = [
        frozenset(v)
        for unit in units
        if sum(v is not None for v in unit) >= 2
        for v in unit
        if v is not None
    ]
    n = len(pooled)
    occurrences = Counter(x for value in pooled for x in value)
    sizes = Counter(map(len, pooled))
    vocabulary = sorted(occurrences)
    total = Fraction(0)
    for a, many in sizes.items():
        for b, more in sizes.items():
            weight_sum, weighted = 0, Fraction(0)
            for first in combinations(vocabulary, a):
                for second in combinations(vocabulary, b):
                    c, k = frozenset(first), frozenset(second)
                    w = 1
                    for x in c | k:
                        w *= occurrences[x]
                    for x in c & k:
                        w *= occurrences[x] - 1
                    weight_sum += w
                    weighted += w * set_difference(c, k)
            if weight_sum:
                total += Fraction(many * more, n * n) * weighted / weight_sum
    return total


def observed(units: Units) -> Fraction:
    pairable = [[v for v in unit if v is not None] for unit in units]
    pairable = [unit for unit in pairable if len(unit) >= 2]
    n = sum(map(len, pairable))
    return (
        sum(
            (
                set_difference(c, k) / (len(unit) - 1)
                for unit in pairable
                for i, c in enumerate(unit)
                for j, k in enumerate(unit)
                if i != j
            ),
            Fraction(0),
        )
        / n
    )


sets = st.one_of(st.none(), st.frozensets(st.sampled_from("abcde"), max_size=3))


@given(st.lists(st.lists(sets, min_size=2, max_size=4), min_size=1, max_size=5))
def test_against_brute_force(units: Units) -> None:
    try:
        alpha = multivalued_alpha_exact(units)
    except ValueError:
        pairable = any(sum(v is not None for v in unit) >= 2 for unit in units)
        assert not pairable or brute_force_expected(units) == 0
        return
    assert alpha == 1 - observed(units) / brute_force_expected(units)


@given(
    st.lists(st.lists(sets, min_size=2, max_size=4), min_size=1, max_size=6),
    st.randoms(use_true_random=False),
)
def test_order_of_units_and_annotators_does_not_matter(units: Units, rng: random.Random) -> None:
    try:
        alpha = multivalued_alpha_exact(units)
    except ValueError:
        return
    shuffled = [rng.sample(unit, len(unit)) for unit in rng.sample(units, len(units))]
    assert multivalued_alpha_exact(shuffled) == alpha


def test_expected_weights_by_hand() -> None:
    # Two values occurring 2 and 1 times. Sets of one value each: C = K = {x}: 2·1 = 2;
    # C = {x}, K = {y}: 2·1 = 2; C = {y}, K = {x}: 2; C = K = {y}: 1·0 = 0. Z = 6, Y = 2.
    z, y = expected_weights([2, 1], 1)
    assert (z[1][1], y[1][1]) == (6, 2)
    assert (z[0][0], z[1][0], z[0][1]) == (1, 3, 3)


def test_refusals() -> None:
    with pytest.raises(ValueError, match="no unit has two sets"):
        multivalued_alpha(coded("a .", "b"))
    with pytest.raises(ValueError, match="expected disagreement 0"):
        multivalued_alpha(coded("a a", "a a ."))
    with pytest.raises(ValueError, match="expected disagreement 0"):
        multivalued_alpha(coded("- -", "- ."))
    with pytest.raises(ValueError, match="a set of 17 values"):
        multivalued_alpha([[frozenset(range(17)), frozenset({1})]])


# --- substitution answers -------------------------------------------------------------------


def item(instance: str, *answers: str) -> Item:
    """Annotators 1, 2, ... gave the answers ("glad happy" a set; "nil"; "name"; "." none)."""
    responses = []
    for k, text in enumerate(answers, start=1):
        if text == ".":
            continue
        if text in ("nil", "name"):
            responses.append(Response(str(k), text, frozenset()))  # type: ignore[arg-type]
        else:
            responses.append(Response(str(k), "substitutes", frozenset(text.split())))
    return Item("w.n", instance, tuple(responses))


def test_substitute_sets() -> None:
    items = [item("1", "glad happy", "glad", "nil"), item("2", "name", ".", "merry")]
    assert substitute_sets(items) == [
        [frozenset({"glad", "happy"}), frozenset({"glad"}), None],
        [None, None, frozenset({"merry"})],
    ]
    assert substitute_sets(items, nil="empty")[0][2] == frozenset()


def test_substitute_alpha_is_table_3_in_words() -> None:
    # Table 3 of Krippendorff & Craggs (2016) with words for its codes and nil for {}.
    words = {"a": "glad", "b": "happy", "d": "merry"}
    items = []
    for number, unit in enumerate(PUBLISHED["3"][0]):
        answers = [
            "." if value is None else "nil" if not value else " ".join(words[c] for c in value)
            for value in unit
        ]
        items.append(item(str(number), *answers))
    assert substitute_multivalued_alpha(items, nil="empty") == pytest.approx(327 / 1141)
    # nil as missing: the third unit loses the empty set, so it is another figure
    assert substitute_multivalued_alpha(items) == pytest.approx(
        multivalued_alpha(coded("bd d .", "abd b bd", ". a a", "a . ."))
    )


def test_split_test_gold_figures(tmp_path: Path) -> None:
    """The figures docs/agreement.md gives for the split test gold (compiled without
    normalisation or lemmatisation), beside MASI alpha on the same items."""
    from annotate.gold import CompileOptions, compile_responses, write_outputs
    from annotate.gold.split import split_gold
    from scoring.agreement import read_annotators
    from scoring.agreement.alpha import masi_alpha
    from scoring.io import read_lines

    gold = shared_path("data", "semeval2007", "test", "gold")
    split = split_gold(read_lines(gold), str(gold))
    options = CompileOptions(normalise=False, lemmatise=False)
    write_outputs(compile_responses(split.responses, options), tmp_path)
    items = read_annotators(tmp_path / "annotators.jsonl")
    assert round(substitute_multivalued_alpha(items), 3) == 0.284
    assert round(substitute_multivalued_alpha(items, nil="empty"), 3) == 0.280
    assert round(masi_alpha(items), 3) == 0.214
