"""The registry of measures (scoring.registry): every registered measure's float route
against an exact route in Fractions (the leaderboard's: the item functions of
scoring.measures.revised.items and scoring.measures.ranking.items on exact frequencies, the
official credit from the
gold's counts, on hand-made and real data; mw's and SWORDS': hand-computed values); the
leaderboard's bulk rows against the same item functions on the float frequencies, bit for
bit (the rows were computed so item by item before they were computed in bulk), with
hand-computed edge cases of the bulk route; the families' exact routes against the exact
route written here; the scorer's figures are the registry's; the signatures. (Every
registered measure's exact route against its bulk route: tests/test_registry.py.)"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import __version__
from scoring.benchmark.swords import target_gold
from scoring.files.bounded import read_text
from scoring.formats import ranked as ranked_format
from scoring.formats.gold import Gold, read_gold, read_mwgold_lines
from scoring.formats.ranked import Scored
from scoring.leaderboard import Settings, leaderboard
from scoring.leaderboard.rows import (
    Answers,
    GoldItem,
    SystemRows,
    detect_kind,
    gold_items,
    read_answers,
    score_files,
    system_rows,
)
from scoring.measures.multiword.family import MultiwordItem
from scoring.measures.multiword.family import exact_row as mw_exact_row
from scoring.measures.multiword.items import score_multiwords
from scoring.measures.official.family import COLUMNS as OFFICIAL_COLUMNS
from scoring.measures.official.items import OOT_GUESSES, score_item
from scoring.measures.quotient import Ratio
from scoring.measures.ranking import items as ranking
from scoring.measures.revised import items as revised
from scoring.measures.swords.family import COLUMNS, METRICS, row
from scoring.measures.swords.family import exact_row as swords_exact_row
from scoring.registry import (
    FAMILIES,
    LEADERBOARD,
    LEADERBOARD_BY_NAME,
    LEADERBOARD_KINDS,
    MEASURES,
    measure_def,
    official_figure,
)
from scoring.score.scan import score_system
from scoring.terms import fold
from scoring.types import Rules, SystemKind, Task
from tests.conftest import shared_path

if TYPE_CHECKING:
    from collections.abc import Sequence

T, F = "TRUE", "FALSE"
BOARD: dict[str, Ratio] = {measure.name: measure for measure in LEADERBOARD}
"""The leaderboard's measures (the registry's first family), by name."""

GOLD = [
    "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;",
    "bright.a 2 :: smart 2;intelligent 1;brilliant 1;",
    "bright.a 3 :: shiny 2;luminous 2;",
    "run.v 4 :: run-down 2;sprint 1;",
    "run.v 5 :: well-known 3;famous 1;",
]
SYSTEMS = {
    "s.best": (
        "happy.a 1 :: glad;cheerful\nbright.a 2 :: dull\nrun.v 4 :: \n"
        "run.v 5 :: well known;famous;famous\n"
    ),
    "s.oot": (
        "happy.a 1 ::: cheerful;glad;glad;cheerful\n"
        "bright.a 3 ::: a;b;c;d;e;f;g;h;i;j;luminous;shiny\n"
        "run.v 4 ::: run-down;sprint\nrun.v 5 ::: \n"
    ),
    "s.ranked": (
        "happy.a 1 :::: 0.9 merry;0.5 glad;0.9 x\n"
        "bright.a 2 :::: 0.8 smart;0.7 dull;0.1 brilliant\n"
        "run.v 4 :::: 2 run-down;1 sprint;3 run-down\nnot.n 9 :::: 1 a\n"
    ),
}


def _exact_norms(gold_item: GoldItem) -> dict[str, Fraction]:
    """count / |H_i| of each key, a hyphenated key also reachable with spaces."""
    item = gold_item.item
    assert item is not None
    total = Fraction(item.total)
    norms = {key: Fraction(count) / total for key, count in item.counts}
    for key, count in item.counts:
        norms.setdefault(fold(key), Fraction(count) / total)
    return norms


def exact_row(
    kind: SystemKind, gold_item: GoldItem, answers: Answers, k: Fraction
) -> dict[str, Fraction]:
    """Every column of ``kind``'s families for one item, in exact arithmetic."""
    item = gold_item.item
    assert item is not None  # one reading: every item is the gold's
    row: dict[str, Fraction] = {}
    if kind in ("best", "oot"):
        guesses = answers.official
        row.update(
            item=Fraction(1),
            has_mode=Fraction(gold_item.has_mode),
            score=Fraction(0),
            attempted=Fraction(0),
            mode_attempted=Fraction(0),
            mode_correct=Fraction(0),
        )
        if item.total:
            norms = _exact_norms(gold_item)
            credited = (
                dict.fromkeys(guesses) if kind == "oot" and gold_item.rules == "fixed" else guesses
            )
            credit = sum((norms.get(guess, Fraction(0)) for guess in credited), Fraction(0))
            _c, _s, tried, right = score_item(kind, gold_item.rules, item, guesses)
            row.update(
                score=credit / len(guesses) if kind == "best" and credit else credit,
                attempted=Fraction(bool(guesses) and answers.fresh),
                mode_attempted=Fraction(tried),
                mode_correct=Fraction(right),
            )
    freqs = revised.frequencies(item)  # exact
    first = list(answers.guesses)
    row["measured"] = Fraction(1)
    if kind == "best":
        row["answered"] = Fraction(bool(first))
        row["new_best"] = Fraction(revised.new_best(freqs, first).score) if first else Fraction(0)
        row["best_1"] = Fraction(revised.best_1(freqs, first).score) if first else Fraction(0)
    if kind == "oot":
        chosen = revised.answer_set(first)[:OOT_GUESSES]
        row["answered"] = Fraction(bool(chosen))
        for name, stats in (
            ("weighted_recall", revised.weighted_recall(freqs, chosen)),
            ("weighted_precision", revised.weighted_precision(freqs, chosen, k)),
            ("rank", revised.rank(freqs, chosen)),
        ):
            row[name] = Fraction(stats.score) if chosen else Fraction(0)
    if kind in ("oot", "ranked"):
        # an oot file's ranking is its first answer line in file order
        ranked = ranked_format.as_ranking(first) if kind == "oot" else answers.ranking
        found = ranking.ranking_measures(item, ranked)
        for name in ("gap", "ap", "p_at_1", "p_at_10", "r_at_10", "auc"):
            row[name] = Fraction(found[name].value)
        row["relevant"] = Fraction(found["gap"].defined)
        row["auc_defined"] = Fraction(found["auc"].defined)
    return row


