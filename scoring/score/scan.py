"""The official scan (:func:`scoring.measures.official.items.score_system`) of a whole system file,
in
one tight loop a chunk of lines at a time.

score.pl reads a system file line by line; so does
:func:`scoring.measures.official.items.score_lines`,
the reference, which also writes score.pl's ``-v`` lines. This scan gives the same figures
bit for bit with less work a line: each id's gold item is taken out of a copy of the gold
(``dict.pop``), so one lookup finds the item and marks the id done (score.pl's ``%done``);
the usual answer is split with ``str.split`` and rewritten only when it has a hyphen, an
apostrophe, ``non`` or an empty last guess
(:func:`scoring.measures.official.items.guesses_compat`); the
outcomes go to lists, made arrays once a chunk. An item's outcome is
:func:`scoring.measures.official.items.official_outcome` (the one credit rule, which the
reference calls) written into the loop, since a call a line slows the scan of a large file
measurably
(bench/RESULTS.md): its credit added guess by guess in order and the total line by line, as
score.pl adds them (never ``sum``, which may round differently), each distinct guess once
for fixed oot, the mode as there. tests/test_scorer_speed_scan.py and
tests/test_one_rule.py compare the scan with the reference item by item.
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Iterable, Sequence
from itertools import islice
from operator import itemgetter

from scoring.errors import LINES_LISTED, ScorerDied
from scoring.formats.gold import Gold, ItemGold
from scoring.formats.lines import HYPHENS, NONSPACE, OTHER, PLAIN, answer_kinds, iter_chunks
from scoring.formats.text import as_text
from scoring.measures.official.items import (
    OOT_GUESSES,
    DirtyLine,
    ItemScore,
    OfficialScores,
    Trace,
    guesses_compat,
    guesses_fixed,
    score_lines,
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
    differ: Collection[str] | None = None,
) -> OfficialScores:
    """:func:`scoring.measures.official.items.score_system` without ``-v`` lines (``numbers``: the
    line
    numbers of a selection of a file's lines; ``differ``: list the dirty lines)."""
    collect = (
        differ is not None
        and trace
        and gold.rules == "compat"
        and numbers is None
        and text.isascii()  # both rule sets match its lines alike
    )
    scan = _Scan(measure, gold, name, keep_items, trace, differ if collect else None)
    for first, found in iter_chunks(text, measure, unicode=gold.rules == "fixed"):
        if numbers is None:
            scan.chunk(range(first, first + len(found)), found)
        else:
            scan.chunk(numbers[first - 1 : first - 1 + len(found)], found)
    return scan.result()


def score_rows(
    measure: Task,
    gold: Gold,
    numbers: Sequence[int],
    rows: Sequence[tuple[str, str, str, str]],
    name: str,
    kinds: bytes | None = None,
    items: Sequence[ItemGold | None] | None = None,
) -> OfficialScores:
    """:func:`score_chunks` of lines already matched (``rows``, as
    :func:`scoring.formats.lines.iter_chunks` gives them; ``numbers``: their line numbers), with a
    trace: the diagnosis' fixed scan of the dirty lines of an ASCII file (``kinds``: their
    answers' kinds, :func:`scoring.formats.lines.answer_kinds`, when they are known; ``items``:
    each row's item in ``gold`` when it is known, else None: looked up)."""
    ids = list(map(itemgetter(1), rows))
    found = gold.items.get
    known = (
        map(found, ids)
        if items is None
        else (
            found(item_id) if item is None else item
            for item_id, item in zip(ids, items, strict=True)
        )
    )
    scan = _Scan(measure, gold, name, False, True, items=dict(zip(ids, known, strict=True)))
    scan.chunk(numbers, rows, kinds)
    return scan.result()


_END: tuple[None, None] = (None, None)


def _remaining(items: dict[str, ItemGold], taken: int) -> dict[str, ItemGold | None]:
    """The items of the ids not done yet, when the first ``taken`` were read in order (an
    item with nothing to score is never done)."""
    remaining: dict[str, ItemGold | None] = dict(items)
    for item_id, item in islice(items.items(), taken):
        if item.total:
            del remaining[item_id]
    return remaining


_FORMS_KEPT = 1 << 16
"""How many guesses' normal forms a scan keeps at most (:func:`guesses_fixed`)."""


class _Scan:
    """The state score.pl keeps from line to line, and the sums so far."""

    def __init__(
        self,
        measure: Task,
        gold: Gold,
        name: str,
        keep_items: bool,
        trace: bool,
        differ: Collection[str] | None = None,
        items: dict[str, ItemGold | None] | None = None,
    ):
        self.measure = measure
        self.gold = gold
        self.name = name
        self.oot = measure == "oot"
        self.fixed = gold.rules == "fixed"
        # A system file usually lists the gold's ids in the gold's order: while it does,
        # each line's item is the next of the gold's (``ahead``, one comparison a line,
        # ``taken`` of them so far), its id marked done by the move (score.pl's %done). At
        # the first line that breaks the order, ``remaining`` is made: each id's item,
        # taken out at its first line, so that one lookup a line finds the item and tells
        # a repeated id. ``items``: the only ids to be read and their items (one the gold
        # lacks is None, which is read as gone), read by lookup.
        self.remaining: dict[str, ItemGold | None] | None = items
        self.ahead = iter(gold.items.items()) if items is None else None
        self.head: tuple[str | None, ItemGold | None] = (
            next(self.ahead, _END) if self.ahead is not None else _END
        )
        self.taken = 0
        self.keep_items = keep_items
        self.rows: list[ItemScore] = []
        self.log: list[str] = []
        self.guesses: list[str] = []  # score.pl's @res: kept from line to line
        self.unique: dict[str, None] = {}  # oot: its distinct guesses
        self.guesses_line = 0  # the line they were read from
        self.forms: dict[str, str] = {}  # the fixed rules' form of each guess seen
        self.differ: Collection[str] = () if differ is None else differ
        self.dirty: list[DirtyLine] | None = None if differ is None else []
        self.trace = Trace(dirty=self.dirty) if trace else None
        self.firsts: set[str] = set()  # the differ ids whose first unscored line is dirty
        self.scored = 0  # lines scored in the chunks before this one
        self.repeated = 0  # lines that repeat a guess, scored for both rule sets at once
        self.attempted = self.mode_attempted = self.mode_correct = 0
        self.duplicate_lines = 0
        self.total = 0.0

    def result(self) -> OfficialScores:
        gold = self.gold
        trace = self.trace
        if trace is not None and self.repeated:
            trace = trace.with_repeats(self.repeated)
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
            trace,
        )

    def chunk(
        self,
        numbers: Iterable[int],
        found: Sequence[tuple[str, str, str, str]],
        kinds: bytes | bytearray | None = None,
    ) -> None:
        """Score a chunk of rows (:func:`scoring.formats.lines.iter_chunks`; ``numbers``: their
        line numbers): one tight loop, the gold item found and the id marked done by one
        lookup, the usual answer split at once (:func:`scoring.formats.lines.answer_kinds`), the
        outcomes kept in lists (arrays at the end of the chunk)."""
        oot = self.oot
        fixed = self.fixed
        distinct = oot and fixed  # fixed oot credits each distinct guess once
        keep = self.keep_items
        remaining = self.remaining
        pop = remaining.pop if remaining is not None else None
        ahead = self.ahead
        head_id, head_item = self.head
        known = self.gold.items
        taken = self.taken
        search = NONSPACE.search
        lines: list[int] = []
        scores: list[float] = []
        outcomes: list[int] = []
        readings: list[int] = []
        stales = bytearray()
        ids: list[str] = []
        held = self.guesses  # score.pl's @res
        held_unique = unique = self.unique  # oot: its distinct guesses, in order
        scored = self.scored
        held_line = self.guesses_line
        total = self.total
        attempted = mode_attempted = mode_correct = duplicate_lines = 0
        dirty = self.dirty
        differ = self.differ
        alike = True
        tracing = self.trace is not None
        # the oot lines that repeat a guess and are otherwise read alike (see below)
        repeated = 0
        repeated_lines = self.trace.repeated_lines if self.trace is not None else []
        room = LINES_LISTED - len(repeated_lines)  # how many more of them are listed
        forms = self.forms
        if len(forms) > _FORMS_KEPT:
            forms.clear()
        if kinds is None:
            kinds = answer_kinds(found)
        if kinds is None:  # answers with non-ASCII letters: each read line by line
            kinds = bytearray([OTHER]) * len(found)
        for number, row, kind in zip(numbers, found, kinds, strict=True):
            lexelt, item_id, answer, other = row
            if not lexelt:
                if other:
                    self.log.append(f"Error in {self.name} on line {number}")
                continue
            if pop is not None:
                item = pop(item_id, None)
            elif item_id == head_id:  # the gold's next id: its first line, in order
                item = head_item
                head_id, head_item = next(ahead, _END)  # type: ignore[arg-type]
                taken += 1
            elif item_id not in known:  # not in T: the order holds
                item = None
            else:  # out of the gold's order: from here on, by lookup
                remaining = self.remaining = _remaining(known, taken)
                pop = remaining.pop
                item = pop(item_id, None)
            if item is None or not item.total:
                if (
                    self._unscored(number, item_id, item)
                    and dirty is not None
                    and item_id in differ
                    and item_id not in self.firsts
                ):  # the fixed reading may put it in T: its first line is dirty
                    self.firsts.add(item_id)
                    at = scored + len(scores)
                    dirty.append((number, row, at, 0, -1, 0.0, 0, kind, None))
                continue
            stale = False
            duplicates = 0
            if kind != OTHER or (answer and (not answer[0].isspace() or search(answer))):
                if kind == PLAIN:  # both rule sets split it so
                    guesses = answer.split(";")
                elif kind == HYPHENS:
                    guesses = answer.replace("-", " ").split(";")
                elif fixed:
                    guesses = guesses_fixed(answer, forms)
                else:
                    guesses = answer.split(";")
                    if not guesses[-1] or "-" in answer or "'" in answer or "non" in answer:
                        guesses = guesses_compat(answer)
                        alike = False
                    elif dirty is not None:  # read alike both ways, the rest of it (ASCII
                        # text; an answer without letters is dirty too)
                        alike = (
                            answer.islower()
                            and answer.isprintable()
                            and "  " not in answer
                            and " ;" not in answer
                            and "; " not in answer
                            and ";;" not in answer
                            and answer[0] not in " ;"
                            and answer[-1] != " "
                        )
                count = len(guesses)
                if count:
                    attempted += 1
                if oot:
                    unique = dict.fromkeys(guesses)  # the distinct guesses, in order
                    duplicates = count - len(unique)
                    if duplicates:
                        duplicate_lines += 1
                    if count > OOT_GUESSES:
                        guesses = guesses[:OOT_GUESSES]
                        count = OOT_GUESSES
                        unique = dict.fromkeys(guesses)
                held = guesses
                held_unique = unique
                held_line = number
            elif fixed:
                guesses = held = []
                unique = held_unique = {}
                count = 0
            else:
                guesses = held
                unique = held_unique
                count = len(guesses)
                stale = count > 0
                alike = False
            norms = item.norms
            credit = 0.0
            for guess in unique if distinct else guesses:
                if guess in norms:
                    credit += norms[guess]
            score = credit if oot or not credit else credit / count
            total += score
            mode = item.mode
            tried = right = False
            if count and mode and mode != "0":  # Perl's truth of the mode
                tried = True
                right = mode in unique if oot else mode == guesses[0]
                mode_attempted += 1
                mode_correct += right
            answered = count > 0 and not stale
            if dirty is not None:  # the diagnosis: what each line adds under the fixed
                # rules where the scan knows it, else its score; the dirty lines' outcomes
                kept = score
                if alike and duplicates and item_id not in differ:
                    # read alike, the same item: the fixed rules differ only in crediting
                    # each distinct guess once; its fixed score is found here (as the fixed
                    # scan adds it), so the diagnosis need not list the line
                    repeated += 1
                    if repeated <= room:
                        repeated_lines.append(number)
                    if score:  # no guess credited: none is under the fixed rules either
                        kept = 0.0
                        for guess in unique:
                            if guess in norms:
                                kept += norms[guess]
                elif not alike or duplicates or item_id in differ:
                    bits = answered | tried << 1 | right << 2 | (duplicates > 0) << 3
                    source = held_line if stale else 0
                    reading = hash(tuple(guesses))
                    at = scored + len(scores)
                    same = None if item_id in differ else item
                    dirty.append(
                        (number, row, at, reading, bits | count << 4, score, source, kind, same)
                    )
                    alike = True
                scores.append(kept)
            elif tracing:
                lines.append(number)
                scores.append(score)
                outcomes.append(
                    answered | tried << 1 | right << 2 | (duplicates > 0) << 3 | count << 4
                )
                readings.append(hash(tuple(guesses)))
                ids.append(item_id)
                stales.append(stale)
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
        self.unique = held_unique
        self.guesses_line = held_line
        self.head = (head_id, head_item)
        self.taken = taken
        self.total = total
        self.attempted += attempted
        self.mode_attempted += mode_attempted
        self.mode_correct += mode_correct
        self.duplicate_lines += duplicate_lines
        self.repeated += repeated
        self.scored += len(scores)  # the trace's length (only a traced scan lists dirty lines)
        traced = self.trace
        if traced is not None:
            traced.lines.extend(array("q", lines))
            traced.scores.extend(array("d", scores))
            traced.outcomes.extend(array("q", outcomes))
            traced.readings.extend(array("q", readings))
            traced.stale.extend(stales)
            traced.ids.extend(ids)

    def _unscored(self, number: int, item_id: str, item: ItemGold | None) -> bool:
        """A line that is not scored: an id not in T (or whose item has no count left;
        True), or a later line of a scored id (score.pl's ``%done``; False); score.pl dies
        on an item whose counts add up to 0."""
        if item is None:
            item = self.gold.items.get(item_id)
            if item is not None and item.total:
                return False  # a later line of a scored id
        elif item.counts:  # every count is 0: score.pl's normalisevalues divides by zero
            raise ScorerDied(
                "".join(line + "\n" for line in self.log),
                f"item {item_id}'s gold counts add up to 0",
            )
        elif self.remaining is not None:  # (read in order, it stays until the order breaks)
            self.remaining[item_id] = item  # never done: its later lines alike
        if self.trace is not None:
            self.trace.unscored.append((number, item_id))
        return True


