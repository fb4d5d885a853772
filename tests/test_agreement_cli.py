"""``python -m scoring.agreement``: the report's JSON contract, text and CSV, and a run on
the compiler's output for the real trial gold."""

from __future__ import annotations

import csv
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from scoring import __version__
from scoring.agreement.__main__ import main
from tests.conftest import shared_path
from tests.test_agreement import line


@pytest.fixture
def annotators(tmp_path: Path) -> Path:
    """The paper's charge example (PA 1/10, no mode) and the hand-made happy item
    (PA 11/36, mode glad) of tests/test_agreement.py."""
    charge = {
        "1": ["control", "command"],
        "2": ["control"],
        "3": ["authority"],
        "4": ["power"],
        "5": ["command"],
    }
    happy = {
        "1": ["glad", "merry"],
        "2": ["glad"],
        "3": ["cheerful", "glad"],
        "4": ["merry"],
        "5": [],
    }
    lines = [line(a, "charge.n", "1", s) for a, s in charge.items()]
    lines += [line(a, "happy.a", "2", s) for a, s in happy.items()]
    path = tmp_path / "annotators.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def test_json_contract(annotators: Path) -> None:
    status, out = _run(str(annotators), "--format", "json", "--leave-one-out")
    body = json.loads(out)
    assert status == 0
    for key in ("n", "v", "a", "r", "all"):
        assert {"PA", "PAm", "T", "mode_share", "alpha"} <= set(body[key])
    assert body["all"]["T"] == 2
    assert body["all"]["PA"] == pytest.approx((1 / 10 + 11 / 36) / 2)
    assert body["n"]["PA"] == pytest.approx(1 / 10) and body["n"]["PAm"] is None
    assert body["a"]["PA"] == pytest.approx(11 / 36) and body["a"]["mode_share"] == 1.0
    assert body["v"]["T"] == 0 and body["v"]["PA"] is None
    assert set(body["annotators"]) == {"1", "2", "3", "4", "5"}
    assert set(body["leave_one_out"]) == {"1", "2", "3", "4", "5"}


def test_text_and_csv(annotators: Path) -> None:
    _, text = _run(str(annotators), "--by-pos")
    rows = {row.split()[0]: row.split() for row in text.splitlines()[1:6]}
    assert rows["n"][:3] == ["n", "1", "10.00"] and rows["a"][:3] == ["a", "1", "30.56"]
    _, out = _run(str(annotators), "--format", "csv")
    (row,) = list(csv.DictReader(io.StringIO(out)))
    assert row["pos"] == "all" and float(row["PA"]) == pytest.approx((1 / 10 + 11 / 36) / 2)


def test_multivalued_alpha_in_json_text_and_csv(tmp_path: Path) -> None:
    # single substitutes: δ is nominal, so multi-valued alpha is nominal alpha. Items
    # {glad}{glad}, {merry}{merry}, {glad}{merry}: n = 6 (3 glad, 3 merry), D_o = 2/6,
    # D_e = 2·3·3 / (6·5) = 3/5, alpha = 1 - (1/3) / (3/5) = 4/9
    answers = [("1", "glad", "glad"), ("2", "merry", "merry"), ("3", "glad", "merry")]
    lines = [
        line(annotator, "happy.a", instance, [word])
        for instance, *words in answers
        for annotator, word in zip(("a", "b"), words, strict=True)
    ]
    path = tmp_path / "annotators.jsonl"
    path.write_text("\n".join(lines) + "\n")
    body = json.loads(_run(str(path), "--format", "json")[1])
    assert body["all"]["multivalued_alpha"] == pytest.approx(4 / 9, abs=1e-15)
    assert body["a"]["multivalued_alpha"] == body["all"]["multivalued_alpha"]
    assert body["n"]["multivalued_alpha"] is None  # no item: undefined
    text = _run(str(path), "--by-pos")[1].splitlines()
    assert text[0].split()[-1] == "multi-valued"
    assert text[3].split()[0] == "a" and text[3].split()[-1] == "0.444"
    assert text[1].split()[0] == "n" and text[1].split()[-1] == "n/a"
    (row,) = list(csv.DictReader(io.StringIO(_run(str(path), "--format", "csv")[1])))
    assert float(row["multivalued_alpha"]) == pytest.approx(4 / 9, abs=1e-15)


def test_bad_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("{not json\n")
    assert main([str(path)]) == 1
    assert f"{path}:1:" in capsys.readouterr().err


