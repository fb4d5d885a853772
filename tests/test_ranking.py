"""Ranking measures (scoring.measures.ranking.items): GAP, AP, ROC AUC, P@k and R@k on hand-worked
examples in exact fractions, the choices a GAP implementation must make (ties, duplicates,
candidates outside the gold, unranked gold substitutes, undefined items), the ranked-
candidates file format, and context2vec's real oot output scored as a ranking."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import FormatError
from scoring.formats.gold import Gold, ItemGold, read_gold
from scoring.formats.ranked import (
    RankingLine,
    Scored,
    format_ranking_line,
    parse_ranking_line,
    rankings_of,
    read_ranking,
)
from scoring.formats.system import read_system, read_system_ranking, system_rankings
from scoring.formats.text import read_lines
from scoring.leaderboard.rows import Answers, SystemRows, gold_items, score_files, system_rows
from scoring.measures.ranking.items import (
    ItemRanking,
    average_precision,
    gap,
    precision_at,
    rank_order,
    recall_at,
    roc_auc,
)
from tests.conftest import shared_path

ItemMeasure = Callable[[Mapping[str, int], Sequence[Scored]], ItemRanking]

GOLD = {"a": 3, "b": 2, "c": 1}
# The ideal ranking a, b, c: ȳ = 3, 5/2, 6/3, so the GAP denominator is 3 + 5/2 + 2 = 15/2.
IDEAL = Fraction(15, 2)


def ranked(*candidates: str) -> list[Scored]:
    """Candidates in rank order (scores n, n-1, …, 1)."""
    return [Scored(c, float(len(candidates) - i)) for i, c in enumerate(candidates)]


def scored(*pairs: tuple[str, float]) -> list[Scored]:
    return [Scored(c, s) for c, s in pairs]


# --- GAP -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "expected"),
    [
        # perfect: numerator 3/1 + 5/2 + 6/3 = 15/2 = the ideal
        (ranked("a", "b", "c"), Fraction(1)),
        # reversed: p_1 = 1/1, p_2 = 3/2, p_3 = 6/3 → 9/2 / (15/2)
        (ranked("c", "b", "a"), Fraction(3, 5)),
        # x is not in the gold (weight 0, I = 0): 3/1 + 5/3 + 6/4 = 37/6 → 37/45
        (ranked("a", "x", "b", "c"), Fraction(37, 45)),
        # b and c never ranked: still in the ideal denominator → 3 / (15/2)
        (ranked("a"), Fraction(2, 5)),
        (ranked("b"), Fraction(4, 15)),
        # only wrong candidates
        (ranked("x", "y"), Fraction(0)),
        # scores, not the order given, rank: a 0.9, b 0.5, c 0.1 is perfect
        (scored(("c", 0.1), ("a", 0.9), ("b", 0.5)), Fraction(1)),
    ],
)
def test_gap_hand_computed(ranking: list[Scored], expected: Fraction) -> None:
    result = gap(GOLD, ranking)
    assert result == ItemRanking(expected, True, True)


def test_gap_duplicates_keep_the_first_highest_scored_occurrence() -> None:
    # a at 0.9 and again at 0.7: kept once at 0.9 → a, x, b: 3/1 + 5/3 = 14/3 → 28/45
    assert (
        gap(GOLD, scored(("a", 0.9), ("x", 0.8), ("a", 0.7), ("b", 0.6))).value
        == Fraction(14, 3) / IDEAL
        == Fraction(28, 45)
    )
    # the later occurrence has the higher score: a is ranked at 0.95, before x
    assert gap(GOLD, scored(("x", 0.8), ("a", 0.7), ("a", 0.95))).value == Fraction(2, 5)
    # a repeated at the next place is dropped, not counted again: a, b → (3 + 5/2) / (15/2)
    assert (
        gap(GOLD, ranked("a", "a", "b")).value
        == gap(GOLD, ranked("a", "b")).value
        == Fraction(11, 2) / IDEAL
    )


def test_gap_ties_are_broken_by_the_order_given_not_alphabetically() -> None:
    # x and a tie at 0.5: x first as given → p_2 = 3/2 → (3/2) / (15/2) = 1/5
    assert gap(GOLD, scored(("x", 0.5), ("a", 0.5))).value == Fraction(1, 5)
    # given the other way round: a first → 3 / (15/2) = 2/5
    assert gap(GOLD, scored(("a", 0.5), ("x", 0.5))).value == Fraction(2, 5)
    assert [s.candidate for s in rank_order(scored(("x", 0.5), ("b", 0.7), ("a", 0.5)))] == [
        "b",
        "x",
        "a",
    ]


def test_gap_zero_count_gold_key_is_irrelevant() -> None:
    # z has count 0: weight 0; ideal is a alone (2) → z, a: p_2 = 2/2 → 1/2
    assert gap({"a": 2, "z": 0}, ranked("z", "a")).value == Fraction(1, 2)


def test_gap_empty_ranking_is_defined_zero_not_attempted() -> None:
    assert gap(GOLD, []) == ItemRanking(Fraction(0), True, False)


@pytest.mark.parametrize("measure", [gap, average_precision, roc_auc])
def test_empty_gold_is_undefined_never_nan(measure: ItemMeasure) -> None:
    assert measure({}, ranked("a")) == ItemRanking(Fraction(0), False, True)
    assert measure({"a": 0}, ranked("a")) == ItemRanking(Fraction(0), False, True)


def test_negative_gold_count_is_refused() -> None:
    with pytest.raises(ValueError, match="counts must be 0 or more"):
        gap({"a": -1, "b": 2}, ranked("a"))


def reference_gap(gold: Mapping[str, int], ranking: Sequence[Scored]) -> Fraction:
    """Kishida's GAP written out directly: dedupe by best score, stable sort, sums."""
    best: dict[str, tuple[float, int]] = {}
    for position, item in enumerate(ranking):
        if item.candidate not in best or item.score > best[item.candidate][0]:
            best[item.candidate] = (item.score, position)
    order = sorted(best, key=lambda c: (-best[c][0], best[c][1]))
    x = [Fraction(gold.get(c, 0)) for c in order]
    numerator = sum(
        (sum(x[: i + 1], Fraction(0)) / (i + 1) for i in range(len(x)) if x[i] > 0), Fraction(0)
    )
    y = sorted((Fraction(v) for v in gold.values() if v > 0), reverse=True)
    denominator = sum((sum(y[: j + 1], Fraction(0)) / (j + 1) for j in range(len(y))), Fraction(0))
    return numerator / denominator


