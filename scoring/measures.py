"""The leaderboard's rows: each system's columns of
sufficient statistics per gold item, which the leaderboard's registered measures
(:data:`scoring.registry.LEADERBOARD`) sum and divide. Every one of them is a ratio of
two column sums over the gold items: best P is Σ score / Σ attempted, new best R is
Σ new_best / Σ item, GAP is Σ gap / Σ relevant. So a corpus figure, a figure by PoS (the
rows of one PoS) and a resample (rows drawn by lemma) are computed the same way, and
numerator and denominator are resampled together. The command lines
(:mod:`scoring.compare`), the leaderboard (:mod:`scoring.leaderboard`) and the
organiser's scores page all read these rows through the registry.

The columns come from a few families, each computed for every gold item at once
(:data:`FAMILIES`; numpy over the flat list of every item's terms, the sums added in the
exact functions' order, so bit for bit the same floats): the official measures
(:func:`scoring.official.score_item`, under the gold's rules), the revised best and oot
measures (:mod:`scoring.revised`) and the ranking measures (:mod:`scoring.ranking`). The
official family reads the guesses the official scan scored
(:func:`scoring.official.score_system`: score.pl's rules, stale answers included); the
others read each item's first answer line split by the fixed rules (trimmed, hyphens as
spaces). Which families score a system file depends on its kind, told apart by its first
answer line (:func:`detect_kind`; the measures of each kind are listed in
:mod:`scoring.registry`). For weighted recall, weighted precision and rank, A_i is the
set of the first answer line's guesses (:func:`scoring.revised.answer_set`), cut to ten
as oot cuts them. Ranked candidates are folded as gold keys are
(:func:`scoring.ranking.folded`), whatever the kind of file.

The exact functions of :mod:`scoring.revised` and :mod:`scoring.ranking` (Fractions) are
the test oracle of every leaderboard measure (``tests/test_measures.py``).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import repeat
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from scoring import ranking, revised
from scoring.formats import ranked
from scoring.formats.gold import Gold, ItemGold
from scoring.lines import HYPHENS, OTHER, PLAIN, answer_kinds, iter_chunks
from scoring.official import OOT_GUESSES, guesses_fixed, score_item, score_system
from scoring.registry import MEASURES, OFFICIAL_COLUMNS, measure_def
from scoring.terms import answer_key
from scoring.types import Rules, SystemKind, Task, pos_of

Array = npt.NDArray[np.float64]
Row = tuple[float, ...]


@dataclass(frozen=True)
class Settings:
    """What changes a number, beyond the files: all of it goes into the signatures."""

    measures: tuple[str, ...] | None = None  # None: every measure that applies
    by_pos: bool = False
    significance: bool = False
    k: float = 1.0
    resamples: int = 1000
    trials: int = 1000
    seed: int = 12345
    confidence: float = 0.95
    analyses: bool = False
    workers: int = 1  # processes scoring the systems (the figures do not depend on it)


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
    (A named tuple, as the scan's :class:`scoring.official.ItemScore`: one is made for
    every item a file answers.)
    """

    official: tuple[str, ...] = ()
    fresh: bool = True
    guesses: tuple[str, ...] = ()
    ranking: tuple[ranked.Scored, ...] = ()
    outcome: tuple[float, bool, bool] | None = None
    """What the official scan made of ``official``: (score, mode attempted, mode
    correct), as :func:`scoring.official.score_item` gives them; None: not scanned (the
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
    order of the exact functions' helpers, :func:`scoring.revised.ideal_cumulative` and
    :func:`scoring.ranking.gap_normaliser` (its counts largest first), so the bulk rows
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
        ideal = _Terms(have, lengths, values[np.lexsort((-values, segment))])
        running = _running(ideal.weights, lengths)  # cum_H(j), the total past H_i
        positions = np.arange(revised.RANK_POSITIONS)
        last = np.minimum(positions[None, :], lengths[:, None] - 1)
        cumulative[have] = running[ideal.starts[:, None] + last]
        positive = ideal.weights > 0  # R, and GAP's Σ_j ȳ_j over them, largest first
        relevant[have] = ideal.count(positive)
        means = np.where(positive, running / (ideal.place + 1), 0.0)
        normaliser[have] = _segment_sums(means, ideal)
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
    (:func:`scoring.revised.answer_set`) and its terms (:func:`_terms`)."""

    def __init__(self, table: GoldTable, answers: Sequence[Answers]) -> None:
        self.table = table
        self.answers = answers

    @cached_property
    def sets(self) -> list[list[str]]:
        """A_i of each item: its first answer line's guesses, each once."""
        return [revised.answer_set(given.guesses) for given in self.answers]

    @cached_property
    def set_terms(self) -> _Terms:
        """The terms of :attr:`sets`."""
        return _terms(self.table, self.sets)


