"""Ranking measures for systems that rank or score candidate substitutes: GAP, average
precision, ROC AUC, precision and recall at k.

Sources:

- GAP, generalised average precision (Kishida 2005, "Property of average precision and its
  generalization"; used for lexical substitution by Erk & Padó 2010 and Thater, Fürstenau
  & Pinkal 2010). x_i is the gold weight of the system's i-th candidate, p_i = (1/i)
  Σ_{k<=i} x_k, I(x) = 1 if x > 0; y_1 >= y_2 >= … >= y_R are the R positive gold weights
  (the ideal ranking) and ȳ_j = (1/j) Σ_{k<=j} y_k. Then
  GAP = Σ_{i=1..n} I(x_i) p_i / Σ_{j=1..R} ȳ_j. The normaliser is the same sum over the
  ideal ranking, so an ideal ranking scores exactly 1.
- Average precision with binary relevance (Glickman et al. 2006, section 5.1:
  "area under an uninterpolated recall-precision curve", after Voorhees & Harman 1999):
  AP = Σ_k (R_k - R_{k-1}) P_k = (1/R) Σ_k h_k P_k over the thresholds k, one per distinct
  score, highest first (R_k, P_k recall and precision of the candidates scoring at least
  it, h_k the relevant ones scoring exactly it), R the number of relevant substitutes.
  Tied scores are one threshold, as in scikit-learn's ``average_precision_score`` and the
  judgement study (:mod:`scoring.judgements.models`), so AP does not depend on the order of
  tied candidates. Without ties it is (1/R) Σ_{i: rel(c_i)} P@i, and GAP with all gold
  weights equal. A candidate is relevant iff its gold count is > 0.
- ROC AUC (Cohn 2003, section 3: "the probability that a binary classifier
  will rank a randomly chosen positive instance higher than a randomly chosen negative
  instance"), in its Mann-Whitney form: AUC = (#{(p, n): s_p > s_n} + ½ #{(p, n): s_p =
  s_n}) / (P · N) over the positive (relevant) and negative candidates of the system.
- P@k = |relevant in the top k| / k; R@k = |relevant in the top k| / R.

Each item becomes an :class:`ItemRanking` (its value, whether the measure is defined for
it, whether the system ranked anything); the registered measures (:mod:`scoring.registry`)
give the corpus figure as Σ value / Σ defined over the gold items, as in sacrebleu, so a
cluster bootstrap resamples rows. Arithmetic is exact (:class:`fractions.Fraction`) for an
exact gold item, the test oracle of the registered measures, which pass float
frequencies; scores only order candidates.

Choices where the sources are silent (each is tested in ``tests/test_ranking.py``):

- Order. Candidates are sorted by score, highest first; equal scores keep the order in
  which they were given (a stable sort: file order breaks ties for GAP and P@k, R@k; AP
  and AUC treat tied scores as one threshold). A best or oot file read as a ranking
  scores its guesses n, n-1, …, 1: the file order is the rank.
- Duplicates. A candidate given twice (after folding) is kept once, at its first place in
  that order, i.e. with its highest score.
- Candidates not in the gold have weight 0 (irrelevant, negative for AUC).
- Gold substitutes the system never ranks count in GAP's ideal denominator and in R (AP,
  R@k); AUC is over the ranked candidates only (an unranked substitute has no score).
- Weighting. GAP uses the gold counts; AP, AUC, P@k and R@k are unweighted (relevant iff
  count > 0). P@k divides by k even when fewer than k candidates are ranked.
- Undefined items. An item whose gold has no count > 0 is undefined for every measure;
  AUC is also undefined when the ranked candidates include no positive or no negative.
  An undefined item scores 0 and is left out of the mean. An item the system does not
  rank is not attempted; it scores 0 and is defined (for AUC it is undefined: no
  positive). No measure returns NaN.
- Gold and ids. Gold items are read as :mod:`scoring.measures.revised.items` reads them
  (:func:`scoring.measures.revised.items.frequencies`: keys in their rules' form), and the
  candidates
  are put in the same form by the one candidate normaliser
  (:func:`scoring.terms.answer_key`), whether they come from a ranked file or a best or oot
  file: ``brand-new`` meets a gold ``brand-new``, ``people's`` a gold
  ``people's``. Candidates given with a :class:`~scoring.measures.revised.items.Frequencies` are
  taken
  as already normalised (what the registry passes). The registry reads the gold under
  the fixed rules unless asked otherwise (:mod:`scoring.leaderboard.rows`). Ids of the ranking
  that are not gold items (e.g. items outside T) are ignored.
- File format: :mod:`scoring.formats.ranked` (docs/ranking.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import truediv

from scoring.formats.gold import ItemGold
from scoring.formats.ranked import Scored
from scoring.measures.revised.items import Frequencies, GoldCounts, Number, frequencies
from scoring.terms import answer_key
from scoring.types import Rules

Weights = Mapping[str, Number]


@dataclass(frozen=True, slots=True)
class ItemRanking:
    """One item's value under a measure; ``value`` is 0 when the item is undefined."""

    value: Number
    defined: bool
    attempted: bool


