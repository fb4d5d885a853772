"""What in a system file gained or lost credit only because of a defect of score.pl.

The scorer prints these notes to standard error in both modes, so that a system builder
sees what the official numbers hide: e.g. ``12 guesses score 0 only because of leading
or trailing white space or a CR (lines 3, 9, …)`` or ``line 88: empty answer credited
with line 87's guesses``, and what the fixed rules give.

The diagnosis is a diff of two plain scans (:func:`scoring.measures.official.items.score_system`),
one
under score.pl's rules and one under the fixed rules: the items whose outcome (credit,
attempted, mode) differs between them are explained from their lines, and the fixed
rules' figures are the fixed scan's own totals.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Collection, Iterable, Iterator, Sequence
from functools import partial, reduce
from itertools import chain, compress, islice, repeat
from operator import add, and_, le, methodcaller
from typing import TYPE_CHECKING, NamedTuple

from scoring.errors import LINES_LISTED, Tally
from scoring.formats.gold import Gold, ItemGold
from scoring.formats.lines import CHUNK, HYPHENS, OTHER, has_content, iter_chunks, perl_split
from scoring.formats.perl import show
from scoring.formats.text import as_text
from scoring.measures.official.items import (
    OOT_GUESSES,
    DirtyLine,
    OfficialScores,
    Trace,
    guesses_compat,
)
from scoring.registry import official_figure
from scoring.score.scan import score_rows, score_system
from scoring.terms import normalise
from scoring.types import Task

if TYPE_CHECKING:
    from typing import AnyStr

_NON_PREFIX = re.compile(r"non[\s-]", re.ASCII)
MAX_LISTED = LINES_LISTED
_FORMS_KEPT = 1 << 16
"""How many guesses' normal forms the diagnosis keeps at most."""


class _Findings:
    """What the diagnosis found, defect by defect."""

    def __init__(self) -> None:
        self.space = Tally()
        self.non_ascii = Tally()
        self.case = Tally()
        self.non = Tally()
        self.dropped = Tally()
        self.empty = Tally()
        self.mode_hyphen = Tally()
        self.duplicates = Tally()
        self.stale: list[str] = []
        self.stale_count = 0
        self.non_ascii_items = 0


def _guess_causes(
    found: _Findings,
    number: int,
    answer: str,
    measure: Task,
    compat: ItemGold | None,
    fixed: ItemGold | None,
    forms: dict[str, str],
) -> None:
    """Attribute each guess that only the fixed rules credit to its defect (``forms``: the
    guesses normalised so far, each normalised once)."""
    raw = perl_split(answer)
    if measure == "best" and "" in raw:
        found.empty.add(number)
    if fixed is None:  # the fixed rules credit no guess of this line
        return
    compat_norms = compat.norms if compat is not None else {}
    fixed_norms = fixed.norms
    for guess, compat_form in zip(
        raw[:10] if measure == "oot" else raw, guesses_compat(answer), strict=False
    ):
        if compat_norms.get(compat_form):
            continue
        fixed_form = forms.get(guess)
        if fixed_form is None:
            if len(forms) > _FORMS_KEPT:
                forms.clear()
            fixed_form = forms[guess] = normalise(guess)
        if not fixed_form or not fixed_norms.get(fixed_form):
            continue
        if not guess.isascii():
            found.non_ascii.add(number)
        elif guess != guess.strip():
            found.space.add(number)
        elif _NON_PREFIX.match(guess):
            found.non.add(number)
        elif _case_only(compat, compat_form):
            found.case.add(number)
        else:
            found.dropped.add(number)


def _plain_causes(
    found: _Findings,
    number: int,
    answer: str,
    measure: Task,
    compat: ItemGold | None,
    fixed: ItemGold | None,
    kind: int,
) -> None:
    """:func:`_guess_causes` of a plain or hyphenated answer (:func:`scoring.formats.lines.
    answer_kinds`), whose guesses both rule sets read alike (hyphens as spaces): a guess
    only the fixed rules credit was dropped by score.pl's gold reading, or differs from a
    gold key in case only. The guesses the fixed gold credits are found at once."""
    if fixed is None:
        return
    guesses = (answer.replace("-", " ") if kind == HYPHENS else answer).split(";")
    if measure == "oot":
        guesses = guesses[:OOT_GUESSES]
    fixed_norms = fixed.norms
    compat_norms = compat.norms if compat is not None else {}
    for guess in fixed_norms.keys() & guesses:  # each line's order is not kept: no need
        if fixed_norms[guess] and not compat_norms.get(guess):
            tally = found.case if _case_only(compat, guess) else found.dropped
            for _ in range(guesses.count(guess)):
                tally.add(number)


