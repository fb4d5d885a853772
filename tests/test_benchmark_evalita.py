"""EVALITA 2009 lexical substitution (``python -m scoring.benchmark evalita``): best on an
invented Italian gold, computed by hand from the definitions (the task's scorer could not be
found), and Evalita-LLM's F1, whose figures were recorded from its lm-evaluation-harness
code run unmodified (docs/benchmarks.md)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from scoring.benchmark.cli import main
from scoring.benchmark.evalita import (
    LlmItem,
    LlmScore,
    llm_f1,
    llm_guesses,
    llm_item,
    read_llm_gold,
    read_llm_responses,
)
from scoring.errors import FormatError

DATA = Path(__file__).parent / "data" / "evalita"


def run(*argv: str) -> dict[str, object]:
    out = io.StringIO()
    assert main(["evalita", *argv, "--format", "json"], out) == 0
    result: dict[str, object] = json.loads(out.getvalue())
    return result


def failure(*argv: str) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["evalita", *argv], io.StringIO()) == 1
    return err.getvalue()


# best, fixed rules, per item: 2/5, (3+1)/4/2, 0, 4/7, 1/3, over 5 items;
# modes (items 2-5: luminoso, botta, terminare, paese) right on items 2 and 4.
# compat: città's entry località is dropped (score.pl cuts letters outside ASCII): 1/3 is lost.
@pytest.mark.parametrize(
    ("rules", "precision"),
    [("fixed", (0.4 + 0.5 + 4 / 7 + 1 / 3) / 5), ("compat", (0.4 + 0.5 + 4 / 7) / 5)],
)
def test_best_by_hand(rules: str, precision: float) -> None:
    result = run(str(DATA / "system.best"), "--data", str(DATA / "gold"), "--rules", rules)
    assert result["precision"] == pytest.approx(100 * precision, abs=1e-12)
    assert result["recall"] == pytest.approx(100 * precision, abs=1e-12)
    assert result["mode precision"] == result["mode recall"] == 50.0


# Recorded from Evalita-LLM's ls_process_results and _aggreg_ls (lm-evaluation-harness
# 4e7e0d47, utils.py of 22bd2bcb) on tests/data/evalita/llm_*.jsonl:
# (0.6, 1, 1) (1.75, 1, 1) (0.0, 0, 1) (0, 0, 0) (1.0, 1, 1) (0.0, 1, 1); f1 0.7444444444444446
RECORDED = [(0.6, True, True), (1.75, True, True), (0.0, False, True), (0.0, False, False)]
RECORDED += [(1.0, True, True), (0.0, True, True)]


def test_llm_f1_equals_the_harness() -> None:
    gold = read_llm_gold((DATA / "llm_gold.jsonl").read_text(encoding="utf-8").splitlines())
    lines = (DATA / "llm_responses.jsonl").read_text(encoding="utf-8").splitlines()
    responses = read_llm_responses(lines, gold)
    scores = [llm_item(item, response) for item, response in zip(gold, responses, strict=True)]
    assert [(s.credit, s.answered, s.annotated) for s in scores] == RECORDED
    assert llm_f1(scores)[2] == 0.7444444444444446
    result = run(
        str(DATA / "llm_responses.jsonl"), "--data", str(DATA / "llm_gold.jsonl"), "-t", "llm-f1"
    )
    assert result["F1"] == pytest.approx(74.44444444444446, abs=1e-12)
    assert (result["precision"], result["recall"]) == (83.75, 67.0)  # 3.35 / 4 and 3.35 / 5


@pytest.mark.parametrize(
    ("response", "guesses"),
    [
        ("bello, buono", ["bello", "buono"]),
        ('"bello, buono", ottimo', ["bello", "buono", "ottimo"]),  # quotes dropped, not grouping
        ("bello\nbuono, ottimo", ["bello"]),  # the first line only
        ("mettere in luce", ["mettereinluce"]),  # the last guess keeps only its letters
        (" , ", ["", ""]),  # empty guesses are guesses: the item counts as answered
        ("", []),
        (", ".join(str(n) for n in range(12)), [str(n) for n in range(9)] + [""]),
    ],
)
def test_llm_guesses(response: str, guesses: list[str]) -> None:
    assert llm_guesses(response) == guesses


def test_llm_credit_counts_a_repeated_guess_each_time() -> None:
    item = LlmItem((("bello", 2), ("buono", 1)))
    assert llm_item(item, "bello, bello") == LlmScore(4 / 3, True, True)
    assert llm_item(LlmItem((("bello", 0),)), "bello") == LlmScore(0, True, True)
    assert llm_f1([]) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"answers": [{"word": "a$b", "count": 1}]}', "gold.jsonl:2: word 'a$b' must be"),
        ('{"answers": [{"word": "bello", "count": 1.5}]}', "gold.jsonl:2: count 1.5 of 'bello'"),
        ('{"answer": []}', "gold.jsonl:2: expected an object with 'answers'"),
        ("{", "gold.jsonl:2: not JSON"),
        ("[" * 100_000 + "]" * 100_000, "gold.jsonl:2: not JSON (arrays and objects nested"),
    ],
)
def test_llm_gold_errors(tmp_path: Path, line: str, message: str) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"answers": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape(message)):
        read_llm_gold(gold.read_text(encoding="utf-8").splitlines(), str(gold))
    (tmp_path / "answers.jsonl").write_text('""\n""\n', encoding="utf-8")
    assert message in failure(str(tmp_path / "answers.jsonl"), "--data", str(gold), "-t", "llm-f1")


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['"a"'], "answers.jsonl: 1 answers for 2 gold items"),
        (['"a"', '{"id": "9", "response": "b"}'], "answers.jsonl:2: id '9' where the gold has '2'"),
        (['"a"', "3"], "answers.jsonl:2: expected a JSON string or an object with 'response'"),
    ],
)
def test_llm_response_errors(tmp_path: Path, lines: list[str], message: str) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": 1, "answers": []}\n{"id": 2, "answers": []}\n', encoding="utf-8")
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert message in failure(str(answers), "--data", str(gold), "-t", "llm-f1")


@pytest.mark.parametrize("rules", ["fixed", "compat"])
def test_oot_by_hand(rules: str) -> None:
    """5/5 + 1/4 + 2/4 + (1+2)/7 + 3/3 over 5 items; modes right on items 3 and 5 of 4.
    Under compat, città's località is dropped from the gold, so paese alone is 2/2: the
    same credit."""
    result = run(
        str(DATA / "system.oot"), "--data", str(DATA / "gold"), "-t", "oot", "--rules", rules
    )
    expected = 100 * (1 + 0.25 + 0.5 + 3 / 7 + 1) / 5
    assert result["precision"] == result["recall"] == pytest.approx(expected, abs=1e-12)
    assert result["mode precision"] == result["mode recall"] == 50.0
