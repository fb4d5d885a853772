"""One table for many systems (SPEC S3, S6, S7; issue 6 item 5): every applicable measure
of :mod:`scoring.measures` per system, optionally by PoS (Tables 4-8 of the 2009 paper),
the theoretical upper bounds of the gold (:mod:`scoring.analyses`), and, when asked,
bootstrap intervals and pairwise significance (:mod:`scoring.significance`), resampling
lemmas. The command line (:mod:`scoring.compare`) and the organiser's scores page both
call :func:`leaderboard` and print or render its result, so their numbers cannot differ.

Every figure is a fraction (not a percentage); a measure that does not apply to a
system's kind is absent from its row, and one whose denominator is 0 is None (JSON null).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from pathlib import PurePath
from typing import Any

import numpy as np

from scoring import analyses, significance
from scoring.gold import Gold
from scoring.io import SystemLine, parse_system_line
from scoring.measures import (
    MEASURES,
    Settings,
    SystemRows,
    measure_def,
    pos_masks,
    score_files,
)
from scoring.official import score_system
from scoring.types import SystemKind

__all__ = ["Settings", "leaderboard", "system_names"]


def system_names(paths: Sequence[str]) -> list[str]:
    """The names systems are reported under: each file's name, or the path as given when
    two files share a name."""
    names = [PurePath(path).name for path in paths]
    return [name if names.count(name) == 1 else path
            for name, path in zip(names, paths, strict=True)]


def _chosen(rows: SystemRows, settings: Settings) -> list[str]:
    applicable = rows.measures()
    if settings.measures is None:
        return applicable
    return [m for m in settings.measures if m in applicable]


def leaderboard(gold: Gold, systems: Sequence[tuple[str, str]], settings: Settings
                ) -> dict[str, Any]:
    """The leaderboard of ``systems`` (``(name, text)`` pairs) against ``gold``, as a
    JSON-ready dict: ``systems``, ``upper_bounds``, ``measures``, ``signatures``, and
    ``by_pos``, ``intervals`` and ``significance`` when asked."""
    for name in settings.measures or ():
        measure_def(name)
    all_rows = score_files(gold, systems, settings.k, settings.workers)
    result: dict[str, Any] = {"gold_items": len(gold.items), "rules": gold.rules}
    result["systems"] = {rows.name: {m: rows.value(m) for m in _chosen(rows, settings)}
                         for rows in all_rows}
    used = [m for m in MEASURES if any(m in row for row in result["systems"].values())]
    result["measures"] = {m: MEASURES[m].description for m in used}
    result["signatures"] = {m: MEASURES[m].signature(settings, gold.rules) for m in used}
    bounds = analyses.upper_bounds(gold)
    result["upper_bounds"] = {"best": float(bounds.best), "oot": float(bounds.oot),
                              "oot_duplicates": float(bounds.oot_duplicates),
                              "mode": None if bounds.mode is None else float(bounds.mode)}
    if settings.by_pos:
        result["by_pos"] = {
            rows.name: {pos: {m: rows.value(m, mask) for m in _chosen(rows, settings)}
                        for pos, mask in pos_masks(rows).items()}
            for rows in all_rows}
    if settings.analyses:
        result["analyses"] = _analyses(gold, systems, [rows.kind for rows in all_rows])
    if settings.significance:
        result.update(_significance(all_rows, settings))
    return result


def _lines(name: str, text: str, kind: SystemKind) -> list[SystemLine]:
    """A best or oot file read strictly (the analyses need well-formed answers)."""
    lines = [parse_system_line(line, kind, number, name)
             for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    return lines


def _analyses(gold: Gold, systems: Sequence[tuple[str, str]], kinds: Sequence[SystemKind]
              ) -> dict[str, Any]:
    """The paper's analyses of section 4 for these systems: items with duplicates (Tables
    7-8) for oot files; type overlap (Table 9) and disambiguation precision (Table 10)
    for best files."""
    duplicates = {}
    best: dict[str, list[SystemLine]] = {}
    for (name, text), kind in zip(systems, kinds, strict=True):
        if kind == "oot":
            found = analyses.items_with_duplicates(
                name, score_system("oot", gold, text, name), gold).as_dict()
            found.pop("iwd_ids")
            duplicates[name] = found
        elif kind == "best":
            best[name] = _lines(name, text, kind)
    result: dict[str, Any] = {"duplicates": duplicates}
    if best:
        result["type_overlap"] = {row.system: {k: v for k, v in row.as_dict().items()
                                               if k not in ("system", "words")}
                                  for row in analyses.type_overlap(gold, best)}
        found = analyses.disambiguation_precision(gold, best).as_dict()
        found.pop("all_ids")
        result["disambiguation"] = found
    return result


def _corpora(measures: Sequence[str], columns: Sequence[str]
             ) -> dict[str, significance.Corpus]:
    """Each measure's corpus function on sums over ``columns`` (it reads its own two)."""
    def corpus(name: str) -> significance.Corpus:
        measure = measure_def(name)
        picked = [columns.index(column) for column in measure.columns()]
        return lambda sums: measure.corpus(sums[:, picked])

    return {m: corpus(m) for m in measures}


def _significance(all_rows: Sequence[SystemRows], settings: Settings) -> dict[str, Any]:
    """Intervals for every figure and every pairwise comparison, all drawn from the same
    resamples of lemmas (so the comparisons are paired). Each system's rows are summed by
    lemma once; one set of resamples (and of swaps, per pair) serves every measure."""
    sums: dict[str, tuple[np.ndarray, list[str]]] = {}
    intervals: dict[str, dict[str, list[float]]] = {}
    for rows in all_rows:
        columns = sorted(rows.columns)
        matrix = np.column_stack([rows.columns[c] for c in columns])
        sums[rows.name] = significance.cluster_sums(matrix, rows.lexelts)[0], columns
        found = significance.bootstrap_intervals(
            sums[rows.name][0], _corpora(_chosen(rows, settings), columns),
            resamples=settings.resamples, seed=settings.seed, confidence=settings.confidence)
        intervals[rows.name] = {m: [i.low, i.high] for m, i in found.items()}
    comparisons = []
    for first, second in combinations(all_rows, 2):
        shared = [m for m in _chosen(first, settings) if m in _chosen(second, settings)]
        if not shared:
            continue
        columns = sorted({c for m in shared for c in measure_def(m).columns()})

        def select(rows: SystemRows, columns: list[str] = columns) -> np.ndarray:
            found, names = sums[rows.name]
            return found[:, [names.index(c) for c in columns]]

        tests = significance.compare_many(select(first), select(second),
                                          _corpora(shared, columns), trials=settings.trials,
                                          resamples=settings.resamples, seed=settings.seed,
                                          confidence=settings.confidence)
        comparisons += [{
            "measure": measure, "a": first.name, "b": second.name, "a_value": test.a,
            "b_value": test.b, "delta": test.delta, "low": test.interval.low,
            "high": test.interval.high, "p_bootstrap": test.p_bootstrap,
            "p_randomisation": test.p_randomisation} for measure, test in tests.items()]
    return {"intervals": intervals, "significance": comparisons,
            "resampling": {"unit": "lemma", "resamples": settings.resamples,
                           "trials": settings.trials, "seed": settings.seed,
                           "confidence": settings.confidence}}
