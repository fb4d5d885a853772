"""``lexsub benchmark mlsp``: MLSP-2024 as the organisers' notebooks scored it (TSAR's
figures on keys with double quotes removed and white space stripped, the complex word kept
in the gold; LCP's figures without the ids the notebook drops), against hand-worked cases
and, on the shared trial files, an independent reimplementation of the notebook's steps."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

import pytest

from scoring.benchmark import mlsp
from scoring.benchmark.cli import main
from scoring.benchmark.tsar import score as tsar_score
from scoring.errors import FormatError
from scoring.formats.lcp import parse_lcp
from scoring.formats.tsar import parse_tsar, read_tsar
from tests.conftest import shared_path

GOLD = [
    'He said "go" now.\tgo \tleave\tleave\texit\tgo',
    '"Akin na \'yan!" biglang agaw.\tagaw\tkuha\tkuha\tnakaw\tagaw',
    "Padded sentence.\tword\tterm\tterm",
]
PREDICTIONS = [
    # the word without the gold's trailing space; "go" is the word as this line writes it
    'He said "go" now.\tgo\tgo\tleave\tquit',
    # CSV-quoted, quotes doubled; the word with a trailing space, so "agaw" is kept
    '"""Akin na \'yan!"" biglang agaw."\tagaw \tagaw\tkuha',
    # white space after the sentence
    "Padded sentence. \tword\tthing\tterm",
]


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_keys_drop_quotes_and_surrounding_white_space() -> None:
    line = parse_tsar(['"""Akin na \'yan!"" biglang." \t "agaw" \tx'])[0]
    assert mlsp.notebook_key(line) == "Akin na 'yan! biglang.__agaw"


def test_hand_worked_items_score_as_the_notebook() -> None:
    """Gold (word kept): {leave 2, exit 1, go 1}, {kuha 2, nakaw 1, agaw 1}, {term 2}.
    Labels: [leave, quit] (the line's word "go" dropped), [agaw, kuha] ("agaw" is not the
    line's word "agaw "), [thing, term]. MAP@K per item: 1/K, 2/K, (1/2)/K."""
    result = mlsp.score_ls(parse_tsar(GOLD, "gold"), parse_tsar(PREDICTIONS, "system"))
    expected = {
        "Accuracy@1@top_gold_1": 1 / 3,
        "Accuracy@2@top_gold_1": 1.0,
        "Accuracy@3@top_gold_1": 1.0,
        "MAP@1/Potential@1/Precision@1": 2 / 3,
        "Potential@3": 1.0,
        "Potential@5": 1.0,
        "Potential@10": 1.0,
        "MAP@3": 7 / 18,
        "MAP@5": 7 / 30,
        "MAP@10": 7 / 60,
    }
    assert list(result.metrics) == list(expected)
    for name, value in expected.items():
        assert result.metrics[name] == pytest.approx(value, abs=1e-15), name
    assert result.notes == ()


def test_tsar_refuses_these_lines_and_mlsp_scores_them(tmp_path: Path) -> None:
    with pytest.raises(FormatError) as refused:
        tsar_score(parse_tsar(GOLD, "gold"), parse_tsar(PREDICTIONS, "system"), keep_word=True)
    assert [p.split(":")[:2] for p in refused.value.problems] == [
        ["system", "1"],
        ["system", "2"],
        ["system", "3"],
    ]
    gold, system = tmp_path / "gold_ls.tsv", tmp_path / "system.tsv"
    gold.write_text("\n".join(GOLD) + "\n", encoding="utf-8")
    system.write_text("\n".join(PREDICTIONS) + "\n", encoding="utf-8")
    status, out = run("tsar", str(system), "--data", str(gold), "--gold-word", "keep")
    assert status == 1 and out == ""
    status, out = run("mlsp", str(system), "--data", str(gold))
    assert status == 0
    assert out.splitlines()[:4] == [
        "Accuracy@1@top_gold_1 = 0.333300",
        "Accuracy@2@top_gold_1 = 1.000000",
        "Accuracy@3@top_gold_1 = 1.000000",
        "MAP@1/Potential@1/Precision@1 = 0.666600",
    ]
    assert "MAP@3 = 0.388800" in out.splitlines()  # 7/18 floored to 4 decimals
    assert "signature: metric:mlsp|task:ls|" in out
    status, out = run("mlsp", str(system), "--data", str(gold), "--format", "json")
    assert status == 0 and json.loads(out)["MAP@10"] == pytest.approx(7 / 60, abs=1e-15)