def _case_only(item: ItemGold | None, guess: str) -> bool:
    """Whether ``guess`` differs from a gold key of ``item`` only in case."""
    if item is None:
        return False
    folded = guess.casefold()
    return any(key != guess and key.casefold() == folded for key in item.norms)


LineOutcome = tuple[float, int]
"""A scored line's outcome in a :class:`~scoring.measures.official.items.Trace`: its score and its
attempted / mode bits."""


def _trace(scores: OfficialScores) -> Trace:
    if scores.trace is None:
        raise ValueError("the diagnosis diffs two scans kept with trace=True")
    return scores.trace


def differing(
    compat: OfficialScores, fixed: OfficialScores
) -> dict[int, tuple[LineOutcome | None, LineOutcome | None]]:
    """The lines the two scans score or read differently (score, attempted, mode, the
    guesses read), or that only one of them scores: line number → (compat outcome, fixed
    outcome), in file order."""
    return _differing(_trace(compat), _trace(fixed))


def _differing(
    first: Trace, second: Trace
) -> dict[int, tuple[LineOutcome | None, LineOutcome | None]]:
    if first.lines == second.lines:  # the usual case: the same lines scored, compared in C
        if (
            first.scores == second.scores
            and first.outcomes == second.outcomes
            and first.readings == second.readings
        ):
            return {}
        return {
            line: ((a, x), (b, y))
            for line, a, b, x, y, r, t in zip(
                first.lines,
                first.scores,
                second.scores,
                first.outcomes,
                second.outcomes,
                first.readings,
                second.readings,
                strict=True,
            )
            if a != b or x != y or r != t
        }
    one = dict(
        zip(
            first.lines, zip(first.scores, first.outcomes, first.readings, strict=True), strict=True
        )
    )
    two = dict(
        zip(
            second.lines,
            zip(second.scores, second.outcomes, second.readings, strict=True),
            strict=True,
        )
    )
    return {
        line: (_outcome(one.get(line)), _outcome(two.get(line)))
        for line in sorted(one.keys() | two.keys())
        if one.get(line) != two.get(line)
    }


def _outcome(found: tuple[float, int, int] | None) -> LineOutcome | None:
    return None if found is None else (found[0], found[1])


def _stale(compat: Trace, only: Selection | None = None) -> tuple[list[str], int]:
    """The first :data:`MAX_LISTED` compat lines whose empty answer was scored with earlier
    guesses, each with the line those guesses came from (the last scored line before it
    that was not stale: score.pl's ``@res`` is kept from line to line), and how many such
    lines there are; from ``only`` when the compat scan listed them there (every stale
    line is dirty)."""
    if only is not None and only.sources is not None:
        pairs = zip(only.numbers, only.sources, strict=True)
        sources = [(number, source) for number, source in pairs if source]
        return [
            f"line {number}: empty answer credited with line {source}'s guesses"
            for number, source in sources[:MAX_LISTED]
        ], len(sources)
    stale = compat.stale
    found: list[str] = []
    at = stale.find(1)
    while at >= 0 and len(found) < MAX_LISTED:
        source = at - 1
        while source >= 0 and stale[source]:
            source -= 1
        line = compat.lines[source] if source >= 0 else 0
        found.append(f"line {compat.lines[at]}: empty answer credited with line {line}'s guesses")
        at = stale.find(1, at + 1)
    return found, stale.count(1)


