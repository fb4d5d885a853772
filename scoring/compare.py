"""``python -m scoring.compare GOLD SYSTEM... [--measures M ...] [--by-pos] [--significance]
[--format text|json|csv|markdown]``: one leaderboard for many systems (issue 6, item 5).

Each SYSTEM is a best (``::``), oot (``:::``) or ranked-candidates file (docs/ranking.md),
told apart by its first answer line; it is scored with every measure of
:mod:`scoring.measures` that applies to its kind. Text and markdown print percentages
with two decimals, one table per kind of file (rows systems, columns measures); JSON and
CSV give fractions. The JSON is::

    {"systems": {FILE_NAME: {MEASURE: value}}, "upper_bounds": {...}, "measures": {...},
     "signatures": {...}, "by_pos": ..., "intervals": ..., "significance": [...]}

Options: ``--fixed`` (score.pl's defects corrected), ``--k`` (the penalty of weighted
precision), ``--resamples``, ``--trials``, ``--seed``, ``--confidence`` (significance),
``--workers`` (processes scoring the systems; default one per CPU).
Exit status 1 for unreadable or malformed input, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import csv
import gc
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from scoring.gold import read_gold
from scoring.leaderboard import Settings, leaderboard, system_names
from scoring.lines import read_text
from scoring.measures import MEASURES, measure_def
from scoring.official import ScorerDied

POS_ORDER = ("all", "n", "v", "a", "r")


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.compare",
        description="Score many system files against one gold file in one table.")
    parser.add_argument("gold", help="the gold file (lexelt id :: sub count;...)")
    parser.add_argument("systems", nargs="+", metavar="system",
                        help="best (::), oot (:::) or ranked-candidates files")
    parser.add_argument("--measures", nargs="+", metavar="M",
                        help="measures to report (default: every one that applies): "
                        + ", ".join(MEASURES))
    parser.add_argument("--by-pos", action="store_true", help="also by PoS (Tables 4-8)")
    parser.add_argument("--significance", action="store_true",
                        help="bootstrap intervals and pairwise tests, resampling lemmas")
    parser.add_argument("--analyses", action="store_true",
                        help="items with duplicates (oot), type overlap and disambiguation "
                        "precision (best): Tables 7-10 of the 2009 paper")
    parser.add_argument("--format", choices=("text", "json", "csv", "markdown"), default="text")
    parser.add_argument("--fixed", action="store_true", help="score.pl's defects corrected")
    parser.add_argument("--k", type=float, default=1.0, help="weighted precision's penalty")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes scoring the systems (default: one per CPU)")
    args = parser.parse_args(argv)
    try:
        for name in args.measures or ():
            measure_def(name)
    except ValueError as error:
        parser.error(str(error))
    if args.k <= 0:
        parser.error(f"--k {args.k:g}: the penalty must be > 0")
    if args.resamples < 1 or args.trials < 1:
        parser.error("--resamples and --trials must be at least 1")
    if not 0 < args.confidence < 1:
        parser.error(f"--confidence {args.confidence:g} must be between 0 and 1")
    return args


def _pct(value: object) -> str:
    return "" if value is None else f"{100 * float(value):.2f}"  # type: ignore[arg-type]


def _cell(result: dict[str, Any], name: str, measure: str, value: object) -> str:
    """A figure, with its interval ``[low, high]`` when there are intervals."""
    interval = result.get("intervals", {}).get(name, {}).get(measure)
    if value is None or interval is None:
        return _pct(value)
    return f"{_pct(value)} [{_pct(interval[0])}, {_pct(interval[1])}]"


def _tables(result: dict[str, Any]) -> list[tuple[list[str], list[list[str]]]]:
    """One (header, rows) per group of systems with the same measures."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, values in result["systems"].items():
        groups.setdefault(tuple(values), []).append(name)
    tables = []
    for measures, names in groups.items():
        if "by_pos" in result:
            header = ["system", "PoS", *measures]
            rows = [[name, pos, *(_pct(result["by_pos"][name][pos][m]) for m in measures)]
                    for name in names for pos in POS_ORDER]
        else:
            header = ["system", *measures]
            rows = [[name, *(_cell(result, name, m, result["systems"][name][m])
                             for m in measures)] for name in names]
        tables.append((header, rows))
    return tables


