"""Linear time: the scorer's reading of a malformed line (scoring/formats/lines.py and the
multiword and gold-entry patterns) and the TSAR/MLSP importer's target search
(scoring/formats/importers/tsar.py ``find_target``), each timed on inputs of n, 2n and 4n
characters. A linear parse takes about twice as long on twice the input (ratio ~2); a
quadratic one four times (~4). Then ``lexsub score`` on one 100 KB line, whole process.

Run: .venv/bin/python -m bench.linear_bench [--sizes 100000 200000 400000] [--reference]

Each figure is the best of 5 runs (the machine is shared: single runs of a few
milliseconds vary by several times).

``--reference`` also times score.pl's patterns searched as written (the old reading, in
quadratic time) on 12.5, 25 and 50 KB lines, for comparison.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

from bench.machine import load_average, machine_facts
from scoring.formats.gold import compat_entries
from scoring.formats.importers.tsar import find_target
from scoring.formats.lines import PATTERNS, iter_chunks
from scoring.measures.multiword.items import MW_LINE

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "tests" / "data" / "oracle" / "gold" / "main.gold"


def best_of(run: Callable[[], object], repeat: int = 5) -> float:
    """The least wall time of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def _lines(text: str, kind: str = "best") -> Callable[[], object]:
    return lambda: list(iter_chunks(text + "\n", kind))


CASES: dict[str, Callable[[int], Callable[[], object]]] = {
    "system line: letters": lambda n: _lines("a" * n),
    "system line: 'a b a b …'": lambda n: _lines("a b " * (n // 4)),
    "system line: 'x ' + long id": lambda n: _lines("x " + "b" * n),
    "oot line: letters and dots": lambda n: _lines("a." * (n // 2), "oot"),
    "mw line: letters": lambda n: lambda: MW_LINE.search("a" * n),
    "gold entry: letters": lambda n: lambda: list(compat_entries(["a" * n])),
    "gold entry: 'a 1 a 1 …'": lambda n: lambda: list(compat_entries(["a 1 " * (n // 4)])),
    "TSAR: word absent, one long token": lambda n: (
        lambda: find_target("a" * n, "a" * (n // 2) + "b")
    ),
    "TSAR: periodic, never whole": lambda n: lambda: find_target("a-" * (n // 2), "a-" * (n // 4)),
    "TSAR: periodic, any case": lambda n: lambda: find_target("A-" * (n // 2), "a-" * (n // 4)),
    "TSAR: word of n/10 distinct letters": lambda n: (
        lambda: find_target(
            "".join(map(chr, range(0x4E00, 0x4E00 + n))),
            "".join(map(chr, range(0x4E00, 0x4E00 + n // 10))) + "Z",
        )
    ),
    "TSAR: many words like it": lambda n: (
        lambda: find_target(" ".join(["abcdefgh"] * (n // 9)), "abcdefgx")
    ),
}


def reference_cases() -> dict[str, Callable[[int], Callable[[], object]]]:
    """score.pl's system-line pattern searched as written (the old repair)."""
    old = re.compile(PATTERNS["best"], re.ASCII)
    return {
        "old repair (score.pl's pattern as written): letters": lambda n: lambda: old.search("a" * n)
    }


def table(
    cases: dict[str, Callable[[int], Callable[[], object]]], sizes: list[int], repeat: int = 5
) -> None:
    head = " | ".join(f"{size:,} s" for size in sizes)
    ratios = " | ".join(f"{b:,} / {a:,}" for a, b in pairwise(sizes))
    print(f"| case | {head} | {ratios} |")
    print("|---" * (1 + 2 * len(sizes) - 1) + "|")
    for name, build in cases.items():
        times = [best_of(build(size), repeat) for size in sizes]
        shown = " | ".join(f"{seconds:.5f}" for seconds in times)
        steps = " | ".join(f"{b / a:.2f}" for a, b in pairwise(times))
        print(f"| {name} | {shown} | {steps} |", flush=True)


def score_one_line(size: int) -> float:
    """Wall time of ``python -m scoring.score`` on a system of one ``size``-byte line."""
    with tempfile.TemporaryDirectory() as folder:
        system = Path(folder) / "line.best"
        system.write_text("a" * size + "\n")
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "scoring.score", str(system), str(GOLD)],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 200_000, 400_000])
    parser.add_argument("--reference", action="store_true")
    args = parser.parse_args()
    for name, value in machine_facts():
        print(f"{name}: {value}")
    print(f"load average: {load_average()}")
    print()
    table(CASES, args.sizes)
    if args.reference:
        print()
        table(reference_cases(), [12_500, 25_000, 50_000], repeat=1)
    print()
    seconds = min(score_one_line(100_000) for _ in range(3))
    print(
        f"lexsub score on one 100 KB line (python -m scoring.score.cli, best of 3): {seconds:.2f} s"
    )
    print(f"load average: {load_average()}")


if __name__ == "__main__":
    main()