Rows = Callable[[Given, float], Array]


@dataclass(frozen=True)
class Family:
    """Columns computed together for every gold item at once: ``rows(given, k)`` is the
    (items, columns) array of the items of ``given.table`` given ``given.answers[j]`` for
    item j; :meth:`row` is the same computation on one item."""

    name: str
    columns: tuple[str, ...]
    rows: Rows

    def row(self, gold_item: GoldItem, answers: Answers, k: float) -> Row:
        """One item's columns: :attr:`rows` on that item alone."""
        return tuple(self.rows(Given(gold_table((gold_item,)), (answers,)), k)[0].tolist())


# --- the families, in bulk -----------------------------------------------------------------
#
# Each family lists, for the items it can credit, the terms it reads (the guesses, A_i, the
# ranked candidates best first) as one flat array of their freq_i (:func:`_terms`), item
# after item; numerators are then sums over each item's terms. Every sum is added term by
# term from the first, as the exact functions of scoring.revised and scoring.ranking add
# them (:func:`_running`), so each float equals what those functions give on float
# frequencies, bit for bit (tests/test_measures.py checks it).

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Terms:
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

    def head(self, size: int) -> _Terms:
        """Each segment's first ``size`` terms (what :func:`_terms` gives each item's terms
        cut to ``size``)."""
        if not len(self.lengths) or self.lengths.max() <= size:
            return self
        return _Terms(self.rows, np.minimum(self.lengths, size), self.weights[self.place < size])


def _terms(table: GoldTable, terms: Sequence[Sequence[str]]) -> _Terms:
    """The items with frequencies and at least one term, and the freq_i of their terms."""
    rows: list[int] = []
    lengths: list[int] = []
    weights: list[revised.Number] = []
    outside = repeat(0.0)  # freq_i of a term outside H_i
    for j, (found, counts) in enumerate(zip(terms, table.counts, strict=True)):
        if found and counts is not None:
            rows.append(j)
            lengths.append(len(found))
            weights += map(counts.get, found, outside)
    return _Terms(
        np.array(rows, dtype=np.int64),
        np.array(lengths, dtype=np.int64),
        np.array(weights, dtype=np.float64),
    )


def _running(values: Array, lengths: IntArray) -> Array:
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


def _segment_sums(values: Array, terms: _Terms) -> Array:
    """Each segment's values added left to right (:func:`_running`)."""
    return _running(values, terms.lengths)[terms.ends - 1]


def _official(task: Task) -> Rows:
    def rows(given: Given, k: float) -> Array:
        """best or oot (McCarthy & Navigli 2007, eq. 1-8) by :func:`scoring.official.score_item` for
        each answered item in T: item, score, attempted, mode_attempted, mode_correct,
        has_mode. score.pl skips an item no answer can earn credit on (it scores 0)."""
        table = given.table
        out = np.zeros((len(table), len(OFFICIAL_COLUMNS)))
        out[:, 0] = table.in_t
        out[:, 5] = table.has_mode
        found: list[tuple[int, float, bool, bool, bool]] = []
        for j, (gold_item, answers) in enumerate(zip(table.items, given.answers, strict=True)):
            guesses = answers.official
            item = gold_item.item
            if guesses and item is not None and item.total:
                if answers.outcome is not None:  # the scan scored them (score_item's floats)
                    score, tried, right = answers.outcome
                else:
                    _credit, score, tried, right = score_item(task, gold_item.rules, item, guesses)
                found.append((j, score, answers.fresh, tried, right))
        if found:
            values = np.array(found, dtype=np.float64)
            out[values[:, 0].astype(np.int64), 1:5] = values[:, 1:]
        return out

    return rows


