"""The umbrella ``lexsub COMMAND ARGS`` (scoring/lexsub.py) is each ``lexsub-COMMAND ARGS``
exactly, and every command answers ``--version`` with the version in pyproject.toml."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from flask import Flask

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
            "Error: unknown command 'scores': did you mean 'score'? (see lexsub --help)\n",
        ),
    ],
)
def test_a_missing_or_unknown_command_is_a_usage_error(argv: tuple[str, ...], message: str) -> None:
    assert _run(str(BIN / "lexsub"), *argv) == (2, "", message)


@pytest.mark.parametrize(
    ("name", "unwanted"),
    [
        ("score", ("flask", "sqlalchemy", "annotate", "numpy", "scoring.leaderboard.cli")),
        ("compile", ("flask", "sqlalchemy", "scoring.leaderboard.cli", "scoring.score.cli")),
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
        ("scoring.leaderboard.cli", "lexsub-compare"),
        ("scoring.agreement", "lexsub-agreement"),
        ("annotate.compile", "lexsub-compile"),
        ("scoring.benchmark", "lexsub-benchmark"),
        ("scoring.judgements", "lexsub-judgements"),
        ("scoring.lexsub", "lexsub"),
        ("annotate.gold.split", "python -m annotate.gold.split"),
        ("scoring.benchmark.convert", "lexsub convert"),
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


def _lexsub(*argv: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = subprocess.run(
        [str(BIN / "lexsub"), *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    return result.returncode, result.stdout, result.stderr


def test_lexsub_help_groups_every_command() -> None:
    from scoring.lexsub import COMMANDS, GROUPS

    status, out, _ = _lexsub("--help")
    assert status == 0
    assert out.startswith("usage: lexsub [-h] [--version] COMMAND\n")
    listed = out.split("\nannotation study:\n", 1)[1]
    headings = [line[:-1] for line in listed.splitlines() if line.endswith(":") and line[0] != " "]
    assert headings == list(GROUPS[1:])
    names = [line.split()[0] for line in listed.splitlines() if line.startswith("  ")]
    assert sorted(names) == sorted(COMMANDS)
    assert "  report        the methods paragraph of a dataset\n" in out
    assert "  score         score a system as score.pl does (best, oot, mw)\n" in out


@pytest.mark.parametrize(
    "name",
    [
        "serve",
        "db",
        "demo",
        "import",
        "users",
        "assign",
        "dataset",
        "checks",
        "round",
        "export",
        "lemmas",
        "exclude",
        "compile",
        "report",
        "agreement",
        "judgements",
        "score",
        "compare",
        "benchmark",
        "convert",
    ],
)
def test_every_command_s_help_names_lexsub_command(name: str) -> None:
    """``lexsub COMMAND --help`` says ``lexsub COMMAND`` in its usage line, in plain text."""
    status, out, err = _lexsub(name, "--help")
    text = out + err
    assert status == 0
    first = text.splitlines()[0]
    assert first.lower().startswith(f"usage: lexsub {name} ") or first.lower() == (
        f"usage: lexsub {name}"
    ), first
    assert "``" not in text and ":mod:" not in text and ":func:" not in text


def test_the_app_s_commands_run_from_lexsub_on_the_database_named(tmp_path: Path) -> None:
    """No --app: ``--database-url`` (anywhere), else DATABASE_URL, names the database; the
    former names (init-db) still run."""
    url = f"sqlite:///{tmp_path / 'study.sqlite'}"
    for _ in range(2):  # safe to run again
        status, out, _ = _lexsub("db", "upgrade", "--database-url", url)
        assert (status, out) == (0, f"database ready: {url}\n")
    env = {**os.environ, "DATABASE_URL": url, "LEXSUB_INSTANCE": str(tmp_path / "instance")}
    status, out, _ = _lexsub("demo", "--organiser-password", "organiser1", env=env)
    assert status == 0 and out.startswith("demo dataset: 30 sentences\n")
    assert "organiser  username organiser  password organiser1\n" in out
    status, out, _ = _lexsub("init-db", env=env)
    assert (status, out) == (0, f"database ready: {url}\n")
    # the file the flask alias reads is the same database
    flask = subprocess.run(
        [str(BIN / "flask"), "--app", "wsgi", "lexsub", "report", "--dataset", "demo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert flask.returncode == 0
    assert _lexsub("report", "--dataset", "demo", "--database-url", url)[1] == flask.stdout
    assert "no dataset 'nope'" in _lexsub("report", "--dataset", "nope", "--database-url", url)[2]


def test_database_url_errors_are_one_line(tmp_path: Path) -> None:
    assert _lexsub("report", "--dataset", "x", "--database-url") == (
        2,
        "",
        "Error: --database-url needs a URL (such as sqlite:///x.db)\n",
    )
    url = f"sqlite:///{tmp_path / 'a.sqlite'}"
    assert _lexsub("db", "upgrade", "--database-url", url, "--database-url", url) == (
        2,
        "",
        "Error: --database-url given twice\n",
    )
    flask = subprocess.run(
        [
            str(BIN / "flask"),
            "--app",
            "wsgi",
            "lexsub",
            "report",
            "--dataset",
            "x",
            "--database-url",
            url,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert flask.returncode == 2
    assert (
        "Error: --database-url is for the lexsub command; under flask --app, set DATABASE_URL"
        in flask.stderr
    )


@pytest.mark.database
def test_lexsub_compile_reads_a_file_or_a_dataset(answered: Flask, tmp_path: Path) -> None:
    """One command, two sources: the dataset's responses exported to a file and compiled
    give the gold that ``--dataset`` compiles from the database (the ``answered`` fixture's,
    by hand in tests/test_exclusions_app.py)."""
    url = answered.config["SQLALCHEMY_DATABASE_URI"]
    responses = tmp_path / "responses.jsonl"
    status, out, _ = _lexsub(
        "export", "--dataset", "small", "--out", str(responses), "--database-url", url
    )
    assert (status, out) == (0, f"wrote 6 responses to {responses}\n")
    from_file = _lexsub("compile", str(responses), "--out", str(tmp_path / "a"), "--no-lemmatise")
    assert from_file[0] == 0, from_file
    from_db = _lexsub(
        "compile",
        "--dataset",
        "small",
        "--out",
        str(tmp_path / "b"),
        "--no-lemmatise",
        "--database-url",
        url,
    )
    assert from_db[0] == 0, from_db
    expected = "bright.a 1 :: clever 2;smart 1;pn 1;\nstand.n.v 3 :: bear 2;tolerated 2;\n"
    assert (tmp_path / "a" / "gold").read_text("utf-8") == expected
    assert (tmp_path / "b" / "gold").read_text("utf-8") == expected
    assert _lexsub(
        "compile", "--dataset", "small", "--out", str(tmp_path / "c"), "--language", "de"
    ) == (
        2,
        "",
        "Error: --language is for a responses file: a dataset has its own "
        "(see lexsub compile --help)\n",
    )
    assert _lexsub("compile", "--out", str(tmp_path / "d"))[2] == (
        "Error: give a RESPONSES_FILE or --dataset NAME (one of them) (see lexsub compile --help)\n"
    )
