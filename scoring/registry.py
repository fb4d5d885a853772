"""The registry of measures: every figure lexsub
reports comes from a measure registered here once (:data:`MEASURES`), in the manner of
sacrebleu's ``Metric`` (:class:`scoring.quotient.Measure`: ``name``, ``family``,
``kinds``, ``columns``, ``corpus(sums)`` vectorised, ``figure(sums)``).

The registry is a table: it lists the measures each family module of
:mod:`scoring.measures` defines, and which families score each kind of leaderboard file
(:data:`FAMILIES`). It calls nothing of theirs, and they import nothing of it.

- the leaderboard's measures (:data:`LEADERBOARD`, in the order the leaderboard reports
  them), each ``Σ numerator / Σ denominator`` of two columns of one family
  (:mod:`scoring.measures.official`, :mod:`~scoring.measures.revised`,
  :mod:`~scoring.measures.ranking`). The drop-in scorer (:mod:`scoring.score`) prints
  the official ones, ``best.*`` and ``oot.*``, from the same columns summed in the system
  file's order (:attr:`scoring.official.OfficialScores.sums`), as score.pl sums them;
- mw detection and identification (:mod:`scoring.measures.multiword`, ``mw.*``);
- SWORDS' figures (:mod:`scoring.measures.swords`, ``swords.*``), F-scores of
  pooled counts and means of items' GAP.

The leaderboard's measures, told apart by the first answer line of a system file
(:func:`scoring.rows.detect_kind`):

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
(:mod:`scoring.rows`). Each family's exact route (Fractions) is the test oracle of its
bulk route, for every registered measure (``tests/test_measures.py``).

This module and the family modules import no numpy (the scorer reads them); the mw and
SWORDS families are imported when :data:`MEASURES` or a measure of theirs is first asked
for (a best or oot run of the scorer needs neither).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from scoring.measures import official, ranking, revised
from scoring.quotient import Family, Measure, Ratio
from scoring.types import SystemKind

if TYPE_CHECKING:
    from scoring.official import OfficialScores

LEADERBOARD_KINDS: frozenset[SystemKind] = frozenset(("best", "oot", "ranked"))
"""The kinds of system file the leaderboard scores (a SWORDS result as ranked)."""

FAMILIES: dict[SystemKind, tuple[Family, ...]] = {
    "best": (official.BEST, revised.BEST),
    "oot": (official.OOT, revised.OOT, ranking.RANKING),
    "ranked": (ranking.RANKING,),
}
"""The families that score each kind of leaderboard file."""

LEADERBOARD: tuple[Ratio, ...] = (
    *official.BEST_MEASURES,
    *revised.BEST_MEASURES,
    *official.OOT_MEASURES,
    *revised.OOT_MEASURES,
    *ranking.MEASURES,
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
LEADERBOARD_BY_NAME: dict[str, Ratio] = {measure.name: measure for measure in LEADERBOARD}
"""The leaderboard's measures by name (each with its signature, :meth:`Ratio.signature`)."""


@cache
def _measures() -> dict[str, Measure]:
    from scoring.measures.multiword import MULTIWORD
    from scoring.measures.swords import SWORDS

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
    measure = LEADERBOARD_BY_NAME.get(name) or _measures()[name]
    return measure.figure([sums[column] for column in measure.columns()])


def official_figure(scores: OfficialScores, name: str) -> float | None:
    """The registered measure ``TASK.NAME`` of a scan's sums (``P``, ``R``, ``mode_P``,
    ``mode_R`` of best or oot, as score.pl prints them); None where its denominator is 0."""
    return figure(f"{scores.measure}.{name}", scores.sums)