# --- the item measures -------------------------------------------------------------------


def normalised(ranking: Iterable[Scored], rules: Rules = "fixed") -> tuple[Scored, ...]:
    """Candidates in the form of gold keys under ``rules`` (:func:`scoring.terms.answer_key`).

    >>> normalised([Scored("Run-down", 0.5)])
    (Scored(candidate='run down', score=0.5),)
    """
    return tuple(Scored(answer_key(item.candidate, rules), item.score) for item in ranking)


def _read(
    gold: GoldCounts | Frequencies, ranking: Sequence[Scored]
) -> tuple[Weights, tuple[Scored, ...]]:
    """The gold weights and the candidates best first, in the form of the gold's keys."""
    if not isinstance(gold, Frequencies):
        rules: Rules = gold.rules if isinstance(gold, ItemGold) else "fixed"
        ranking = normalised(ranking, rules)
    return gold_weights(gold), rank_order(ranking)


def rank_order(ranking: Sequence[Scored]) -> tuple[Scored, ...]:
    """The candidates best first: by score descending, ties in the order given, each
    candidate once (its first place, i.e. its highest score)."""
    first: dict[str, Scored] = {}  # insertion-ordered: the first place of each candidate
    for i in sorted(range(len(ranking)), key=lambda i: (-ranking[i].score, i)):
        first.setdefault(ranking[i].candidate, ranking[i])
    return tuple(first.values())


def gold_weights(gold: GoldCounts | Frequencies) -> dict[str, Number]:
    """The substitutes with a count > 0 and their counts (folded as in
    :func:`scoring.measures.revised.items.frequencies`); empty when no count is above 0. Raises
    ValueError for a negative count. Exact Fractions, except for a float
    :class:`~scoring.measures.revised.items.Frequencies` (which the leaderboard passes, for
    speed)."""
    if isinstance(gold, Frequencies):
        return {key: value for key, value in gold.counts.items() if value > 0}
    pairs = gold.counts if isinstance(gold, ItemGold) else tuple(gold.items())
    negative = [(key, count) for key, count in pairs if count < 0]
    if negative:
        raise ValueError(f"gold counts {negative} are negative; counts must be 0 or more")
    if not any(count > 0 for _, count in pairs):
        return {}
    return {key: Fraction(value) for key, value in frequencies(gold).counts.items() if value > 0}


def _division(weights: Mapping[str, Number]) -> Callable[[Number, Number], Number]:
    """Exact division for exact weights, float division for float ones."""
    for value in weights.values():  # all of one type: the first one tells
        return truediv if isinstance(value, float) else _fraction
    return _fraction


def _fraction(numerator: Number, denominator: Number) -> Number:
    return Fraction(numerator) / Fraction(denominator)


def _hits(weights: Mapping[str, Number], order: Sequence[Scored]) -> list[bool]:
    return [item.candidate in weights for item in order]


def gap(gold: GoldCounts | Frequencies, ranking: Sequence[Scored]) -> ItemRanking:
    """GAP = Σ_i I(x_i) p_i / Σ_{j<=R} ȳ_j (Kishida 2005; see the module docstring)."""
    return _gap(*_read(gold, ranking))


def ordered_gap(
    weights: Weights, order: Sequence[str], ideal: Sequence[Number] | None = None
) -> ItemRanking:
    """GAP of candidates taken exactly as given (no normalising, no sorting, a repeated
    candidate counted at each place, so GAP may pass 1) against ``weights`` (key → weight
    > 0), with the ideal ranking's weights ``ideal`` (default: the weights sorted in
    decreasing order, Kishida's definition). The same formula as :func:`gap`; the
    benchmarks (:mod:`scoring.benchmark.candidates`) use it to reproduce the field's
    codebases, which count a repeated candidate at each place (Melamud's
    ``GeneralizedAveragePrecision.calc``, LexSubGen's ``compute_gap``) and, in LexSubGen,
    take the ideal in the gold's file order.

    >>> ordered_gap({"a": Fraction(2), "b": Fraction(1)}, ["b", "a", "a"]).value
    Fraction(25, 21)
    """
    return _gap(weights, [Scored(candidate, 0.0) for candidate in order], ideal)


def _gap(
    weights: Weights, order: Sequence[Scored], ideal: Sequence[Number] | None = None
) -> ItemRanking:
    if not weights:
        return ItemRanking(Fraction(0), False, bool(order))
    numerator: Number = 0
    running: Number = 0
    for i, item in enumerate(order, 1):
        x_i = weights.get(item.candidate, 0)
        running += x_i
        if x_i > 0:
            numerator += running / i
    denominator = gap_normaliser(sorted(weights.values(), reverse=True) if ideal is None else ideal)
    return ItemRanking(numerator / denominator, True, bool(order))


def gap_normaliser(ideal: Iterable[Number]) -> Number:
    """GAP's denominator Σ_{j<=R} ȳ_j for the ideal ranking's weights ``ideal`` (best
    first), added in that order (the gold table of :mod:`scoring.measures.bulk` adds it so).

    >>> gap_normaliser([2.0, 1.0])
    3.5
    """
    denominator: Number = 0
    running: Number = 0
    for j, y_j in enumerate(ideal, 1):
        running += y_j
        denominator += running / j
    return denominator


