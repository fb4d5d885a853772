"""Parity with score.pl, standard output byte for byte: the synthetic cases of
tests/data/oracle (self-contained) and every case of ../shared/oracle/cases.tsv."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest

from scoring.score.cli import run
from tests.conftest import SHARED, shared_path

OWN = Path(__file__).resolve().parent / "data" / "oracle"
DIED = b"Illegal division by zero at "
USAGE_LINE = b"score.pl usage: systemfile goldfile [-t best|oot|mw] [-v]"


def _read_cases(table: Path) -> list[dict[str, str]]:
    with table.open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _cases() -> list[dict[str, str]]:
    table = SHARED / "oracle" / "cases.tsv"
    if not table.exists():
        return [{"name": "missing-oracle"}]
    return _read_cases(table)


CASES = _cases()
OWN_CASES = _read_cases(OWN / "cases.tsv")


def _case_id(case: dict[str, str]) -> str:
    return f"{case['name']}{'-v' if case.get('verbose') else ''}"


def _expected_status(expected: bytes) -> int:
    """What ``run`` returns where score.pl printed ``expected``: 1 where score.pl died
    dividing by zero, 2 where it printed only its usage line, else 0."""
    if DIED in expected:
        return 1
    lines = expected.splitlines()
    return 2 if lines and all(line == USAGE_LINE for line in lines) else 0


@pytest.mark.parametrize("case", OWN_CASES, ids=[_case_id(c) for c in OWN_CASES])
def test_synthetic_oracle_case(case: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """score.pl's recorded output (stdout, then the die message on stderr) on invented
    files; the gold is given relative to the system file's folder, so an ``Error in`` line
    about the gold reads the same on every machine; an empty type passes no ``-t``."""
    system = OWN / case["system"]
    expected = (OWN / case["expected"]).read_bytes()
    monkeypatch.chdir(system.parent)
    argv = [system.name, os.path.relpath(OWN / case["gold"], system.parent)]
    if case["type"]:
        argv += ["-t", case["type"]]
    if case["verbose"]:
        argv.append(case["verbose"])
    out, err = io.BytesIO(), io.StringIO()
    assert run(argv, out, err) == _expected_status(expected)
    assert out.getvalue() == expected.split(DIED)[0]
    if DIED in expected:
        assert "dies here with 'Illegal division by zero'" in err.getvalue()


def test_synthetic_oracle_cover() -> None:
    """Every measure, with and without -v, the usage line and the division by zero."""
    assert len(OWN_CASES) >= 40
    kinds = {(case["type"], case["verbose"]) for case in OWN_CASES}
    assert {
        ("best", ""),
        ("best", "-v"),
        ("oot", ""),
        ("oot", "-v"),
        ("mw", ""),
        ("mw", "-v"),
    } <= kinds
    statuses = [_expected_status((OWN / case["expected"]).read_bytes()) for case in OWN_CASES]
    assert statuses.count(1) >= 5
    assert statuses.count(2) >= 3


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_oracle_case(case: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    root = shared_path("oracle")
    assert "system" in case, "../shared/oracle/cases.tsv is missing"
    system = root.parent / case["system"]
    gold = (root.parent / case["gold"]).resolve()
    expected = (root.parent / case["expected"]).read_bytes()
    monkeypatch.chdir(system.parent)
    argv = [system.name, str(gold), "-t", case["type"]]
    if case["verbose"]:
        argv.append(case["verbose"])
    out, err = io.BytesIO(), io.StringIO()
    assert run(argv, out, err) == 0
    assert out.getvalue() == expected


def test_oracle_has_38_cases() -> None:
    shared_path("oracle", "cases.tsv")
    assert len(CASES) == 38


def test_known_published_figures(shared: Path) -> None:
    """Facts from ../shared/data/README.md: trial |T| = 295 (203 with a mode), test |T| =
    1,696 (1,230 with a mode)."""
    from scoring.formats.gold import read_gold
    from scoring.formats.text import read_lines

    trial = read_gold(read_lines(shared_path("data", "semeval2007", "trial", "gold.trial")))
    test = read_gold(read_lines(shared_path("data", "semeval2007", "test", "gold")))
    assert (trial.total_items, trial.total_modes) == (295, 203)
    assert (test.total_items, test.total_modes) == (1696, 1230)
