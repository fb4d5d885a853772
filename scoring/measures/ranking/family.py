"""The ranking family: GAP (Kishida 2005), average precision (Glickman et al. 2006), ROC AUC
(Cohn 2003), P@1, P@10 and R@10 of each item's ranked candidates, or of an oot file's
guesses in file order (:mod:`scoring.measures.ranking.items` defines each one on one item, in
Fractions
for an exact gold).

Columns (:class:`Column`), one row per gold item: each measure's value, ``relevant``
(the item has a gold weight: GAP, AP, P@k and R@k are defined) and ``auc_defined`` (its
candidates hold a relevant and an irrelevant one). Each measure is the mean of its
column over the items where it is defined: Σ value / Σ defined.

:mod:`scoring.measures.ranking.items` (and its file reader) is loaded when a route is first taken:
the
drop-in scorer reads this module through the registry and needs neither.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from scoring.measures.quotient import Columns, ExactRow, Family, Ratio
from scoring.types import SystemKind

if TYPE_CHECKING:
    from fractions import Fraction

    from scoring.measures.bulk import Answers, Array, Given, GoldItem, GoldTable, Terms


class Column(StrEnum):
    """The ranking family's columns."""

    GAP = "gap"
    AP = "ap"
    P_AT_1 = "p_at_1"
    P_AT_10 = "p_at_10"
    R_AT_10 = "r_at_10"
    RELEVANT = "relevant"
    AUC = "auc"
    AUC_DEFINED = "auc_defined"


def _rows(table: GoldTable, terms: Terms, scores: Array | None) -> Columns:
    """The ranking measures of candidates given best first, each once (``terms``), as
    :func:`scoring.measures.ranking.items.ranking_measures` gives them: GAP, AP, P@1, P@10, R@10,
    whether
    they are defined (a gold weight), AUC and whether it is defined. ``scores``: the
    candidates' scores, equal scores sharing their mid-rank in AUC; None when the
    candidates are strictly ordered."""
    import numpy as np

    from scoring.measures.bulk import running, segment_sums

    out: dict[str, Array] = {column: np.zeros(len(table)) for column in Column}
    out[Column.RELEVANT] = (table.relevant > 0).astype(np.float64)
    rows, lengths, x = terms.rows, terms.lengths, terms.weights
    hit = x > 0  # a candidate with a gold weight (count > 0)
    place = terms.place
    i = place + 1
    relevant = table.relevant[rows]
    # GAP = Σ_i I(x_i) p_i / Σ_j ȳ_j, p_i the running weight over i
    weight = running(x, lengths)
    gap = segment_sums(np.where(hit, weight / i, 0.0), terms)
    out[Column.GAP][rows] = gap / table.gap_normaliser[rows]
    # each candidate's tie group holds the places [a, b) of its item
    if scores is not None:
        tied = np.zeros(len(x), dtype=bool)
        tied[1:] = (scores[1:] == scores[:-1]) & (place[1:] > 0)
        group = np.cumsum(~tied) - 1
        first = place[~tied]
        size = np.bincount(group)
        a, b = first[group], (first + size)[group]
    else:
        a, b = place, place + 1
    # AP = (1/R) Σ_k h_k P_k over the tie groups k (one threshold each), h_k the relevant
    # candidates of group k and P_k the precision of the candidates down to its end:
    # each relevant candidate adds the precision at the end of its group
    found = running(hit.astype(np.float64), lengths)
    found_at_end = found[terms.starts[terms.segment] + b - 1]
    out[Column.AP][rows] = segment_sums(np.where(hit, found_at_end / b, 0.0), terms) / relevant
    out[Column.P_AT_1][rows] = hit[terms.starts]
    top = terms.count(hit & (place < 10))
    out[Column.P_AT_10][rows] = top / 10
    out[Column.R_AT_10][rows] = top / relevant
    # AUC from mid-ranks (1 = lowest score): a tie group at places [a, b) of m holds the
    # ascending ranks m - b + 1 .. m - a
    positives = terms.count(hit)
    negatives = lengths - positives
    m = lengths[terms.segment]
    midrank = (2 * m - a - b + 1) / 2
    rank_sum = np.bincount(terms.segment, weights=np.where(hit, midrank, 0.0), minlength=len(rows))
    both = (positives > 0) & (negatives > 0)
    u_statistic = rank_sum - positives * (positives + 1) / 2
    auc = u_statistic[both] / (positives * negatives)[both]
    out[Column.AUC][rows[both]] = auc
    out[Column.AUC_DEFINED][rows[both]] = 1.0
    return out


