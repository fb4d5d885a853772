"""Every command reads a file within limits: a gzip bomb, ``/dev/zero``, a giant line, an
empty benchmark data file and a count of resamples past all use end in one line
``Error: …`` naming the file and the rule (status 1; a usage error, status 2), never a
traceback or a hang. The limits are lowered through their settings to keep the files small.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.errors import BoundError
from scoring.files.bounded import bounded_lines, read_bounded

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "data" / "oracle" / "gold" / "main.gold"
MIB = 1 << 20


def lexsub(*args: str, **settings: str) -> tuple[int, str, str]:
    """``python -m scoring.lexsub ARGS`` with the environment's ``settings``: (status,
    standard output, standard error), no traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "scoring.lexsub", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, **settings},
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def system(tmp_path: Path) -> Path:
    path = tmp_path / "system.best"
    path.write_text("side.n 303 :: edge\n")
    return path


def test_a_gzip_bomb_is_refused_once_the_limit_is_unpacked(tmp_path: Path, system: Path) -> None:
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (8 * MIB)))
    assert bomb.stat().st_size < 10_000
    status, out, err = lexsub(
        "benchmark", "swords", str(system), "--data", str(bomb), LEXSUB_MAX_FILE_BYTES=str(MIB)
    )
    assert (status, out) == (1, "")
    assert err == (
        f"Error: {bomb}: unpacks to more than 1 MiB (the most read; LEXSUB_MAX_FILE_BYTES "
        "sets it)\n"
    )