def item_route(
    kind: SystemKind, gold_item: GoldItem, answers: Answers, k: float
) -> dict[str, float]:
    """Every column of one item by the item functions on the float frequencies the
    registry reads (:func:`scoring.measures.official.items.score_item`,
    :mod:`scoring.measures.revised.items`,
    :func:`scoring.measures.ranking.items.ranking_measures`): the bulk rows must give these
    floats."""
    row: dict[str, float] = {}
    item = gold_item.item
    freqs = gold_item.frequencies
    if kind in ("best", "oot"):
        official = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        if item is not None and not item.total:
            official = (1.0, 0.0, 0.0, 0.0, 0.0, float(gold_item.has_mode))
        elif item is not None:
            guesses = answers.official
            _credit, score, tried, right = score_item(kind, gold_item.rules, item, guesses)
            attempted = bool(guesses) and answers.fresh
            official = (1.0, score, attempted, tried, right, float(gold_item.has_mode))
        names = ("item", "score", "attempted", "mode_attempted", "mode_correct", "has_mode")
        row.update(zip(names, map(float, official), strict=True))
        row["measured"] = float(gold_item.measured)
        row["answered"] = 0.0
    if kind == "best":
        row["new_best"] = row["best_1"] = 0.0
        if answers.guesses and freqs is not None:
            row["answered"] = 1.0
            row["new_best"] = float(revised.new_best(freqs, answers.guesses).score)
            row["best_1"] = float(revised.best_1(freqs, answers.guesses).score)
    if kind == "oot":
        row["weighted_recall"] = row["weighted_precision"] = row["rank"] = 0.0
        chosen = revised.answer_set(answers.guesses)[:OOT_GUESSES]
        if chosen and freqs is not None:
            row["answered"] = 1.0
            row["weighted_recall"] = float(revised.weighted_recall(freqs, chosen).score)
            row["weighted_precision"] = float(revised.weighted_precision(freqs, chosen, k).score)
            row["rank"] = float(revised.rank(freqs, chosen).score)
    if kind in ("oot", "ranked"):
        ranked = answers.ranking or ranked_format.as_ranking(answers.guesses)
        found = ranking.ranking_measures({} if freqs is None else freqs, ranked)
        for name in ("gap", "ap", "p_at_1", "p_at_10", "r_at_10", "auc"):
            row[name] = float(found[name].value)
        row["relevant"] = float(found["gap"].defined)
        row["auc_defined"] = float(found["auc"].defined)
    return row


