"""The official measures on worked examples (McCarthy & Navigli 2007, section 4) and hand-computed
cases, in compat and fixed rules."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ScorerDied
from scoring.formats.gold import read_gold
from scoring.formats.perl import _finite, perl_round, perl_str
from scoring.measures.multiword.items import score_multiwords
from scoring.measures.official.family import OFFICIAL_RATIOS
from scoring.measures.official.items import guesses_compat, guesses_fixed
from scoring.registry import LEADERBOARD_BY_NAME, figure, official_figure
from scoring.score.report import PosScores, official_text
from scoring.score.scan import score_system

# McCarthy & Navigli (2007), section 4: annotators gave glad merry / glad / cheerful glad / merry /
# jovial, so H_i is glad 3, merry 2, cheerful 1, jovial 1 (|H_i| = 7); the system says
# glad;cheerful.
HAPPY_GOLD = ["happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;"]


def test_happy_best_credit_is_3_plus_1_over_2_times_7() -> None:
    gold = read_gold(HAPPY_GOLD)
    scores = score_system("best", gold, ["happy.a 9999 :: glad;cheerful"], "sys")
    (row,) = scores.items
    assert row.credit == pytest.approx(float(Fraction(3 + 1, 7)))
    assert row.score == pytest.approx(float(Fraction(3 + 1, 2 * 7)))
    assert official_figure(scores, "P") == official_figure(scores, "R") == row.score
    assert scores.mode_correct == 1  # glad is the mode and the first guess
    assert official_text(scores) == (
        "Total = 1, attempted = 1\n"
        "precision = 28.57, recall = 28.57\n"
        "Total with mode 1 attempted 1\n"
        "Mode precision = 100.00, Mode recall = 100.00\n"
    )


def test_happy_oot_credit_is_not_divided_by_guesses() -> None:
    gold = read_gold(HAPPY_GOLD)
    scores = score_system("oot", gold, ["happy.a 9999 ::: cheerful;glad"], "sys", verbose=True)
    assert scores.score_sum == pytest.approx(4 / 7)
    assert scores.log == (
        "happy.a Item 9999 mode 'glad'  found in guesses",
        "happy.a Item 9999 credit 0.571428571428571 human responses 7: score is 0.571428571428571",
    )


def test_verbose_best_lines_use_perl_number_format() -> None:
    gold = read_gold(HAPPY_GOLD)
    scores = score_system("best", gold, ["happy.a 9999 :: merry;x;y"], "sys", verbose=True)
    assert scores.log == (
        "happy.a Item 9999 mode 'glad' : system 'merry' wrong",
        "happy.a Item 9999 credit 0.285714285714286 guesses 3 human responses 7: "
        "score is 0.285714285714286",
    )


@pytest.mark.parametrize(
    ("fraction", "text"),
    [
        (0.4576, "45.76"),
        (1.0, "100.00"),
        (0.0, "0.00"),
        (0.5, "50.00"),
        (0.123449, "12.34"),
        (0.12345, "12.35"),
        (1 / 3, "33.33"),
        (2 / 3, "66.67"),
        (4.5, "450.00"),
    ],
)
def test_perl_round(fraction: float, text: str) -> None:
    assert perl_round(fraction) == text


def test_perl_str() -> None:
    assert [perl_str(1.0), perl_str(0.1 + 0.2), perl_str(5), perl_str(None)] == [
        "1",
        "0.3",
        "5",
        "",
    ]


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_perl_finite_is_math_isfinite(value: float) -> None:
    """score.pl's number formatting tells finite floats without loading math."""
    assert _finite(value) == math.isfinite(value)
    if math.isfinite(value + 0.5):
        assert int(value + 0.5) == math.trunc(value + 0.5)  # perl_round's truncation


def test_perl_str_and_round_of_inf_and_nan() -> None:
    inf = float("inf")
    assert [perl_str(inf), perl_str(-inf), perl_str(inf - inf)] == ["Inf", "-Inf", "NaN"]
    assert [perl_round(inf), perl_round(inf - inf), perl_round(1e300)] == [
        "Inf.00",
        "NaN.00",
        "1e+302.00",  # 1e300 · 100 · 100, truncated, ÷ 100; no "." in "1e+302": padded
    ]


GOLD_QUIRKS = [
    "pound.n 1 :: kilo 2;11.27 kilograms 1;pn 1;",  # numeric entry, proper name
    "x.n 2 :: x 2;y 1;",  # one-character substitutes
    "new.a 3 :: brand-new 3;fresh 1;",  # hyphenated mode
    "captive.a 4 :: non-captive 2;free 1;",
    "garden.n 5 :: plot 1;garden  1;",  # double space
    "lone.n 6 :: single 1;",  # not in T: one response
    "tie.n 7 :: a1 2;b1 2;",  # no mode: tie
]