def test_a_gzipped_coinco_bomb_is_refused_as_it_is_read(tmp_path: Path, system: Path) -> None:
    bomb = tmp_path / "coinco.xml.gz"
    bomb.write_bytes(gzip.compress(b"<document>" + b" " * (8 * MIB) + b"</document>"))
    status, _, err = lexsub(
        "benchmark", "coinco", str(system), "--data", str(bomb), LEXSUB_MAX_FILE_BYTES=str(MIB)
    )
    assert status == 1
    assert err == (
        f"Error: {bomb}: unpacks to more than 1 MiB (the most read; LEXSUB_MAX_FILE_BYTES "
        "sets it)\n"
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_refused_at_the_file_limit() -> None:
    status, _, err = lexsub("score", "/dev/zero", str(GOLD), LEXSUB_MAX_FILE_BYTES=str(MIB))
    assert status == 1
    assert err == (
        "Error: /dev/zero: holds more than 1 MiB (the most read; LEXSUB_MAX_FILE_BYTES sets it)\n"
    )


def test_annotators_past_the_file_limit_are_refused(tmp_path: Path) -> None:
    """``agreement`` reads its file within the same bound (``/dev/zero`` it refuses before,
    as not a text file)."""
    path = tmp_path / "annotators.jsonl"
    path.write_text('{"annotator": "a", "instance": "x", "kind": "answer"}\n' * 40)
    status, _, err = lexsub("agreement", str(path), LEXSUB_MAX_FILE_BYTES="1000")
    assert status == 1
    assert err == (
        f"Error: {path}: holds more than 1,000 bytes (the most read; LEXSUB_MAX_FILE_BYTES "
        "sets it)\n"
    )


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize(
    ("args", "reads"),
    [
        (
            ("agreement", "/dev/zero"),
            "agreement reads an annotators.jsonl (as lexsub compile writes)",
        ),
        (
            ("compile", "/dev/zero", "--out", "/nowhere"),
            "compile reads a responses file (one answer a line, as lexsub export writes)",
        ),
    ],
)
def test_dev_zero_is_named_before_anything_is_read(args: tuple[str, ...], reads: str) -> None:
    """What the file is, from its first bytes only (scoring.formats.sniff), in one line."""
    status, _, err = lexsub(*args)
    assert (status, err) == (1, f"Error: /dev/zero is not a text file; {reads}\n")


def test_a_responses_line_past_the_limit_is_one_line_too_long(tmp_path: Path) -> None:
    responses = tmp_path / "responses.jsonl"
    responses.write_text('{"annotator": "a", ' + " " * 5000 + '"x": 1}\n', encoding="utf-8")
    status, _, err = lexsub(
        "compile", str(responses), "--out", str(tmp_path / "out"), LEXSUB_MAX_LINE_BYTES="4096"
    )
    assert status == 1
    assert err == (
        f"Error: {responses}:1: the line has more than 4,096 bytes (the longest read; "
        "LEXSUB_MAX_LINE_BYTES sets it)\n"
    )


def test_a_line_past_the_limit_is_refused_by_its_number(tmp_path: Path) -> None:
    system = tmp_path / "long.best"
    system.write_text("side.n 303 :: edge\n" + "x" * 2000 + "\nside.n 304 :: rim\n")
    status, out, err = lexsub("score", str(system), str(GOLD), LEXSUB_MAX_LINE_BYTES="1000")
    assert (status, out) == (1, "")
    assert err == (
        f"Error: {system}:2: the line has more than 1,000 bytes (the longest read; "
        "LEXSUB_MAX_LINE_BYTES sets it)\n"
    )


@pytest.mark.parametrize("content", ["", " \n\n"])
@pytest.mark.parametrize("name", ["semeval07", "germeval", "evalita"])
def test_an_empty_benchmark_data_file_is_an_error(
    tmp_path: Path, system: Path, name: str, content: str
) -> None:
    data = tmp_path / "empty.gold"
    data.write_text(content)
    status, out, err = lexsub("benchmark", name, str(system), "--data", str(data))
    assert (status, out) == (1, "")
    assert err == f"Error: {data}: an empty file; the benchmark data must hold its items\n"


@pytest.mark.parametrize(
    ("args", "option", "program"),
    [
        (("compare", str(GOLD), str(GOLD)), "--resamples", "lexsub compare"),
        (("compare", str(GOLD), str(GOLD)), "--trials", "lexsub compare"),
        (("agreement", "annotators.jsonl"), "--resamples", "lexsub agreement"),
        (("judgements", "judgements.jsonl"), "--permutations", "lexsub judgements"),
    ],
)
def test_resamples_past_a_million_are_refused(
    args: tuple[str, ...], option: str, program: str
) -> None:
    status, out, err = lexsub(*args, option, "100000000")
    assert (status, out) == (2, "")
    assert err == (
        f"Error: {option} 100000000: it must be at most 1,000,000 (see {program} --help)\n"
    )
    assert lexsub(*args, option, "1000001")[0] == 2


# --- the bounded reader itself --------------------------------------------------------


def test_a_line_of_exactly_the_limit_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "lines.txt"
    data = b"ab\n" + b"x" * 10 + b"\n" + b"y" * 3
    path.write_bytes(data)
    assert read_bounded(path, lines=True, line_limit=10) == data
    for data in (b"x" * 10, b"\n" * 40 + b"x" * 10):
        path.write_bytes(data)
        assert read_bounded(path, lines=True, line_limit=10) == data
    path.write_bytes(b"\n" * 40 + b"x" * 11 + b"\n" + b"z" * 5)
    with pytest.raises(BoundError) as caught:
        read_bounded(path, lines=True, line_limit=10)
    assert str(caught.value) == (
        f"{path}:41: the line has more than 10 bytes (the longest read; LEXSUB_MAX_LINE_BYTES "
        "sets it)"
    )
    assert read_bounded(path, line_limit=10) == path.read_bytes()  # not a line-by-line file
    path.write_bytes(b"abc\nabc\nabcd")
    with pytest.raises(BoundError, match=r":3: the line has more than 3 bytes"):
        read_bounded(path, lines=True, line_limit=3)


def test_the_file_limit_is_exact_and_gzip_members_are_all_read(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_bytes(b"z" * 100)
    assert read_bounded(plain, limit=100) == b"z" * 100
    with pytest.raises(BoundError) as caught:
        read_bounded(plain, limit=99)
    assert str(caught.value) == (
        f"{plain}: holds more than 99 bytes (the most read; LEXSUB_MAX_FILE_BYTES sets it)"
    )
    packed = tmp_path / "two.gz"
    packed.write_bytes(gzip.compress(b"first\n") + gzip.compress(b"second\n"))
    assert read_bounded(packed, gunzip=True) == gzip.decompress(packed.read_bytes())
    assert read_bounded(packed, gunzip=True, limit=13) == b"first\nsecond\n"
    with pytest.raises(BoundError, match=r": unpacks to more than 12 bytes \(the most read"):
        read_bounded(packed, gunzip=True, limit=12)
    packed.write_bytes(gzip.compress(b"first\n" * 100)[:-12])
    with pytest.raises(BoundError, match=r": not a complete gzip file: Compressed file ended"):
        read_bounded(packed, gunzip=True)


def test_bounded_lines_gives_the_file_s_lines_and_refuses_a_long_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("LEXSUB_MAX_LINE_BYTES", "4")
    assert list(bounded_lines(io.BytesIO(b"abcd\nef\n\ng"), "r")) == [
        b"abcd\n",
        b"ef\n",
        b"\n",
        b"g",
    ]
    with pytest.raises(BoundError, match=r"^r:2: the line has more than 4 bytes"):
        list(bounded_lines(io.BytesIO(b"abcd\nabcde\n"), "r"))


def test_the_items_to_generate_for_are_read_within_the_file_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from annotate.generate.items import read_items

    path = tmp_path / "items.tsv"
    path.write_text("The bright boy .\tbright\n" * 10)  # 240 bytes
    assert len(read_items(path)) == 10
    monkeypatch.setenv("LEXSUB_MAX_FILE_BYTES", "239")
    with pytest.raises(BoundError) as caught:
        read_items(path)
    assert str(caught.value) == (
        f"{path}: holds more than 239 bytes (the most read; LEXSUB_MAX_FILE_BYTES sets it)"
    )