TERMS = [f"t{n}" for n in range(8)]
golds = st.dictionaries(st.sampled_from(TERMS), st.integers(1, 5), min_size=1, max_size=8)
rankings = st.lists(
    st.builds(
        Scored,
        st.sampled_from([*TERMS, "w1", "w2", "w3"]),
        st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0]),
    ),
    max_size=14,
)


@settings(max_examples=300)
@given(golds, rankings)
def test_gap_matches_the_reference_and_lies_in_0_1(
    gold: dict[str, int], ranking: list[Scored]
) -> None:
    value = gap(gold, ranking).value
    assert value == reference_gap(gold, ranking)
    assert 0 <= value <= 1


@settings(max_examples=200)
@given(golds)
def test_ideal_ranking_scores_gap_1(gold: dict[str, int]) -> None:
    ideal = sorted(gold, key=lambda c: -gold[c])
    assert gap(gold, ranked(*ideal)).value == 1


# --- average precision -----------------------------------------------------------------


def test_average_precision_hand_computed() -> None:
    # relevant at ranks 1, 3, 6: (1/1 + 2/3 + 3/6) / 3 = 13/18
    assert average_precision(GOLD, ranked("a", "x", "b", "y", "z", "c")) == ItemRanking(
        Fraction(13, 18), True, True
    )
    # d never ranked counts in R = 4: (1/2) / 4
    assert average_precision({**GOLD, "d": 5}, ranked("x", "a")).value == Fraction(1, 8)
    # unweighted: the counts do not matter
    assert average_precision({"a": 1, "b": 9}, ranked("a", "x")).value == Fraction(1, 2)