def diagnose(
    measure: Task,
    system: str,
    compat: OfficialScores,
    fixed: OfficialScores,
    compat_gold: Gold,
    fixed_gold: Gold,
    differ: Collection[str],
    only: Selection | None = None,
) -> list[str]:
    """The notes on ``system`` from two plain scans of it kept with ``trace=True``, under
    the compat and the fixed reading of the gold (``differ``: the ids those readings may
    score differently, :func:`scoring.formats.gold.read_gold_pair`). The lines the scans score or
    read differently, and the scored lines of those ids, are explained; the fixed rules'
    figures are the fixed scan's. ``only``, its dirty lines (:func:`select_dirty`), holds
    every such line, so only they need reading again."""
    found = _Findings()
    if _trace(compat).dirty is not None and (only is None or only.sources is None):
        raise ValueError("a compat scan that lists its dirty lines is diagnosed with them")
    found.stale, found.stale_count = _stale(_trace(compat), only)
    found.non_ascii_items = non_ascii_items(fixed_gold, differ)
    if fixed.duplicate_lines:
        traced = _trace(fixed)
        repeats = map(and_, traced.outcomes, repeat(_REPEATS))
        repeating = compress(traced.lines, repeats)  # the lines the fixed trace holds
        for line in sorted(chain(islice(repeating, MAX_LISTED), traced.repeated_lines)):
            found.duplicates.add(line)
        found.duplicates.count += (  # and the lines counted, not listed (scan.py)
            sum(map(bool, repeating)) + traced.repeated - len(traced.repeated_lines)
        )
    if only is None:
        lines = differing(compat, fixed)
    else:  # every line outside ``only`` has the same outcome in both scans; the fixed
        # trace holds ``only``'s lines
        lines = _differing(_pick(_trace(compat), only), _trace(fixed))
    if lines or differ:
        done: set[str] = set()
        forms: dict[str, str] = {}
        if only is None:
            rows: Iterable[tuple[int, tuple[str, str, str, str]]] = (
                (number, row)
                for first, chunk in iter_chunks(as_text(system), measure)
                for number, row in enumerate(chunk, first)
            )
        else:
            rows = zip(only.numbers, only.matched(measure), strict=True)
        listed = only is not None and only.items is not None and only.kinds is not None
        shared = iter(only.items or ()) if only is not None and listed else repeat(None)
        kinds = iter(only.kinds or ()) if only is not None and listed else repeat(OTHER)
        for number, (lexelt, item_id, answer, _other) in rows:
            same = next(shared)  # the item of both readings, when the scan knew it
            kind = next(kinds)
            if number in lines:
                compat_outcome, fixed_outcome = lines[number]
                compat_item = (same or compat_gold.items[item_id]) if compat_outcome else None
                fixed_item = (same or fixed_gold.items[item_id]) if fixed_outcome else None
            elif lexelt and item_id in differ and item_id not in done:
                # the first line of an id whose readings differ: scored alike, if at all
                compat_outcome = fixed_outcome = None
                compat_item = _scored(compat_gold, item_id)
                fixed_item = _scored(fixed_gold, item_id)
            else:
                continue
            done.add(item_id)
            _explain(
                found,
                measure,
                number,
                answer,
                compat_item,
                fixed_item,
                compat_outcome,
                fixed_outcome,
                forms,
                kind,
            )
    return notes(compat, fixed, found)


_ATTEMPTED = 1
_MODE_ATTEMPTED = 2
_MODE_CORRECT = 4
_REPEATS = 8


_SUSPECT = ("-", "'", "non", " \n", "  ", " ;", "; ", ";;")
"""What makes an answer read differently under the two rule sets (both read a plain,
lower-case answer with no ``non`` alike): a hyphen or apostrophe, ``non``, an answer that
ends with a space (empty answers too: ``:: `` ends the line), a double space, white space
around a ``;``, an empty guess; an answer that starts with a space or ``;`` (after ``:: ``,
so a double space or `` ;``). Control characters (CR, tab) and non-ASCII ones are looked for by
:func:`_odd_lines`."""
_PRINTABLE = bytes(range(32, 127)) + b"\n"
_SEMICOLON_AS_SPACE = bytes.maketrans(b";", b" ")


def _odd_lines(ascii_text: bytes | None, split: Sequence[str]) -> list[int]:
    """The numbers of the lines with a character that is not printable ASCII (what
    no plain answer holds: tab, CR, other controls, non-ASCII);
    ``ascii_text`` is the text encoded, None when it is not ASCII."""
    if ascii_text is not None and not ascii_text.translate(None, _PRINTABLE):
        return []  # the usual file: checked in C, line by line is not needed
    return [
        number
        for number, line in enumerate(split, 1)
        if not (line.isascii() and line.isprintable())
    ]