def check_item_route(
    rows: SystemRows, items: Sequence[GoldItem], given: Sequence[Answers], k: float
) -> None:
    """The bulk rows equal :func:`item_route`, bit for bit."""
    for index, (gold_item, answers) in enumerate(zip(items, given, strict=True)):
        expected = item_route(rows.kind, gold_item, answers, k)
        found = {column: float(values[index]) for column, values in rows.columns.items()}
        assert found == expected, (rows.name, gold_item.id)


def check_every_measure(gold: Gold, name: str, text: str, k: Fraction = Fraction(1)) -> int:
    """The registry's figures of one system equal the exact ones, and so do its rows item
    by item; returns the measures checked."""
    kind = detect_kind(text, name)
    items = gold_items(gold)
    answers = read_answers(gold, text, name, kind)
    given = [answers.get(gold_item.id, Answers()) for gold_item in items]
    rows = system_rows(items, answers, name, kind, float(k))
    assert rows.columns.keys() == {c for family in FAMILIES[kind] for c in family.columns}
    check_item_route(rows, items, given, float(k))
    exact = [
        exact_row(kind, gold_item, one, k) for gold_item, one in zip(items, given, strict=True)
    ]
    for gold_item, one, expected in zip(items, given, exact, strict=True):  # the families' own
        found = {c: v for f in FAMILIES[kind] for c, v in f.exact(gold_item, one, k).items()}
        assert found == {c: expected[c] for c in found}, (name, gold_item.id)
    checked = 0
    for measure_name in rows.measures():
        measure = BOARD[measure_name]
        numerator, denominator = measure.columns()
        top = sum((row[numerator] for row in exact), Fraction(0))
        bottom = sum((row[denominator] for row in exact), Fraction(0))
        value = rows.value(measure_name)
        if bottom == 0:
            assert value is None, measure_name
        else:
            assert value == pytest.approx(float(top / bottom), rel=1e-12, abs=1e-15), (
                name,
                measure_name,
            )
        stats = rows.stats(measure_name)
        for index, gold_item in enumerate(items):
            assert stats[index, 0] == pytest.approx(float(exact[index][numerator]), abs=1e-12)
            assert stats[index, 1] == exact[index][denominator], (measure_name, gold_item.id)
        checked += 1
    return checked


@pytest.mark.parametrize("rules", ["compat", "fixed"])
@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_every_measure_equals_its_exact_route_on_hand_made_files(name: str, rules: str) -> None:
    gold = read_gold(GOLD, "fixed" if rules == "fixed" else "compat")
    checked = check_every_measure(gold, name, SYSTEMS[name], Fraction(2))
    assert checked == {"s.best": 8, "s.oot": 16, "s.ranked": 6}[name]


def test_every_leaderboard_measure_is_checked_on_hand_made_files() -> None:
    gold = read_gold(GOLD, "fixed")
    seen = {
        m for name, text in SYSTEMS.items() for m in score_files(gold, [(name, text)])[0].measures()
    }
    assert seen == set(BOARD)


@pytest.mark.shared_data
@pytest.mark.parametrize("rules", ["compat", "fixed"])
def test_every_measure_equals_its_exact_route_on_real_files(rules: str) -> None:
    test_gold = read_gold(
        read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True),
        "fixed" if rules == "fixed" else "compat",
    )
    oot = read_text(shared_path("data", "systems", "context2vec", "test.generated.oot"), perl=True)
    ranked = "".join(
        f"{head} :::: "
        + ";".join(
            f"{0.5 * (n % 3)} {guess.strip()}"
            for n, guess in enumerate(rest.split(";"))
            if guess.strip()
        )
        + "\n"
        for head, _, rest in (line.partition(" ::: ") for line in oot.splitlines())
    )
    checked = 0
    for name, text in (
        (
            "c2v.best",
            read_text(
                shared_path("data", "systems", "context2vec", "test.generated.best"), perl=True
            ),
        ),
        ("c2v.oot", oot),
        ("c2v.ranked", ranked),
    ):
        checked += check_every_measure(test_gold, name, text, Fraction(1, 2))
    trial = read_gold(
        read_text(shared_path("data", "semeval2007", "trial", "gold.trial"), perl=True),
        "fixed" if rules == "fixed" else "compat",
    )
    checked += check_every_measure(
        trial, "BL.out", read_text(shared_path("data", "semeval2007", "trial", "BL.out"), perl=True)
    )
    assert checked == 8 + 16 + 6 + 8  # best, oot, ranked, BL.out (best)