def _bulk(given: Given, k: float) -> Columns:
    """The ranking measures of each item's ranked candidates, best first by
    :func:`scoring.measures.ranking.items.rank_order` (score descending, ties in the order given,
    each
    candidate once), or, with none, of its guesses in file order (an oot file's ranking,
    :func:`scoring.formats.ranked.as_ranking`: the i-th of n scores n - i + 1, so the order is
    A_i's, uncut)."""
    import numpy as np

    from scoring.measures.bulk import terms_of
    from scoring.measures.ranking import items as ranking

    table = given.table
    scored = {
        j: ranking.rank_order(answers.ranking)
        for j, answers in enumerate(given.answers)
        if answers.ranking
    }
    if not scored:
        return _rows(table, given.set_terms, None)
    candidates: list[Sequence[str]] = [
        [item.candidate for item in scored[j]] if j in scored else found
        for j, found in enumerate(given.sets)
    ]
    terms = terms_of(table, candidates)
    scores: list[float] = []
    for j, length in zip(terms.rows.tolist(), terms.lengths.tolist(), strict=True):
        if j in scored:
            scores += [item.score for item in scored[j]]
        else:  # strictly decreasing: guesses in file order have no ties
            scores += range(0, -length, -1)
    return _rows(table, terms, np.array(scores, dtype=np.float64))


_VALUES = (Column.GAP, Column.AP, Column.P_AT_1, Column.P_AT_10, Column.R_AT_10, Column.AUC)


def _exact(gold_item: GoldItem, answers: Answers, k: Fraction) -> ExactRow:
    """One item's columns by :func:`scoring.measures.ranking.items.ranking_measures` on exact
    frequencies: its ranked candidates, or its guesses in file order."""
    from fractions import Fraction

    from scoring.formats.ranked import as_ranking
    from scoring.measures.bulk import exact_frequencies
    from scoring.measures.ranking import items as ranking

    freqs = exact_frequencies(gold_item)
    ranked = answers.ranking or as_ranking(answers.guesses)
    found = ranking.ranking_measures({} if freqs is None else freqs, ranked)
    row: dict[str, Fraction] = {column: Fraction(found[column].value) for column in _VALUES}
    row[Column.RELEVANT] = Fraction(found["gap"].defined)
    row[Column.AUC_DEFINED] = Fraction(found["auc"].defined)
    return row


RANKING = Family("ranking", tuple(Column), _bulk, _exact)
_KINDS: frozenset[SystemKind] = frozenset(("oot", "ranked"))


def _mean(name: Column, over: Column, description: str) -> Ratio:
    return Ratio(name.value, RANKING.name, _KINDS, name.value, over.value, description)


MEASURES: tuple[Ratio, ...] = (
    _mean(
        Column.GAP,
        Column.RELEVANT,
        "generalised average precision (Kishida 2005), mean over items with a gold weight",
    ),
    _mean(
        Column.AP,
        Column.RELEVANT,
        "average precision, binary relevance, tied scores one threshold (Glickman et al."
        " 2006), mean over items with a relevant candidate",
    ),
    _mean(
        Column.AUC,
        Column.AUC_DEFINED,
        "ROC AUC, ties one half (Cohn 2003), mean over items with both classes among the"
        " candidates",
    ),
    _mean(
        Column.P_AT_1,
        Column.RELEVANT,
        "precision at 1 (unweighted), mean over items with a gold weight",
    ),
    _mean(
        Column.P_AT_10,
        Column.RELEVANT,
        "precision at 10 (unweighted), mean over items with a gold weight",
    ),
    _mean(
        Column.R_AT_10,
        Column.RELEVANT,
        "recall at 10 (unweighted), mean over items with a gold weight",
    ),
)
"""The ranking measures, in the leaderboard's order."""