def _find_all(haystack: AnyStr, needle: AnyStr, newline: AnyStr) -> list[int]:
    """Where ``needle`` occurs in ``haystack``, the first occurrence of each line only."""
    found = []
    at = haystack.find(needle)
    while at >= 0:
        found.append(at)
        end = haystack.find(newline, at + 1)
        at = -1 if end < 0 else haystack.find(needle, end + 1)
    return found


def suspect_lines(text: str, split: Sequence[str]) -> set[int]:
    """The numbers of the lines of ``text`` (``split``: its lines) whose answer the two
    rule sets may read differently: every line with an answer that is not plain,
    lower-case and free of ``non`` is among them (the whole line is looked
    at, so some others are too). A pre-pass in C: ``find`` over the whole text, the four
    pairs of spaces and semicolons at once (``;`` read as a space) when it is ASCII."""
    ascii_text = text.encode("ascii") if text.isascii() else None
    found = set(_odd_lines(ascii_text, split))
    positions: list[int] = []
    if ascii_text is not None:  # positions in the bytes are positions in the text
        for pattern in _SUSPECT[:4]:
            positions += _find_all(ascii_text, pattern.encode("ascii"), b"\n")
        positions += _find_all(ascii_text.translate(_SEMICOLON_AS_SPACE), b"  ", b"\n")
        # the fixed rules fold case: a line with a capital, found once a line
        positions += map(_start, _UPPER_LINE.finditer(ascii_text))
    else:
        for pattern in _SUSPECT:
            positions += _find_all(text, pattern, "\n")
        found.update(number for number, line in enumerate(split, 1) if line != line.lower())
    if text.endswith(" "):
        positions.append(len(text) - 1)
    positions.sort()
    number, last = 1, 0
    for at in positions:
        number += text.count("\n", last, at)
        last = at
        found.add(number)
    return found


_UPPER_LINE = re.compile(rb"[A-Z][^\n]*")
_start = methodcaller("start")


def dirty_lines(
    measure: Task, compat: Trace, differ: Collection[str], suspect: Collection[int]
) -> list[int]:
    """The lines a fixed scan may score or read otherwise than the compat scan kept in
    ``compat``, in file order: each id's first line at most (a later line of an id is
    skipped by both scans alike, score.pl's ``%done``).

    A line the compat scan scored is clean (the fixed rules give it the same outcome and
    the same guesses) when it is not in ``suspect`` (:func:`suspect_lines`: its answer
    reads alike under both rule sets, so it is neither empty nor stale), when for oot it
    repeats no guess (the fixed rules credit each distinct guess once), and when its id's
    two gold readings are the same item (``differ``, :func:`scoring.formats.gold.read_gold_pair`:
    not one-character, numeric or double-spaced entries, ``pn``, a hyphenated or ``0``
    mode, a repeated id, …). Every other scored line is dirty, and so is the first line of
    each id of ``differ`` that the compat scan did not score (the fixed reading may put
    it in T)."""
    scored = range(len(compat.lines))
    dirty = set(compress(scored, map(suspect.__contains__, compat.lines))) if suspect else set()
    if measure == "oot":
        dirty.update(compress(scored, map(and_, compat.outcomes, repeat(_REPEATS))))
    if differ:
        dirty.update(compress(scored, map(differ.__contains__, compat.ids)))
    found = list(map(compat.lines.__getitem__, dirty))
    if differ:
        firsts: dict[str, int] = {}
        for line, item_id in compat.unscored:
            if item_id in differ:
                firsts.setdefault(item_id, line)
        found += firsts.values()
    found.sort()
    return found


