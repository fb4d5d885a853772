"""The drop-in command: score.pl's argument handling, output formats, the diagnosis."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.score.cli import USAGE, parse_arguments, run
from tests.bare_python import bare_python
from tests.conftest import shared_path

GOLD = (
    "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;\n"
    "new.a 2 :: brand-new 3;fresh 1;\n"
    "run.v 3 :: sprint 2;dash 1;\n"
)


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.BytesIO(), io.StringIO()
    status = run(argv, out, err)
    return status, out.getvalue().decode(), err.getvalue()


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold"
    gold.write_text(GOLD)
    system = tmp_path / "sys.best"
    system.write_text("happy.a 1 :: glad;cheerful\nnew.a 2 ::  brand-new\nrun.v 3 :: \n")
    return system, gold


@pytest.mark.parametrize(
    ("argv", "measure", "verbose", "usage"),
    [
        (["s", "g"], "best", False, 0),
        (["s", "g", "-v"], "best", True, 0),
        (["s", "g", "-t", "oot"], "oot", False, 0),
        (["s", "g", "-t", "mw", "-v"], "mw", True, 0),
        (["s", "g", "-t", "bad"], None, False, 1),
        (["s", "g", "-x"], None, False, 1),
        (["s"], "best", False, 1),  # usage printed, yet best is scored, as score.pl
        (["s", "x-t/gold"], "best", False, 1),  # a gold path containing -t: the same quirk
        (["s", "x-t/gold", "-t", "oot"], None, False, 1),
        (["s-v", "g", "-t", "oot"], None, False, 1),
        (["s", "g", "-t", "best", "yes"], "best", True, 0),  # any fifth argument is "verbose"
    ],
)
def test_arguments_as_score_pl_reads_them(
    argv: list[str], measure: str | None, verbose: bool, usage: int
) -> None:
    options = parse_arguments(argv)
    assert (options.measure, options.verbose, options.usage_lines) == (measure, verbose, usage)


def test_fixed_mode_drops_the_path_quirk() -> None:
    options = parse_arguments(["s", "x-t/gold", "-t", "oot", "--fixed"])
    assert (options.measure, options.usage_lines) == ("oot", 0)


def test_usage_line_is_printed_exactly(files: tuple[Path, Path]) -> None:
    system, gold = files
    status, out, _ = _run([str(system), str(gold), "-t", "nonsense"])
    assert (status, out) == (2, USAGE)


def test_text_output_and_diagnosis(files: tuple[Path, Path]) -> None:
    system, gold = files
    status, out, err = _run([str(system), str(gold)])
    assert status == 0
    assert out.splitlines()[:2] == ["Total = 3, attempted = 2", "precision = 14.29, recall = 9.52"]
    assert "diagnosis: 1 guesses score 0 only because of leading or trailing white space" in err
    assert "line 3: empty answer credited with line 2's guesses" in err
    assert "1 items miss mode credit only because the gold mode is hyphenated (line 2)" in err
    assert "under the fixed rules (--fixed): precision 51.79, recall 34.52" in err


def test_fixed_output(files: tuple[Path, Path]) -> None:
    system, gold = files
    status, out, _ = _run([str(system), str(gold), "--fixed"])
    # item 1: 4/14; item 2: 3/4 and the mode; item 3 abstains
    assert status == 0
    assert out == (
        "Total = 3, attempted = 2\n"
        "precision = 51.79, recall = 34.52\n"
        "Total with mode 3 attempted 2\n"
        "Mode precision = 100.00, Mode recall = 66.67\n"
    )


def test_json_gives_fractions_and_a_signature(files: tuple[Path, Path]) -> None:
    system, gold = files
    status, out, _ = _run([str(system), str(gold), "--format", "json", "--by-pos"])
    body = json.loads(out)
    assert status == 0
    assert body["precision"] == pytest.approx(1 / 7)  # 2/7 over 2 attempted
    assert body["recall"] == pytest.approx(2 / 21)
    assert body["signature"].startswith("metric:best|rules:compat|t:two+responses|version:")
    assert body["by_pos"]["a"]["total_items"] == 2 and body["by_pos"]["v"]["total_items"] == 1
    assert body["by_pos"]["v"]["attempted"] == 0 and body["by_pos"]["n"]["recall"] is None


def test_csv_by_pos(files: tuple[Path, Path]) -> None:
    system, gold = files
    _, out, _ = _run([str(system), str(gold), "--format=csv", "--by-pos"])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [row["pos"] for row in rows] == ["all", "n", "v", "a", "r"]
    assert float(rows[3]["precision"]) == pytest.approx(1 / 7)


def test_by_pos_text_tables(files: tuple[Path, Path]) -> None:
    system, gold = files
    _, out, _ = _run([str(system), str(gold), "--by-pos", "--fixed"])
    assert "Results for best recall" in out
    header = next(line for line in out.splitlines() if line.startswith("Systems"))
    assert header.split() == ["Systems", "All", "Nouns", "Verbs", "Adjectives", "Adverbs"]
    recall_row = out.split("Results for best recall")[1].splitlines()[2].split()
    assert recall_row == ["sys.best", "34.52", "n/a", "0.00", "51.79", "n/a"]


def test_strict_refuses_malformed_lines(tmp_path: Path, files: tuple[Path, Path]) -> None:
    _, gold = files
    system = tmp_path / "bad.best"
    system.write_text("happy.a 1 :: glad\nhappy.a 1 :: merry\nnew.a 2 :: a;;b\n")
    status, out, err = _run([str(system), str(gold), "--strict"])
    assert status == 1 and out == ""
    assert f"{system}:2: id 1 already on line 1" in err
    assert f"{system}:3: empty answer in 'a;;b'" in err


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    status, _, err = _run([str(tmp_path / "nope"), str(tmp_path / "gold")])
    assert status == 1 and f"cannot read {tmp_path / 'nope'}" in err


def test_mw_json(tmp_path: Path) -> None:
    gold = tmp_path / "mwgold"
    gold.write_text("take.v 1 :: take place 3;\ncross.n 2 :: cross section 2;\n")
    system = tmp_path / "sys.mw"
    system.write_text("take.v 1 :: take place\ncross.n 2 :: \n")
    status, out, err = _run([str(system), str(gold), "-t", "mw", "--format", "json"])
    body = json.loads(out)
    assert status == 0
    assert (body["found"], body["genuine"], body["matched"]) == (1, 2, 1)
    assert body["detection_recall"] == 1.0
    assert "1 empty answers count as detections" in err


def test_real_test_set_fixed_mode_differs_where_documented(tmp_path: Path) -> None:
    """context2vec's real best output: the fixed rules change nothing it relies on, except
    gold entries score.pl drops; the diagnosis says so."""
    system = shared_path("data", "systems", "context2vec", "test.generated.best")
    gold = shared_path("data", "semeval2007", "test", "gold")
    _, compat, _ = _run([str(system), str(gold)])
    _, fixed, _ = _run([str(system), str(gold), "--fixed"])
    assert compat.splitlines()[0] == "Total = 1696, attempted = 1696"
    assert fixed.splitlines()[0] == "Total = 1696, attempted = 1696"


# Found by differential fuzzing against score.pl (each case checked there by hand).


def test_counts_past_64_bits_are_doubles_as_in_perl(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text("w.n 1 :: a1 18446744073709551615;b1 1;\n")
    system = tmp_path / "sys"
    system.write_text("w.n 1 :: b1;zz\n")
    _, out, _ = _run([str(system), str(gold), "-v"])
    assert "human responses 1.84467440737096e+19: score is 5.42101086242752e-20" in out


def test_gold_counts_adding_to_zero_kill_the_run_where_score_pl_dies(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text("w.n 1 :: a1 1;b1 2;\nw.n 2 :: a1 0;b1 0;\n")
    system = tmp_path / "sys"
    system.write_text("bad\nw.n 1 :: a1\nw.n 2 :: a1\nw.n 1 :: b1\n")
    status, out, err = _run([str(system), str(gold), "-v"])
    assert status == 1
    assert out == (
        f"Error in {system} on line 1\n"
        "w.n Item 1 mode 'a1' : system 'a1'  correct\n"
        "w.n Item 1 credit 0.333333333333333 guesses 1 human responses 3: "
        "score is 0.333333333333333\n"
    )
    assert "item 2's gold counts add up to 0" in err


def test_a_false_measure_name_scores_nothing(tmp_path: Path) -> None:
    assert parse_arguments(["s", "g", "-t", "0"]).measure is None
    assert parse_arguments(["s", "g", "-t", "best", "-h"]).verbose is True


def test_unreadable_gold_is_empty_in_compat_as_in_perl(tmp_path: Path) -> None:
    system = tmp_path / "sys"
    system.write_text("bad line\n")
    status, out, err = _run([str(system)])
    assert status == 1
    assert out == USAGE + f"Error in {system} on line 1\n"
    assert "score.pl reads it as empty" in err


def test_counts_past_64_bits_tie_as_doubles(tmp_path: Path) -> None:
    """Found by fuzzing: 2**64 and 2**64 - 2 are equal to Perl's ==, so no mode."""
    gold = tmp_path / "mwgold"
    gold.write_text(
        "a.n 1 :: take off 18446744073709551616;put on 18446744073709551614;\nb.n 2 :: set up 3;\n"
    )
    system = tmp_path / "sys"
    system.write_text("a.n 1 :: take off\nb.n 2 :: set up\n")
    _, out, _ = _run([str(system), str(gold), "-t", "mw"])
    assert out.splitlines()[0] == ("Total MWs in GS = 1, System found 2 of which 1 were genuine")


