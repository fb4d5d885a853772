"""What in a system file gained or lost credit only because of a defect of score.pl.

The scorer prints these notes to standard error in both modes, so a system builder sees
what the official numbers hide: e.g. ``12 guesses score 0 only because of leading or
trailing white space (first on line 5)`` or ``line 88: empty answer credited with line
87's guesses``. Each note compares the compat reading of a guess with the fixed one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.io import FormatError
from scoring.official import (
    _BEST_LINE,
    _MW_LINE,
    _NONSPACE,
    _OOT_LINE,
    Gold,
    Measure,
    guesses_compat,
    guesses_fixed,
    perl_split,
    read_gold_lines,
    score_multiwords,
    score_system,
)
from scoring.perl import perl_round

_NON_PREFIX = re.compile(r"non[\s-]", re.ASCII)
MAX_LISTED = 5


@dataclass
class _Tally:
    """How many guesses (or lines) a defect touched, and the first line it did."""

    count: int = 0
    lines: list[int] = field(default_factory=list)

    def add(self, line: int, amount: int = 1) -> None:
        self.count += amount
        if len(self.lines) < MAX_LISTED:
            self.lines.append(line)

    def where(self) -> str:
        shown = ", ".join(str(line) for line in self.lines)
        return f"line{'s' if len(self.lines) > 1 else ''} {shown}" + (
            ", …" if self.count > len(self.lines) else "")


def _credit(gold: Gold, item_id: str, guess: str) -> float:
    item = gold.items.get(item_id)
    return item.norms.get(guess, 0.0) if item else 0.0


def diagnose(measure: Measure, gold_lines: Sequence[str], system_lines: Sequence[str],
             gold_name: str = "<gold>") -> list[str]:
    """Notes on every defect of score.pl that changed this system's best or oot score."""
    compat = read_gold_lines(gold_lines, "compat", gold_name)
    try:
        fixed = read_gold_lines(gold_lines, "fixed", gold_name)
    except FormatError as error:
        return [f"diagnosis: the fixed rules cannot read the gold: {error}"]
    pattern = _OOT_LINE if measure == "oot" else _BEST_LINE
    space, non, dropped, empty, mode_hyphen = (_Tally() for _ in range(5))
    stale: list[str] = []
    duplicates = _Tally()
    done: set[str] = set()
    last_guesses_line = 0
    for number, line in enumerate(system_lines, 1):
        found = pattern.search(line)
        if not found:
            continue
        _lexelt, item_id, answer = found.groups()
        if item_id in done or item_id not in compat.items or not compat.items[item_id].total:
            continue
        done.add(item_id)
        if not _NONSPACE.search(answer):
            if last_guesses_line:
                stale.append(f"line {number}: empty answer credited with line "
                             f"{last_guesses_line}'s guesses")
            continue
        raw = perl_split(answer)
        if raw:
            last_guesses_line = number
        if measure == "best" and any(not guess for guess in raw):
            empty.add(number)
        fixed_guesses = guesses_fixed(answer)
        if measure == "oot" and len(fixed_guesses) != len(set(fixed_guesses)):
            duplicates.add(number)
        for guess, compat_form in zip(raw[:10] if measure == "oot" else raw,
                                      guesses_compat(answer), strict=False):
            fixed_form = " ".join(guess.replace("-", " ").replace("'", "", 1).split())
            if not fixed_form or _credit(compat, item_id, compat_form):
                continue
            if not _credit(fixed, item_id, fixed_form):
                continue
            if guess != guess.strip():
                space.add(number)
            elif _NON_PREFIX.match(guess):
                non.add(number)
            else:
                dropped.add(number)
        mode = fixed.modes.get(item_id)
        if mode and "-" in mode and fixed_guesses:
            key = mode.replace("-", " ")
            if (key in fixed_guesses[:10]) if measure == "oot" else key == fixed_guesses[0]:
                mode_hyphen.add(number)
    notes = []
    if space.count:
        notes.append(f"{space.count} guesses score 0 only because of leading or trailing "
                     f"white space or a CR ({space.where()})")
    if non.count:
        notes.append(f"{non.count} guesses starting 'non-' score 0 only because score.pl "
                     f"rewrites them to 'non…' ({non.where()})")
    if dropped.count:
        notes.append(f"{dropped.count} guesses score 0 only because score.pl drops or "
                     f"mangles their gold entry (one-character, numeric or double-spaced; "
                     f"{dropped.where()})")
    if empty.count:
        notes.append(f"{empty.count} lines have empty guesses (';;') that score.pl counts, "
                     f"dividing their credit ({empty.where()})")
    if mode_hyphen.count:
        notes.append(f"{mode_hyphen.count} items miss mode credit only because the gold mode "
                     f"is hyphenated ({mode_hyphen.where()})")
    if duplicates.count:
        notes.append(f"{duplicates.count} lines repeat a guess; score.pl credits each repeat "
                     f"({duplicates.where()})")
    notes += stale[:MAX_LISTED]
    if len(stale) > MAX_LISTED:
        notes.append(f"… and {len(stale) - MAX_LISTED} more empty answers credited with "
                     "earlier guesses")
    if notes:
        notes.append(_summary(measure, compat, fixed, system_lines))
    return [f"diagnosis: {note}" for note in notes]


def _summary(measure: Measure, compat: Gold, fixed: Gold, lines: Sequence[str]) -> str:
    old = score_system(measure, compat, lines, "")
    new = score_system(measure, fixed, lines, "")

    def show(value: float | None) -> str:
        return "n/a" if value is None else perl_round(value)

    return (f"under the fixed rules (--fixed): precision {show(new.precision)}, recall "
            f"{show(new.recall)}, mode precision {show(new.mode_precision)}, mode recall "
            f"{show(new.mode_recall)} (compat: {show(old.precision)}, {show(old.recall)}, "
            f"{show(old.mode_precision)}, {show(old.mode_recall)})")


def diagnose_multiwords(gold_lines: Sequence[str], system_lines: Sequence[str],
                        gold_name: str = "<gold>") -> list[str]:
    """Notes on the mw defects: empty answers counted as detections, untrimmed answers."""
    compat = score_multiwords(gold_lines, system_lines, "", gold_name, "compat")
    fixed = score_multiwords(gold_lines, system_lines, "", gold_name, "fixed")
    empty = _Tally()
    done: set[str] = set()
    for number, line in enumerate(system_lines, 1):
        found = _MW_LINE.search(line)
        if found and found.group(2) not in done:
            done.add(found.group(2))
            if not _NONSPACE.search(found.group(3)):
                empty.add(number)
    notes = []
    if compat.genuine != fixed.genuine and empty.count:
        notes.append(f"{compat.genuine - fixed.genuine} empty answers count as detections of "
                     f"a gold multiword, inflating detection recall ({empty.where()})")
    if compat.matched != fixed.matched:
        notes.append(f"{fixed.matched - compat.matched} multiwords match only when trimmed or "
                     "with hyphens as spaces")
    if notes:
        def show(value: float | None) -> str:
            return "n/a" if value is None else perl_round(value)

        notes.append(f"under the fixed rules (--fixed): detection recall "
                     f"{show(fixed.detection_recall)}, identification recall "
                     f"{show(fixed.identification_recall)} (compat: "
                     f"{show(compat.detection_recall)}, {show(compat.identification_recall)})")
    return [f"diagnosis: {note}" for note in notes]
