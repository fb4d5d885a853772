"""Hypothesis properties of the official measures (compat and fixed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.formats.gold import read_gold
from scoring.registry import official_figure
from scoring.score.scan import score_system

_CLEAN = [
    "glad",
    "merry",
    "cheerful",
    "jovial",
    "bright",
    "clever",
    "smart",
    "take place",
    "able",
    "keen",
]
_words = st.sampled_from([*_CLEAN, "brand-new"])
_clean_words = st.sampled_from(_CLEAN)


@st.composite
def gold_and_system(
    draw: st.DrawFn, words: st.SearchStrategy[str] = _words
) -> tuple[list[str], list[str]]:
    n = draw(st.integers(1, 12))
    gold, system = [], []
    for item in range(1, n + 1):
        subs = draw(st.lists(words, min_size=1, max_size=5, unique=True))
        counts = draw(st.lists(st.integers(1, 5), min_size=len(subs), max_size=len(subs)))
        pairs = sorted(zip(subs, counts, strict=True), key=lambda p: -p[1])
        gold.append(
            f"w.{draw(st.sampled_from('nvar'))} {item} :: " + "".join(f"{s} {c};" for s, c in pairs)
        )
        if draw(st.booleans()):
            guesses = draw(
                st.lists(
                    words.map(lambda w: w.replace("-", " ")), min_size=1, max_size=10, unique=True
                )
            )
            system.append(f"w.n {item} :: " + ";".join(guesses))
    return gold, system


def _headline(measure: str, gold: list[str], system: list[str], rules: str) -> tuple[object, ...]:
    scores = score_system(measure, read_gold(gold, rules), system, "s")  # type: ignore[arg-type]
    return (
        scores.total_items,
        scores.attempted,
        round(scores.score_sum, 12),
        scores.total_modes,
        scores.mode_attempted,
        scores.mode_correct,
    )


@settings(max_examples=150, deadline=None)
@given(
    gold_and_system(),
    st.sampled_from(["compat", "fixed"]),
    st.sampled_from(["best", "oot"]),
    st.randoms(use_true_random=False),
)
def test_order_of_lines_and_items_changes_no_score(
    case: tuple[list[str], list[str]], rules: str, measure: str, rnd: random.Random
) -> None:
    gold, system = case
    if measure == "oot":
        system = [line.replace(" :: ", " ::: ") for line in system]
    before = _headline(measure, gold, system, rules)
    rnd.shuffle(gold)
    rnd.shuffle(system)
    assert _headline(measure, gold, system, rules) == before


@settings(max_examples=150, deadline=None)
@given(gold_and_system(), st.sampled_from(["compat", "fixed"]), st.sampled_from(["best", "oot"]))
def test_scores_of_a_duplicate_free_system_lie_in_0_100(
    case: tuple[list[str], list[str]], rules: str, measure: str
) -> None:
    gold, system = case
    if measure == "oot":
        system = [line.replace(" :: ", " ::: ") for line in system]
    scores = score_system(measure, read_gold(gold, rules), system, "s")  # type: ignore[arg-type]
    for value in (official_figure(scores, name) for name in ("P", "R", "mode_P", "mode_R")):
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


_nasty_subs = st.sampled_from(
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
        "Up",
        "upnorth",
        "pn",
    ]
)
_nasty_guesses = st.sampled_from(
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
        "up",
        "upnorth",
    ]
)


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
def test_the_diff_of_two_scans_finds_every_difference(
    case: tuple[list[str], list[str]], measure: str
) -> None:
    """The diagnosis' diff of the compat and fixed scans: every item outside it scores the
    same under both, and the differences it lists add up to the difference of the totals;
    the gold pair the compiler uses equals reading the gold twice."""
    from scoring.formats.gold import read_gold_pair
    from scoring.score.diagnose import differing

    gold, system = case
    if measure == "oot":
        system = [line.replace(" :: ", " ::: ") for line in system]
    _compat, fixed_gold, _differ = read_gold_pair(gold)
    again = read_gold(gold, "fixed")
    assert {k: (v.norms, v.mode) for k, v in fixed_gold.items.items()} == {
        k: (v.norms, v.mode) for k, v in again.items.items()
    }
    assert (fixed_gold.total_items, fixed_gold.total_modes) == (
        again.total_items,
        again.total_modes,
    )
    compat = score_system(
        measure,  # type: ignore[arg-type]
        read_gold(gold),
        system,
        "s",
        trace=True,
    )
    fixed = score_system(measure, again, system, "s", trace=True)  # type: ignore[arg-type]
    lines = differing(compat, fixed)
    by_line = {row.line: row for row in fixed.items}
    for row in compat.items:
        if row.line not in lines:
            other = by_line[row.line]
            assert (row.score, row.attempted, row.mode_attempted, row.mode_correct) == (
                other.score,
                other.attempted,
                other.mode_attempted,
                other.mode_correct,
            )
    assert {row.line for row in fixed.items} - {row.line for row in compat.items} <= set(lines)
    delta = sum((b[0] if b else 0.0) - (a[0] if a else 0.0) for a, b in lines.values())
    assert abs(fixed.score_sum - compat.score_sum - delta) < 1e-9
    attempted = sum((b[1] & 1 if b else 0) - (a[1] & 1 if a else 0) for a, b in lines.values())
    assert fixed.attempted - compat.attempted == attempted


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(list("aB -';\r\té\u2019E\u0301")), max_size=12))
def test_the_fixed_split_reads_every_answer_guess_by_guess(answer: str) -> None:
    """guesses_fixed's fast path for a plain answer gives what reading each guess does."""
    from scoring.measures.official.items import guesses_fixed
    from scoring.terms import normalise

    assert guesses_fixed(answer) == [
        normalise(guess) for guess in answer.split(";") if normalise(guess)
    ]


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(list("aB -'\u2019;éE\u0301\u0130\u00dfK\u212a ")), max_size=12))
def test_the_normaliser_is_idempotent(term: str) -> None:
    """normalise(normalise(x)) == normalise(x): every path may normalise at its boundary."""
    from scoring.terms import normalise

    once = normalise(term)
    assert normalise(once) == once
    assert once == once.strip() and "  " not in once and "-" not in once