def test_compat_gold_reading_keeps_the_defects() -> None:
    gold = read_gold(GOLD_QUIRKS)
    assert gold.total_items == 6 and "6" not in gold.items
    assert dict(gold.items["1"].counts) == {"kilo": 2, "27 kilograms": 1}
    assert dict(gold.items["2"].counts) == {}  # 'x' and 'y' dropped, item stays in T
    assert gold.items["3"].norms["brand new"] == 0.75  # hyphen copy
    assert dict(gold.items["5"].counts) == {"plot": 1, "garden ": 1}
    assert gold.modes == {"1": "kilo", "3": "brand-new", "4": "non-captive"}
    assert "7" not in gold.modes


def test_fixed_gold_reading_keeps_every_entry() -> None:
    gold = read_gold(GOLD_QUIRKS, "fixed")
    assert dict(gold.items["1"].counts) == {"kilo": 2, "11.27 kilograms": 1}
    assert dict(gold.items["2"].counts) == {"x": 2, "y": 1}
    assert dict(gold.items["5"].counts) == {"plot": 1, "garden": 1}
    assert gold.modes["2"] == "x" and "5" not in gold.modes and "7" not in gold.modes
    assert gold.total_items == 6 and gold.total_modes == 4


def test_guess_rules() -> None:
    assert guesses_compat(" glad;non-captive;;brand-new;o'clock;") == [
        " glad",
        "noncaptive",
        "",
        "brand new",
        "oclock",
    ]
    assert guesses_fixed(" glad;non-captive;;brand-new;o'clock;") == [
        "glad",
        "non captive",
        "brand new",
        "oclock",
    ]


SYSTEM_QUIRKS = [
    "pound.n 1 :: 11.27 kilograms",  # compat 0 (gold entry mangled); fixed 1/3
    "x.n 2 :: x",  # compat: item has no counts, not scored; fixed 2/3
    "new.a 3 ::  brand-new",  # leading space: compat 0; fixed 3/4 and the mode
    "captive.a 4 :: non-captive;free",  # compat: free only 1/3 / 2; fixed (2+1)/3 / 2
    "garden.n 5 :: ",  # compat: stale, credited with line 4's guesses
]


def test_compat_best_on_quirks() -> None:
    scores = score_system("best", read_gold(GOLD_QUIRKS), SYSTEM_QUIRKS, "sys")
    by_id = {row.id: row for row in scores.items}
    assert by_id["1"].score == 0 and by_id["3"].score == 0
    assert by_id["4"].score == pytest.approx(1 / 6)
    assert by_id["5"].stale and by_id["5"].score == 0  # noncaptive, free: not in item 5
    assert "2" not in by_id
    assert scores.attempted == 3  # lines 1, 3, 4; the stale line is not attempted
    assert scores.mode_attempted == 3  # items 1, 3, 4; item 5 has a tie, no mode


def test_fixed_best_on_quirks() -> None:
    scores = score_system("best", read_gold(GOLD_QUIRKS, "fixed"), SYSTEM_QUIRKS, "sys")
    by_id = {row.id: row for row in scores.items}
    assert by_id["1"].score == pytest.approx(1 / 3)
    assert by_id["2"].score == pytest.approx(2 / 3)
    assert by_id["3"].score == pytest.approx(3 / 4) and by_id["3"].mode_correct
    assert by_id["4"].score == pytest.approx(3 / 3 / 2)  # non-captive 2 + free 1, of 3
    assert not by_id["5"].attempted and by_id["5"].score == 0 and not by_id["5"].stale
    assert scores.attempted == 4
    assert scores.score_sum == pytest.approx(1 / 3 + 2 / 3 + 3 / 4 + 1 / 2)
    assert official_figure(scores, "R") == pytest.approx(scores.score_sum / 6)


def test_oot_duplicates_compat_credits_each_fixed_once() -> None:
    gold = ["happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;"]
    line = ["happy.a 9999 ::: glad;glad;glad;merry"]
    compat = score_system("oot", read_gold(gold), line, "sys")
    fixed = score_system("oot", read_gold(gold, "fixed"), line, "sys")
    assert compat.score_sum == pytest.approx(11 / 7) and compat.duplicate_lines == 1
    assert fixed.score_sum == pytest.approx(5 / 7) and fixed.duplicate_lines == 1
    assert official_text(compat).splitlines()[0] == (
        "WARNING OOT file contains duplicates on 1 lines"
    )


def test_oot_scores_only_the_first_ten_guesses() -> None:
    gold = ["happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;"]
    guesses = ";".join(f"w{i}" for i in range(10)) + ";glad"
    scores = score_system(
        "oot", read_gold(gold), [f"happy.a 9999 ::: {guesses}"], "s", verbose=True
    )
    assert scores.score_sum == 0
    assert "happy.a Item 9999 exceeded 10 guesses" in scores.log