class Selection(NamedTuple):
    """Some lines of a system file: their numbers in the file, in order, and their text;
    or, for an ASCII file, what the compat scan listed of them
    (:data:`scoring.measures.official.items.DirtyLine`): the rows it matched them as (``rows``,
    ``lines``
    then empty), their indices in its trace (``positions``: where each line is, or would
    be, in :attr:`scoring.measures.official.items.Trace.scores`), and their compat outcomes, which
    its
    trace keeps for no other line (``readings``, ``outcomes``: -1 for a line it did not
    score, ``scores``, ``sources``: the line a stale answer's guesses came from, else 0),
    their answers' kinds (:func:`scoring.formats.lines.answer_kinds`) and ``items``: the item each
    was scored against when its id's two gold readings are the same item, else None."""

    numbers: list[int]
    lines: list[str]
    rows: list[tuple[str, str, str, str]] | None = None
    positions: list[int] | None = None
    readings: list[int] | None = None
    outcomes: list[int] | None = None
    scores: list[float] | None = None
    sources: list[int] | None = None
    kinds: bytes | None = None
    items: list[ItemGold | None] | None = None

    def matched(self, measure: Task) -> Iterable[tuple[str, str, str, str]]:
        """The lines as score.pl's pattern matches them."""
        if self.rows is not None:
            return self.rows
        return (row for _, chunk in iter_chunks(as_text(self.lines), measure) for row in chunk)


def select_dirty(
    measure: Task, system: str, compat: OfficialScores, differ: Collection[str]
) -> Selection:
    """The dirty lines of ``system`` (:func:`dirty_lines`) after its compat scan: those
    the scan listed as it went (:attr:`scoring.measures.official.items.Trace.dirty`), or else read a
    chunk of lines at a time (the text is never split whole)."""
    trace = _trace(compat)
    if trace.dirty is not None:
        return _listed(trace.dirty)
    from bisect import bisect_left  # here: a run whose scan listed its dirty lines needs none

    scored = trace.lines
    others = dirty_lines(measure, trace, differ, ())  # dirty whatever the answer
    numbers: list[int] = []
    lines: list[str] = []
    for first, split, chunk in _line_chunks(system):
        end = first + len(split)
        here = scored[bisect_left(scored, first) : bisect_left(scored, end)]
        suspect = {number + first - 1 for number in suspect_lines(chunk, split)}
        chosen = set(compress(here, map(suspect.__contains__, here)))
        chosen.update(others[bisect_left(others, first) : bisect_left(others, end)])
        for number in sorted(chosen):
            numbers.append(number)
            lines.append(split[number - first])
    return Selection(numbers, lines)


def _listed(dirty: list[DirtyLine]) -> Selection:
    """The dirty lines the compat scan listed, as a :class:`Selection` (a column each)."""
    if not dirty:
        return Selection([], [], [], [], [], [], [], [], b"", [])
    numbers, rows, positions, readings, outcomes, scores, sources, kinds, items = zip(
        *dirty, strict=True
    )
    return Selection(
        list(numbers),
        [],
        list(rows),
        list(positions),
        list(readings),
        list(outcomes),
        list(scores),
        list(sources),
        bytes(kinds),
        list(items),
    )


def _line_chunks(text: str) -> Iterator[tuple[int, list[str], str]]:
    """The lines of ``text`` a chunk at a time (as :func:`scoring.formats.lines.iter_chunks`
    numbers them): the number of the chunk's first line, its lines, its text."""
    number, start, size = 1, 0, len(text)
    while start < size:
        end = text.find("\n", start + CHUNK)
        end = size if end < 0 else end + 1
        chunk = text[start:end]
        split = chunk.split("\n")
        if chunk.endswith("\n"):
            split.pop()
        yield number, split, chunk
        number += len(split)
        start = end


