"""The field's benchmarks scored as their own code scores them: SWORDS
(:mod:`scoring.benchmark.swords`), the SemEval-2007 task and CoInCo in the
candidate-ranking and generation settings. ``lexsub benchmark BENCHMARK
SYSTEM --data DATASET`` (:mod:`scoring.benchmark.cli`); each benchmark is a module that
:data:`BENCHMARKS` names and whose ``evaluate_files(system, data, **options)`` returns a
:class:`Report`. :func:`evaluate_benchmark` is the command without its arguments.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
from dataclasses import dataclass, field, replace
from typing import Protocol, cast

from scoring.errors import FormatError

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

    def evaluate_files(
        self, system: str | os.PathLike[str], data: str | os.PathLike[str], **options: object
    ) -> Report: ...


def benchmark(name: str) -> Benchmark:
    """The module that scores benchmark ``name``."""
    return cast(Benchmark, importlib.import_module(BENCHMARKS[name]))


def refuse_empty(path: str | os.PathLike[str]) -> None:
    """:class:`~scoring.errors.FormatError` when the benchmark data is an empty file (or
    only white space): a benchmark scored on no item is no score (some readers would
    report zeros)."""
    try:
        with open(path, "rb") as file:
            start = file.read(1 << 16)
    except OSError:
        return  # a folder of data, or a file that cannot be read: its reader says
    if not start.strip() and len(start) < 1 << 16:
        raise FormatError(
            [f"{os.fspath(path)}: an empty file; the benchmark data must hold its items"]
        )


def evaluate_benchmark(
    name: str, system: str | os.PathLike[str], data: str | os.PathLike[str], **options: object
) -> Report:
    """``lexsub benchmark NAME SYSTEM --data DATA [options]``: the system file at ``system``
    scored on the benchmark ``name`` (one of :data:`BENCHMARKS`) with the data at ``data``;
    ``options`` are the keywords of the benchmark module's ``evaluate_files`` (its
    command options, ``-`` as ``_``: ``setting="generation"``, ``rules="compat"``, …). The
    signature names the system's provenance when it has one (``lexsub generate llm``).
    :class:`OSError` or :class:`ValueError` (a message naming the file, the line or JSON
    path, the value and the rule) for input it cannot read."""
    from scoring.signature import with_provenance

    if name not in BENCHMARKS:
        raise ValueError(f"benchmark {name!r} is not one of {', '.join(BENCHMARKS)}")
    refuse_empty(data)
    report = benchmark(name).evaluate_files(system, data, **options)
    # a generated system's provenance (lexsub generate llm) fixes its figures too
    return replace(report, signature=with_provenance(report.signature, os.fspath(system)))
