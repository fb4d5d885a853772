"""A SWORDS result on the leaderboard: ``scoring.leaderboard.cli`` scores it as
its ranked candidates, beside the other systems, with SWORDS' own figures; an exact answer
gets the same GAP as the same candidates in a ranked file and through the library."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from scoring.benchmark.convert import gold_to_swords
from scoring.benchmark.swords import evaluate_swords, parse_result
from scoring.benchmark.wordnet import wordnet_available
from scoring.formats.gold import read_gold, read_gold_as_written
from scoring.formats.ranked import parse_ranking, rankings_of
from scoring.formats.swords import ALL_LABELS, parse_swords
from scoring.leaderboard.cli import main as compare_main
from scoring.measures.ranking.items import gap
from tests.conftest import SMALL_XML

importer = pytest.importorskip("annotate.importer", reason="needs the web extra (defusedxml)")

GOLD = [
    "bright.a 1 :: smart 2;clever 1;",
    "bright.a 2 :: shiny 3;brilliant 1;",
    "stand.n.v 3 :: bear 2;tolerate 1;",
]
RANKED = (
    "bright.a 1 :::: 3 smart;2 clever\n"
    "bright.a 2 :::: 2 brilliant;1 shiny\n"  # the second best first: GAP below 1
    "stand.n.v 3 :::: 1 bear;1 tolerate\n"
)


def dataset() -> dict[str, Any]:
    instances = importer.parse_lexsub_xml(SMALL_XML, "small.xml").instances
    return gold_to_swords(read_gold_as_written(GOLD, "g"), instances, "none", "g")


def swords_result(data: dict[str, Any]) -> dict[str, Any]:
    """RANKED as a SWORDS result: each target's entries, in the same order and scores."""
    ranked = rankings_of(parse_ranking(RANKED.splitlines()))
    ids = {t["extra"]["legacy_id"]: tid for tid, t in data["targets"].items()}
    return {
        "substitutes_lemmatized": True,
        "substitutes": {
            ids[item]: [[c.candidate, c.score] for c in candidates]
            for item, candidates in ranked.items()
        },
    }


@pytest.mark.skipif(not wordnet_available(), reason="needs WordNet 3.0 (wordnet-base)")
def test_a_swords_result_is_scored_beside_the_others(tmp_path: Path) -> None:
    data = dataset()
    result = swords_result(data)
    (tmp_path / "gold").write_text("\n".join(GOLD) + "\n", encoding="utf-8")
    (tmp_path / "data.json").write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "s.json").write_text(json.dumps(result), encoding="utf-8")
    (tmp_path / "s.ranked").write_text(RANKED, encoding="utf-8")
    out = io.StringIO()
    argv = [str(tmp_path / "gold"), str(tmp_path / "s.json"), str(tmp_path / "s.ranked")]
    assert (
        compare_main([*argv, "--swords-data", str(tmp_path / "data.json"), "--format", "json"], out)
        == 0
    )
    body = json.loads(out.getvalue())
    # the same candidates: the same figures, whichever file they came in
    assert body["systems"]["s.json"] == body["systems"]["s.ranked"]
    # hand-computed GAP: item 1 ideal (1), item 2 (1/1 + 4/2) / (3/1 + 4/2) = 3/5, item 3
    # tied scores keep file order: ideal (1)
    assert body["systems"]["s.json"]["gap"] == pytest.approx((1 + 3 / 5 + 1) / 3)
    gold = read_gold(GOLD, "fixed")
    ranked = rankings_of(parse_ranking(RANKED.splitlines()))
    library = [float(gap(gold.items[i], ranked[i]).value) for i in ("1", "2", "3")]
    assert body["systems"]["s.json"]["gap"] == pytest.approx(sum(library) / 3)
    # SWORDS' own figures, as the benchmark computes them, beside the others
    expected = evaluate_swords(parse_swords(data, "d", ALL_LABELS), parse_result(result)).metrics
    assert body["swords"] == {"s.json": pytest.approx(expected)}
    assert body["swords_signature"].startswith("metric:swords|data:data.json|")
    out = io.StringIO()
    assert compare_main([*argv, "--swords-data", str(tmp_path / "data.json")], out) == 0
    assert "SWORDS (%, as SWORDS' evaluate reports them)" in out.getvalue()


def test_a_swords_result_needs_its_dataset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "gold").write_text("\n".join(GOLD) + "\n", encoding="utf-8")
    (tmp_path / "s.json").write_text('{"substitutes": {}}', encoding="utf-8")
    assert compare_main([str(tmp_path / "gold"), str(tmp_path / "s.json")], io.StringIO()) == 1
    assert "s.json: a SWORDS result; give the SWORDS dataset" in capsys.readouterr().err
