"""The intervals of Krippendorff's alpha over bootstrap resamples of lemmas
(:mod:`scoring.agreement.resampled`): a case small enough to compute every resample by
hand, and on real data, every resample recomputed from the resampled items themselves."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.agreement import (
    alpha_from_counts,
    first_substitute_units,
    indicator_counts,
    masi_alpha,
    nominal_alpha,
    pairwise_agreement,
)
from scoring.agreement.report import intervals, report
from scoring.agreement.resampled import VIEWS, alpha_intervals, lemmas
from scoring.formats.annotators import Item, parse_annotators
from scoring.significance import resample_counts
from scoring.types import Answer
from tests.conftest import shared_path


def item(lexelt: str, instance: str, *answers: str) -> Item:
    """An item whose annotators 1, 2, ... gave these answers ("a b" is {a, b})."""
    return Item(
        lexelt,
        instance,
        tuple(
            Answer(str(k), "substitutes", frozenset(text.split()))
            for k, text in enumerate(answers, start=1)
        ),
    )


# Lemma A: two items on which both annotators agree, {a} and {b}. Lemma B: {c} against
# {d}, then {c} twice. Every answer is one substitute, so MASI alpha is nominal alpha:
# disjoint sets are 1 apart, equal sets 0. alpha = 1 - (n - 1) D / E with D the ordered
# pairs of different values within items (over m_u - 1 = 1), E those over all values.
TWO_LEMMAS = [
    item("a.n", "1", "a", "a"),
    item("a.n", "2", "b", "b"),
    item("b.n", "3", "c", "d"),
    item("b.n", "4", "c", "c"),
]
BY_HAND = {
    # A twice: no disagreement within items: 1
    (2, 0): 1.0,
    # A and B once: a 2, b 2, c 3, d 1, n = 8; D = 2 ({c}, {d} and back);
    # E = 8² - (4 + 4 + 9 + 1) = 46: 1 - 7 * 2 / 46 = 16/23
    (1, 1): float(Fraction(16, 23)),
    # B twice: c 6, d 2, n = 8; D = 4; E = 64 - 36 - 4 = 24: 1 - 7 * 4 / 24 = -1/6
    (0, 2): float(Fraction(-1, 6)),
}


def test_two_lemmas_by_hand() -> None:
    assert masi_alpha(TWO_LEMMAS) == pytest.approx(16 / 23, abs=1e-15)
    counts = resample_counts(2, 40, 3)
    drawn = [BY_HAND[int(row[0]), int(row[1])] for row in counts]
    assert {int(row[0]) for row in counts} == {0, 1, 2}  # every resample kind is drawn
    low, high = np.quantile(drawn, [0.025, 0.975])
    found = alpha_intervals(TWO_LEMMAS, resamples=40, seed=3)
    assert found["masi"] == pytest.approx([low, high], abs=1e-15)
    assert found["nominal_first"] == pytest.approx([low, high], abs=1e-15)


def test_one_view_s_interval_is_the_same_asked_alone() -> None:
    every = alpha_intervals(TWO_LEMMAS, resamples=40, seed=3)
    assert alpha_intervals(TWO_LEMMAS, resamples=40, seed=3, views=("masi",)) == {
        "masi": every["masi"]
    }


def test_an_alpha_undefined_on_a_resample_has_no_interval() -> None:
    # Lemma A alone gives every annotator {a}: no expected disagreement, alpha undefined.
    items = [item("a.n", "1", "a", "a"), item("b.n", "2", "a", "b"), item("b.n", "3", "b", "b")]
    assert masi_alpha(items) == pytest.approx(1 - 5 * 2 / (36 - 9 - 9))
    assert 0 in {int(row[1]) for row in resample_counts(2, 50, 1)}  # A drawn twice
    assert alpha_intervals(items, resamples=50, seed=1)["masi"] is None


def test_one_lemma_has_no_interval() -> None:
    items = [item("a.n", "1", "a", "b"), item("a.n", "2", "a", "a")]
    assert alpha_intervals(items, resamples=10, seed=1) == dict.fromkeys(VIEWS)


DIRECT: dict[str, Callable[[Sequence[Item]], float]] = {
    "nominal_first": lambda items: nominal_alpha(first_substitute_units(items)[1]),
    "indicator": lambda items: alpha_from_counts(indicator_counts(items)),
    "masi": masi_alpha,
}


def _trial_items() -> list[Item]:
    """The trial gold split into five annotators' responses and compiled."""
    from annotate.gold import CompileOptions, compile_responses
    from annotate.gold.split import split_gold
    from annotate.gold.write import annotator_lines
    from scoring.formats.text import read_lines

    gold = shared_path("data", "semeval2007", "trial", "gold.trial")
    split = split_gold(read_lines(gold), str(gold))
    compiled = compile_responses(split.responses, CompileOptions(normalise=False, lemmatise=False))
    return list(parse_annotators(list(annotator_lines(compiled)), "trial"))


