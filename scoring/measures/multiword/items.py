"""The official mw task: multiword detection and identification (McCarthy & Navigli 2007, section
4.3, equations 9-12), under score.pl's rules (compat) or corrected (fixed).

MW is the set of items whose most frequent multiword was given by more than one
annotator; a system line names the multiword it sees at that item. This module reads the
mwgold as score.pl does and scans a system file; the measures, and the rule of one id's
row, are registered in :mod:`scoring.measures.multiword.family`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import Tally
from scoring.formats.gold import read_mwgold_lines
from scoring.formats.lines import NONSPACE as _NONSPACE
from scoring.formats.lines import has_content
from scoring.formats.perl import show
from scoring.measures.multiword.family import MultiwordItem, row
from scoring.registry import figure
from scoring.types import Rules

# score.pl's multiword pattern, ([\w.]+)\s+(\d+)\s*::\s*(.*)\s*$, written to be searched in
# linear time with the same match (scoring.formats.lines.LINEAR says how); \s may not cross lines,
# so it runs line by line.
MW_LINE = re.compile(r"(?<![\w.])([\w.]++)\s++(\d++)\s*+::\s*(.*)\s*$", re.ASCII)


@dataclass(frozen=True)
class MultiwordScores:
    """Detection and identification of multiwords (McCarthy & Navigli 2007, section 3, "mw").

    ``found``: system lines with an answer (precision's denominator); ``genuine``: of the
    items with a gold multiword, how many the system attempted; ``matched``: how many it
    named exactly; ``total_modes``: items with a gold multiword (recall's denominator).
    Every figure is a registered measure of these sums (:meth:`figure`).
    """

    rules: Rules
    total_modes: int
    found: int
    genuine: int
    matched: int
    log: tuple[str, ...]

    @property
    def sums(self) -> dict[str, float]:
        """The columns of the mw measures (:mod:`scoring.measures.multiword.family`) summed in the
        file's order, |MW| as score.pl counts it."""
        return {
            "found": self.found,
            "genuine": self.genuine,
            "matched": self.matched,
            "has_mw": self.total_modes,
        }

    def figure(self, name: str) -> float | None:
        """The registered mw measure ``mw.NAME`` (``detection_P``, ``detection_R``,
        ``identification_P``, ``identification_R``); None where its denominator is 0."""
        return figure(f"mw.{name}", self.sums)


def score_multiwords(
    gold_lines: Sequence[str],
    lines: Sequence[str],
    name: str,
    gold_name: str,
    rules: Rules = "compat",
    verbose: bool = False,
) -> MultiwordScores:
    """Score a mw system file: each id's first line is one row of the mw measures
    (:func:`scoring.measures.multiword.family.row`: compat counts a line with an empty answer as
    a detection attempt of a gold multiword, fixed does not and compares answers trimmed
    and single-spaced, hyphens as spaces), summed in the file's order."""
    log: list[str] = []
    if rules == "fixed":
        gold_lines = [line.rstrip("\r") for line in gold_lines]
    modes, total_modes = read_mwgold_lines(gold_lines, gold_name, log)
    done: set[str] = set()
    found_count = genuine = matched = 0
    for number, line in enumerate(lines, 1):
        found = MW_LINE.search(line)
        if found is None:
            if _NONSPACE.search(line):
                log.append(f"Error in {name} on line {number}")
            continue
        lexelt, item_id, answer = found.groups()
        if item_id in done:
            continue
        done.add(item_id)
        found_line, tried, right, _mw = row(MultiwordItem(modes.get(item_id), rules), answer)
        found_count += int(found_line)
        genuine += int(tried)
        matched += int(right)
        if not verbose:
            continue
        if tried:
            log.append(f"{lexelt} {item_id} human mode is {modes[item_id]} system {answer}")
        else:
            log.append(f"{lexelt} {item_id} No MW found by annotators, system {answer}")
    return MultiwordScores(rules, total_modes, found_count, genuine, matched, tuple(log))


def diagnose_multiwords(
    gold_lines: Sequence[str], system_lines: Sequence[str], gold_name: str = "<gold>"
) -> list[str]:
    """Notes on the mw defects: empty answers counted as detections, untrimmed answers."""
    compat = score_multiwords(gold_lines, system_lines, "", gold_name, "compat")
    fixed = score_multiwords(gold_lines, system_lines, "", gold_name, "fixed")
    empty = Tally()
    done: set[str] = set()
    for number, line in enumerate(system_lines, 1):
        matched = MW_LINE.search(line)
        if matched and matched.group(2) not in done:
            done.add(matched.group(2))
            if not has_content(matched.group(3)):
                empty.add(number)
    notes = []
    if compat.genuine != fixed.genuine and empty.count:
        notes.append(
            f"{compat.genuine - fixed.genuine} empty answers count as detections of "
            f"a gold multiword, inflating detection recall ({empty.where()})"
        )
    if compat.matched != fixed.matched:
        notes.append(
            f"{fixed.matched - compat.matched} multiwords match only when trimmed or "
            "with hyphens as spaces"
        )
    if notes:
        notes.append(
            f"under the fixed rules (--fixed): detection recall "
            f"{show(fixed.figure('detection_R'))}, identification recall "
            f"{show(fixed.figure('identification_R'))} (compat: "
            f"{show(compat.figure('detection_R'))}, "
            f"{show(compat.figure('identification_R'))})"
        )
    return [f"diagnosis: {note}" for note in notes]
