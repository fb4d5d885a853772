"""No command line prints a traceback. Each failure ends with one line ``Error: …`` on
standard error naming the file (and line) and the rule, exit status 1; bad usage exits
with status 2, also with one line ``Error: …``."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result
from flask import Flask

from annotate import create_app
from scoring.score.cli import NOTHING_SCORED, USAGE
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
    """score.pl's usage line stays on standard output (score.pl prints it there)."""
    done = command("scoring.score")
    assert (done.returncode, done.stdout, done.stderr) == (2, USAGE, f"Error: {NOTHING_SCORED}\n")


def test_score_with_an_unknown_option_is_usage(tmp_path: Path) -> None:
    done = command("scoring.score", "s", "g", "--colour")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "Error: unknown option '--colour' (see --help)\n"


def test_score_with_a_bad_format_is_usage() -> None:
    done = command("scoring.score", "s", "g", "--format", "xml")
    assert (done.returncode, done.stderr) == (
        2,
        "Error: --format 'xml' is not one of text, json, csv\n",
    )


def test_score_strict_refuses_invalid_utf8(tmp_path: Path) -> None:
    system = tmp_path / "sys.best"
    system.write_bytes(b"happy.a 1 :: glad\nhappy.a 2 :: gl\xe9ad;\xff\n")
    gold = tmp_path / "gold"
    gold.write_text("happy.a 1 :: glad 2;\nhappy.a 2 :: merry 1;\n")
    done = command("scoring.score", str(system), str(gold), "--strict")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"Error: {system}:2: byte 0xE9 at column 16 is not UTF-8 (invalid continuation byte)\n"
    )
    # without --strict the bytes are read as score.pl reads them
    assert command("scoring.score", str(system), str(gold)).returncode == 0