def test_average_precision_counts_tied_scores_as_one_threshold() -> None:
    # a and x tie at 0.5, then b: one threshold {a, x} with P = 1/2, then {a, x, b}
    # with P = 2/3; AP = (1/2)(1/2 + 2/3) = 7/12 whichever of a, x is given first
    gold = {"a": 1, "b": 1}
    first = scored(("a", 0.5), ("x", 0.5), ("b", 0.1))
    second = scored(("x", 0.5), ("a", 0.5), ("b", 0.1))
    assert average_precision(gold, first).value == Fraction(7, 12)
    assert average_precision(gold, second).value == Fraction(7, 12)
    # by file order the two would be (1/1 + 2/3) / 2 = 5/6 and (1/2 + 2/3) / 2 = 7/12;
    # with every candidate tied there is one threshold: P = 2/3 for both relevant ones
    assert average_precision(gold, scored(("x", 1.0), ("a", 1.0), ("b", 1.0))).value == (
        Fraction(2, 3)
    )
    # a single relevant candidate tied with one other: 1.0 by file order, 0.5 here
    assert average_precision({"a": 1}, scored(("a", 0.5), ("x", 0.5))).value == Fraction(1, 2)
    # d is never ranked: R = 3, so (1/2)(1/2 + 2/3) becomes (1/3)(1/2 + 2/3)
    assert average_precision({**gold, "d": 2}, first).value == Fraction(7, 18)


def test_average_precision_equals_scikit_learn_with_ties() -> None:
    from sklearn.metrics import average_precision_score

    scores = [0.9, 0.8, 0.8, 0.5, 0.5, 0.1, 0.5]
    relevant = [1, 0, 1, 1, 0, 0, 1]
    gold = {str(i): 1 for i, hit in enumerate(relevant) if hit}
    ranked = [Scored(str(i), s) for i, s in enumerate(scores)]
    # thresholds 0.9, 0.8, 0.5, 0.1: h = 1, 1, 2, 0; P = 1, 2/3, 4/6: (1 + 2/3 + 2 * 4/6) / 4
    assert average_precision(gold, ranked).value == Fraction(3, 4)
    assert average_precision_score(relevant, scores) == pytest.approx(0.75, abs=1e-15)


@settings(max_examples=300)
@given(golds, rankings)
def test_average_precision_is_scikit_learns_times_the_share_of_gold_ranked(
    gold: dict[str, int], ranking: list[Scored]
) -> None:
    from sklearn.metrics import average_precision_score

    order = rank_order(ranking)
    relevant = [item.candidate in gold for item in order]
    result = average_precision(gold, ranking)
    if not any(relevant):  # nothing relevant ranked: AP 0 (scikit-learn warns and gives 0)
        assert result == ItemRanking(Fraction(0), True, bool(ranking))
        return
    # scikit-learn divides by the relevant candidates scored, AP by every gold substitute
    expected = average_precision_score(relevant, [item.score for item in order])
    assert float(result.value) == pytest.approx(expected * sum(relevant) / len(gold), abs=1e-12)


@settings(max_examples=300)
@given(st.sets(st.sampled_from(TERMS), min_size=1), st.integers(1, 7), rankings)
def test_gap_with_equal_weights_is_average_precision_without_ties(
    relevant: set[str], weight: int, ranking: list[Scored]
) -> None:
    gold = dict.fromkeys(relevant, weight)
    untied = [Scored(item.candidate, -i) for i, item in enumerate(rank_order(ranking))]
    assert gap(gold, untied) == average_precision(gold, untied)


# --- ROC AUC ---------------------------------------------------------------------------


def brute_force_auc(gold: Mapping[str, int], ranking: Sequence[Scored]) -> Fraction | None:
    """Every (positive, negative) pair: 1 if the positive scores higher, ½ if tied."""
    best: dict[str, float] = {}
    for item in ranking:
        best[item.candidate] = max(item.score, best.get(item.candidate, item.score))
    positive = [s for c, s in best.items() if gold.get(c, 0) > 0]
    negative = [s for c, s in best.items() if gold.get(c, 0) <= 0]
    if not positive or not negative:
        return None
    wins = sum(
        (
            Fraction(1) if p > n else Fraction(1, 2) if p == n else Fraction(0)
            for p in positive
            for n in negative
        ),
        Fraction(0),
    )
    return wins / (len(positive) * len(negative))


