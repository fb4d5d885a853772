"""The fast paths of the scorer give what the reference paths give, bit for bit.

- the chunked scan (:mod:`scoring.score.scan`, what
:func:`scoring.measures.official.items.score_system` runs on
  a whole file) against the line-by-line scan (:func:`scoring.measures.official.items.score_lines`,
  which
  follows score.pl line for line): every figure, every per-item row, the trace, the log;
- the chunked gold reader (:meth:`scoring.formats.gold._Reader.add_chunk`) against reading the
  lines one at a time (:meth:`scoring.formats.gold._Reader.add`);
- the answers a chunk's pre-pass calls plain or hyphenated
  (:func:`scoring.formats.lines.answer_kinds`) against both rule sets' own split of them.

The inputs are hostile on purpose: repeated and unknown ids, empty answers (score.pl
scores them with the previous line's guesses), empty guesses, hyphens, apostrophes,
``non-``, CR, tabs, case, non-ASCII letters and spaces, more than ten guesses, malformed
lines, gold items out of T or whose counts add up to 0.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring.formats.lines
from scoring.errors import FormatError, ScorerDied
from scoring.formats.gold import (
    Gold,
    _compat_rest,
    _Reader,
    parse_rest_compat,
    read_gold,
    read_gold_pair,
)
from scoring.formats.lines import HYPHENS, OTHER, answer_kinds
from scoring.measures.official.items import (
    OfficialScores,
    guesses_compat,
    guesses_fixed,
    score_lines,
)
from scoring.score.diagnose import diagnose, fixed_scan, select_dirty
from scoring.score.scan import score_system
from scoring.types import Task

_GOLD_SUBS = st.sampled_from(
    ["glad", "merry", "brand-new", "brand new", "x", "o'clock", "Glad", "café", "up north",
     "11.27", "pn", "very  glad", "non-stop"]
)  # fmt: skip
_GUESSES = st.sampled_from(
    ["glad", "merry", "brand new", "brand-new", "Glad", " glad", "glad ", "glad\r", "\tglad",
     "", " ", "non-stop", "non stop", "o'clock", "oclock", "café", "cafe\u0301", "x",
     "up north", "up  north", "glad\u00a0", "\u2019glad", "merry;", "-glad", "glad-",
     "up--north", "up -north", "none", "anon-ym", "non", "non-"]
)  # fmt: skip


@st.composite
def hostile_files(draw: st.DrawFn) -> tuple[str, str]:
    """A gold text and a best system text (``::``); oot tests put ``:::`` in."""
    gold = []
    for _ in range(draw(st.integers(0, 12))):
        item = draw(st.integers(1, 8))
        entries = draw(st.lists(st.tuples(_GOLD_SUBS, st.integers(0, 4)), max_size=5))
        line = f"w.n {item} :: " + "".join(f"{sub} {count};" for sub, count in entries)
        gold.append(draw(st.sampled_from([line, line, line, line + "\r", "garbage", ""])))
    system = []
    for _ in range(draw(st.integers(0, 16))):
        item = draw(st.integers(1, 9))
        answer = ";".join(draw(st.lists(_GUESSES, max_size=13)))
        answer = draw(st.sampled_from([answer, answer, answer, "", "  ", ";;", answer + ";"]))
        line = f"w.n {item} :: {answer}"
        system.append(draw(st.sampled_from([line, line, line, line, "not a line", "", " x"])))
    end = draw(st.sampled_from(["\n", ""]))
    return "\n".join(gold) + end, "\n".join(system) + end


def _oot(text: str) -> str:
    return text.replace(" :: ", " ::: ")


def _run(
    scan: object, measure: Task, gold: Gold, text: str | list[str], numbers: list[int] | None = None
) -> OfficialScores | str:
    try:
        return scan(measure, gold, text, "sys", keep_items=True, trace=True, numbers=numbers)  # type: ignore[operator,no-any-return]
    except ScorerDied as died:
        return f"died: {died.stdout!r} {died.reason}"


@settings(max_examples=300, deadline=None)
@given(hostile_files(), st.sampled_from(["best", "oot"]), st.sampled_from(["compat", "fixed"]))
def test_the_chunked_scan_is_the_line_by_line_scan(
    files: tuple[str, str], measure: Task, rules: str
) -> None:
    gold_text, system = files
    if measure == "oot":
        system = _oot(system)
    gold = read_gold(gold_text, rules)  # type: ignore[arg-type]
    fast = _run(score_system, measure, gold, system)
    slow = _run(score_lines, measure, gold, system)
    assert fast == slow  # every figure, row, log line and trace entry (floats to the bit)
    lines = system.split("\n")  # a selection of lines, numbered as in the file (the diagnosis)
    numbers = list(range(1, len(lines) + 1, 2))
    chosen = [lines[number - 1] for number in numbers]
    assert _run(score_system, measure, gold, chosen, numbers) == _run(
        score_lines, measure, gold, chosen, numbers
    )


@st.composite
def ordered_files(draw: st.DrawFn) -> tuple[str, str]:
    """A gold text and a system text that answers the gold's ids in the gold's order (the
    scan reads them in order) until, perhaps, it does not: ids left out, repeated, not in
    the gold, malformed lines, then perhaps any ids at all."""
    gold_text, _ = draw(hostile_files())
    ids = [line.split()[1] for line in gold_text.split("\n") if line.startswith("w.n ")]
    system = []
    for item_id in ids:
        answer = ";".join(draw(st.lists(_GUESSES, max_size=3)))
        line = f"w.n {item_id} :: {answer}"
        system += draw(
            st.sampled_from(
                [[line], [line], [line], [], [line, line], ["w.n 99 :: glad", line], ["x", line]]
            )
        )
    for _ in range(draw(st.integers(0, 4))):
        system.append(f"w.n {draw(st.integers(1, 9))} :: {draw(_GUESSES)}")
    return gold_text, "\n".join(system) + "\n"


@settings(max_examples=300, deadline=None)
@given(ordered_files(), st.sampled_from(["best", "oot"]), st.sampled_from(["compat", "fixed"]))
def test_a_system_in_the_gold_order_is_scanned_as_line_by_line(
    files: tuple[str, str], measure: Task, rules: str
) -> None:
    gold_text, system = files
    if measure == "oot":
        system = _oot(system)
    gold = read_gold(gold_text, rules)  # type: ignore[arg-type]
    assert _run(score_system, measure, gold, system) == _run(score_lines, measure, gold, system)


def test_the_chunked_scan_on_a_known_case() -> None:
    """Hand-computed: line 2 repeats id 1, line 3 is malformed, line 4's empty answer is
    scored with line 1's guesses (score.pl's stale @res), id 9 is not in the gold."""
    gold = read_gold(["w.n 1 :: glad 3;merry 1;", "w.n 2 :: glad 2;sunny 2;"], "compat")
    text = "w.n 1 :: glad;merry\nw.n 1 :: sunny\nnonsense\nw.n 2 :: \nw.n 9 :: glad\n"
    scores = score_system("best", gold, text, "sys", keep_items=True, trace=True)
    assert scores.log == ("Error in sys on line 3",)
    assert [row.line for row in scores.items] == [1, 4]
    # line 1: (3/4 + 1/4) / 2 guesses; line 4 (stale glad;merry against id 2): (2/4) / 2
    assert [row.score for row in scores.items] == [0.5, 0.25]
    assert [row.stale for row in scores.items] == [False, True]
    assert (scores.attempted, scores.mode_attempted, scores.mode_correct) == (1, 1, 1)
    assert scores.trace is not None and scores.trace.unscored == [(5, "9")]


@pytest.mark.parametrize("chunk", [1 << 20, 1])
def test_an_oot_answer_cut_to_ten_is_held_for_the_next_empty_answer(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """Hand-computed: line 1 has 11 guesses (a repeat: a duplicate line), cut to its
    first ten, so its 11th, ``sunny``, is no guess; line 2's empty answer is scored with
    those ten (score.pl's stale @res), and id 2's mode ``sunny`` is not among them. With
    chunks of one line (``chunk`` 1) the held guesses cross a chunk's end."""
    monkeypatch.setattr(scoring.formats.lines, "CHUNK", chunk)
    gold = read_gold(["w.n 1 :: glad 3;merry 1;", "w.n 2 :: sunny 3;glad 1;"], "compat")
    text = "w.n 1 ::: glad;glad;" + "x;" * 8 + "sunny\nw.n 2 ::: \n"
    scores = score_system("oot", gold, text, "sys", keep_items=True, trace=True)
    assert scores == score_lines("oot", gold, text, "sys", keep_items=True, trace=True)
    # line 1: glad twice, 3/4 each; line 2: glad twice against id 2, 1/4 each
    assert [row.score for row in scores.items] == [1.5, 0.5]
    assert [row.stale for row in scores.items] == [False, True]
    assert (scores.attempted, scores.duplicate_lines) == (1, 1)
    assert (scores.mode_attempted, scores.mode_correct) == (2, 1)


def test_the_chunked_scan_dies_where_score_pl_dies() -> None:
    gold = read_gold(["w.n 1 :: glad 0;merry 0;"], "compat")
    text = "bad line\nw.n 1 :: glad\nworse line\n"
    for scan in (score_system, score_lines):
        try:
            scan("best", gold, text, "sys")
        except ScorerDied as died:
            assert died.stdout == "Error in sys on line 1\n"
        else:  # pragma: no cover - the test fails
            raise AssertionError("score.pl dies dividing by zero here")


def _read_line_by_line(text: str, rules: str) -> Gold:
    reader = _Reader(rules, "<gold>")  # type: ignore[arg-type]
    reader.add_lines(text)
    return reader.gold()


@settings(max_examples=200, deadline=None)
@given(hostile_files(), st.sampled_from(["compat", "fixed"]))
def test_the_chunked_gold_reader_is_the_line_by_line_reader(
    files: tuple[str, str], rules: str
) -> None:
    gold_text = files[0]
    try:
        fast = read_gold(gold_text, rules)  # type: ignore[arg-type]
    except Exception as error:  # the fixed rules refuse some lines: alike both ways
        fast_error = repr(error)
        try:
            _read_line_by_line(gold_text, rules)
        except Exception as second:
            assert repr(second) == fast_error
        return
    slow = _read_line_by_line(gold_text, rules)
    assert fast == slow
    assert list(fast.items) == list(slow.items)  # the same order of ids


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


_ASCII_GUESSES = st.sampled_from(
    ["glad", "merry", "brand new", "brand-new", "Glad", " glad", "glad ", "glad\r", "\tglad",
     "", " ", "non-stop", "non stop", "nonstop", "o'clock", "oclock", "x", "up north",
     "up  north", "11.27", "very  glad", "pn", "brand-new", "-glad", "glad-", "up--north",
     "up -north", "none", "anon-ym", "non", "non-", "up-north"]
)  # fmt: skip


@st.composite
def ascii_files(draw: st.DrawFn) -> tuple[str, str]:
    """Mostly clean gold lines (so that most ids read alike under both rule sets) and
    answers of one to three guesses, quirky or not."""
    gold_text, _ = draw(hostile_files())
    clean = [f"w.n {item} :: glad 3;merry 1;" for item in range(1, 9)]
    gold_text = draw(
        st.sampled_from(["\n".join(clean), gold_text.encode("ascii", "replace").decode()])
    )
    system = []
    for _ in range(draw(st.integers(0, 16))):
        item = draw(st.integers(1, 9))
        answer = ";".join(draw(st.lists(_ASCII_GUESSES, min_size=1, max_size=3)))
        answer = draw(st.sampled_from([answer, answer, answer, "", "  ", ";;", answer + ";"]))
        line = f"w.n {item} :: {answer}"
        system.append(draw(st.sampled_from([line, line, line, line, "not a line", ""])))
    return gold_text, "\n".join(system) + draw(st.sampled_from(["\n", ""]))


@settings(max_examples=300, deadline=None)
@given(ascii_files(), st.sampled_from(["best", "oot"]))
def test_the_dirty_lines_the_scan_lists_explain_every_difference(
    files: tuple[str, str], measure: Task
) -> None:
    """On an ASCII file the compat scan lists the dirty lines itself (Trace.dirty); the
    diagnosis from them is the diagnosis of two full scans, to the bit."""
    gold_text, system = files
    if measure == "oot":
        system = _oot(system)
    try:
        compat_gold, fixed_gold, differ = read_gold_pair(gold_text)
    except FormatError:
        return
    try:
        compat = score_system(measure, compat_gold, system, "s", trace=True, differ=differ)
    except ScorerDied:
        return
    assert compat.trace is not None and compat.trace.dirty is not None
    full = score_system(measure, fixed_gold, system, "s", trace=True)
    dirty = select_dirty(measure, system, compat, differ)
    assert dirty.rows is not None  # listed by the scan, not read again from the text
    part = fixed_scan(measure, dirty, compat, fixed_gold, "s")
    assert _figures(part) == _figures(full)
    plain = score_system(measure, compat_gold, system, "s", trace=True)  # nothing listed
    assert diagnose(
        measure, system, compat, part, compat_gold, fixed_gold, differ, dirty
    ) == diagnose(measure, system, plain, full, compat_gold, fixed_gold, differ)


_ANSWERS = st.lists(
    st.sampled_from(["a", "b", "non", "no", "n", " ", "-", ";", "'", "X", "1", "\t", "\r", "é"]),
    max_size=8,
).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(_ANSWERS, max_size=8))
def test_a_plain_or_hyphenated_answer_is_split_alike_by_both_rule_sets(
    answers: list[str],
) -> None:
    """What the pre-pass calls plain is split by ``;`` under both rule sets and reads alike;
    a hyphenated answer is the same once its hyphens are spaces; anything else is left to
    the line-by-line checks."""
    rows = [("w.n", str(number), answer, "") for number, answer in enumerate(answers)]
    kinds = answer_kinds(rows)
    if not "".join(answers).isascii():
        assert kinds is None
        return
    assert kinds is not None and len(kinds) == len(answers)
    for answer, kind in zip(answers, kinds, strict=True):
        if kind == OTHER:
            continue
        split = (answer.replace("-", " ") if kind == HYPHENS else answer).split(";")
        assert guesses_compat(answer) == split == guesses_fixed(answer)
        assert (kind == HYPHENS) == ("-" in answer)


