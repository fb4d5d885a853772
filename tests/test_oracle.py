"""Parity with score.pl: every case of ../shared/oracle/cases.tsv, standard output byte for byte."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from scoring.score import run
from tests.conftest import SHARED, shared_path


def _cases() -> list[dict[str, str]]:
    table = SHARED / "oracle" / "cases.tsv"
    if not table.exists():
        return [{"name": "missing-oracle"}]
    with table.open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


CASES = _cases()


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['name']}{'-v' if c.get('verbose') else ''}" for c in CASES]
)
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
    from scoring.gold import read_gold
    from scoring.io import read_lines

    trial = read_gold(read_lines(shared_path("data", "semeval2007", "trial", "gold.trial")))
    test = read_gold(read_lines(shared_path("data", "semeval2007", "test", "gold")))
    assert (trial.total_items, trial.total_modes) == (295, 203)
    assert (test.total_items, test.total_modes) == (1696, 1230)
