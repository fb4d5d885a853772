"""The official family: best and oot (McCarthy & Navigli 2007, section 4, eq. 1-8) as
score.pl computes them, under the gold's rules (:mod:`scoring.measures.official.items`).

Columns (:class:`Column`), one row per gold item: ``item`` (the item is in T), ``score``
(what it adds to the numerator of best or oot), ``attempted``, ``mode_attempted``,
``mode_correct``, ``has_mode`` (McCarthy & Navigli 2007, section 4: |T|, |A|, |AM|,
|TM|). The routes:

- bulk (:func:`bulk`): the scan's outcome of each item's guesses
  (:func:`scoring.measures.official.items.score_item`'s floats), one numpy column each;
- exact (:func:`exact`): the same credit from the gold's counts in Fractions.

The drop-in scorer sums the same columns in the system file's order
(:attr:`scoring.measures.official.items.OfficialScores.sums`) and prints the registered
measures' figures of them (:func:`scoring.registry.official_figure`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from scoring.formats.gold import gold_norms
from scoring.measures.official.items import official_outcome, score_item
from scoring.measures.quotient import Columns, ExactRow, Family, Ratio
from scoring.types import SystemKind, Task

if TYPE_CHECKING:
    from fractions import Fraction

    from scoring.measures.bulk import Answers, Array, Given, GoldItem


class Column(StrEnum):
    """The official family's columns."""

    ITEM = "item"
    SCORE = "score"
    ATTEMPTED = "attempted"
    MODE_ATTEMPTED = "mode_attempted"
    MODE_CORRECT = "mode_correct"
    HAS_MODE = "has_mode"


COLUMNS: tuple[str, ...] = tuple(Column)


OFFICIAL_RATIOS: dict[str, tuple[Column, Column]] = {
    "P": (Column.SCORE, Column.ATTEMPTED),
    "R": (Column.SCORE, Column.ITEM),
    "mode_P": (Column.MODE_CORRECT, Column.MODE_ATTEMPTED),
    "mode_R": (Column.MODE_CORRECT, Column.HAS_MODE),
}
"""The official figures as ratios of the official columns' sums
(:attr:`scoring.measures.official.items.OfficialScores.sums`): precision divides the score
by the items attempted, recall by the items in T, mode precision the modes found by the
items with a mode attempted, mode recall by those with a mode (McCarthy & Navigli 2007,
section 4, eq. 1-8). The registered measures (:data:`BEST_MEASURES`, :data:`OOT_MEASURES`)
are built from this table; the drop-in scorer reads them through the registry
(:func:`scoring.registry.official_figure`)."""


def _bulk(task: Task, given: Given) -> Columns:
    """best or oot by :func:`scoring.measures.official.items.score_item` for each answered item in T
    (the scan's outcome when it scored the item). score.pl skips an item no answer can
    earn credit on (it scores 0)."""
    import numpy as np

    table = given.table
    answered: list[int] = []
    outcomes: dict[Column, list[float]] = {
        column: []
        for column in (Column.SCORE, Column.ATTEMPTED, Column.MODE_ATTEMPTED, Column.MODE_CORRECT)
    }
    for j, (gold_item, answers) in enumerate(zip(table.items, given.answers, strict=True)):
        guesses = answers.official
        item = gold_item.item
        if guesses and item is not None and item.total:
            if answers.outcome is not None:  # the scan scored them (score_item's floats)
                score, tried, right = answers.outcome
            else:
                _credit, score, tried, right = score_item(task, gold_item.rules, item, guesses)
            answered.append(j)
            outcomes[Column.SCORE].append(score)
            outcomes[Column.ATTEMPTED].append(answers.fresh)
            outcomes[Column.MODE_ATTEMPTED].append(tried)
            outcomes[Column.MODE_CORRECT].append(right)
    out: dict[str, Array] = {column: np.zeros(len(table)) for column in Column}
    out[Column.ITEM] = table.in_t.copy()
    out[Column.HAS_MODE] = table.has_mode.copy()
    for column, values in outcomes.items():
        out[column][answered] = values
    return out


def _exact(task: Task, gold_item: GoldItem, answers: Answers) -> ExactRow:
    """One item's columns in Fractions:
    :func:`~scoring.measures.official.items.official_outcome` (the scan's rule) of the
    gold's count / |H_i| in Fractions (:func:`scoring.formats.gold.gold_norms`)."""
    from fractions import Fraction

    row: dict[str, Fraction] = {column: Fraction(0) for column in Column}
    item = gold_item.item
    if item is None:
        return row
    row[Column.ITEM] = Fraction(1)
    row[Column.HAS_MODE] = Fraction(gold_item.has_mode)
    guesses = answers.official
    if not item.total or not guesses:
        return row
    norms = gold_norms(item.counts, item.total, Fraction)
    oot = task == "oot"
    distinct = oot and gold_item.rules == "fixed"
    _credit, score, tried, right = official_outcome(
        oot, norms, item.mode, guesses, distinct, Fraction(0)
    )
    row[Column.SCORE] = score
    row[Column.ATTEMPTED] = Fraction(answers.fresh)
    row[Column.MODE_ATTEMPTED] = Fraction(tried)
    row[Column.MODE_CORRECT] = Fraction(right)
    return row


def _family(task: Task) -> Family:
    return Family(
        f"official {task}",
        COLUMNS,
        lambda given, k: _bulk(task, given),
        lambda gold_item, answers, k: _exact(task, gold_item, answers),
    )


BEST = _family("best")
OOT = _family("oot")
"""The official family of each task (the same columns)."""

_SOURCE = "score.pl (McCarthy & Navigli 2007, section 4)"


def _ratio(
    family: Family, kind: SystemKind, name: str, top: Column, bottom: Column, what: str
) -> Ratio:
    return Ratio(
        f"{kind}.{name}",
        family.name,
        frozenset((kind,)),
        top.value,
        bottom.value,
        f"{kind} {what} ({_SOURCE})",
        official=True,
    )


_WHAT = ("precision", "recall", "mode precision", "mode recall")


def _measures(family: Family, kind: SystemKind, first: int) -> tuple[Ratio, ...]:
    """The four official measures, as :data:`OFFICIAL_RATIOS` divides their columns."""
    return tuple(
        _ratio(family, kind, name, top, bottom, f"{what}, eq. {first + index}")
        for index, (what, (name, (top, bottom))) in enumerate(
            zip(_WHAT, OFFICIAL_RATIOS.items(), strict=True)
        )
    )


BEST_MEASURES = _measures(BEST, "best", 1)
OOT_MEASURES = _measures(OOT, "oot", 5)
"""best.P/R/mode_P/mode_R and oot.P/R/mode_P/mode_R: ``.P`` divides by the items
attempted, ``.R`` by all gold items (McCarthy & Navigli 2007, section 4)."""