def test_the_kinds_of_some_answers() -> None:
    answers = ["glad;merry", "brand-new", "non-stop", "none;canon", "", "glad;", "-glad"]
    answers += ["up--north", "Glad", "up  north", "anon-ym", "glad\r", "o'clock", "11"]
    rows = [("w.n", "1", answer, "") for answer in answers]
    assert list(answer_kinds(rows) or ()) == [0, 1, 2, 0, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2]
    assert answer_kinds([("w.n", "1", "café", "")]) is None


_PLAIN_KEYS = st.sampled_from(["glad", "merry", "up north", "ab", "very glad", "x", "sunny"])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(_PLAIN_KEYS, st.integers(1, 10**18 - 1)), min_size=1, max_size=6))
def test_a_plain_gold_line_is_read_at_once_as_score_pl_reads_it(
    entries: list[tuple[str, int]],
) -> None:
    """A gold line both rule sets read alike (lower-case keys of two letters or more, each
    once, counts descending) is read without the field-by-field loop, to the same result;
    any other line goes through the loop."""
    rest = "".join(f"{key} {count};" for key, count in entries)
    fast, slow = parse_rest_compat(rest), _compat_rest(rest)
    keys = [key for key, _ in entries]
    counts = [count for _, count in entries]
    plain = "x" not in keys and len(set(keys)) == len(keys) and counts == sorted(counts)[::-1]
    assert fast.plain == plain
    same = ("in_t", "entries", "mode", "mode_delta", "mode_deleted")
    assert [getattr(fast, name) for name in same] == [getattr(slow, name) for name in same]


