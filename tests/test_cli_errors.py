"""No command line prints a traceback. Each error ends with a message
naming the file and exit status 1; bad usage with exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result
from flask import Flask

from annotate import create_app
from scoring.score import USAGE
from tests.conftest import SMALL_XML, TEST_CONFIG

ROOT = Path(__file__).resolve().parent.parent


def flask_command(app: Flask, *args: str) -> Result:
    return app.test_cli_runner().invoke(args=["lexsub", *args])


def failed(result: Result, status: int = 1) -> str:
    """The message of a command that failed with ``status`` and no traceback."""
    assert result.exit_code == status, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.output


def command(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m ARGS`` from the checkout, as the README runs it."""
    done = subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.xml"
    path.write_bytes(SMALL_XML)
    return path


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    """A regular file: a path under it can be neither read nor written."""
    path = tmp_path / "a-file"
    path.write_text("")
    return path


# --- flask --app wsgi lexsub … ---------------------------------------------------------------


@pytest.mark.database
def test_compile_into_an_unwritable_folder(app: Flask, dataset: int, a_file: Path) -> None:
    out = a_file / "gold"
    message = failed(flask_command(app, "compile", "--dataset", "small", "--out", str(out)))
    assert message == f"Error: cannot write {out}: Not a directory\n"


@pytest.mark.database
def test_compile_an_unknown_dataset(app: Flask, tmp_path: Path) -> None:
    message = failed(
        flask_command(app, "compile", "--dataset", "nope", "--out", str(tmp_path / "out"))
    )
    assert message == "Error: no dataset 'nope'\n"
    assert not (tmp_path / "out").exists()


@pytest.mark.database
def test_compile_with_a_bad_choice_is_usage(app: Flask, tmp_path: Path) -> None:
    message = failed(
        flask_command(
            app, "compile", "--dataset", "small", "--out", str(tmp_path), "--t-rule", "items"
        ),
        2,
    )
    assert "Invalid value for '--t-rule': 'items' is not one of" in message


@pytest.mark.database
def test_export_into_a_missing_folder(app: Flask, dataset: int, tmp_path: Path) -> None:
    out = tmp_path / "missing" / "responses.jsonl"
    message = failed(
        flask_command(app, "export-responses", "--dataset", "small", "--out", str(out))
    )
    assert message == f"Error: cannot write {out}: No such file or directory\n"


@pytest.mark.database
def test_export_under_a_file(app: Flask, dataset: int, a_file: Path) -> None:
    out = a_file / "responses.jsonl"
    message = failed(
        flask_command(app, "export-responses", "--dataset", "small", "--out", str(out))
    )
    assert message == f"Error: cannot write {out}: Not a directory\n"


@pytest.mark.database
def test_export_onto_a_folder_is_usage(app: Flask, dataset: int, tmp_path: Path) -> None:
    message = failed(
        flask_command(app, "export-responses", "--dataset", "small", "--out", str(tmp_path)), 2
    )
    assert f"Invalid value for '--out': File '{tmp_path}' is a directory." in message


@pytest.mark.database
def test_import_a_missing_file_is_usage(app: Flask, tmp_path: Path) -> None:
    missing = tmp_path / "missing.xml"
    message = failed(flask_command(app, "import", str(missing), "--dataset", "x"), 2)
    assert f"Invalid value for 'FILE': File '{missing}' does not exist." in message


@pytest.mark.database
def test_import_bad_xml(app: Flask, tmp_path: Path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"<corpus>\n<lexelt item='a.n'>\n")
    message = failed(flask_command(app, "import", str(bad), "--dataset", "bad"))
    assert message.startswith(f"Error: nothing imported: {bad}:3: not well-formed XML")


@pytest.mark.database
@pytest.mark.parametrize(
    ("item", "instance", "line", "problem"),
    [
        ("b" * 119 + ".a", "1", 3, f"lexelt item {'b' * 40!r}… has 121 characters; at most 120"),
        ("bright.a", "7" * 65, 4, f"instance id {'7' * 40!r}… has 65 characters; at most 64"),
    ],
)
def test_import_over_long_names(
    app: Flask, tmp_path: Path, item: str, instance: str, line: int, problem: str
) -> None:
    from tests.test_limits import xml

    path = tmp_path / "long.xml"
    path.write_bytes(xml(item=item, instance=instance))
    message = failed(flask_command(app, "import", str(path), "--dataset", "long"))
    assert message == f"Error: nothing imported: {path}:{line}: {problem}\n"


@pytest.mark.database
@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("n" * 121, f"dataset name {'n' * 40!r}… has 121 characters; at most 120"),
        (
            "two\nlines",
            "dataset name 'two\\nlines' contains U+000A: control characters, line "
            "breaks and bidi controls are not allowed",
        ),
    ],
)
def test_import_a_bad_dataset_name(app: Flask, small: Path, name: str, rule: str) -> None:
    message = failed(flask_command(app, "import", str(small), "--dataset", name))
    assert message == f"Error: nothing imported from {small}: {rule}\n"