def score_system(
    measure: Task,
    gold: Gold,
    system: str | Sequence[str],
    name: str,
    verbose: bool = False,
    keep_items: bool = True,
    trace: bool = False,
    numbers: Sequence[int] | None = None,
    differ: Collection[str] | None = None,
) -> OfficialScores:
    """Score a best or oot system file (its text, or its lines) against ``gold`` under
    ``gold.rules``. ``name`` is echoed in ``Error in NAME on line N`` as score.pl echoes
    its argument; ``verbose`` collects score.pl's ``-v`` lines; ``trace`` keeps each
    scored line's outcome compactly (:class:`Trace`). ``numbers``, when ``system`` is a
    selection of a file's lines, gives their line numbers in the file (default 1, 2, …);
    the figures are then those of the selection alone.

    ``differ`` (a compat scan of a whole ASCII file, with ``trace``): the ids whose two
    gold readings differ; the scan then also lists the diagnosis' dirty lines
    (:attr:`Trace.dirty`).

    The scan is :func:`score_chunks`' tight loop; with ``verbose`` it is
    :func:`scoring.measures.official.items.score_lines`, which follows score.pl line for line. Both
    give the same
    figures, bit for bit."""
    if verbose:
        return score_lines(measure, gold, system, name, verbose, keep_items, trace, numbers)
    return score_chunks(measure, gold, as_text(system), name, keep_items, trace, numbers, differ)
