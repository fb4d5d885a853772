"""The scorer's line patterns are searched in linear time and find exactly what score.pl's
patterns, searched as written, find: the same start, end and groups on every line.

score.pl's patterns are kept here as the reference (searching them as written is quadratic
on a long line, fine on these short ones); bench/linear_bench.py times the new ones.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.formats import gold
from scoring.formats.lines import LINEAR, PATTERNS, iter_chunks
from scoring.measures.multiword.items import MW_LINE

SCORE_PL = {
    "MW_LINE": r"([\w.]+)\s+(\d+)\s*::\s*(.*)\s*$",
    "_MW_GOLD_LINE": r"([\w.]+)\s+(\d+)\s*:: (.*)",
    "FIRST_COUNT": r"[\w'\-\s]+ (\d+)",
    "ENTRY": r"(\w[\w'\-\s]+) (\d+)",
}
"""score.pl's patterns as it writes them (the linear ones replace these)."""

# characters each pattern tells apart: words, digits, dots, spaces of both kinds, colons,
# apostrophes, hyphens, a letter and a space that only Unicode classes know
CHARACTERS = "ab1_. .:::'-\t\r;é\xa0\x1c"
lines = st.text(alphabet=CHARACTERS, max_size=40)
LINEAR_LINES = st.lists(
    st.sampled_from(["a", "b.c", "1", " ", " :: ", " ::: ", ":", "\t", "é", "\xa0", "-"]),
    max_size=16,
).map("".join)


def found(source: str, flags: int, line: str) -> tuple[int, int, tuple[str | None, ...]] | None:
    """Where a pattern's match starts and ends, and its groups."""
    match = re.compile(source, flags).search(line)
    return None if match is None else (match.start(), match.end(), match.groups())


@settings(max_examples=3000)
@given(st.one_of(lines, LINEAR_LINES))
@example("aaaa b.c :: d")
@example("-- x y :: z ::: w")
@example("é.n 1 :: a")
def test_system_and_gold_lines_match_as_score_pl_reads_them(line: str) -> None:
    for kind in PATTERNS:
        for flags in (re.ASCII, 0):
            assert found(LINEAR[kind], flags, line) == found(PATTERNS[kind], flags, line)


@settings(max_examples=3000)
@given(st.one_of(lines, LINEAR_LINES.map(lambda line: line.replace("b.c", "12"))))
@example("a.b  12 :: x")
@example("x a 1::y  ")
@example("'- a b 12 c 3")
def test_multiword_and_gold_entry_patterns_match_as_score_pl_reads_them(line: str) -> None:
    ours = {
        "MW_LINE": MW_LINE.pattern,
        "_MW_GOLD_LINE": gold._MW_GOLD_LINE,
        "FIRST_COUNT": gold.FIRST_COUNT,
        "ENTRY": gold.ENTRY,
    }
    for name, source in SCORE_PL.items():
        new, old = found(ours[name], re.ASCII, line), found(source, re.ASCII, line)
        if name == "ENTRY" and new and old:
            # its match starts where the run of [\w'\-\s] holding the first group does:
            # the same end and groups (all the readers use), maybe an earlier start
            assert new[0] <= old[0]
            assert new[1:] == old[1:], name
        else:
            assert new == old, name


def test_a_long_line_is_repaired_as_score_pl_reads_it() -> None:
    """A line whose match is not at its start (hand-checked groups), and lines that never
    match, long enough that the quadratic search took seconds."""
    text = "%% " + "x" * 30_000 + " a.n 7 :: w;\n" + "y" * 30_000 + "\n" + "z " * 15_000 + "\n"
    ((first, rows),) = iter_chunks(text, "best")
    assert first == 1
    assert rows[0] == ("a.n", "7", "w;", "")
    assert rows[1] == ("", "", "", "y" * 30_000)  # not a line: kept to be reported
    assert rows[2] == ("", "", "", "z " * 15_000)
