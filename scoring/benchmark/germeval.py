"""``lexsub benchmark germeval SYSTEM --data GOLD [-t best|oot|gap]``: GermEval
2015 LexSub, German lexical substitution (Miller et al. 2015).

The task's gold is a SemEval-2007 gold file (``LEXELT ID :: SUBSTITUTE COUNT;…``, UTF-8) and
its scorer has two scripts (the scorer's README, dated 2015-04-16): ``score.pl``, "an
updated version" of the SemEval-2007 scorer, for ``best`` (``LEXELT ID :: GUESS;…``) and
``oot`` (``LEXELT ID ::: GUESS;…``), and ``scoreGAP.pl`` for GAP, whose ranked file lists
candidates best first, unscored: ``LEXELT ID :::: CANDIDATE;CANDIDATE;…``.

Neither script could be found to run, so the figures are the definitions', not checked
against the task's code (docs/benchmarks.md says so):

- best and oot are McCarthy & Navigli's (2007) through the project's score.pl
  (:mod:`scoring.benchmark.scorepl`), under the fixed rules by default: the SemEval-2007
  score.pl cuts letters outside ASCII (``Gefühl`` is read as ``hl``), which an update for
  German must have changed; ``--rules compat`` gives the 2007 script's reading.
- GAP is Kishida's (2005) generalised average precision as lexical substitution uses it
  (Thater et al. 2010): :func:`scoring.measures.ranking.items.ordered_gap` of the candidates as
  written
  against the gold counts, the ideal ranking the counts sorted. The corpus figure is the
  mean over the gold items (an item the ranked file lacks scores 0); a ranked line whose
  id is not a gold item is ignored; a candidate given twice is refused, since where the
  script would count it cannot be known.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Literal

from scoring.benchmark import Report
from scoring.benchmark.scorepl import add_rules_option, data_name, official_report
from scoring.formats.gold import GoldLine, read_gold_lines
from scoring.formats.ranked import parse_ranking
from scoring.formats.text import read_lines
from scoring.measures.ranking.items import ordered_gap
from scoring.signature import signature
from scoring.types import Rules

DESCRIPTION = (
    "GermEval 2015 LexSub (German): best and oot as score.pl computes them, GAP of a "
    "ranked file (LEXELT ID :::: CANDIDATE;…); from the task's definitions"
)


@dataclass(frozen=True, slots=True)
class RankedLine:
    """One line of a GAP file: an item's candidates, best first."""

    lexelt: str
    id: str
    candidates: tuple[str, ...]
    line: int = 0


def parse_ranked(lines: Sequence[str], name: str = "<ranked>") -> tuple[RankedLine, ...]:
    """Every non-blank line of a GAP file, ``LEXELT ID :::: CANDIDATE;CANDIDATE;…`` (one
    line per id), as :func:`scoring.formats.ranked.parse_ranking` reads it unscored
    (``scored=False``), or :class:`FormatError` listing every problem.

    >>> parse_ranked(["Ärger.n 7 :::: Wut;Zorn"])[0].candidates
    ('Wut', 'Zorn')
    """
    return tuple(
        RankedLine(
            ranking.lexelt,
            ranking.id,
            tuple(item.candidate for item in ranking.candidates),
            ranking.line,
        )
        for ranking in parse_ranking(lines, name, scored=False)
    )


def gap_figure(gold: Sequence[GoldLine], ranked: Sequence[RankedLine]) -> Fraction:
    """Mean GAP over the gold items: Σ GAP_i / |gold items|, an item without a ranked line
    scoring 0 (Kishida 2005; :func:`scoring.measures.ranking.items.ordered_gap`).

    >>> from scoring.formats.gold import GoldEntry
    >>> item = GoldLine("Wut.n", "1", (GoldEntry("Zorn", 2), GoldEntry("Ärger", 1)))
    >>> gap_figure([item], [RankedLine("Wut.n", "1", ("Ärger", "Zorn"))])
    Fraction(5, 7)
    """
    if not gold:
        raise ValueError("the gold has no items (GAP is a mean over them)")
    by_id = {line.id: line.candidates for line in ranked}
    total = Fraction(0)
    for item in gold:
        weights = {entry.substitute: Fraction(entry.count) for entry in item.entries}
        total += Fraction(ordered_gap(weights, by_id.get(item.id, ())).value)
    return total / len(gold)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-t",
        dest="measure",
        choices=("best", "oot", "gap"),
        default="best",
        help="best or oot (SYSTEM as score.pl reads it) or gap (SYSTEM a ranked file)",
    )
    add_rules_option(parser)


def evaluate_files(
    system: str | Path,
    data: str | Path,
    *,
    measure: Literal["best", "oot", "gap"] = "best",
    rules: Rules = "fixed",
) -> Report:
    """``lexsub benchmark germeval SYSTEM --data GOLD -t MEASURE --rules RULES``: best or
    oot of the system file at ``system`` (as score.pl reads it) under ``rules``, or GAP of
    the ranked file at ``system``, against the gold file at ``data``."""
    gold_path = str(data)
    if measure == "gap":
        gold = read_gold_lines(gold_path)
        ranked = parse_ranked(read_lines(system), str(system))
        value = gap_figure(gold, ranked)
        sign = signature("germeval.gap", ("items", "gold"), ("data", data_name(gold_path)))
        return Report("germeval", {"GAP": float(100 * value)}, sign)
    return official_report("germeval", measure, system, gold_path, rules)


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files` with its options."""
    return evaluate_files(args.system, args.data, measure=args.measure, rules=args.rules)