def _revised_best(given: Given, k: float) -> Array:
    """new best and best-1 (Jabbari et al. 2010) of the first answer line, as
    :func:`scoring.revised.new_best` and :func:`scoring.revised.best_1` (a repeated guess
    counted again); answered; measured."""
    table = given.table
    terms = _terms(table, [answers.guesses for answers in given.answers])
    out = np.zeros((len(table), 4))
    maxfreq = table.maxfreq[terms.rows]
    credit = _segment_sums(terms.weights, terms)
    out[terms.rows, 0] = credit / (maxfreq * terms.lengths)
    out[terms.rows, 1] = terms.weights[terms.starts] / maxfreq
    out[terms.rows, 2] = 1.0
    out[:, 3] = table.measured
    return out


def _revised_oot(given: Given, k: float) -> Array:
    """weighted recall, weighted precision (penalty k) and rank (Jabbari et al. 2010) of A_i, the
    first answer line's distinct guesses cut to ten, as oot cuts them
    (:func:`scoring.revised.weighted_recall`, :func:`~scoring.revised.weighted_precision`,
    :func:`~scoring.revised.rank`); answered; measured."""
    if k <= 0:
        raise ValueError(f"penalty k = {k}; k must be > 0")
    table = given.table
    terms = given.set_terms.head(OOT_GUESSES)
    out = np.zeros((len(table), 5))
    running = _running(terms.weights, terms.lengths)
    credit = running[terms.ends - 1]
    wrong = terms.count(terms.weights == 0)
    out[terms.rows, 0] = credit / table.total[terms.rows]
    out[terms.rows, 1] = credit / (credit + k * wrong)
    # rank: cum_A(j) / cum_H(j) over j = 1..10, cum_A constant past the last guess
    positions = np.arange(revised.RANK_POSITIONS)
    last = np.minimum(positions[None, :], terms.lengths[:, None] - 1)
    cum_a = running[terms.starts[:, None] + last]
    cum_h = table.ideal_cumulative[terms.rows]
    ratios = np.zeros(len(terms.rows))
    for j in positions:
        ratios += cum_a[:, j] / cum_h[:, j]
    out[terms.rows, 2] = ratios / revised.RANK_POSITIONS
    out[terms.rows, 3] = 1.0
    out[:, 4] = table.measured
    return out


def _ranking_rows(table: GoldTable, terms: _Terms, scores: Array | None) -> Array:
    """The ranking measures of candidates given best first, each once (``terms``), as
    :func:`scoring.ranking.ranking_measures` gives them: GAP, AP, P@1, P@10, R@10, whether
    they are defined (a gold weight), AUC and whether it is defined. ``scores``: the
    candidates' scores, equal scores sharing their mid-rank in AUC; None when the
    candidates are strictly ordered."""
    out = np.zeros((len(table), len(RANKING_COLUMNS)))
    out[:, 5] = table.relevant > 0
    rows, lengths, x = terms.rows, terms.lengths, terms.weights
    hit = x > 0  # a candidate with a gold weight (count > 0)
    place = terms.place
    i = place + 1
    relevant = table.relevant[rows]
    # GAP = Σ_i I(x_i) p_i / Σ_j ȳ_j, p_i the running weight over i
    running = _running(x, lengths)
    gap = _segment_sums(np.where(hit, running / i, 0.0), terms)
    out[rows, 0] = gap / table.gap_normaliser[rows]
    # AP = (1/R) Σ_{relevant c_i} P@i
    found = _running(hit.astype(np.float64), lengths)
    out[rows, 1] = _segment_sums(np.where(hit, found / i, 0.0), terms) / relevant
    out[rows, 2] = hit[terms.starts]
    top = terms.count(hit & (place < 10))
    out[rows, 3] = top / 10
    out[rows, 4] = top / relevant
    # AUC from mid-ranks (1 = lowest score): a tie group at places [a, b) of m holds the
    # ascending ranks m - b + 1 .. m - a
    positives = terms.count(hit)
    negatives = lengths - positives
    if scores is not None:
        tied = np.zeros(len(x), dtype=bool)
        tied[1:] = (scores[1:] == scores[:-1]) & (place[1:] > 0)
        group = np.cumsum(~tied) - 1
        first = place[~tied]
        size = np.bincount(group)
        a, b = first[group], (first + size)[group]
    else:
        a, b = place, place + 1
    m = lengths[terms.segment]
    midrank = (2 * m - a - b + 1) / 2
    rank_sum = np.bincount(terms.segment, weights=np.where(hit, midrank, 0.0), minlength=len(rows))
    both = (positives > 0) & (negatives > 0)
    u_statistic = rank_sum - positives * (positives + 1) / 2
    auc = u_statistic[both] / (positives * negatives)[both]
    out[rows[both], 6] = auc
    out[rows[both], 7] = 1.0
    return out