def test_roc_auc_hand_computed_with_a_tie() -> None:
    ranking = scored(("a", 0.9), ("x", 0.9), ("b", 0.5), ("y", 0.3), ("z", 0.7))
    # a: tie with x (½), beats z and y (2) → 5/2; b: beats y only → 1; 7/2 of 2·3 pairs
    assert roc_auc({"a": 2, "b": 1}, ranking) == ItemRanking(Fraction(7, 12), True, True)
    assert brute_force_auc({"a": 2, "b": 1}, ranking) == Fraction(7, 12)


def test_roc_auc_perfect_reversed_and_all_tied() -> None:
    assert roc_auc(GOLD, ranked("a", "b", "x")).value == 1
    assert roc_auc(GOLD, ranked("x", "a", "b")).value == 0
    assert roc_auc(GOLD, scored(("x", 1.0), ("a", 1.0))).value == Fraction(1, 2)


def test_roc_auc_is_undefined_without_negatives_or_positives() -> None:
    assert roc_auc(GOLD, ranked("a", "b")) == ItemRanking(Fraction(0), False, True)
    assert roc_auc(GOLD, ranked("x", "y")) == ItemRanking(Fraction(0), False, True)
    assert roc_auc(GOLD, []) == ItemRanking(Fraction(0), False, False)


def test_roc_auc_uses_the_best_score_of_a_duplicate() -> None:
    # x at 0.1 and at 0.95: x counts at 0.95 → a (0.9) loses to it → 0
    assert roc_auc(GOLD, scored(("x", 0.1), ("a", 0.9), ("x", 0.95))).value == 0


@settings(max_examples=300)
@given(golds, rankings)
def test_roc_auc_matches_the_brute_force_pair_count(
    gold: dict[str, int], ranking: list[Scored]
) -> None:
    expected = brute_force_auc(gold, ranking)
    result = roc_auc(gold, ranking)
    assert result.defined == (expected is not None)
    assert result.value == (expected if expected is not None else 0)


# --- P@k, R@k --------------------------------------------------------------------------

PK_GOLD = {"a": 3, "b": 2, "c": 1, "d": 1}
PK_RANKING = ranked("a", "x", "b", "y", "c")


@pytest.mark.parametrize(
    ("k", "precision", "recall"),
    [
        (1, Fraction(1), Fraction(1, 4)),
        (3, Fraction(2, 3), Fraction(2, 4)),
        (5, Fraction(3, 5), Fraction(3, 4)),
        (10, Fraction(3, 10), Fraction(3, 4)),  # P@k divides by k though only 5 are ranked
    ],
)
def test_precision_and_recall_at_k(k: int, precision: Fraction, recall: Fraction) -> None:
    assert precision_at(PK_GOLD, PK_RANKING, k) == ItemRanking(precision, True, True)
    assert recall_at(PK_GOLD, PK_RANKING, k) == ItemRanking(recall, True, True)


@pytest.mark.parametrize("k", [0, -1, True])
def test_k_must_be_a_positive_integer(k: int) -> None:
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        precision_at(PK_GOLD, PK_RANKING, k)
    with pytest.raises(ValueError, match="k must be an integer >= 1"):
        recall_at(PK_GOLD, PK_RANKING, k)


# --- corpus level ----------------------------------------------------------------------

GOLD_LINES = [
    "run.v 1 :: run-down 2;sprint 1;",
    "run.v 2 :: dash 3;hurry 1;",
    "run.v 3 :: jog 1;race 1;",
]


def _ranked_rows(gold: Gold, rankings: Mapping[str, Sequence[Scored]]) -> SystemRows:
    """The registry's rows of a ranked system (candidates folded as a ranked file's are)."""
    text = "".join(
        f"{gold.items[item_id].lexelt if item_id in gold.items else 'x.n'} "
        f"{item_id} :::: " + ";".join(f"{c.score!r} {c.candidate}" for c in ranking) + "\n"
        for item_id, ranking in rankings.items()
    )
    return score_files(gold, [("s.ranked", text)])[0]