def test_hand_made_answers_are_read_as_documented() -> None:
    gold = read_gold(GOLD, "compat")
    best = read_answers(gold, SYSTEMS["s.best"], "s.best", "best")
    # run.v 4's empty answer: under compat score.pl scores the previous line's guesses,
    # not as an attempt (dull earns nothing, the mode was tried and missed); the revised
    # measures see no guess
    assert best["4"] == Answers(("dull",), False, (), (), (0.0, True, False))
    assert best["5"].guesses == ("well known", "famous", "famous")
    oot = read_answers(gold, SYSTEMS["s.oot"], "s.oot", "oot")
    assert len(oot["3"].official) == 10 and len(oot["3"].guesses) == 12
    ranked = read_answers(gold, SYSTEMS["s.ranked"], "s.ranked", "ranked")
    assert "9" not in ranked  # not a gold item: ignored, as the scorer ignores it
    assert [c.candidate for c in ranked["4"].ranking] == ["run down", "sprint", "run down"]


def test_a_hyphenated_ranked_candidate_scores_as_the_same_oot_guess() -> None:
    """Ranked candidates are folded like gold keys and oot guesses (before, a ranked file's
    exact hyphenated candidate scored 0)."""
    gold = read_gold(["run.v 4 :: run-down 2;sprint 1;", "run.v 5 :: dash 1;hurry 1;"])
    ranked = score_files(gold, [("r", "run.v 4 :::: 2 run-down;1 sprint\n")])[0]
    oot = score_files(gold, [("o", "run.v 4 ::: run-down;sprint\n")])[0]
    assert ranked.columns["gap"].tolist() == [1.0, 0.0]
    for measure in ("gap", "ap", "p_at_1", "p_at_10", "r_at_10"):
        assert ranked.value(measure) == oot.value(measure), measure


def test_repeated_guesses_count_once_in_the_set_measures() -> None:
    gold = read_gold(GOLD, "fixed")
    once = score_files(gold, [("a", "happy.a 1 ::: cheerful;glad\n")])[0]
    twice = score_files(gold, [("b", "happy.a 1 ::: cheerful;glad;glad;cheerful\n")])[0]
    for measure in ("weighted_recall.R", "weighted_precision.R", "rank.R", "oot.R"):
        assert once.value(measure) == twice.value(measure), measure


def test_one_signature_for_the_same_measure_from_every_route() -> None:
    gold = read_gold(
        read_text(shared_path("data", "semeval2007", "trial", "gold.trial"), perl=True)
    )
    text = read_text(shared_path("data", "semeval2007", "trial", "BL.out"), perl=True)
    board = leaderboard(gold, [("BL.out", text)], Settings())
    assert board.signatures["best.R"] == (
        f"metric:best.R|rules:compat|t:two+responses|version:{__version__}"
    )
    signed = LEADERBOARD_BY_NAME
    assert signed["best.R"].signature(Settings(), "compat") == board.signatures["best.R"]
    assert signed["weighted_precision.P"].signature(Settings(k=0.5), "fixed") == (
        f"metric:weighted_precision.P|rules:fixed|t:two+responses|k:0.5|version:{__version__}"
    )
    significance = signed["gap"].signature(Settings(significance=True, seed=3), "compat")
    assert significance.endswith(
        f"|resample:lemma|n:1000|trials:1000|seed:3|ci:0.95|version:{__version__}"
    )


def test_corpus_is_vectorised_and_undefined_on_a_zero_denominator() -> None:
    # NaN where figure() is None (nothing attempted): the resampler leaves it out
    sums = np.array([[1.0, 4.0], [0.0, 0.0], [3.0, 3.0]])
    found = MEASURES["best.P"].corpus(sums)
    assert found[[0, 2]].tolist() == [0.25, 1.0] and np.isnan(found[1])
    assert MEASURES["best.P"].figure([0.0, 0.0]) is None


