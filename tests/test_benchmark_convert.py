"""scoring.benchmark.convert: SWORDS' ids, gold + XML → SWORDS dataset (checked by SWORDS'
own code), SWORDS result ↔ ranked candidates round trips, and the command."""

from __future__ import annotations

import gzip
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from scoring.benchmark.convert import (
    context_id,
    gold_to_swords,
    main,
    ranking_lines,
    substitute_id,
    swords_result,
    target_id,
)
from scoring.benchmark.swords import (
    SwordsResult,
    evaluate_swords,
    parse_result,
    read_result_file,
)
from scoring.benchmark.wordnet import wordnet_available
from scoring.errors import FormatError
from scoring.formats.gold import read_gold_as_written
from scoring.formats.ranked import RankingLine, Scored, format_ranking_line, parse_ranking
from scoring.formats.swords import ALL_LABELS, parse_swords, read_swords
from tests import swords_systems
from tests.conftest import SMALL_XML, shared_path

importer = pytest.importorskip("annotate.importer", reason="needs the web extra (defusedxml)")

GOLD = [
    "bright.a 1 :: smart 2;clever 1;Smart 1;",
    "bright.a 2 :: shiny 3;pn 1;very  bright 1;",
    "stand.n.v 3 :: bear 2;tolerate 1;",
]


def converted(negatives: str = "none") -> dict[str, Any]:
    instances = importer.parse_lexsub_xml(SMALL_XML, "small.xml").instances
    return gold_to_swords(read_gold_as_written(GOLD, "g"), instances, negatives, "g")


def test_ids_are_swords_checksums() -> None:
    """SWORDS' ids of every context, target and substitute of the dev set, recomputed."""
    path = shared_path("data", "swords", "swords-v1.1_dev.json.gz")
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    for cid, context in data["contexts"].items():
        assert context_id(context["context"]) == cid
    for tid, t in data["targets"].items():
        assert target_id(t["context_id"], t["target"], t["offset"], t["pos"]) == tid
    for sid, sub in data["substitutes"].items():
        assert substitute_id(sub["target_id"], sub["substitute"]) == sid


def test_gold_to_swords() -> None:
    data = converted()
    dataset = parse_swords(data, "converted", ALL_LABELS)  # every id and offset checks out
    assert (dataset.contexts, dataset.targets) == (3, 3)
    by_item = {t.legacy_id: t for t in dataset.target_list}
    one = by_item["1"]
    assert (one.target, one.offset, one.pos, one.lexelt) == ("bright", 4, "ADJ", "bright.a")
    assert one.context == "The bright pupil & her friend."
    assert by_item["3"].pos == "VERB" and by_item["3"].lexelt == "stand.n.v"
    got = {
        (s.target_id, s.substitute): s.labels.count("TRUE_IMPLICIT") for s in dataset.substitutes
    }
    assert got == {
        (one.id, "smart"): 3,  # smart 2 + Smart 1: one SWORDS substitute (case ignored)
        (one.id, "clever"): 1,
        (by_item["2"].id, "shiny"): 3,  # pn left out
        (by_item["2"].id, "very bright"): 1,  # single-spaced
        (by_item["3"].id, "bear"): 2,
        (by_item["3"].id, "tolerate"): 1,
    }
    assert sid_of(data, one.id, "smart") == substitute_id(one.id, "Smart")


def sid_of(data: dict[str, Any], tid: str, text: str) -> str:
    found: list[str] = [
        sid
        for sid, sub in data["substitutes"].items()
        if sub["target_id"] == tid and sub["substitute"] == text
    ]
    assert len(found) == 1
    return found[0]


def test_pooled_negatives() -> None:
    dataset = parse_swords(converted("pooled"), "converted", ALL_LABELS)
    item = {t.id: t.legacy_id for t in dataset.target_list}
    negatives = sorted(
        (item[s.target_id], s.substitute)
        for s in dataset.substitutes
        if s.labels == ("FALSE_IMPLICIT",)
    )
    assert negatives == [("1", "shiny"), ("1", "very bright"), ("2", "clever"), ("2", "smart")]


def test_gold_item_without_sentence() -> None:
    instances = importer.parse_lexsub_xml(SMALL_XML, "small.xml").instances
    lines = read_gold_as_written(["bright.a 7 :: smart 2;"], "g")
    with pytest.raises(ValueError, match="g:1: item 7 has no sentence in the XML"):
        gold_to_swords(lines, instances, name="g")


def test_converted_gold_scores_as_swords_arithmetic() -> None:
    data = converted()
    system = swords_systems.implicit_counts(data)
    scores = evaluate_swords(
        parse_swords(data, "d", ALL_LABELS), parse_result(system), lambda w, p: w
    ).metrics
    # every substitute has only TRUE_IMPLICIT labels: share 1, acceptable; 6 returned, 6 hit
    assert scores["strict_a_p@10"] == 100.0 and scores["strict_a_r@10"] == 100.0
    assert scores["gap"] == 100.0