def test_nothing_attempted_dies_like_score_pl_in_compat_only() -> None:
    gold = read_gold(HAPPY_GOLD)
    with pytest.raises(ScorerDied) as died:
        official_text(score_system("best", gold, ["bad line"], "sys"))
    assert died.value.stdout == "Error in sys on line 1\n"
    fixed = official_text(
        score_system("best", read_gold(HAPPY_GOLD, "fixed"), ["happy.a 9999 :: ;"], "sys")
    )
    assert fixed.splitlines()[:2] == ["Total = 1, attempted = 0", "precision = n/a, recall = 0.00"]


def test_first_line_for_an_id_wins() -> None:
    gold = read_gold(HAPPY_GOLD)
    scores = score_system("best", gold, ["happy.a 9999 :: jovial", "happy.a 9999 :: glad"], "s")
    assert scores.score_sum == pytest.approx(1 / 7)


MW_GOLD = [
    "take.v 1 :: take place 3;take part 1;",
    "cross.n 2 :: cross section 2;",
    "bar.n 3 :: bar off 1;",
    "tie.n 4 :: a b 2;c d 2;",
]


def test_multiwords_compat_counts_empty_answers_fixed_does_not() -> None:
    system = ["take.v 1 :: take place", "cross.n 2 :: ", "bar.n 3 :: bar off", "tie.n 4 :: a b"]
    compat = score_multiwords(MW_GOLD, system, "s", "g")
    fixed = score_multiwords(MW_GOLD, system, "s", "g", "fixed")
    assert compat.total_modes == 2  # item 3: one annotator; item 4: tie
    assert (compat.found, compat.genuine, compat.matched) == (3, 2, 1)
    assert (fixed.found, fixed.genuine, fixed.matched) == (3, 1, 1)
    assert compat.figure("detection_R") == 1.0 and fixed.figure("detection_R") == 0.5


def test_fixed_rules_documented_examples() -> None:
    """docs/scoring.md: unsorted counts, 'pn' inside a word, a substitute listed twice."""
    lines = ["a.n 1 :: a1 1;b1 2;", "b.n 2 :: upnorth 2;down 1;", "c.n 3 :: aa 2;aa 1;bb 2;"]
    compat = read_gold(lines)
    fixed = read_gold(lines, "fixed")
    assert compat.modes.get("1") == "a1" and fixed.modes["1"] == "b1"
    assert "2" not in compat.items  # upnorth removed as "pn": one response left, out of T
    assert fixed.modes["2"] == "upnorth"
    assert dict(compat.items["3"].counts) == {"aa": 1, "bb": 2}
    assert dict(fixed.items["3"].counts) == {"aa": 3, "bb": 2} and fixed.modes["3"] == "aa"


def test_stale_answer_still_tries_the_mode_in_compat() -> None:
    gold = read_gold(["a.n 1 :: x1 2;y1 1;", "b.n 2 :: x1 3;z1 1;"])
    scores = score_system("best", gold, ["a.n 1 :: x1", "b.n 2 ::  "], "s")
    assert [row.stale for row in scores.items] == [False, True]
    assert (scores.attempted, scores.mode_attempted, scores.mode_correct) == (1, 2, 2)
    assert scores.score_sum == pytest.approx(2 / 3 + 3 / 4)


@pytest.mark.parametrize("task", ["best", "oot"])
@pytest.mark.parametrize(
    "sums",
    [
        {
            "item": 4,
            "score": 1.5,
            "attempted": 3,
            "mode_attempted": 2,
            "mode_correct": 1,
            "has_mode": 3,
        },
        {
            "item": 0,
            "score": 0.0,
            "attempted": 0,
            "mode_attempted": 0,
            "mode_correct": 0,
            "has_mode": 0,
        },
    ],
)
def test_the_scorer_figures_are_the_registered_official_measures(
    task: str, sums: dict[str, float]
) -> None:
    """The registry's official measures are built from OFFICIAL_RATIOS, and the drop-in
    scorer's figures (its per-PoS rows) are the registry's."""
    expected = {"P": 0.5, "R": 0.375, "mode_P": 0.5, "mode_R": 1 / 3} if sums["item"] else {}
    for name, (top, bottom) in OFFICIAL_RATIOS.items():
        assert LEADERBOARD_BY_NAME[f"{task}.{name}"].columns() == (top, bottom)
        assert figure(f"{task}.{name}", sums) == expected.get(name)
    row = PosScores.of(task, sums)
    shown = (row.precision, row.recall, row.mode_precision, row.mode_recall)
    assert shown == tuple(expected.get(name) for name in ("P", "R", "mode_P", "mode_R"))
