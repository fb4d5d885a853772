"""Benchmark of the agreement measures on 200,000 items x 5 annotators.

What it measures
----------------
In one process, on items already in memory (as ``read_annotators`` returns them): PA
(``pairwise_agreement``), PA_m (``mode_agreement``), nominal alpha on first substitutes
(``nominal_alpha(first_substitute_units(...))``) and indicator alpha
(``indicator_alpha``, through ``krippendorff.alpha``) — targets: together under 10 s;
MASI alpha (``masi_alpha``) under 60 s; multiword agreement (no target). Each time is
the best of ``--repeat`` runs; peak memory is the process's maximum resident set size
(``ru_maxrss``) at the end, target under 2 GiB. The closed forms are run once beside
(not timed) and their difference to the timed figures printed.

Input
-----
Synthetic and deterministic (``--seed``, default 2026, printed): ten items per lemma
(20,000 lemmas), each lemma with its own vocabulary of ``--vocabulary`` substitutes
(default 40) drawn with Zipf-like weights 1/rank; each annotator answers ``nil`` with
probability 0.04, ``name`` with 0.01, else 1-3 distinct substitutes (equally likely
sizes), and marks a multiword (one of three per lemma) with probability 0.08.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.agreement_bench
    .venv/bin/python -m bench.agreement_bench --items 20000 --repeat 1   # quick
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from scoring.agreement import (
    first_substitute_units,
    indicator_alpha,
    indicator_counts,
    masi_alpha,
    mode_agreement,
    multiword_agreement,
    nominal_alpha,
    pairwise_agreement,
)
from scoring.agreement.alpha import alpha_from_counts
from scoring.formats.annotators import Item
from scoring.types import Answer

REPO = Path(__file__).resolve().parent.parent

ANNOTATORS = ("ann1", "ann2", "ann3", "ann4", "ann5")
PER_LEMMA = 10
FAST_TARGET = 10.0
MASI_TARGET = 60.0
MEMORY_TARGET = 2 << 30


def build(items: int, vocabulary: int, seed: int) -> list[Item]:
    """The synthetic items (see the module docstring)."""
    rng = np.random.default_rng(seed)
    weights = 1 / np.arange(1, vocabulary + 1)
    weights /= weights.sum()
    answers = items * len(ANNOTATORS)
    kinds = rng.choice(3, size=answers, p=[0.95, 0.04, 0.01])  # substitutes, nil, name
    sizes = rng.integers(1, 4, size=answers)
    draws = rng.choice(vocabulary, size=(answers, 6), p=weights)
    marks = np.where(rng.random(answers) < 0.08, rng.integers(0, 3, size=answers), -1)
    result: list[Item] = []
    words: list[str] = []
    for number in range(items):
        lemma = number // PER_LEMMA
        if number % PER_LEMMA == 0:
            words = [f"w{lemma}_{k}" for k in range(vocabulary)]
        responses = []
        for k, annotator in enumerate(ANNOTATORS):
            row = number * len(ANNOTATORS) + k
            mark = int(marks[row])
            multiword = None if mark < 0 else f"w{lemma} mw{mark}"
            if kinds[row]:
                responses.append(
                    Answer(annotator, "nil" if kinds[row] == 1 else "name", frozenset(), multiword)
                )
                continue
            chosen = list(dict.fromkeys(draws[row].tolist()))[: int(sizes[row])]
            responses.append(
                Answer(annotator, "substitutes", frozenset(words[c] for c in chosen), multiword)
            )
        result.append(Item(f"w{lemma}.n", str(number + 1), tuple(responses)))
    return result


def best(function: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The best wall time of ``repeat`` calls and the last result."""
    times = []
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return min(times), value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--items", type=int, default=200_000)
    parser.add_argument("--vocabulary", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(
        f"python {platform.python_version()} on {platform.machine()} "
        f"({platform.system()} {platform.release()}), {os.cpu_count()} CPUs"
    )
    start = time.perf_counter()
    items = build(args.items, args.vocabulary, args.seed)
    answers = [a for item in items for a in item.answers]
    print(
        f"input: {len(items):,} items x {len(ANNOTATORS)} annotators, seed {args.seed}, "
        f"vocabulary {args.vocabulary} per lemma; {len(answers):,} non-empty answers, "
        f"{len(set(answers)):,} distinct sets, sizes "
        f"{dict(sorted(Counter(len(a) for a in answers).items()))}; "
        f"built in {time.perf_counter() - start:.1f} s"
    )
    del answers

    fast = {
        "PA": lambda: pairwise_agreement(items),
        "PAm": lambda: mode_agreement(items).PAm,
        "nominal alpha": lambda: nominal_alpha(first_substitute_units(items)[1]),
        "indicator alpha": lambda: indicator_alpha(items),
    }
    timings = {name: best(function, args.repeat) for name, function in fast.items()}
    masi_seconds, masi = best(lambda: masi_alpha(items), args.repeat)
    multiword_seconds, multiword = best(lambda: multiword_agreement(items), args.repeat)
    closed = alpha_from_counts(indicator_counts(items))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak *= 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere

    for name, (seconds, value) in timings.items():
        print(f"{name:<16}{seconds:>8.2f} s   value {value:.6f}")
    total = sum(seconds for seconds, _ in timings.values())
    print(
        f"{'together':<16}{total:>8.2f} s   (target < {FAST_TARGET:.0f} s) "
        f"{'OK' if total < FAST_TARGET else 'MISSED'}"
    )
    print(
        f"{'MASI alpha':<16}{masi_seconds:>8.2f} s   value {masi:.6f} "
        f"(target < {MASI_TARGET:.0f} s) {'OK' if masi_seconds < MASI_TARGET else 'MISSED'}"
    )
    print(
        f"{'multiword':<16}{multiword_seconds:>8.2f} s   detection "
        f"{multiword.detection.per_item:.6f}, identification "
        f"{multiword.identification.per_item:.6f}"
    )
    print(
        f"indicator alpha, closed form minus krippendorff: "
        f"{closed - timings['indicator alpha'][1]:.1e}"
    )
    print(
        f"peak memory (max RSS): {peak / 2**20:.0f} MiB (target < 2 GiB) "
        f"{'OK' if peak < MEMORY_TARGET else 'MISSED'}; best of {args.repeat} runs each"
    )
    met = total < FAST_TARGET and masi_seconds < MASI_TARGET and peak < MEMORY_TARGET
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
