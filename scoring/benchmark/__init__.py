"""The field's benchmarks scored as their own code scores them: SWORDS
(:mod:`scoring.benchmark.swords`), the SemEval-2007 task and CoInCo in the
candidate-ranking and generation settings. ``lexsub benchmark BENCHMARK
SYSTEM --data DATASET`` (:mod:`scoring.benchmark.cli`); each benchmark is a module that
:data:`BENCHMARKS` names and that returns a :class:`Report`.
"""

from __future__ import annotations

import argparse
import importlib
import math
from dataclasses import dataclass, field
from typing import Protocol, cast

BENCHMARKS: dict[str, str] = {
    "swords": "scoring.benchmark.swords",
    "semeval07": "scoring.benchmark.semeval07",
    "coinco": "scoring.benchmark.coinco",
    "germeval": "scoring.benchmark.germeval",
    "evalita": "scoring.benchmark.evalita",
    "tsar": "scoring.benchmark.tsar",
    "lcp": "scoring.benchmark.lcp",
    "mlsp": "scoring.benchmark.mlsp",
}
"""Benchmark name → the module that scores it."""


@dataclass(frozen=True)
class Report:
    """One system's figures on one benchmark, in the order the benchmark's code reports
    them, with the signature naming every setting that fixes them."""

    benchmark: str
    metrics: dict[str, float]
    signature: str
    notes: tuple[str, ...] = field(default=())
    text: str = ""
    """The metrics as the benchmark's own code prints them (empty: one ``NAME VALUE``
    line each, with two decimals)."""

    def to_json(self) -> dict[str, object]:
        metrics = {
            name: value if math.isfinite(value) else None for name, value in self.metrics.items()
        }
        return {**metrics, "signature": self.signature, "notes": list(self.notes)}

    def to_text(self) -> str:
        width = max((len(name) for name in self.metrics), default=0)
        lines = [f"{name:<{width}}  {value:.2f}" for name, value in self.metrics.items()]
        if self.text:
            lines = [self.text.rstrip("\n") + "\n"]
        lines += [f"signature: {self.signature}", *(f"note: {note}" for note in self.notes)]
        return "\n".join(lines) + "\n"


class Benchmark(Protocol):
    DESCRIPTION: str

    def configure(self, parser: argparse.ArgumentParser) -> None: ...

    def evaluate(self, args: argparse.Namespace) -> Report: ...


def benchmark(name: str) -> Benchmark:
    """The module that scores benchmark ``name``."""
    return cast(Benchmark, importlib.import_module(BENCHMARKS[name]))
