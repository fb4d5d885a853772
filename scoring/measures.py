"""The registry of measures the leaderboard reports (SPEC S2, S4, S5), and each system's
per-item rows of sufficient statistics.

As in sacrebleu, every measure is a ratio of two column sums over gold items: best P is
Σ score / Σ attempted, new best R is Σ new_best / Σ item, GAP is Σ gap / Σ gap_defined.
So a corpus figure, a figure by PoS (the rows of one PoS) and a resample (rows drawn by
lemma, :mod:`scoring.significance`) are all computed the same way, by one function
(:func:`scoring.significance.ratio_of`), and numerator and denominator are resampled
together.

A system file is one of three kinds, told apart by its first answer line
(:func:`detect_kind`): ``best`` (``lexelt id :: guesses``), ``oot`` (``:::``) or
``ranked`` (scored candidates, docs/ranking.md). Which measures apply:

============  ==========================================================================
best          best.P/R/mode_P/mode_R (score.pl, seed 002 eq. 1-4), new_best.P/R,
              best_1.P/R (seed 000)
oot           oot.P/R/mode_P/mode_R (eq. 5-8), weighted_recall.P/R,
              weighted_precision.P/R (penalty k), rank.P/R (seed 000), and the ranking
              measures with the file's order as the ranking
ranked        the ranking measures: gap, ap, auc, p_at_1, p_at_10, r_at_10
============  ==========================================================================

``.P`` divides by the items attempted, ``.R`` by all gold items (seed 002, section 4).
The official rows come from :func:`scoring.official.score_system` under the gold's rules,
so best and oot agree with score.pl (compat) or the fixed rules. The other measures read
each item's first answer line with the fixed rules' split (trimmed, hyphens as spaces);
for weighted recall, weighted precision and rank, whose A_i is a set of at most ten
terms, a repeated guess counts once (its first place) and guesses past the tenth are
dropped, as oot drops them.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from scoring import ranking, revised
from scoring.gold import Gold
from scoring.io import pos_of
from scoring.lines import iter_chunks
from scoring.official import guesses_fixed, score_system
from scoring.types import SystemKind


@dataclass(frozen=True, slots=True)
class MeasureDef:
    """One reported measure: ``Σ numerator / Σ denominator`` over gold items."""

    name: str
    kinds: frozenset[SystemKind]
    numerator: str
    denominator: str
    description: str


def _m(name: str, kinds: str, numerator: str, denominator: str, description: str) -> MeasureDef:
    return MeasureDef(name, frozenset(kinds.split()), numerator, denominator,  # type: ignore[arg-type]
                      description)


OFFICIAL = "score.pl (seed 002, section 4)"
MEASURES: dict[str, MeasureDef] = {m.name: m for m in (
    _m("best.P", "best", "score", "attempted", f"best precision, eq. 1 ({OFFICIAL})"),
    _m("best.R", "best", "score", "item", f"best recall, eq. 2 ({OFFICIAL})"),
    _m("best.mode_P", "best", "mode_correct", "mode_attempted", f"best mode precision, eq. 3"
       f" ({OFFICIAL})"),
    _m("best.mode_R", "best", "mode_correct", "has_mode", f"best mode recall, eq. 4"
       f" ({OFFICIAL})"),
    _m("new_best.P", "best", "new_best", "attempted", "new best, ÷ maxfreq (seed 000), over "
       "attempted items"),
    _m("new_best.R", "best", "new_best", "item", "new best (seed 000), over all items"),
    _m("best_1.P", "best", "best_1", "attempted", "best-1: the first guess ÷ maxfreq (seed "
       "000), over attempted items"),
    _m("best_1.R", "best", "best_1", "item", "best-1 (seed 000), over all items"),
    _m("oot.P", "oot", "score", "attempted", f"oot precision, eq. 5 ({OFFICIAL})"),
    _m("oot.R", "oot", "score", "item", f"oot recall, eq. 6 ({OFFICIAL})"),
    _m("oot.mode_P", "oot", "mode_correct", "mode_attempted", f"oot mode precision, eq. 7"
       f" ({OFFICIAL})"),
    _m("oot.mode_R", "oot", "mode_correct", "has_mode", f"oot mode recall, eq. 8"
       f" ({OFFICIAL})"),
    _m("weighted_recall.P", "oot", "weighted_recall", "attempted", "weighted recall "
       "(seed 000), over attempted items"),
    _m("weighted_recall.R", "oot", "weighted_recall", "item", "weighted recall (seed 000), "
       "over all items"),
    _m("weighted_precision.P", "oot", "weighted_precision", "attempted", "weighted precision"
       " with penalty k (seed 000), over attempted items"),
    _m("weighted_precision.R", "oot", "weighted_precision", "item", "weighted precision "
       "with penalty k (seed 000), over all items"),
    _m("rank.P", "oot", "rank", "attempted", "the rank measure over 10 positions (seed 000),"
       " over attempted items"),
    _m("rank.R", "oot", "rank", "item", "the rank measure (seed 000), over all items"),
    _m("gap", "oot ranked", "gap", "relevant", "generalised average precision (Kishida "
       "2005), mean over items with a gold weight"),
    _m("ap", "oot ranked", "ap", "relevant", "average precision, binary relevance (seed "
       "003), mean over items with a relevant candidate"),
    _m("auc", "oot ranked", "auc", "auc_defined", "ROC AUC, ties one half (seed 004), mean "
       "over items with both classes among the candidates"),
    _m("p_at_1", "oot ranked", "p_at_1", "relevant", "precision at 1 (unweighted), mean over "
       "items with a gold weight"),
    _m("p_at_10", "oot ranked", "p_at_10", "relevant", "precision at 10 (unweighted), mean "
       "over items with a gold weight"),
    _m("r_at_10", "oot ranked", "r_at_10", "relevant", "recall at 10 (unweighted), mean over "
       "items with a gold weight"),
)}


@dataclass(frozen=True)
class SystemRows:
    """One system's rows: ``columns[c][j]`` is column c of gold item ``ids[j]``."""

    name: str
    kind: SystemKind
    ids: tuple[str, ...]
    lexelts: tuple[str, ...]
    columns: dict[str, np.ndarray] = field(repr=False)

    def measures(self) -> list[str]:
        """The registered measures that apply to this system's kind, in registry order."""
        return [name for name, m in MEASURES.items() if self.kind in m.kinds]

    def stats(self, measure: str) -> np.ndarray:
        """The (items, 2) array of ``measure``'s numerator and denominator columns."""
        definition = measure_def(measure)
        if self.kind not in definition.kinds:
            raise ValueError(f"{self.name}: {measure} does not apply to a {self.kind} file "
                             f"(it needs {' or '.join(sorted(definition.kinds))})")
        return np.column_stack((self.columns[definition.numerator],
                                self.columns[definition.denominator]))

    def value(self, measure: str, mask: np.ndarray | None = None) -> float | None:
        """The corpus figure (rows under ``mask`` only, when given); None when the
        denominator is 0 (nothing attempted, no item of that PoS)."""
        stats = self.stats(measure)
        if mask is not None:
            stats = stats[mask]
        numerator, denominator = stats.sum(axis=0)
        return float(numerator / denominator) if denominator else None


