"""What in a system file gained or lost credit only because of a defect of score.pl.

The scorer prints these notes to standard error in both modes, so that a system builder
sees what the official numbers hide: e.g. ``12 guesses score 0 only because of leading
or trailing white space or a CR (lines 3, 9, …)`` or ``line 88: empty answer credited
with line 87's guesses``, and what the fixed rules would give.

Only lines that the two rule sets can score differently are looked at: an item whose two
gold readings differ, or an answer that is empty, not clean (see
:func:`scoring.official.is_clean`) or, for oot, repeats a guess. Every other line scores
the same under both, so the other rule set's totals are the scan's totals plus the
differences on those lines, with no second full scan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from scoring.gold import Gold, ItemGold, fixed_guess, fold
from scoring.lines import has_content, perl_split
from scoring.multiword import MW_LINE, score_multiwords
from scoring.official import (
    OfficialScores,
    Outcome,
    guesses_compat,
    guesses_fixed,
    is_clean,
    score_item,
)
from scoring.perl import perl_round
from scoring.types import Task

_NON_PREFIX = re.compile(r"non[\s-]", re.ASCII)
MAX_LISTED = 5


@dataclass
class _Tally:
    """How many guesses (or lines) a defect touched, and the first lines it did."""

    count: int = 0
    lines: list[int] = field(default_factory=list)

    def add(self, line: int) -> None:
        self.count += 1
        if len(self.lines) < MAX_LISTED and line not in self.lines:
            self.lines.append(line)

    def where(self) -> str:
        shown = ", ".join(str(line) for line in self.lines)
        return f"line{'s' if len(self.lines) > 1 else ''} {shown}" + (
            ", …" if self.count > len(self.lines) else "")


@dataclass
class _Delta:
    """fixed minus compat on the lines scored differently."""

    attempted: int = 0
    duplicate_lines: int = 0
    score: float = 0.0
    mode_attempted: int = 0
    mode_correct: int = 0


@dataclass
class _Findings:
    space: _Tally = field(default_factory=_Tally)
    non: _Tally = field(default_factory=_Tally)
    dropped: _Tally = field(default_factory=_Tally)
    empty: _Tally = field(default_factory=_Tally)
    mode_hyphen: _Tally = field(default_factory=_Tally)
    duplicates: _Tally = field(default_factory=_Tally)
    stale: list[str] = field(default_factory=list)


def _credit(item: ItemGold | None, guess: str) -> float:
    return item.norms.get(guess, 0.0) if item is not None else 0.0


def _guess_causes(found: _Findings, number: int, answer: str, measure: Task,
                  compat: ItemGold | None, fixed: ItemGold | None) -> None:
    """Attribute each guess that only the fixed rules credit to its defect."""
    raw = perl_split(answer)
    if measure == "best" and any(not guess for guess in raw):
        found.empty.add(number)
    for guess, compat_form in zip(raw[:10] if measure == "oot" else raw,
                                  guesses_compat(answer), strict=False):
        fixed_form = fixed_guess(guess)
        if not fixed_form or _credit(compat, compat_form) or not _credit(fixed, fixed_form):
            continue
        if guess != guess.strip():
            found.space.add(number)
        elif _NON_PREFIX.match(guess):
            found.non.add(number)
        else:
            found.dropped.add(number)


class RuleComparison:
    """The fixed rules' view of the lines a compat scan shows it (a
    :class:`scoring.official.LineObserver`): the differences in totals, and why."""

    def __init__(self, measure: Task, fixed: Gold, differ: set[str]) -> None:
        self.measure = measure
        self.fixed = fixed
        self.differ = differ
        self.delta = _Delta()
        self.found = _Findings()
        self._done: set[str] = set()

    def _fixed_item(self, item_id: str) -> ItemGold | None:
        """The fixed item when the fixed rules score this line, else None."""
        item = self.fixed.items.get(item_id)
        if item is None or not item.total or item_id in self._done:
            return None
        if item_id in self.differ:
            self._done.add(item_id)
        return item

    def skipped(self, number: int, lexelt: str, item_id: str, answer: str) -> None:
        """compat does not score this line (not in its T, or a repeated id)."""
        self._fixed_side(number, item_id, answer, self._fixed_item(item_id))

    def scored(self, number: int, item_id: str, answer: str, item: ItemGold,
               guesses: list[str], outcome: Outcome, stale_from: int) -> None:
        """compat scored this line with ``guesses`` (stale ones when ``stale_from``)."""
        content = has_content(answer)
        self.delta.attempted -= content and bool(guesses)
        if self.measure == "oot" and content:
            every = guesses_compat(answer)
            self.delta.duplicate_lines -= len(set(every)) != len(every)
        _add(self.delta, outcome, -1)
        if stale_from:
            self.found.stale.append(f"line {number}: empty answer credited with line "
                                    f"{stale_from}'s guesses")
        fixed_item = item if item_id not in self.differ else self._fixed_item(item_id)
        if fixed_item is item and content and is_clean(answer):
            # only oot duplicates (or a stale line) differ: the fixed rules' guesses are
            # compat's, each credited once
            self._add_fixed(number, fixed_item, guesses_compat(answer))
            return
        self._fixed_side(number, item_id, answer, fixed_item, item)

    def _fixed_side(self, number: int, item_id: str, answer: str,
                    fixed_item: ItemGold | None, compat_item: ItemGold | None = None) -> None:
        if fixed_item is not None:
            self._add_fixed(number, fixed_item, guesses_fixed(answer))
        if has_content(answer):
            _guess_causes(self.found, number, answer, self.measure, compat_item, fixed_item)

    def _add_fixed(self, number: int, fixed_item: ItemGold, every: list[str]) -> None:
        """Add the fixed rules' outcome of ``every`` guess (cut to 10 for oot)."""
        oot = self.measure == "oot"
        fixed_guesses = every[:10] if oot else every
        self.delta.attempted += bool(fixed_guesses)
        self.delta.duplicate_lines += oot and len(set(every)) != len(every)
        _add(self.delta, score_item(self.measure, "fixed", fixed_item, fixed_guesses), 1)
        mode = fixed_item.mode
        if mode and "-" in mode and fixed_guesses and (
                fold(mode) in fixed_guesses if oot else fold(mode) == fixed_guesses[0]):
            self.found.mode_hyphen.add(number)
        if oot and len(set(every)) != len(every):
            self.found.duplicates.add(number)


