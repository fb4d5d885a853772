"""The rules written once: the official credit (McCarthy & Navigli 2007, eq. 1-8) that the
line-by-line reference, the bulk scan and the exact route all call; the one text reader
(Perl's reading or the project's); the one ranked-line parser (scored, or GermEval's
unscored lines); the table of dataset formats. Every value is computed by hand."""

from __future__ import annotations

import gzip
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.errors import FormatError, TextError
from scoring.files.bounded import read_text
from scoring.formats.gold import gold_norms, read_gold
from scoring.formats.ranked import parse_ranking, parse_ranking_line
from scoring.formats.registry import FORMATS, NAMES, detected, format_named
from scoring.measures.official.items import (
    best_credit,
    official_outcome,
    oot_credit,
    score_item,
    score_lines,
)
from scoring.score.scan import score_system

ROOT = Path(__file__).resolve().parent.parent

# --- the credit ----------------------------------------------------------------------------

# freqs {a: 3, b: 1}, |H_i| = 4
NORMS = {"a": 3 / 4, "b": 1 / 4}


def test_best_credit_divides_by_the_guesses() -> None:
    """(3 + 1) / 4 / 2 = 0.5 (eq. 1-2); a guess the gold lacks earns nothing but counts."""
    assert best_credit(NORMS, ["a", "b"], 0.0) == (1.0, 0.5)
    assert best_credit(NORMS, ["a", "x"], 0.0) == (0.75, 0.375)
    assert best_credit(NORMS, ["x"], 0.0) == (0.0, 0.0)


def test_oot_credit_is_not_divided_and_fixed_counts_a_guess_once() -> None:
    """3/4 + 3/4 + 1/4 = 1.75 as score.pl adds it; 3/4 + 1/4 = 1 under the fixed rules."""
    assert oot_credit(NORMS, ["a", "a", "b"], False, 0.0) == 1.75
    assert oot_credit(NORMS, ["a", "a", "b"], True, 0.0) == 1.0
    assert oot_credit(NORMS, [], True, 0.0) == 0.0


def test_the_happy_example_in_fractions() -> None:
    """McCarthy & Navigli (2007), section 4: H_i = glad 3, merry 2, cheerful 1, jovial 1
    (|H_i| = 7), the system says glad;cheerful: best (3 + 1) / 7 / 2 = 2/7, oot 4/7."""
    counts = [("glad", 3), ("merry", 2), ("cheerful", 1), ("jovial", 1)]
    norms = gold_norms(counts, 7, Fraction)
    assert norms == {
        "glad": Fraction(3, 7),
        "merry": Fraction(2, 7),
        "cheerful": Fraction(1, 7),
        "jovial": Fraction(1, 7),
    }
    assert best_credit(norms, ["glad", "cheerful"], Fraction(0)) == (
        Fraction(4, 7),
        Fraction(2, 7),
    )
    assert oot_credit(norms, ["glad", "cheerful"], False, Fraction(0)) == Fraction(4, 7)


def test_credit_is_added_in_order_not_by_sum() -> None:
    """0.1 + 0.2 + 0.3 in order is 0.6000000000000001, as Perl adds it (Python's sum of
    floats compensates since 3.12 and would give 0.6)."""
    norms = {"a": 0.1, "b": 0.2, "c": 0.3}
    assert oot_credit(norms, ["a", "b", "c"], False, 0.0) == 0.6000000000000001


def test_gold_norms_copy_a_hyphenated_key_with_spaces() -> None:
    """run-down 2, tired 2 of 4: a half each, and ``run down`` too; a key written with a
    space keeps its own count when a hyphenated one folds onto it."""
    assert gold_norms([("run-down", 2), ("tired", 2)], 4, float) == {
        "run-down": 0.5,
        "tired": 0.5,
        "run down": 0.5,
    }
    assert gold_norms([("run down", 1), ("run-down", 3)], 4, Fraction)["run down"] == Fraction(1, 4)


