"""Hypothesis properties of the official measures (compat and fixed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.gold import read_gold
from scoring.official import score_system

_CLEAN = ["glad", "merry", "cheerful", "jovial", "bright", "clever", "smart", "take place",
          "able", "keen"]
_words = st.sampled_from([*_CLEAN, "brand-new"])
_clean_words = st.sampled_from(_CLEAN)


@st.composite
def gold_and_system(draw: st.DrawFn, words: st.SearchStrategy[str] = _words
                    ) -> tuple[list[str], list[str]]:
    n = draw(st.integers(1, 12))
    gold, system = [], []
    for item in range(1, n + 1):
        subs = draw(st.lists(words, min_size=1, max_size=5, unique=True))
        counts = draw(st.lists(st.integers(1, 5), min_size=len(subs), max_size=len(subs)))
        pairs = sorted(zip(subs, counts, strict=True), key=lambda p: -p[1])
        gold.append(f"w.{draw(st.sampled_from('nvar'))} {item} :: "
                    + "".join(f"{s} {c};" for s, c in pairs))
        if draw(st.booleans()):
            guesses = draw(st.lists(words.map(lambda w: w.replace("-", " ")), min_size=1,
                                    max_size=10, unique=True))
            system.append(f"w.n {item} :: " + ";".join(guesses))
    return gold, system


def _headline(measure: str, gold: list[str], system: list[str], rules: str) -> tuple[object, ...]:
    scores = score_system(measure, read_gold(gold, rules), system, "s")  # type: ignore[arg-type]
    return (scores.total_items, scores.attempted, round(scores.score_sum, 12),
            scores.total_modes, scores.mode_attempted, scores.mode_correct)


@settings(max_examples=150, deadline=None)
@given(gold_and_system(), st.sampled_from(["compat", "fixed"]), st.sampled_from(["best", "oot"]),
       st.randoms(use_true_random=False))
def test_order_of_lines_and_items_changes_no_score(case: tuple[list[str], list[str]], rules: str,
                                                   measure: str, rnd: random.Random) -> None:
    gold, system = case
    if measure == "oot":
        system = [line.replace(" :: ", " ::: ") for line in system]
    before = _headline(measure, gold, system, rules)
    rnd.shuffle(gold)
    rnd.shuffle(system)
    assert _headline(measure, gold, system, rules) == before


@settings(max_examples=150, deadline=None)
@given(gold_and_system(), st.sampled_from(["compat", "fixed"]), st.sampled_from(["best", "oot"]))
def test_scores_of_a_duplicate_free_system_lie_in_0_100(case: tuple[list[str], list[str]],
                                                        rules: str, measure: str) -> None:
    gold, system = case
    if measure == "oot":
        system = [line.replace(" :: ", " ::: ") for line in system]
    scores = score_system(measure, read_gold(gold, rules), system, "s")  # type: ignore[arg-type]
    for value in (scores.precision, scores.recall, scores.mode_precision, scores.mode_recall):
        assert value is None or 0.0 <= value <= 1.0 + 1e-12
    for row in scores.items:
        assert 0.0 <= row.score <= 1.0 + 1e-12


@settings(max_examples=100, deadline=None)
@given(gold_and_system(_clean_words))
def test_compat_and_fixed_agree_on_clean_files(case: tuple[list[str], list[str]]) -> None:
    """On files without any defect-triggering input (no hyphenated key, sorted gold, trimmed
    guesses) the two modes give the same numbers. Every example is such a file: the words
    drawn have no hyphen (a hyphenated mode is where the two differ: test_official)."""
    gold, system = case
    assert not any("-" in line for line in gold)
    assert _headline("best", gold, system, "compat") == _headline("best", gold, system, "fixed")


_nasty_subs = st.sampled_from(["glad", "merry", "x", "ab", "a b", "good deal", "11.27 kilograms",
                               "brand-new", "brand new", "non-captive", "garden ", "o'clock",
                               "Up", "upnorth", "pn"])
_nasty_guesses = st.sampled_from(["glad", " merry", "x", "11.27 kilograms", "brand-new",
                                  "brand new", "non-captive", "non captive", "garden", "oclock",
                                  "o'clock", "", " ", "glad\r", "up", "upnorth"])


@st.composite
def nasty_files(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Gold and system lines full of the defects score.pl has (docs/scoring.md)."""
    gold, system = [], []
    for _ in range(draw(st.integers(1, 10))):
        item = draw(st.integers(1, 6))  # repeated ids happen
        entries = draw(st.lists(st.tuples(_nasty_subs, st.integers(1, 4)), max_size=4))
        gold.append(f"w.n {item} :: " + "".join(f"{s} {c};" for s, c in entries))
    for _ in range(draw(st.integers(0, 10))):
        item = draw(st.integers(1, 7))
        guesses = draw(st.lists(_nasty_guesses, max_size=12))
        system.append(f"w.n {item} :: " + ";".join(guesses))
    return gold, system


@settings(max_examples=300, deadline=None)
@given(nasty_files(), st.sampled_from(["best", "oot"]))
def test_one_pass_comparison_gives_the_fixed_totals(case: tuple[list[str], list[str]],
                                                    measure: str) -> None:
    """The diagnosis' fixed figures (compat scan + differences) equal a real fixed scan,
    and its gold pair equals reading the gold twice."""
    from scoring.diagnose import RuleComparison, fixed_totals
    from scoring.gold import read_gold_pair

    gold, system = case
    if measure == "oot":
        system = [line.replace(" :: ", " ::: ") for line in system]
    compat, fixed, differ = read_gold_pair(gold)
    again = read_gold(gold, "fixed")
    assert {k: (v.norms, v.mode) for k, v in fixed.items.items()} == {
        k: (v.norms, v.mode) for k, v in again.items.items()}
    assert (fixed.total_items, fixed.total_modes) == (again.total_items, again.total_modes)
    comparison = RuleComparison(measure, fixed, differ)  # type: ignore[arg-type]
    scanned = score_system(measure, compat, system, "s", observer=comparison)  # type: ignore[arg-type]
    assert scanned == score_system(measure, read_gold(gold), system, "s")  # type: ignore[arg-type]
    derived = fixed_totals(scanned, fixed, comparison)
    direct = score_system(measure, again, system, "s", keep_items=False)  # type: ignore[arg-type]
    assert (derived.total_items, derived.attempted, derived.total_modes,
            derived.mode_attempted, derived.mode_correct, derived.duplicate_lines) == (
        direct.total_items, direct.attempted, direct.total_modes, direct.mode_attempted,
        direct.mode_correct, direct.duplicate_lines)
    assert abs(derived.score_sum - direct.score_sum) < 1e-9