def test_every_resample_is_the_alpha_of_the_resampled_items() -> None:
    """Each view's alpha on a resample, from its terms per lemma, is the alpha of the
    resampled items (each drawn lemma's items as often as drawn) to the bit; the interval
    is their percentile interval, and PA's interval comes from the same resamples."""
    items = _trial_items()
    groups = lemmas(items)
    assert len(groups) == 34
    counts = resample_counts(len(groups), 25, 7)
    resampled = [
        [
            one
            for group, times in zip(groups, row, strict=True)
            for _ in range(times)
            for one in group
        ]
        for row in counts
    ]
    found = alpha_intervals(items, resamples=25, seed=7)
    for name, view in VIEWS.items():
        statistic = view(groups)
        values = [DIRECT[name](drawn) for drawn in resampled]
        assert [statistic(row.astype(np.int64)) for row in counts] == values, name
        assert statistic(np.ones(len(groups), dtype=np.int64)) == DIRECT[name](items), name
        assert found[name] == list(np.quantile(values, [0.025, 0.975])), name
    pa = [pairwise_agreement(drawn) for drawn in resampled]
    assert intervals(items, resamples=25, seed=7)["PA"] == pytest.approx(
        list(np.quantile(pa, [0.025, 0.975])), abs=1e-15
    )


def test_report_json_adds_alpha_intervals_only_with_intervals() -> None:
    plain = report(TWO_LEMMAS).to_json()
    assert "alpha_intervals" not in plain["all"]
    body = report(TWO_LEMMAS, with_intervals=True, resamples=40, seed=3).to_json()
    assert list(body["all"]) == [*plain["all"], "intervals", "alpha_intervals"]
    assert body["all"]["alpha_intervals"] == alpha_intervals(TWO_LEMMAS, resamples=40, seed=3)
    assert body["n"]["alpha_intervals"] == body["all"]["alpha_intervals"]
    assert body["v"]["alpha_intervals"] == dict.fromkeys(VIEWS)  # no item: no interval


WORDS = ("glad", "merry", "content", "happy", "sad")


@st.composite
def weighted_lemmas(draw: st.DrawFn) -> tuple[list[Item], list[int]]:
    """Two to four lemmas sharing one vocabulary (so answer sets of different lemmas share
    subsets), items of up to four annotators, and a weight (times drawn) per lemma."""
    items = []
    lemmas = draw(st.integers(2, 4))
    for lemma in range(lemmas):
        for instance in range(draw(st.integers(1, 3))):
            answers = draw(
                st.lists(
                    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3, unique=True),
                    min_size=2,
                    max_size=4,
                )
            )
            items.append(item(f"w{lemma}.n", f"{lemma}-{instance}", *map(" ".join, answers)))
    return items, draw(st.lists(st.integers(0, 3), min_size=lemmas, max_size=lemmas))


@given(weighted_lemmas())
@settings(max_examples=150, deadline=None)
def test_weighted_lemmas_are_the_repeated_items(case: tuple[list[Item], list[int]]) -> None:
    items, weights = case
    groups = lemmas(items)
    repeated = [
        one for group, w in zip(groups, weights, strict=True) for _ in range(w) for one in group
    ]
    for name, view in VIEWS.items():
        statistic = view(groups)
        try:
            expected: float | str = DIRECT[name](repeated)
        except (ValueError, ZeroDivisionError) as error:
            expected = type(error).__name__
        try:
            found: float | str = statistic(np.array(weights, dtype=np.int64))
        except (ValueError, ZeroDivisionError) as error:
            found = type(error).__name__
        assert found == expected, name
