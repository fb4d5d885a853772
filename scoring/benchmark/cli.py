"""``lexsub benchmark BENCHMARK SYSTEM --data DATASET [--format text|json]``
(also installed as ``lexsub-benchmark``).

Each benchmark is a module named in :data:`BENCHMARKS` that provides:

- ``DESCRIPTION``: one line for ``--help``;
- ``configure(parser)``: adds its own options (``SYSTEM``, ``--data`` and ``--format``
  are common and already there);
- ``evaluate_files(system, data, **options) -> Report``: reads the files and computes
  every figure, its options as keywords named like its command options (``-`` as ``_``),
  raising ``OSError`` or ``ValueError`` (a message naming the file, the line or JSON
  path, the value and the rule) for input it cannot read;
- ``evaluate(args) -> Report``: ``evaluate_files`` with the parsed arguments.

The command parses, calls :func:`scoring.benchmark.evaluate_benchmark` and prints.

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
from collections.abc import Sequence
from typing import TextIO

from scoring.benchmark import BENCHMARKS, benchmark, evaluate_benchmark
from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.registry import benchmark_figures, listing


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


COMMON = ("benchmark", "system", "data", "format")
"""The arguments every benchmark has; the others are its module's options."""


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    # the benchmark's own options, named as its evaluate_files keywords
    options = {key: value for key, value in vars(args).items() if key not in COMMON}
    try:
        report = evaluate_benchmark(args.benchmark, args.system, args.data, **options)
    except FAILURES as error:
        return fail(describe(error))
    if args.format == "json":
        out.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
    else:
        out.write(report.to_text())
    return 0
