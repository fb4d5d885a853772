"""The revised measures of Jabbari, Hepple & Guthrie (2010): every worked example of
the slides in exact fractions, the choices made where the slides are silent, and
hypothesis properties."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.formats.gold import Gold, ItemGold, read_gold
from scoring.leaderboard.rows import Answers, gold_items, score_files, system_rows
from scoring.measures.official.items import score_item
from scoring.measures.revised.items import (
    GoldCounts,
    ItemStats,
    best_1,
    frequencies,
    new_best,
    rank,
    weighted_precision,
    weighted_recall,
)

ItemMeasure = Callable[[GoldCounts, Sequence[str]], ItemStats]

# Slide "Notational Conventions": happy (adj), H_i = {G:3, M:3, S:2, J:1, Ch:1}.
HAPPY: dict[str, int] = {"glad": 3, "merry": 3, "sunny": 2, "jovial": 1, "cheerful": 1}
G, M, S, J, CH = "glad", "merry", "sunny", "jovial", "cheerful"
X, Y, Z, V, W = "x", "y", "z", "v", "w"  # wrong answers (not in H_i)


# --- slide "Notational Conventions" ----------------------------------------------------


def test_happy_maxfreq_is_3_and_summed_count_is_10() -> None:
    freqs = frequencies(HAPPY)
    assert freqs.maxfreq == 3
    assert freqs.total == 10
    assert freqs.freq("unknown") == 0


def test_happy_has_no_mode_when_two_terms_share_the_max() -> None:
    gold = read_gold(["happy.a 1 :: glad 3;merry 3;sunny 2;jovial 1;cheerful 1;"], "fixed")
    assert gold.items["1"].mode is None


# --- slide "Best Answer Measures" ------------------------------------------------------


def test_old_best_gives_the_optimal_answer_only_3_over_10() -> None:
    """The problem the slides fix: ELS07 best divides by |H_i|^i."""
    gold = read_gold(["happy.a 1 :: glad 3;merry 3;sunny 2;jovial 1;cheerful 1;"], "fixed")
    _credit, score, _tried, _right = score_item("best", "fixed", gold.items["1"], [G])
    assert score == pytest.approx(float(Fraction(3, 10)))


@pytest.mark.parametrize(
    ("guesses", "expected"),
    [
        ([G], Fraction(1)),  # optimal answer: 1
        ([G, S], Fraction(5, 6)),  # good hedged answer: 0.83
        ([G, X], Fraction(1, 2)),  # hedged good/bad answer: 0.5
        ([J], Fraction(1, 3)),  # weak but correct answer: 0.33
    ],
)
def test_new_best_slide_examples(guesses: list[str], expected: Fraction) -> None:
    stats = new_best(HAPPY, guesses)
    assert stats.score == expected
    assert stats.denominator == 3 * len(guesses)  # maxfreq_i * |A_i|
    assert stats.attempted


@pytest.mark.parametrize(
    ("guesses", "expected"),
    [
        ([G], Fraction(1)),  # freq = maxfreq: full credit
        ([M, X], Fraction(1)),  # only the first guess counts
        ([S, G], Fraction(2, 3)),  # lesser credit for a lower count
        ([J], Fraction(1, 3)),
        ([X, G], Fraction(0)),
    ],
)
def test_best_1_is_freq_of_first_guess_over_maxfreq(guesses: list[str], expected: Fraction) -> None:
    assert best_1(HAPPY, guesses).score == expected


def test_best_1_applies_to_items_without_a_mode() -> None:
    """Unlike mode(i), best-1 credits G on happy, which has no mode."""
    assert best_1(HAPPY, [M]) == ItemStats(Fraction(3), Fraction(3), True)


# --- slide "Measures of Coverage (contd)" ----------------------------------------------


def test_all_and_only_the_correct_terms_get_p_1_r_1() -> None:
    guesses = [G, M, S, J, CH]
    assert weighted_recall(HAPPY, guesses).score == 1
    assert weighted_precision(HAPPY, guesses).score == 1


def test_all_correct_plus_five_wrong_get_r_1_p_10_over_15() -> None:
    guesses = [G, M, S, J, CH, X, Y, Z, V, W]
    assert weighted_recall(HAPPY, guesses).score == 1
    precision = weighted_precision(HAPPY, guesses)
    assert (precision.numerator, precision.denominator) == (Fraction(10), Fraction(10 + 5))
    assert precision.score == Fraction(2, 3)  # the slide's 0.66


def test_three_of_five_correct_plus_two_wrong_get_r_6_over_10_p_6_over_8() -> None:
    guesses = [G, S, J, X, Y]
    recall = weighted_recall(HAPPY, guesses)
    assert (recall.numerator, recall.denominator) == (Fraction(6), Fraction(10))
    assert recall.score == Fraction(3, 5)
    precision = weighted_precision(HAPPY, guesses)
    assert (precision.numerator, precision.denominator) == (Fraction(6), Fraction(6 + 2))
    assert precision.score == Fraction(3, 4)


def test_weighted_recall_has_no_limit_of_ten() -> None:
    many = {f"s{n}": 1 for n in range(12)}
    assert weighted_recall(many, list(many)).score == 1


@pytest.mark.parametrize(
    ("k", "expected"),
    [
        (1, Fraction(6, 8)),
        (2, Fraction(6, 10)),
        (Fraction(1, 2), Fraction(6, 7)),
    ],
)
def test_weighted_precision_penalty_k_is_per_wrong_term(
    k: Fraction | int, expected: Fraction
) -> None:
    assert weighted_precision(HAPPY, [G, S, J, X, Y], k).score == expected


@pytest.mark.parametrize("k", [0, -1, Fraction(-1, 2)])
def test_weighted_precision_refuses_a_penalty_not_above_0(k: Fraction | int) -> None:
    with pytest.raises(ValueError, match=r"k must be > 0"):
        weighted_precision(HAPPY, [G], k)


# --- slides "Measures of Ranking (contd)" ----------------------------------------------


def test_rank_first_example_is_313_over_360() -> None:
    stats = rank(HAPPY, [S, CH, M, J, G, X, Y, Z, V])
    ratios = (
        Fraction(2, 3) + Fraction(3, 6) + Fraction(6, 8) + Fraction(7, 9) + 6 * Fraction(10, 10)
    )
    assert stats.numerator == ratios
    assert stats.denominator == 10
    assert stats.score == Fraction(313, 360)
    assert round(float(stats.score), 2) == 0.87


def test_rank_second_example_is_311_over_600() -> None:
    stats = rank(HAPPY, [X, Y, S, CH, M, Z, J, V, G])
    assert stats.score == Fraction(311, 600)
    assert round(float(stats.score), 2) == 0.52


def test_rank_of_the_optimal_list_is_1() -> None:
    assert rank(HAPPY, [G, M, S, J, CH]).score == 1


def test_rank_ideal_uses_the_top_counts_of_a_large_gold() -> None:
    gold = {f"s{n:02}": 12 - n for n in range(12)}  # 12 terms: only the best 10 are ideal
    assert rank(gold, sorted(gold)[:10]).score == 1
    assert rank(gold, sorted(gold)[2:12]).score < 1


# --- choices where the slides are silent ------------------------------------------------


@pytest.mark.parametrize("measure", [new_best, best_1, weighted_recall, rank])
def test_no_guesses_is_not_attempted_and_scores_0(measure: ItemMeasure) -> None:
    stats = measure(HAPPY, [])
    assert not stats.attempted
    assert stats.score == 0


def test_no_guesses_weighted_precision_is_0_over_0_not_attempted() -> None:
    assert weighted_precision(HAPPY, []) == ItemStats(Fraction(0), Fraction(0), False)


def test_new_best_counts_a_repeated_guess_as_score_pl_does() -> None:
    assert new_best(HAPPY, [G, G, X]).score == Fraction(6, 9)


@pytest.mark.parametrize("measure", [weighted_recall, weighted_precision, rank])
def test_set_measures_count_a_repeated_guess_once_at_its_first_place(measure: ItemMeasure) -> None:
    assert measure(HAPPY, [G, S, G]) == measure(HAPPY, [G, S])
    assert measure(HAPPY, [S, G, S]) == measure(HAPPY, [S, G])
    assert rank(HAPPY, [S, G, G]) != rank(HAPPY, [G, S])  # the first place is kept


def test_rank_ignores_guesses_past_the_tenth_distinct_one() -> None:
    nine = [f"w{n}" for n in range(9)]
    # glad is the 11th guess but the 10th distinct one (w0 repeated): it counts
    assert rank(HAPPY, [*nine, "w0", G]).score == Fraction(3, 10) / 10
    assert rank(HAPPY, [*nine, X, G]) == rank(HAPPY, [*nine, X])  # the 11th: no place


@pytest.mark.parametrize("gold", [{}, {"a": 0}])
def test_an_item_without_positive_counts_is_refused(gold: dict[str, int]) -> None:
    with pytest.raises(ValueError, match=r"maxfreq_i must be positive"):
        new_best(gold, ["a"])


def test_item_gold_is_read_from_counts_with_hyphens_as_spaces() -> None:
    gold = read_gold(["run.v 1 :: run-down 2;sprint 1;"], "fixed")
    item = gold.items["1"]
    assert frequencies(item).counts == {"run down": 2, "sprint": 1}
    assert new_best(item, ["run down"]).score == 1


# --- corpus level ----------------------------------------------------------------------

GOLD_LINES = [
    "happy.a 1 :: glad 3;merry 3;sunny 2;jovial 1;cheerful 1;",
    "bright.a 2 :: clever 2;smart 1;run-down 1;",
    "bright.a 3 :: shining 4;vivid 1;",
]


def test_registry_means_over_attempted_and_over_items() -> None:
    gold = read_gold(GOLD_LINES, "fixed")
    system = "happy.a 1 :: glad;sunny\nbright.a 2 :: run-down\n"  # item 3 unanswered
    rows = score_files(gold, [("s.best", system)])[0]
    # new best: item 1 (3 + 2) / (3 * 2) = 5/6, item 2 (run-down → run down) 1/2 over 2
    assert rows.value("new_best.P") == pytest.approx(float(Fraction(4, 6)), abs=1e-15)
    assert rows.value("new_best.R") == pytest.approx(float(Fraction(4, 9)), abs=1e-15)


def test_registry_gives_none_when_nothing_is_attempted() -> None:
    rows = score_files(read_gold(GOLD_LINES, "fixed"), [("s.oot", "happy.a 1 ::: \n")])[0]
    assert rows.value("rank.P") is None
    assert rows.value("rank.R") == 0


# --- hypothesis properties -------------------------------------------------------------

TERMS = [f"t{n}" for n in range(14)]
golds = st.dictionaries(st.sampled_from(TERMS), st.integers(1, 6), min_size=1, max_size=12)
answers = st.lists(
    st.sampled_from([*TERMS, "wrong1", "wrong2", "wrong3"]), unique=True, max_size=10
)


@settings(max_examples=300)
@given(golds, answers, st.fractions(min_value=Fraction(1, 10), max_value=5))
def test_scores_lie_in_0_1_for_duplicate_free_guesses(
    gold: dict[str, int], guesses: list[str], k: Fraction
) -> None:
    for stats in (
        new_best(gold, guesses),
        best_1(gold, guesses),
        weighted_recall(gold, guesses),
        weighted_precision(gold, guesses, k),
        rank(gold, guesses),
    ):
        assert 0 <= stats.score <= 1
        assert stats.attempted == bool(guesses)


def _gold_of(items: Mapping[str, Mapping[str, int]], order: Sequence[str]) -> Gold:
    built = {}
    for item_id in order:
        counts = tuple(items[item_id].items())
        total = sum(items[item_id].values())
        norms = {key: count / total for key, count in counts}
        built[item_id] = ItemGold("w.n", counts, total, norms, None)
    return Gold("fixed", built, len(built), 0)


corpora = st.dictionaries(
    st.text("0123456789", min_size=1, max_size=3), golds, min_size=1, max_size=8
)


def _rows(
    gold: Gold, system: Mapping[str, Sequence[str]], kind: str
) -> dict[str, tuple[float, ...]]:
    answers = {item_id: Answers(guesses=tuple(guesses)) for item_id, guesses in system.items()}
    rows = system_rows(gold_items(gold), answers, "s", "best" if kind == "best" else "oot")
    columns = (
        ("new_best", "best_1")
        if kind == "best"
        else ("weighted_recall", "weighted_precision", "rank")
    )
    return {
        item_id: tuple(float(rows.columns[c][j]) for c in columns)
        for j, item_id in enumerate(rows.ids)
    }


@settings(max_examples=100)
@given(corpora, st.data())
def test_permuting_items_changes_no_item_row(
    items: dict[str, dict[str, int]], data: st.DataObject
) -> None:
    system = {item_id: data.draw(answers) for item_id in items if data.draw(st.booleans())}
    order = data.draw(st.permutations(list(items)))
    system_order = data.draw(st.permutations(list(system)))
    for kind in ("best", "oot"):
        one = _rows(_gold_of(items, list(items)), system, kind)
        two = _rows(_gold_of(items, order), {i: system[i] for i in system_order}, kind)
        assert one == two


@settings(max_examples=100)
@given(corpora, st.data())
def test_the_unique_most_frequent_substitute_scores_1(
    items: dict[str, dict[str, int]], data: st.DataObject
) -> None:
    unique: dict[str, dict[str, int]] = {}
    system: dict[str, list[str]] = {}
    for item_id, counts in items.items():
        top = data.draw(st.sampled_from(sorted(counts)))
        raised = {**counts, top: max(counts.values()) + 1}  # top is now the unique mode
        unique[item_id] = raised
        system[item_id] = [top]
    rows = _rows(_gold_of(unique, list(unique)), system, "best")
    assert all(row == (1.0, 1.0) for row in rows.values())
