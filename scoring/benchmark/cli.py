"""``lexsub benchmark BENCHMARK SYSTEM --data DATASET [--format text|json]``
(also installed as ``lexsub-benchmark``).

Each benchmark is a module named in :data:`BENCHMARKS` that provides:

- ``DESCRIPTION``: one line for ``--help``;
- ``configure(parser)``: adds its own options (``SYSTEM``, ``--data`` and ``--format``
  are common and already there);
- ``evaluate(args) -> Report``: reads the files and computes every figure, raising
  ``OSError`` or ``ValueError`` (a message naming the file, the line or JSON path, the
  value and the rule) for input it cannot read.

Text output is one ``NAME VALUE`` line per metric (values as the benchmark reports them,
e.g. percentages with two decimals), or the benchmark's own layout (``Report.text``),
then the signature; ``--format json`` is one object
whose first keys are the metrics, then ``signature`` and ``notes``. Exit status 1 for
unreadable or malformed input, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TextIO

from scoring.benchmark import BENCHMARKS, Report, benchmark
from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.errors import FormatError
from scoring.registry import benchmark_figures, listing
from scoring.signature import with_provenance


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = ArgumentParser(
        prog="lexsub benchmark",
        command="lexsub-benchmark",
        description="Score a system on the field's benchmarks as their own code does.",
    )
    commands = parser.add_subparsers(dest="benchmark", required=True, metavar="BENCHMARK")
    for name in BENCHMARKS:
        module = benchmark(name)
        sub = commands.add_parser(name, help=module.DESCRIPTION, description=module.DESCRIPTION)
        sub.add_argument("system", metavar="SYSTEM", help="the system's output file")
        sub.add_argument("--data", required=True, metavar="DATASET", help="the benchmark data")
        sub.add_argument("--format", choices=("text", "json"), default="text")
        module.configure(sub)
        figures = f"Figures (scoring.registry): {listing(benchmark_figures(name))}."
        sub.epilog = f"{sub.epilog} {figures}" if sub.epilog else figures
    return parser.parse_args(argv)


def refuse_empty(path: str) -> None:
    """:class:`~scoring.errors.FormatError` when the benchmark data is an empty file (or
    only white space): a benchmark scored on no item is no score (some readers would
    report zeros)."""
    try:
        with open(path, "rb") as file:
            start = file.read(1 << 16)
    except OSError:
        return  # a folder of data, or a file that cannot be read: its reader says
    if not start.strip() and len(start) < 1 << 16:
        raise FormatError([f"{path}: an empty file; the benchmark data must hold its items"])


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    run: Callable[[argparse.Namespace], Report] = benchmark(args.benchmark).evaluate
    try:
        refuse_empty(args.data)
        report = run(args)
        # a generated system's provenance (lexsub generate llm) fixes its figures too
        report = replace(report, signature=with_provenance(report.signature, args.system))
    except FAILURES as error:
        return fail(describe(error))
    if args.format == "json":
        out.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        out.write(report.to_text())
    return 0
