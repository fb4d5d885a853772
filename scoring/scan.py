"""The official scan (:func:`scoring.official.score_system`) of a whole system file, in
one tight loop a chunk of lines at a time.

score.pl reads a system file line by line; so does :func:`scoring.official.score_lines`,
the reference, which also writes score.pl's ``-v`` lines. This scan gives the same figures
bit for bit with less work a line: each id's gold item is taken out of a copy of the gold
(``dict.pop``), so one lookup finds the item and marks the id done (score.pl's ``%done``);
the usual answer is split with ``str.split`` and rewritten only when it has a hyphen, an
apostrophe, ``non`` or an empty last guess (:func:`scoring.official.guesses_compat`); the
outcomes go to lists, made arrays once a chunk. An item's credit is still added guess by
guess in order and the total line by line, as score.pl adds them (never ``sum``, which
may round differently). tests/test_scorer_speed_scan.py compares the two scans.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

from scoring.gold import Gold, ItemGold
from scoring.lines import NONSPACE, iter_chunks
from scoring.official import (
    OOT_GUESSES,
    ItemScore,
    OfficialScores,
    ScorerDied,
    Trace,
    guesses_compat,
    guesses_fixed,
)
from scoring.types import Task


def score_chunks(
    measure: Task,
    gold: Gold,
    text: str,
    name: str,
    keep_items: bool,
    trace: bool,
    numbers: Sequence[int] | None = None,
) -> OfficialScores:
    """:func:`scoring.official.score_system` without ``-v`` lines (``numbers``: the line
    numbers of a selection of a file's lines)."""
    scan = _Scan(measure, gold, name, keep_items, trace)
    for first, found in iter_chunks(text, measure, unicode=gold.rules == "fixed"):
        if numbers is None:
            scan.chunk(enumerate(found, first))
        else:
            scan.chunk(zip(numbers[first - 1 : first - 1 + len(found)], found, strict=True))
    return scan.result()


class _Scan:
    """The state score.pl keeps from line to line, and the sums so far."""

    def __init__(self, measure: Task, gold: Gold, name: str, keep_items: bool, trace: bool):
        self.measure = measure
        self.gold = gold
        self.name = name
        self.oot = measure == "oot"
        self.fixed = gold.rules == "fixed"
        # each id's item, taken out at its first line: one lookup a line finds the item
        # and tells a repeated id (score.pl's %done)
        self.remaining = gold.items.copy()
        self.keep_items = keep_items
        self.rows: list[ItemScore] = []
        self.log: list[str] = []
        self.trace = Trace() if trace else None
        self.guesses: list[str] = []  # score.pl's @res: kept from line to line
        self.attempted = self.mode_attempted = self.mode_correct = 0
        self.duplicate_lines = 0
        self.total = 0.0

    def result(self) -> OfficialScores:
        gold = self.gold
        return OfficialScores(
            self.measure,
            gold.rules,
            gold.total_items,
            self.attempted,
            self.total,
            gold.total_modes,
            self.mode_attempted,
            self.mode_correct,
            self.duplicate_lines,
            tuple(self.rows),
            tuple(self.log),
            self.trace,
        )

    def chunk(self, found: Iterable[tuple[int, tuple[str, str, str, str]]]) -> None:
        """Score a chunk of rows (:func:`scoring.lines.iter_chunks`): one tight loop, the
        gold item found and the id marked done by one lookup, the outcomes kept in lists
        (arrays at the end of the chunk)."""
        oot = self.oot
        fixed = self.fixed
        distinct = oot and fixed  # fixed oot credits each distinct guess once
        keep = self.keep_items
        pop = self.remaining.pop
        search = NONSPACE.search
        lines: list[int] = []
        scores: list[float] = []
        outcomes: list[int] = []
        readings: list[int] = []
        stales = bytearray()
        ids: list[str] = []
        held = self.guesses  # score.pl's @res
        total = self.total
        attempted = mode_attempted = mode_correct = duplicate_lines = 0
        for number, (lexelt, item_id, answer, other) in found:
            if not lexelt:
                if other:
                    self.log.append(f"Error in {self.name} on line {number}")
                continue
            item = pop(item_id, None)
            if item is None or not item.total:
                self._unscored(number, item_id, item)
                continue
            stale = False
            duplicates = 0
            if answer and (not answer[0].isspace() or search(answer)):
                if fixed:
                    guesses = guesses_fixed(answer)
                else:
                    guesses = answer.split(";")
                    if not guesses[-1] or "-" in answer or "'" in answer or "non" in answer:
                        guesses = guesses_compat(answer)
                count = len(guesses)
                if count:
                    attempted += 1
                if oot:
                    duplicates = count - len(set(guesses))
                    if duplicates:
                        duplicate_lines += 1
                    if count > OOT_GUESSES:
                        guesses = guesses[:OOT_GUESSES]
                        count = OOT_GUESSES
                held = guesses
            elif fixed:
                guesses = held = []
                count = 0
            else:
                guesses = held
                count = len(guesses)
                stale = count > 0
            norms = item.norms
            credit = 0.0
            for guess in dict.fromkeys(guesses) if distinct else guesses:
                if guess in norms:
                    credit += norms[guess]
            score = credit if oot or not credit else credit / count
            total += score
            mode = item.mode
            tried = right = False
            if count and mode and mode != "0":  # Perl's truth of the mode
                tried = True
                right = mode in guesses if oot else mode == guesses[0]
                mode_attempted += 1
                mode_correct += right
            answered = count > 0 and not stale
            lines.append(number)
            scores.append(score)
            outcomes.append(answered | tried << 1 | right << 2 | (duplicates > 0) << 3 | count << 4)
            readings.append(hash(tuple(guesses)))
            stales.append(stale)
            ids.append(item_id)
            if keep:
                self.rows.append(
                    ItemScore(
                        number,
                        item_id,
                        item.lexelt,
                        count,
                        credit,
                        score,
                        answered,
                        tried,
                        right,
                        stale,
                        duplicates,
                        tuple(guesses),
                    )
                )
        self.guesses = held
        self.total = total
        self.attempted += attempted
        self.mode_attempted += mode_attempted
        self.mode_correct += mode_correct
        self.duplicate_lines += duplicate_lines
        traced = self.trace
        if traced is not None:
            traced.lines.extend(array("q", lines))
            traced.scores.extend(array("d", scores))
            traced.outcomes.extend(array("q", outcomes))
            traced.readings.extend(array("q", readings))
            traced.stale.extend(stales)
            traced.ids.extend(ids)

    def _unscored(self, number: int, item_id: str, item: ItemGold | None) -> None:
        """A line that is not scored: an id not in T (or whose item has no count left),
        or a later line of a scored id (score.pl's ``%done``); score.pl dies on an item
        whose counts add up to 0."""
        if item is None:
            item = self.gold.items.get(item_id)
            if item is not None and item.total:
                return  # a later line of a scored id
        elif item.counts:  # every count is 0: score.pl's normalisevalues divides by zero
            raise ScorerDied(
                "".join(line + "\n" for line in self.log),
                f"item {item_id}'s gold counts add up to 0",
            )
        else:
            self.remaining[item_id] = item  # never done: its later lines alike
        if self.trace is not None:
            self.trace.unscored.append((number, item_id))
