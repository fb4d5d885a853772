"""The diagnosis' shortcut (scoring.score.diagnose.fixed_scan): the fixed scan reads only the
dirty lines, and takes every other line's fixed outcome from the compat scan. Whatever
it classifies as dirty must still be explained: the notes and the fixed figures must be
those of two full scans."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.formats.gold import read_gold_pair
from scoring.measures.official.items import OfficialScores
from scoring.score.diagnose import diagnose, fixed_scan, select_dirty, suspect_lines
from scoring.score.scan import score_system
from scoring.types import Task

GOLD = ["w.n 1 :: glad 3;merry 1;", "w.n 2 :: glad 2;sunny 1;", "w.n 3 :: happy 2;gay 1;"]
CLEAN = ["w.n 1 :: glad;merry", "w.n 2 :: sunny", "w.n 3 :: happy"]


def _figures(scores: OfficialScores) -> tuple[object, ...]:
    return (
        scores.total_items,
        scores.attempted,
        scores.score_sum,
        scores.total_modes,
        scores.mode_attempted,
        scores.mode_correct,
        scores.duplicate_lines,
    )


def both_ways(measure: Task, gold: list[str], system: list[str]) -> tuple[list[str], list[str]]:
    """The notes from the shortcut and from two full scans; the fixed figures must agree
    to the bit."""
    if measure == "oot":
        system = [line.replace(" :: ", " ::: ") for line in system]
    text = "".join(line + "\n" for line in system)
    compat_gold, fixed_gold, differ = read_gold_pair(gold)
    compat = score_system(measure, compat_gold, text, "s", trace=True)
    full = score_system(measure, fixed_gold, text, "s", trace=True)
    dirty = select_dirty(measure, text, compat, differ)
    part = fixed_scan(measure, dirty, compat, fixed_gold, "s")
    assert _figures(part) == _figures(full)
    return (
        diagnose(measure, text, compat, part, compat_gold, fixed_gold, differ, dirty),
        diagnose(measure, text, compat, full, compat_gold, fixed_gold, differ),
    )


# each case differs from a clean file by one kind of line the shortcut calls dirty
ANSWER_CASES = {
    "leading space": "w.n 1 ::  glad",
    "trailing space": "w.n 1 :: glad ",
    "CR": "w.n 1 :: glad\r",
    "tab": "w.n 1 :: glad\t",
    "non-ASCII white space": "w.n 1 :: glad\u00a0",
    "space around ;": "w.n 1 :: merry ; glad",
    "empty guess": "w.n 1 :: merry;;glad",
    "leading ;": "w.n 1 :: ;glad",
    "empty answer (stale)": "w.n 1 :: ",
    "hyphen": "w.n 1 :: gl-ad",
    "apostrophe": "w.n 1 :: gla'd",
    "non-": "w.n 1 :: non-glad",
    "double space": "w.n 1 :: very  glad",
    "repeated guess (oot)": "w.n 1 :: glad;glad;merry",
}
GOLD_CASES = {
    "one-character entry": "w.n 1 :: x 3;glad 1;",
    "numeric entry": "w.n 1 :: 11.27 3;glad 1;",
    "double-spaced entry": "w.n 1 :: very  glad 3;merry 1;",
    "pn substring": "w.n 1 :: upnorth 3;glad 1;",
    "hyphenated mode": "w.n 1 :: brand-new 3;glad 1;",
    "apostrophe (read alike)": "w.n 1 :: o'clock 3;glad 1;",
    "out of T for score.pl only": "w.n 1 :: x 1;glad 1;merry 1;",
}


@pytest.mark.parametrize("measure", ["best", "oot"])
@pytest.mark.parametrize("kind", sorted(ANSWER_CASES))
def test_a_dirty_answer_is_explained(kind: str, measure: Task) -> None:
    system = [ANSWER_CASES[kind], *CLEAN[1:]]
    if kind in ("leading space", "double space"):
        gold = ["w.n 1 :: glad 3;merry 1;very glad 2;", *GOLD[1:]]
    else:
        gold = GOLD
    fast, full = both_ways(measure, gold, system)
    assert fast == full


@pytest.mark.parametrize("measure", ["best", "oot"])
@pytest.mark.parametrize("kind", sorted(GOLD_CASES))
def test_a_dirty_gold_item_is_explained(kind: str, measure: Task) -> None:
    gold = [GOLD_CASES[kind], *GOLD[1:]]
    answers = {
        "one-character entry": "x",
        "numeric entry": "11.27",
        "double-spaced entry": "very glad",
        "pn substring": "upnorth",
        "hyphenated mode": "brand new",
        "apostrophe (read alike)": "oclock",
        "out of T for score.pl only": "glad",
    }
    system = [f"w.n 1 :: {answers[kind]}", *CLEAN[1:]]
    fast, full = both_ways(measure, gold, system)
    assert fast == full
    if kind != "apostrophe (read alike)":
        assert fast and fast[-1].startswith("diagnosis: under the fixed rules")


@pytest.mark.parametrize("measure", ["best", "oot"])
def test_a_repeated_id_is_explained(measure: Task) -> None:
    gold = [*GOLD, "w.n 1 :: merry 5;"]  # the fixed rules merge the counts
    system = ["w.n 1 :: merry", "w.n 1 :: glad", *CLEAN[1:]]  # the second line is skipped
    fast, full = both_ways(measure, gold, system)
    assert fast == full
    assert fast


def test_the_clean_file_has_nothing_to_explain() -> None:
    assert both_ways("best", GOLD, CLEAN) == ([], [])


def test_the_pre_pass_finds_every_kind() -> None:
    system = [CLEAN[0], *ANSWER_CASES.values()]
    text = "\n".join(system)
    repeats = 2 + list(ANSWER_CASES).index("repeated guess (oot)")  # reads alike
    assert suspect_lines(text, text.split("\n")) == set(range(2, len(system) + 1)) - {repeats}


_subs = st.sampled_from(
    [
        "glad",
        "merry",
        "x",
        "ab",
        "a b",
        "good deal",
        "11.27 kilograms",
        "brand-new",
        "brand new",
        "non-captive",
        "garden ",
        "o'clock",
        "very  glad",
        "Up",
        "upnorth",
        "pn",
        "9",
    ]
)
_guesses = st.sampled_from(
    [
        "glad",
        " merry",
        "x",
        "11.27 kilograms",
        "brand-new",
        "brand new",
        "non-captive",
        "non captive",
        "garden",
        "oclock",
        "o'clock",
        "",
        " ",
        "glad\r",
        "glad\t",
        "glad\u00a0",
        "up",
        "upnorth",
        "very  glad",
        "very glad",
        "9",
        "merry",
    ]
)


@st.composite
def files(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Gold and system lines with every defect the shortcut must notice, and clean lines."""
    gold = []
    for _ in range(draw(st.integers(1, 10))):
        item = draw(st.integers(1, 6))
        entries = draw(st.lists(st.tuples(_subs, st.integers(1, 4)), max_size=4))
        gold.append(f"w.n {item} :: " + "".join(f"{s} {c};" for s, c in entries))
    system = []
    for _ in range(draw(st.integers(0, 12))):
        item = draw(st.integers(1, 8))
        guesses = draw(st.lists(_guesses, max_size=12))
        system.append(f"w.n {item} :: " + ";".join(guesses))
    return gold, system


