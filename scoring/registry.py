"""The registry of measures: every figure lexsub
reports comes from a measure registered here once (:data:`MEASURES`), in the manner of
sacrebleu's ``Metric`` (:class:`scoring.quotient.Measure`: ``name``, ``kinds``,
``item_stats``, ``corpus(sums)`` vectorised, ``figure(sums)``, ``signature``).

Three families register their measures, each from its own module:

- the leaderboard's measures (:data:`LEADERBOARD`, below, in the order the leaderboard
  reports them), each ``Σ numerator / Σ denominator`` of two columns of
  :mod:`scoring.measures`' families. The drop-in scorer (:mod:`scoring.score`) prints the
  official ones, ``best.*`` and ``oot.*``, from the same columns summed in the system
  file's order (:attr:`scoring.official.OfficialScores.sums`), as score.pl sums them;
- mw detection and identification (:mod:`scoring.multiword_measures`, ``mw.*``);
- SWORDS' figures (:mod:`scoring.benchmark.swords_measures`, ``swords.*``), F-scores of
  pooled counts and means of items' GAP.

The leaderboard's measures, told apart by the first answer line of a system file
(:func:`scoring.measures.detect_kind`):

============  ==========================================================================
best          best.P/R/mode_P/mode_R (score.pl, McCarthy & Navigli 2007, eq. 1-4), new_best.P/R,
              best_1.P/R (Jabbari et al. 2010)
oot           oot.P/R/mode_P/mode_R (eq. 5-8), weighted_recall.P/R,
              weighted_precision.P/R (penalty k), rank.P/R (Jabbari et al. 2010), and the ranking
              measures with the file's order as the ranking
ranked        the ranking measures: gap, ap, auc, p_at_1, p_at_10, r_at_10
============  ==========================================================================

``.P`` divides by the items attempted, ``.R`` by all gold items (McCarthy & Navigli 2007, section
4). The official measures read the guesses score.pl's scan scored (under the gold's rules),
the others each item's first answer line under the measures' reading
(:mod:`scoring.measures`). Exact Fractions are the test oracle of every registered
measure (``tests/test_measures.py``).

This module and the families' registrations import no numpy (the scorer reads them); the
leaderboard's rows (:mod:`scoring.measures`) are loaded when an item's statistics are
first asked for, and the mw and SWORDS families when :data:`MEASURES` or a measure of
theirs is first asked for (a best or oot run of the scorer needs neither).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from scoring.quotient import Measure, Quotient, Row, Value
from scoring.signature import scorer_settings, signature
from scoring.types import Rules, SystemKind

if TYPE_CHECKING:
    from scoring.measures import Answers, GoldItem, Settings

OFFICIAL_COLUMNS = ("item", "score", "attempted", "mode_attempted", "mode_correct", "has_mode")
"""The official family's columns: an item in T, what it adds to the numerator of best or
oot, whether it was attempted, whether its mode was attempted and found, whether it has a
mode (McCarthy & Navigli 2007, section 4: |T|, |A|, |AM|, |TM|)."""
LEADERBOARD_KINDS: frozenset[SystemKind] = frozenset(("best", "oot", "ranked"))
"""The kinds of system file the leaderboard scores (a SWORDS result as ranked)."""


@dataclass(frozen=True)
class Ratio(Quotient):
    """A leaderboard measure ``Σ numerator / Σ denominator`` over gold items (columns of
    :data:`scoring.measures.FAMILIES`); ``uses_k``: the penalty k of weighted precision
    fixes its figures."""

    name: str
    kinds: frozenset[SystemKind]
    numerator: str
    denominator: str
    description: str
    uses_k: bool = False

    @property
    def official(self) -> bool:
        """Whether score.pl's scan gives the figure (read under the gold's rules); the
        others read the gold under ``Settings.reading``."""
        return self.numerator in OFFICIAL_COLUMNS

    def columns(self) -> tuple[str, ...]:
        return self.numerator, self.denominator

    def parts(self, sums: Sequence[Value]) -> tuple[Value, Value]:
        return sums[0], sums[1]

    def item_stats(self, gold_item: GoldItem, answers: Answers, k: float = 1.0) -> Row:
        """(numerator, denominator) of one gold item, from the families of the first kind
        the measure applies to (they agree: a column is one family's)."""
        from scoring.measures import FAMILIES  # numpy: loaded only when rows are asked for

        kind = min(self.kinds)
        result = []
        for column in self.columns():
            family = next(f for f in FAMILIES[kind] if column in f.columns)
            result.append(family.row(gold_item, answers, k)[family.columns.index(column)])
        return tuple(result)

    def signature(self, settings: Settings, rules: Rules, reading: Rules | None = None) -> str:
        """``metric:best.P|rules:compat|t:two+responses|...|version:X``: every setting that
        fixes the figure. ``rules`` are the gold's, which the official measures read it
        under; the others read it under ``reading`` (``rules`` when None)."""
        parts = list(scorer_settings(rules if self.official or reading is None else reading))
        if self.uses_k:
            parts.append(("k", f"{settings.k:g}"))
        if settings.significance:
            parts += [
                ("resample", "lemma"),
                ("n", settings.resamples),
                ("trials", settings.trials),
                ("seed", settings.seed),
                ("ci", f"{settings.confidence:g}"),
            ]
        return signature(self.name, *parts)


def _m(name: str, kinds: str, numerator: str, denominator: str, description: str) -> Ratio:
    return Ratio(
        name,
        frozenset(kinds.split()),  # type: ignore[arg-type]
        numerator,
        denominator,
        description,
        name.startswith("weighted_precision"),
    )


OFFICIAL = "score.pl (McCarthy & Navigli 2007, section 4)"
LEADERBOARD: tuple[Ratio, ...] = (
    _m("best.P", "best", "score", "attempted", f"best precision, eq. 1 ({OFFICIAL})"),
    _m("best.R", "best", "score", "item", f"best recall, eq. 2 ({OFFICIAL})"),
    _m(
        "best.mode_P",
        "best",
        "mode_correct",
        "mode_attempted",
        f"best mode precision, eq. 3 ({OFFICIAL})",
    ),
    _m(
        "best.mode_R",
        "best",
        "mode_correct",
        "has_mode",
        f"best mode recall, eq. 4 ({OFFICIAL})",
    ),
    _m(
        "new_best.P",
        "best",
        "new_best",
        "answered",
        "new best, ÷ maxfreq (Jabbari et al. 2010), over attempted items",
    ),
    _m(
        "new_best.R",
        "best",
        "new_best",
        "measured",
        "new best (Jabbari et al. 2010), over all items",
    ),
    _m(
        "best_1.P",
        "best",
        "best_1",
        "answered",
        "best-1: the first guess ÷ maxfreq (Jabbari et al. 2010), over attempted items",
    ),
    _m("best_1.R", "best", "best_1", "measured", "best-1 (Jabbari et al. 2010), over all items"),
    _m("oot.P", "oot", "score", "attempted", f"oot precision, eq. 5 ({OFFICIAL})"),
    _m("oot.R", "oot", "score", "item", f"oot recall, eq. 6 ({OFFICIAL})"),
    _m(
        "oot.mode_P",
        "oot",
        "mode_correct",
        "mode_attempted",
        f"oot mode precision, eq. 7 ({OFFICIAL})",
    ),
    _m("oot.mode_R", "oot", "mode_correct", "has_mode", f"oot mode recall, eq. 8 ({OFFICIAL})"),
    _m(
        "weighted_recall.P",
        "oot",
        "weighted_recall",
        "answered",
        "weighted recall (Jabbari et al. 2010), over attempted items",
    ),
    _m(
        "weighted_recall.R",
        "oot",
        "weighted_recall",
        "measured",
        "weighted recall (Jabbari et al. 2010), over all items",
    ),
    _m(
        "weighted_precision.P",
        "oot",
        "weighted_precision",
        "answered",
        "weighted precision with penalty k (Jabbari et al. 2010), over attempted items",
    ),
    _m(
        "weighted_precision.R",
        "oot",
        "weighted_precision",
        "measured",
        "weighted precision with penalty k (Jabbari et al. 2010), over all items",
    ),
    _m(
        "rank.P",
        "oot",
        "rank",
        "answered",
        "the rank measure over 10 positions (Jabbari et al. 2010), over attempted items",
    ),
    _m(
        "rank.R",
        "oot",
        "rank",
        "measured",
        "the rank measure (Jabbari et al. 2010), over all items",
    ),
    _m(
        "gap",
        "oot ranked",
        "gap",
        "relevant",
        "generalised average precision (Kishida 2005), mean over items with a gold weight",
    ),
    _m(
        "ap",
        "oot ranked",
        "ap",
        "relevant",
        "average precision, binary relevance (Glickman et al. 2006), mean over items with a"
        " relevant candidate",
    ),
    _m(
        "auc",
        "oot ranked",
        "auc",
        "auc_defined",
        "ROC AUC, ties one half (Cohn 2003), mean over items with both classes among the"
        " candidates",
    ),
    _m(
        "p_at_1",
        "oot ranked",
        "p_at_1",
        "relevant",
        "precision at 1 (unweighted), mean over items with a gold weight",
    ),
    _m(
        "p_at_10",
        "oot ranked",
        "p_at_10",
        "relevant",
        "precision at 10 (unweighted), mean over items with a gold weight",
    ),
    _m(
        "r_at_10",
        "oot ranked",
        "r_at_10",
        "relevant",
        "recall at 10 (unweighted), mean over items with a gold weight",
    ),
)
"""The leaderboard's measures, in the order it reports them."""


def _registry(*families: Sequence[Measure]) -> dict[str, Measure]:
    registry: dict[str, Measure] = {}
    for family in families:
        for measure in family:
            if measure.name in registry:
                raise ValueError(f"measure {measure.name!r} is registered twice")
            registry[measure.name] = measure
    return registry


MEASURES: dict[str, Measure]
"""Every measure, registered once: the leaderboard's, then mw's, then SWORDS' (built when
first read)."""
_LEADERBOARD_BY_NAME: dict[str, Measure] = {measure.name: measure for measure in LEADERBOARD}


@cache
def _measures() -> dict[str, Measure]:
    from scoring.benchmark.swords_measures import SWORDS
    from scoring.multiword_measures import MULTIWORD

    return _registry(LEADERBOARD, MULTIWORD, SWORDS)


def __getattr__(name: str) -> object:
    """:data:`MEASURES`, the registry, built on first reading (PEP 562)."""
    if name == "MEASURES":
        return _measures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def measure_def(name: str, kinds: frozenset[SystemKind] | None = None) -> Measure:
    """The registered measure called ``name`` (one that applies to one of ``kinds``, when
    given); ValueError naming the known ones."""
    measures = _measures()
    measure = measures.get(name)
    if measure is None or (kinds is not None and not measure.kinds & kinds):
        known = [m.name for m in measures.values() if kinds is None or m.kinds & kinds]
        raise ValueError(f"unknown measure {name!r}; measures are: {', '.join(known)}")
    return measure


def leaderboard_measures() -> list[str]:
    """The names of the measures the leaderboard reports, in its order."""
    return [measure.name for measure in LEADERBOARD]


def figure(name: str, sums: Mapping[str, float]) -> float | None:
    """Measure ``name``'s figure from column sums by column name; None where its last
    denominator is 0.

    >>> figure("best.P", {"score": 1.5, "attempted": 2}), figure("oot.mode_R", {
    ...     "mode_correct": 0, "has_mode": 0})
    (0.75, None)
    """
    measure = _LEADERBOARD_BY_NAME.get(name) or _measures()[name]
    return measure.figure([sums[column] for column in measure.columns()])
