"""Systems built from a benchmark's own gold, for the benchmark tests and for the
reference runs whose figures those tests assert (docs/benchmarks.md,
"Reference runs"). Deterministic: a fixed seed, items in data order."""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.benchmark.candidates import BenchmarkItem
from scoring.formats.ranked import RankingLine, Scored, format_ranking_line

SEED = 2007


def _written(substitute: str) -> str:
    """A gold substitute as a ranked-candidates file can carry it (trimmed, single-spaced)."""
    return " ".join(substitute.split())


def gold_order_system(items: Sequence[BenchmarkItem]) -> list[RankingLine]:
    """Each item ranks its own gold substitutes in gold order (scores n … 1)."""
    lines = []
    for item in items:
        terms = [_written(substitute) for substitute, _ in item.entries]
        scored = tuple(Scored(term, float(len(terms) - i)) for i, term in enumerate(terms))
        lines.append(RankingLine(item.lexelt, item.id, scored))
    return lines


def pool_shuffled_system(items: Sequence[BenchmarkItem], seed: int = SEED) -> list[RankingLine]:
    """Each item ranks its target's pooled gold substitutes (first-seen order, as written
    once trimmed) shuffled with ``random.Random(seed)``, scored with one of four levels
    (many ties, broken by the shuffled order); every seventh item also repeats its first
    candidate at the end with score 0 (a duplicate)."""
    pools: dict[str, dict[str, None]] = {}
    for item in items:
        pools.setdefault(item.target, {}).update(
            dict.fromkeys(_written(substitute) for substitute, _ in item.entries)
        )
    rng = random.Random(seed)
    lines = []
    for number, item in enumerate(items):
        terms = list(pools[item.target])
        rng.shuffle(terms)
        scored = [Scored(term, float(rng.choice((1, 2, 3, 4)))) for term in terms]
        if number % 7 == 0 and scored:
            scored.append(Scored(scored[0].candidate, 0.0))
        lines.append(RankingLine(item.lexelt, item.id, tuple(scored)))
    return lines


def ranked_text(lines: Sequence[RankingLine]) -> str:
    return "".join(format_ranking_line(line) + "\n" for line in lines)