def test_an_item_score_pl_keeps_in_t_without_a_usable_entry_scores_zero() -> None:
    """score.pl's rules drop one-character entries but count ``x 1;y 1;`` in T: the
    official measures give it 0 (score.pl prints recall 50.00 here), so do the revised
    measures, and the ranking measures leave it out as undefined; under the fixed rules
    the entries count (hand-computed: best 1/2 and 1, new best and best-1 1 and 1, GAP
    1/2 and 1). It used to refuse the whole gold ("maxfreq_i must be positive"), so a
    study whose annotators confirmed one-letter substitutes could not be scored."""
    gold = "w.n 1 :: x 1;y 1;\nw.n 2 :: glad 2;\n"
    best = "w.n 1 :: x\nw.n 2 :: glad\n"
    ranked = "w.n 1 :::: 1.0 x;\nw.n 2 :::: 1.0 glad;0.5 sad;\n"
    expected: dict[Rules, dict[str, float]] = {
        "compat": {"best.R": 0.5, "new_best.R": 0.5, "best_1.R": 0.5, "gap": 1.0},
        "fixed": {"best.R": 0.75, "new_best.R": 1.0, "best_1.R": 1.0, "gap": 0.75},
    }
    for rules, figures in expected.items():
        systems = [("s.best", best), ("s.ranked", ranked)]
        board = leaderboard(read_gold(gold, rules), systems, Settings()).to_json()["systems"]
        found = {**board["s.best"], **board["s.ranked"]}
        assert {name: found[name] for name in figures} == pytest.approx(figures), rules


# --- the bulk route: edge cases by hand, and every shape against the item functions -----

EDGE_GOLD = [
    "w.n 1 :: glad 3;merry 2;cheerful 1;",
    "w.n 2 :: x 1;y 1;",  # score.pl's rules drop one-character entries: no gold weight
    "w.n 3 :: aa 2;bb 1;",
    "w.n 4 :: sun 1;moon 1;",  # no system answers it
]
NOISE = ";".join(f"x{n}" for n in range(1, 9))
EDGE_SYSTEMS = {
    "e.best": "w.n 1 :: glad;glad;merry\nw.n 2 :: x\nw.n 3 :: \n",
    # 12 guesses, merry twice: A_i = merry, glad, x1..x8 (cut at ten), cheerful 11th
    "e.oot": f"w.n 1 ::: merry;glad;merry;{NOISE};cheerful\nw.n 2 ::: x;y\nw.n 3 ::: \n",
    # glad twice (its higher score counts), ties at 0.9 and 0.2, 13 candidates
    "e.ranked": (
        "w.n 1 :::: 0.5 glad;0.9 x1;0.5 merry;0.1 cheerful;0.9 glad;"
        + ";".join(f"0.2 x{n}" for n in range(2, 9))
        + ";0.05 x9\nw.n 2 :::: 1 x;0.5 y\nw.n 3 :::: 1 bb;2 aa;0.5 bb\nw.n 4 ::::\n"
    ),
}
Q = Fraction
NOT_ANSWERED = {"answered": Q(0), "measured": Q(1)}
UNRANKED = {"gap": Q(0), "ap": Q(0), "p_at_1": Q(0), "p_at_10": Q(0), "r_at_10": Q(0)}
UNRANKED |= {"auc": Q(0), "auc_defined": Q(0)}
NO_WEIGHT = UNRANKED | {"relevant": Q(0)}
EDGE_ROWS: dict[str, list[dict[str, Fraction]]] = {
    "e.best": [
        # new best (3 + 3 + 2) / (3 * 3 guesses): a repeated guess counts again; best-1 3/3
        {"new_best": Q(8, 9), "best_1": Q(1), "answered": Q(1), "measured": Q(1)},
        {"new_best": Q(0), "best_1": Q(0), **NOT_ANSWERED},  # no gold weight
        {"new_best": Q(0), "best_1": Q(0), **NOT_ANSWERED},  # empty answer
        {"new_best": Q(0), "best_1": Q(0), **NOT_ANSWERED},  # not in the file
    ],
    "e.oot": [
        {
            # A_i = merry, glad, x1..x8: recall 5/6, precision 5 / (5 + 0.5 * 8) with k = 1/2
            "weighted_recall": Q(5, 6),
            "weighted_precision": Q(5, 9),
            # cum_A 2, 5, 5 ... over cum_H 3, 5, 6, 6 ...: (2/3 + 1 + 8 * 5/6) / 10
            "rank": Q(5, 6),
            "answered": Q(1),
            "measured": Q(1),
            # ranked uncut: merry (2), glad (3), x1..x8, cheerful (1) 11th
            # GAP (2/1 + 5/2 + 6/11) / (3/1 + 5/2 + 6/3)
            "gap": Q(37, 55),
            "ap": (Q(1) + Q(2, 2) + Q(3, 11)) / 3,
            "p_at_1": Q(1),
            "p_at_10": Q(2, 10),
            "r_at_10": Q(2, 3),
            "relevant": Q(1),
            "auc": Q(16, 24),  # merry and glad above the 8 negatives, cheerful below
            "auc_defined": Q(1),
        },
        {"weighted_recall": Q(0), "weighted_precision": Q(0), "rank": Q(0)}
        | NOT_ANSWERED
        | NO_WEIGHT,
        {"weighted_recall": Q(0), "weighted_precision": Q(0), "rank": Q(0)}
        | NOT_ANSWERED
        | UNRANKED
        | {"relevant": Q(1)},
        {"weighted_recall": Q(0), "weighted_precision": Q(0), "rank": Q(0)}
        | NOT_ANSWERED
        | UNRANKED
        | {"relevant": Q(1)},
    ],
    "e.ranked": [
        {
            # order x1 glad | merry | x2..x8 | cheerful | x9 (| = a change of score)
            "gap": (Q(3, 2) + Q(5, 3) + Q(6, 11)) / Q(15, 2),
            "ap": (Q(1, 2) + Q(2, 3) + Q(3, 11)) / 3,
            "p_at_1": Q(0),
            "p_at_10": Q(2, 10),
            "r_at_10": Q(2, 3),
            "relevant": Q(1),
            # mid-ranks from the lowest: glad 11.5 (tied with x1), merry 10, cheerful 2;
            # U = 23.5 - 3 * 4 / 2 over 3 positives * 9 negatives
            "auc": Q(35, 54),
            "auc_defined": Q(1),
        },
        NO_WEIGHT,
        # aa then bb (the second bb dropped): ideal; no negative, so AUC undefined
        {"gap": Q(1), "ap": Q(1), "p_at_1": Q(1), "p_at_10": Q(2, 10), "r_at_10": Q(1)}
        | {"relevant": Q(1), "auc": Q(0), "auc_defined": Q(0)},
        UNRANKED | {"relevant": Q(1)},  # no candidates
    ],
}