def test_a_prediction_the_gold_lacks_is_still_refused() -> None:
    with pytest.raises(
        FormatError, match=re.escape("system:1: no gold item has sentence 'Other.'")
    ):
        mlsp.score_ls(parse_tsar(GOLD, "gold"), parse_tsar(["Other.\tgo\tx"], "system"))
    with pytest.raises(FormatError, match="no prediction line"):
        mlsp.score_ls(parse_tsar(GOLD, "gold"), ())


def test_an_empty_gold_item_scores_0_with_a_note() -> None:
    result = mlsp.score_ls(parse_tsar(["S.\tw"], "gold"), parse_tsar(["S.\tw\tx"], "system"))
    assert result.metrics["MAP@1/Potential@1/Precision@1"] == 0.0
    assert result.notes == (
        "system:1: the gold item (gold:1) has no substitute: the notebook stops here "
        "(IndexError); lexsub scores it 0",
    )


LCP_GOLD = [
    "a\ten\ts\tw\t0.1",
    "b\ten\ts\tw\t0.2",
    "fr_150\tfr\ts\tw\t0.9",
    "c\ten\ts\tw\t0.4",
    "pt_579\tpt\ts\tw\t0.3",
]


def test_lcp_drops_the_notebook_s_ids() -> None:
    """Gold (0.1, 0.2, 0.4), predictions (0.2, 0.2, 0.5): r = 2.5/sqrt(7), rho = sqrt(3)/2,
    MAE 0.2/3, MSE 0.02/3, R2 = 1 - 0.02/(42/900) = 4/7. No prediction for pt_579 (dropped)."""
    predictions = parse_lcp(["a\t0.2", "b\t0.2", "c\t0.5", "fr_150\t0.0"], "system")
    result = mlsp.score_lcp(parse_lcp(LCP_GOLD, "gold"), predictions)
    expected = {
        "pearson": 2.5 / math.sqrt(7),
        "spearman": math.sqrt(3) / 2,
        "mae": 0.2 / 3,
        "mse": 0.02 / 3,
        "r2": 4 / 7,
    }
    for name, value in expected.items():
        assert result.metrics[name] == pytest.approx(value, abs=1e-12), name
    assert result.notes[0] == "gold ids dropped as the notebook drops them: fr_150, pt_579"


def test_lcp_cli_detects_the_task_and_lcp_refuses_the_same_files(tmp_path: Path) -> None:
    gold, system = tmp_path / "gold_lcp.tsv", tmp_path / "system.tsv"
    gold.write_text("\n".join(LCP_GOLD) + "\n", encoding="utf-8")
    system.write_text("a\t0.2\nb\t0.2\nc\t0.5\n", encoding="utf-8")
    status, _ = run("lcp", str(system), "--data", str(gold))
    assert status == 1  # no prediction for fr_150 and pt_579
    status, out = run("mlsp", str(system), "--data", str(gold), "--format", "json")
    assert status == 0
    assert json.loads(out)["r2"] == pytest.approx(4 / 7, abs=1e-12)
    assert "task:lcp" in json.loads(out)["signature"]


def test_task_of_reads_the_gold_s_layout() -> None:
    assert mlsp.task_of(LCP_GOLD) == "lcp"
    assert mlsp.task_of(GOLD) == "ls"
    assert mlsp.task_of([*LCP_GOLD, *GOLD]) == "ls"  # one line not ID…VALUE: ls
    # an LS gold whose every line has three substitutes, a number last, reads as lcp:
    # --task ls says otherwise
    assert mlsp.task_of(["S.\tw\ta\tb\t1"]) == "lcp"


def test_task_option_overrides_the_layout(tmp_path: Path) -> None:
    gold, system = tmp_path / "gold.tsv", tmp_path / "system.tsv"
    gold.write_text("S.\tw\ta\tb\t1\n", encoding="utf-8")
    system.write_text("S.\tw\t1\ta\n", encoding="utf-8")
    status, out = run("mlsp", str(system), "--data", str(gold), "--task", "ls", "--format", "json")
    figures = json.loads(out)
    assert status == 0
    # labels [1, a], gold {a, b, 1} (1 each, all top): every figure 1 but MAP@K = 2/K
    assert figures["Accuracy@1@top_gold_1"] == 1.0 and figures["MAP@5"] == pytest.approx(0.4)