def measure_def(name: str) -> MeasureDef:
    """The registered measure called ``name``; ValueError naming the known ones."""
    try:
        return MEASURES[name]
    except KeyError:
        raise ValueError(f"unknown measure {name!r}; measures are: "
                         f"{', '.join(MEASURES)}") from None


def pos_masks(rows: SystemRows) -> dict[str, np.ndarray]:
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
        if ranking.looks_ranked(line.strip()):
            return "ranked"
        if " ::: " in line or line.rstrip().endswith(":::"):
            return "oot"
        if " :: " in line or line.rstrip().endswith("::"):
            return "best"
    raise ValueError(f"{name}: no line names an item with '::' (best), ':::' (oot) or a "
                     "ranked-candidates separator (docs/ranking.md); is it a system file?")


def first_answers(text: str, kind: Literal["best", "oot"]) -> dict[str, list[str]]:
    """Each item's guesses from its first answer line, split by the fixed rules."""
    answers: dict[str, list[str]] = {}
    for _first, found in iter_chunks(text, kind):
        for lexelt, item_id, answer, _other in found:
            if lexelt and item_id not in answers:
                answers[item_id] = guesses_fixed(answer)
    return answers


class GoldRows:
    """What every system's rows share: the gold items in order, their lemmas, whether they
    have a mode, and float frequencies computed once (:func:`revised.frequencies`)."""

    def __init__(self, gold: Gold) -> None:
        self.gold = gold
        self.ids = tuple(gold.items)
        self.index = {item_id: index for index, item_id in enumerate(self.ids)}
        self.lexelts = tuple(item.lexelt for item in gold.items.values())
        modes = gold.modes
        self.has_mode = np.array([item_id in modes for item_id in self.ids], dtype=float)
        self.frequencies = []
        for item_id, item in gold.items.items():
            try:
                self.frequencies.append(revised.frequencies(item, exact=False))
            except ValueError as error:
                raise ValueError(f"gold item {item.lexelt} {item_id}: {error}") from error

    def rows(self, name: str, text: str, kind: SystemKind, k: float = 1.0) -> SystemRows:
        """Score one system file's text (of ``kind``) into rows."""
        if kind == "mw":
            raise ValueError(f"{name}: the leaderboard scores best, oot and ranked files; a "
                             "multiword file is scored with scoring.score -t mw")
        columns: dict[str, np.ndarray] = {"item": np.ones(len(self.ids))}
        if kind == "ranked":
            rankings = ranking.rankings_of(ranking.parse_ranking(text.splitlines(), name))
            columns.update(self._ranking_columns(name, rankings))
            return SystemRows(name, kind, self.ids, self.lexelts, columns)
        columns.update(self._official_columns(name, text, kind))
        answers = first_answers(text, kind)
        if kind == "best":
            columns.update(self._revised(name, answers, {
                "new_best": revised.new_best, "best_1": revised.best_1}, dedupe=False))
        else:
            def precision(item: revised.Frequencies, guesses: Sequence[str]) -> revised.ItemStats:
                return revised.weighted_precision(item, guesses, k)

            columns.update(self._revised(name, answers, {
                "weighted_recall": revised.weighted_recall,
                "weighted_precision": precision, "rank": revised.rank}, dedupe=True))
            rankings = {item_id: tuple(ranking.Scored(guess, float(len(guesses) - place))
                                       for place, guess in enumerate(guesses))
                        for item_id, guesses in answers.items() if item_id in self.index}
            columns.update(self._ranking_columns(name, rankings))
        return SystemRows(name, kind, self.ids, self.lexelts, columns)

    def _official_columns(self, name: str, text: str, kind: Literal["best", "oot"]
                          ) -> dict[str, np.ndarray]:
        scores = score_system(kind, self.gold, text, name)
        by_id = {row.id: row for row in scores.items}
        names = ("score", "attempted", "mode_attempted", "mode_correct")
        table = np.zeros((len(self.ids), len(names)))
        for index, item_id in enumerate(self.ids):
            row = by_id.get(item_id)
            if row is not None:
                table[index] = (row.score, row.attempted, row.mode_attempted, row.mode_correct)
        columns = {column: table[:, c] for c, column in enumerate(names)}
        columns["has_mode"] = self.has_mode
        return columns

    def _revised(self, name: str, answers: Mapping[str, list[str]],
                 measures: Mapping[str, Callable[..., revised.ItemStats]], dedupe: bool
                 ) -> dict[str, np.ndarray]:
        columns = {column: np.zeros(len(self.ids)) for column in measures}
        for index, item_id in enumerate(self.ids):
            guesses = answers.get(item_id)
            if not guesses:
                continue
            if dedupe:
                guesses = list(dict.fromkeys(guesses))[:revised.RANK_POSITIONS]
            for column, measure in measures.items():
                try:
                    columns[column][index] = float(measure(self.frequencies[index],
                                                           guesses).score)
                except ValueError as error:
                    raise ValueError(f"{name}: item {item_id}: {error}") from error
        return columns

    def _ranking_columns(self, name: str, rankings: Mapping[str, Sequence[ranking.Scored]]
                         ) -> dict[str, np.ndarray]:
        """GAP, AP, AUC, P@1, P@10, R@10 of each item (ids outside the gold are ignored,
        as the scorer ignores them)."""
        names = ("gap", "ap", "p_at_1", "p_at_10", "r_at_10")
        columns = {column: np.zeros(len(self.ids)) for column in
                   (*names, "relevant", "auc", "auc_defined")}
        for index, item_id in enumerate(self.ids):
            try:
                found = ranking.ranking_measures(self.frequencies[index],
                                                 rankings.get(item_id, ()))
            except ValueError as error:
                raise ValueError(f"{name}: item {item_id}: {error}") from error
            for column in names:
                columns[column][index] = found[column].value
            columns["relevant"][index] = found["gap"].defined
            columns["auc"][index] = found["auc"].value
            columns["auc_defined"][index] = found["auc"].defined
        return columns


_SHARED: GoldRows | None = None
"""The gold rows a worker process inherits (set before the pool forks)."""


def _score_one(job: tuple[str, str, float]) -> SystemRows:
    name, text, k = job
    assert _SHARED is not None
    return _SHARED.rows(name, text, detect_kind(text, name), k)


def score_files(gold: Gold, systems: Sequence[tuple[str, str]], k: float = 1.0,
                workers: int = 1) -> list[SystemRows]:
    """Rows for each ``(name, text)`` system against ``gold``, in order. With ``workers``
    > 1 (and a platform that forks) the systems are scored in that many processes, which
    inherit the gold rows; the rows are the same either way."""
    global _SHARED
    _SHARED = GoldRows(gold)
    jobs = [(name, text, k) for name, text in systems]
    try:
        if workers > 1 and len(jobs) > 1 and "fork" in mp.get_all_start_methods():
            with mp.get_context("fork").Pool(min(workers, len(jobs))) as pool:
                return pool.map(_score_one, jobs, chunksize=1)
        return [_score_one(job) for job in jobs]
    finally:
        _SHARED = None