def _add(delta: _Delta, outcome: Outcome, sign: int) -> None:
    _credit, score, tried, right = outcome
    delta.score += sign * score
    delta.mode_attempted += sign * tried
    delta.mode_correct += sign * right


def fixed_totals(compat: OfficialScores, fixed: Gold, comparison: RuleComparison) -> OfficialScores:
    """The fixed rules' totals: the compat scan's, plus the differences on the lines the
    comparison saw (every other line scores the same under both)."""
    delta = comparison.delta
    return replace(compat, rules="fixed", total_items=fixed.total_items,
                   total_modes=fixed.total_modes,
                   attempted=compat.attempted + delta.attempted,
                   score_sum=compat.score_sum + delta.score,
                   mode_attempted=compat.mode_attempted + delta.mode_attempted,
                   mode_correct=compat.mode_correct + delta.mode_correct,
                   duplicate_lines=compat.duplicate_lines + delta.duplicate_lines,
                   items=())


def notes(compat: OfficialScores, fixed: OfficialScores, found: _Findings) -> list[str]:
    """The diagnosis, one note a line, ending with the fixed rules' figures."""
    result = []
    if found.space.count:
        result.append(f"{found.space.count} guesses score 0 only because of leading or "
                      f"trailing white space or a CR ({found.space.where()})")
    if found.non.count:
        result.append(f"{found.non.count} guesses starting 'non-' score 0 only because "
                      f"score.pl rewrites them to 'non…' ({found.non.where()})")
    if found.dropped.count:
        result.append(f"{found.dropped.count} guesses score 0 only because score.pl drops or"
                      f" mangles their gold entry (one-character, numeric or double-spaced; "
                      f"{found.dropped.where()})")
    if found.empty.count:
        result.append(f"{found.empty.count} lines have empty guesses (';;') that score.pl "
                      f"counts, dividing their credit ({found.empty.where()})")
    if found.mode_hyphen.count:
        result.append(f"{found.mode_hyphen.count} items miss mode credit only because the "
                      f"gold mode is hyphenated ({found.mode_hyphen.where()})")
    if found.duplicates.count:
        result.append(f"{found.duplicates.count} lines repeat a guess; score.pl credits each "
                      f"repeat ({found.duplicates.where()})")
    result += found.stale[:MAX_LISTED]
    if len(found.stale) > MAX_LISTED:
        result.append(f"… and {len(found.stale) - MAX_LISTED} more empty answers credited "
                      "with earlier guesses")
    if result or _figures(compat) != _figures(fixed):
        result.append(f"under the fixed rules (--fixed): {_figures(fixed)} (compat: "
                      f"{_figures(compat)})")
    return [f"diagnosis: {note}" for note in result]


def _show(value: float | None) -> str:
    return "n/a" if value is None else perl_round(value)


def _figures(scores: OfficialScores) -> str:
    return (f"precision {_show(scores.precision)}, recall {_show(scores.recall)}, mode "
            f"precision {_show(scores.mode_precision)}, mode recall "
            f"{_show(scores.mode_recall)}")


def diagnose_multiwords(gold_lines: Sequence[str], system_lines: Sequence[str],
                        gold_name: str = "<gold>") -> list[str]:
    """Notes on the mw defects: empty answers counted as detections, untrimmed answers."""
    compat = score_multiwords(gold_lines, system_lines, "", gold_name, "compat")
    fixed = score_multiwords(gold_lines, system_lines, "", gold_name, "fixed")
    empty = _Tally()
    done: set[str] = set()
    for number, line in enumerate(system_lines, 1):
        matched = MW_LINE.search(line)
        if matched and matched.group(2) not in done:
            done.add(matched.group(2))
            if not has_content(matched.group(3)):
                empty.add(number)
    notes = []
    if compat.genuine != fixed.genuine and empty.count:
        notes.append(f"{compat.genuine - fixed.genuine} empty answers count as detections of "
                     f"a gold multiword, inflating detection recall ({empty.where()})")
    if compat.matched != fixed.matched:
        notes.append(f"{fixed.matched - compat.matched} multiwords match only when trimmed or "
                     "with hyphens as spaces")
    if notes:
        notes.append(f"under the fixed rules (--fixed): detection recall "
                     f"{_show(fixed.detection_recall)}, identification recall "
                     f"{_show(fixed.identification_recall)} (compat: "
                     f"{_show(compat.detection_recall)}, {_show(compat.identification_recall)})")
    return [f"diagnosis: {note}" for note in notes]
