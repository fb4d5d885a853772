"""The revised family: the measures of Jabbari, Hepple & Guthrie (2010) on each item's first
answer line, read under the measures' reading (:mod:`scoring.measures.revised.items` defines each
one on
one item, in Fractions).

Two families, one per kind of file:

- :data:`BEST` (best files), columns :class:`BestColumn`: ``new_best`` and ``best_1``
  (each item's score), ``answered`` (the item has guesses and frequencies), ``measured``
  (the item is in T under the reading);
- :data:`OOT` (oot files), columns :class:`OotColumn`: ``weighted_recall``,
  ``weighted_precision`` (penalty k) and ``rank`` of A_i, the first answer line's distinct
  guesses cut to ten as oot cuts them, then ``answered`` and ``measured``.

Each measure ``NAME.P`` is the mean item score over the answered items, ``NAME.R`` over
the measured ones (as McCarthy & Navigli 2007, section 4, define P and R).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from scoring.measures.official.items import OOT_GUESSES
from scoring.measures.quotient import Columns, ExactRow, Family, Ratio
from scoring.types import SystemKind

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from fractions import Fraction

    from scoring.measures.bulk import Answers, Array, Given, GoldItem
    from scoring.measures.revised.items import Frequencies, ItemStats


class BestColumn(StrEnum):
    """The columns of the revised family of best files."""

    NEW_BEST = "new_best"
    BEST_1 = "best_1"
    ANSWERED = "answered"
    MEASURED = "measured"


class OotColumn(StrEnum):
    """The columns of the revised family of oot files."""

    WEIGHTED_RECALL = "weighted_recall"
    WEIGHTED_PRECISION = "weighted_precision"
    RANK = "rank"
    ANSWERED = "answered"
    MEASURED = "measured"


def _best(given: Given, k: float) -> Columns:
    """new best and best-1 of the first answer line, as
    :func:`scoring.measures.revised.items.new_best`
    and :func:`scoring.measures.revised.items.best_1` (a repeated guess counted again)."""
    import numpy as np

    from scoring.measures.bulk import segment_sums, terms_of

    table = given.table
    terms = terms_of(table, [answers.guesses for answers in given.answers])
    out: dict[str, Array] = {column: np.zeros(len(table)) for column in BestColumn}
    maxfreq = table.maxfreq[terms.rows]
    credit = segment_sums(terms.weights, terms)
    out[BestColumn.NEW_BEST][terms.rows] = credit / (maxfreq * terms.lengths)
    out[BestColumn.BEST_1][terms.rows] = terms.weights[terms.starts] / maxfreq
    out[BestColumn.ANSWERED][terms.rows] = 1.0
    out[BestColumn.MEASURED] = table.measured.copy()
    return out


def _exact_row(
    columns: type[BestColumn] | type[OotColumn],
    gold_item: GoldItem,
    guesses: Sequence[str],
    scores: Callable[[Frequencies, Sequence[str]], Mapping[str, ItemStats]],
) -> ExactRow:
    """One item's row of a revised family (its ``columns``) in Fractions: ``measured``
    whether the item is in T; where it has ``guesses`` and frequencies, ``answered`` 1 and
    each column's score (``scores`` of the frequencies and the guesses); every other column
    0. Both families build their rows so, on their own guesses and with their own measures."""
    from fractions import Fraction

    from scoring.measures.bulk import exact_frequencies

    row: dict[str, Fraction] = {column: Fraction(0) for column in columns}
    row[columns.MEASURED] = Fraction(gold_item.measured)
    freqs = exact_frequencies(gold_item)
    if guesses and freqs is not None:
        row[columns.ANSWERED] = Fraction(1)
        for column, stats in scores(freqs, guesses).items():
            row[column] = Fraction(stats.score)
    return row


def _best_exact(gold_item: GoldItem, answers: Answers, k: Fraction) -> ExactRow:
    from scoring.measures.revised import items as revised

    return _exact_row(
        BestColumn,
        gold_item,
        answers.guesses,
        lambda freqs, guesses: {
            BestColumn.NEW_BEST: revised.new_best(freqs, guesses),
            BestColumn.BEST_1: revised.best_1(freqs, guesses),
        },
    )


def _oot(given: Given, k: float) -> Columns:
    """weighted recall, weighted precision (penalty k) and rank of A_i cut to ten
    (:func:`scoring.measures.revised.items.weighted_recall`,
    :func:`~scoring.measures.revised.items.weighted_precision`,
    :func:`~scoring.measures.revised.items.rank`)."""
    if k <= 0:
        raise ValueError(f"penalty k = {k}; k must be > 0")
    import numpy as np

    from scoring.measures.bulk import running
    from scoring.measures.revised import items as revised

    table = given.table
    terms = given.set_terms.head(OOT_GUESSES)
    out: dict[str, Array] = {column: np.zeros(len(table)) for column in OotColumn}
    cumulative = running(terms.weights, terms.lengths)
    credit = cumulative[terms.ends - 1]
    wrong = terms.count(terms.weights == 0)
    out[OotColumn.WEIGHTED_RECALL][terms.rows] = credit / table.total[terms.rows]
    out[OotColumn.WEIGHTED_PRECISION][terms.rows] = credit / (credit + k * wrong)
    # rank: cum_A(j) / cum_H(j) over j = 1..10, cum_A constant past the last guess
    positions = np.arange(revised.RANK_POSITIONS)
    last = np.minimum(positions[None, :], terms.lengths[:, None] - 1)
    cum_a = cumulative[terms.starts[:, None] + last]
    cum_h = table.ideal_cumulative[terms.rows]
    ratios = np.zeros(len(terms.rows))
    for j in positions:
        ratios += cum_a[:, j] / cum_h[:, j]
    out[OotColumn.RANK][terms.rows] = ratios / revised.RANK_POSITIONS
    out[OotColumn.ANSWERED][terms.rows] = 1.0
    out[OotColumn.MEASURED] = table.measured.copy()
    return out


def _oot_exact(gold_item: GoldItem, answers: Answers, k: Fraction) -> ExactRow:
    from scoring.measures.revised import items as revised

    return _exact_row(
        OotColumn,
        gold_item,
        revised.answer_set(answers.guesses)[:OOT_GUESSES],
        lambda freqs, chosen: {
            OotColumn.WEIGHTED_RECALL: revised.weighted_recall(freqs, chosen),
            OotColumn.WEIGHTED_PRECISION: revised.weighted_precision(freqs, chosen, k),
            OotColumn.RANK: revised.rank(freqs, chosen),
        },
    )


BEST = Family("revised best", tuple(BestColumn), _best, _best_exact)
OOT = Family("revised oot", tuple(OotColumn), _oot, _oot_exact)

_ATTEMPTED, _ALL = "over attempted items", "over all items"


def _pair(
    family: Family, name: str, column: str, attempted: str, every: str
) -> tuple[Ratio, Ratio]:
    kinds: frozenset[SystemKind] = frozenset(("best",) if family is BEST else ("oot",))
    uses_k = name == "weighted_precision"
    answered, measured = BestColumn.ANSWERED.value, BestColumn.MEASURED.value
    column = str(column)
    return (
        Ratio(f"{name}.P", family.name, kinds, column, answered, attempted, uses_k=uses_k),
        Ratio(f"{name}.R", family.name, kinds, column, measured, every, uses_k=uses_k),
    )


BEST_MEASURES: tuple[Ratio, ...] = (
    *_pair(
        BEST,
        "new_best",
        BestColumn.NEW_BEST,
        f"new best, ÷ maxfreq (Jabbari et al. 2010), {_ATTEMPTED}",
        f"new best (Jabbari et al. 2010), {_ALL}",
    ),
    *_pair(
        BEST,
        "best_1",
        BestColumn.BEST_1,
        f"best-1: the first guess ÷ maxfreq (Jabbari et al. 2010), {_ATTEMPTED}",
        f"best-1 (Jabbari et al. 2010), {_ALL}",
    ),
)
OOT_MEASURES: tuple[Ratio, ...] = (
    *_pair(
        OOT,
        "weighted_recall",
        OotColumn.WEIGHTED_RECALL,
        f"weighted recall (Jabbari et al. 2010), {_ATTEMPTED}",
        f"weighted recall (Jabbari et al. 2010), {_ALL}",
    ),
    *_pair(
        OOT,
        "weighted_precision",
        OotColumn.WEIGHTED_PRECISION,
        f"weighted precision with penalty k (Jabbari et al. 2010), {_ATTEMPTED}",
        f"weighted precision with penalty k (Jabbari et al. 2010), {_ALL}",
    ),
    *_pair(
        OOT,
        "rank",
        OotColumn.RANK,
        f"the rank measure over 10 positions (Jabbari et al. 2010), {_ATTEMPTED}",
        f"the rank measure (Jabbari et al. 2010), {_ALL}",
    ),
)
"""``NAME.P`` over the answered items, ``NAME.R`` over the measured ones."""
