"""The analyses of McCarthy & Navigli (2009), section 4 (scoring/leaderboard/analyses.py):
hand-computed tiny
cases in exact fractions, the published upper bounds on the real test gold (45.76, 457.6), and
the real systems (context2vec on test, BL.out on trial) through every analysis."""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.files.bounded import read_text
from scoring.formats.gold import Gold, read_gold
from scoring.formats.perl import perl_round
from scoring.formats.system import SystemLine, parse_system_line, read_system
from scoring.leaderboard.analyses import (
    DuplicateAnalysis,
    Precision,
    WordOverlap,
    best_guesses,
    disambiguation_precision,
    gold_types,
    is_single_word,
    items_with_duplicates,
    oot_table,
    pos_order,
    substitute_type,
    type_overlap,
    upper_bounds,
)
from scoring.registry import official_figure
from scoring.score.scan import score_system
from scoring.types import Rules
from tests.conftest import shared_path

# A tiny gold. Item 4 has one response, so it is not in T; T = {1, 2, 3, 5, 6}.
# Modes: 1 smart, 5 operate, 6 sprint (2 and 3 tie at the top): T_m = {1, 5, 6}.
GOLD = """\
bright.a 1 :: smart 3;clever 1;
bright.a 2 :: shining 2;luminous 2;vivid 1;
bright.a 3 :: smart 1;intelligent 1;
bright.a 4 :: clever 1;
run.v 5 :: operate 2;manage 1;take charge 1;
run.v 6 :: sprint 4;dash 1;
"""


def gold(rules: Rules = "compat", text: str = GOLD) -> Gold:
    return read_gold(text, rules)


def lines(text: str) -> tuple[SystemLine, ...]:
    """Best-format lines read by the project's strict reader."""
    return tuple(
        parse_system_line(line, "best", number) for number, line in enumerate(text.splitlines(), 1)
    )


# --- upper bounds (4.1.1 eq. 7, 4.1.2) ---------------------------------------------------


def test_upper_bounds_of_the_tiny_gold_by_hand() -> None:
    bounds = upper_bounds(gold())
    # eq. 7: 3/4 + 2/5 (a tie: footnote 10) + 1/2 + 2/4 + 4/5 = 59/20, over |T| = 5
    assert bounds.best == Fraction(59, 100)
    assert bounds.oot == 1  # no item has more than 10 types
    assert bounds.oot_duplicates == Fraction(59, 10)  # ten copies of the top: 590%
    assert bounds.mode == 1  # answering smart, operate, sprint gets all of T_m
    assert (bounds.items, bounds.modes, bounds.max_types) == (5, 3, 3)
    assert bounds.as_dict()["best"] == 0.59


def test_oot_bound_below_100_when_an_item_has_eleven_types() -> None:
    text = (
        "run.v 7 :: go 2;move 1;flow 1;work 1;function 1;race 1;hurry 1;rush 1;jog 1;"
        "trot 1;gallop 1;\n"
    )
    compat, fixed = upper_bounds(gold("compat", text)), upper_bounds(gold("fixed", text))
    assert compat.best == fixed.best == Fraction(2, 12)
    assert compat.oot == fixed.oot == Fraction(2 + 9, 12)  # the ten largest of 12 responses
    assert compat.oot_duplicates == Fraction(20, 12)  # score.pl credits go ten times
    assert fixed.oot_duplicates == Fraction(11, 12)  # fixed credits a repeated guess once


def test_double_space_is_why_compat_and_fixed_bounds_differ() -> None:
    # score.pl reads "garden  1" as a separate key "garden " (docs/scoring.md)
    text = "garden.n 1 :: garden 2;lot 1;garden  1;\n"
    assert upper_bounds(gold("compat", text)).best == Fraction(2, 4)
    assert upper_bounds(gold("fixed", text)).best == Fraction(3, 4)


def test_compat_can_never_credit_a_hyphenated_mode() -> None:
    text = "open.a 1 :: open-air 2;outdoor 1;\n"
    assert upper_bounds(gold("compat", text)).mode == 0
    assert upper_bounds(gold("fixed", text)).mode == 1


def test_upper_bounds_refuse_an_empty_gold() -> None:
    with pytest.raises(ValueError, match=r"\|T\| must be positive"):
        upper_bounds(gold(text="bright.a 4 :: clever 1;\n"))