# SWORDS' evaluate() (the reference run of tests/test_benchmark_swords.py) on the SemEval-2007
# trial and test gold converted by `gold-to-swords GOLD --xml XML --negatives pooled`,
# LexSubDataset.from_dict accepting the file (its id checks passed), with the system
# swords_systems.implicit_counts; values in the order of SWORDS' keys.
REFERENCE = {
    "trial": (
        57.171464330413016,
        57.171464330413016,
        40.02804065895548,
        100.0,
        100.0,
        57.38565358660335,
        57.38565358660335,
        40.23834560112163,
        100.0,
        100.0,
        57.171464330413016,
        57.171464330413016,
        40.02804065895548,
        100.0,
        100.0,
        57.38565358660335,
        57.38565358660335,
        40.23834560112163,
        100.0,
        100.0,
        99.66666666666667,
        99.33333333333333,
        99.0794720806201,
    ),
    "test": (
        58.21815862215607,
        58.21815862215607,
        41.0617876424715,
        100.0,
        100.0,
        58.2724026526101,
        58.2724026526101,
        41.11577684463107,
        100.0,
        100.0,
        58.21815862215607,
        58.21815862215607,
        41.0617876424715,
        100.0,
        100.0,
        58.2724026526101,
        58.2724026526101,
        41.11577684463107,
        100.0,
        100.0,
        100.0,
        100.0,
        99.94955707724182,
    ),
}


@pytest.mark.skipif(not wordnet_available(), reason="needs WordNet 3.0 (wordnet-base)")
@pytest.mark.shared_data
@pytest.mark.parametrize("split", ["trial", "test"])
def test_converted_semeval_gold_equals_swords_own_evaluation(split: str, tmp_path: Path) -> None:
    folder = shared_path("data", "semeval2007", split)
    gold = folder / ("gold.trial" if split == "trial" else "gold")
    out = tmp_path / "data.json.gz"
    argv = ["gold-to-swords", str(gold), "--xml", str(folder / f"lexsub_{split}.xml")]
    assert main([*argv, "--negatives", "pooled", "-o", str(out)]) == 0
    with gzip.open(out, "rt", encoding="utf-8") as handle:
        system = swords_systems.implicit_counts(json.load(handle))
    metrics = evaluate_swords(read_swords(out, ALL_LABELS), parse_result(system)).metrics
    assert len(metrics) == len(REFERENCE[split])
    for (key, value), expected in zip(metrics.items(), REFERENCE[split], strict=True):
        assert math.isclose(value, expected, abs_tol=1e-9), (key, value, expected)


# --- SWORDS result ↔ ranked candidates ---------------------------------------------------


def test_round_trip_with_legacy_ids() -> None:
    dataset = parse_swords(converted(), "d", ALL_LABELS)
    ids = {t.legacy_id: t.id for t in dataset.target_list}
    result = SwordsResult(
        False,
        {
            ids["1"]: (Scored("smart", 0.9), Scored("very clever", 0.9), Scored("dim", -1.5)),
            ids["3"]: (),
        },
    )
    lines = ranking_lines(result, dataset)
    text = [format_ranking_line(line) for line in lines]
    assert text == ["bright.a 1 :::: 0.9 smart;0.9 very clever;-1.5 dim", "stand.n.v 3 ::::"]
    assert swords_result(parse_ranking(text, "r"), dataset) == result


def test_round_trip_without_legacy_ids() -> None:
    raw = {
        "contexts": {"c:1": {"context": "She took off the coat."}},
        "targets": {
            "t:1": {"context_id": "c:1", "target": "took", "offset": 4, "pos": "VERB"},
            "t:2": {"context_id": "c:1", "target": "coat", "offset": 17, "pos": "PROPN"},
        },
        "substitutes": {},
        "substitute_labels": {},
    }
    dataset = parse_swords(raw, "d", ALL_LABELS)
    result = SwordsResult(True, {"t:2": (Scored("jacket", 1e-05),), "t:1": (Scored("x", 2.0),)})
    lines = ranking_lines(result, dataset)
    assert [format_ranking_line(line) for line in lines] == [
        "coat.n t:2 :::: 1e-05 jacket",  # PROPN: n, as SWORDS lemmatises it
        "took.v t:1 :::: 2.0 x",
    ]
    assert swords_result(lines, dataset, lemmatized=True) == result
    with pytest.raises(FormatError, match="id t:9 is not a target of the dataset"):
        swords_result([RankingLine("x.n", "t:9", ())], dataset)
    bad = SwordsResult(True, {"t:1": (Scored("a;b", 1.0), Scored("  ", 0.0))})
    with pytest.raises(FormatError) as caught:
        ranking_lines(bad, dataset)
    assert caught.value.problems == (
        "substitutes.t:1[0]: 'a;b' cannot be a ranked candidate (non-empty, no ';')",
        "substitutes.t:1[1]: '  ' cannot be a ranked candidate (non-empty, no ';')",
    )


@pytest.mark.shared_data
def test_real_result_round_trips_through_the_command(tmp_path: Path) -> None:
    data = shared_path("data", "swords", "swords-v1.1_dev.json.gz")
    with gzip.open(data, "rt", encoding="utf-8") as handle:
        system = swords_systems.shuffled(json.load(handle))
    first, ranked, back = tmp_path / "s.json", tmp_path / "s.ranked", tmp_path / "b.json.gz"
    first.write_text(json.dumps(system), encoding="utf-8")
    assert main(["swords-to-ranked", str(first), "--data", str(data), "-o", str(ranked)]) == 0
    argv = ["ranked-to-swords", str(ranked), "--data", str(data), "--lemmatized"]
    assert main([*argv, "-o", str(back)]) == 0
    assert read_result_file(back) == read_result_file(first)
    out = io.StringIO()
    assert main(["swords-to-ranked", str(back), "--data", str(data)], out) == 0
    assert out.getvalue() == ranked.read_text(encoding="utf-8")
    assert len(out.getvalue().splitlines()) == 370


def test_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps(converted()), encoding="utf-8")
    ranked = tmp_path / "r.ranked"
    ranked.write_text("bright.a 99 :::: 1 smart\n", encoding="utf-8")
    assert main(["ranked-to-swords", str(ranked), "--data", str(data)]) == 1
    assert "line 1: id 99 is not a target of the dataset" in capsys.readouterr().err