@pytest.mark.parametrize("name", sorted(EDGE_SYSTEMS))
def test_bulk_rows_on_hand_computed_edge_cases(name: str) -> None:
    """Repeated guesses, more than ten guesses, ties, an item with no gold weight, empty
    answers and an item the file leaves out, each column computed by hand."""
    gold = read_gold(EDGE_GOLD, "compat")
    kind = detect_kind(EDGE_SYSTEMS[name], name)
    items = gold_items(gold)
    assert [item.frequencies is None for item in items] == [False, True, False, False]
    answers = read_answers(gold, EDGE_SYSTEMS[name], name, kind)
    rows = system_rows(items, answers, name, kind, 0.5)
    for index, expected in enumerate(EDGE_ROWS[name]):
        found = {column: rows.columns[column][index] for column in expected}
        assert found == pytest.approx({c: float(v) for c, v in expected.items()}, abs=1e-15)
    given = [answers.get(item.id, Answers()) for item in items]
    check_item_route(rows, items, given, 0.5)


COUNTS = st.sampled_from([0, 0.1, 0.7, 1, 1.3, 2, 3])
EDGE_TERMS = [f"t{n}" for n in range(8)]
entries = st.dictionaries(st.sampled_from(EDGE_TERMS), COUNTS, min_size=1, max_size=6).filter(
    lambda counts: any(count > 0 for count in counts.values())
)
guess_lists = st.lists(st.sampled_from([*EDGE_TERMS, "w1", "w2"]), max_size=14)
scored_lists = st.lists(
    st.builds(
        ranked_format.Scored,
        st.sampled_from([*EDGE_TERMS, "w1", "w2"]),
        st.sampled_from([0.0, 0.25, 0.5, 1.0]),
    ),
    max_size=14,
)
answer_sets = st.one_of(st.none(), st.tuples(guess_lists, scored_lists))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(entries, answer_sets), min_size=1, max_size=8),
    st.sampled_from([0.5, 1.0, 2.0]),
)
def test_bulk_rows_equal_the_item_functions_bit_for_bit(
    corpus: list[tuple[dict[str, float], tuple[list[str], list[ranked_format.Scored]] | None]],
    k: float,
) -> None:
    """Random golds (decimal counts, so the order of additions shows; counts of 0) and
    answers (repeats, more than ten, ties, none): every kind's bulk rows are the floats of
    the item functions."""
    lines = [
        f"w.n {number} :: " + "".join(f"{term} {count:g};" for term, count in counts.items())
        for number, (counts, _) in enumerate(corpus, 1)
    ]
    items = gold_items(read_gold(lines, "fixed"))
    answers = {
        str(number): Answers(tuple(guesses[:OOT_GUESSES]), True, tuple(guesses), tuple(scored))
        for number, (_, found) in enumerate(corpus, 1)
        if found is not None
        for guesses, scored in [found]
    }
    given = [answers.get(item.id, Answers()) for item in items]
    for kind in ("best", "oot", "ranked"):
        check_item_route(system_rows(items, answers, "h", kind, k), items, given, k)


