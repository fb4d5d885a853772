"""GermEval 2015 LexSub (``python -m scoring.benchmark germeval``): best, oot and GAP on an
invented German gold (tests/data/germeval), every figure computed by hand from the
definitions (the task's score.pl and scoreGAP.pl could not be found to run:
docs/benchmarks.md)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.benchmark.cli import main
from scoring.benchmark.germeval import RankedLine, gap_figure, parse_ranked
from scoring.errors import FormatError
from scoring.formats.gold import GoldEntry, GoldLine, read_gold_lines

DATA = Path(__file__).parent / "data" / "germeval"


def run(*argv: str) -> dict[str, object]:
    out = io.StringIO()
    assert main(["germeval", *argv, "--format", "json"], out) == 0
    result: dict[str, object] = json.loads(out.getvalue())
    return result


def figures(result: dict[str, object]) -> tuple[float, ...]:
    names = ("precision", "recall", "mode precision", "mode recall")
    return tuple(round(float(str(result[name])), 10) for name in names)


# T is items 1-4 (item 5 has one entry of count 1); modes: Wut, hübsch, verstehen (item 2 ties).
# best: 3/6 + (1/5 + 2/5)/2 + 0 + 3/6 = 1.3 over 4 items; modes right on items 1 and 4 of 3.
# oot: 5/6 + 1/5 + 5/5 + 1/6 = 2.2 over 4; modes right on items 1 and 3 of 3.
@pytest.mark.parametrize(
    ("measure", "expected"),
    [
        ("best", (32.5, 32.5, 66.6666666667, 66.6666666667)),
        ("oot", (55.0, 55.0) + (66.6666666667,) * 2),
    ],
)
def test_best_and_oot_by_hand(measure: str, expected: tuple[float, ...]) -> None:
    result = run(str(DATA / f"system.{measure}"), "--data", str(DATA / "gold"), "-t", measure)
    assert figures(result) == expected
    assert str(result["signature"]).startswith(f"metric:germeval.{measure}|rules:fixed|data:gold|")


def test_compat_cuts_letters_outside_ascii() -> None:
    """The SemEval-2007 score.pl's reading: Ärgernis and hübsch are cut to rgernis and
    bsch, so item 2 earns 2/5 / 2 and item 3's mode can never be found."""
    best = run(str(DATA / "system.best"), "--data", str(DATA / "gold"), "--rules", "compat")
    assert figures(best) == (30.0, 30.0, 66.6666666667, 66.6666666667)
    oot = run(
        str(DATA / "system.oot"), "--data", str(DATA / "gold"), "-t", "oot", "--rules", "compat"
    )
    assert figures(oot) == (30.0, 30.0, 33.3333333333, 33.3333333333)


def test_gap_by_hand() -> None:
    """Items 1-4: 4.5/7.5, 2.5/(17/3), 1, (11/6)/(15/2); item 5 is not ranked (0); item 99
    is not a gold item (ignored). Mean over the 5 gold items: 3497/7650."""
    gold = read_gold_lines(DATA / "gold")
    ranked = parse_ranked((DATA / "system.rank").read_text(encoding="utf-8").splitlines())
    assert gap_figure(gold, ranked) == Fraction(3497, 7650)
    result = run(str(DATA / "system.rank"), "--data", str(DATA / "gold"), "-t", "gap")
    assert result["GAP"] == pytest.approx(100 * 3497 / 7650, abs=1e-12)


def test_gap_of_an_ideal_ranking_is_one_and_order_matters() -> None:
    item = GoldLine("Wut.n", "1", (GoldEntry("Zorn", 2), GoldEntry("Ärger", 1)))
    assert gap_figure([item], [RankedLine("Wut.n", "1", ("Zorn", "Ärger"))]) == 1
    assert gap_figure([item], [RankedLine("Wut.n", "1", ("Ärger", "Zorn"))]) == Fraction(5, 7)
    assert gap_figure([item], [RankedLine("Wut.n", "1", ("Groll", "Zorn"))]) == Fraction(2, 7)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ärger.n 1 ::: Wut;Zorn", "rank.txt:2: expected 'LEXELT ID :::: CANDIDATE;…'"),
        ("Ärger.n 1 :::: Wut;Wut", "rank.txt:2: candidate 'Wut' is ranked twice"),
        ("Ärger.n 1 :::: Wut; Zorn", "rank.txt:2: candidate ' Zorn' must be non-empty"),
        ("Ärger.x 1 :::: Wut", "rank.txt:2: lexelt 'Ärger.x' is not lemma.pos"),
        ("Ärger.n 3 :::: Zorn", "rank.txt:2: id 3 already on line 1"),
    ],
)
def test_ranked_file_errors(tmp_path: Path, text: str, message: str) -> None:
    ranked = tmp_path / "rank.txt"
    ranked.write_text(f"Ärger.n 3 :::: Wut\n{text}\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(FormatError, match=re.escape(message)):
        parse_ranked(ranked.read_text(encoding="utf-8").splitlines(), str(ranked))
    argv = ["germeval", str(ranked), "--data", str(DATA / "gold"), "-t", "gap"]
    with contextlib.redirect_stderr(err):
        assert main(argv, out) == 1
    assert message.split(":", 1)[1].split("'")[0] in err.getvalue()


@pytest.mark.parametrize(
    ("gold", "system", "where"),
    [
        ("Ärger.n 1 :: Wut;Zorn 2\n", "Ärger.n 1 :: Wut\n", "gold:1: entry 'Wut'"),
        ("Ärger.n 1 :: Wut 2\n", "Ärger.n 1 :: Wut\nÄrger.n 2 Wut\n", "best:2: expected"),
    ],
)
def test_best_refuses_malformed_lines(tmp_path: Path, gold: str, system: str, where: str) -> None:
    (tmp_path / "gold").write_text(gold, encoding="utf-8")
    (tmp_path / "best").write_text(system, encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(
            ["germeval", str(tmp_path / "best"), "--data", str(tmp_path / "gold")], io.StringIO()
        )
    assert status == 1
    assert where in err.getvalue()


def test_undefined_figures_are_zero_with_a_note(tmp_path: Path) -> None:
    """A gold whose only item is outside T (one entry, count 1) leaves every denominator 0."""
    (tmp_path / "gold").write_text("Flügel.n 5 :: Schwinge 1\n", encoding="utf-8")
    (tmp_path / "best").write_text("Flügel.n 5 :: Schwinge\n", encoding="utf-8")
    result = run(str(tmp_path / "best"), "--data", str(tmp_path / "gold"))
    assert figures(result) == (0.0, 0.0, 0.0, 0.0)
    assert result["notes"] == [
        f"best {name} is undefined (its denominator is 0); shown as 0"
        for name in ("precision", "recall", "mode precision", "mode recall")
    ]