def _independent_best_bound(path: Path) -> Fraction:
    """eq. 7 straight from the file, with score.pl's entry pattern: fields containing "pn"
    dropped, an item in T when it has two fields or a first count above 1."""
    total = Fraction(0)
    items = 0
    for line in read_text(path, perl=True).splitlines():
        head = re.match(r"\S+ \S+ :: (.*)", line)
        if head is None:
            continue
        fields = [field for field in head.group(1).split(";") if field and "pn" not in field]
        counts = [
            int(m.group(2))
            for field in fields
            if (m := re.search(r"(\w[\w'\-\s]+) (\d+)", field, re.ASCII))
        ]
        if len(fields) > 1 or (counts and counts[0] > 1):
            items += 1
            total += Fraction(max(counts), sum(counts))
    return total / items


def _oracle_recall(measure: str, scored: Gold, copies: int, top: int) -> float | None:
    """Recall of a system that answers the ``top`` most frequent substitutes (``copies``
    times each), scored by the official scorer."""
    rows = []
    for item_id, item in scored.items.items():
        keys = [key for key, _ in sorted(item.counts, key=lambda kc: -kc[1])[:top]] * copies
        rows.append(
            f"{item.lexelt} {item_id} {'::' if measure == 'best' else ':::'} " + ";".join(keys)
        )
    assert measure in ("best", "oot")
    return official_figure(
        score_system("best" if measure == "best" else "oot", scored, rows, "oracle"), "R"
    )


@pytest.mark.shared_data
def test_best_upper_bound_on_the_test_gold_is_the_published_45_76() -> None:
    path = shared_path("data", "semeval2007", "test", "gold")
    bounds = upper_bounds(read_gold(read_text(path, perl=True), "compat"))
    assert f"{100 * float(bounds.best):.2f}" == "45.76"  # McCarthy & Navigli 2009, eq. 7
    assert bounds.best == Fraction(18451, 40320) == _independent_best_bound(path)
    assert bounds.items == 1696
    assert _oracle_recall("best", read_gold(read_text(path, perl=True)), 1, 1) == pytest.approx(
        float(bounds.best), abs=1e-12
    )
    # 4.1.2: 100% without duplicates (no item has more than 10 types), 457.6% with them
    assert bounds.oot == 1
    assert bounds.max_types == 9
    assert round(100 * float(bounds.oot_duplicates), 1) == 457.6
    assert bounds.mode == 1  # 4.1.1: "the theoretical upper bound is 100%"


@pytest.mark.shared_data
def test_oot_bounds_on_the_test_gold_match_oracles_through_the_scorer() -> None:
    scored = read_gold(read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True))
    bounds = upper_bounds(scored)
    assert _oracle_recall("oot", scored, 1, 10) == pytest.approx(1.0, abs=1e-12)
    assert _oracle_recall("oot", scored, 10, 1) == pytest.approx(
        float(bounds.oot_duplicates), abs=1e-12
    )


@pytest.mark.shared_data
def test_upper_bounds_fixed_test_and_trial() -> None:
    test_text = read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True)
    trial_text = read_text(shared_path("data", "semeval2007", "trial", "gold.trial"), perl=True)
    fixed = upper_bounds(read_gold(test_text, "fixed"))
    assert fixed.best == Fraction(1960369, 4273920)
    assert perl_round(float(fixed.best)) == "45.87"
    assert fixed.oot == fixed.oot_duplicates == fixed.mode == 1
    trial = upper_bounds(read_gold(trial_text, "compat"))
    assert trial.best == Fraction(341939, 743400)
    assert perl_round(float(trial.best)) == "46.00"
    assert trial.mode == Fraction(197, 203)  # close-fitting and open-air x5: hyphenated modes
    assert trial.oot == 1 and trial.max_types == 8
    trial_fixed = upper_bounds(read_gold(trial_text, "fixed"))
    assert trial_fixed.best == Fraction(341519, 743400)
    assert trial_fixed.mode == 1


# --- items with duplicates (Tables 7-8) ----------------------------------------------------

# Three oot systems on the tiny gold. dup repeats guesses on items 1 and 3.
DUP = """\
bright.a 1 ::: smart;smart;clever
bright.a 2 ::: vivid;glowing
bright.a 3 ::: intelligent;intelligent
run.v 5 ::: manage;operate
"""
SOLO = "bright.a 1 ::: smart\nrun.v 6 ::: sprint;dash\n"
FULL = """\
bright.a 1 ::: smart;clever
bright.a 2 ::: shining;luminous;vivid
bright.a 3 ::: smart;intelligent
run.v 5 ::: operate;manage;take charge
"""


