"""docs/cli.md is the commands' own help: regenerated here, it must equal the file."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI_MD = ROOT / "docs" / "cli.md"


def test_docs_cli_md_is_what_the_parsers_print() -> None:
    from scripts.cli_docs import PYTHON

    if f"with {PYTHON})" not in CLI_MD.read_text(encoding="utf-8"):
        pytest.skip(f"docs/cli.md was generated with another Python than {PYTHON}")
    # a narrow terminal changes nothing: the generator fixes the width itself
    env = {**os.environ, "COLUMNS": "40"}
    result = subprocess.run(
        [sys.executable, "-m", "scripts.cli_docs", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_every_console_script_and_command_has_a_section() -> None:
    text = CLI_MD.read_text(encoding="utf-8")
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]
    for name in scripts:
        assert f"| `{name}` |" in text, name
    for heading in (
        "## `python -m scoring.compare`",
        "### `python -m scoring.benchmark semeval07`",
        "### `python -m scoring.benchmark.convert gold-to-swords`",
        "### `flask --app wsgi lexsub import`",
        "### `flask --app wsgi lexsub round report`",
    ):
        assert f"\n{heading}\n" in text, heading
    # the console script printing the same help is named beside its module
    section = text.split("## `python -m scoring.benchmark`\n", 1)[1]
    assert section.startswith("\nConsole script: `lexsub-benchmark`")
    assert "usage: python -m scoring.benchmark [-h] [--version] BENCHMARK ...\n" in section


def test_an_outdated_page_is_reported(tmp_path: Path) -> None:
    """``--check`` names the file and the command that updates it."""
    from scripts import cli_docs

    original = CLI_MD.read_text(encoding="utf-8")
    stale = tmp_path / "cli.md"
    stale.write_text(original.replace("--only-t", "--only-tee"), encoding="utf-8")
    error = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, pathlib; from scripts import cli_docs; "
            f"cli_docs.DOCS = pathlib.Path({str(stale)!r}); sys.exit(cli_docs.main(['--check']))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert error.returncode == 1
    assert error.stderr.endswith(f"is out of date: run {cli_docs.COMMAND}\n")


def test_a_new_console_script_gets_its_section() -> None:
    """The page lists whatever ``[project.scripts]`` declares: a script that prints the help
    of an entry point is named beside it, any other gets a section of its own."""
    scripts = {"lexsub-score": "scoring.score:main", "lexsub-docs": "scripts.cli_docs:main"}
    code = (
        "from scripts import cli_docs; "
        f"cli_docs.console_scripts = lambda: {scripts!r}; print(cli_docs.render(), end='')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    page = result.stdout
    assert "| `lexsub-docs` | `scripts.cli_docs:main` |\n" in page
    assert "| `lexsub-compare` |" not in page
    assert "## `python -m scoring.score`\n\nConsole script: `lexsub-score` (" in page
    assert "## `python -m scoring.compare`\n\n```text\nusage: python -m scoring.compare" in page
    own = page.split("\n## `lexsub-docs`\n\n```text\n", 1)[1]
    assert own.startswith("usage: python -m scripts.cli_docs [-h] [--check]\n")
