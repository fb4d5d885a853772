"""The figures of a fixed set of runs on the SemEval-2007 trial data, kept under the version
that produced them (``tests/data/fingerprint.json``, checked by tests/test_fingerprint.py).

The runs: ``score`` best and oot, under score.pl's rules and the fixed ones, of the trial
baseline ``BL.out`` and of files made from it (its guesses as an oot file; every other
line of each); ``compare --significance`` of the four with a fixed seed; the oot files
scored as ``benchmark semeval07`` (GAP and the generation figures, default matching and
the normaliser's); the trial gold
split into five annotators' responses, compiled (``compile``) and reported on
(``agreement`` with intervals, a fixed seed). Only figures are kept: no signature, no
measure's description, no path.

After a change of figures, raise the version in ``pyproject.toml``, add its CHANGELOG
section, reinstall (``pip install -e .``) and write the figures of the new version with
``python -m tests.fingerprint --update``.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import scoring
from annotate.compile import run as compile_run
from annotate.gold.split import main as split_main
from scoring.agreement.__main__ import main as agreement_main
from scoring.benchmark.cli import main as benchmark_main
from scoring.leaderboard.cli import main as compare_main
from scoring.score.cli import run as score_run
from tests.conftest import SHARED

STORED = Path(__file__).resolve().parent / "data" / "fingerprint.json"
NOT_FIGURES = frozenset({"signature", "signatures", "measures", "system"})
"""Keys of the commands' JSON that hold no figure: signatures (they carry the version),
descriptions of measures and the system's path."""
SEED = "1"


def figures(value: Any) -> Any:
    """``value`` (a command's JSON) without the keys of :data:`NOT_FIGURES`."""
    if isinstance(value, dict):
        return {key: figures(item) for key, item in value.items() if key not in NOT_FIGURES}
    if isinstance(value, list):
        return [figures(item) for item in value]
    return value


def systems(trial: Path, folder: Path) -> list[Path]:
    """``BL.out``, its guesses as an oot file, and every other line of each."""
    best = (trial / "BL.out").read_text(encoding="utf-8").splitlines(keepends=True)
    oot = [line.replace(" :: ", " ::: ", 1) for line in best]
    paths = []
    for name, lines in (
        ("BL.best", best),
        ("BL-half.best", best[::2]),
        ("BL.oot", oot),
        ("BL-half.oot", oot[::2]),
    ):
        path = folder / name
        path.write_text("".join(lines), encoding="utf-8")
        paths.append(path)
    return paths


def _score(system: Path, gold: Path, measure: str, rules: list[str]) -> Any:
    out = io.BytesIO()
    status = score_run(
        [str(system), str(gold), "-t", measure, "--format", "json", "--no-diagnosis", *rules],
        stdout=out,
        stderr=io.StringIO(),
    )
    if status != 0:
        raise RuntimeError(f"score {system} -t {measure} {rules}: exit status {status}")
    return figures(json.loads(out.getvalue()))


def _named_as_gold(system: Path, keys: set[str]) -> Path:
    """``system`` without the lines whose ``LEXELT ID`` the gold does not write so (the
    baseline names six items by another lexelt, which the benchmark refuses)."""
    lines = system.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = system.with_name("kept-" + system.name)
    kept.write_text("".join(x for x in lines if x.split(" ::")[0] in keys), encoding="utf-8")
    return kept


def _command(main: Any, argv: list[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        status = main(argv)
    if status != 0:
        raise RuntimeError(f"{argv}: exit status {status}")
    return out.getvalue()


def compute(trial: Path, folder: Path) -> dict[str, Any]:
    """The figures of every run, by run."""
    gold = trial / "gold.trial"
    best, half_best, oot, half_oot = systems(trial, folder)
    runs: dict[str, Any] = {}
    for measure, files in (("best", (best, half_best)), ("oot", (oot, half_oot))):
        for rules in ("compat", "fixed"):
            for system in files:
                flags = ["--fixed"] if rules == "fixed" else []
                runs[f"score {system.name} -t {measure} {rules}"] = _score(
                    system, gold, measure, flags
                )
    compare = [str(gold), str(best), str(half_best), str(oot), str(half_oot), "--format", "json"]
    compare += ["--significance", "--resamples", "50", "--trials", "100", "--seed", SEED]
    runs["compare --significance"] = figures(json.loads(_command(compare_main, compare)))
    keys = {line.split(" :: ")[0] for line in gold.read_text(encoding="utf-8").splitlines()}
    for system in (oot, half_oot):
        system = _named_as_gold(system, keys)
        for setting in ("ranking", "generation"):
            for matching in ("default", "raw", "fixed"):
                argv = ["semeval07", str(system), "--data", str(gold), "--format", "json"]
                argv += ["--setting", setting]
                argv += [] if matching == "default" else ["--matching", matching]
                runs[f"benchmark semeval07 {system.name} {setting} {matching}"] = figures(
                    json.loads(_command(benchmark_main, argv))
                )
    responses = folder / "responses.jsonl"
    _command(split_main, [str(gold), str(responses)])
    compiled = folder / "compiled"
    _command(compile_run, [str(responses), "--out", str(compiled)])
    summary = json.loads((compiled / "summary.json").read_text(encoding="utf-8"))
    runs["compile"] = {key: value for key, value in summary.items() if isinstance(value, int)}
    agreement = [str(compiled / "annotators.jsonl"), "--format", "json", "--by-pos"]
    agreement += ["--intervals", "--resamples", "50", "--seed", SEED]
    runs["agreement --intervals"] = figures(json.loads(_command(agreement_main, agreement)))
    return runs


def stored() -> tuple[str, dict[str, Any]]:
    """The stored version and its figures."""
    body = json.loads(STORED.read_text(encoding="utf-8"))
    return body["version"], body["figures"]


def write(version: str, runs: dict[str, Any]) -> None:
    body = {"version": version, "figures": runs}
    STORED.write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.fingerprint",
        description="Write the figures of the fingerprint runs under the installed version.",
    )
    parser.add_argument("--update", action="store_true", help=f"write {STORED.name}")
    args = parser.parse_args(argv)
    if not args.update:
        parser.error("nothing to do: --update writes the figures of the installed version")
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        runs = compute(SHARED / "data" / "semeval2007" / "trial", Path(folder))
    write(scoring.__version__, runs)
    print(f"{STORED}: the figures of {len(runs)} runs under version {scoring.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
