"""Benchmark of the gold compiler: ``python -m annotate.compile`` on 1,000,000 responses.

What it measures
----------------
The whole command as an organiser runs it, interpreter start included: reading and
checking the JSON Lines, normalising, lemmatising with LemmInflect, aggregating and
writing ``gold``, ``mwgold``, ``annotators.jsonl`` and ``summary.json``. Wall time is the
best of ``--repeat`` runs; peak memory the child's largest maximum resident set size
(``os.wait4``). Targets (SPEC N2): under 60 s and under 1 GB at 1,000,000 responses.

Input
-----
The real test gold (``../shared/data/semeval2007/test/gold``) split into five annotators'
responses (:func:`annotate.gold.split.split_gold`), repeated with new numeric ids until
there are ``--instances`` instances (default 200,000, so 1,000,000 responses), written
once into a temporary folder (or ``--out DIR``; ``bench/out`` is git-ignored). Every
line of the real gold has an entry, so the output must have one gold line per instance:
the benchmark checks it and fails (exit 1) otherwise, as it does when a target is missed.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.compile_bench
    .venv/bin/python -m bench.compile_bench --instances 20000 --repeat 1   # quick
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from annotate.gold.records import Response, write_responses
from annotate.gold.split import split_gold
from scoring.io import read_lines

REPO = Path(__file__).resolve().parent.parent

GOLD = REPO.parent / "shared" / "data" / "semeval2007" / "test" / "gold"
TARGET_SECONDS = 60.0
TARGET_BYTES = 1 << 30


def build(path: Path, instances: int) -> None:
    """Write ``instances`` instances (5 responses each) cycled over the split test gold,
    ids 1..instances."""
    split = split_gold(read_lines(GOLD), str(GOLD))
    by_item: dict[str, list[Response]] = {}
    for response in split.responses:
        by_item.setdefault(response.instance, []).append(response)
    groups = list(by_item.values())

    def responses() -> Iterator[Response]:
        for number in range(instances):
            for response in groups[number % len(groups)]:
                yield replace(response, instance=str(number + 1))

    write_responses(path, responses())


def run_once(responses: Path, out: Path, extra: Sequence[str]) -> tuple[float, int, str]:
    """One run of the command: wall seconds, peak RSS in bytes, its summary line."""
    command = [sys.executable, "-m", "annotate.compile", str(responses), "--out", str(out), *extra]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    assert child.stdout is not None and child.stderr is not None
    stdout, stderr = child.stdout.read().decode(), child.stderr.read().decode()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"compile failed ({child.returncode}): {stderr}")
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB else
    return wall, usage.ru_maxrss * scale, stdout.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--instances", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="folder for the input and outputs")
    parser.add_argument("--no-lemmatise", action="store_true")
    args = parser.parse_args(argv)
    if not GOLD.exists():
        print(f"needs {GOLD}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.out or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        responses = folder / "responses.jsonl"
        start = time.perf_counter()
        build(responses, args.instances)
        size = responses.stat().st_size
        print(
            f"input: {args.instances:,} instances x 5 = {args.instances * 5:,} responses, "
            f"{size / 1e6:.1f} MB, built in {time.perf_counter() - start:.1f} s"
        )
        extra = ["--no-lemmatise"] if args.no_lemmatise else []
        runs = [run_once(responses, folder / "compiled", extra) for _ in range(args.repeat)]
        wall = min(run[0] for run in runs)
        peak = max(run[1] for run in runs)
        lines = sum(1 for _ in (folder / "compiled" / "gold").open(encoding="utf-8"))
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; {runs[0][2]}"
    )
    print(
        f"gold lines written: {lines:,} ({'OK' if lines == args.instances else 'WRONG'}: "
        f"one per instance)"
    )
    print(
        f"wall time (best of {args.repeat}): {wall:.2f} s (target < {TARGET_SECONDS:.0f} s)"
        f" {'OK' if wall < TARGET_SECONDS else 'MISSED'}"
    )
    print(
        f"peak memory (max RSS): {peak / 2**20:.0f} MiB (target < 1 GiB) "
        f"{'OK' if peak < TARGET_BYTES else 'MISSED'}"
    )
    return 0 if wall < TARGET_SECONDS and peak < TARGET_BYTES and lines == args.instances else 1


if __name__ == "__main__":
    raise SystemExit(main())
