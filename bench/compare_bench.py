"""Benchmark of the leaderboard: ``lexsub compare`` on 10 systems and a
100,000-item gold, every measure, with intervals and pairwise significance.

What it measures
----------------
The whole command as a user runs it, interpreter start included: reading the gold and
the ten system files, scoring every measure that applies to each (best, oot, revised
and ranking measures), the upper bounds, and with ``--significance`` a 1,000-resample
bootstrap interval for every figure plus, for every pair of systems of the same kind
and every shared measure, the paired bootstrap and approximate randomisation (1,000
trials), resampling lemmas. Wall time is the best of ``--repeat`` runs; CPU time the
child's user + system seconds, its worker processes included (``os.wait4``: less noisy
than wall time on a shared machine); peak memory the child's largest resident set. The
load average is printed before and after. Target: under 20 s
with two workers (the first target was 60 s).

Input
-----
The real test gold's 1,696 items cycled to ``--items`` items (default 100,000) with new
lexelts every ten items (so there are 10,000 lemmas to resample), and ten systems drawn
from each item's own gold entries with noise (five best, five oot), written once into a
temporary folder. Deterministic (seed 7).

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.compare_bench
    .venv/bin/python -m bench.compare_bench --items 10000 --repeat 1   # quick
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import machine
from scoring.files.bounded import read_text
from scoring.formats.gold import read_gold

REPO = Path(__file__).resolve().parent.parent

GOLD = REPO.parent / "shared" / "data" / "semeval2007" / "test" / "gold"
TARGET_SECONDS = 20.0
NOISE = ("thing", "stuff", "item", "matter", "way", "point", "part", "kind", "place", "case")


def build(folder: Path, items: int) -> list[Path]:
    """Write the gold and ten systems into ``folder``; return [gold, systems...]."""
    gold = read_gold(read_text(GOLD, perl=True), "fixed")
    source = list(gold.items.values())
    rng = random.Random(7)
    gold_lines, answers = [], []
    for number in range(1, items + 1):
        item = source[(number - 1) % len(source)]
        lemma, _, pos = item.lexelt.partition(".")
        lexelt = f"{lemma}{(number - 1) // 10}.{pos}"
        entries = "".join(f"{key} {count:g};" for key, count in item.counts)
        gold_lines.append(f"{lexelt} {number} :: {entries}")
        answers.append((lexelt, number, [key for key, _ in item.counts]))
    paths = [folder / "gold"]
    paths[0].write_text("\n".join(gold_lines) + "\n", encoding="utf-8")
    for system in range(10):
        kind = "best" if system < 5 else "oot"
        lines = []
        for lexelt, number, keys in answers:
            if rng.random() < 0.05:
                continue  # not attempted
            guesses = [key for key in keys if rng.random() < 0.2 + 0.05 * system]
            guesses += rng.sample(NOISE, 2 if kind == "best" else 6)
            rng.shuffle(guesses)
            guesses = guesses[:1] if kind == "best" else guesses[:10]
            separator = "::" if kind == "best" else ":::"
            lines.append(f"{lexelt} {number} {separator} {';'.join(guesses)}")
        path = folder / f"system{system}.{kind}"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def run(paths: list[Path], workers: int) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, workers included) and peak RSS in
    bytes."""
    command = [
        sys.executable,
        "-m",
        "scoring.leaderboard.cli",
        *map(str, paths),
        "--significance",
        "--format",
        "json",
        "--workers",
        str(workers),
    ]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"compare failed with status {status}")
    if not output.startswith(b"{"):
        raise SystemExit(f"compare printed {output[:200]!r}, not JSON")
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="compare's --workers (default: one per CPU)",
    )
    args = parser.parse_args()
    if not GOLD.exists():
        print(f"needs {GOLD}", file=sys.stderr)
        return 1
    for name, value in machine.machine_facts():
        print(f"{name}: {value}")
    print(f"python: {platform.python_version()}")
    load_before = machine.load_average()
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        paths = build(Path(folder), args.items)
        print(
            f"input: gold of {args.items:,} items ({args.items // 10:,} lemmas), "
            f"10 systems (5 best, 5 oot), written in {time.perf_counter() - start:.1f} s"
        )
        runs = [run(paths, args.workers) for _ in range(args.repeat)]
    best = min(seconds for seconds, _, _ in runs)
    cpu = min(cpu for _, cpu, _ in runs)
    peak = max(peak for _, _, peak in runs)
    print(
        f"compare --significance --workers {args.workers} (1,000 resamples, 1,000 "
        f"trials): best of {args.repeat}: "
        f"{best:.1f} s wall (runs: {', '.join(f'{s:.1f}' for s, _, _ in runs)}), "
        f"{cpu:.1f} s CPU (runs: {', '.join(f'{c:.1f}' for _, c, _ in runs)}), "
        f"peak {peak / 2**20:.0f} MiB"
    )
    print(f"load average (1/5/15 min): {load_before} before, {machine.load_average()} after")
    met = best < TARGET_SECONDS
    print(f"target < {TARGET_SECONDS:.0f} s: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
