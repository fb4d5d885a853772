"""``python -m scoring.benchmark tsar``: TSAR-2022's and MLSP-2024's lexical simplification
figures as ``tsar_eval.py`` computes them.

Small invented files with figures worked by hand (each convention of the script: exact
strings, the word dropped, repeats dropped, the average over the prediction lines, MAP@K
divided by K, the most frequent gold substitutes), the inputs on which the script stops,
and the shared TSAR and MLSP golds against the figures the unmodified script gave on
the systems of :mod:`tests.tsar_systems` (``tests/data/tsar_official.json``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from scoring.benchmark.cli import main
from scoring.benchmark.tsar import (
    METRICS,
    Matching,
    TsarScores,
    average_precision_over_k,
    floored,
    score,
    text_of,
)
from scoring.errors import FormatError
from scoring.formats.tsar import parse_tsar, read_tsar
from scoring.lexsub import main as lexsub_main
from tests.conftest import shared_path
from tests.tsar_systems import SYSTEMS, gold_rows, write_system

GOLD = "s one\tw\ta\tb\ta\tc\ns two\tx\tp\tq\n"
PREDICTIONS = "s one\tw\tb\tw\tb\ta\ns two\tx\n"
# item 1: gold a:2 b:1 c:1 (top: a); predictions b, a (w and the second b dropped):
#   both gold, so Potential@K = 1, AP = 1/1 + 2/2 = 2, MAP@K = 2/K; Acc@1 = 0 (b is not
#   top), Acc@2 = Acc@3 = 1.
# item 2: an empty line: 0 everywhere, but it counts: every figure is item 1's over 2.
EXPECTED = {
    "MAP@1/Potential@1/Precision@1": 0.5,
    "MAP@3": 1 / 3,
    "MAP@5": 0.2,
    "MAP@10": 0.1,
    "Potential@3": 0.5,
    "Potential@5": 0.5,
    "Potential@10": 0.5,
    "Accuracy@1@top_gold_1": 0.0,
    "Accuracy@2@top_gold_1": 0.5,
    "Accuracy@3@top_gold_1": 0.5,
}


def scored(
    gold: str, predictions: str, *, keep_word: bool = False, matching: Matching = "raw"
) -> TsarScores:
    return score(
        parse_tsar(gold.splitlines(), "gold.tsv"),
        parse_tsar(predictions.splitlines(), "system.tsv"),
        keep_word=keep_word,
        matching=matching,
    )


def test_hand_worked_figures() -> None:
    result = scored(GOLD, PREDICTIONS)
    assert list(result.metrics) == list(METRICS)
    assert result.metrics == pytest.approx(EXPECTED, abs=1e-15)
    assert result.notes == ()


def test_map_divides_by_k_not_by_the_gold_or_the_hits() -> None:
    # gold a b c d; predictions x a: AP@3 = 1/2 (a at rank 2), MAP@3 = (1/2)/3
    result = scored("s\tw\ta\tb\tc\td\n", "s\tw\tx\ta\n")
    assert result.metrics["MAP@3"] == pytest.approx(1 / 6, abs=1e-15)
    assert result.metrics["MAP@10"] == pytest.approx(1 / 20, abs=1e-15)
    assert average_precision_over_k([True, False, True], 3) == pytest.approx(5 / 9)
    assert average_precision_over_k([False, False, False, True], 3) == 0.0


def test_exact_strings_case_and_padding() -> None:
    # "A" is not "a" (exact match); " b " is stripped to "b"; the word is dropped only
    # when written exactly
    result = scored("s\tw\ta\tb\n", "s\tw\tA\t b \tW\n")
    assert result.metrics["MAP@1/Potential@1/Precision@1"] == 0.0  # A first, not gold
    assert result.metrics["Potential@3"] == 1.0
    assert result.metrics["MAP@3"] == pytest.approx((1 / 2) / 3, abs=1e-15)


def test_fixed_matching_goes_through_the_normaliser() -> None:
    gold = "s\tWell-known\tfamous\tfamous\tWell known\tknown\n"
    predictions = "s\tWell-known\twell known\tFamous\tFAMOUS\tknown\n"
    raw = scored(gold, predictions)
    fixed = scored(gold, predictions, matching="fixed")
    # raw: nothing matches ("well known" is not "Well known", Famous not famous) but known
    # at rank 4, past K = 3
    assert raw.metrics["Potential@3"] == 0.0
    assert raw.metrics["Potential@5"] == 1.0
    # fixed: "well known" is the word (dropped, in gold and predictions); famous (twice
    # in gold: the top) at rank 1, its repeat dropped, known at rank 2
    assert fixed.metrics["Accuracy@1@top_gold_1"] == 1.0
    assert fixed.metrics["MAP@3"] == pytest.approx(2 / 3, abs=1e-15)


def test_gold_word_keep_is_mlsps_setting() -> None:
    # the gold names the word twice: kept, it is the most frequent; the predictions
    # never keep it
    gold, predictions = "s\tw\tw\tw\ta\n", "s\tw\tw\ta\n"
    assert scored(gold, predictions).metrics["Accuracy@1@top_gold_1"] == 1.0
    kept = scored(gold, predictions, keep_word=True).metrics
    assert kept["Accuracy@1@top_gold_1"] == 0.0
    assert kept["MAP@1/Potential@1/Precision@1"] == 1.0


def test_average_over_the_prediction_lines_last_line_of_a_key_wins() -> None:
    gold = "s1\tw\ta\ns2\tw\tb\ns3\tw\tc\n"
    # s3 has no line (not counted); s1 given twice: its last line (a hit) counts once
    result = scored(gold, "s1\tw\tz\ns2\tw\tz\ns1\tw\ta\n")
    assert len(result.rows) == 2
    assert result.metrics["MAP@1/Potential@1/Precision@1"] == 0.5


def test_ties_at_the_top_of_the_gold_all_count() -> None:
    result = scored("s\tw\ta\tb\tb\ta\tc\n", "s\tw\tb\n")
    assert result.metrics["Accuracy@1@top_gold_1"] == 1.0
    assert scored("s\tw\ta\tb\tb\ta\tc\n", "s\tw\tc\n").metrics["Accuracy@3@top_gold_1"] == 0.0


def test_gold_with_only_the_word_scores_zero_with_a_note() -> None:
    # tsar_eval.py: IndexError (no most frequent substitute) for a non-empty line
    result = scored("s\tw\tw\tw\ns2\tx\ta\n", "s\tw\ta\ns2\tx\ta\n")
    assert result.metrics["MAP@1/Potential@1/Precision@1"] == 0.5
    assert result.metrics["Accuracy@1@top_gold_1"] == 0.5
    assert result.notes == (
        "system.tsv:1: the gold item (gold.tsv:1) has no substitute but the word itself: "
        "tsar_eval.py stops here (IndexError); lexsub scores it 0",
    )
    # kept (MLSP's setting) the word is a gold substitute and there is nothing to note
    assert scored("s\tw\tw\tw\n", "s\tw\ta\n", keep_word=True).notes == ()


def test_empty_line_whose_word_has_trailing_space() -> None:
    # the script strips the whole line, loses the space and finds no gold key (KeyError);
    # lexsub gives the line to its item, which scores 0 (and a later line of it wins)
    gold = "s\tw \ta\ns2\tx\ta\n"
    result = scored(gold, "s\tw \ns2\tx\ta\n")
    assert len(result.rows) == 2
    assert result.metrics["MAP@1/Potential@1/Precision@1"] == 0.5
    assert result.notes == (
        "system.tsv:1: an empty line whose word 'w ' has trailing white space: tsar_eval.py "
        "strips it and stops here (KeyError); lexsub scores the item 0",
    )
    again = scored(gold, "s\tw \ns2\tx\ta\ns\tw \ta\n")
    assert len(again.rows) == 2 and again.metrics["MAP@1/Potential@1/Precision@1"] == 1.0


def test_double_underscore_is_noted() -> None:
    result = scored("a__b__c\tw\tx\n", "a__b__c\tw\tx\n")
    assert result.metrics["MAP@1/Potential@1/Precision@1"] == 1.0
    assert result.notes and "ValueError" in result.notes[0]


def test_refusals_name_the_file_and_line() -> None:
    with pytest.raises(FormatError, match=r"system\.tsv:2: no gold item has sentence 'zz'"):
        scored(GOLD, "s one\tw\ta\nzz\tw\ta\n")
    with pytest.raises(FormatError, match=r"<predictions>: no prediction line"):
        score(parse_tsar(GOLD.splitlines(), "gold.tsv"), ())
    with pytest.raises(FormatError, match=r"gold\.tsv:2: a blank line has no tab"):
        parse_tsar(["s\tw\ta", "", "s2\tw"], "gold.tsv")
    with pytest.raises(FormatError, match=r"gold\.tsv:1: 'only a sentence' has no tab"):
        parse_tsar(["only a sentence"], "gold.tsv")


def test_universal_newlines(tmp_path: Path) -> None:
    (tmp_path / "g.tsv").write_bytes(b"s one\tw\ta\tb\ta\tc\rs two\tx\tp\tq\r\n")
    lines = read_tsar(tmp_path / "g.tsv")
    assert [line.key for line in lines] == ["s one__w", "s two__x"]
    assert lines[1].location == f"{tmp_path / 'g.tsv'}:2"


def test_text_is_the_scripts_floored_layout() -> None:
    assert floored(1 / 3) == 0.3333 and floored(0.99999) == 0.9999 and floored(0.0) == 0.0
    assert text_of(EXPECTED) == (
        "MAP@1/Potential@1/Precision@1 = 0.5\n\n"
        "MAP@3 = 0.3333\nMAP@5 = 0.2\nMAP@10 = 0.1\n\n"
        "Potential@3 = 0.5\nPotential@5 = 0.5\nPotential@10 = 0.5\n\n"
        "Accuracy@1@top_gold_1 = 0.0\nAccuracy@2@top_gold_1 = 0.5\nAccuracy@3@top_gold_1 = 0.5\n\n"
    )


def test_command_line_json_and_text(tmp_path: Path) -> None:
    (tmp_path / "g.tsv").write_text(GOLD, encoding="utf-8")
    (tmp_path / "p.tsv").write_text(PREDICTIONS, encoding="utf-8")
    args = ["tsar", str(tmp_path / "p.tsv"), "--data", str(tmp_path / "g.tsv")]
    out = io.StringIO()
    assert main([*args, "--format", "json"], out) == 0
    data = json.loads(out.getvalue())
    assert [key for key in data if key in METRICS] == list(METRICS)
    assert data["MAP@3"] == pytest.approx(1 / 3, abs=1e-15)
    assert data["signature"].startswith("metric:tsar|matching:raw|gold-word:drop|")
    text = io.StringIO()
    assert main(args, text) == 0
    assert text.getvalue().startswith(text_of(EXPECTED))
    assert "\nsignature: metric:tsar|" in text.getvalue()


def test_lexsub_benchmark_tsar_is_the_same_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "g.tsv").write_text(GOLD, encoding="utf-8")
    (tmp_path / "p.tsv").write_text(PREDICTIONS, encoding="utf-8")
    args = ["tsar", str(tmp_path / "p.tsv"), "--data", str(tmp_path / "g.tsv")]
    assert lexsub_main(["benchmark", *args]) == 0
    assert capsys.readouterr().out.startswith(text_of(EXPECTED))


def test_command_line_refusal_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "g.tsv").write_text(GOLD, encoding="utf-8")
    (tmp_path / "p.tsv").write_text("nowhere\tw\ta\n", encoding="utf-8")
    assert main(["tsar", str(tmp_path / "p.tsv"), "--data", str(tmp_path / "g.tsv")]) == 1
    assert f"{tmp_path / 'p.tsv'}:1: no gold item" in capsys.readouterr().err


# --- the shared golds against the unmodified script ----------------------------------------

RECORDED = json.loads(
    (Path(__file__).parent / "data" / "tsar_official.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", sorted(RECORDED))
def test_shared_golds_match_the_official_script(case: str, tmp_path: Path) -> None:
    relative, system, gold_word = case.split("|")
    gold = shared_path("data", *relative.split("/"))
    predictions = write_system(tmp_path / "system.tsv", SYSTEMS[system](gold_rows(gold)))
    result = score(read_tsar(gold), read_tsar(predictions), keep_word=gold_word == "keep")
    expected = RECORDED[case]
    for metric in METRICS:
        assert result.metrics[metric] == pytest.approx(expected[metric], abs=1e-12), metric
    # the script stopped on these systems: the figure is its own on the repaired system
    # (the items it stops on made to score 0), and every stop is noted
    assert bool(result.notes) == expected["script"].startswith("repaired")