def analyse(name: str, text: str, rules: Rules = "compat") -> DuplicateAnalysis:
    scored = gold(rules)
    return items_with_duplicates(name, score_system("oot", scored, text, name), scored)


def test_items_with_duplicates_by_hand() -> None:
    result = analyse("dup", DUP)
    assert result.iwd == 2 and result.iwd_ids == ("1", "3")
    # credits (compat, each repeat credited): 1: (3+3+1)/4, 2: 1/5, 3: (1+1)/2, 5: (1+2)/4
    everything = result.scores["all"]
    assert everything.recall == pytest.approx((7 / 4 + 1 / 5 + 1 + 3 / 4) / 5)  # 0.74
    assert everything.mode_recall == pytest.approx(2 / 3)  # smart, operate; not sprint
    # on IwD {1, 3}: (7/4 + 1) / 2 = 1.375, past 100% as 4.1.2 warns
    assert result.with_duplicates["all"].recall == pytest.approx(1.375)
    assert result.with_duplicates["all"].mode_recall == 1  # item 1 only has a mode
    # the rest {2, 5, 6}: (1/5 + 3/4 + 0) / 3; modes 5 (found) and 6 (not answered)
    assert result.without_duplicates["all"].recall == pytest.approx(19 / 60)
    assert result.without_duplicates["all"].mode_recall == pytest.approx(1 / 2)
    # by PoS: a = items 1, 2, 3: (7/4 + 1/5 + 1) / 3; v = items 5, 6: (3/4) / 2
    assert result.scores["a"].recall == pytest.approx(59 / 60)
    assert result.scores["v"].recall == pytest.approx(3 / 8)
    assert result.scores["n"].recall is None
    assert (result.order, result.mode_order) == ("av", "av")
    assert result.as_dict()["iwd_ids"] == ["1", "3"]


def test_fixed_rules_credit_a_repeated_guess_once() -> None:
    result = analyse("dup", DUP, "fixed")
    assert result.iwd == 2  # still reported
    assert result.with_duplicates["all"].recall == pytest.approx((1 + 1 / 2) / 2)


def test_oot_table_puts_systems_with_duplicates_first() -> None:
    rows = [analyse("solo", SOLO), analyse("full", FULL), analyse("dup", DUP)]
    # recall: dup 0.74 (IwD 2), full 4/5 = 0.8, solo (3/4 + 1) / 5 = 0.35
    assert rows[1].scores["all"].recall == pytest.approx(0.8)
    assert rows[0].scores["all"].recall == pytest.approx(0.35)
    assert [row.system for row in oot_table(rows)] == ["dup", "full", "solo"]
    # mode recall: all three 2/3; ties by name after the IwD group
    assert [row.system for row in oot_table(rows, "mode_recall")] == ["dup", "full", "solo"]


def test_pos_order_ties_follow_nvar() -> None:
    result = analyse("full", FULL)
    assert result.order == "av"  # a: (1 + 1 + 1) / 3 = 1, v: (1 + 0) / 2
    same = result.scores["a"]
    assert pos_order({"r": same, "v": same, "n": same}, "recall") == "nvr"


def test_items_with_duplicates_refuses_mismatched_rules_and_missing_rows() -> None:
    scores = score_system("oot", gold("compat"), DUP, "dup")
    with pytest.raises(ValueError, match="same rules"):
        items_with_duplicates("dup", scores, gold("fixed"))
    bare = score_system("oot", gold(), DUP, "dup", keep_items=False)
    with pytest.raises(ValueError, match="keep_items=True"):
        items_with_duplicates("dup", bare, gold())


# --- type overlap (4.2, Table 9) and disambiguation (4.3, Table 10) -------------------------

# melb: bg 1 smart, 2 glowing, 3 clever, (4 not in T), 5 manage (take charge is two
# words), 6 sprint. tor: 1 clever, 2 vivid, 3 smart, 5 operate, 6 dash.
MELB = """\
bright.a 1 :: smart
bright.a 2 :: glowing;vivid
bright.a 3 :: clever
bright.a 4 :: brainy
run.v 5 :: take charge;manage
run.v 6 :: sprint
"""
TOR = """\
bright.a 1 :: clever
bright.a 2 :: vivid
bright.a 3 :: smart
run.v 5 :: operate
run.v 6 :: dash
"""