def test_registry_gap_folds_hyphens_ignores_unknown_ids_and_means_over_defined() -> None:
    gold = read_gold(GOLD_LINES, "fixed")
    rankings = {
        "1": ranked("run-down", "sprint"),  # run-down folds to "run down": perfect, 1
        "2": ranked("hurry", "dash"),  # 1/1 + 4/2 = 3 over 3 + 4/2 = 5 → 3/5
        "99": ranked("x"),  # not a gold item: ignored
    }
    rows = _ranked_rows(gold, rankings)
    assert rows.columns["gap"].tolist() == [1.0, 0.6, 0.0]  # item 3 not ranked: 0
    assert rows.columns["relevant"].tolist() == [1.0, 1.0, 1.0]
    assert rows.value("gap") == pytest.approx(float(Fraction(8, 15)), abs=1e-15)


def test_registry_auc_mean_leaves_undefined_items_out() -> None:
    gold = read_gold(GOLD_LINES, "fixed")
    rankings = {"1": ranked("sprint", "x"), "2": ranked("dash", "hurry"), "3": ranked("x")}
    rows = _ranked_rows(gold, rankings)
    # item 1: 1; item 2: no negative; item 3: no positive
    assert rows.columns["auc"].tolist() == [1.0, 0.0, 0.0]
    assert rows.columns["auc_defined"].tolist() == [1.0, 0.0, 0.0]
    assert rows.value("auc") == 1.0
    nothing = _ranked_rows(gold, {"3": ranked("x")})  # no item defined: None, not NaN
    assert nothing.value("auc") is None


def _gold_of(items: Mapping[str, Mapping[str, int]], order: Sequence[str]) -> Gold:
    built = {}
    for item_id in order:
        counts = tuple(items[item_id].items())
        total = sum(items[item_id].values())
        built[item_id] = ItemGold("w.n", counts, total, {k: v / total for k, v in counts}, None)
    return Gold("fixed", built, len(built), 0)


corpora = st.dictionaries(
    st.text("0123456789", min_size=1, max_size=3), golds, min_size=1, max_size=8
)


@settings(max_examples=100)
@given(corpora, st.data())
def test_permutations_change_no_item_row(
    items: dict[str, dict[str, int]], data: st.DataObject
) -> None:
    system = {item_id: data.draw(rankings) for item_id in items if data.draw(st.booleans())}
    order = data.draw(st.permutations(list(items)))

    def rows(gold: Gold, system: Mapping[str, Sequence[Scored]]) -> dict[str, list[float]]:
        found = system_rows(
            gold_items(gold),
            {i: Answers(ranking=tuple(r)) for i, r in system.items()},
            "s",
            "ranked",
        )
        return {
            item_id: [float(column[j]) for column in found.columns.values()]
            for j, item_id in enumerate(found.ids)
        }

    one = rows(_gold_of(items, list(items)), system)
    assert one == rows(_gold_of(items, order), {i: system[i] for i in reversed(list(system))})


# --- the ranked-candidates file ---------------------------------------------------------


def test_a_line_with_multiword_candidates() -> None:
    line = parse_ranking_line("bright.a 1 :::: 0.9 very clever;-1.5e-3 smart;2 brand-new;")
    assert line == RankingLine(
        "bright.a",
        "1",
        (Scored("very clever", 0.9), Scored("smart", -0.0015), Scored("brand-new", 2.0)),
    )
    assert (
        format_ranking_line(line) == "bright.a 1 :::: 0.9 very clever;-0.0015 smart;2.0 brand-new"
    )
    assert parse_ranking_line("bright.a 1 ::::").candidates == ()
    assert format_ranking_line(RankingLine("bright.a", "1", ())) == "bright.a 1 ::::"


CANDIDATE = st.from_regex(r"[a-z'\-]{1,8}( [a-z'\-]{1,8}){0,2}", fullmatch=True)
LINES = st.builds(
    RankingLine,
    st.sampled_from(["bright.a", "stand.n.v", "run.v"]),
    st.from_regex(r"[0-9a-z]{1,5}", fullmatch=True),
    st.lists(
        st.builds(Scored, CANDIDATE, st.floats(allow_nan=False, allow_infinity=False)), max_size=6
    ).map(tuple),
)