def fixed_scan(
    measure: Task, selection: Selection, compat: OfficialScores, fixed_gold: Gold, name: str
) -> OfficialScores:
    """The figures of a plain fixed scan of the system file, from its compat scan
    ``compat`` (``trace=True``) and a fixed scan of its dirty lines only (``selection``,
    :func:`select_dirty`): a clean line's fixed outcome is its compat outcome, and the
    trace's ``scores`` hold what each clean line adds under the fixed rules (a repeating
    line's fixed score among them, :class:`scoring.measures.official.items.Trace`). The
    score is summed in file order, as the scan sums it, so the figures are the same
    floating-point numbers. The result has no log and no items, and its trace holds the
    dirty lines only (what :func:`diagnose` compares, given ``selection``)."""
    before = _trace(compat)
    if selection.rows is not None:
        part = score_rows(
            measure,
            fixed_gold,
            selection.numbers,
            selection.rows,
            name,
            selection.kinds,
            selection.items,
        )
    else:
        part = score_system(
            measure, fixed_gold, selection.lines, name, trace=True, numbers=selection.numbers
        )
    after = _trace(part).with_repeats(before.repeated, before.repeated_lines)
    scores = memoryview(before.scores)  # slices without copies
    fixed_scores = dict(zip(after.lines, after.scores, strict=True))
    taken, dropped = _taken(selection, before)  # the dirty lines the compat scan scored
    summed: list[Iterable[float]] = []  # every score the fixed scan adds, in file order
    start = 0
    for number, index in zip(selection.numbers, _positions(selection, before), strict=True):
        summed.append(scores[start:index])  # the clean lines before it
        if number in fixed_scores:
            summed.append((fixed_scores[number],))
        start = max(start, index + 1 if index in taken else index)
    summed.append(scores[start:])
    total = reduce(add, chain.from_iterable(summed), 0.0)

    def count(bit: int) -> int:
        return sum(map(bool, map(and_, dropped, repeat(bit))))

    return OfficialScores(
        measure,
        "fixed",
        fixed_gold.total_items,
        compat.attempted - count(_ATTEMPTED) + part.attempted,
        total,
        fixed_gold.total_modes,
        compat.mode_attempted - count(_MODE_ATTEMPTED) + part.mode_attempted,
        compat.mode_correct - count(_MODE_CORRECT) + part.mode_correct,
        compat.duplicate_lines - count(_REPEATS) + part.duplicate_lines,
        (),
        (),
        after,
    )


def _positions(selection: Selection, trace: Trace) -> list[int]:
    """Where each selected line is, or would be, in ``trace.lines``."""
    if selection.positions is not None:
        return selection.positions
    from bisect import bisect_left

    return [bisect_left(trace.lines, number) for number in selection.numbers]


def _taken(selection: Selection, trace: Trace) -> tuple[set[int], list[int]]:
    """The indices in ``trace`` of the selected lines the scan scored, and their outcomes."""
    if selection.outcomes is not None:  # listed with their outcomes
        scored = list(map(_is_scored, selection.outcomes))
        return set(compress(_positions(selection, trace), scored)), list(
            compress(selection.outcomes, scored)
        )
    lines = trace.lines
    size = len(lines)
    taken = [
        index
        for number, index in zip(selection.numbers, _positions(selection, trace), strict=True)
        if index < size and lines[index] == number
    ]
    return set(taken), [trace.outcomes[index] for index in taken]


_is_scored = partial(le, 0)  # an outcome of -1: a line the compat scan did not score


def _pick(trace: Trace, selection: Selection) -> Trace:
    """The entries of ``trace`` for the selected lines it holds, in order (``ids`` and
    ``unscored`` left out); from ``selection`` itself when it was listed with them."""
    if selection.outcomes is not None and selection.scores is not None:
        scored = list(map(_is_scored, selection.outcomes))
        return Trace(
            array("q", compress(selection.numbers, scored)),
            array("d", compress(selection.scores, scored)),
            array("q", compress(selection.outcomes, scored)),
            array("q", compress(selection.readings or (), scored)),
            bytearray(map(bool, compress(selection.sources or (), scored))),
        )
    size = len(trace.lines)
    chosen, readings = [], []
    for number, index, reading in zip(
        selection.numbers,
        _positions(selection, trace),
        repeat(0) if selection.readings is None else selection.readings,
        strict=selection.readings is not None,
    ):
        if index < size and trace.lines[index] == number:
            chosen.append(index)
            readings.append(reading)
    return Trace(
        array("q", map(trace.lines.__getitem__, chosen)),
        array("d", map(trace.scores.__getitem__, chosen)),
        array("q", map(trace.outcomes.__getitem__, chosen)),
        array(
            "q",
            map(trace.readings.__getitem__, chosen) if selection.readings is None else readings,
        ),
        bytearray(map(trace.stale.__getitem__, chosen)),
    )


