"""best and oot of a benchmark in the SemEval-2007 file format (GermEval 2015, EVALITA 2009)
through the project's one score.pl implementation (:mod:`scoring.measures.official.items`).

Both files are first read strictly (:func:`scoring.formats.gold.read_gold_lines`,
:func:`scoring.formats.system.read_system`): a line score.pl would skip or misread is refused with
``FILE:LINE``, the value and the rule, rather than scored in silence. The figures are then
McCarthy & Navigli's (2007, section 4, equations 1-8) under ``rules``: ``compat`` as the
SemEval-2007 score.pl reads files (it cuts letters outside ASCII, so ``Ärger`` becomes
``rger``), ``fixed`` with its defects corrected (letters read whole, case folded;
docs/scoring.md).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from scoring.benchmark import Report
from scoring.formats.gold import read_gold, read_gold_lines
from scoring.formats.system import read_system
from scoring.formats.text import read_lines
from scoring.registry import official_figure
from scoring.score.scan import score_system
from scoring.signature import signature
from scoring.types import Rules

Measure = Literal["best", "oot"]

FIGURES: tuple[tuple[str, str], ...] = (
    ("precision", "P"),
    ("recall", "R"),
    ("mode precision", "mode_P"),
    ("mode recall", "mode_R"),
)
"""The report's names of score.pl's four figures → the registered measure's name."""


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        choices=("fixed", "compat"),
        default="fixed",
        help="best and oot: how gold and answers are read (default: fixed, letters whole; "
        "compat: as the SemEval-2007 score.pl, which cuts letters outside ASCII)",
    )


def official_figures(
    measure: Measure, system: str | Path, gold: str | Path, rules: Rules
) -> tuple[dict[str, float], tuple[str, ...]]:
    """score.pl's precision, recall, mode precision and mode recall in percent, and notes
    for the figures that are undefined (shown as 0: nothing attempted, no mode)."""
    gold_lines: Sequence[str] = read_lines(gold)
    read_gold_lines(gold)  # refuses a malformed gold line with FILE:LINE
    read_system(system, measure)  # likewise for the system file
    scores = score_system(
        measure, read_gold(gold_lines, rules, str(gold)), read_lines(system), str(system)
    )
    metrics: dict[str, float] = {}
    notes: list[str] = []
    for shown, name in FIGURES:
        value = official_figure(scores, name)
        if value is None:
            notes.append(f"{measure} {shown} is undefined (its denominator is 0); shown as 0")
        metrics[shown] = 100 * (value or 0.0)
    return metrics, tuple(notes)


def data_name(path: str | Path) -> str:
    """The data file's name, as a benchmark's signature gives it (``data:NAME``): the last
    part of ``path`` whether its folders are parted by ``/`` or ``\\``."""
    return str(path).replace("\\", "/").rsplit("/", 1)[-1]


def official_report(
    benchmark: str, measure: Measure, system: str | Path, gold: str | Path, rules: Rules
) -> Report:
    """The ``benchmark``'s report of score.pl's figures (:func:`official_figures`), signed
    ``metric:BENCHMARK.MEASURE|rules:RULES|data:NAME|version:…``: what GermEval's and
    EVALITA's best and oot give."""
    metrics, notes = official_figures(measure, system, gold, rules)
    sign = signature(f"{benchmark}.{measure}", ("rules", rules), ("data", data_name(gold)))
    return Report(benchmark, metrics, sign, notes)
