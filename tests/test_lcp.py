"""``python -m scoring.benchmark lcp``: MLSP-2024's lexical complexity figures as
``lcp_evaluate.py`` computes them (SciPy's Pearson and Spearman, scikit-learn's MAE, MSE
and R²): cases worked by hand, the script's conventions, and the shared MLSP ``*_lcp.tsv``
files against the figures the unmodified script gave on the systems of
:mod:`tests.tsar_systems` (``tests/data/lcp_official.json``)."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest

from scoring.benchmark.cli import main
from scoring.benchmark.lcp import METRICS, average_ranks, pearson, score, spearman, text_of
from scoring.errors import FormatError
from scoring.formats.lcp import parse_lcp, read_lcp
from tests.conftest import shared_path
from tests.tsar_systems import LCP_SYSTEMS, lcp_rows, write_lcp_system

GOLD = "a\ten\ts\tw\t1\nb\ten\ts\tw\t2\nc\ten\ts\tw\t3\n"
PREDICTIONS = "c\t2\na\t1\nb\t3\n"


def test_hand_worked_figures() -> None:
    # gold 1 2 3, predictions 1 3 2: centred (-1 0 1) and (-1 1 0), r = 1 / (√2·√2) = 1/2;
    # the same ranks, so rho = 1/2; errors 0 1 1: MAE = MSE = 2/3; SS_res 2, SS_tot 2: R² 0
    result = score(parse_lcp(GOLD.splitlines(), "g"), parse_lcp(PREDICTIONS.splitlines(), "p"))
    assert list(result.metrics) == list(METRICS)
    assert result.metrics == pytest.approx(
        {"pearson": 0.5, "spearman": 0.5, "mae": 2 / 3, "mse": 2 / 3, "r2": 0.0}, abs=1e-15
    )
    assert result.notes == ()


def test_average_ranks_and_spearman_with_ties() -> None:
    assert average_ranks([0.5, 0.1, 0.5, 0.9]) == [2.5, 1.0, 2.5, 4.0]
    # ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4): centred (-1.5, 0, 0, 1.5) and
    # (-1.5, -0.5, 0.5, 1.5): 4.5 / √(4.5·5) = √(4.5/5)
    assert spearman([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(math.sqrt(0.9), abs=1e-15)
    # SciPy's arithmetic to the last bit: pearsonr([1, 2, 3], [3, 2, 1]) is
    # -0.9999999999999998 there too (SciPy 1.17.1, NumPy 2.4.6)
    assert pearson([1, 2, 3], [3, 2, 1]) == -0.9999999999999998


def test_ids_from_the_gold_last_value_wins_extra_ids_noted() -> None:
    predictions = "a\t9\nc\t2\na\t1\nb\t3\nz\t0.5\n"
    result = score(parse_lcp(GOLD.splitlines(), "g"), parse_lcp(predictions.splitlines(), "p"))
    assert result.metrics["pearson"] == pytest.approx(0.5, abs=1e-15)
    assert result.notes == ("1 predicted ids are not in the gold: ignored (as the script)",)


def test_constant_predictions_have_no_correlation(tmp_path: Path) -> None:
    (tmp_path / "g.tsv").write_text(GOLD, encoding="utf-8")
    (tmp_path / "p.tsv").write_text("a\t0.5\nb\t0.5\nc\t0.5\n", encoding="utf-8")
    out = io.StringIO()
    args = ["lcp", str(tmp_path / "p.tsv"), "--data", str(tmp_path / "g.tsv")]
    assert main([*args, "--format", "json"], out) == 0
    data = json.loads(out.getvalue())
    assert data["pearson"] is None and data["spearman"] is None
    # errors 0.5, 1.5, 2.5: MAE 1.5; SS_res 8.75, SS_tot 2: R² = 1 - 4.375 (scikit-learn: -3.375)
    assert data["mae"] == 1.5
    assert data["r2"] == -3.375
    assert data["notes"] == [
        "the predictions are constant: Pearson and Spearman are undefined (the script prints nan)"
    ]


def test_refusals() -> None:
    gold = parse_lcp(GOLD.splitlines(), "g")
    with pytest.raises(FormatError, match=r"^p: no prediction for 1 gold ids: b$"):
        score(gold, parse_lcp(["a\t1", "c\t2"], "p"), "p")
    with pytest.raises(FormatError, match=r"^p:2: 3 tab-separated columns"):
        parse_lcp(["a\t1", "b\tx\t2"], "p")
    with pytest.raises(FormatError, match=r"^p:1: value 'nan' is not a finite number"):
        parse_lcp(["a\tnan"], "p")
    with pytest.raises(FormatError, match=r"^p:1: value 'high' is not a finite number"):
        parse_lcp(["a\ten\ts\tw\thigh"], "p")


def test_text_is_the_scripts_layout(tmp_path: Path) -> None:
    (tmp_path / "g.tsv").write_text(GOLD, encoding="utf-8")
    (tmp_path / "p.tsv").write_text(PREDICTIONS, encoding="utf-8")
    out = io.StringIO()
    assert main(["lcp", str(tmp_path / "p.tsv"), "--data", str(tmp_path / "g.tsv")], out) == 0
    # the script writes 0.4999999999999999 for this r (SciPy 1.17.1's pearsonr), as we do
    assert out.getvalue().startswith(
        "pearson:0.4999999999999999\nspearman:0.5\nmae:0.6666666666666666\n"
        "mse:0.6666666666666666\nr2:0.0\n"
    )
    assert text_of(dict.fromkeys(METRICS, 0.25)).count("\n") == 5


RECORDED = json.loads(
    (Path(__file__).parent / "data" / "lcp_official.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_shared_files_match_the_official_script(case: str, tmp_path: Path) -> None:
    relative, system = case.split("|")
    gold = shared_path("data", *relative.split("/"))
    predictions = write_lcp_system(tmp_path / "system.tsv", LCP_SYSTEMS[system](lcp_rows(gold)))
    result = score(read_lcp(gold), read_lcp(predictions))
    for metric in METRICS:
        assert result.metrics[metric] == pytest.approx(RECORDED[case][metric], abs=1e-12), metric


def test_two_items_give_scipy_s_exact_pearson() -> None:
    """SciPy's pearsonr returns the sign of the two differences' product for two items:
    exactly 1.0 (the arithmetic of more items gives 0.9999999999999998 for these)."""
    from scoring.benchmark.lcp import pearson

    assert pearson([0.12, 0.31], [0.5, 0.77]) == 1.0
    assert pearson([0.2, 0.4], [0.9, 0.1]) == -1.0


def test_one_item_gives_no_figure_and_says_why(tmp_path: Path) -> None:
    (tmp_path / "g.tsv").write_text("a\t0.25\n", encoding="utf-8")
    (tmp_path / "p.tsv").write_text("a\t0.5\n", encoding="utf-8")
    out = io.StringIO()
    args = ["lcp", str(tmp_path / "p.tsv"), "--data", str(tmp_path / "g.tsv")]
    assert main([*args, "--format", "json"], out) == 0
    data = json.loads(out.getvalue())
    assert (data["pearson"], data["spearman"], data["r2"]) == (None, None, None)
    assert (data["mae"], data["mse"]) == (0.25, 0.0625)
    assert data["notes"] == [
        "one item: Pearson, Spearman and R2 are undefined (SciPy's pearsonr stops with a "
        "ValueError, so the script stops there; scikit-learn's R2 is nan)"
    ]
