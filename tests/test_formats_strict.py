"""Strict readers: typed values, FILE:LINE messages naming the rule, round trips."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import FormatError
from scoring.formats.gold import (
    GoldEntry,
    GoldLine,
    format_gold_line,
    parse_gold_line,
    read_gold_lines,
)
from scoring.formats.system import SystemLine, format_system_line, parse_system_line, read_system
from scoring.formats.text import read_lines, write_lines


def test_read_gold_returns_typed_lines(tmp_path: Path) -> None:
    path = tmp_path / "gold"
    path.write_text("bright.a 1 :: intelligent 3;clever 2;smart 1;\nstand.n.v 7 :: bear 2;\n")
    first, second = read_gold_lines(path)
    assert first == GoldLine(
        "bright.a",
        "1",
        (GoldEntry("intelligent", 3), GoldEntry("clever", 2), GoldEntry("smart", 1)),
        1,
    )
    assert (second.pos, second.entries) == ("v", (GoldEntry("bear", 2),))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("bright.a 1 : x 1;", "expected 'LEXELT ID :: ANSWERS'"),
        ("bright.a 1 ::: x 1;", "expected 'LEXELT ID :: ANSWERS'"),
        ("bright.a  1 :: x 1;", "expected exactly 'LEXELT ID' before the separator"),
        ("bright 1 :: x 1;", "lexelt 'bright' is not lemma.pos"),
        ("bright.q 1 :: x 1;", "lexelt 'bright.q' is not lemma.pos"),
        ("bright.a 1 :: clever;", "entry 'clever' must be 'SUBSTITUTE COUNT'"),
        ("bright.a 1 :: clever 0;", "with a count of 1 or more"),
        ("bright.a 1 :: garden  1;", "must be non-empty, single-spaced, trimmed"),
        ("bright.a 1 :: a 1;a 2;", "substitute 'a' is listed twice"),
        ("bright.a 1 ::x 1;", "expected one space after '::'"),
    ],
)
def test_gold_rules(line: str, message: str) -> None:
    with pytest.raises(FormatError) as error:
        parse_gold_line(line, 4, "g.txt")
    assert str(error.value).startswith("g.txt:4: ")
    assert message in str(error.value)


def test_every_problem_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "sys.oot"
    path.write_text(
        "a.n 1 ::: x;y\n\na.n 1 ::: z\na.n 2 :: x\na.n 3 ::: x;x\n"
        "a.n 4 ::: " + ";".join("abcdefghijk") + "\na.n 5 :::  x\n"
    )
    with pytest.raises(FormatError) as error:
        read_system(path, "oot")
    assert error.value.problems == (
        f"{path}:3: id 1 already on line 1 (score.pl would ignore this line)",
        f"{path}:4: expected 'LEXELT ID ::: ANSWERS' (no ' :::' found)",
        f"{path}:5: an answer is repeated (oot would credit it twice)",
        f"{path}:6: 11 answers; oot scores at most 10",
        f"{path}:7: answer ' x' has leading or trailing white space",
    )


def test_crlf_is_tolerated_by_the_strict_reader(tmp_path: Path) -> None:
    path = tmp_path / "sys.best"
    path.write_bytes(b"a.n 1 :: x;y\r\n")
    assert read_system(path, "best") == (SystemLine("a.n", "1", ("x", "y"), 1),)


def test_bytes_survive_reading_and_writing(tmp_path: Path) -> None:
    path = tmp_path / "raw"
    data = b"a.n 1 :: caf\xc3\xa9;\xff odd\r\n"
    path.write_bytes(data)
    lines = read_lines(path)
    assert lines == ["a.n 1 :: café;\udcff odd\r"]
    write_lines(tmp_path / "copy", lines)
    assert (tmp_path / "copy").read_bytes() == data


_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz'-", min_size=1, max_size=8).filter(
    lambda w: w[0].isalpha()
)
_phrases = st.lists(_words, min_size=1, max_size=3).map(" ".join)
_lexelts = st.tuples(_words.filter(lambda w: "." not in w), st.sampled_from("nvar")).map(
    lambda t: f"{t[0]}.{t[1]}"
)
_ids = st.integers(min_value=1, max_value=10**6).map(str)


@given(
    _lexelts,
    _ids,
    st.lists(st.tuples(_phrases, st.integers(1, 9)), max_size=6, unique_by=lambda e: e[0]),
)
def test_gold_parse_format_round_trip(
    lexelt: str, item_id: str, entries: list[tuple[str, int]]
) -> None:
    gold = GoldLine(lexelt, item_id, tuple(GoldEntry(s, c) for s, c in entries), 3)
    assert parse_gold_line(format_gold_line(gold), 3) == gold


@given(
    _lexelts,
    _ids,
    st.lists(_phrases, min_size=1, max_size=10, unique=True),
    st.sampled_from(["best", "oot"]),
)
def test_system_parse_format_round_trip(
    lexelt: str, item_id: str, answers: list[str], kind: str
) -> None:
    line = SystemLine(lexelt, item_id, tuple(answers), 2)
    assert parse_system_line(format_system_line(line, kind), kind, 2) == line  # type: ignore[arg-type]


def test_read_gold_strict_refuses_a_malformed_line_and_otherwise_reads_as_fixed() -> None:
    from scoring.formats.gold import read_gold

    good = ["bright.a 1 :: intelligent 3;clever 2;", "bright.a 2 :: shining 2;"]
    strict = read_gold(good, "strict", "g")
    assert strict == read_gold("\n".join(good) + "\n", "fixed", "g")
    assert (strict.rules, strict.total_items, strict.modes) == (
        "fixed",
        2,
        {"1": "intelligent", "2": "shining"},
    )
    bad = [*good, "bright.a 3 :: clever  2;", "bright.a 1 :: clever 2;"]
    with pytest.raises(FormatError) as refused:
        read_gold(bad, "strict", "g")
    assert refused.value.problems == (
        "g:3: substitute 'clever ' must be non-empty, single-spaced, trimmed",
        "g:4: id 1 already on line 1 (ids must be unique)",
    )
    # the fixed rules read the same lines, trimming the key and merging the repeated id
    fixed = read_gold(bad, "fixed", "g")
    assert fixed.items["3"].counts == (("clever", 2),)
    assert fixed.items["1"].counts == (("intelligent", 3), ("clever", 4))