def _significance_rows(result: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    header = ["measure", "a", "b", "score a", "score b", "b - a", "low", "high",
              "p bootstrap", "p randomisation"]
    rows = [[c["measure"], c["a"], c["b"], _pct(c["a_value"]), _pct(c["b_value"]),
             _pct(c["delta"]), _pct(c["low"]), _pct(c["high"]), f"{c['p_bootstrap']:.4f}",
             f"{c['p_randomisation']:.4f}"] for c in result.get("significance", [])]
    return header, rows


def _text_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=False)]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                       for i, (cell, w) in enumerate(zip(line, widths, strict=False))).rstrip()
             for line in (header, *rows)]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + "\n"


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def render(result: dict[str, Any], output: str) -> str:
    """The leaderboard in one of the output formats."""
    if output == "json":
        return json.dumps(result, indent=2, sort_keys=False) + "\n"
    if output == "csv":
        return _csv(result)
    table = _markdown_table if output == "markdown" else _text_table
    parts = ["Scores (%), against a gold of "
             f"{result['gold_items']} items ({result['rules']} rules)\n"]
    for header, rows in _tables(result):
        parts.append(table(header, rows))
    bounds = result["upper_bounds"]
    parts.append("Upper bounds (%): " + ", ".join(f"{k} {_pct(v)}" for k, v in bounds.items())
                 + "\n")
    if "significance" in result:
        setting = result["resampling"]
        parts.append(f"Intervals [low, high] and paired significance: "
                     f"{setting['resamples']} bootstrap resamples and {setting['trials']} "
                     f"randomisation trials of lemmas, seed {setting['seed']}, "
                     f"{100 * setting['confidence']:g}% intervals\n")
        if result["significance"]:
            parts.append(table(*_significance_rows(result)))
        else:
            parts.append("(one system, or no measure shared by two: no pair to compare)\n")
    if "analyses" in result:
        parts.append(_analyses_text(result["analyses"]))
    bullet = "- " if output == "markdown" else "  "
    parts.append("Signatures:\n" + "".join(f"{bullet}{sig}\n"
                                            for sig in result["signatures"].values()))
    return "\n".join(parts)


def _analyses_text(found: dict[str, Any]) -> str:
    lines = []
    for name, row in found["duplicates"].items():
        scores = row["scores"]["all"]
        lines.append(f"{name}: items with duplicates (IwD) {row['iwd']}; oot recall "
                     f"{_pct(scores['recall'])}, order {row['order']}")
    for name, row in found.get("type_overlap", {}).items():
        lines.append(f"{name}: TypeOverlap {row['type_overlap']:.2f}, #subs {row['subs']:.2f}, "
                     f"TypeOverlap_uniq {row['type_overlap_uniq']:.2f} over {row['wp']} words")
    for name, row in found.get("disambiguation", {}).get("systems", {}).items():
        lines.append(f"{name}: disambiguation precision All {_pct(row['all'])}, "
                     f"Sys {_pct(row['sys'])} ({row['sys_items']} items)")
    return "Analyses (2009 paper, section 4):\n" + "".join(f"  {line}\n" for line in lines)


def _csv(result: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["system", "pos", "measure", "value", "low", "high", "signature"])
    intervals = result.get("intervals", {})
    for name, values in result["systems"].items():
        for measure, value in values.items():
            low, high = intervals.get(name, {}).get(measure, ["", ""])
            writer.writerow([name, "all", measure, "" if value is None else value, low, high,
                             result["signatures"][measure]])
            for pos in POS_ORDER[1:] if "by_pos" in result else ():
                value = result["by_pos"][name][pos][measure]
                writer.writerow([name, pos, measure, "" if value is None else value, "", "",
                                 result["signatures"][measure]])
    return out.getvalue()


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    out = stdout or sys.stdout
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    settings = Settings(measures=tuple(args.measures) if args.measures else None,
                        by_pos=args.by_pos, significance=args.significance,
                        analyses=args.analyses, k=args.k,
                        resamples=args.resamples, trials=args.trials, seed=args.seed,
                        confidence=args.confidence, workers=max(1, args.workers))
    gc.disable()  # a short run that makes millions of objects and no cycles (as score does)
    try:
        gold = read_gold(read_text(args.gold), "fixed" if args.fixed else "compat", args.gold)
        names = system_names(args.systems)
        systems = [(name, read_text(path)) for name, path in zip(names, args.systems, strict=True)]
        if sys.stderr.isatty() or len(systems) > 3:
            print(f"compare: scoring {len(systems)} systems against {len(gold.items)} items",
                  file=sys.stderr)
        result = leaderboard(gold, systems, settings)
    except (OSError, ValueError) as error:
        print(f"compare: error: {error}", file=sys.stderr)
        return 1
    except ScorerDied as died:
        print(f"compare: error: {died.reason} (score.pl dies here: 'Illegal division by "
              "zero')", file=sys.stderr)
        return 1
    finally:
        gc.enable()
    out.write(render(result, args.format))
    return 0


if __name__ == "__main__":
    sys.exit(main())