@pytest.mark.parametrize(
    ("oot", "mode", "guesses", "expected"),
    [
        (False, "a", ["a", "b"], (True, True)),
        (False, "a", ["b", "a"], (True, False)),
        (True, "a", ["b", "a"], (True, True)),
        (True, "a", ["b"], (True, False)),
        (False, "0", ["0"], (False, False)),  # Perl's truth: a mode "0" is no mode
        (False, None, ["a"], (False, False)),
        (True, "a", [], (False, False)),
    ],
)
def test_the_mode_outcome(
    oot: bool, mode: str | None, guesses: list[str], expected: tuple[bool, bool]
) -> None:
    norms = {"a": 0.75, "b": 0.25}
    assert official_outcome(oot, norms, mode, guesses, False, 0.0)[2:] == expected


def test_score_item_is_the_credit_and_the_mode() -> None:
    gold = read_gold(["x.n 1 :: a 3;b 1;"], "fixed")
    item = gold.items["1"]
    assert score_item("best", "fixed", item, ["a", "b"]) == (1.0, 0.5, True, True)
    assert score_item("oot", "compat", item, ["b", "a", "a"]) == (1.75, 1.75, True, True)
    assert score_item("oot", "fixed", item, ["b", "a", "a"]) == (1.0, 1.0, True, True)


def test_the_scan_gives_the_reference_item_by_item_on_random_answers() -> None:
    """The bulk scan and the line-by-line reference both call score_item: their rows agree
    on random answers with repeats, stale lines, hyphens and misses."""
    rng = random.Random(2007)
    words = ["a", "b", "c-d", "c d", "e", "f"]
    gold_lines = [
        f"w.n {n} :: " + "".join(f"{w} {rng.randint(1, 4)};" for w in rng.sample(words, 3))
        for n in range(1, 60)
    ]
    system = []
    for n in range(1, 60):
        answer = ";".join(rng.choice(words) for _ in range(rng.randint(0, 12)))
        system.append(f"w.n {n} :{':' if n % 2 else ''}: {answer}")
    for rules in ("compat", "fixed"):
        gold = read_gold(gold_lines, rules)
        for measure in ("best", "oot"):
            lines = [line for line in system if (" ::: " in line) == (measure == "oot")]
            fast = score_system(measure, gold, lines, "s")
            slow = score_lines(measure, gold, lines, "s")
            assert fast.items == slow.items
            assert fast.score_sum == slow.score_sum
            for row in fast.items:
                credit, score, _tried, _right = score_item(
                    measure, rules, gold.items[row.id], row.answers
                )
                assert (row.credit, row.score) == (credit, score)


# --- the text reader -------------------------------------------------------------------------


def test_read_text_the_project_way_and_perl_s(tmp_path: Path) -> None:
    """A byte-order mark is dropped by the project's reading and kept by Perl's; a byte
    that is not UTF-8 is refused by the first and kept (surrogateescape) by the second; a
    .gz file is unpacked by the first only."""
    plain = tmp_path / "a.txt"
    plain.write_bytes(b"\xef\xbb\xbfglad\n")
    assert read_text(plain) == "glad\n"
    assert read_text(plain, perl=True) == "\ufeffglad\n"
    latin = tmp_path / "b.txt"
    latin.write_bytes(b"caf\xe9\n")
    with pytest.raises(TextError, match="byte 0xE9 at column 4 is not UTF-8"):
        read_text(latin)
    assert read_text(latin, perl=True) == "caf\udce9\n"
    packed = tmp_path / "c.txt.gz"
    packed.write_bytes(gzip.compress(b"glad\n"))
    assert read_text(packed) == "glad\n"
    assert read_text(packed, perl=True).encode("utf-8", "surrogateescape")[:2] == b"\x1f\x8b"
    wide = tmp_path / "d.txt"
    wide.write_bytes("glad\n".encode("utf-16"))
    for perl in (False, True):
        with pytest.raises(TextError, match="UTF-16 text"):
            read_text(wide, perl=perl)


# --- the ranked-line parser ------------------------------------------------------------------


