"""The one registry's table of agreement measures and benchmark figures
(scoring.registry.FIGURES): every agreement measure function of scoring.agreement and every
figure a benchmark reports is registered once, each row's function is there, each
reference is in docs/references.md, and the commands' --help lists the rows."""

from __future__ import annotations

import importlib
import inspect
import io
import json
import pkgutil
import re
from pathlib import Path

import pytest

import scoring.agreement
from scoring.agreement.__main__ import main as agreement_main
from scoring.benchmark import BENCHMARKS
from scoring.benchmark.cli import main as benchmark_main
from scoring.registry import (
    AGREEMENT,
    BENCHMARK,
    FIGURES,
    MEASURES,
    benchmark_figure_names,
    figures_of,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"

NOT_MEASURES = {
    "set_alpha": "masi_alpha with any set distance (masi_alpha is registered)",
    "package_alpha": "the krippendorff package's nominal alpha, the route of indicator_alpha",
    "multivalued_alpha": "substitute_multivalued_alpha on units already made into sets",
    "rating_agreement": "rating_alpha at both levels with bootstrap intervals (registered)",
}
"""Functions of scoring.agreement named like a measure that are the route of a registered
one, with why."""


def agreement_measure_functions() -> dict[str, object]:
    """Every public function of scoring.agreement and its modules named ``*_alpha``,
    ``*_kappa`` or ``*_agreement``, by ``module:name`` of the module defining it."""
    found: dict[str, object] = {}
    modules = [scoring.agreement] + [
        importlib.import_module(f"scoring.agreement.{info.name}")
        for info in pkgutil.iter_modules(scoring.agreement.__path__)
        if info.name != "__main__"
    ]
    for module in modules:
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ != module.__name__ or name.startswith("_"):
                continue
            if re.search(r"_(alpha|kappa|agreement)$", name):
                found[f"{module.__name__}:{name}"] = function
    return found


def test_every_agreement_measure_function_is_registered() -> None:
    functions = agreement_measure_functions()
    assert len(functions) >= 15  # the search found them
    registered = {figure.function for figure in AGREEMENT}
    unregistered = sorted(
        path
        for path in functions
        if path not in registered and path.split(":")[1] not in NOT_MEASURES
    )
    assert unregistered == []
    # and every registered function is one of them, or a measure named otherwise
    assert registered - set(functions) == set()


def test_every_row_loads_its_function_and_cites_a_listed_work() -> None:
    references = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")
    for figure in FIGURES.values():
        assert callable(figure.load()), figure.name
        key = figure.reference.split(",")[0]
        assert f"**{key}.**" in references or f"**{key}**" in references, figure.reference
        assert figure.family in ("agreement", "benchmark")
        assert figure.description and not figure.description.endswith("."), figure.name
    assert not set(FIGURES) & set(MEASURES)  # one name, one row


def test_weighted_kappa_rows_bind_their_weighting() -> None:
    first, second = [1, 2, 3, 3], [1, 3, 3, 2]
    # counts o: (1,1) (2,3) (3,3) (3,2); margins r = c = (1, 1, 2); n = 4
    # linear: Σ w o = 0 + 1 + 0 + 1 = 2; Σ w r c = 2·(1·1·1 + 2·1·2 + 1·1·2) = 14 → 1 - 4·2/14
    assert FIGURES["weighted_kappa.linear"].load()(first, second) == pytest.approx(3 / 7)
    # quadratic: Σ w o = 2; Σ w r c = 2·(1·1 + 4·2 + 1·2) = 22 → 1 - 4·2/22
    assert FIGURES["weighted_kappa.quadratic"].load()(first, second) == pytest.approx(7 / 11)


def run(*argv: str) -> set[str]:
    out = io.StringIO()
    assert benchmark_main([*argv, "--format", "json"], out) == 0
    return set(json.loads(out.getvalue())) - {"signature", "notes"}


def test_every_benchmark_figure_is_registered(tmp_path: Path) -> None:
    germeval, evalita = DATA / "germeval", DATA / "evalita"
    gold = tmp_path / "gold"
    gold.write_text("bright.a 1 :: intelligent 3;clever 2;\n", encoding="utf-8")
    ranked = tmp_path / "system.ranked"
    ranked.write_text("bright.a 1 :::: 0.9 clever;0.5 intelligent\n", encoding="utf-8")
    tsar_gold, tsar_system = tmp_path / "g.tsv", tmp_path / "s.tsv"
    tsar_gold.write_text("s\tw\ta\tb\n", encoding="utf-8")
    tsar_system.write_text("s\tw\tb\ta\n", encoding="utf-8")
    lcp_gold, lcp_system = tmp_path / "g_lcp.tsv", tmp_path / "s_lcp.tsv"
    lcp_gold.write_text("a\ten\ts\tw\t0.1\nb\ten\ts\tw\t0.5\n", encoding="utf-8")
    lcp_system.write_text("a\t0.2\nb\t0.4\n", encoding="utf-8")
    runs = {
        "germeval": [
            [str(germeval / f"system.{m}"), "--data", str(germeval / "gold"), "-t", m]
            for m in ("best", "oot")
        ]
        + [[str(germeval / "system.rank"), "--data", str(germeval / "gold"), "-t", "gap"]],
        "evalita": [
            [str(evalita / f"system.{m}"), "--data", str(evalita / "gold"), "-t", m]
            for m in ("best", "oot")
        ]
        + [
            [
                str(evalita / "llm_responses.jsonl"),
                *("--data", str(evalita / "llm_gold.jsonl"), "-t", "llm-f1"),
            ]
        ],
        "semeval07": [
            [str(ranked), "--data", str(gold), *options]
            for options in (
                [],
                ["--convention", "lexsubgen"],
                ["--setting", "generation"],
            )
        ],
        "tsar": [[str(tsar_system), "--data", str(tsar_gold)]],
        "lcp": [[str(lcp_system), "--data", str(lcp_gold)]],
        "mlsp": [
            [str(tsar_system), "--data", str(tsar_gold)],
            [str(lcp_system), "--data", str(lcp_gold)],
        ],
    }
    for benchmark, argvs in runs.items():
        reported: set[str] = set()
        for argv in argvs:
            names = run(benchmark, *argv)
            assert names <= set(benchmark_figure_names(benchmark)), (benchmark, argv)
            reported |= names
        assert reported == set(benchmark_figure_names(benchmark)), benchmark
    # coinco is scored by the same code as semeval07; SWORDS' are its registered measures
    assert benchmark_figure_names("coinco") == benchmark_figure_names("semeval07")
    from scoring.measures.swords.family import METRICS

    assert benchmark_figure_names("swords") == list(METRICS)
    assert {figure.kind for figure in BENCHMARK} | {"swords"} == set(BENCHMARKS)


def test_lexsubgens_generation_figures_are_registered() -> None:
    names = [figure.name for figure in figures_of("benchmark", "semeval07")]
    for name in ("rec@1", "rec@3", "prec@10", "f1@1", "f1@3", "f1@10"):
        assert f"semeval07.{name}" in names
        assert FIGURES[f"semeval07.{name}"].reference == "LexSubGen"


def test_help_lists_the_registered_names_and_descriptions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        agreement_main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for figure in figures_of("agreement"):
        assert f"{figure.name}: {figure.description}" in shown, figure.name
    for benchmark in ("tsar", "lcp", "semeval07"):
        with pytest.raises(SystemExit):
            benchmark_main([benchmark, "--help"])
        shown = " ".join(capsys.readouterr().out.split())
        for figure in figures_of("benchmark", benchmark):
            name = figure.name.removeprefix(f"{benchmark}.")
            assert f"{name}: {figure.description}" in shown, figure.name
