"""The revised measures of Jabbari, Hepple & Guthrie, "Evaluating Lexical Substitution:
Analysis and New Measures" (2010, slides "Best Answer Measures", "Measures of
Coverage", "Measures of Ranking").

Notation (slide "Notational Conventions"): H_i is the gold set of item i, freq_i(a) the
number of annotators who gave a (0 outside H_i), maxfreq_i the largest count in H_i, and
|S|^i = Σ_{a∈S} freq_i(a) the summed count of a set of terms S.

Each measure turns one item into an :class:`ItemStats` row (numerator and denominator of
the item's score, and whether the system attempted it). Arithmetic is exact
(:class:`fractions.Fraction`) by default: these exact functions are the test oracle of the
registered measures (:mod:`scoring.registry`; :mod:`scoring.measures.revised.family` calls them on
float
frequencies, and the corpus figures are ratios of column sums, as in sacrebleu).

Choices where the slides say nothing (each is tested in ``tests/test_revised.py``):

- Corpus level. The slides define only item scores. As in SemEval-2007 (McCarthy & Navigli 2007,
  section 4), the corpus figures (:mod:`scoring.measures.revised.family`) are the mean item score
  over
  attempted items (``.P``, "precision") and over all gold items (``.R``, "recall").
- No guesses. The item is not attempted and scores 0 (its denominator is 0 for new best,
  best-1 and weighted precision, where the slides' formula is 0/0).
- Duplicates. new best and best-1 take the guesses as a list, as score.pl does (a repeated
  guess is credited and counted again, which keeps new best in [0, 1]). weighted recall,
  weighted precision and rank take A_i as a set (:func:`answer_set`: the slides write
  A_i as a set, and a repeated term would push recall and rank past 1): a repeated guess
  counts once, at its first place. (An oot file gives at most ten guesses: the registry
  cuts A_i there, as oot does.)
- rank: over positions 1..10, so guesses past the tenth do not count; fewer are padded
  with freq 0, as the slides' 9-guess examples are; the optimal
  cumulative count at position j sums the j largest counts of H_i (the total once H_i is
  exhausted).
- weighted precision: the penalty k must be > 0 (with k = 0 a wholly wrong answer would
  be 0/0); "incorrect" terms are those with freq_i = 0, i.e. |A_i - H_i|.
- Matching (one normaliser). A gold item's keys are put in the form of its
  rules by :func:`scoring.terms.gold_key` (an :class:`~scoring.formats.gold.ItemGold` by the rules
  it was read under, a plain mapping by the fixed rules: case folded, hyphens as spaces,
  apostrophes removed; counts of keys that then coincide are summed), and the guesses by
  the same rules' :func:`scoring.terms.answer_key`, so ``people's`` matches a gold
  ``people's`` and ``Brand-new`` a gold ``brand new``. A :class:`Frequencies` is an item
  already read: guesses given with one are taken as normalised (what the registry passes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

from scoring.terms import answer_key, gold_key
from scoring.types import Count, Rules

if TYPE_CHECKING:
    from scoring.formats.gold import ItemGold

RANK_POSITIONS = 10
"""The rank measure averages over positions 1..10 (slide "Measures of Ranking")."""

GoldCounts: TypeAlias = "Mapping[str, Count] | ItemGold"
"""A gold item: substitute → count, or an item read from a gold file."""

Number = Fraction | float
"""Exact by default; floats where speed matters (see :class:`Frequencies`)."""


@dataclass(frozen=True, slots=True)
class ItemStats:
    """One item's sufficient statistics: its score is ``numerator / denominator`` (0 when
    the denominator is 0, i.e. for an item not attempted)."""

    numerator: Number
    denominator: Number
    attempted: bool

    @property
    def score(self) -> Number:
        return self.numerator / self.denominator if self.denominator else Fraction(0)


@dataclass(frozen=True, slots=True)
class Frequencies:
    """freq_i as the measures need it: the counts, |H_i|^i and maxfreq_i.

    Exact (:class:`~fractions.Fraction`) by default; ``frequencies(item, exact=False)``
    gives floats, which the leaderboard uses on large golds (the same formulas, computed
    once per item and shared by every system and measure).
    """

    counts: dict[str, Number]
    total: Number
    maxfreq: Number
    rules: Rules = "fixed"

    def freq(self, term: str) -> Number:
        """freq_i(term): 0 for a term not in H_i."""
        return self.counts.get(term, 0)


def frequencies(gold: GoldCounts | Frequencies, exact: bool = True) -> Frequencies:
    """freq_i, |H_i|^i and maxfreq_i of a gold item (slide "Notational Conventions"), as
    Fractions or (``exact=False``) floats; a :class:`Frequencies` is returned as it is.

    Raises ValueError for a negative count or an item whose counts are all 0 (maxfreq_i
    would be 0 and every measure divides by it or by |H_i|^i).
    """
    if isinstance(gold, Frequencies):
        return gold
    number: Callable[[Count], Number] = Fraction if exact else float
    counts: dict[str, Number] = {}
    # an item read from a gold file carries the rules it was read under; a mapping is fixed
    rules: Rules = "fixed" if isinstance(gold, Mapping) else gold.rules
    pairs = gold.items() if isinstance(gold, Mapping) else gold.counts
    for raw, count in pairs:
        key = gold_key(raw, rules)
        counts[key] = counts.get(key, 0) + number(count)
    for key, value in counts.items():
        if value < 0:
            raise ValueError(f"gold count of {key!r} is {value}; counts must be 0 or more")
    maxfreq = max(counts.values(), default=number(0))
    if maxfreq <= 0:
        raise ValueError(
            f"no count above 0 (entries {sorted(counts) or 'none'}); maxfreq_i must be positive"
        )
    return Frequencies(counts, sum(counts.values(), number(0)), maxfreq, rules)


def read_item(
    gold: GoldCounts | Frequencies, guesses: Sequence[str]
) -> tuple[Frequencies, Sequence[str]]:
    """A gold item's :class:`Frequencies` and the guesses in the form of its keys
    (:func:`scoring.terms.answer_key` under its rules); guesses given with a
    :class:`Frequencies` are taken as already normalised."""
    if isinstance(gold, Frequencies):
        return gold, guesses
    freqs = frequencies(gold)
    return freqs, [answer_key(guess, freqs.rules) for guess in guesses]


def answer_set(guesses: Sequence[str]) -> list[str]:
    """A_i as a set: each guess once, at its first place.

    >>> answer_set(["a", "b", "a", "c"])
    ['a', 'b', 'c']
    """
    return list(dict.fromkeys(guesses))


def new_best(gold: GoldCounts | Frequencies, guesses: Sequence[str]) -> ItemStats:
    """(new) best(i) = |A_i|^i / (maxfreq_i * |A_i|) (Jabbari et al. 2010, slide "Best Answer
    Measures", the equation replacing |H_i|^i by maxfreq_i).

    ``guesses`` is a list: a repeated guess is credited and counted again, as in score.pl.
    """
    freqs, guesses = read_item(gold, guesses)
    credit = sum((freqs.freq(guess) for guess in guesses), 0)
    return ItemStats(credit, freqs.maxfreq * len(guesses), bool(guesses))


def best_1(gold: GoldCounts | Frequencies, guesses: Sequence[str]) -> ItemStats:
    """best_1(i) = freq_i(bg_i) / maxfreq_i, bg_i the first guess (Jabbari et al. 2010, slide
    "Best Answer Measures", the best-1 metric). Later guesses are ignored."""
    freqs, guesses = read_item(gold, guesses)
    if not guesses:
        return ItemStats(Fraction(0), Fraction(0), False)
    return ItemStats(freqs.freq(guesses[0]), freqs.maxfreq, True)


def weighted_recall(gold: GoldCounts | Frequencies, guesses: Sequence[str]) -> ItemStats:
    """R(i) = |A_i|^i / |H_i|^i (Jabbari et al. 2010, slide "Measures of Coverage (contd)", recall
    (weighted)), A_i read by :func:`answer_set`: oot without its limit of 10 guesses."""
    freqs, guesses = read_item(gold, guesses)
    credit = sum((freqs.freq(guess) for guess in answer_set(guesses)), 0)
    return ItemStats(credit, freqs.total, bool(guesses))


def weighted_precision(
    gold: GoldCounts | Frequencies, guesses: Sequence[str], k: Fraction | int | float = 1
) -> ItemStats:
    """P(i) = |A_i|^i / (|A_i|^i + k |A_i - H_i|) (Jabbari et al. 2010, slide "Measures of Coverage
    (contd)", precision (weighted)); k is the penalty per incorrect term (freq_i = 0).

    A_i is read by :func:`answer_set`. Raises ValueError for k <= 0.
    """
    if k <= 0:
        raise ValueError(f"penalty k = {k}; k must be > 0")
    freqs, guesses = read_item(gold, guesses)
    credit: Number = 0
    wrong = 0
    for guess in answer_set(guesses):
        value = freqs.freq(guess)
        credit += value
        wrong += value == 0
    return ItemStats(credit, credit + k * wrong, bool(guesses))


def rank(gold: GoldCounts | Frequencies, guesses: Sequence[str]) -> ItemStats:
    """rank(i) = 1/10 * Σ_{j=1..10} cum_A(j) / cum_H(j) (Jabbari et al. 2010, slides "Measures of
    Ranking (contd)"): cum_A(j) is the summed freq_i of the first j guesses, cum_H(j) that
    of the j most frequent terms of H_i (the optimal list).

    The numerator is the sum of the ten ratios, the denominator 10. A_i is read by
    :func:`answer_set`; terms past the tenth do not count, fewer than 10 are padded with
    freq 0.
    """
    freqs, guesses = read_item(gold, guesses)
    guesses = answer_set(guesses)[:RANK_POSITIONS]
    ratios: Number = 0
    cum_a: Number = 0
    for j, cum_h in enumerate(ideal_cumulative(freqs)):
        if j < len(guesses):
            cum_a += freqs.freq(guesses[j])
        ratios += cum_a / cum_h
    return ItemStats(ratios, RANK_POSITIONS, bool(guesses))


def ideal_cumulative(freqs: Frequencies) -> list[Number]:
    """cum_H(j) for j = 1..10 (:func:`rank`): the summed counts of the j most frequent
    terms of H_i, the total once H_i is exhausted (added in that order, as the gold table
    of :mod:`scoring.measures.bulk` adds them, so the bulk rows divide by the same numbers).

    >>> ideal_cumulative(frequencies({"a": 1, "b": 3}, exact=False))[:3]
    [3.0, 4.0, 4.0]
    """
    ideal = sorted(freqs.counts.values(), reverse=True)
    result: list[Number] = []
    cum_h: Number = 0
    for j in range(RANK_POSITIONS):
        if j < len(ideal):
            cum_h += ideal[j]
        result.append(cum_h)
    return result
