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
        "## `lexsub`",
        "## `lexsub compare`",
        "### `lexsub benchmark semeval07`",
        "### `lexsub convert gold-to-swords`",
        "## `lexsub import`",
        "### `lexsub round report`",
        "### `lexsub db upgrade`",
        "## `python -m annotate.gold.split`",
    ):
        assert f"\n{heading}\n" in text, heading
    # the commands' sections follow lexsub --help; none printed twice as python -m
    section = text.split("## `lexsub benchmark`\n", 1)[1]
    assert "usage: lexsub benchmark [-h] [--version] BENCHMARK ...\n" in section
    assert "## `python -m scoring.benchmark`" not in text
    assert "## `python -m annotate.compile`" not in text


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