@pytest.mark.parametrize(
    ("options", "status"),
    [(["-t", "best", "-v"], 0), (["-t", "oot", "-v"], 0), (["-t", "bad"], 2), (["--fixed"], 1)],
)
def test_the_process_ends_with_all_its_output_and_status(
    tmp_path: Path, options: list[str], status: int
) -> None:
    """``python -m scoring.score`` ends the process without the interpreter's finalisation
    (``os._exit``): it must flush first, so that a pipe gets every byte that
    :func:`run` writes in-process (here about 300 KB of ``-v`` lines, past any buffer) and
    the exit status is run's."""
    words = ["glad", "merry", "cheerful", "jovial", "brand-new", "fresh"]
    gold = tmp_path / "gold"
    gold.write_text(
        "".join(f"happy.a {n} :: {words[n % 6]} 3;{words[(n + 1) % 6]} 1;\n" for n in range(4000))
    )
    system = tmp_path / "sys"
    separator = " ::: " if "oot" in options else " :: "
    system.write_text("".join(f"happy.a {n}{separator}{words[n % 5]};fresh\n" for n in range(4000)))
    if "--fixed" in options:  # the fixed rules refuse a file they cannot read: status 1
        system = tmp_path / "missing"
    argv = [str(system), str(gold), *options]
    expected = _run(argv)
    done = subprocess.run(
        [sys.executable, "-m", "scoring.score", *argv],
        capture_output=True,
        check=False,
        env={
            **{key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"},
            "LEXSUB_CACHE_DIR": "",  # block-buffered output, as in a terminal's pipe
        },
    )
    assert (done.returncode, done.stdout.decode(), done.stderr.decode()) == expected
    assert expected[0] == status
    if status == 0:
        assert len(done.stdout) > 250_000


def test_main_in_a_process_with_streams_of_its_own_raises_system_exit(
    files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A caller that puts its own standard output in place (as scripts/cli_docs.py does)
    gets SystemExit and goes on: only a process of its own is ended at once."""
    import contextlib

    from scoring.score.cli import main

    system, gold = files
    printed = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["lexsub-score", str(system), str(gold)])
    with contextlib.redirect_stdout(printed), pytest.raises(SystemExit) as ended:
        main()
    assert ended.value.code == 0
    printed.flush()
    assert printed.buffer.getvalue().decode().startswith("Total = 3, attempted = 2\n")


def test_a_corrupt_gzip_file_is_a_failure_with_or_without_zlib_loaded() -> None:
    """:func:`scoring.errors.failures` is what a file's reading raises; ``zlib.error``
    is among them once ``zlib`` is loaded (before that nothing can raise it), and
    ``FAILURES``, for the commands that import it by name, always has it."""
    code = (
        "import sys, scoring.errors as f\n"
        "print(sorted(e.__name__ for e in f.failures()), 'zlib' in sys.modules)\n"
        "import gzip, zlib\n"
        "try:\n"
        "    gzip.decompress(gzip.compress(b'x' * 100)[:-12] + b'corrupt!')\n"
        "except f.failures() as error:\n"
        "    print(sorted(e.__name__ for e in f.failures()), f.describe(error)[:24])\n"
        "from scoring.errors import FAILURES\n"
        "print(zlib.error in FAILURES)\n"
    )
    done = bare_python(code, check=True)
    assert done.stdout.splitlines() == [
        "['EOFError', 'MemoryError', 'OSError', 'ValueError'] False",
        "['EOFError', 'MemoryError', 'OSError', 'ValueError', 'error'] not a complete gzip file",
        "True",
    ]