def test_runs_on_the_compiled_trial_gold(tmp_path: Path) -> None:
    """The split trial gold compiled without normalisation or lemmatisation: T is the
    official 295 items."""
    from annotate.gold import CompileOptions, compile_responses, write_outputs
    from annotate.gold.split import split_gold
    from scoring.formats.text import read_lines

    gold = shared_path("data", "semeval2007", "trial", "gold.trial")
    split = split_gold(read_lines(gold), str(gold))
    compiled = compile_responses(split.responses, CompileOptions(normalise=False, lemmatise=False))
    write_outputs(compiled, tmp_path)
    status, out = _run(str(tmp_path / "annotators.jsonl"), "--format", "json")
    body = json.loads(out)
    assert status == 0 and body["all"]["T"] == 295
    assert 0 < body["all"]["PA"] < 1 and 0 < body["all"]["mode_share"] <= 1


def test_intervals_on_the_compiled_test_gold(tmp_path: Path) -> None:
    """The split test gold: |T| = 1,696 with 1,230 modes (the official scorer's figures),
    intervals around every figure, the seed printed, and the same numbers twice."""
    from annotate.gold import CompileOptions, compile_responses, write_outputs
    from annotate.gold.split import split_gold
    from scoring.formats.text import read_lines

    gold = shared_path("data", "semeval2007", "test", "gold")
    split = split_gold(read_lines(gold), str(gold))
    write_outputs(
        compile_responses(split.responses, CompileOptions(normalise=False, lemmatise=False)),
        tmp_path,
    )
    path = str(tmp_path / "annotators.jsonl")
    status, out = _run(path, "--format", "json", "--intervals", "--resamples", "300", "--seed", "7")
    assert status == 0
    body = json.loads(out)
    assert body["all"]["T"] == 1696 and body["all"]["mode_share"] == 1230 / 1696
    assert body["resampling"] == {"unit": "lemma", "resamples": 300, "seed": 7, "confidence": 0.95}
    for key in ("n", "v", "a", "r", "all"):
        for name in ("PA", "PAm", "mode_share"):
            low, high = body[key]["intervals"][name]
            assert low < body[key][name] < high, (key, name)
        for name in ("nominal_first", "indicator", "masi"):
            low, high = body[key]["alpha_intervals"][name]
            assert low < body[key]["alpha"][name] < high, (key, name)
    assert (
        _run(path, "--format", "json", "--intervals", "--resamples", "300", "--seed", "7")[1] == out
    )
    _, text = _run(path, "--intervals", "--resamples", "300", "--seed", "7")
    assert "300 bootstrap resamples of lemmas, seed 7" in text
    masi = body["all"]["alpha_intervals"]["masi"]
    assert f"  MASI [{masi[0]:.3f}, {masi[1]:.3f}]\n" in text
    assert body["signature"] == (
        "metric:agreement|pa:per_item|t:two+nonempty|first:alphabetical|"
        f"resample:lemma|n:300|seed:7|ci:0.95|version:{__version__}"
    )
    assert text.endswith(f"signature: {body['signature']}\n")


def test_intervals_of_identical_lemmas_are_points() -> None:
    from scoring.agreement.report import intervals
    from scoring.formats.annotators import Item
    from scoring.types import Answer

    def item(lexelt: str, instance: str) -> Item:
        # PA: one pair {a, b} vs {a}: 1/2; mode a (2 votes): credits 1/2 + 1 over 2 answers
        return Item(
            lexelt,
            instance,
            (
                Answer("1", "substitutes", frozenset({"a", "b"})),
                Answer("2", "substitutes", frozenset({"a"})),
            ),
        )

    found = intervals([item(f"w{n}.n", str(n)) for n in range(6)], resamples=50, seed=1)
    assert found == {"PA": [0.5, 0.5], "PAm": [0.75, 0.75], "mode_share": [1.0, 1.0]}


def test_intervals_from_few_lemmas_carry_the_warning() -> None:
    """Six lemmas: the JSON's resampling and the text say the intervals are unreliable
    (fewer than 20 lemmas), as compare's significance does; none from 20 on."""
    from scoring.agreement.report import report
    from scoring.formats.annotators import Item
    from scoring.render import render_agreement
    from scoring.types import Answer

    def items(count: int) -> list[Item]:
        return [
            Item(
                f"w{n}.n",
                str(n),
                (
                    Answer("1", "substitutes", frozenset({"a", "b"})),
                    Answer("2", "substitutes", frozenset({"a"})),
                ),
            )
            for n in range(count)
        ]

    few = report(items(6), with_intervals=True, resamples=20, seed=1)
    warning = "only 6 lemmas: with fewer than 20 the intervals and p-values are unreliable"
    assert few.to_json()["resampling"]["warning"] == warning
    assert f"Warning: {warning}.\n" in render_agreement(few, "text")
    enough = report(items(20), with_intervals=True, resamples=20, seed=1)
    assert "warning" not in enough.to_json()["resampling"]
    assert "Warning:" not in render_agreement(enough, "text")