def _ranking(given: Given, k: float) -> Array:
    """The ranking measures of each item's ranked candidates, best first by
    :func:`scoring.ranking.rank_order` (score descending, ties in the order given, each
    candidate once), or, with none, of its guesses in file order (an oot file's ranking,
    :func:`scoring.formats.ranked.as_ranking`: the i-th of n scores n - i + 1, so the order is
    A_i's, uncut)."""
    table = given.table
    scored = {
        j: ranking.rank_order(answers.ranking)
        for j, answers in enumerate(given.answers)
        if answers.ranking
    }
    if not scored:
        return _ranking_rows(table, given.set_terms, None)
    candidates: list[Sequence[str]] = [
        [item.candidate for item in scored[j]] if j in scored else found
        for j, found in enumerate(given.sets)
    ]
    terms = _terms(table, candidates)
    scores: list[float] = []
    for j, length in zip(terms.rows.tolist(), terms.lengths.tolist(), strict=True):
        if j in scored:
            scores += [item.score for item in scored[j]]
        else:  # strictly decreasing: guesses in file order have no ties
            scores += range(0, -length, -1)
    return _ranking_rows(table, terms, np.array(scores, dtype=np.float64))


RANKING_COLUMNS = ("gap", "ap", "p_at_1", "p_at_10", "r_at_10", "relevant", "auc", "auc_defined")
FAMILIES: dict[SystemKind, tuple[Family, ...]] = {
    "best": (
        Family("official best", OFFICIAL_COLUMNS, _official("best")),
        Family("revised best", ("new_best", "best_1", "answered", "measured"), _revised_best),
    ),
    "oot": (
        Family("official oot", OFFICIAL_COLUMNS, _official("oot")),
        Family(
            "revised oot",
            ("weighted_recall", "weighted_precision", "rank", "answered", "measured"),
            _revised_oot,
        ),
        Family("ranking", RANKING_COLUMNS, _ranking),
    ),
}
FAMILIES["ranked"] = FAMILIES["oot"][2:]
"""The families that score each kind of system file."""


def corpus_totals(stats: Array) -> Array:
    """The column sums of (items, k) rows, each column added in the order of the items:
    the sums every figure of a system is computed from (:meth:`SystemRows.value`, the
    leaderboard's pairs)."""
    total: Array = stats.sum(axis=0)
    return total


@dataclass(frozen=True)
class SystemRows:
    """One system's rows: ``columns[c][j]`` is column c of gold item ``ids[j]``."""

    name: str
    kind: SystemKind
    ids: tuple[str, ...]
    lexelts: tuple[str, ...]
    columns: dict[str, Array] = field(repr=False)

    def measures(self) -> list[str]:
        """The registered measures that apply to this system's kind, in registry order."""
        return [name for name, m in MEASURES.items() if self.kind in m.kinds]

    def stats(self, measure: str) -> Array:
        """The (items, k) array of the columns ``measure`` reads."""
        definition = measure_def(measure)
        if self.kind not in definition.kinds:
            raise ValueError(
                f"{self.name}: {measure} does not apply to a {self.kind} file "
                f"(it needs {' or '.join(sorted(definition.kinds))})"
            )
        return np.column_stack([self.columns[c] for c in definition.columns()])

    def value(self, measure: str, mask: npt.NDArray[np.bool_] | None = None) -> float | None:
        """The corpus figure (rows under ``mask`` only, when given); None when its
        denominator is 0 (nothing attempted, no item of that PoS)."""
        stats = self.stats(measure)
        totals = corpus_totals(stats if mask is None else stats[mask])
        return measure_def(measure).figure(totals.tolist())


