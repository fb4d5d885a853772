"""The file rules every reader and writer shares (scoring/files/__init__.py): UTF-8 text with its
byte-order mark dropped, UTF-16/32 named and refused, JSON that refuses too deep nesting
and over-long numbers at their place, and CSV cells no spreadsheet runs as formulas."""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

import pytest

from scoring.errors import TextError
from scoring.files import CsvWriter, finite_number, parse_json, spreadsheet_safe
from scoring.files.bounded import decode_text, read_text


def test_a_utf8_byte_order_mark_is_dropped() -> None:
    assert decode_text(b"\xef\xbb\xbfhappy.a 1 :: glad\n", "f") == "happy.a 1 :: glad\n"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "a\n".encode("utf-16"),
            "f.tsv: UTF-16 text (it starts with a UTF-16 byte-order mark); files are UTF-8 text",
        ),
        (
            "a\n".encode("utf-32"),
            "f.tsv: UTF-32 text (it starts with a UTF-32 byte-order mark); files are UTF-8 text",
        ),
        (
            "sentence\ttarget\n".encode("utf-16-le"),
            "f.tsv: UTF-16 text (a NUL byte beside each character); files are UTF-8 text",
        ),
        (
            "sentence\ttarget\n".encode("utf-16-be"),
            "f.tsv: UTF-16 text (a NUL byte beside each character); files are UTF-8 text",
        ),
        (
            b"one\ntwo gl\xe9ad\n",
            "f.tsv:2: byte 0xE9 at column 7 is not UTF-8 (invalid continuation byte)",
        ),
        (b"caf\xc3", "f.tsv:1: byte 0xC3 at column 4 is not UTF-8 (unexpected end of data)"),
    ],
)
def test_text_that_is_not_utf8_is_named(data: bytes, message: str) -> None:
    with pytest.raises(TextError) as raised:
        decode_text(data, "f.tsv")
    assert str(raised.value) == message


def test_read_text_gunzips_and_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "scores.jsonl.gz"
    path.write_bytes(gzip.compress(b"\xef\xbb\xbf{}\n"))
    assert read_text(path) == "{}\n"
    path.write_bytes(gzip.compress("{}".encode("utf-16")))
    with pytest.raises(TextError, match=f"^{path}: UTF-16 text"):
        read_text(path)


def test_json_nested_too_deep_is_a_decode_error_at_its_place() -> None:
    text = '{"a": 1,\n "b": ' + "[" * 50_000 + "]" * 50_000 + "}"
    with pytest.raises(json.JSONDecodeError) as raised:
        parse_json(text)
    error = raised.value
    assert error.msg == (
        "arrays and objects nested 50001 deep; at most about 1000 levels can be read"
    )
    assert (error.lineno, error.colno) == (2, 7 + 50_000 - 1)


def test_json_number_of_5000_digits_is_a_decode_error_at_its_place() -> None:
    text = "[1,\n 2, -" + "9" * 5000 + "]"
    with pytest.raises(json.JSONDecodeError) as raised:
        parse_json(text)
    error = raised.value
    assert error.msg == "a number of 5000 digits (at most 4300)"
    assert (error.lineno, error.colno) == (2, 6)


def test_json_parses_as_json_does() -> None:
    assert parse_json('{"a": [1, 2.5, null]}') == {"a": [1, 2.5, None]}


@pytest.mark.parametrize(
    ("value", "number"),
    [(1, 1.0), (2.5, 2.5), (10**400, None), (float("inf"), None), (True, None), ("1", None)],
)
def test_finite_number(value: object, number: float | None) -> None:
    assert finite_number(value) == number


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+cmd.best", "'+cmd.best"),
        ("-x.best", "'-x.best"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-0.5", "-0.5"),
        ("+3", "+3"),
        (-1, -1),
        (-0.25, -0.25),
        ("sys.best", "sys.best"),
        ("", ""),
    ],
)
def test_spreadsheet_safe(cell: object, safe: object) -> None:
    assert spreadsheet_safe(cell) == safe


def test_csv_writer_writes_safe_cells() -> None:
    out = io.StringIO()
    CsvWriter(out).writerow(["=1+1", -2, "a,b"])
    assert out.getvalue() == '\'=1+1,-2,"a,b"\n'
    assert next(csv.reader(io.StringIO(out.getvalue()))) == ["'=1+1", "-2", "a,b"]


def test_every_csv_the_project_writes_goes_through_csv_writer() -> None:
    """One writer: a second ``csv.writer`` would write formulas again."""
    root = Path(__file__).resolve().parent.parent
    writers = [
        str(path.relative_to(root))
        for package in ("scoring", "annotate")
        for path in sorted((root / package).rglob("*.py"))
        if "csv.writer(" in path.read_text(encoding="utf-8")
        or "csv.DictWriter(" in path.read_text(encoding="utf-8")
    ]
    assert writers == ["scoring/files/__init__.py"]


def test_a_count_past_a_double_is_nan_under_score_pl_rules_and_refused_under_the_fixed() -> None:
    """score.pl numifies a count of 400 digits as Inf, so its shares are NaN and it prints
    ``NaN``; the fixed rules refuse the count, naming the line and the rule."""
    from scoring.errors import FormatError
    from scoring.formats.gold import read_gold
    from scoring.formats.perl import perl_round, perl_str
    from scoring.score.report import official_text
    from scoring.score.scan import score_system

    assert (perl_str(float("nan")), perl_str(float("inf")), perl_round(float("nan"))) == (
        "NaN",
        "Inf",
        "NaN.00",
    )
    gold = "happy.a 1 :: glad " + "9" * 5000 + ";merry 1;\n"
    scores = score_system("best", read_gold(gold, "compat", "g"), "happy.a 1 :: glad\n", "s")
    assert official_text(scores).splitlines()[1] == "precision = NaN.00, recall = NaN.00"
    with pytest.raises(FormatError) as raised:
        read_gold(gold, "fixed", "g")
    assert str(raised.value) == (
        f"g:1: gold entry 'glad {'9' * 54}… must be 'SUBSTITUTE COUNT' (a whole number, "
        "or a decimal weight such as 2.5; at most 300 digits)"
    )
