"""Upload bounds: the peak memory (max RSS) of a fresh app process that takes one hostile
upload through the web: a dataset import, bulk accounts, a judgement round's rows file, a
system file or SWORDS result on the leaderboard, and the re-scoring of a stored file.

Run: .venv/bin/python -m bench.upload_bounds_bench [--only NAME ...]

Each case runs in three processes, so that the figure is the upload's own:

1. the input is written by a process of its own (a child's max RSS on Linux starts at its
   parent's when it forks), into a temporary folder, at run time (nothing large is kept);
2. a set-up process makes a fresh SQLite database: the schema, an organiser, the small
   dataset of the tests with three annotators' answers (so that its gold has items);
   for ``rescore-*`` it also stores the system file, as an earlier upload would have;
3. a fresh process (as a fresh gunicorn worker: the app created, nothing yet served) logs
   in and sends the one request with Flask's test client (werkzeug parses the multipart
   body as under gunicorn). Its max RSS is read with ``wait4`` (``ru_maxrss``); it prints
   its RSS before the request and what the page said.

docs/deploy.md promises that no upload takes a worker past 520 MiB.
"""

from __future__ import annotations

import argparse
import gzip
import html
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from bench.import_bounds_bench import _semeval, _table_astral
from bench.machine import load_average, machine_facts

ROOT = Path(__file__).resolve().parent.parent
MiB = 2**20
UPLOAD = 63 * MiB
"""The most a case sends: under the 64 MiB upload limit with the multipart around it."""


# --- the hostile inputs ---------------------------------------------------------------------


def _lines(line: Callable[[int], str], size: int, header: str = "") -> Callable[[Path], None]:
    """A file of ``line(n)`` for n = 1, 2, … until it holds ``size`` bytes."""

    def write(path: Path) -> None:
        with path.open("w", encoding="utf-8") as out:
            out.write(header)
            n = 0
            while out.tell() < size:
                n += 1
                out.write(line(n))

    return write


def _count(line: Callable[[int], str], count: int, header: str = "") -> Callable[[Path], None]:
    """A file of ``line(n)`` for n = 1 … ``count``."""

    def write(path: Path) -> None:
        with path.open("w", encoding="utf-8") as out:
            out.write(header)
            for n in range(1, count + 1):
                out.write(line(n))

    return write


