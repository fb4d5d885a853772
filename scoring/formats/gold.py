"""Gold and mwgold files: ``LEXELT ID :: sub count;sub count;`` (McCarthy & Navigli 2007,
section 2.2.1; the mwgold's entries are multiwords).

Three readings of one format, each for its purpose:

* :func:`read_gold` (and :func:`read_gold_pair`, :func:`read_readings`): what scoring
  needs of an item (McCarthy & Navigli 2007, section 4): the frequencies of H_i,
  normalised by |H_i|; whether the item is in T (two or more responses, not counting
  ``pn``); its mode m_i. Under score.pl's rules (``compat``, lines it ignores ignored) or
  corrected (``fixed``); ``strict`` refuses a malformed file first (:func:`parse_gold`).
  Gold files repeat the same substitute lists a lot, so each distinct ``(lexelt, rest of
  line)`` is parsed once and its :class:`ItemGold` shared by every id that has it.
* :func:`parse_gold` / :func:`format_gold`: typed lines (:class:`GoldLine`), read
  strictly, and written back.
* :func:`read_gold_as_written`: entries exactly as written, ``pn`` in its place (what the
  splitter rebuilds responses from and the benchmarks rank against).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from itertools import compress
from operator import attrgetter, is_, itemgetter, methodcaller, not_
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from scoring.errors import FormatError, Problems
from scoring.formats.lines import NONSPACE, iter_chunks, perl_split
from scoring.formats.perl import UV_MAX, perl_eq, perl_number, perl_sum, perl_truthy
from scoring.formats.text import as_text, fields, parse_all, read_lines, split_head, split_lines
from scoring.terms import fold, mode, normalise
from scoring.types import LEXELT, Count, GoldRules, Rules, pos_of

if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Literal

_lexelt_of = itemgetter(0)
_id_of = itemgetter(1)
_rest_of = itemgetter(2)
_key_of = itemgetter(0, 2)
_mode_of = attrgetter("mode")
_mode_delta_of = attrgetter("mode_delta")
_is_none = partial(is_, None)
# score.pl's gold-entry patterns (shared with the multiword gold reader), ``[\w'\-\s]+ (\d+)``
# and ``(\w[\w'\-\s]+) (\d+)``, written to be searched in linear time with the same match:
# a match lies inside one run of [\w'\-\s], and every start in a run has the same choice of
# ends, so only the run's first position (its first \w for ENTRY) is tried, not each one
# (which took time quadratic in a long field); scoring/formats/lines.py's LINEAR says more.
FIRST_COUNT = r"(?<![\w'\-\s])[\w'\-\s]+ (\d+)"
ENTRY = r"(?<![\w'\-\s])[\s'\-]*+(\w[\w'\-\s]+) (\d+)"


class ItemGold(NamedTuple):
    """What scoring needs of one gold item.

    ``norms`` maps each answer form that earns credit to count / total; a hyphenated key
    is also reachable with spaces (McCarthy & Navigli 2007, 2.2: "if the humans have used a hyphen
    ... we will accept a space instead"). ``mode`` is as score.pl keeps it (the hyphen
    kept); ``mode_delta`` is what this line added to score.pl's count of modes.
    """

    lexelt: str
    counts: tuple[tuple[str, Count], ...]
    total: Count
    norms: dict[str, float]
    mode: str | None
    mode_delta: int = 0
    rules: Rules = "fixed"
    """The rules the item was read under: they fix how answers are matched to its keys
    (:func:`answer_key`, :func:`gold_key`)."""


class Gold(NamedTuple):
    """A gold file read under one set of rules.

    ``items`` holds the items in T by id. ``total_items`` and ``total_modes`` are
    score.pl's denominators |T| and |TM| (in compat a repeated id counts once per line).
    """

    rules: Rules
    items: dict[str, ItemGold]
    total_items: int
    total_modes: int

    @property
    def modes(self) -> dict[str, str]:
        """The items that have a mode (score.pl's ``%idmodes``)."""
        return {
            item_id: item.mode
            for item_id, item in self.items.items()
            if perl_truthy(item.mode) and item.mode is not None
        }


class _Rest(NamedTuple):  # a record: a tuple is built faster than a frozen dataclass
    in_t: bool
    entries: tuple[tuple[str, Count], ...]
    mode: str | None
    mode_delta: int
    mode_deleted: bool
    plain: bool = False  # read at once by :func:`_plain_entries`: both rule sets alike


_OUT_OF_T = _Rest(False, (), None, 0, False)
_PLAIN_OUT_OF_T = _Rest(False, (), None, 0, False, True)


def parse_rest_compat(rest: str) -> _Rest:
    """score.pl's ``readgoldfile`` on the part after ``::`` of one line, defects kept."""
    plain = _plain_entries(rest)
    if plain is None:
        return _compat_rest(rest)
    return _plain_rest(plain)


def _plain_rest(plain: list[tuple[str, int]]) -> _Rest:
    """What :func:`_compat_rest` makes of a plain line's entries (:func:`_plain_entries`),
    at once."""
    first = plain[0][1]
    if len(plain) == 1 and first == 1:
        return _PLAIN_OUT_OF_T
    deleted = len(plain) > 1 and plain[1][1] == first  # counts in descending order
    return _Rest(True, tuple(plain), plain[0][0], 1 - deleted, deleted, True)


def _compat_rest(rest: str) -> _Rest:
    """:func:`parse_rest_compat` of any line, field by field as score.pl reads it."""
    fields = [field for field in perl_split(rest) if "pn" not in field]
    if not (len(fields) > 1 or compat_first_count(fields) > 1):
        return _OUT_OF_T
    entries: list[tuple[str, Count]] = []
    mode: str | None = None
    mode_count: Count = 0
    delta = 0
    deleted = False
    for key, count in compat_entries(fields):
        if not perl_truthy(mode):
            mode, mode_count = key, count
            delta += 1
        elif not deleted and perl_eq(count, mode_count):
            deleted = True  # the first entry is not the most frequent: no mode
            delta -= 1
        entries.append((key, count))
    return _Rest(True, tuple(entries), mode, delta, deleted)


WEIGHT = r"[0-9]+(?:\.[0-9]+)?"
"""A gold count as the fixed and strict rules read it: whole (annotators) or decimal (a
weight, e.g. SemDis 2014's averaged 0-3 scores)."""


MAX_COUNT_DIGITS = 300
"""The digits of a gold count at most: any such number is a finite double."""


def parse_count(text: str) -> Count | None:
    """A gold count: an int for a whole number, a float for a decimal weight; None when
    ``text`` is neither, or has more than :data:`MAX_COUNT_DIGITS` digits before its point.

    >>> parse_count("3"), parse_count("1.33"), parse_count("1e3"), parse_count("9" * 301)
    (3, 1.33, None, None)
    """
    if len(text.partition(".")[0]) > MAX_COUNT_DIGITS:
        return None
    if text.isdigit() and text.isascii():
        return int(text)
    return float(text) if re.compile(WEIGHT).fullmatch(text) else None


def gold_entry(field: str, where: str, shown: str | None = None) -> tuple[str, Count]:
    """One ``SUBSTITUTE COUNT`` entry of a gold line: the substitute as written (all before
    the last space) and its count (:func:`parse_count`: whole or decimal).
    :class:`FormatError` names ``where``, the entry (``shown``, when given, is the entry
    as the file has it) and the rule.

    >>> gold_entry("garden  1", "gold:1")
    ('garden ', 1)
    >>> gold_entry("toutou 2.5", "gold:1")
    ('toutou', 2.5)
    """
    substitute, space, text = field.rpartition(" ")
    count = parse_count(text) if space else None
    if count is None or not substitute:
        shown = shown or repr(field)
        if len(shown) > 60:
            shown = shown[:60] + "…"
        raise FormatError(
            [
                f"{where}: gold entry {shown} must be 'SUBSTITUTE COUNT' "
                f"(a whole number, or a decimal weight such as 2.5; at most "
                f"{MAX_COUNT_DIGITS} digits)"
            ]
        )
    return substitute, count


def parse_rest_fixed(rest: str, where: str) -> _Rest:
    """The part after ``::`` read correctly: every entry kept (summed if repeated), only
    the entry ``pn`` taken as the proper-name marker, the mode a unique maximum."""
    counts: dict[str, Count] = {}
    for field in rest.split(";"):
        entry = " ".join(field.split())
        if not entry:
            continue
        key, count = gold_entry(entry, where, repr(field))
        if key == "pn":
            continue
        key = normalise(key)
        counts[key] = counts.get(key, 0) + count
    if sum(counts.values()) < 2:
        return _OUT_OF_T
    found = mode(counts.items())
    return _Rest(True, tuple(counts.items()), found, int(found is not None), False)


class GoldLineAsWritten(NamedTuple):
    """One line of a gold (or mwgold) file, entries as written: ``entries`` holds the
    responses (every entry but ``pn``, whole counts), ``names`` the count of ``pn``, and
    ``written`` every entry in file order, ``pn`` in its place (what the candidate-ranking
    benchmarks read: LexSubGen's ideal ranking follows the file's order)."""

    lexelt: str
    instance: str
    entries: tuple[tuple[str, int], ...]
    names: int
    line: int
    written: tuple[tuple[str, Count], ...] = ()


AS_WRITTEN = r"(\S+) (\S+) ::(?: (.*))?"
"""A gold line ``LEXELT ID :: ENTRIES`` (single spaces; nothing after ``::`` allowed)."""


def read_gold_as_written(
    lines: Sequence[str],
    name: str = "<gold>",
    *,
    weights: bool = False,
    check: Callable[[GoldLineAsWritten], str | None] | None = None,
) -> list[GoldLineAsWritten]:
    """Gold lines ``LEXELT ID :: sub count;…`` with substitutes exactly as written (a
    double space before the count leaves a trailing space on the substitute): what the
    splitter rebuilds responses from and the benchmarks rank against. Each entry is read
    by :func:`gold_entry`; a decimal weight is refused unless ``weights`` (then it stands
    in ``written`` only: a weight is no count of responses). ``check`` is the caller's
    further rule: the problem with a line (then left out), or None.

    :class:`FormatError` names every ``FILE:LINE``, the value and the rule broken: a line
    that is not ``LEXELT ID :: ENTRIES`` (a lexelt ``lemma.pos``), an entry that is not
    ``SUBSTITUTE COUNT``, a weight, a line ``check`` refuses.

    >>> [line.written for line in read_gold_as_written(["a.n 1 :: b 2;pn 1;c  1;"])]
    [(('b', 2), ('pn', 1), ('c ', 1))]
    """
    items = []
    problems = Problems()  # the first 20 kept, the rest counted
    for number, text in enumerate(lines, 1):
        text = text.rstrip("\r")
        if not text.strip():
            continue
        where = f"{name}:{number}"
        found = re.compile(AS_WRITTEN).fullmatch(text)
        if found is None or not LEXELT.fullmatch(found.group(1)):
            problems.add(
                f"{where}: {text[:60]!r} is not 'LEXELT ID :: SUBSTITUTE COUNT;…' "
                "(lexelt lemma.pos, single spaces)"
            )
            continue
        fields = [field for field in (found.group(3) or "").split(";") if field]
        try:
            written = tuple(gold_entry(field, where) for field in fields)
        except FormatError as error:
            problems.extend(error)
            continue
        weighted = [
            f for f, (_, count) in zip(fields, written, strict=True) if not isinstance(count, int)
        ]
        if weighted and not weights:
            problems.add(
                f"{where}: gold entry {weighted[0]!r} has a decimal weight; "
                "only whole counts of annotators can be read as responses"
            )
            continue
        whole = [(key, count) for key, count in written if isinstance(count, int)]
        item = GoldLineAsWritten(
            found.group(1),
            found.group(2),
            tuple(entry for entry in whole if entry[0] != "pn"),
            sum(count for key, count in whole if key == "pn"),
            number,
            written,
        )
        problem = check(item) if check is not None else None
        if problem:
            problems.add(f"{where}: {problem}")
            continue
        items.append(item)
    if problems:
        raise problems.error()
    return items


def compat_entries(fields: Iterable[str]) -> Iterator[tuple[str, Count]]:
    """score.pl's reading of gold entries (``readgoldfile`` and ``readmwfile``): each
    field matching its entry pattern, one apostrophe removed from the substitute, the
    count as Perl reads it; other fields (one-character, numeric) are dropped, a defect."""
    for field in fields:
        found = re.compile(ENTRY, re.ASCII).search(field)
        if found:
            yield found.group(1).replace("'", "", 1), perl_number(found.group(2))


def compat_first_count(fields: Sequence[str]) -> Count:
    """score.pl's count of a line's first entry (0 when it has none), which decides T."""
    found = re.compile(FIRST_COUNT, re.ASCII).search(fields[0]) if fields else None
    return perl_number(found.group(1)) if found else 0


def _item_gold(
    lexelt: str,
    entries: Iterable[tuple[str, Count]],
    mode: str | None,
    mode_delta: int,
    rules: Rules,
) -> ItemGold:
    counts: dict[str, Count] = {}
    for key, count in entries:
        counts[key] = count
    total = perl_sum(counts.values())
    norms = gold_norms(counts.items(), total, float) if total else {}
    return ItemGold(lexelt, tuple(counts.items()), total, norms, mode, mode_delta, rules)


N = TypeVar("N", float, "Fraction")


def gold_norms(
    counts: Iterable[tuple[str, Count]], total: Count, number: Callable[[Count], N]
) -> dict[str, N]:
    """Each answer form that earns credit → freq_res / |H_i| (McCarthy & Navigli 2007,
    eq. 1), in ``number`` (``float`` as score.pl divides, or ``Fraction``): every key, and a
    hyphenated key also with spaces (:func:`scoring.terms.fold`), as score.pl compares it.
    score.pl's result for a hyphen copy colliding with a real key depends on Perl's hash
    order; here the key as the annotators wrote it always wins.

    >>> gold_norms([("run-down", 3), ("tired", 1)], 4, float)
    {'run-down': 0.75, 'tired': 0.25, 'run down': 0.75}
    """
    entries = tuple(counts)
    whole = number(total)
    norms = {key: number(count) / whole for key, count in entries}
    for key, count in entries:
        if "-" in key:
            norms.setdefault(fold(key), number(count) / whole)
    return norms


def _plain_item(
    lexelt: str,
    entries: tuple[tuple[str, Count], ...],
    mode: str | None,
    mode_delta: int,
    rules: Rules,
) -> ItemGold:
    """:func:`_item_gold` of a plain line's entries (:func:`_plain_entries`: each key once,
    lower-case words without a hyphen, whole counts of 1 or more), in fewer steps: the
    counts are the entries, their total an integer sum while it fits Perl's unsigned
    integers (:func:`scoring.formats.perl.perl_sum` gives the same), no hyphen copy to add."""
    total = sum(count for _, count in entries)
    if total > UV_MAX:
        return _item_gold(lexelt, entries, mode, mode_delta, rules)
    whole = float(total)
    norms = {key: float(count) / whole for key, count in entries}
    return ItemGold(lexelt, entries, total, norms, mode, mode_delta, rules)


def _parsed_item(lexelt: str, parsed: _Rest, rules: Rules) -> ItemGold | None:
    """The item of a parsed line, or None when it is not in T; a plain line's at once
    (:func:`_plain_item`)."""
    if not parsed.in_t:
        return None
    build = _plain_item if parsed.plain else _item_gold
    mode = None if parsed.mode_deleted else parsed.mode
    return build(lexelt, parsed.entries, mode, parsed.mode_delta, rules)


def same_scoring(compat: ItemGold | None, fixed: ItemGold | None) -> bool:
    """Whether every answer scores the same against the two readings of an item."""
    if compat is None or fixed is None:
        return compat is fixed
    if compat.norms != fixed.norms or compat.total != fixed.total:
        return False
    compat_mode = compat.mode if perl_truthy(compat.mode) else None
    return compat_mode == fixed.mode and "-" not in (compat_mode or "")


class _Reader:
    """One set of rules' parse of a gold file, fed line by line (:meth:`add`) or chunk by
    chunk (:meth:`add_chunk`, then :meth:`finish`)."""

    def __init__(self, rules: Rules, name: str) -> None:
        self.rules = rules
        self.name = name
        self.items: dict[str, ItemGold] = {}
        self.total_items = 0
        self.total_modes = 0
        self._rests: dict[str, _Rest] = {}
        self._shared: dict[tuple[str, str], ItemGold | Literal[False]] = {}  # False: not in T
        self.new_keys: list[tuple[str, str]] = []
        self.outside: list[str] = []
        self._ids: list[str] = []
        self._values: list[ItemGold] = []

    def item_for(self, number: int, lexelt: str, rest: str) -> ItemGold | None:
        """The shared item of this (lexelt, rest), or None when it is not in T."""
        key = (lexelt, rest)
        if key in self._shared:
            return self._shared[key] or None
        item = _parsed_item(lexelt, self._parse(number, rest), self.rules)
        self._shared[key] = item or False
        return item

    def _parse(self, number: int, rest: str) -> _Rest:
        parsed = self._rests.get(rest)
        if parsed is None:
            parsed = (
                parse_rest_fixed(rest.rstrip("\r"), f"{self.name}:{number}")
                if self.rules == "fixed"
                else parse_rest_compat(rest)
            )
            self._rests[rest] = parsed
        return parsed

    def plain(self, rest: str) -> bool:
        """Whether a rest this reader has parsed reads alike under both rule sets."""
        return self._parse(0, rest).plain

    def add(self, number: int, lexelt: str, item_id: str, rest: str) -> ItemGold | None:
        item = self.item_for(number, lexelt, rest)
        if item is None:
            return None
        self.total_items += 1
        self.total_modes += item.mode_delta
        previous = self.items.get(item_id)
        if previous is not None:  # a repeated id: merged into the first line's item
            item = self._merge(previous, lexelt, self._parse(number, rest), item.mode_delta)
        self.items[item_id] = item
        return item

    def _merge(self, previous: ItemGold, lexelt: str, parsed: _Rest, delta: int) -> ItemGold:
        if self.rules == "fixed":  # counts summed, the mode found again
            counts = dict(previous.counts)
            for key, count in parsed.entries:
                counts[key] = counts.get(key, 0) + count
            return _item_gold(lexelt, counts.items(), mode(counts.items()), 0, "fixed")
        # score.pl: later counts overwrite, the mode is set or deleted by the later line
        kept = previous.mode
        if parsed.mode is not None:
            kept = parsed.mode
        if parsed.mode_deleted:
            kept = None
        return _item_gold(lexelt, previous.counts + parsed.entries, kept, delta, "compat")

    def item_at(
        self, found: list[tuple[str, str, str, str]], first: int, key: tuple[str, str]
    ) -> ItemGold | None:
        """:meth:`item_for` of a (lexelt, rest) of the chunk ``found`` (whose first line is
        ``first``); a line that breaks the rules is named by its own number (looked for
        only then: the usual chunk parses at C speed)."""
        try:
            return self.item_for(first, *key)
        except FormatError:
            for number, row in enumerate(found, first):
                if (row[0], row[2]) == key:
                    return self.item_for(number, *key)  # raises, naming the line
            raise

    def add_chunk(self, first: int, found: list[tuple[str, str, str, str]]) -> None:
        """Add a chunk of rows (see :func:`scoring.formats.lines.iter_chunks`), C-level: the items
        are collected and put in :attr:`items` by :meth:`finish`. The (lexelt, rest) keys
        this chunk saw first whose rest is not plain (:func:`_plain_entries`: the two rule
        sets may read it differently) are left in :attr:`new_keys`; the ids of lines out of
        T are added to :attr:`outside`."""
        lexelts = list(map(_lexelt_of, found))
        rows = found if all(lexelts) else list(compress(found, lexelts))
        keys = list(map(_key_of, rows))
        shared = self._shared
        values = list(map(shared.get, keys))  # None: a key not seen yet
        self.new_keys = []
        if any(map(_is_none, values)):
            self.new_keys = list(dict.fromkeys(compress(keys, map(_is_none, values))))
            if self.rules == "compat":
                self.new_keys = self._add_plain(self.new_keys)
            for key in self.new_keys:
                self.item_at(found, first, key)
            values = list(map(shared.__getitem__, keys))
        ids = list(map(_id_of, rows))
        if not all(values):  # False: out of T (an ItemGold is always true)
            self.outside += compress(ids, map(not_, values))
            ids = list(compress(ids, values))
            values = list(compress(values, values))
        self._ids += ids
        self._values += values  # type: ignore[arg-type]  # only items are left: no False
        self.total_items += len(values)
        self.total_modes += sum(map(_mode_delta_of, values))

    def _add_plain(self, keys: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """The shared items of the new ``keys`` whose rest is plain (:func:`_plain_entries`),
        made in one loop (most lines of a task's gold): what :meth:`item_for` makes of
        them, without its parse cache and calls a line. The other keys are returned, for
        :meth:`item_at`."""
        shared = self._shared
        others = []
        for key in keys:
            plain = _plain_entries(key[1])
            if plain is None:
                others.append(key)
            else:
                shared[key] = _parsed_item(key[0], _plain_rest(plain), "compat") or False
        return others

    def finish(self) -> bool:
        """Put the items collected by :meth:`add_chunk` in :attr:`items`; False when an
        id has two lines in T (they must be merged line by line: read again with
        :meth:`add`)."""
        self.items.update(zip(self._ids, self._values, strict=True))
        merged = len(self.items) == len(self._ids)
        self._ids, self._values = [], []
        return merged

    def add_lines(self, text: str) -> None:
        """Add every line of ``text`` one at a time, in order (repeated ids merged)."""
        for first, found in iter_chunks(text, "gold", unicode=self.rules == "fixed"):
            for number, row in enumerate(found, first):
                if row[0]:
                    self.add(number, row[0], row[1], row[2])

    def gold(self) -> Gold:
        if self.rules == "fixed":  # a repeated id is one item
            modes = sum(1 for item in self.items.values() if item.mode is not None)
            return Gold(self.rules, self.items, len(self.items), modes)
        return Gold(self.rules, self.items, self.total_items, self.total_modes)


_PLAIN = r"(?:[a-z]++(?: [a-z]++)*+ [1-9][0-9]{0,17};)++"
"""A line of plain entries (possessive: a word is never given back, which could not help
the count after it match, and the check does not record places to backtrack to)."""


def _plain_entries(rest: str) -> list[tuple[str, int]] | None:
    """The entries of a gold line both rule sets read alike, else None: lower-case words,
    single spaces, keys of two characters or more, each once, counts in descending order,
    no ``pn`` (most of the task's own lines)."""
    if "pn" in rest or re.compile(_PLAIN).fullmatch(rest) is None:
        return None
    entries = [(key, int(count)) for key, _, count in map(_last_space, rest[:-1].split(";"))]
    counts = [count for _, count in entries]
    keys = [key for key, _ in entries]
    if (
        counts == sorted(counts, reverse=True)
        and len(set(keys)) == len(keys)
        and min(map(len, keys)) > 1  # score.pl drops one-character keys
    ):
        return entries
    return None


_last_space = methodcaller("rpartition", " ")


def read_gold(
    source: str | Sequence[str], rules: GoldRules = "compat", name: str = "<gold>"
) -> Gold:
    """The gold reader: a gold file's text (or lines) read under ``rules``.

    ``compat`` reads as score.pl does (lines that do not look like gold lines are ignored,
    as it ignores them); ``fixed`` corrects its defects; ``strict`` first refuses the file
    when any line breaks the format (:class:`FormatError` naming every ``FILE:LINE``, the
    value and the rule), then reads it under the fixed rules (``Gold.rules`` is then
    ``"fixed"``).
    """
    if rules == "strict":
        parse_gold_lines(source if not isinstance(source, str) else split_lines(source), name)
        rules = "fixed"
    text = as_text(source)
    reader = _Reader(rules, name)
    for first, found in iter_chunks(text, "gold", unicode=rules == "fixed"):
        reader.add_chunk(first, found)
    if not reader.finish():  # an id on two lines in T: merged line by line
        reader = _Reader(rules, name)
        reader.add_lines(text)
    return reader.gold()


def _read_pair_whole(text: str, name: str) -> tuple[Gold, Gold, set[str]]:
    """:func:`read_gold_pair` for a text with non-ASCII characters, which the two rule
    sets may split into lexelt and id differently: two whole readings, and the ids whose
    items differ or that are repeated."""
    compat = read_gold(text, "compat", name)
    fixed = read_gold(text, "fixed", name)
    lines = Counter(
        row[1] for _first, found in iter_chunks(text, "gold", unicode=True) for row in found
    )
    differ = {item_id for item_id, n in lines.items() if n > 1 and item_id}
    for item_id in compat.items.keys() | fixed.items.keys():
        one, two = compat.items.get(item_id), fixed.items.get(item_id)
        if not same_scoring(one, two) or (one and two and one.lexelt != two.lexelt):
            differ.add(item_id)
    return compat, fixed, differ


def read_gold_pair(
    source: str | Sequence[str], name: str = "<gold>"
) -> tuple[Gold, Gold, set[str]]:
    """Both readings of a gold file, and the ids they may score differently (the two
    readings of the line differ, or the id is repeated).

    The fixed reading shares the compat items wherever the two score alike, so it costs
    only the lines that differ, replayed through a fixed reader. Raises
    :class:`FormatError` when the fixed rules cannot read a line.
    """
    text = as_text(source)
    if not text.isascii():
        return _read_pair_whole(text, name)
    compat = _Reader("compat", name)
    probe = _Reader("fixed", name)
    unlike: set[tuple[str, str]] = set()
    unlike_rests: set[str] = set()
    replay: list[tuple[int, tuple[str, str, str, str]]] = []
    for first, found in iter_chunks(text, "gold"):
        compat.add_chunk(first, found)
        for key in compat.new_keys:
            if not compat.plain(key[1]) and not same_scoring(
                compat.item_for(first, *key), probe.item_at(found, first, key)
            ):
                unlike.add(key)
                unlike_rests.add(key[1])
        if unlike:  # by the rest first: its hash is known, no key or pair is built
            candidates = map(unlike_rests.__contains__, map(_rest_of, found))
            replay += [
                (first + index, found[index])
                for index in compress(range(len(found)), candidates)
                if _key_of(found[index]) in unlike
            ]
    # an id on two lines, in T or not: the readings may merge it differently
    if compat.finish():  # no id on two lines in T: look at the lines out of T only
        outside = compat.outside
        repeated = {item_id for item_id, n in Counter(outside).items() if n > 1}
        repeated.update(filter(compat.items.__contains__, outside))
    else:
        lines = Counter(
            row[1] for _first, found in iter_chunks(text, "gold") for row in found if row[0]
        )
        repeated = {item_id for item_id, n in lines.items() if n > 1}
        compat = _Reader("compat", name)
        compat.add_lines(text)
    if repeated:  # every line of a repeated id, in file order
        replay = [
            (number, row)
            for first, found in iter_chunks(text, "gold")
            for number, row in enumerate(found, first)
            if row[0] and (row[1] in repeated or (row[0], row[2]) in unlike)
        ]
    fixed = probe  # the fixed reader that parsed the unlike lines: each parse kept
    for number, (lexelt, item_id, rest, _) in replay:
        fixed.add(number, lexelt, item_id, rest)
    differ = repeated | {row[1] for _, row in replay}
    items = compat.items.copy()
    for item_id in differ:
        items.pop(item_id, None)
    items.update(fixed.items)
    modes = sum(map(bool, map(_mode_of, items.values())))
    return compat.gold(), Gold("fixed", items, len(items), modes), differ


def read_readings(
    source: str | Sequence[str], rules: Rules, reading: Rules, name: str = "<gold>"
) -> tuple[Gold, Gold]:
    """The gold read for the official measures (under ``rules``) and for the revised and
    ranking measures (under ``reading``; the same object when the rules are the same),
    in one pass where the two differ (:func:`read_gold_pair`)."""
    if rules == reading:
        gold = read_gold(source, rules, name)
        return gold, gold
    compat, fixed, _differ = read_gold_pair(source, name)
    return (compat, fixed) if rules == "compat" else (fixed, compat)


# --- typed lines, read strictly and written back -----------------------------------------


class GoldEntry:
    """One substitute of a gold line and how many annotators gave it (a plain immutable
    class: a NamedTuple's ``count`` would hide ``tuple.count``)."""

    __slots__ = ("count", "substitute")

    substitute: str
    count: Count
    """Annotators who gave it, or a decimal weight (SemDis 2014's averaged scores)."""

    def __init__(self, substitute: str, count: Count) -> None:
        object.__setattr__(self, "substitute", substitute)
        object.__setattr__(self, "count", count)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a GoldEntry is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a GoldEntry is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not GoldEntry:
            return NotImplemented
        return (self.substitute, self.count) == (other.substitute, other.count)

    def __hash__(self) -> int:
        return hash((self.substitute, self.count))

    def __reduce__(self) -> tuple[type[GoldEntry], tuple[str, Count]]:
        return GoldEntry, (self.substitute, self.count)

    def __repr__(self) -> str:
        return f"GoldEntry(substitute={self.substitute!r}, count={self.count!r})"


class GoldLine(NamedTuple):
    """One line of a gold or mwgold file, as the strict reader returns it."""

    lexelt: str
    id: str
    entries: tuple[GoldEntry, ...]
    line: int = 0

    @property
    def pos(self) -> str:
        return pos_of(self.lexelt)


def parse_gold_line(text: str, line: int = 0, name: str = "<gold>") -> GoldLine:
    """Parse one gold or mwgold line strictly; raise :class:`FormatError` naming the rule."""
    where = f"{name}:{line}"
    if text.endswith("\r"):
        text = text[:-1]
    head = split_head(text, "::")
    if isinstance(head, str):
        raise FormatError([f"{where}: {head}"])
    lexelt, item_id, rest = head
    entries: list[GoldEntry] = []
    seen: set[str] = set()
    for field in fields(rest):
        substitute, space, count = field.rpartition(" ")
        if not space or not re.compile(WEIGHT).fullmatch(count) or not float(count) > 0:
            raise FormatError(
                [
                    f"{where}: entry {field!r} must be 'SUBSTITUTE COUNT' with a count of 1 "
                    "or more, or a decimal weight above 0 (such as 2.5)"
                ]
            )
        if substitute != substitute.strip() or "  " in substitute or not substitute:
            raise FormatError(
                [f"{where}: substitute {substitute!r} must be non-empty, single-spaced, trimmed"]
            )
        if substitute in seen:
            raise FormatError([f"{where}: substitute {substitute!r} is listed twice"])
        seen.add(substitute)
        entries.append(GoldEntry(substitute, int(count) if count.isdigit() else float(count)))
    return GoldLine(lexelt, item_id, tuple(entries), line)


def parse_gold_lines(lines: Sequence[str], name: str = "<gold>") -> tuple[GoldLine, ...]:
    """Parse gold or mwgold lines strictly: every problem is reported, nothing is skipped
    (what :func:`read_gold` checks under ``rules="strict"``)."""
    return parse_all(lines, name, parse_gold_line, "ids must be unique")


def parse_gold(text: str, name: str = "<gold>") -> tuple[GoldLine, ...]:
    """:func:`parse_gold_lines` of a whole text."""
    return parse_gold_lines(split_lines(text), name)


def read_gold_lines(path: str | os.PathLike[str]) -> tuple[GoldLine, ...]:
    """Read a gold or mwgold file's lines strictly (:func:`parse_gold_lines`)."""
    return parse_gold_lines(read_lines(path), str(path))


def format_gold_line(gold: GoldLine) -> str:
    """The task's gold line: ``lexelt id :: sub count;sub count;`` (trailing ``;``)."""
    entries = "".join(f"{e.substitute} {e.count};" for e in gold.entries)
    return f"{gold.lexelt} {gold.id} :: {entries}"


def format_gold(lines: Iterable[GoldLine]) -> str:
    """A gold file's text: :func:`format_gold_line` of each line, each ending ``\\n``."""
    return "".join(format_gold_line(line) + "\n" for line in lines)


# --- the mwgold as score.pl reads it -----------------------------------------------------

_MW_GOLD_LINE = r"(?<![\w.])([\w.]++)\s++(\d++)\s*+:: (.*)"
"""score.pl's mwgold line pattern, ``([\\w.]+)\\s+(\\d+)\\s*:: (.*)`` (``\\s`` may not cross
lines: it runs line by line), written to be searched in linear time with the same match
(:data:`scoring.formats.lines.LINEAR` says how)."""


def read_mwgold_lines(
    lines: Sequence[str], gold_name: str, log: list[str]
) -> tuple[dict[str, str], int]:
    """score.pl's ``readmwfile``: the multiword "mode" of each item given by two or more
    annotators, and how many there are. Malformed lines are reported into ``log``."""
    modes: dict[str, str] = {}
    total_modes = 0
    for number, line in enumerate(lines, 1):
        found = re.compile(_MW_GOLD_LINE, re.ASCII).search(line)
        if found is None:
            if NONSPACE.search(line):
                log.append(f"Error in {gold_name} on line {number}")
            continue
        _lexelt, item_id, rest = found.groups()
        fields = perl_split(rest)
        if not compat_first_count(fields) > 1:
            continue
        mode: str | None = None
        mode_count: int | float = 0
        deleted = False
        for multiword, count in compat_entries(fields):
            if not perl_truthy(mode) and count > 1:
                mode, mode_count = multiword, count
                modes[item_id] = mode
                total_modes += 1
            elif not deleted and perl_truthy(mode) and perl_eq(count, mode_count):
                modes.pop(item_id, None)
                total_modes -= 1
                deleted = True
    return modes, total_modes
