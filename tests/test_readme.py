"""Every command example of README.md runs as written, in a new terminal after
``source .venv/bin/activate``: from the checkout's root, with this environment's ``bin``
first on PATH, against a fresh instance folder (SQLite) with the demo data loaded.

A command example is a line of a README code block that is indented or fenced as ``sh``
(or with no language); ``text`` blocks show output or a synopsis, the ``python`` block is
run by tests/test_docs.py. Files the examples write land in a temporary copy of the
checkout's root (its entries linked, not copied), so the checkout stays as it was.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from annotate import create_app
from scoring.benchmark.wordnet import wordnet_available

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
COMMAND_BLOCKS = ("", "sh", "bash", "shell", "console")

SWORDS = "python -m scoring.benchmark swords demo-result.json --data demo-swords.json"
NOT_RUN = {
    "bash scripts/run.sh": "sets up .venv and serves the app, which does not return",
    "PORT=8000 bash scripts/run.sh": "serves the app, which does not return",
    "HOST=0.0.0.0 PORT=8000 bash scripts/run.sh": "serves the app, which does not return",
    "bash scripts/test.sh": "runs every check and the whole suite (minutes; PostgreSQL)",
    "pip install .": "installs into the environment (tests/test_package.py installs the wheel)",
    "pip install '.[web]'": "installs into the environment (tests/test_package.py too)",
}
if not wordnet_available():
    NOT_RUN[SWORDS] = "needs WordNet 3.0 (tests/test_benchmark_swords.py says what to install)"

# what a few examples print (the figures of tests/data/demo, checked by the tools' own tests)
OUTPUT = {
    "flask --app wsgi lexsub demo": "demo dataset: 30 sentences\n",
    "flask --app wsgi lexsub import annotate/demo/demo.xml --dataset tour": (
        "imported 30 instances in 6 words as dataset 'tour'"
    ),
    "python -m annotate.compile tests/data/demo/responses.jsonl --out demo-gold": (
        "30 responses, 3 annotators, 10 items: 10 in T, 9 with a mode, 0 in MW;"
    ),
    "python -m scoring.agreement demo-gold/annotators.jsonl": (
        "\nall      10   40.56        90.00   66.67        0.438     -0.062   0.282         0.475\n"
    ),
    "python -m scoring.score tests/data/demo/system.best demo-gold/gold": (
        "precision = 59.17, recall = 59.17\n"
    ),
    (
        "lexsub-compare demo-gold/gold tests/data/demo/system.best tests/data/demo/system.oot"
        " tests/data/demo/system.ranked"
    ): "Upper bounds (%): best 61.17, oot 100.00,",
    "python -m scoring.judgements tests/data/demo/judgements.jsonl": (
        "2 judges (j1, j2); 10 verdicts"
    ),
    "python -m scoring.benchmark semeval07 tests/data/demo/system.ranked --data demo-gold/gold": (
        "gap  92.41\n"
    ),
}


def code_blocks(text: str) -> list[tuple[int, str, list[str]]]:
    """Every code block of a Markdown text: (first line number, language, lines); an
    indented block has the language ``""``."""
    blocks: list[tuple[int, str, list[str]]] = []
    lines = text.split("\n")
    fence: tuple[int, str, list[str]] | None = None
    indented: tuple[int, str, list[str]] | None = None
    previous = ""
    for number, line in enumerate(lines, 1):
        if indented is not None and line.strip() and not line.startswith("    "):
            blocks.append(indented)
            indented = None
        if fence is not None:
            if line.startswith("```"):
                blocks.append(fence)
                fence = None
            else:
                fence[2].append(line)
        elif line.startswith("```"):
            fence = (number + 1, line[3:].strip(), [])
        elif line.startswith("    ") and (indented is not None or not previous.strip()):
            if indented is None:
                indented = (number, "", [])
            indented[2].append(line[4:])
        previous = line
    assert fence is None, "a code block is not closed"
    if indented is not None:
        blocks.append(indented)
    return blocks


def commands(text: str) -> list[str]:
    """The command examples, in order: the lines of command blocks (a line ending in a
    backslash continued), blank lines and comments (``# …``) left out."""
    found = []
    for _, language, lines in code_blocks(text):
        if language not in COMMAND_BLOCKS:
            continue
        for line in re.sub(r"\\\n\s*", "", "\n".join(lines)).split("\n"):
            line = re.sub(r"(^|\s+)#\s.*$", "", line).strip()  # a comment after the command
            if line:
                found.append(line)
    return found


EXAMPLES = commands(README.read_text(encoding="utf-8"))


def test_the_extraction_finds_fenced_and_indented_blocks() -> None:
    text = "Intro\n\n    lexsub-score a b\n    lexsub-score c \\\n      d\n\n```text\nout\n```\n"
    text += "```sh\n# a comment\nflask --app wsgi lexsub demo  # the demo\n```\n\n"
    text += "- a list\n    continued\n"
    assert commands(text) == [
        "lexsub-score a b",
        "lexsub-score c d",
        "flask --app wsgi lexsub demo",
    ]


def test_every_example_is_run_or_says_why_not() -> None:
    for command in NOT_RUN:
        assert command in EXAMPLES, f"{command!r} is no longer in README.md: drop it from NOT_RUN"
    assert "source .venv/bin/activate" in EXAMPLES
    assert len(EXAMPLES) - len(NOT_RUN) >= 15  # the extraction finds the tour
    for command in OUTPUT:
        assert command in EXAMPLES, command


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A copy of the checkout's root made of links, and the environment of an activated
    ``.venv`` with a fresh instance folder holding the demo data."""
    root = tmp_path_factory.mktemp("checkout")
    for entry in ROOT.iterdir():
        if entry.name not in {"instance", ".git"}:
            (root / entry.name).symlink_to(entry)
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("LEXSUB_") and key not in {"DATABASE_URL", "SECRET_KEY", "PYTHONPATH"}
    }
    bin_dir = str(Path(sys.executable).parent)
    env |= {
        "PATH": os.pathsep.join([bin_dir, env.get("PATH", "")]),
        "VIRTUAL_ENV": sys.prefix,
        "LEXSUB_INSTANCE": str(root / "instance"),
    }
    with pytest.MonkeyPatch.context() as patch:  # the demo loaded here: faster than a command
        patch.setenv("LEXSUB_INSTANCE", env["LEXSUB_INSTANCE"])
        runner = create_app().test_cli_runner()
        for command in ("init-db", "demo"):
            result = runner.invoke(args=["lexsub", command])
            assert result.exit_code == 0, result.output
    assert (root / "instance" / "lexsub.sqlite").is_file()
    return root, env


def test_every_readme_example_runs_as_written(checkout: tuple[Path, dict[str, str]]) -> None:
    root, env = checkout
    ran = 0
    for command in EXAMPLES:
        if command in NOT_RUN:
            continue
        result = subprocess.run(
            ["bash", "-c", command], cwd=root, env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, f"README example {command!r}:\n{result.stderr}"
        if command in OUTPUT:
            assert OUTPUT[command] in result.stdout, f"README example {command!r}:\n{result.stdout}"
        ran += 1
    assert ran == len(EXAMPLES) - len(NOT_RUN)
    # the examples wrote into the temporary root, never into the checkout
    assert (
        (root / "demo-gold" / "gold")
        .read_text(encoding="utf-8")
        .startswith("spring.n d1 :: springtime 3;season 1;\n")
    )
    assert not (ROOT / "demo-gold").exists()
