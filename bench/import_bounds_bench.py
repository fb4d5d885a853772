"""Import bounds: the peak memory (max RSS) and wall time of `lexsub import`, one fresh
process and SQLite database per file, on the largest files the 64 MiB upload limit
admits and on hostile ones; the web import runs the same parse and store, so its time
here is what a gunicorn worker needs (its timeout: gunicorn.conf.py).

Run: .venv/bin/python -m bench.import_bounds_bench [--only NAME ...] [--database URL]
(``--database``: an empty PostgreSQL database instead of a fresh SQLite file per import)

The files, written to a temporary folder (the CoInCo and SWORDS ones from the shared
data, repeated with fresh ids):

- table-1.5M-rows.tsv: 1.5 million short rows (~59 MB), refused at row 100,001;
- table-100k-rows.tsv: 100,000 rows of ~650 characters (~64 MiB), the most admitted;
- table-100k-astral.tsv: the same with an emoji at each end of every sentence (Python
  then holds the text at 4 bytes a character: the most memory an admitted file takes);
- semeval-100k.xml: the task's XML, 99,000 instances of ~620 characters (~63 MiB);
- coinco-x5.xml.gz: CoInCo's release five times (77,075 instances, 57 MiB unpacked);
- coinco-misplaced.xml: 60 MiB of 9,900-character sentences, each with 10,000 tokens
  that are none of its words (1 million tokens to look for);
- swords-x2.json.gz: SWORDS' test set twice (1,524 targets, 24 MiB unpacked);
- bomb-sentence.xml.gz, bomb-sentence.tsv.gz: one 250 MiB sentence (~250 KB gzip);
- bomb-blank.tsv.gz: a header and 1 GiB of line breaks (~1 MB gzip);
- json-values.json: 64 MiB of small JSON objects, refused at the values' limit;
- json-at-limit.json: just under the values' limit and 64 MiB, read whole (then refused:
  not SWORDS);
- deep.json: 400 KB of ``[[[[…]]]]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.machine import load_average, machine_facts

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"


def _table_short(path: Path) -> None:
    with path.open("w") as out:
        out.write("id\tlexelt\tsentence\n")
        for n in range(1_500_000):
            out.write(f"{n}\tbright.a\tA <head>bright</head> boy .\n")


def _table_long(path: Path) -> None:
    words = " ".join(f"word{n % 97}" for n in range(90))
    with path.open("w") as out:
        out.write("id\tlexelt\tsentence\n")
        for n in range(100_000):
            out.write(f"{n}\tbright{n % 500}.a\tA <head>bright</head> boy {words}.\n")


def _table_astral(path: Path) -> None:
    """As :func:`_table_long`, with an emoji at each end of every sentence: Python then
    keeps each part of the context at 4 bytes a character, the most memory text takes."""
    words = " ".join(f"word{n % 97}" for n in range(89))
    with path.open("w", encoding="utf-8") as out:
        out.write("id\tlexelt\tsentence\n")
        for n in range(100_000):
            out.write(
                f"{n}\tbright{n % 500}.a\t\U0001f600 A <head>bright</head> {words}.\U0001f600\n"
            )


def _semeval(path: Path) -> None:
    words = " ".join(f"word{n % 97}" for n in range(86))
    with path.open("w") as out:
        out.write('<?xml version="1.0"?>\n<corpus lang="english">\n')
        for item in range(990):
            out.write(f'<lexelt item="bright{item}.a">\n')
            for n in range(100):
                out.write(
                    f'<instance id="{item}-{n}">\n<context>A <head>bright</head> '
                    f"{words} .</context>\n</instance>\n"
                )
            out.write("</lexelt>\n")
        out.write("</corpus>\n")


def _coinco(path: Path) -> None:
    source = gzip.decompress((SHARED / "coinco" / "coinco.xml.gz").read_bytes()).decode()
    start, end = source.index("<sent "), source.rindex("</document>")
    body = source[start:end]
    parts = [source[:start]]
    for copy in range(5):
        parts.append(re.sub(r'(<token id=")(\d+)"', rf'\g<1>{copy}\g<2>"', body))
    parts.append(source[end:])
    path.write_bytes(gzip.compress("".join(parts).encode(), 6))


def _coinco_misplaced(path: Path) -> None:
    """Sentences of 9,900 characters, each with 10,000 tokens that are none of its words
    and one that is: the most searching a CoInCo file can ask for."""
    sentence = ("word " * 1990)[:9900]
    with path.open("w") as out:
        out.write("<document>\n")
        n = 0
        while out.tell() < 60 * 2**20:
            out.write(
                f"<sent MASCfile='f' MASCsentID='s'>\n<targetsentence>{sentence}"
                "</targetsentence>\n<tokens>\n"
            )
            for i in range(n, n + 10_000):
                out.write(f'<token id="XXX" wordform="q{i}" lemma="a" posMASC="NN"/>\n')
            n += 10_000
            out.write(f'<token id="{n}" wordform="word" lemma="word" posMASC="NN"/>\n')
            out.write("</tokens>\n</sent>\n")
        out.write("</document>\n")


def _swords(path: Path) -> None:
    source = json.loads(
        gzip.decompress((SHARED / "swords" / "swords-v1.1_test.json.gz").read_bytes())
    )
    doubled: dict[str, Any] = {key: {} for key in source}
    for copy in ("a", "b"):
        for key, table in source.items():
            if not isinstance(table, dict):
                doubled[key] = table
                continue
            for id_, value in table.items():
                value = dict(value) if isinstance(value, dict) else value
                if key == "targets":
                    value["context_id"] = value["context_id"] + copy
                elif key == "substitutes":
                    value["target_id"] = value["target_id"] + copy
                doubled[key][id_ + copy] = value
    path.write_bytes(gzip.compress(json.dumps(doubled).encode(), 6))


def _bomb(before: bytes, after: bytes, mebibytes: int, fill: bytes) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)
        block = fill * (2**20 // len(fill))
        with path.open("wb") as out:
            out.write(packer.compress(before))
            for _ in range(mebibytes):
                out.write(packer.compress(block))
            out.write(packer.compress(after) + packer.flush())

    return write


def _json_values(path: Path) -> None:
    with path.open("w") as out:
        out.write("[")
        out.write('{"ab":1},' * (64 * 2**20 // 9 - 1))
        out.write('{"ab":1}]')


def _json_at_limit(path: Path) -> None:
    """Just under 3,000,000 values, as one-member objects (the most memory a value
    takes), and a string that fills the file to 64 MiB: read whole, then refused as not
    SWORDS."""
    objects = 2_999_990 // 3
    with path.open("w") as out:
        out.write('{"a": [')
        out.write('{"a":1},' * (objects - 1) + '{"a":1}], "b": "')
        out.write("x" * (64 * 2**20 - out.tell() - 2) + '"}')


def _deep(path: Path) -> None:
    path.write_bytes(b"[" * 200_000 + b"]" * 200_000)


XML_HEAD = b'<corpus>\n<lexelt item="a.n">\n<instance id="1">\n<context><head>a</head> '
FILES: dict[str, Callable[[Path], None]] = {
    "table-1.5M-rows.tsv": _table_short,
    "table-100k-rows.tsv": _table_long,
    "table-100k-astral.tsv": _table_astral,
    "semeval-100k.xml": _semeval,
    "coinco-x5.xml.gz": _coinco,
    "coinco-misplaced.xml": _coinco_misplaced,
    "swords-x2.json.gz": _swords,
    "bomb-sentence.xml.gz": _bomb(
        XML_HEAD, b"</context></instance></lexelt></corpus>\n", 250, b"x"
    ),
    "bomb-sentence.tsv.gz": _bomb(
        b"id\tlexelt\tsentence\n1\ta.n\t<head>a</head> ", b"\n", 250, b"x"
    ),
    "bomb-blank.tsv.gz": _bomb(b"id\tlexelt\tsentence\n", b"", 1024, b"\n"),
    "json-values.json": _json_values,
    "json-at-limit.json": _json_at_limit,
    "deep.json": _deep,
}


def run(path: Path, folder: Path, database: str | None) -> tuple[float, float, int, str]:
    """(seconds, max RSS in MiB, exit status, last line) of one `lexsub import` into
    ``database`` (default: a fresh SQLite file in ``folder``)."""
    env = dict(os.environ, DATABASE_URL=database or f"sqlite:///{folder}/{path.name}.sqlite")
    flask = [sys.executable, "-m", "flask", "--app", "wsgi", "lexsub"]
    subprocess.run([*flask, "init-db"], cwd=ROOT, env=env, check=True, capture_output=True)
    started = time.perf_counter()
    child = subprocess.Popen(
        [*flask, "import", str(path), "--dataset", path.name],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    last = output.strip().splitlines()[-1] if output.strip() else ""
    return seconds, usage.ru_maxrss / 1024, child.returncode, last


def write(name: str, path: Path) -> None:
    """Write a file in a process of its own: a child's max RSS on Linux starts at its
    parent's RSS when it forks, so this process must stay small for the figures to be the
    import's own."""
    command = [sys.executable, "-m", "bench.import_bounds_bench", "--write", name, str(path)]
    subprocess.run(command, cwd=ROOT, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(FILES), default=sorted(FILES))
    parser.add_argument(
        "--database", help="a PostgreSQL URL to import into (default: a fresh SQLite file)"
    )
    parser.add_argument("--write", nargs=2, metavar=("NAME", "PATH"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.write:  # in a process of its own: see write()
        FILES[options.write[0]](Path(options.write[1]))
        return
    for name, value in machine_facts():
        print(f"{name}: {value}")
    print(f"load average before: {load_average()}")
    print("| file | size | unpacked | s | max RSS MiB | exit | last line |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for name in (name for name in FILES if name in options.only):
            path = folder / name
            write(name, path)
            size = path.stat().st_size
            unpacked = _unpacked_size(path)
            seconds, peak, status, last = run(path, folder, options.database)
            print(
                f"| {name} | {size / 2**20:.1f} MiB | {unpacked / 2**20:.0f} MiB | "
                f"{seconds:.1f} | {peak:.0f} | {status} | {last[-110:]} |",
                flush=True,
            )
            path.unlink()
    print(f"load average after: {load_average()}")


def _unpacked_size(path: Path) -> int:
    if path.suffix != ".gz":
        return path.stat().st_size
    total = 0
    with gzip.open(path) as handle:
        while chunk := handle.read(2**20):
            total += len(chunk)
    return total


if __name__ == "__main__":
    main()
