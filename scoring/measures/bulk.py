"""The gold and the answers as the leaderboard's families read them in bulk, and the numpy
helpers their bulk routes share (:mod:`scoring.measures`).

A family lists, for the items it can credit, the terms it reads (the guesses, A_i, the
ranked candidates best first) as one flat array of their freq_i (:func:`terms_of`), item
after item; numerators are then sums over each item's terms. Every sum is added term by
term from the first, as the exact functions of :mod:`scoring.measures.revised.items` and
:mod:`scoring.measures.ranking.items` add them (:func:`running`), so each float equals what those
functions give on float frequencies, bit for bit (tests/test_measures.py checks it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import repeat
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from scoring.measures.revised import items as revised
from scoring.types import Rules

if TYPE_CHECKING:
    from scoring.formats import ranked
    from scoring.formats.gold import Gold, ItemGold

Array = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class GoldItem:
    """One gold item as every measure reads it: the item under the gold's rules (the
    official measures; None when that reading leaves it out of T) and whether it has a
    mode there, and freq_i as floats under the measures' reading (the revised and
    ranking measures), computed once."""

    id: str
    lexelt: str
    item: ItemGold | None
    rules: Rules
    has_mode: bool
    frequencies: revised.Frequencies | None
    """None when the measures' reading leaves the item out of T, or keeps it in T with no
    entry left (score.pl's rules drop one-character entries and entries containing
    ``pn``, yet count the line in T): no answer can earn credit on it, so the revised
    measures score it 0 and the ranking measures leave it out as undefined, as the
    official measures score it 0."""
    measured: bool = True
    """Whether the measures' reading has the item in T (the revised measures' |T|)."""


def gold_items(gold: Gold, reading: Gold | None = None) -> tuple[GoldItem, ...]:
    """The items of ``gold`` (the official reading) and of ``reading`` (the revised and
    ranking measures' reading; ``gold`` itself when None), in the gold's order, then the
    items only ``reading`` has in T; ValueError naming an item whose counts cannot give
    frequencies."""
    reading = gold if reading is None else reading
    modes = gold.modes
    ids = list(gold.items)
    if reading is not gold:
        ids += [item_id for item_id in reading.items if item_id not in gold.items]
    result = []
    for item_id in ids:
        item = gold.items.get(item_id)
        measured = reading.items.get(item_id)
        frequencies: revised.Frequencies | None = None
        if measured is not None and measured.counts:  # entries all 0: refused, item named
            try:
                frequencies = revised.frequencies(measured, exact=False)
            except ValueError as error:
                raise ValueError(f"gold item {measured.lexelt} {item_id}: {error}") from error
        lexelt = item.lexelt if item is not None else measured.lexelt if measured else ""
        result.append(
            GoldItem(
                item_id,
                lexelt,
                item,
                gold.rules,
                item_id in modes,
                frequencies,
                measured is not None,
            )
        )
    return tuple(result)


class Answers(NamedTuple):
    """What a system gave for one gold item, as each family of measures reads it.

    ``official``: the guesses the official scan scored (split by the gold's rules, cut to
    10 for oot; under compat an empty answer scores the previous line's guesses, and
    ``fresh`` is then False: the item is not attempted). ``guesses``: the item's first
    answer line split and normalised by the measures' reading (:func:`split_answer`).
    ``ranking``: a ranked file's candidates, normalised the same way; without them the
    ranking measures read ``guesses`` in file order (an oot file's ranking,
    :func:`scoring.formats.ranked.as_ranking`). ``outcome``: the scan's score of ``official``.
    (A named tuple, as the scan's :class:`scoring.measures.official.items.ItemScore`: one is made
    for
    every item a file answers.)
    """

    official: tuple[str, ...] = ()
    fresh: bool = True
    guesses: tuple[str, ...] = ()
    ranking: tuple[ranked.Scored, ...] = ()
    outcome: tuple[float, bool, bool] | None = None
    """What the official scan made of ``official``: (score, mode attempted, mode
    correct), as :func:`scoring.measures.official.items.score_item` gives them; None: not scanned
    (the
    official family then scores the guesses itself)."""


NO_ANSWER = Answers()


@dataclass(frozen=True)
class GoldTable:
    """The gold side of the bulk rows, one entry per gold item (in ``items``' order),
    computed once per gold and shared by every system scored against it
    (:func:`gold_table`): what the official measures read (whether the item is in T,
    whether it has a mode) and what the revised and ranking measures read (freq_i, |H_i|^i,
    maxfreq_i, rank's cum_H(1..10), the relevant substitutes R and GAP's normaliser; 0
    where the item has no frequencies)."""

    items: tuple[GoldItem, ...]
    ids: tuple[str, ...] = field(repr=False)
    lexelts: tuple[str, ...] = field(repr=False)
    counts: tuple[dict[str, revised.Number] | None, ...] = field(repr=False)
    in_t: Array = field(repr=False)
    has_mode: Array = field(repr=False)
    measured: Array = field(repr=False)
    total: Array = field(repr=False)
    maxfreq: Array = field(repr=False)
    ideal_cumulative: Array = field(repr=False)  # (items, RANK_POSITIONS)
    relevant: Array = field(repr=False)
    gap_normaliser: Array = field(repr=False)

    def __len__(self) -> int:
        return len(self.items)


def gold_table(items: Sequence[GoldItem]) -> GoldTable:
    """The :class:`GoldTable` of ``items``. Each item's ideal figures are added in the
    order of the exact functions' helpers, :func:`scoring.measures.revised.items.ideal_cumulative`
    and
    :func:`scoring.measures.ranking.items.gap_normaliser` (its counts largest first), so the bulk
    rows
    divide by the same floats."""
    counts = tuple(None if item.frequencies is None else item.frequencies.counts for item in items)
    have = np.array([j for j, found in enumerate(counts) if found is not None], dtype=np.int64)
    known = [found for found in counts if found is not None]
    size = len(items)
    total, maxfreq = np.zeros(size), np.zeros(size)
    relevant, normaliser = np.zeros(size), np.zeros(size)
    cumulative = np.zeros((size, revised.RANK_POSITIONS))
    if len(have):
        frequencies = [item.frequencies for item in items if item.frequencies is not None]
        total[have] = [freqs.total for freqs in frequencies]
        maxfreq[have] = [freqs.maxfreq for freqs in frequencies]
        lengths = np.array([len(found) for found in known], dtype=np.int64)
        values = np.array([value for found in known for value in found.values()])
        segment = np.repeat(np.arange(len(have)), lengths)
        ideal = Terms(have, lengths, values[np.lexsort((-values, segment))])
        ideal_running = running(ideal.weights, lengths)  # cum_H(j), the total past H_i
        positions = np.arange(revised.RANK_POSITIONS)
        last = np.minimum(positions[None, :], lengths[:, None] - 1)
        cumulative[have] = ideal_running[ideal.starts[:, None] + last]
        positive = ideal.weights > 0  # R, and GAP's Σ_j ȳ_j over them, largest first
        relevant[have] = ideal.count(positive)
        means = np.where(positive, ideal_running / (ideal.place + 1), 0.0)
        normaliser[have] = segment_sums(means, ideal)
    in_t = np.array([gold_item.item is not None for gold_item in items], dtype=np.float64)
    return GoldTable(
        tuple(items),
        tuple(gold_item.id for gold_item in items),
        tuple(gold_item.lexelt for gold_item in items),
        counts,
        in_t,
        in_t * np.array([gold_item.has_mode for gold_item in items], dtype=np.float64),
        np.array([gold_item.measured for gold_item in items], dtype=np.float64),
        total,
        maxfreq,
        cumulative,
        relevant,
        normaliser,
    )


class Given:
    """What a system gives the items of ``table``: ``answers[j]`` for item j, and what
    more than one family reads of them, computed once: each item's answer set A_i
    (:func:`scoring.measures.revised.items.answer_set`) and its terms (:func:`terms_of`)."""

    def __init__(self, table: GoldTable, answers: Sequence[Answers]) -> None:
        self.table = table
        self.answers = answers

    @cached_property
    def sets(self) -> list[list[str]]:
        """A_i of each item: its first answer line's guesses, each once."""
        return [revised.answer_set(given.guesses) for given in self.answers]

    @cached_property
    def set_terms(self) -> Terms:
        """The terms of :attr:`sets`."""
        return terms_of(self.table, self.sets)


@dataclass(frozen=True)
class Terms:
    """Flat terms: ``rows[s]`` is the gold item of segment s, ``lengths[s]`` its number of
    terms (at least 1), ``weights`` each term's freq_i (0 outside H_i), segment after
    segment; ``starts``/``ends`` where each segment begins and ends (exclusive),
    ``segment`` each term's segment and ``place`` its 0-based place there."""

    rows: IntArray
    lengths: IntArray
    weights: Array
    ends: IntArray = field(init=False)
    starts: IntArray = field(init=False)
    segment: IntArray = field(init=False)
    place: IntArray = field(init=False)

    def __post_init__(self) -> None:
        ends = np.cumsum(self.lengths)
        starts = ends - self.lengths
        segment = np.repeat(np.arange(len(self.lengths)), self.lengths)
        object.__setattr__(self, "ends", ends)
        object.__setattr__(self, "starts", starts)
        object.__setattr__(self, "segment", segment)
        object.__setattr__(self, "place", np.arange(len(self.weights)) - starts[segment])

    def count(self, flags: npt.NDArray[np.bool_]) -> IntArray:
        """How many terms of each segment have ``flags``."""
        return np.bincount(self.segment[flags], minlength=len(self.rows))

    def head(self, size: int) -> Terms:
        """Each segment's first ``size`` terms (what :func:`terms_of` gives each item's terms
        cut to ``size``)."""
        if not len(self.lengths) or self.lengths.max() <= size:
            return self
        return Terms(self.rows, np.minimum(self.lengths, size), self.weights[self.place < size])


def terms_of(table: GoldTable, lists: Sequence[Sequence[str]]) -> Terms:
    """The items of ``table`` with frequencies and at least one term in ``lists`` (item j's
    terms in ``lists[j]``), and the freq_i of their terms."""
    rows: list[int] = []
    lengths: list[int] = []
    weights: list[revised.Number] = []
    outside = repeat(0.0)  # freq_i of a term outside H_i
    for j, (found, counts) in enumerate(zip(lists, table.counts, strict=True)):
        if found and counts is not None:
            rows.append(j)
            lengths.append(len(found))
            weights += map(counts.get, found, outside)
    return Terms(
        np.array(rows, dtype=np.int64),
        np.array(lengths, dtype=np.int64),
        np.array(weights, dtype=np.float64),
    )


def running(values: Array, lengths: IntArray) -> Array:
    """Running sums within consecutive segments of ``values`` (of ``lengths``, each at
    least 1): the i-th of a segment is its first i values added left to right, as a Python
    loop adds them (numpy's sum adds pairwise, which can differ in the last bit). One step
    per place, over the segments that long."""
    out = values.copy()
    if not len(lengths):
        return out
    order = np.argsort(-lengths, kind="stable")
    starts = (np.cumsum(lengths) - lengths)[order]
    longest_first = -lengths[order]  # ascending
    for place in range(1, int(-longest_first[0])):
        active = starts[: np.searchsorted(longest_first, -place, side="left")] + place
        out[active] = out[active - 1] + values[active]
    return out


def segment_sums(values: Array, terms: Terms) -> Array:
    """Each segment's values added left to right (:func:`running`)."""
    return running(values, terms.lengths)[terms.ends - 1]


def exact_frequencies(gold_item: GoldItem) -> revised.Frequencies | None:
    """freq_i of the item in Fractions (its counts are whole numbers, exact as floats);
    None where it has none."""
    from fractions import Fraction

    found = gold_item.frequencies
    if found is None:
        return None
    counts: dict[str, revised.Number] = {
        key: Fraction(value) for key, value in found.counts.items()
    }
    return revised.Frequencies(counts, Fraction(found.total), Fraction(found.maxfreq), found.rules)