def non_ascii_items(fixed_gold: Gold, ids: Collection[str]) -> int:
    """How many items of ``ids`` have a lexelt or gold key with non-ASCII letters, which
    score.pl's rules cut (its patterns match ASCII word characters only)."""
    count = 0
    odd: dict[int, bool] = {}  # by item: the readers share an item between lines
    get = fixed_gold.items.get
    for item_id in ids:
        item = get(item_id)
        if item is None:
            continue
        known = odd.get(id(item))
        if known is None:
            known = odd[id(item)] = not (
                item.lexelt.isascii() and all(key.isascii() for key, _ in item.counts)
            )
        count += known
    return count


def _scored(gold: Gold, item_id: str) -> ItemGold | None:
    """The item a scan scores a line of ``item_id`` against (None: it skips the line)."""
    item = gold.items.get(item_id)
    return item if item is not None and item.total else None


def _explain(
    found: _Findings,
    measure: Task,
    number: int,
    answer: str,
    compat_item: ItemGold | None,
    fixed_item: ItemGold | None,
    compat_outcome: LineOutcome | None,
    fixed_outcome: LineOutcome | None,
    forms: dict[str, str],
    kind: int = OTHER,
) -> None:
    """Why one line scores differently under the two rule sets (``kind``: its answer's,
    :func:`scoring.formats.lines.answer_kinds`)."""
    if kind != OTHER:
        _plain_causes(found, number, answer, measure, compat_item, fixed_item, kind)
    elif has_content(answer):
        _guess_causes(found, number, answer, measure, compat_item, fixed_item, forms)
    if (
        fixed_item is not None
        and fixed_outcome
        and fixed_outcome[1] & _MODE_CORRECT
        and compat_item is not None
        and "-" in (compat_item.mode or "")
        and not (compat_outcome and compat_outcome[1] & _MODE_CORRECT)
    ):
        found.mode_hyphen.add(number)


_COUNTED_NOTES = (
    (
        "space",
        "{count} guesses score 0 only because of leading or trailing white space or a CR ({where})",
    ),
    (
        "non_ascii",
        "{count} guesses with non-ASCII letters score 0 only because score.pl's rules cut "
        "non-ASCII letters ({where})",
    ),
    (
        "case",
        "{count} guesses score 0 only because their case differs from the gold entry's ({where})",
    ),
    (
        "non",
        "{count} guesses starting 'non-' score 0 only because score.pl rewrites them to "
        "'non…' ({where})",
    ),
    (
        "dropped",
        "{count} guesses score 0 only because score.pl drops or mangles their gold entry "
        "(one-character, numeric or double-spaced; {where})",
    ),
    (
        "empty",
        "{count} lines have empty guesses (';;') that score.pl counts, dividing their "
        "credit ({where})",
    ),
    (
        "mode_hyphen",
        "{count} items miss mode credit only because the gold mode is hyphenated ({where})",
    ),
    ("duplicates", "{count} lines repeat a guess; score.pl credits each repeat ({where})"),
)
"""The notes of counted findings (a :class:`_Findings` field each), in the order printed."""


def notes(compat: OfficialScores, fixed: OfficialScores, found: _Findings) -> list[str]:
    """The diagnosis, one note a line, ending with the fixed rules' figures."""
    result = []
    if found.non_ascii_items:
        result.append(
            f"{found.non_ascii_items} gold items have lexelts or entries with non-ASCII "
            "letters, which score.pl's rules cut (non-ASCII); --fixed reads them whole"
        )
    for name, note in _COUNTED_NOTES:
        counted: Tally = getattr(found, name)
        if counted.count:
            result.append(note.format(count=counted.count, where=counted.where()))
    result += found.stale[:MAX_LISTED]
    if found.stale_count > MAX_LISTED:
        result.append(
            f"… and {found.stale_count - MAX_LISTED} more empty answers credited "
            "with earlier guesses"
        )
    if result or _figures(compat) != _figures(fixed):
        result.append(
            f"under the fixed rules (--fixed): {_figures(fixed)} (compat: {_figures(compat)})"
        )
    return [f"diagnosis: {note}" for note in result]


def _figures(scores: OfficialScores) -> str:
    precision, recall, mode_precision, mode_recall = (
        show(official_figure(scores, name)) for name in ("P", "R", "mode_P", "mode_R")
    )
    return (
        f"precision {precision}, recall {recall}, mode "
        f"precision {mode_precision}, mode recall "
        f"{mode_recall}"
    )
