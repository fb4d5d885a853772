"""The library functions give what the commands print: :func:`scoring.score.library.score` the
bytes and the diagnosis of ``lexsub score`` (and score.pl's recorded bytes), ``compare``
the JSON of ``lexsub compare``, ``agreement_report`` that of ``lexsub agreement``,
``evaluate_benchmark`` that of ``lexsub benchmark``; none of them touches the gold cache."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from scoring.agreement.__main__ import main as agreement_main
from scoring.agreement.report import agreement_report, agreement_report_file
from scoring.benchmark import evaluate_benchmark
from scoring.benchmark.cli import main as benchmark_main
from scoring.errors import ScorerDied
from scoring.files.bounded import read_text
from scoring.formats.text import encode
from scoring.leaderboard import Settings, compare, compare_files
from scoring.leaderboard.cli import main as compare_main
from scoring.measures.official.items import OfficialScores
from scoring.registry import official_figure
from scoring.score.cli import run
from scoring.score.library import ScoreResult, died_here, score, score_files
from tests.test_agreement import line
from tests.test_oracle import OWN, OWN_CASES, _expected_status

PLAIN = [
    case
    for case in OWN_CASES
    if _expected_status((OWN / case["expected"]).read_bytes()) == 0 and case["type"]
]


def _command(argv: list[str]) -> tuple[bytes, list[str]]:
    out, err = io.BytesIO(), io.StringIO()
    assert run(argv, out, err) == 0
    return out.getvalue(), err.getvalue().splitlines()


@pytest.mark.parametrize("rules", ["compat", "fixed"])
@pytest.mark.parametrize("case", PLAIN, ids=[f"{c['name']}{c['verbose']}" for c in PLAIN])
def test_score_prints_what_the_command_prints(
    case: dict[str, str], rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On every synthetic oracle case that score.pl scores: the same bytes on standard
    output (score.pl's own, recorded, under compat) and the same diagnosis."""
    system = OWN / case["system"]
    monkeypatch.chdir(system.parent)
    gold = os.path.relpath(OWN / case["gold"], system.parent)
    argv = [system.name, gold, "-t", case["type"], *([case["verbose"]] if case["verbose"] else [])]
    out, err = _command(argv + (["--fixed"] if rules == "fixed" else []))
    result = score(
        read_text(system.name, perl=True),
        read_text(gold, perl=True),
        case["type"],  # type: ignore[arg-type]
        rules,  # type: ignore[arg-type]
        verbose=bool(case["verbose"]),
        system_name=system.name,
        gold_name=gold,
    )
    assert encode(result.render()) == out
    if rules == "compat":
        assert out == (OWN / case["expected"]).read_bytes()
    assert list(result.notes) == [note for note in err if not note.startswith("warning:")]
    json_out, _ = _command([*argv, "--format", "json", *(["--fixed"] if rules == "fixed" else [])])
    assert encode(result.render("json")) == json_out


def test_score_figures_of_a_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """s01_clean.best against main.gold: score.pl prints precision 45.05, recall 40.05
    (18 items, 16 attempted), mode precision 38.46 (5 of 13), mode recall 35.71 (5 of 14)."""
    monkeypatch.chdir(OWN)
    result = score_files("systems/s01_clean.best", "gold/main.gold")
    assert isinstance(result, ScoreResult) and (result.task, result.rules) == ("best", "compat")
    scores = result.scores
    assert isinstance(scores, OfficialScores)
    figures = [official_figure(scores, name) for name in ("P", "R", "mode_P", "mode_R")]
    assert [round(100 * value, 2) for value in figures if value is not None] == [
        45.05,
        40.05,
        38.46,
        35.71,
    ]
    assert (scores.total_items, scores.attempted, scores.mode_correct) == (18, 16, 5)
    out, _ = _command(["systems/s01_clean.best", "gold/main.gold"])
    assert b"precision = 45.05, recall = 40.05\n" in out
    assert encode(result.render()) == out