def test_types_and_single_words() -> None:
    assert substitute_type(" open-air ") == "open air"
    assert substitute_type("o'clock") == "oclock"
    assert is_single_word("open-air") and not is_single_word("take charge")
    assert not is_single_word("  ")
    assert gold_types(gold()) == {
        "bright.a": {"smart", "clever", "shining", "luminous", "vivid", "intelligent"},
        "run.v": {"operate", "manage", "sprint", "dash"},
    }  # take charge: not one word
    assert best_guesses(gold(), lines(MELB), "melb") == {
        "1": "smart",
        "2": "glowing",
        "3": "clever",
        "5": "manage",
        "6": "sprint",
    }


def test_type_overlap_by_hand() -> None:
    tor, melb = type_overlap(gold(), {"melb": lines(MELB), "tor": lines(TOR)})
    # GU: bright {smart clever shining luminous vivid intelligent}, run {operate manage
    # sprint dash}. SU melb: bright {smart glowing clever}, run {manage sprint};
    # SU tor: bright {clever vivid smart}, run {operate dash}.
    # melb: overlap 2 + 2; #subs (3 + 2) / 2; uniq: bright {smart clever} - SU tor = 0,
    # run {manage sprint} - {operate dash} = 2.
    assert (melb.type_overlap, melb.subs, melb.type_overlap_uniq) == (
        Fraction(4, 2),
        Fraction(5, 2),
        Fraction(2, 2),
    )
    # tor: overlap 3 + 2; #subs (3 + 2) / 2; uniq: bright {vivid}, run {operate dash}.
    assert (tor.type_overlap, tor.subs, tor.type_overlap_uniq) == (
        Fraction(5, 2),
        Fraction(5, 2),
        Fraction(3, 2),
    )
    assert [word.lexelt for word in tor.words] == ["bright.a", "run.v"]
    assert tor.as_dict()["words"] == [
        {"lexelt": "bright.a", "gold_types": 6, "system_types": 3, "overlap": 3, "unique": 1},
        {"lexelt": "run.v", "gold_types": 4, "system_types": 2, "overlap": 2, "unique": 2},
    ]


def test_a_gold_key_loses_one_apostrophe_only_as_a_guess_does() -> None:
    text = "rock.n 1 :: rock'n'roll 2;pop 1;\n"  # the reader keeps rockn'roll
    (row,) = type_overlap(gold("compat", text), {"s": lines("rock.n 1 :: rock'n'roll")})
    assert row.type_overlap == 1
    result = disambiguation_precision(gold("fixed", text), {"s": lines("rock.n 1 :: rock'n'roll")})
    assert result.sys["s"] == Precision(1, 1)


def test_one_system_alone_has_uniq_equal_to_overlap() -> None:
    (melb,) = type_overlap(gold(), {"melb": lines(MELB)})
    assert melb.type_overlap_uniq == melb.type_overlap == 2


def test_disambiguation_precision_by_hand() -> None:
    result = disambiguation_precision(gold(), {"melb": lines(MELB), "tor": lines(TOR)})
    # T_m: 1 smart, 5 operate, 6 sprint. melb has smart and sprint in its SU_wp: Sys
    # {1, 6}, bg right on both. tor has smart (via item 3) and operate: Sys {1, 5}, bg
    # wrong on 1 (clever), right on 5. All = {1, 6} ∩ {1, 5} = {1}.
    assert result.all_ids == ("1",)
    assert result.sys["melb"].value == 1 and result.sys["melb"].items == 2
    assert result.sys["tor"].value == Fraction(1, 2)
    assert result.all["melb"].value == 1 and result.all["tor"].value == 0
    assert result.as_dict()["systems"] == {
        "melb": {"all": 1.0, "all_correct": 1, "sys": 1.0, "sys_correct": 2, "sys_items": 2},
        "tor": {"all": 0.0, "all_correct": 0, "sys": 0.5, "sys_correct": 1, "sys_items": 2},
    }