@settings(max_examples=300, deadline=None)
@given(files(), st.sampled_from(["best", "oot"]))
def test_the_shortcut_gives_what_two_full_scans_give(
    case: tuple[list[str], list[str]], measure: Task
) -> None:
    gold, system = case
    fast, full = both_ways(measure, gold, system)
    assert fast == full


def test_the_pre_pass_on_an_ascii_file() -> None:
    """The ASCII path (bytes, ``;`` read as a space) finds what the str path finds."""
    system = [CLEAN[0], *(line for line in ANSWER_CASES.values() if line.isascii())]
    text = "\n".join(system)
    expected = {
        number
        for number, line in enumerate(system, 1)
        if line not in (CLEAN[0], ANSWER_CASES["repeated guess (oot)"])
    }
    assert suspect_lines(text, text.split("\n")) == expected


def test_lines_that_only_repeat_a_guess_are_counted_not_listed() -> None:
    """An oot system that repeats its guesses (McCarthy & Navigli 2009 discuss it): the
    compat scan scores such lines for both rule sets at once and keeps counts, so the
    diagnosis lists none of them, yet gives the notes and fixed figures of two full scans.
    A line that also reads differently (a capital) stays listed, and the note's first lines
    merge both in file order."""
    gold = [f"w.n {item} :: glad 3;merry 1;" for item in range(1, 8)]
    system = [f"w.n {item} ::: glad;glad;merry" for item in range(1, 8)]
    system[2] = "w.n 3 ::: Glad;glad;glad"  # dirty for its capital as well
    system[5] = "w.n 6 ::: sunny;sunny"  # repeats a guess the gold does not credit
    text = "".join(line + "\n" for line in system)
    compat_gold, fixed_gold, differ = read_gold_pair(gold)
    compat = score_system("oot", compat_gold, text, "s", trace=True, differ=differ)
    dirty = select_dirty("oot", text, compat, differ)
    assert dirty.numbers == [3]
    assert compat.trace is not None and compat.trace.repeated == 6
    assert compat.trace.repeated_lines == [1, 2, 4, 5, 6]
    # what each line adds under the fixed rules (glad once), but line 3's compat score
    # (glad twice: dirty, rescanned) and line 6's 0 (sunny is not in the gold)
    assert list(compat.trace.scores) == [1.0, 1.0, 1.5, 1.0, 1.0, 0.0, 1.0]
    part = fixed_scan("oot", dirty, compat, fixed_gold, "s")
    full = score_system("oot", fixed_gold, text, "s", trace=True)
    assert _figures(part) == _figures(full)
    assert part.score_sum == 5.0 + 0.75  # the capital's glad once, sunny nothing
    notes = diagnose("oot", text, compat, part, compat_gold, fixed_gold, differ, dirty)
    plain = score_system("oot", compat_gold, text, "s", trace=True)
    assert notes == diagnose("oot", text, plain, full, compat_gold, fixed_gold, differ)
    assert notes[-2] == (
        "diagnosis: 7 lines repeat a guess; score.pl credits each repeat (lines 1, 2, 3, 4, 5, …)"
    )