# --- the scorer's figures, mw and SWORDS: the other families of the registry -------------


@pytest.mark.parametrize("rules", ["compat", "fixed"])
@pytest.mark.parametrize("kind", ["best", "oot"])
def test_the_scan_sums_the_registry_s_official_columns(kind: Task, rules: Rules) -> None:
    """score.pl's scan (file order) and the leaderboard's rows (gold order) give the same
    column sums, and the scorer's figures are the registered measures of them."""
    gold = read_gold(GOLD, rules)
    text = SYSTEMS[f"s.{kind}"]
    scanned = score_system(kind, gold, text, "s")
    rows = score_files(gold, [("s", text)])[0]
    assert scanned.sums == pytest.approx({c: rows.columns[c].sum() for c in OFFICIAL_COLUMNS})
    for name in ("P", "R", "mode_P", "mode_R"):
        figure = official_figure(scanned, name)
        assert figure == pytest.approx(rows.value(f"{kind}.{name}"), abs=1e-15)
        measure = MEASURES[f"{kind}.{name}"]
        assert figure == measure.figure([scanned.sums[c] for c in measure.columns()])


MW_GOLD = [
    "take.v 1 :: take place 2;take off 1;",
    "cross.n 2 :: cross section 2;",
    "bar.n 3 :: bar off 1;",  # one annotator: no multiword
    "tie.n 4 :: a b 2;c d 2;",  # a tie: no multiword
]
MW_SYSTEM = [
    "take.v 1 :: take  place",  # matches only trimmed (fixed)
    "cross.n 2 :: ",  # an empty answer: a detection under compat only
    "bar.n 3 :: bar off",
    "tie.n 4 :: a b",
    "take.v 1 :: take place",  # a later line of a done id: ignored
    "new.n 9 :: x",  # not in the gold: found all the same
]
MW_EXPECTED: dict[Rules, dict[str, Fraction]] = {
    # found 4 (take, bar, tie, new); |MW| 2 (take, cross)
    "compat": {  # genuine: take, cross; matched: none ("take  place" as written)
        "mw.detection_P": Fraction(2, 4),
        "mw.detection_R": Fraction(2, 2),
        "mw.identification_P": Fraction(0, 4),
        "mw.identification_R": Fraction(0, 2),
    },
    "fixed": {  # genuine: take; matched: take
        "mw.detection_P": Fraction(1, 4),
        "mw.detection_R": Fraction(1, 2),
        "mw.identification_P": Fraction(1, 4),
        "mw.identification_R": Fraction(1, 2),
    },
}


@pytest.mark.parametrize("rules", ["compat", "fixed"])
def test_every_mw_measure_equals_its_hand_computed_value(rules: Rules) -> None:
    modes, total = read_mwgold_lines(MW_GOLD, "g", [])
    assert (modes, total) == ({"1": "take place", "2": "cross section"}, 2)
    answers = {"1": "take  place", "2": "", "3": "bar off", "4": "a b", "9": "x"}
    scores = score_multiwords(MW_GOLD, MW_SYSTEM, "s", "g", rules)
    mw = [m for m in MEASURES.values() if m.kinds == {"mw"}]
    assert [m.name for m in mw] == list(MW_EXPECTED[rules])
    rows = [mw_exact_row(MultiwordItem(modes.get(i), rules), a) for i, a in answers.items()]
    for measure in mw:
        top, bottom = (sum((row[c] for row in rows), Fraction(0)) for c in measure.columns())
        assert top / bottom == MW_EXPECTED[rules][measure.name], measure.name
        short = measure.name.removeprefix("mw.")
        assert scores.figure(short) == float(MW_EXPECTED[rules][measure.name]), measure.name
    found = MEASURES["mw.detection_P"].corpus(np.array([[2.0, 4.0], [0.0, 0.0]]))
    assert found[0] == 0.5 and np.isnan(found[1])  # nothing attempted: undefined


