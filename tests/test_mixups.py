"""The commonest mix-ups of files get one line naming what the file is and what the
command reads (scoring.formats.sniff), instead of the same problem once a line; score's
standard output stays score.pl's (the hint is on standard error)."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scoring.formats.sniff import kind_of

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parent.parent

GOLD = "bright.a 1 :: clever 2;smart 1;\nbright.a 2 :: sunny 3;\n"
BEST = "bright.a 1 :: clever\nbright.a 2 :: sunny\n"
OOT = "bright.a 1 ::: clever;smart\nbright.a 2 ::: sunny\n"
RESPONSE = {
    "annotator": "ann",
    "lexelt": "bright.a",
    "instance": "1",
    "kind": "substitutes",
    "substitutes": ["clever"],
    "multiword": None,
    "used_dictionary": False,
    "updated_at": "2026-12-01T10:00:00+00:00",
}
ANNOTATOR = {k: RESPONSE[k] for k in ("annotator", "lexelt", "instance", "kind", "substitutes")}
TSAR = "The cat sat on the mat .\tsat\trested\tperched\n"
LCP = "en_1\tenglish\tThe cat sat on the mat .\tsat\t0.25\n"
XML = '<?xml version="1.0"?>\n<corpus lang="english">\n<lexelt item="bright.a">\n'


def _lines(*objects: Mapping[str, object]) -> str:
    return "".join(json.dumps(obj) + "\n" for obj in objects)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (GOLD, "gold"),
        ("snell.n 1 :: toutou 2.5;clebs 1.5;\n", "gold"),  # decimal weights are a gold's too
        (BEST, "best"),
        (OOT, "oot"),
        (_lines(RESPONSE, {**RESPONSE, "instance": "2"}), "responses"),
        (_lines({**ANNOTATOR, "multiword": None}), "annotators"),
        (TSAR, "tsar"),
        (LCP, "tsar"),
        (XML, "task-xml"),
        ("id\tlexelt\tsentence\n1\tbright.a\tA <head>bright</head> day\n", None),
        ('{"w": 1}\n', None),
        ("", None),
    ],
)
def test_a_file_s_kind(text: str, kind: str | None) -> None:
    assert kind_of(text.encode()) == kind


def test_binary_and_gzip() -> None:
    assert kind_of(b"\x7fELF\x02\x01\x01\x00\x00") == "binary"
    assert kind_of(bytes(range(128, 256)) * 4) == "binary"


def _run(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run(
        [str(BIN / "lexsub"), *argv], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr


def _file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_gold_file_given_to_agreement_or_compile(tmp_path: Path) -> None:
    gold = _file(tmp_path, "gold", GOLD * 20)  # forty lines: still one line of error
    assert _run("agreement", gold) == (
        1,
        "",
        f"Error: {gold} is a gold file; agreement reads the annotators.jsonl that compile writes\n",
    )
    assert _run("compile", gold, "--out", str(tmp_path / "out")) == (
        1,
        "",
        f"Error: {gold} is a gold file; compile reads responses (lexsub export writes them) "
        "or a dataset (--dataset NAME)\n",
    )
    assert not (tmp_path / "out").exists()


def test_a_responses_file_given_to_agreement(tmp_path: Path) -> None:
    responses = _file(tmp_path, "r.jsonl", _lines(RESPONSE))
    assert _run("agreement", responses) == (
        1,
        "",
        f"Error: {responses} is a responses file (one answer a line, as lexsub export "
        "writes); agreement reads the annotators.jsonl that compile writes: lexsub compile "
        "FILE --out DIR, then lexsub agreement DIR/annotators.jsonl\n",
    )


@pytest.mark.parametrize("text", [TSAR, LCP])
def test_a_tsar_or_mlsp_file_imported_without_its_format(
    app: Flask, tmp_path: Path, text: str
) -> None:
    path = _file(tmp_path, "trial.tsv", text)
    result = app.test_cli_runner().invoke(args=["lexsub", "import", path, "--dataset", "t"])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: nothing imported: {path}:1: this looks like a TSAR-2022 or MLSP-2024 file: "
        "import it with the format tsar (--format tsar)\n"
    )
    result = app.test_cli_runner().invoke(
        args=["lexsub", "import", path, "--dataset", "t", "--format", "tsar"]
    )
    assert result.exit_code == 0, result.output


def test_a_gold_file_given_to_the_web_import_keeps_what_was_typed(
    organiser: FlaskClient,
) -> None:
    response = organiser.post(
        "/organiser/datasets",
        data={
            "file": (gzip_bytes(GOLD), "gold.trial.gz"),
            "name": "pilot <2>",
            "format": "",
            "language": "de",
        },
        content_type="multipart/form-data",
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert (
        "Nothing imported: gold.trial.gz:1: this is a gold file (LEXELT ID :: SUBSTITUTE "
        "COUNT;…), not a dataset" in page.replace("&#39;", "'")
    )
    assert 'id="name" name="name" value="pilot &lt;2&gt;"' in page
    assert 'name="language" value="de"' in page


def gzip_bytes(text: str) -> io.BytesIO:
    return io.BytesIO(gzip.compress(text.encode()))


def test_score_with_the_arguments_swapped(tmp_path: Path) -> None:
    gold, best = _file(tmp_path, "gold", GOLD), _file(tmp_path, "best", BEST)
    assert _run("score", gold, best) == (
        1,
        "",
        f"Error: the arguments look swapped: {gold} is a gold file and {best} a system file "
        "(give SYSTEM_FILE first, then GOLD_FILE); nothing scored (score.pl dies dividing by "
        "zero)\n",
    )


def test_an_oot_file_scored_as_best(tmp_path: Path) -> None:
    gold, oot = _file(tmp_path, "gold", GOLD), _file(tmp_path, "oot", OOT)
    status, out, err = _run("score", oot, gold)
    # score.pl's own messages stay on standard output, as it prints them
    assert (status, out) == (1, f"Error in {oot} on line 1\nError in {oot} on line 2\n")
    assert err == (
        f"Error: {oot} holds oot answers (LEXELT ID ::: …): score it with -t oot; nothing "
        "scored (score.pl dies dividing by zero)\n"
    )
    status, out, err = _run("score", oot, gold, "-t", "oot")
    # oot: (2 + 1) / 3 on the first item, 3 / 3 on the second
    assert (status, out, err) == (
        0,
        "Total = 2, attempted = 2\nprecision = 100.00, recall = 100.00\n"
        "Total with mode 2 attempted 2\nprecision = 100.00, recall = 100.00\n",
        "",
    )


@pytest.mark.parametrize(
    ("content", "what"),
    [(XML.encode(), "the task's XML (the sentences)"), (b"\x7fELF\x00\x01", "not a text file")],
)
def test_the_task_xml_or_a_binary_file_as_gold(tmp_path: Path, content: bytes, what: str) -> None:
    gold = tmp_path / "gold"
    gold.write_bytes(content)
    best = _file(tmp_path, "best", BEST)
    assert _run("score", best, str(gold)) == (
        1,
        "",
        f"Error: {gold} is {what}; the gold is the task's gold file (LEXELT ID :: SUBSTITUTE "
        "COUNT;…); nothing scored (score.pl dies dividing by zero)\n",
    )