@settings(max_examples=150)
@given(LINES)
def test_parse_format_round_trip(line: RankingLine) -> None:
    assert parse_ranking_line(format_ranking_line(line)) == line


def test_reader_reports_every_problem_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "system.ranked"
    path.write_text(
        "\n".join(
            [
                "bright.a 1 :::: 0.9 clever;0.5 smart",  # 1 fine
                "bright.a 2 :::: clever 0.9",  # 2 score must come first
                "bright.a 3 :::: nan clever",  # 3 not a decimal number
                "bright.a 4 :::: 1e999 clever",  # 4 not finite
                "bright.a 5 :::: 0.9  clever",  # 5 double space: candidate not trimmed
                "bright.a 6 ::: clever;smart",  # 6 an oot line
                "",  # 7 blank: skipped
                "bright.a 1 :::: 0.1 bright",  # 8 repeated id
                "bright 9 :::: 0.1 bright",  # 9 lexelt without pos
                "bright.a 10 :::: 0.9 clever; 0.5 smart",  # 10 space after ';'
                "bright.a 11 :::: 0.9",  # 11 no candidate
            ]
        )
        + "\n"
    )
    with pytest.raises(FormatError) as caught:
        read_ranking(path)
    problems = caught.value.problems
    where = [problem.split(": ", 1)[0] for problem in problems]
    assert where == [f"{path}:{n}" for n in (2, 3, 4, 5, 6, 8, 9, 10, 11)]
    assert "is not a decimal number" in problems[0]
    assert "not finite" in problems[2]
    assert "single-spaced" in problems[3]
    assert "read it with read_system_ranking" in problems[4]
    assert "already on line 1 (ids must be unique" in problems[5]
    assert "lemma.pos" in problems[6]
    assert "'SCORE CANDIDATE'" in problems[8]


def test_reader_reads_a_file_and_oot_readers_refuse_it(tmp_path: Path) -> None:
    path = tmp_path / "system.ranked"
    path.write_text("bright.a 1 :::: 0.9 very clever;0.5 smart\r\n\nbright.a 2 ::::\n")
    lines = read_ranking(path)
    assert [line.line for line in lines] == [1, 3]
    assert rankings_of(lines) == {"1": (Scored("very clever", 0.9), Scored("smart", 0.5)), "2": ()}
    for kind in ("oot", "best"):
        with pytest.raises(FormatError):
            read_system(path, kind)


def test_an_oot_file_is_read_as_a_ranking_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "system.oot"
    path.write_text("bright.a 1 ::: smart;very clever;x\nbright.a 2 ::: \n")
    rankings = read_system_ranking(path, "oot")
    assert rankings == {
        "1": (Scored("smart", 3.0), Scored("very clever", 2.0), Scored("x", 1.0)),
        "2": (),
    }
    assert [s.candidate for s in rank_order(rankings["1"])] == ["smart", "very clever", "x"]
    # smart 2, very clever 1: ideal 2 + 3/2; ranked 2/1 + 3/2 → 1
    assert gap({"smart": 2, "very clever": 1}, rankings["1"]).value == 1
    assert system_rankings(read_system(path, "oot")) == rankings


# --- real data -------------------------------------------------------------------------


def _independent_gap(gold: Gold, oot_path: Path) -> float:
    """GAP straight from the files: split each oot line by hand, rank = file order, weights
    from the gold's counts with hyphens as spaces, floats and numpy."""
    answers: dict[str, list[str]] = {}
    for text in read_lines(oot_path):
        head, _, rest = text.partition(" ::: ")
        answers[head.split(" ")[1]] = [a.replace("-", " ") for a in rest.split(";") if a]
    values = []
    for item_id, item in gold.items.items():
        weights: dict[str, float] = {}
        for key, count in item.counts:
            weights[key.replace("-", " ")] = weights.get(key.replace("-", " "), 0.0) + count
        seen: list[str] = []
        for answer in answers.get(item_id, []):
            if answer not in seen:
                seen.append(answer)
        x = np.array([weights.get(a, 0.0) for a in seen])
        p = np.cumsum(x) / np.arange(1, len(x) + 1)
        y = np.array(sorted((w for w in weights.values() if w > 0), reverse=True))
        ideal = np.cumsum(y) / np.arange(1, len(y) + 1)
        values.append(float(p[x > 0].sum() / ideal.sum()))
    return float(np.mean(values))