def pos_masks(rows: SystemRows) -> dict[str, npt.NDArray[np.bool_]]:
    """Row masks for each PoS (n, v, a, r) and ``all``, in the order of Tables 4-8."""
    pos = np.array([pos_of(lexelt) for lexelt in rows.lexelts])
    masks = {key: pos == key for key in ("n", "v", "a", "r")}
    return {"all": np.ones(len(rows.ids), dtype=bool), **masks}


# --- reading system files ----------------------------------------------------------------


def detect_kind(text: str, name: str) -> SystemKind:
    """A system file's kind from its first line that names an item: ``:::`` → oot,
    ``::`` → best, a ranked-candidates line → ranked. ValueError when no line does."""
    for line in text.splitlines():
        if not line.strip():
            continue
        if ranked.looks_ranked(line.strip()):
            return "ranked"
        if " ::: " in line or line.rstrip().endswith(":::"):
            return "oot"
        if " :: " in line or line.rstrip().endswith("::"):
            return "best"
    raise ValueError(
        f"{name}: no line names an item with '::' (best), ':::' (oot) or a "
        "ranked-candidates separator (docs/ranking.md); is it a system file?"
    )


def split_answer(answer: str, rules: Rules) -> list[str]:
    """One answer's guesses, each in the form of gold keys under ``rules``
    (:func:`scoring.terms.answer_key`), empty guesses dropped."""
    if rules == "fixed":
        return guesses_fixed(answer)
    return [answer_key(guess, rules) for guess in answer.split(";") if guess.strip()]


def first_answers(text: str, kind: Task, rules: Rules = "fixed") -> dict[str, list[str]]:
    """Each item's guesses from its first answer line (:func:`split_answer`). Under the
    fixed rules an ASCII answer of plain lower-case words, or of such words and hyphens
    (:func:`scoring.lines.answer_kinds`, found a chunk at a time), is split at once, as
    the official scan splits it: :func:`split_answer` gives the same guesses."""
    answers: dict[str, list[str]] = {}
    fixed = rules == "fixed"
    for _first, found in iter_chunks(text, kind, unicode=fixed):
        kinds = answer_kinds(found) if fixed else None
        if kinds is None:  # non-ASCII answers, or compat: each split by split_answer
            kinds = bytearray([OTHER]) * len(found)
        for (lexelt, item_id, answer, _other), how in zip(found, kinds, strict=True):
            if lexelt and item_id not in answers:
                if how == PLAIN:
                    answers[item_id] = answer.split(";")
                elif how == HYPHENS:
                    answers[item_id] = answer.replace("-", " ").split(";")
                else:
                    answers[item_id] = split_answer(answer, rules)
    return answers