def average_precision(gold: GoldCounts | Frequencies, ranking: Sequence[Scored]) -> ItemRanking:
    """AP = (1/R) Σ_k h_k P_k, the area under the uninterpolated recall-precision curve
    (Glickman et al. 2006, 5.1): k over the thresholds, one per distinct score best first,
    h_k the relevant candidates scoring exactly it, P_k the precision of those scoring at
    least it; relevant iff gold count > 0, R the relevant gold substitutes. Without ties it
    is (1/R) Σ_{i: c_i relevant} P@i; tied scores are one threshold, as in scikit-learn's
    ``average_precision_score``, so the order of tied candidates does not matter.

    >>> gold = {"a": 1, "b": 1}
    >>> average_precision(gold, [Scored("a", 0.5), Scored("x", 0.5), Scored("b", 0.1)]).value
    Fraction(7, 12)
    """
    return _average_precision(*_read(gold, ranking))


def _average_precision(weights: Weights, order: Sequence[Scored]) -> ItemRanking:
    if not weights:
        return ItemRanking(Fraction(0), False, bool(order))
    divide = _division(weights)
    hits = _hits(weights, order)
    total: Number = 0
    found = start = 0
    for end in _tie_ends(order):
        group = hits[start:end]
        found += sum(group)
        for _ in range(sum(group)):  # each relevant candidate of the group, as the bulk adds
            total += divide(found, end)
        start = end
    return ItemRanking(total / len(weights), True, bool(order))


def _tie_ends(order: Sequence[Scored]) -> list[int]:
    """The end (exclusive) of each group of equal scores in ``order`` (best first)."""
    size = len(order)
    return [i for i in range(1, size + 1) if i == size or order[i].score != order[i - 1].score]


def roc_auc(gold: GoldCounts | Frequencies, ranking: Sequence[Scored]) -> ItemRanking:
    """AUC = (#{s_p > s_n} + ½ #{s_p = s_n}) / (P·N) over the ranked candidates (Cohn 2003,
    section 3), computed from mid-ranks (Mann-Whitney U). Undefined without a relevant
    gold substitute, or when the candidates have no positive or no negative."""
    return _roc_auc(*_read(gold, ranking))


def _roc_auc(weights: Weights, order: Sequence[Scored]) -> ItemRanking:
    positives = sum(_hits(weights, order))
    negatives = len(order) - positives
    if not positives or not negatives:
        return ItemRanking(Fraction(0), False, bool(order))
    divide = _division(weights)
    ascending = sorted(order, key=_score_of)
    rank_sum: Number = 0  # Σ of the positives' mid-ranks (1 = lowest score)
    start, size = 0, len(ascending)
    while start < size:  # the tie group ascending[start:end] holds ranks start+1 .. end
        score = ascending[start].score
        end, tied_positives = start, 0
        while end < size and ascending[end].score == score:
            tied_positives += ascending[end].candidate in weights
            end += 1
        if tied_positives:
            rank_sum += divide(start + end + 1, 2) * tied_positives
        start = end
    u_statistic = rank_sum - divide(positives * (positives + 1), 2)
    return ItemRanking(divide(u_statistic, positives * negatives), True, True)


def _score_of(item: Scored) -> float:
    return item.score


def _check_k(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k = {k!r}; k must be an integer >= 1")


def _top_k(weights: Weights, order: Sequence[Scored], k: int, recall: bool) -> ItemRanking:
    if not weights:
        return ItemRanking(Fraction(0), False, bool(order))
    found = sum(_hits(weights, order[:k]))
    divide = _division(weights)
    return ItemRanking(divide(found, len(weights) if recall else k), True, bool(order))


def precision_at(gold: GoldCounts | Frequencies, ranking: Sequence[Scored], k: int) -> ItemRanking:
    """P@k = |relevant in the top k| / k (unweighted; k even if fewer are ranked)."""
    _check_k(k)
    return _top_k(*_read(gold, ranking), k, recall=False)


def recall_at(gold: GoldCounts | Frequencies, ranking: Sequence[Scored], k: int) -> ItemRanking:
    """R@k = |relevant in the top k| / R, R the relevant gold substitutes (unweighted)."""
    _check_k(k)
    return _top_k(*_read(gold, ranking), k, recall=True)


def ranking_measures(
    gold: GoldCounts | Frequencies, ranking: Sequence[Scored]
) -> dict[str, ItemRanking]:
    """Every measure of one item at once, the candidates ordered and the gold weighted
    once (what the leaderboard reports): ``gap``, ``ap``, ``auc``, ``p_at_1``,
    ``p_at_10``, ``r_at_10``; the same values as the functions one by one."""
    weights, order = _read(gold, ranking)
    return {
        "gap": _gap(weights, order),
        "ap": _average_precision(weights, order),
        "auc": _roc_auc(weights, order),
        "p_at_1": _top_k(weights, order, 1, recall=False),
        "p_at_10": _top_k(weights, order, 10, recall=False),
        "r_at_10": _top_k(weights, order, 10, recall=True),
    }