@pytest.mark.shared_data
def test_context2vec_oot_as_a_ranking_on_the_test_gold() -> None:
    oot = shared_path("data", "systems", "context2vec", "test.generated.oot")
    gold_path = shared_path("data", "semeval2007", "test", "gold")
    gold = read_gold(read_lines(gold_path), "fixed", str(gold_path))
    rankings = read_system_ranking(oot, "oot")
    answers = {item_id: Answers(ranking=ranking) for item_id, ranking in rankings.items()}
    rows = system_rows(gold_items(gold), answers, "oot", "ranked")
    assert len(rows.ids) == 1696 and rows.columns["relevant"].sum() == 1696
    assert len(rankings.keys() - gold.items.keys()) == 2010 - 1696  # ids outside T
    mean = rows.value("gap")
    assert mean is not None and 0 < mean < 1
    assert mean == pytest.approx(_independent_gap(gold, oot), abs=1e-12)
    assert mean == pytest.approx(0.05359677113959023, abs=1e-9)
    assert rows.value("ap") == pytest.approx(0.05537953670724055, abs=1e-9)
    assert rows.value("auc") == pytest.approx(float(Fraction(59293, 93408)), abs=1e-12)
    assert rows.columns["auc_defined"].sum() == 556
    assert rows.value("p_at_1") == pytest.approx(float(Fraction(145, 1696)), abs=1e-12)
    assert rows.value("p_at_10") == pytest.approx(float(Fraction(723, 16960)), abs=1e-12)
    assert rows.value("r_at_10") == pytest.approx(0.11784942160826595, abs=1e-9)
    # the leaderboard's oot route gives the same figures
    from_file = score_files(
        read_gold(read_lines(gold_path), "fixed"), [("oot", oot.read_text(encoding="utf-8"))]
    )[0]
    for measure in ("gap", "ap", "auc", "p_at_1", "p_at_10", "r_at_10"):
        assert from_file.value(measure) == rows.value(measure), measure


def test_the_documented_example_parses_as_described() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "ranking.md").read_text()
    lines = [
        parse_ranking_line(line.strip())
        for line in doc.splitlines()
        if line.startswith("    bright.a ")
    ]
    assert [line.id for line in lines] == ["1", "2", "3"]
    order = [s.candidate for s in rank_order(lines[0].candidates)]
    assert order == ["intelligent", "very clever", "smart", "luminous"]
    assert lines[1].candidates[1] == Scored("brand-new", -1.0)
    assert lines[2].candidates == ()
    for score in (".5", "-3", "1e-05", "2.5E+3"):
        assert parse_ranking_line(f"bright.a 1 :::: {score} x").candidates[0].score == float(score)


def test_ranking_measures_at_once_equal_the_measures_one_by_one() -> None:
    from scoring.measures.ranking.items import ranking_measures

    gold = {"a": 3, "b": 2, "c": 1, "d b": 1}
    rankings = [
        [Scored("b", 0.9), Scored("x", 0.9), Scored("a", 0.5), Scored("d-b", 0.1)],
        [],
        [Scored("x", 1.0)],
        [Scored("c", 2.0), Scored("a", 1.0), Scored("c", 3.0)],
    ]
    for ranked in rankings:
        together = ranking_measures(gold, ranked)
        assert together["gap"] == gap(gold, ranked)
        assert together["ap"] == average_precision(gold, ranked)
        assert together["auc"] == roc_auc(gold, ranked)
        assert together["p_at_1"] == precision_at(gold, ranked, 1)
        assert together["p_at_10"] == precision_at(gold, ranked, 10)
        assert together["r_at_10"] == recall_at(gold, ranked, 10)