@pytest.mark.database
def test_lemma_decision_too_long(app: Flask, dataset: int) -> None:
    message = failed(flask_command(app, "lemmas", "--dataset", "small", "--accept", "s" * 256))
    assert message == f"Error: surface {'s' * 40!r}… has 256 characters; at most 255\n"


@pytest.mark.database
def test_two_lemma_decisions_at_once_is_usage(app: Flask, dataset: int) -> None:
    message = failed(
        flask_command(app, "lemmas", "--dataset", "small", "--accept", "a", "--reject", "b"), 2
    )
    assert "Error: give one of --accept, --reject, --correct" in message


@pytest.mark.database
def test_create_user_with_an_over_long_name(app: Flask) -> None:
    message = failed(flask_command(app, "create-user", "u" * 81, "--password", "password1"))
    assert message == (
        f"Error: username {'u' * 40!r}… must be 1-80 letters, digits, '.', '_' or '-'\n"
    )


def test_a_database_without_its_schema(tmp_path: Path) -> None:
    """A command run before ``lexsub init-db``: the database's message, not a traceback."""
    url = f"sqlite:///{tmp_path / 'empty.sqlite'}"
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    message = failed(
        flask_command(app, "compile", "--dataset", "small", "--out", str(tmp_path / "out"))
    )
    assert message == f"Error: database {url}: no such table: datasets\n"


# --- python -m scoring.score -----------------------------------------------------------------


def test_score_without_arguments_is_usage() -> None:
    done = command("scoring.score")
    assert (done.returncode, done.stdout, done.stderr) == (2, USAGE, "")


def test_score_with_an_unknown_option_is_usage(tmp_path: Path) -> None:
    done = command("scoring.score", "s", "g", "--colour")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "score: unknown option '--colour' (see --help)\n"


def test_score_with_a_bad_format_is_usage() -> None:
    done = command("scoring.score", "s", "g", "--format", "xml")
    assert (done.returncode, done.stderr) == (
        2,
        "score: --format 'xml' is not one of text, json, csv\n",
    )


def test_score_strict_refuses_invalid_utf8(tmp_path: Path) -> None:
    system = tmp_path / "sys.best"
    system.write_bytes(b"happy.a 1 :: glad\nhappy.a 2 :: gl\xe9ad;\xff\n")
    gold = tmp_path / "gold"
    gold.write_text("happy.a 1 :: glad 2;\nhappy.a 2 :: merry 1;\n")
    done = command("scoring.score", str(system), str(gold), "--strict")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"score: {system}:2: byte 0xE9 at column 16 is not UTF-8 (invalid continuation byte)\n"
    )
    # without --strict the bytes are read as score.pl reads them
    assert command("scoring.score", str(system), str(gold)).returncode == 0


def test_score_missing_file_is_named(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text("happy.a 1 :: glad 2;\n")
    done = command("scoring.score", str(tmp_path / "nope"), str(gold), "--fixed")
    assert done.returncode == 1
    assert done.stderr == f"score: cannot read {tmp_path / 'nope'}: No such file or directory\n"


def test_score_nothing_to_divide_by_names_the_files(tmp_path: Path) -> None:
    system = tmp_path / "sys.best"
    system.write_text("other.n 9 :: x\n")
    gold = tmp_path / "gold"
    gold.write_text("happy.a 1 :: glad 2;\n")
    done = command("scoring.score", str(system), str(gold), "--no-diagnosis")
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"score: {system} against {gold}: precision (nothing attempted) is undefined"
    )


# --- python -m annotate.compile --------------------------------------------------------------

RESPONSE = (
    '{"annotator": "ann", "lexelt": "bright.a", "instance": "1", "kind": '
    '"substitutes", "substitutes": ["clever"], "multiword": null, "used_dictionary": '
    'false, "updated_at": "2026-01-01T00:00:00+00:00"}\n'
)


def test_compile_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    done = command("annotate.compile", str(missing), "--out", str(tmp_path / "out"))
    assert done.returncode == 1
    assert done.stderr == f"compile: cannot use {missing}: No such file or directory\n"
    assert not (tmp_path / "out").exists()


def test_compile_into_an_unwritable_folder_command(tmp_path: Path, a_file: Path) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text(RESPONSE)
    done = command(
        "annotate.compile", str(responses), "--out", str(a_file / "out"), "--no-lemmatise"
    )
    assert done.returncode == 1
    assert done.stderr == f"compile: cannot use {a_file / 'out'}: Not a directory\n"


def test_compile_decisions_not_utf8(tmp_path: Path) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text(RESPONSE)
    decisions = tmp_path / "decisions.json"
    decisions.write_bytes(b'{"decisions": ["\xff"]}')
    done = command(
        "annotate.compile",
        str(responses),
        "--out",
        str(tmp_path / "out"),
        "--decisions",
        str(decisions),
    )
    assert done.returncode == 1
    assert done.stderr == (f"compile: {decisions}: not UTF-8 (invalid start byte at byte 16)\n")


def test_compile_without_arguments_is_usage() -> None:
    done = command("annotate.compile")
    assert done.returncode == 2
    assert "the following arguments are required: RESPONSES_FILE, --out" in done.stderr