def test_score_by_pos_and_without_diagnosis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(OWN)
    system, gold = "systems/s03_reading.best", "gold/main.gold"
    out, err = _command([system, gold, "--by-pos", "--no-diagnosis", "--format", "csv"])
    text = score(
        read_text(system, perl=True),
        read_text(gold, perl=True),
        diagnose=False,
        by_pos=True,
        system_name=system,
    )
    assert encode(text.render("csv")) == out and text.notes == () and err == []
    out, _ = _command([system, gold, "--by-pos"])
    assert encode(score_files(system, gold, by_pos=True).render()) == out


def test_score_multiwords(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(OWN)
    argv = ["systems/s13_mw.mw", "gold/mw.mwgold", "-t", "mw"]
    out, err = _command(argv)
    result = score_files(argv[0], argv[1], "mw")
    assert encode(result.render()) == out and list(result.notes) == err
    assert result.gold is None


def test_score_refuses_an_unknown_task() -> None:
    with pytest.raises(ValueError, match="task 'ranked' is not one of best, oot, mw"):
        score("", "", "ranked")  # type: ignore[arg-type]


def test_the_library_never_touches_the_gold_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The cache is the command's alone: the library's reading of the gold never reads or
    writes it (its functions raise here, and its folder stays empty)."""
    from scoring.score import cache

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the gold cache was used")

    for name in ("cached_gold_pair", "cache_folder"):
        if hasattr(cache, name):
            monkeypatch.setattr(cache, name, refuse)
    monkeypatch.setenv("LEXSUB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(OWN)
    for task in ("best", "oot"):
        for rules in ("compat", "fixed"):
            for diagnose in (True, False):
                score_files(
                    f"systems/s03_reading.{task}",
                    "gold/main.gold",
                    task,
                    rules,
                    diagnose=diagnose,
                )
    assert list(tmp_path.iterdir()) == []


def test_compare_gives_the_commands_json(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lexsub compare --format json`` and :func:`compare_files`; the best system's best.P
    is score.pl's precision (45.05%)."""
    monkeypatch.chdir(OWN)
    files = ["systems/s01_clean.best", "systems/s02_clean.oot"]
    out = io.StringIO()
    assert compare_main(["gold/main.gold", *files, "--format", "json", "--workers", "1"], out) == 0
    board = compare_files("gold/main.gold", files, Settings())
    assert board.to_json() == json.loads(out.getvalue())
    assert round(100 * board.systems["s01_clean.best"]["best.P"], 2) == 45.05  # type: ignore[operator]
    on_texts = compare(
        read_text("gold/main.gold", perl=True),
        [(Path(f).name, read_text(f, perl=True)) for f in files],
        Settings(),
    )
    assert on_texts.to_json() == board.to_json()
    with pytest.raises(ValueError, match="no gold item with responses"):
        compare("", [("s", "x.n 1 :: y\n")])


def test_agreement_report_gives_the_commands_json(tmp_path: Path) -> None:
    """The charge (PA 1/10) and happy (PA 11/36) items of tests/test_agreement.py."""
    charge = {"1": ["control", "command"], "2": ["control"], "3": ["authority"]}
    charge |= {"4": ["power"], "5": ["command"]}
    happy = {"1": ["glad", "merry"], "2": ["glad"], "3": ["cheerful", "glad"], "4": ["merry"]}
    happy |= {"5": []}
    lines = [line(a, "charge.n", "1", s) for a, s in charge.items()]
    lines += [line(a, "happy.a", "2", s) for a, s in happy.items()]
    path = tmp_path / "annotators.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert agreement_main([str(path), "--format", "json", "--exclude", "5=test"]) == 0
    body = json.loads(out.getvalue())
    report = agreement_report_file(path, exclude=["5=test"])
    assert report.to_json() == body
    assert agreement_report(path.read_text(encoding="utf-8"), name=str(path)).to_json()["all"][
        "PA"
    ] == pytest.approx((1 / 10 + 11 / 36) / 2)


MISSPELT: list[tuple[Callable[[], object], str, str | None]] = [
    (lambda: score("", "", verbos=True), "score", "verbose"),  # type: ignore[call-arg]
    (
        lambda: score_files("s", "g", by_pos=True, diagnosis=False),  # type: ignore[call-arg]
        "score_files",
        "diagnose",
    ),
    (lambda: compare("", [], rule="fixed"), "compare", "rules"),  # type: ignore[call-arg]
    (
        lambda: compare_files("g", [], gold_readings="fixed"),  # type: ignore[call-arg]
        "compare_files",
        "gold_reading",
    ),
    (lambda: agreement_report("", seeed=1), "agreement_report", "seed"),  # type: ignore[call-arg]
    (
        lambda: agreement_report_file("a", colour=True),  # type: ignore[call-arg]
        "agreement_report_file",
        None,
    ),
]


@pytest.mark.parametrize(("call", "function", "near"), MISSPELT, ids=[m[1] for m in MISSPELT])
def test_a_misspelt_keyword_is_refused_by_name(
    call: Callable[[], object], function: str, near: str | None
) -> None:
    """The library functions take their shared keywords as ``**options``
    (``ScoreOptions``, ``CompareOptions``, ``AgreementOptions``): a keyword they do not take
    is a TypeError naming it (and the nearest one they take, if any), before any file is
    read, not an option ignored in silence."""
    with pytest.raises(TypeError) as refused:
        call()
    message = str(refused.value)
    assert message.startswith(f"{function}() got an unexpected keyword argument '")
    if near is None:
        assert "did you mean" not in message
    else:
        assert message.endswith(f"(did you mean {near!r}?)")


def test_evaluate_benchmark_gives_the_commands_json(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(OWN)
    system, data = "systems/s01_clean.best", "gold/main.gold"
    options = ["--setting", "generation", "--convention", "lexsubgen", "--format", "json"]
    out = io.StringIO()
    assert benchmark_main(["semeval07", system, "--data", data, *options], out) == 0
    report = evaluate_benchmark(
        "semeval07", system, data, setting="generation", convention="lexsubgen"
    )
    assert report.to_json() == json.loads(out.getvalue())
    # GermEval's best: x has 2 of the 3 responses of a.n 1, so one guess x scores 2/3;
    # b.n 2 (two responses, in T) is unanswered
    (tmp_path / "gold").write_text("a.n 1 :: x 2;y 1;\nb.n 2 :: z 1;w 1;\n", encoding="utf-8")
    (tmp_path / "system").write_text("a.n 1 :: x\n", encoding="utf-8")
    out = io.StringIO()
    argv = ["germeval", "system", "--data", "gold", "-t", "best", "--format", "json"]
    monkeypatch.chdir(tmp_path)
    assert benchmark_main(argv, out) == 0
    report = evaluate_benchmark("germeval", "system", "gold", measure="best", rules="fixed")
    assert report.to_json() == json.loads(out.getvalue())
    assert report.metrics["precision"] == pytest.approx(100 * 2 / 3)
    assert report.metrics["recall"] == pytest.approx(100 * 1 / 3)
    with pytest.raises(ValueError, match="benchmark 'nope' is not one of swords"):
        evaluate_benchmark("nope", "system", "gold")


def test_where_score_pl_dies_render_raises_with_its_output(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """s10_nothing.best attempts nothing: score.pl prints ``Error in … on line 3`` and dies
    dividing by zero; render raises ScorerDied with what it printed, and the command ends
    with died_here's line."""
    monkeypatch.chdir(OWN / "systems")
    system, gold = "s10_nothing.best", "../gold/main.gold"
    result = score(
        read_text(system, perl=True), read_text(gold, perl=True), system_name=system, gold_name=gold
    )
    with pytest.raises(ScorerDied) as died:
        result.render()
    out, err = io.BytesIO(), io.StringIO()
    assert run([system, gold], out, err) == 1
    assert encode(died.value.stdout) == out.getvalue() == b"Error in s10_nothing.best on line 3\n"
    assert err.getvalue().splitlines()[-1] == f"Error: {died_here(died.value, system, gold)}"