def test_score_missing_file_is_named(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text("happy.a 1 :: glad 2;\n")
    done = command("scoring.score", str(tmp_path / "nope"), str(gold), "--fixed")
    assert done.returncode == 1
    assert done.stderr == f"Error: cannot use {tmp_path / 'nope'}: No such file or directory\n"


def test_score_nothing_to_divide_by_names_the_files(tmp_path: Path) -> None:
    system = tmp_path / "sys.best"
    system.write_text("other.n 9 :: x\n")
    gold = tmp_path / "gold"
    gold.write_text("happy.a 1 :: glad 2;\n")
    done = command("scoring.score", str(system), str(gold), "--no-diagnosis")
    assert done.returncode == 1
    assert done.stderr.startswith(
        f"Error: {system} against {gold}: precision (nothing attempted) is undefined"
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
    assert done.stderr == f"Error: cannot use {missing}: No such file or directory\n"
    assert not (tmp_path / "out").exists()


def test_compile_into_an_unwritable_folder_command(tmp_path: Path, a_file: Path) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text(RESPONSE)
    done = command(
        "annotate.compile", str(responses), "--out", str(a_file / "out"), "--no-lemmatise"
    )
    assert done.returncode == 1
    assert done.stderr == f"Error: cannot use {a_file / 'out'}: Not a directory\n"


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
    assert done.stderr == (
        f"Error: {decisions}:1: byte 0xFF at column 17 is not UTF-8 (invalid start byte)\n"
    )


def test_compile_without_arguments_is_usage() -> None:
    done = command("annotate.compile")
    assert done.returncode == 2
    assert done.stderr == (
        "Error: the following arguments are required: --out (see lexsub compile --help)\n"
    )
    done = command("annotate.compile", "--out", "x")
    assert done.returncode == 2
    assert done.stderr == (
        "Error: give a RESPONSES_FILE or --dataset NAME (one of them) (see lexsub compile --help)\n"
    )


# --- every command, every hostile file -------------------------------------------------------

GOLD = "happy.a 1 :: glad 2;merry 1;\n"
SYSTEM = "happy.a 1 :: glad\n"
JUDGEMENT = (
    '{"item": "1", "candidate": "glad", "judge": "x", "label": "good", "origin": ["human"]}\n'
)
ANNOTATOR = (
    '{"annotator": "a1", "lexelt": "happy.a", "instance": "1", "kind": "substitutes", '
    '"substitutes": ["glad"], "multiword": null}\n'
    '{"annotator": "a2", "lexelt": "happy.a", "instance": "1", "kind": "substitutes", '
    '"substitutes": ["glad", "merry"], "multiword": null}\n'
)
HOSTILE: dict[str, bytes | None] = {
    "missing": None,
    "empty": b"",
    "binary": bytes(range(256)) * 4,
    "utf-16": ("happy.a 1 :: glad 2;\n" + JUDGEMENT).encode("utf-16"),
    "utf-16 without a mark": ("happy.a 1 :: glad 2;\n" + JUDGEMENT).encode("utf-16-le"),
    "deep json": b"[" * 100_000 + b"]" * 100_000,
    "long number": b'{"item": "1", "candidate": "glad", "score": ' + b"9" * 5000 + b"}\n",
    "long count": b"happy.a 1 :: glad " + b"9" * 5000 + b";merry 1;\n",
}


def _score(argv: list[str]) -> int:
    from scoring.score.cli import run

    return run(argv, io.BytesIO())


def _compare(argv: list[str]) -> int:
    from scoring.leaderboard.cli import main

    return main(argv, io.StringIO())


def _agreement(argv: list[str]) -> int:
    from scoring.agreement.__main__ import main

    return main(argv)


def _judgements(argv: list[str]) -> int:
    from scoring.judgements.cli import main

    return main(argv)


def _judgements_swords(argv: list[str]) -> int:
    from scoring.judgements.swords import main

    return main(argv)


def _benchmark(argv: list[str]) -> int:
    from scoring.benchmark.cli import main

    return main(argv, io.StringIO())


def _convert(argv: list[str]) -> int:
    from scoring.benchmark.convert import main

    return main(argv, io.StringIO())


def _compile(argv: list[str]) -> int:
    from annotate.compile import run

    return run(argv)


def _split(argv: list[str]) -> int:
    from annotate.gold.split import main

    return main(argv)


# command → (its main, its arguments: FILE is the hostile file; GOLD, SYSTEM, JUDGEMENTS,
# RESPONSES good files; OUT a path to write)
COMMANDS: dict[str, tuple[Callable[[list[str]], int], list[str]]] = {
    "lexsub-score system": (_score, ["FILE", "GOLD"]),
    "lexsub-score gold --fixed": (_score, ["SYSTEM", "FILE", "--fixed"]),
    "lexsub-score --strict": (_score, ["FILE", "GOLD", "--strict"]),
    "lexsub-compare gold": (_compare, ["FILE", "SYSTEM"]),
    "lexsub-compare system": (_compare, ["GOLD", "FILE"]),
    "lexsub-agreement": (_agreement, ["FILE"]),
    "lexsub-judgements": (_judgements, ["FILE"]),
    "lexsub-judgements --scores": (_judgements, ["JUDGEMENTS", "--scores", "FILE"]),
    "lexsub-benchmark swords": (_benchmark, ["swords", "SYSTEM", "--data", "FILE"]),
    "lexsub-benchmark semeval07": (_benchmark, ["semeval07", "SYSTEM", "--data", "FILE"]),
    "lexsub-benchmark coinco": (_benchmark, ["coinco", "SYSTEM", "--data", "FILE"]),
    "scoring.benchmark.convert": (_convert, ["swords-to-ranked", "FILE", "--data", "FILE"]),
    "scoring.judgements.swords": (_judgements_swords, ["FILE", "--out", "OUT"]),
    "lexsub-compile": (_compile, ["FILE", "--out", "OUT", "--no-lemmatise"]),
    "lexsub-compile --decisions": (
        _compile,
        ["RESPONSES", "--out", "OUT", "--no-lemmatise", "--decisions", "FILE"],
    ),
    "annotate.gold.split": (_split, ["FILE", "OUT"]),
}
# files some commands read as what they are: no lines at all, or (score.pl's rules and the
# fixed ones) no line that looks like a gold line, which both ignore: figures n/a, status 0
# (an empty benchmark data file is an error: tests/test_cli_limits.py)
READ_AS_NOTHING = {
    ("annotate.gold.split", "empty"),
    *(("lexsub-score gold --fixed", kind) for kind in ("empty", "binary", "deep json")),
    ("lexsub-score gold --fixed", "long number"),
    # and a gold line with a long count is a system's answer of two guesses
    *((name, "long count") for name in ("lexsub-score system", "lexsub-score --strict")),
    ("lexsub-compare system", "long count"),
}


def _arguments(template: list[str], tmp_path: Path, hostile: Path) -> list[str]:
    good = {
        "GOLD": ("gold", GOLD),
        "SYSTEM": ("system.best", SYSTEM),
        "JUDGEMENTS": ("judgements.jsonl", JUDGEMENT),
        "RESPONSES": ("responses.jsonl", RESPONSE),
    }
    argv = []
    for arg in template:
        if arg in good:
            name, text = good[arg]
            (tmp_path / name).write_text(text)
            argv.append(str(tmp_path / name))
        else:
            argv.append(
                {"FILE": str(hostile), "OUT": str(tmp_path / "out" / "written")}.get(arg, arg)
            )
    return argv


def ended(
    main: Callable[[list[str]], int], argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """The exit status of a command run in this process, and its standard error."""
    try:
        status = main(argv)
    except SystemExit as exit_:
        assert isinstance(exit_.code, int), exit_.code
        status = exit_.code
    return status, capsys.readouterr().err


def one_error_line(err: str) -> str:
    """The message of standard error that is one line ``Error: …``."""
    assert err.startswith("Error: ") and err.endswith("\n"), err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err[len("Error: ") : -1]


@pytest.mark.parametrize("kind", [*HOSTILE, "directory"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_refuses_a_hostile_file(
    name: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main, template = COMMANDS[name]
    hostile = tmp_path / "hostile.txt"
    if kind == "directory":
        hostile.mkdir()
    elif HOSTILE[kind] is not None:
        hostile.write_bytes(HOSTILE[kind] or b"")
    (tmp_path / "out").mkdir()
    status, err = ended(main, _arguments(template, tmp_path, hostile), capsys)
    if (name, kind) in READ_AS_NOTHING:
        assert status == 0, (status, err)
        return
    assert status == 1, (status, err)
    assert hostile.name in one_error_line(err)


@pytest.mark.parametrize(
    ("name", "option"),
    [
        (name, option)
        for name in COMMANDS
        for option in (["--colour"], ["--seed", "x"], ["--format", "docx"])
        if not name.startswith("lexsub-score") or option == ["--colour"]
    ],
)
def test_every_command_refuses_bad_usage(
    name: str, option: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main, template = COMMANDS[name]
    argv = _arguments(template, tmp_path, tmp_path / "x") + option
    status, err = ended(main, argv, capsys)
    assert status == 2, (status, err)
    one_error_line(err)


@pytest.mark.parametrize(
    ("name", "option", "message"),
    [
        (name, option, message)
        for name in ("lexsub-compare system", "lexsub-agreement")
        for option, message in (
            (["--resamples", "0"], "--resamples 0: it must be at least 1"),
            (["--resamples", "1000001"], "--resamples 1000001: it must be at most 1,000,000"),
            (["--seed", "-1"], "--seed -1: it must be 0 or more"),
            (["--confidence", "1"], "--confidence 1: it must be between 0 and 1"),
        )
    ]
    + [
        ("lexsub-compare system", ["--trials", "0"], "--trials 0: it must be at least 1"),
        ("lexsub-judgements", ["--seed", "-3"], "--seed -3: it must be 0 or more"),
    ],
)
def test_resampling_options_are_checked_alike(
    name: str, option: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every command that resamples refuses the same bad value with the same words."""
    main, _ = COMMANDS[name]
    good = {"lexsub-agreement": ["RESPONSES"], "lexsub-judgements": ["JUDGEMENTS"]}
    argv = _arguments(good.get(name, ["GOLD", "SYSTEM"]), tmp_path, tmp_path / "x") + option
    status, err = ended(main, argv, capsys)
    assert status == 2, (status, err)
    assert one_error_line(err).startswith(f"{message} (see lexsub ")


@pytest.mark.database
@pytest.mark.parametrize(
    ("command", "body", "message"),
    [
        (
            ["create-users", "FILE"],
            "dan\n".encode("utf-16"),
            "FILE: UTF-16 text (it starts with a UTF-16 byte-order mark); files are UTF-8 text",
        ),
        (
            ["create-users", "FILE"],
            b"dan\nev\xe9\n",
            "FILE:2: byte 0xE9 at column 3 is not UTF-8 (unexpected end of data)",
        ),
        (
            ["round", "create", "lr", "--rows", "FILE"],
            "sentence\ttarget\tcandidate\n".encode("utf-16-le"),
            "FILE: UTF-16 text (a NUL byte beside each character); files are UTF-8 text",
        ),
        (
            ["round", "create", "lr", "--rows", "FILE"],
            b"",
            "no round created: FILE: the file is empty (a header line, then one row a line)",
        ),
    ],
)
def test_flask_commands_refuse_hostile_files(
    app: Flask, tmp_path: Path, command: list[str], body: bytes, message: str
) -> None:
    path = tmp_path / "hostile.txt"
    path.write_bytes(body)
    result = flask_command(app, *(str(path) if arg == "FILE" else arg for arg in command))
    assert failed(result) == f"Error: {message.replace('FILE', str(path))}\n"


@pytest.mark.database
def test_flask_create_users_accepts_a_byte_order_mark(app: Flask, tmp_path: Path) -> None:
    path = tmp_path / "users.txt"
    path.write_bytes(b"\xef\xbb\xbfdan secret-password\n")
    result = flask_command(app, "create-users", str(path))
    assert result.exit_code == 0, result.output
    assert "dan" in result.output and "\ufeff" not in result.output


@pytest.mark.database
@pytest.mark.parametrize(
    "command",
    [
        ["compile", "--dataset", "small", "--colour"],
        ["export-responses", "--dataset"],
        ["round", "create", "lr", "--seed", "x"],
        ["nonsense"],
    ],
)
def test_flask_usage_errors_are_one_line(app: Flask, command: list[str]) -> None:
    message = failed(flask_command(app, *command), 2)
    assert message.startswith("Error: ") and message.count("\n") == 1, message


ENTRY_POINTS = [
    "scoring.score",
    "scoring.leaderboard.cli",
    "scoring.agreement",
    "scoring.judgements",
    "scoring.judgements.swords",
    "scoring.benchmark",
    "scoring.benchmark.convert",
    "annotate.compile",
    "annotate.gold.split",
    "scoring.lexsub",
]


@pytest.mark.parametrize("module", ENTRY_POINTS)
def test_every_entry_point_ends_bad_usage_with_one_line(module: str) -> None:
    done = command(module, "--colour")
    assert done.returncode == 2
    one_error_line(done.stderr)


@pytest.mark.parametrize("module", ENTRY_POINTS)
def test_every_entry_point_ends_a_missing_file_with_one_line(module: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    argv = {
        "scoring.score": [missing, missing, "--fixed"],
        "scoring.leaderboard.cli": [missing, missing],
        "scoring.judgements.swords": [missing, "--out", str(tmp_path / "out")],
        "scoring.benchmark": ["swords", missing, "--data", missing],
        "scoring.benchmark.convert": ["swords-to-ranked", missing, "--data", missing],
        "annotate.compile": [missing, "--out", str(tmp_path / "out")],
        "annotate.gold.split": [missing, str(tmp_path / "out")],
        "scoring.lexsub": ["score", missing, missing, "--fixed"],
    }.get(module, [missing])
    done = command(module, *argv)
    assert done.returncode == 1
    assert one_error_line(done.stderr) == f"cannot use {missing}: No such file or directory"


def test_every_console_script_is_an_entry_point_here() -> None:
    """The table above covers every console script of pyproject.toml."""
    import importlib.util
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    modules = set()
    for target in scripts.values():
        module = target.split(":")[0].removesuffix(".__main__")
        package = module.removesuffix(".cli")
        if package != module and importlib.util.find_spec(f"{package}.__main__"):
            module = package  # run as python -m PACKAGE
        modules.add(module)
    assert modules <= set(ENTRY_POINTS), modules - set(ENTRY_POINTS)


@pytest.mark.database
def test_flask_round_create_reads_a_rows_file_with_a_byte_order_mark(
    app: Flask, tmp_path: Path
) -> None:
    """The rows file of the command is read as the page's upload is."""
    rows = tmp_path / "rows.tsv"
    rows.write_bytes(b"\xef\xbb\xbfsentence\ttarget\tcandidate\nA bright day.\tbright\tsunny\n")
    result = flask_command(app, "round", "create", "lr", "--rows", str(rows))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("created round 'lr' (rows, lexical-reference, sentence)")
