"""Every command example of README.md and of the documentation (docs/*.md but the generated
docs/cli.md) runs as written, in a new terminal after ``source .venv/bin/activate``: from
the checkout's root, with this environment's ``bin`` first on PATH, against a fresh
instance folder (SQLite) with the demo data loaded.

A command example is a line of a code block fenced as ``sh`` (or ``bash``, ``shell``,
``console``); ``text`` blocks and indented blocks show output, a synopsis or a formula.
A page's examples run in one shell, in order, as a reader types them (a variable set by one
is there for the next). Files they write land in a temporary copy of the checkout's root
(its entries linked, not copied), so the checkout stays as it was.
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
PAGES = [README, *sorted(path for path in (ROOT / "docs").glob("*.md") if path.name != "cli.md")]
COMMAND_BLOCKS = ("sh", "bash", "shell", "console")

SWORDS = "lexsub benchmark swords demo-result.json --data demo-swords.json"
NOT_RUN = {
    "bash scripts/run.sh": "sets up .venv and serves the app, which does not return",
    "PORT=8000 bash scripts/run.sh": "serves the app, which does not return",
    "HOST=0.0.0.0 PORT=8000 bash scripts/run.sh": "serves the app, which does not return",
    "bash scripts/test.sh": "runs every check and the whole suite (minutes; PostgreSQL)",
    "pip install .": "installs into the environment (tests/test_package.py installs the wheel)",
    "pip install '.[web]'": "installs into the environment (tests/test_package.py too)",
    "export DATABASE_URL=postgresql://lexsub:…@db.example.org/lexsub": "a production host's",
    "export SECRET_KEY=…": "a production host's setting",
    "export LEXSUB_LIMITER_STORAGE=redis://redis.example.org:6379/0": "a production host's",
    "export LEXSUB_PROXIES=1": "a production host's setting",
    "export LEXSUB_SECURE_COOKIES=1": "a production host's setting",
    ".venv/bin/gunicorn -w 4 -b 0.0.0.0:8000 wsgi:app": "serves the app (tests/test_faults.py)",
}
if not wordnet_available():
    NOT_RUN[SWORDS] = "needs WordNet 3.0 (tests/test_benchmark_swords.py says what to install)"

# what a few examples print (the figures of tests/data/demo, checked by the tools' own tests)
OUTPUT = {
    "lexsub import annotate/demo/demo.xml --dataset tour": (
        "imported 30 instances in 6 words as dataset 'tour'"
    ),
    "lexsub compile tests/data/demo/responses.jsonl --out $tour/gold": (
        "30 responses, 3 annotators, 10 items: 10 in T, 9 with a mode, 0 in MW;"
    ),
    "lexsub agreement $tour/gold/annotators.jsonl": (
        "\nall      10   40.56        90.00   66.67        0.438     -0.062   0.282         0.475\n"
    ),
    "lexsub score tests/data/demo/system.best $tour/gold/gold": (
        "precision = 59.17, recall = 59.17\n"
    ),
    (
        "lexsub compare $tour/gold/gold tests/data/demo/system.best tests/data/demo/system.oot"
        " tests/data/demo/system.ranked"
    ): "Upper bounds (%): best 61.17, oot 100.00,",
    "lexsub judgements tests/data/demo/judgements.jsonl": "2 judges (j1, j2); 10 verdicts",
    "lexsub benchmark semeval07 tests/data/demo/system.ranked --data $tour/gold/gold": (
        "gap  92.41\n"
    ),
    "lexsub users import annotators.txt --dataset pilot": "ann1\t",
    "lexsub score tests/data/demo/system.best demo-gold/gold": (
        "precision = 59.17, recall = 59.17\n"
    ),
    # the library functions print what their commands print (docs/score-howto.md)
    (
        'python -c "from scoring.score.library import score_files; print(score_files('
        "'tests/data/demo/system.best', 'demo-gold/gold').render(), end='')\""
    ): "precision = 59.17, recall = 59.17\n",
    (
        'python -c "from scoring.benchmark import evaluate_benchmark as e; print(e('
        "'semeval07', 'tests/data/demo/system.ranked', 'demo-gold/gold').to_text(), end='')\""
    ): "gap  92.41\n",
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


EXAMPLES = {page: commands(page.read_text(encoding="utf-8")) for page in PAGES}
EVERY = [command for found in EXAMPLES.values() for command in found]


def test_the_extraction_finds_fenced_command_blocks_only() -> None:
    text = "Intro\n\n    lexsub-score a b\n\n```text\nout\n```\n"
    text += "```sh\n# a comment\nlexsub demo  # the demo\nlexsub score c \\\n  d\n```\n\n"
    text += "- a list\n    continued\n"
    assert commands(text) == ["lexsub demo", "lexsub score c d"]


def test_every_example_is_run_or_says_why_not() -> None:
    for command in NOT_RUN:
        assert command in EVERY, f"{command!r} is no longer in the docs: drop it from NOT_RUN"
    readme = EXAMPLES[README]
    assert readme[:4] == [
        "bash scripts/run.sh",
        "bash scripts/test.sh",
        "source .venv/bin/activate",
        "tour=$(mktemp -d)",
    ]
    assert len(readme) >= 10  # the extraction finds the tour
    assert len(EVERY) - len(NOT_RUN) >= 30  # and the documentation's examples
    for command in OUTPUT:
        assert command in EVERY, command


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


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_example_runs_as_written(checkout: tuple[Path, dict[str, str]], page: Path) -> None:
    """The page's examples in one shell, as a reader types them; each one's status and
    output read between markers."""
    root, env = checkout
    run = [command for command in EXAMPLES[page] if command not in NOT_RUN]
    if not run:
        return
    script = [f"cd {str(root)!r}"]
    for number, command in enumerate(run):
        script += [f"echo @@@start {number}", command, f"echo @@@status {number} $?"]
    result = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    for number, command in enumerate(run):
        marker = f"@@@status {number} "
        assert marker in result.stdout, f"{page.name}: {command!r} did not finish:\n{result.stderr}"
        status = int(result.stdout.split(marker, 1)[1].split("\n", 1)[0])
        assert status == 0, f"{page.name}: {command!r} failed ({status}):\n{result.stderr[-3000:]}"
        output = result.stdout.split(f"@@@start {number}\n", 1)[1].split(marker, 1)[0]
        if command in OUTPUT:
            assert OUTPUT[command] in output, f"{page.name}: {command!r}:\n{output}"
    # the examples wrote into the temporary root or a scratch folder, never into the checkout
    assert not (ROOT / "demo-gold").exists()
    assert not (ROOT / "pilot-gold").exists()