def test_one_parser_reads_scored_and_germeval_lines() -> None:
    scored = parse_ranking_line("bright.a 1 :::: 0.9 clever;0.5 smart", 3, "r")
    assert [(item.candidate, item.score) for item in scored.candidates] == [
        ("clever", 0.9),
        ("smart", 0.5),
    ]
    unscored = parse_ranking_line("Ärger.n 7 :::: Wut;Zorn;Groll", 1, "g", scored=False)
    assert [(item.candidate, item.score) for item in unscored.candidates] == [
        ("Wut", 3.0),
        ("Zorn", 2.0),
        ("Groll", 1.0),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ärger.n 1 ::::", "g:2: expected 'LEXELT ID :::: CANDIDATE;…'"),
        ("Ärger.n 1 :::: Wut;Wut", "g:2: candidate 'Wut' is ranked twice"),
        ("Ärger.n 1 :::: 0.5 Wut", "g:2: candidate '0.5 Wut'"),  # a space inside: kept
    ],
)
def test_germeval_lines_keep_their_rules(text: str, message: str) -> None:
    if "0.5" in text:
        line = parse_ranking_line(text, 2, "g", scored=False)
        assert line.candidates[0].candidate == "0.5 Wut"
        return
    with pytest.raises(FormatError, match=message):
        parse_ranking_line(text, 2, "g", scored=False)


def test_a_scored_file_may_have_an_empty_ranking_and_says_so_for_repeats() -> None:
    assert parse_ranking(["bright.a 1 ::::"], "r")[0].candidates == ()
    with pytest.raises(FormatError, match="r:2: id 1 already on line 1 \\(ids must be unique"):
        parse_ranking(["bright.a 1 :::: 1 a", "bright.a 1 :::: 1 b"], "r")
    with pytest.raises(FormatError, match="g:2: id 1 already on line 1 \\(one line per item"):
        parse_ranking(["a.n 1 :::: a", "a.n 1 :::: b"], "g", scored=False)


# --- the table of formats --------------------------------------------------------------------

HEADS = {
    "semeval": b'<?xml version="1.0"?>\n<corpus lang="en">',
    "coinco": b'<?xml version="1.0"?>\n<!-- c -->\n<document>',
    "swords": b'  {"substitutes": {}}',
    "tsv": b"id\tlexelt\tsentence\n1\tb.a\t<head>b</head>\n",
    "csv": b"id,lexelt,sentence\n",
}


def test_each_format_is_one_row_and_the_detectors_exclude_one_another() -> None:
    assert NAMES == ("semeval", "coinco", "swords", "tsv", "csv", "tsar")
    for name, head in HEADS.items():
        assert [row.name for row in FORMATS if row.detect and row.detect(head)] == [name]
        assert detected(head) == format_named(name)
    assert detected("<corpus>".encode("utf-16")) == format_named("semeval")
    assert detected("id,lexelt".encode("utf-16")) is None
    assert format_named("tsar").detect is None  # read only when named
    with pytest.raises(ValueError, match="format 'xml' is not one of semeval, coinco"):
        format_named("xml")


def test_every_row_holds_its_functions_from_the_formats_layer() -> None:
    for row in FORMATS:
        functions = [function for function in (row.read, row.write, row.gold) if function]
        assert all(callable(function) for function in functions), row.name
        assert all(f.__module__.startswith("scoring.formats.") for f in functions), row.name
    assert [row.name for row in FORMATS if row.gold] == ["coinco", "swords", "tsar"]
    assert [row.name for row in FORMATS if row.write] == ["semeval", "tsv", "csv"]


@pytest.mark.parametrize(
    "first",
    [
        "scoring.formats.registry",
        "scoring.formats.importers",
        "scoring.formats.importers.read",
        "scoring.formats.importers.coinco",
        "scoring.formats.importers.hub",
    ],
)
def test_the_table_and_the_importers_load_in_either_order(first: str) -> None:
    """The table imports the importers' modules and the importers' entry imports the table
    (the package imports neither): a fresh interpreter imports any of them first."""
    code = f"import {first}; from scoring.formats.importers.read import parse_source; " + (
        "print(parse_source(b'id,lexelt,sentence\\n1,b.a,<head>b</head>\\n', 'f').lexelts[0].item)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "b.a\n", "")