def test_a_plain_gold_line_read_at_once() -> None:
    rest = parse_rest_compat("glad 3;merry 3;sunny 1;")
    assert (rest.in_t, rest.entries, rest.mode, rest.mode_delta, rest.mode_deleted) == (
        True,
        (("glad", 3), ("merry", 3), ("sunny", 1)),
        "glad",
        0,
        True,
    )
    assert rest.plain
    assert not parse_rest_compat("glad 1;").in_t
    assert not parse_rest_compat("Glad 3;merry 1;").plain  # a capital: field by field


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(_PLAIN_KEYS, st.integers(1, 10**18 - 1)), min_size=1, max_size=6),
        min_size=1,
        max_size=8,
    )
)
def test_plain_gold_lines_made_in_one_loop_are_the_line_by_line_items(
    lines: list[list[tuple[str, int]]],
) -> None:
    """The chunked reader makes the items of plain lines in one loop (``_add_plain``):
    the same items, floats to the bit, as the field-by-field reading of each line."""
    text = "".join(
        f"w.n {number} :: " + "".join(f"{key} {count};" for key, count in entries) + "\n"
        for number, entries in enumerate(lines, 1)
    )
    fast, slow = read_gold(text, "compat"), _read_line_by_line(text, "compat")
    assert fast == slow
    assert list(fast.items) == list(slow.items)
