"""The umbrella ``lexsub COMMAND ARGS`` (scoring/lexsub.py) is each ``lexsub-COMMAND ARGS``
exactly, and every command answers ``--version`` with the version in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import shared_path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
SCRIPTS = PYPROJECT["project"]["scripts"]
BIN = Path(sys.executable).parent


def _run(*argv: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    result = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    return result.returncode, result.stdout, result.stderr


def test_the_umbrella_is_the_console_script_lexsub() -> None:
    assert SCRIPTS["lexsub"] == "scoring.lexsub:main"
    for name in ("score", "compare", "agreement", "compile", "judgements", "benchmark"):
        assert f"lexsub-{name}" in SCRIPTS, name


def _trial(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The trial gold, BL.out, and BL.out's guesses as an oot file."""
    trial = shared_path("data", "semeval2007", "trial")
    oot = tmp_path / "BL.oot"
    text = (trial / "BL.out").read_text(encoding="utf-8")
    oot.write_text("".join(line.replace(" :: ", " ::: ", 1) for line in text.splitlines(True)))
    return trial / "gold.trial", trial / "BL.out", oot


@pytest.mark.shared_data
def test_lexsub_score_is_lexsub_score(tmp_path: Path) -> None:
    gold, best, _ = _trial(tmp_path)
    umbrella = _run(str(BIN / "lexsub"), "score", str(best), str(gold), "-t", "best")
    assert umbrella == _run(str(BIN / "lexsub-score"), str(best), str(gold), "-t", "best")
    status, out, _ = umbrella
    # score.pl's figures of the trial baseline: precision 7.49, recall 7.47
    assert status == 0 and "precision = 7.49, recall = 7.47" in out.replace("\n", " ")


@pytest.mark.shared_data
def test_lexsub_compare_is_lexsub_compare(tmp_path: Path) -> None:
    gold, best, oot = _trial(tmp_path)
    args = (str(gold), str(best), str(oot), "--format", "json")
    umbrella = _run(str(BIN / "lexsub"), "compare", *args)
    assert umbrella == _run(str(BIN / "lexsub-compare"), *args)
    assert umbrella[0] == 0 and '"best.P": 0.07492846344887158' in umbrella[1]


@pytest.mark.shared_data
def test_lexsub_agreement_is_lexsub_agreement(tmp_path: Path) -> None:
    gold, _, _ = _trial(tmp_path)
    responses = tmp_path / "responses.jsonl"
    assert _run(sys.executable, "-m", "annotate.gold.split", str(gold), str(responses))[0] == 0
    out = tmp_path / "compiled"
    compiled = _run(str(BIN / "lexsub"), "compile", str(responses), "--out", str(out))
    assert compiled[0] == 0 and "295 in T, 203 with a mode" in compiled[1]
    annotators = str(out / "annotators.jsonl")
    umbrella = _run(str(BIN / "lexsub"), "agreement", annotators, "--by-pos")
    assert umbrella == _run(str(BIN / "lexsub-agreement"), annotators, "--by-pos")
    assert umbrella[0] == 0 and umbrella[1].splitlines()[5].split()[:2] == ["all", "295"]


def test_errors_are_the_command_s(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    for name, args in (
        ("score", (missing, missing, "--fixed")),
        ("score", ("--bogus",)),
        ("compare", (missing, missing)),
        ("compare", ("--bogus",)),
        ("agreement", (missing,)),
    ):
        umbrella = _run(str(BIN / "lexsub"), name, *args)
        assert umbrella == _run(str(BIN / f"lexsub-{name}"), *args), (name, args)
        assert umbrella[0] in (1, 2) and umbrella[2].startswith("Error: "), (name, args)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((), "Error: the following arguments are required: COMMAND (see lexsub --help)\n"),
        (
            ("scores",),
            "Error: argument COMMAND: invalid choice: 'scores' (choose from 'score', "
            "'compare', 'agreement', 'compile', 'judgements', 'benchmark') (see lexsub --help)\n",
        ),
    ],
)
def test_a_missing_or_unknown_command_is_a_usage_error(argv: tuple[str, ...], message: str) -> None:
    assert _run(str(BIN / "lexsub"), *argv) == (2, "", message)


@pytest.mark.parametrize(
    ("name", "unwanted"),
    [
        ("score", ("flask", "sqlalchemy", "annotate", "numpy", "scoring.compare")),
        ("compile", ("flask", "sqlalchemy", "scoring.compare", "scoring.score")),
    ],
)
def test_lexsub_imports_only_the_command_that_runs(name: str, unwanted: tuple[str, ...]) -> None:
    """No Flask, and none of the other commands' modules: ``lexsub score`` starts as fast as
    ``lexsub-score``."""
    code = (
        "import sys\nfrom scoring.lexsub import main\n"
        f"try:\n    main([{name!r}, '--version'])\nexcept SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.startswith({unwanted!r})))"
    )
    assert _run(sys.executable, "-c", code)[1] == f"lexsub-{name} {VERSION}\n[]\n"


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_every_console_script_answers_version(script: str) -> None:
    result = subprocess.run(
        [str(BIN / script), "--version"], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, f"{script} {VERSION}\n", "")


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("scoring.score", "lexsub-score"),
        ("scoring.compare", "lexsub-compare"),
        ("scoring.agreement", "lexsub-agreement"),
        ("annotate.compile", "lexsub-compile"),
        ("scoring.benchmark", "lexsub-benchmark"),
        ("scoring.judgements", "lexsub-judgements"),
        ("scoring.lexsub", "lexsub"),
        ("annotate.gold.split", "python -m annotate.gold.split"),
        ("scoring.benchmark.convert", "python -m scoring.benchmark.convert"),
        ("scoring.judgements.swords", "python -m scoring.judgements.swords"),
    ],
)
def test_every_module_command_answers_version(module: str, name: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", module, "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, f"{name} {VERSION}\n")


def test_the_app_s_command_group_answers_version() -> None:
    result = subprocess.run(
        [str(BIN / "flask"), "--app", "wsgi", "lexsub", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, f"lexsub {VERSION}\n")


def test_every_app_command_answers_version() -> None:
    """Each ``flask --app wsgi lexsub`` command and subcommand, found by walking the group."""
    import click

    from annotate import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    group = app.cli.get_command(click.Context(app.cli), "lexsub")
    assert isinstance(group, click.Group)
    paths: list[list[str]] = []

    def walk(command: click.Command, path: list[str]) -> None:
        paths.append(path)
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])

    walk(group, [])
    assert ["compile"] in paths and ["round", "create"] in paths and ["dataset", "delete"] in paths
    runner = app.test_cli_runner()
    for path in paths:
        result = runner.invoke(args=["lexsub", *path, "--version"])
        assert (result.exit_code, result.output) == (0, f"lexsub {VERSION}\n"), path