# An independent reimplementation of the notebook's steps, for the shared trial files.


def notebook_figures(gold_path: Path, prediction_text: str) -> dict[str, float]:
    """What ``LS Results.ipynb`` computes, written out step by step (unfloored)."""

    def key(fields: list[str]) -> str:
        return fields[0].replace('"', "").strip() + "__" + fields[1].replace('"', "").strip()

    gold: dict[str, dict[str, int]] = {}
    for raw in gold_path.read_text(encoding="utf-8").splitlines():
        fields = raw.strip().split("\t")
        counts: dict[str, int] = {}
        for item in fields[2:]:
            counts[item.strip()] = counts.get(item.strip(), 0) + 1
        gold[key(fields)] = counts
    labels: dict[str, list[str]] = {}
    for raw in prediction_text.splitlines():
        fields = raw.strip().split("\t")
        kept: list[str] = []
        for item in (f.strip() for f in fields[2:]):
            if item not in kept and item != fields[1]:
                kept.append(item)
        labels[key(fields)] = kept
    n = len(labels)
    figures: dict[str, float] = {}
    for top_n in (1, 2, 3):
        hits = 0
        for k, predicted in labels.items():
            best = max(gold[k].values())
            top = {g for g, c in gold[k].items() if c == best}
            hits += bool(predicted) and any(p in top for p in predicted[:top_n])
        figures[f"Accuracy@{top_n}@top_gold_1"] = hits / n
    for k_ in (1, 3, 5, 10):
        name = "MAP@1/Potential@1/Precision@1" if k_ == 1 else f"Potential@{k_}"
        figures[name] = sum(any(p in gold[k] for p in v[:k_]) for k, v in labels.items()) / n
    for k_ in (3, 5, 10):
        total = 0.0
        for k, predicted in labels.items():
            seen, ap = 0, 0.0
            for rank, p in enumerate(predicted[:k_], 1):
                if p in gold[k]:
                    seen += 1
                    ap += seen / rank
            total += ap / k_
        figures[f"MAP@{k_}"] = total / n
    return figures


def system_text(gold_path: Path, language: str) -> str:
    """A system written as participants wrote theirs: the word (stripped) first, then each
    gold line's distinct substitutes in reverse order of first mention with a word no gold
    has before every second one; Spanish words without their trailing space; Catalan and
    Filipino through ``csv.writer`` (tab-delimited, minimal quoting)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter="\t", lineterminator="\n")
    for raw in gold_path.read_text(encoding="utf-8").splitlines():
        sentence, word, *substitutes = raw.split("\t")
        labels = [word.strip()]
        for i, substitute in enumerate(list(dict.fromkeys(s.strip() for s in substitutes))[::-1]):
            labels += [f"none{i}", substitute] if i % 2 else [substitute]
        if language == "es":
            word = word.strip()
        writer.writerow([sentence, word, *labels])
    return out.getvalue()


@pytest.mark.shared_data
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        # the word is dropped: the line writes it as the prediction does
        ("es", {"MAP@1/Potential@1/Precision@1": 28 / 30, "Accuracy@1@top_gold_1": 0.0}),
        # the word is kept: the line writes it with a trailing space, the prediction not
        ("ca", {"MAP@1/Potential@1/Precision@1": 1.0, "Accuracy@1@top_gold_1": 14 / 30}),
        ("fil", {"MAP@3": 41 / 90, "Accuracy@3@top_gold_1": 5 / 30}),
    ],
)
def test_trial_files_lexsub_refused_now_score_as_the_notebook(
    language: str, expected: dict[str, float], tmp_path: Path
) -> None:
    gold = shared_path("data", "mlsp2024", f"multilex_trial_{language}_ls.tsv")
    text = system_text(gold, language)
    system = tmp_path / "system.tsv"
    system.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError):
        tsar_score(read_tsar(gold), read_tsar(system), keep_word=True)
    result = mlsp.score_ls(read_tsar(gold), read_tsar(system))
    independent = notebook_figures(gold, text)
    assert set(result.metrics) == set(independent)
    for name, value in independent.items():
        assert result.metrics[name] == pytest.approx(value, abs=1e-12), name
    for name, value in expected.items():
        assert result.metrics[name] == pytest.approx(value, abs=1e-12), name