def read_answers(
    gold: Gold, text: str, name: str, kind: SystemKind, reading: Gold | None = None
) -> dict[str, Answers]:
    """What the system file ``text`` (of ``kind``) gives each item of ``gold`` or of
    ``reading`` (the revised and ranking measures' reading, ``gold`` when None) that it
    answers: the official guesses under the gold's rules, the others normalised under the
    reading's rules."""
    reading = gold if reading is None else reading
    rules = reading.rules
    known = gold.items.keys() | reading.items.keys() if reading is not gold else gold.items
    if kind == "mw" or kind == "swords":
        raise ValueError(
            f"{name}: the leaderboard scores best, oot and ranked files; a multiword file "
            "is scored with scoring.score -t mw, a SWORDS result as its ranked candidates"
        )
    if kind == "ranked":
        lines = ranked.parse_ranking(text.splitlines(), name)
        return {
            line.id: Answers(ranking=ranking.normalised(line.candidates, rules))
            for line in lines
            if line.id in known
        }
    scan = {row.id: row for row in score_system(kind, gold, text, name).items}
    result = {}
    for item_id, guesses in first_answers(text, kind, rules).items():
        if item_id not in known:
            continue
        row = scan.get(item_id)
        result[item_id] = (
            Answers(
                row.answers,
                not row.stale,
                tuple(guesses),
                (),
                (row.score, row.mode_attempted, row.mode_correct),
            )
            if row
            else Answers((), True, tuple(guesses))
        )
    for item_id, row in scan.items():  # a stale compat line has no first answer of its own
        if item_id not in result:
            outcome = (row.score, row.mode_attempted, row.mode_correct)
            result[item_id] = Answers(row.answers, not row.stale, (), (), outcome)
    return result


def system_rows(
    items: Sequence[GoldItem] | GoldTable,
    answers: dict[str, Answers],
    name: str,
    kind: SystemKind,
    k: float = 1.0,
) -> SystemRows:
    """Every column of ``kind``'s families for each gold item: the rows of one system.
    ``items`` may be given as their :func:`gold_table`, computed once for many systems."""
    table = items if isinstance(items, GoldTable) else gold_table(items)
    given = Given(table, [answers.get(gold_item.id, NO_ANSWER) for gold_item in table.items])
    columns: dict[str, Array] = {}
    for family in FAMILIES[kind]:
        try:
            found = family.rows(given, k)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from error
        columns.update({column: found[:, c] for c, column in enumerate(family.columns)})
    return SystemRows(name, kind, table.ids, table.lexelts, columns)


@dataclass(frozen=True)
class _Shared:
    gold: Gold
    reading: Gold
    table: GoldTable


_SHARED: _Shared | None = None
"""The gold a worker process inherits (set before the pool forks)."""


def _score_one(job: tuple[str, str, float]) -> tuple[SystemKind, dict[str, Array]]:
    """One system's kind and columns (what a worker sends back: the ids and lexelts are
    the gold table's)."""
    name, text, k = job
    assert _SHARED is not None
    kind = detect_kind(text, name)
    answers = read_answers(_SHARED.gold, text, name, kind, _SHARED.reading)
    rows = system_rows(_SHARED.table, answers, name, kind, k)
    return rows.kind, rows.columns


def score_files(
    gold: Gold,
    systems: Sequence[tuple[str, str]],
    k: float = 1.0,
    workers: int = 1,
    reading: Gold | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> list[SystemRows]:
    """Rows for each ``(name, text)`` system against ``gold`` (the official measures) and
    ``reading`` (the revised and ranking measures; ``gold`` when None), in order. With
    ``workers`` > 1 (and a platform that forks) the systems are scored in that many
    processes, which inherit the gold's items; the rows are the same either way.
    ``meanwhile``, when given, is called in this process while the workers score (after
    the systems, without workers)."""
    global _SHARED
    reading = gold if reading is None else reading
    table = gold_table(gold_items(gold, reading))
    _SHARED = _Shared(gold, reading, table)
    jobs = [(name, text, k) for name, text in systems]
    try:
        if workers > 1 and len(jobs) > 1 and "fork" in mp.get_all_start_methods():
            # the longest files first, so that no worker is left with a long one at the end
            order = sorted(range(len(jobs)), key=lambda j: -len(jobs[j][1]))
            with mp.get_context("fork").Pool(min(workers, len(jobs))) as pool:
                pending = pool.map_async(_score_one, [jobs[j] for j in order], chunksize=1)
                if meanwhile is not None:
                    meanwhile()
                done = pending.get()
            found = [done[order.index(j)] for j in range(len(jobs))]
        else:
            found = [_score_one(job) for job in jobs]
            if meanwhile is not None:
                meanwhile()
    finally:
        _SHARED = None
    return [
        SystemRows(name, kind, table.ids, table.lexelts, columns)
        for (name, _text, _k), (kind, columns) in zip(jobs, found, strict=True)
    ]
