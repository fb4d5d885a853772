"""``lexsub compare GOLD SYSTEM... [--measures M ...] [--by-pos] [--significance]
[--format text|json|csv|markdown]``: one leaderboard for many systems.

Each SYSTEM is a best (``::``), oot (``:::``) or ranked-candidates file (docs/ranking.md),
told apart by its first answer line, or a SWORDS result JSON with ``--swords-data
DATASET`` (scored as its ranked candidates, with SWORDS' own figures in a table of their
own and under ``"swords"`` in the JSON); it is scored with every measure of
the registry (:mod:`scoring.registry`) that applies to its kind. Text and markdown print percentages
with two decimals, one table per kind of file (rows systems, columns measures); JSON and
CSV give fractions. The JSON is::

    {"systems": {FILE_NAME: {MEASURE: value}}, "upper_bounds": {...}, "measures": {...},
     "signatures": {...}, "by_pos": ..., "intervals": ..., "undefined_resamples": ...,
     "not_compared": [...], "significance": [...]}

(``undefined_resamples`` and ``not_compared`` only when some resample left a figure
undefined, or some pair of systems shares no measure: docs/leaderboard.md, Significance.)

Options: ``--fixed`` (score.pl's defects corrected in the official measures),
``--gold-reading fixed|compat`` (the rules the revised and ranking measures read the gold
and the answers under; fixed by default, so they do not inherit score.pl's defects),
``--k`` (the penalty of weighted precision), ``--resamples``, ``--trials``, ``--seed``,
``--confidence`` (significance), ``--workers`` (processes scoring the systems; default one per CPU).
Exit status 1 for unreadable or malformed input, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from scoring.command import (
    FAILURES,
    ArgumentParser,
    add_resampling,
    check_resampling,
    describe,
    fail,
)
from scoring.errors import ScorerDied
from scoring.leaderboard import Settings, compare_files
from scoring.registry import LEADERBOARD_KINDS, leaderboard_measures, measure_def
from scoring.render import render_leaderboard


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = ArgumentParser(
        prog="lexsub compare",
        command="lexsub-compare",
        description="Score many system files against one gold file in one table.",
    )
    parser.add_argument("gold", help="the gold file (lexelt id :: sub count;...)")
    parser.add_argument(
        "systems",
        nargs="+",
        metavar="system",
        help="best (::), oot (:::) or ranked-candidates files",
    )
    parser.add_argument(
        "--measures",
        nargs="+",
        metavar="M",
        help="measures to report (default: every one that applies): "
        + ", ".join(leaderboard_measures()),
    )
    parser.add_argument("--by-pos", action="store_true", help="also by PoS (Tables 4-8)")
    parser.add_argument(
        "--significance",
        action="store_true",
        help="bootstrap intervals and pairwise tests, resampling lemmas",
    )
    parser.add_argument(
        "--analyses",
        action="store_true",
        help="items with duplicates (oot), type overlap and disambiguation "
        "precision (best): Tables 7-10 of the 2009 paper",
    )
    parser.add_argument("--format", choices=("text", "json", "csv", "markdown"), default="text")
    parser.add_argument("--fixed", action="store_true", help="score.pl's defects corrected")
    parser.add_argument(
        "--gold-reading",
        choices=("fixed", "compat"),
        default="fixed",
        help="the rules the revised and ranking measures read the gold and the answers "
        "under (default fixed: score.pl's defects corrected; the official measures follow "
        "--fixed)",
    )
    parser.add_argument(
        "--swords-data",
        metavar="DATASET",
        help="a SWORDS dataset JSON: systems given as SWORDS results are scored against "
        "it with SWORDS' own figures, beside the others (as their ranked candidates)",
    )
    parser.add_argument("--k", type=float, default=1.0, help="weighted precision's penalty")
    add_resampling(parser, trials=True)
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes scoring the systems (default: one per CPU)",
    )
    args = parser.parse_args(argv)
    try:
        for name in args.measures or ():
            measure_def(name, LEADERBOARD_KINDS)
    except ValueError as error:
        parser.error(str(error))
    if args.k <= 0:
        parser.error(f"--k {args.k:g}: the penalty must be > 0")
    check_resampling(parser, args)
    return args


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    settings = Settings(
        measures=tuple(args.measures) if args.measures else None,
        by_pos=args.by_pos,
        significance=args.significance,
        analyses=args.analyses,
        k=args.k,
        resamples=args.resamples,
        trials=args.trials,
        seed=args.seed,
        confidence=args.confidence,
        workers=max(1, args.workers),
    )
    show = sys.stderr.isatty() or len(args.systems) > 3
    try:
        result = compare_files(
            args.gold,
            args.systems,
            settings,
            rules="fixed" if args.fixed else "compat",
            gold_reading=args.gold_reading,
            swords_data=args.swords_data,
            progress=(lambda line: print(line, file=sys.stderr)) if show else None,
        )
    except FAILURES as error:
        return fail(describe(error))
    except ScorerDied as died:
        return fail(f"{died.reason} (score.pl dies here: 'Illegal division by zero')")
    out.write(render_leaderboard(result, args.format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