def _bomb(before: bytes, fill: bytes, mebibytes: int, after: bytes = b"") -> Callable[[Path], None]:
    """A gzip file of ``before``, ``mebibytes`` MiB of ``fill`` and ``after``."""

    def write(path: Path) -> None:
        packer = zlib.compressobj(9, zlib.DEFLATED, 31)
        block = fill * (MiB // len(fill))
        with path.open("wb") as out:
            out.write(packer.compress(before))
            for _ in range(mebibytes):
                out.write(packer.compress(block))
            out.write(packer.compress(after) + packer.flush())

    return write


WORDS = " ".join(f"word{n % 97}" for n in range(80))


def _lcp_line(n: int) -> str:
    return f"en_{n}\tenglish\tA bright day {WORDS} ends.\tbright\t0.25\n"


def _lcp_astral(n: int) -> str:
    return f"en_{n}\tenglish\t\U0001f600 A bright day {WORDS} ends.\U0001f600\tbright\t0.25\n"


def _swords(size: int) -> Callable[[Path], None]:
    """A SWORDS dataset: 1,000 targets in one context and as many substitutes (each with a
    label) as fill ``size`` bytes: the most JSON values a file of that size holds as
    objects the reader keeps."""

    def write(path: Path) -> None:
        with path.open("w") as out:
            out.write('{"contexts": {"c1": {"context": "A bright day .", "extra": null}}, ')
            out.write('"targets": {')
            out.write(
                ", ".join(
                    f'"t{n}": {{"context_id": "c1", "target": "bright", "offset": 2, '
                    f'"pos": "ADJ", "extra": null}}'
                    for n in range(1000)
                )
            )
            out.write('}, "substitutes": {')
            n = 0
            while out.tell() < size * 0.78:  # the labels fill the rest
                out.write(
                    ("" if n == 0 else ", ")
                    + f'"s{n}": {{"target_id": "t{n % 1000}", "substitute": "w{n}", '
                    '"extra": null}'
                )
                n += 1
            out.write('}, "substitute_labels": {')
            out.write(", ".join(f'"s{k}": ["TRUE"]' for k in range(n)))
            out.write("}}")

    return write


def _swords_contexts(size: int) -> Callable[[Path], None]:
    """A SWORDS dataset of contexts of 9,900 characters, an emoji at each end (Python keeps
    their text at 4 bytes a character), one target each, filling ``size`` bytes."""

    def write(path: Path) -> None:
        context = "\U0001f600 A bright day " + "word " * 1975 + "\U0001f600"
        with path.open("w", encoding="utf-8") as out:
            out.write('{"contexts": {')
            n = 0
            while out.tell() < size - 40 * n - 2 * MiB:
                out.write(("" if n == 0 else ", ") + f'"c{n}": {{"context": "{context}"}}')
                n += 1
            out.write('}, "targets": {')
            out.write(
                ", ".join(
                    f'"t{k}": {{"context_id": "c{k}", "target": "bright", "offset": 4, '
                    '"pos": "ADJ"}'
                    for k in range(n)
                )
            )
            out.write('}, "substitutes": {}, "substitute_labels": {}}')

    return write


def _swords_result(size: int) -> Callable[[Path], None]:
    """A SWORDS result: 1,000 targets, each with scored substitutes, ``size`` bytes."""

    def write(path: Path) -> None:
        per = max(1, size // 1000 // 16)
        with path.open("w") as out:
            out.write('{"substitutes_lemmatized": true, "substitutes": {')
            out.write(
                ", ".join(
                    f'"t{t}": [' + ", ".join(f'["w{k}", 0.5]' for k in range(per)) + "]"
                    for t in range(1000)
                )
            )
            out.write("}}")

    return write


def _deep(path: Path) -> None:
    path.write_bytes(b"[" * 200_000 + b"]" * 200_000)


def _result_deep(path: Path) -> None:
    path.write_bytes(b'{"substitutes": ' + b"[" * 200_000 + b"]" * 200_000 + b"}")


ROWS_HEAD = "sentence\ttarget\tcandidate\n"
CASES: dict[str, tuple[str, Callable[[Path], None]]] = {
    # imports (the organiser's Datasets page; "tsar": TSAR's and MLSP's files)
    "tsar-tiny-lines.tsv.gz": ("import:tsar", _bomb(b"", b"a b\tb\n", 64)),
    "tsar-blank.tsv.gz": ("import:tsar", _bomb(b"", b"\n", 1024)),
    "tsar-one-line.tsv.gz": ("import:tsar", _bomb(b"a ", b"b", 250, b"\tb\n")),
    "lcp-100k.tsv": ("import:tsar", _count(_lcp_line, 100_000)),
    "lcp-100k-astral.tsv": ("import:tsar", _count(_lcp_astral, 100_000)),
    "lcp-8M-astral.tsv": ("import:tsar", _lines(_lcp_astral, 8 * MiB - 1024)),
    "lcp-100k-short.tsv": (
        "import:tsar",
        _count(lambda n: f"en_{n}\tenglish\tA bright day {'w' * 40}.\tbright\t0.25\n", 100_000),
    ),
    "swords-16M.json": ("import:", _swords(16 * MiB)),
    "swords-32M.json": ("import:", _swords(32 * MiB - 4096)),
    "swords-63M.json": ("import:", _swords(UPLOAD)),
    "swords-contexts-16M.json": ("import:", _swords_contexts(16 * MiB)),
    "swords-contexts-32M.json": ("import:", _swords_contexts(32 * MiB)),
    "swords-contexts-63M.json": ("import:", _swords_contexts(UPLOAD)),
    "table-100k-astral.tsv": ("import:", _table_astral),
    "semeval-100k.xml": ("import:", _semeval),
    "deep.json": ("import:", _deep),
    "table-sentence.tsv.gz": (
        "import:",
        _bomb(b"id\tlexelt\tsentence\n1\ta.n\t<head>a</head> ", b"x", 250, b"\n"),
    ),
    # bulk accounts
    "accounts-63M.txt": ("bulk", _lines(lambda n: f"user{n}\n", UPLOAD)),
    "accounts-blank.txt.gz": ("bulk", _bomb(b"", b"\n", 1024)),
    # a judgement round's rows file
    "rows-63M.tsv": ("rows", _lines(lambda n: f"bad line {n}\n", UPLOAD, ROWS_HEAD)),
    "rows-bad-16M.tsv": (
        "rows",
        _count(lambda n: f"A bright day {n} {WORDS[:100]}\tbright\n", 99_999, ROWS_HEAD),
    ),
    "rows-blank.tsv.gz": ("rows", _bomb(ROWS_HEAD.encode(), b"\n", 1024)),
    "rows-100k.tsv": (
        "rows",
        _count(
            lambda n: f"A <t>bright</t> day {n} {WORDS[:100]}\tbright\tsunny\n", 99_999, ROWS_HEAD
        ),
    ),
    # the leaderboard
    "system-63M.best": ("system", _lines(lambda n: f"bright.a {n} :: clever;smart\n", UPLOAD)),
    "system-16M.best": (
        "system",
        _count(lambda n: f"bright.a {n} :: clever;smart;{'x' * 40}\n", 199_999),
    ),
    "system-blank.best.gz": ("system", _bomb(b"", b"\n", 1024)),
    "system-bad-16M.best": ("system", _count(lambda n: f"bright.a {n} {'x' * 60}\n", 199_999)),
    "result-16M.json": ("system", _swords_result(16 * MiB - 4096)),
    "result-1M-values.json": ("system", _swords_result(1000 * 329 * 16)),
    "result-500k-values.json": ("system", _swords_result(1000 * 164 * 16)),
    "result-small.json": ("system", _swords_result(1000 * 16)),
    "result-63M.json": ("system", _swords_result(UPLOAD)),
    "result-deep.json": ("system", _result_deep),
    "rescore-16M.best": (
        "rescore",
        _count(lambda n: f"bright.a {n} :: clever;smart;{'x' * 40}\n", 199_999),
    ),
}


# --- the processes ---------------------------------------------------------------------------

CONFIG = {"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False}


def _app(folder: Path):  # type: ignore[no-untyped-def]
    from annotate import create_app

    return create_app({**CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite"})


def set_up(folder: Path, kind: str, path: Path) -> None:
    """The database of a case (module docstring, step 2)."""
    from flask_migrate import upgrade

    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset
    from tests.conftest import SMALL_XML, answer, make_user

    app = _app(folder)
    with app.app_context():
        upgrade()
        import_dataset(parse_lexsub_xml(SMALL_XML, "small.xml"), "small", "small.xml", SMALL_XML)
    for name in ("ann", "bob", "cat"):
        make_user(app, name)
    make_user(app, "boss", "organiser")
    answer(app, "ann", {"1": {"sub1": "clever"}, "3": {"sub1": "tolerated", "sub2": "bear"}})
    answer(app, "bob", {"1": {"sub1": "clever", "sub2": "smart"}, "3": {"sub1": "tolerated"}})
    answer(app, "cat", {"1": {"name": "on"}, "3": {"sub1": "bear"}})
    if kind == "rescore":
        from annotate.models import Dataset
        from annotate.services.goldfiles import compile_dataset
        from annotate.services.systems import store_system

        with app.app_context():
            dataset = db.session.get(Dataset, 1)
            assert dataset is not None
            store_system(
                dataset, path.name, path.read_bytes(), "compat", "boss", compile_dataset(dataset)
            )
        with app.app_context():
            db.engine.dispose()


def request(folder: Path, kind: str, path: Path) -> None:
    """The one request of a case (module docstring, step 3); prints the RSS before it and
    what the page said."""
    app = _app(folder)
    client = app.test_client()
    response = client.post("/login", data={"username": "boss", "password": "password1"})
    assert response.status_code == 302
    earlier = counts(app)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with path.open("rb") as file:
        upload = (file, path.name)
        if kind.startswith("import:"):
            data = {"file": upload, "name": "bench", "format": kind.split(":", 1)[1]}
            response = client.post("/organiser/datasets", data=data)
        elif kind == "bulk":
            response = client.post("/organiser/users/bulk", data={"file": upload})
        elif kind == "rows":
            data = {
                "action": "rows",
                "name": "bench",
                "labels": "lexical-reference",
                "rows": upload,
            }
            response = client.post("/organiser/rounds", data=data)
        elif kind == "system":
            response = client.post(
                "/organiser/datasets/1/scores", data={"systems": [upload]}, follow_redirects=True
            )
        else:
            response = client.post("/organiser/datasets/1/scores/rescore", follow_redirects=True)
    page = html.unescape(response.get_data(as_text=True))
    said = re.findall(r'<(?:div|p|li)[^>]*class="[^"]*flash[^"]*"[^>]*>(.*?)</', page, re.S)
    said = said or re.findall(r'role="alert"[^>]*>(.*?)</', page, re.S)
    message = " | ".join(" ".join(s.split()) for s in said) or f"HTTP {response.status_code}"
    if len(message) > 200:  # the start and the end (the count of problems not shown)
        message = message[:120] + " […] " + message[-70:]
    added = {name: count - earlier[name] for name, count in counts(app).items()}
    stored = ", ".join(f"{count:,} {name}" for name, count in added.items() if count)
    print(f"{before:.0f}\t{message}; stored: {stored or 'nothing'}")


def counts(app) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """The rows of the tables an upload may fill."""
    from sqlalchemy import func, select

    from annotate.extensions import db
    from annotate.models import Dataset, Instance, JudgementRound, SystemRun, User

    with app.app_context():
        return {
            name: db.session.scalar(select(func.count()).select_from(table)) or 0
            for name, table in (
                ("datasets", Dataset),
                ("instances", Instance),
                ("accounts", User),
                ("rounds", JudgementRound),
                ("systems", SystemRun),
            )
        }


def run(name: str, kind: str, path: Path, folder: Path) -> tuple[float, float, str, str]:
    """(seconds, max RSS MiB, RSS before the request, what the page said) of one case."""
    own = [sys.executable, "-m", "bench.upload_bounds_bench"]
    made = subprocess.run(
        [*own, "--set-up", kind, str(path), str(folder)], cwd=ROOT, capture_output=True, text=True
    )
    if made.returncode:
        return 0.0, float("nan"), "", "set-up failed: " + made.stderr.strip()[-200:]
    started = time.perf_counter()
    with (folder / "stderr").open("w+") as errors:
        child = subprocess.Popen(
            [*own, "--request", kind, str(path), str(folder)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
        assert child.stdout is not None
        output = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        last_error = (errors.read().strip().splitlines() or [""])[-1]
    peak = usage.ru_maxrss / 1024
    before, _, said = output.strip().rpartition("\n")[2].partition("\t")
    if child.returncode:
        said = f"exit {child.returncode}: {last_error}"
    return seconds, peak, before, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(CASES), default=list(CASES))
    parser.add_argument("--write", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--set-up", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("--request", nargs=3, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.write:
        CASES[options.write[0]][1](Path(options.write[1]))
        return
    if options.set_up:
        set_up(Path(options.set_up[2]), options.set_up[0], Path(options.set_up[1]))
        return
    if options.request:
        request(Path(options.request[2]), options.request[0], Path(options.request[1]))
        return
    for fact, value in machine_facts():
        print(f"{fact}: {value}")
    print(f"load average before: {load_average()}")
    print("| case | path | size | unpacked | s | RSS before MiB | max RSS MiB | page said |")
    print("|---|---|---|---|---|---|---|---|")
    for name in options.only:
        kind = CASES[name][0]
        with tempfile.TemporaryDirectory() as temporary:
            folder = Path(temporary)
            path = folder / name
            own = [sys.executable, "-m", "bench.upload_bounds_bench"]
            subprocess.run([*own, "--write", name, str(path)], cwd=ROOT, check=True)
            size, unpacked = path.stat().st_size, _unpacked(path)
            seconds, peak, before, said = run(name, kind, path, folder)
            print(
                f"| {name} | {kind} | {size / MiB:.2f} MiB | {unpacked / MiB:.0f} MiB | "
                f"{seconds:.1f} | {before} | {peak:.0f} | {said} |",
                flush=True,
            )
    print(f"load average after: {load_average()}")


def _unpacked(path: Path) -> int:
    if path.suffix != ".gz":
        return path.stat().st_size
    total = 0
    with gzip.open(path) as handle:
        while chunk := handle.read(MiB):
            total += len(chunk)
    return total


if __name__ == "__main__":
    main()
