"""What made a generated system, on the leaderboard: the provenance file beside a system
file (``FILE.provenance.json``, written by ``lexsub generate``) read by
:func:`scoring.signature.read_provenance` and shown by ``lexsub compare`` below the
table, in its JSON (``provenance`` of a system) and CSV (``model``, ``parameters``)."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from annotate.generate.llm import fingerprint
from scoring.leaderboard import cli as compare
from scoring.signature import Provenance, parse_provenance, read_provenance

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "tests" / "data" / "demo"

# happy.a: |H| = 7 (glad 3, cheerful 1); bright.a 2: dull is no answer. best.P = (4/7)/2/2
# over 2 attempted = 1/7 = 14.29%, best.R over 3 items = 2/21 = 9.52%.
GOLD = (
    "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;\n"
    "bright.a 2 :: smart 2;intelligent 1;brilliant 1;\n"
    "bright.a 3 :: shiny 2;luminous 2;\n"
)
BEST = "happy.a 1 :: glad;cheerful\nbright.a 2 :: dull\n"
FIXED = {
    "model": "qwen2.5:7b",
    "endpoint": "gpu1.example.org:8000",
    "parameters": {
        "model": "qwen2.5:7b",
        "samples": 5,
        "temperature": 0.8,
        "seed": None,
        "max_tokens": 128,
        "task": "substitution",
        "language": "en",
    },
    "prompt_sha256": "0123456789abcdef" * 4,
}
PROVENANCE = {
    "system": "llm",
    **FIXED,
    "prompt": "substitution.jinja",
    "tokens": {"prompt": 750, "completion": 90, "spent": 840},
    "seconds": 3.5,
    "failures": {"server": 0, "unreadable": 0},
    "fingerprint": "9b98d907a2111924",  # generate llm's fingerprint(FIXED)
}
LINE = (
    "  gen.best: qwen2.5:7b at gpu1.example.org:8000 (llm); temperature=0.8, samples=5, "
    "seed=none, max_tokens=128, language=en, task=substitution; prompt 0123456789ab; "
    "fingerprint 9b98d907a2111924\n"
)


def run(*args: str) -> str:
    out = io.StringIO()
    assert compare.main(list(args), out) == 0
    return out.getvalue()


@pytest.fixture
def board(tmp_path: Path) -> tuple[str, str, str]:
    """(gold, a generated system with its provenance file, a system without one)."""
    gold = tmp_path / "gold"
    gold.write_text(GOLD, encoding="utf-8")
    generated = tmp_path / "gen.best"
    generated.write_text(BEST, encoding="utf-8")
    (tmp_path / "gen.best.provenance.json").write_text(json.dumps(PROVENANCE), encoding="utf-8")
    plain = tmp_path / "plain.best"
    plain.write_text(BEST, encoding="utf-8")
    return str(gold), str(generated), str(plain)


def test_the_text_lists_the_generated_systems_below_the_table(
    board: tuple[str, str, str],
) -> None:
    gold, generated, plain = board
    text = run(gold, generated, plain, "--measures", "best.P", "best.R")
    table, rest = text.split("Generated systems:\n", 1)
    assert "gen.best    14.29     9.52\nplain.best  14.29     9.52\n" in table
    assert rest.startswith(LINE)
    assert "plain.best:" not in rest  # no provenance file, no line
    markdown = run(gold, generated, plain, "--format", "markdown", "--measures", "best.P")
    assert "Generated systems:\n- " + LINE[2:] in markdown


def test_the_json_and_csv_carry_the_same_fields(board: tuple[str, str, str]) -> None:
    gold, generated, plain = board
    body = json.loads(run(gold, generated, plain, "--format", "json", "--measures", "best.P"))
    assert body["systems"]["gen.best"]["provenance"] == {
        "file": "gen.best.provenance.json",
        "generator": "llm",
        "model": "qwen2.5:7b",
        "endpoint": "gpu1.example.org:8000",
        "parameters": {
            "temperature": 0.8,
            "samples": 5,
            "seed": None,
            "max_tokens": 128,
            "language": "en",
            "task": "substitution",
        },
        "prompt_sha256": "0123456789abcdef" * 4,
        "fingerprint": "9b98d907a2111924",
    }
    assert body["systems"]["plain.best"] == {"best.P": pytest.approx(1 / 7)}
    rows = list(csv.DictReader(io.StringIO(run(gold, generated, plain, "--format", "csv"))))
    made = {(row["system"], row["model"], row["parameters"]) for row in rows}
    assert made == {
        (
            "gen.best",
            "qwen2.5:7b",
            "temperature=0.8, samples=5, seed=none, max_tokens=128, language=en, task=substitution",
        ),
        ("plain.best", "", ""),
    }


def test_without_a_provenance_file_nothing_is_added(board: tuple[str, str, str]) -> None:
    gold, _, plain = board
    assert "Generated systems" not in run(gold, plain)
    header = run(gold, plain, "--format", "csv").splitlines()[0]
    assert header == "system,pos,measure,value,low,high,signature"


def test_the_figures_are_the_same_with_and_without_provenance(
    board: tuple[str, str, str],
) -> None:
    gold, generated, plain = board
    with_file = json.loads(run(gold, generated, "--format", "json"))
    shutil.copy(generated, plain)
    without = json.loads(run(gold, plain, "--format", "json"))
    figures = dict(with_file["systems"]["gen.best"])
    assert figures.pop("provenance")["model"] == "qwen2.5:7b"
    assert figures == without["systems"]["plain.best"]
    assert figures["best.P"] == pytest.approx(1 / 7) and figures["best.R"] == pytest.approx(2 / 21)
    assert with_file["upper_bounds"] == without["upper_bounds"]


def test_a_malformed_provenance_is_unreadable_and_nothing_breaks(
    board: tuple[str, str, str],
) -> None:
    gold, generated, _ = board
    Path(generated + ".provenance.json").write_text("{'model': 'x'", encoding="utf-8")
    text = run(gold, generated, "--measures", "best.P")
    assert (
        "Generated systems:\n  gen.best: unreadable (gen.best.provenance.json: not JSON "
        "(Expecting property name enclosed in double quotes: line 1 column 2 (char 1)))\n"
    ) in text
    assert "gen.best  14.29\n" in text
    body = json.loads(run(gold, generated, "--format", "json", "--measures", "best.P"))
    assert body["systems"]["gen.best"]["provenance"]["unreadable"].startswith("not JSON")
    assert body["systems"]["gen.best"]["best.P"] == pytest.approx(1 / 7)
    rows = list(csv.DictReader(io.StringIO(run(gold, generated, "--format", "csv"))))
    assert {(row["model"], row["parameters"]) for row in rows} == {("unreadable", "")}


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[1, 2]", "not a JSON object"),
        ('{"model": "m"}', "no fingerprint"),
        ('{"fingerprint": 7}', "fingerprint is not a string"),
        ('{"fingerprint": "ab", "parameters": [1]}', "parameters is not an object"),
        (
            '{"fingerprint": "ab", "parameters": {"stop": ["x"]}}',
            "parameter stop is not a single value",
        ),
        ('{"fingerprint": "ab", "model": 3}', "model is not a string"),
    ],
)
def test_what_is_not_a_provenance_file_says_why(text: str, why: str) -> None:
    found = parse_provenance(text, "s.provenance.json")
    assert found == Provenance("s.provenance.json", unreadable=why)
    assert found.summary() == f"unreadable (s.provenance.json: {why})"


def test_a_wordnet_provenance_names_wordnet_and_its_frequencies() -> None:
    text = json.dumps(
        {
            "generator": "wordnet",
            "wordnet": "3.0",
            "parameters": {"format": "oot", "frequencies": "wordfreq 3.1.1 (en, best)"},
            "data": "lexsub_test.xml",
            "fingerprint": "00ff00ff00ff00ff",
        }
    )
    found = parse_provenance(text, "w.oot.provenance.json")
    assert found.summary() == (
        "WordNet 3.0 (wordnet); format=oot, frequencies=wordfreq 3.1.1 (en, best); "
        "fingerprint 00ff00ff00ff00ff"
    )


def test_the_fingerprint_here_is_what_generate_llm_would_write() -> None:
    assert fingerprint(FIXED) == PROVENANCE["fingerprint"]


def test_the_demo_provenance_is_what_generate_llm_would_write() -> None:
    found = read_provenance(DEMO / "llm.best")
    assert found is not None and found.unreadable is None
    body = json.loads((DEMO / "llm.best.provenance.json").read_text(encoding="utf-8"))
    fixed = {key: body[key] for key in ("model", "endpoint", "parameters", "prompt_sha256")}
    assert found.fingerprint == fingerprint(fixed) == "9b48fc3b55f01251"
    assert found.summary() == (
        "llama3.1:8b at localhost:11434 (llm); temperature=0.8, samples=3, seed=7, "
        "max_tokens=256, language=en, task=substitution; prompt 1b6ddde333ac; "
        "fingerprint 9b48fc3b55f01251"
    )
    assert read_provenance(DEMO / "system.best") is None