def test_exclude_leaves_items_out_of_both_analyses() -> None:
    systems = {"melb": lines(MELB), "tor": lines(TOR)}
    result = disambiguation_precision(gold(), systems, exclude={"1"})
    assert result.all_ids == () and result.all["melb"].value is None
    assert (result.sys["melb"].items, result.sys["tor"].items) == (1, 1)  # 6 and 5
    tor, melb = type_overlap(gold(), systems, exclude={"1"})
    # GU bright loses clever (only on item 1); melb's SU bright is {glowing, clever}
    assert melb.words[0] == WordOverlap("bright.a", 5, 2, 0, 0)
    assert tor.words[0] == WordOverlap("bright.a", 5, 2, 2, 2)  # vivid, smart


def test_repeated_id_and_no_system_are_refused() -> None:
    with pytest.raises(ValueError, match="id 1 already on line 1"):
        type_overlap(gold(), {"melb": lines(MELB + "bright.a 1 :: clever\n")})
    with pytest.raises(ValueError, match="no system"):
        disambiguation_precision(gold(), {})


@given(st.permutations(range(len(MELB.splitlines()))), st.permutations(range(5)))
def test_line_order_changes_nothing(melb_order: Sequence[int], tor_order: Sequence[int]) -> None:
    melb, tor = lines(MELB), lines(TOR)
    shuffled = {"melb": [melb[i] for i in melb_order], "tor": [tor[i] for i in tor_order]}
    plain = {"melb": melb, "tor": tor}
    assert type_overlap(gold(), shuffled) == type_overlap(gold(), plain)
    assert disambiguation_precision(gold(), shuffled) == disambiguation_precision(gold(), plain)


# --- real systems ---------------------------------------------------------------------------


@pytest.mark.shared_data
def test_context2vec_through_every_analysis() -> None:
    scored = read_gold(read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True))
    folder = shared_path("data", "systems", "context2vec")
    oot = score_system("oot", scored, read_text(folder / "test.generated.oot", perl=True), "c2v")
    dup = items_with_duplicates("context2vec", oot, scored)
    assert dup.iwd == 0 == oot.duplicate_lines
    assert dup.scores["all"].recall == official_figure(oot, "R")
    assert dup.without_duplicates["all"].recall == pytest.approx(
        official_figure(oot, "R"), abs=1e-12
    )
    assert perl_round(official_figure(oot, "R") or 0) == "14.05"
    assert (dup.order, dup.mode_order) == ("rvna", "vrna")
    best_lines = read_system(folder / "test.generated.best", "best")
    best = score_system("best", scored, read_text(folder / "test.generated.best", perl=True), "c2v")
    (overlap,) = type_overlap(scored, {"context2vec": best_lines})
    assert len(overlap.words) == 171
    assert overlap.type_overlap == overlap.type_overlap_uniq == Fraction(182, 171)
    # #subs independently: distinct (lexelt, answer) over items of T, one-word answers
    pairs = {(line.lexelt, line.answers[0]) for line in best_lines if line.id in scored.items}
    assert overlap.subs == Fraction(len(pairs), 171) == Fraction(1643, 171)
    result = disambiguation_precision(scored, {"context2vec": best_lines})
    # every bg equal to the mode is in Sys, so Sys's hits are the official mode hits
    assert result.sys["context2vec"].correct == best.mode_correct == 56
    assert result.sys["context2vec"].items == len(result.all_ids) == 171


@pytest.mark.shared_data
def test_trial_baseline_through_every_analysis() -> None:
    scored = read_gold(
        read_text(shared_path("data", "semeval2007", "trial", "gold.trial"), perl=True)
    )
    path = shared_path("data", "semeval2007", "trial", "BL.out")
    best = score_system("best", scored, read_text(path, perl=True), "BL.out")
    dup = items_with_duplicates("BL", best, scored)
    assert dup.iwd == 0 and dup.scores["all"].recall == official_figure(best, "R")
    assert dup.order == "anvr"
    baseline = read_system(path, "best")
    (overlap,) = type_overlap(scored, {"BL": baseline})
    assert len(overlap.words) == 34
    assert overlap.type_overlap == Fraction(26, 34)
    assert overlap.subs == Fraction(91, 34)
    result = disambiguation_precision(scored, {"BL": baseline})
    assert result.all["BL"] == result.sys["BL"]
    assert (result.sys["BL"].correct, result.sys["BL"].items) == (20, 29)
    assert best.mode_correct == 20  # no hit lost to a multiword or hyphenated bg