def test_every_swords_measure_equals_its_hand_computed_value() -> None:
    """Two targets. t1: smart 2 of 3 TRUE (acceptable), clever 1 of 5 (conceivable), dull
    0 of 2, the system says zebra, clever, smart; t2: cloak 2 of 2, left out. GAP of t1
    by TRUE counts: (1/2 + 3/3) / (2/1 + 3/2) = 3/7; by shares: (1/10 + 13/45) / (2/3 +
    13/30) = 35/99; t2's is 0."""
    t1 = target_gold({"smart": [T, T, F], "clever": [T, F, F, F, F], "dull": [F, F]})
    t2 = target_gold({"cloak": [T, T]})
    answers = [(t1, [Scored("zebra", 0.9), Scored("clever", 0.8), Scored("smart", 0.5)])]
    answers.append((t2, []))
    # pooled (P, R): hits / returned, hits / wanted; |gold| <= 10, so RS = R and FS = F
    half, third, two_thirds = Fraction(1, 2), Fraction(1, 3), Fraction(2, 3)
    pooled = {
        "lenient_a": (half, half),  # clever smart: 1 hit of 2; 1 + 1 acceptable
        "lenient_c": (Fraction(1), two_thirds),  # 2 hits of 2; 2 + 1 conceivable
        "strict_a": (third, half),  # zebra clever smart: 1 hit of 3
        "strict_c": (two_thirds, two_thirds),  # 2 hits of 3
    }
    expected: dict[str, Fraction] = {}
    for prefix, (p, r) in pooled.items():
        f = 2 * p * r / (p + r)
        for short, fraction in (("f", f), ("fs", f), ("p", p), ("r", r), ("rs", r)):
            expected[f"{prefix}_{short}@10"] = fraction
    # at 1: zebra, a miss; GAP: t1's and t2's 0, averaged
    expected |= {"strict_c_p@1": Fraction(0), "gap": Fraction(3, 14), "gap_rat": Fraction(35, 198)}
    assert expected["strict_a_f@10"] == Fraction(2, 5)  # 2 (1/3)(1/2) / (5/6)
    assert expected["lenient_c_f@10"] == Fraction(4, 5)  # 2 (1)(2/3) / (5/3)
    rows = [row(target, ranked) for target, ranked in answers]
    sums = [sum(column) for column in zip(*rows, strict=True)]
    swords = {m.name: m for m in MEASURES.values() if m.kinds == {"swords"}}
    assert (
        list(swords) == [f"swords.{name}" for name in METRICS] == [f"swords.{n}" for n in expected]
    )
    for name, measure in swords.items():
        value = measure.figure([sums[COLUMNS.index(c)] for c in measure.columns()])
        exact = expected[name.removeprefix("swords.")]
        assert value == pytest.approx(float(exact), rel=1e-12, abs=1e-15), name
        for (target, ranked), found in zip(answers, rows, strict=True):  # the exact row
            exact_row = swords_exact_row(target, ranked)
            assert [float(exact_row[c]) for c in COLUMNS] == list(found), name
    # F of pooled counts where P = R = 0: undefined, for the one figure and the resampler
    nothing = swords["swords.strict_a_f@10"]
    assert nothing.figure([0, 3, 2]) is None
    resampled = nothing.corpus(np.array([[0.0, 3.0, 2.0], [1.0, 3.0, 2.0]]))
    assert np.isnan(resampled[0]) and resampled[1] == pytest.approx(0.4)


def test_every_measure_is_registered_once_and_the_scorer_loads_no_numpy() -> None:
    """51 measures in three families; the leaderboard does not take the others; the
    drop-in scorer reads the registry without numpy (it would double its start-up)."""
    kinds = [sorted(m.kinds) for m in MEASURES.values()]
    assert (len(MEASURES), kinds.count(["mw"]), kinds.count(["swords"])) == (24 + 4 + 23, 4, 23)
    assert list(MEASURES)[:24] == [m.name for m in LEADERBOARD]
    with pytest.raises(
        ValueError, match=r"unknown measure .mw\.detection_P.; measures are: best\.P,"
    ):
        measure_def("mw.detection_P", LEADERBOARD_KINDS)
    code = "import sys, scoring.score.cli; print(sorted(m for m in sys.modules if 'numpy' in m))"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout == "[]\n"
