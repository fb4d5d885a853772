"""One table for many systems: every applicable measure
of the registry (:mod:`scoring.registry`, on the rows of :mod:`scoring.leaderboard.rows`) per
system, optionally by PoS (Tables 4-8 of the 2009 paper), the theoretical upper bounds of
the gold (:mod:`scoring.leaderboard.analyses`), and, when asked, bootstrap intervals and pairwise
significance (:mod:`scoring.significance`), resampling lemmas. The command line
(:mod:`scoring.leaderboard.cli`) and the organiser's scores page both call :func:`leaderboard`
and print or render its result, so their numbers cannot differ.

Every figure is a fraction (not a percentage); a measure that does not apply to a
system's kind is absent from its row, and one whose denominator is 0 is None (JSON null).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from itertools import combinations
from pathlib import PurePath
from typing import Any, TypedDict, Unpack

import numpy as np

from scoring import significance
from scoring.errors import refuse_unknown
from scoring.formats.gold import Gold, read_readings
from scoring.formats.ranked import format_ranking_line
from scoring.formats.swords import Swords
from scoring.formats.system import SystemLine, parse_system_line
from scoring.leaderboard import analyses
from scoring.leaderboard.rows import SystemRows, corpus_totals, pos_masks, score_files
from scoring.registry import LEADERBOARD_BY_NAME, LEADERBOARD_KINDS, MEASURES, measure_def
from scoring.score.scan import score_system
from scoring.signature import Provenance, Settings, read_provenance
from scoring.significance import Resampling
from scoring.types import Rules, SystemKind

__all__ = [
    "CompareOptions",
    "Leaderboard",
    "PairTest",
    "Resampling",
    "Settings",
    "SwordsData",
    "compare",
    "compare_files",
    "is_swords_result",
    "leaderboard",
    "swords_as_ranked",
    "system_names",
    "system_provenance",
]

Figures = Mapping[str, float | None]
"""Measure → figure (None where its denominator is 0)."""


@dataclass(frozen=True)
class PairTest:
    """Systems ``a`` and ``b`` on one measure: their figures, delta = b - a with its paired
    bootstrap interval [low, high], and the two p-values. A figure that is undefined
    (None) has no delta, interval or p; ``undefined_resamples`` and ``undefined_trials``
    count the resamples and trials left out because either figure was undefined there
    (:mod:`scoring.significance`), and with more than half left out there is no interval
    (low and high None) or p."""

    measure: str
    a: str
    b: str
    a_value: float | None
    b_value: float | None
    delta: float | None
    low: float | None
    high: float | None
    p_bootstrap: float | None
    p_randomisation: float | None
    undefined_resamples: int = 0
    undefined_trials: int = 0

    def to_json(self) -> dict[str, Any]:
        """Its fields; the two counts only when not 0."""
        body = asdict(self)
        for key in ("undefined_resamples", "undefined_trials"):
            if not body[key]:
                del body[key]
        return body


@dataclass(frozen=True)
class Leaderboard:
    """Every system's figures against one gold (fractions), the measures' descriptions and
    signatures, the gold's upper bounds; ``by_pos``, ``analyses`` (the JSON of
    :mod:`scoring.leaderboard.analyses`' results), ``intervals`` (system → measure → (low, high),
    both None where more than half the resamples left the measure undefined),
    ``undefined`` (system → measure → how many resamples left it undefined, for the
    measures where some did), ``not_compared`` (the pairs of systems that share no
    measure), ``significance`` and ``resampling`` when asked."""

    gold_items: int
    rules: str
    systems: Mapping[str, Figures]
    measures: Mapping[str, str]
    signatures: Mapping[str, str]
    upper_bounds: Figures
    by_pos: Mapping[str, Mapping[str, Figures]] | None = None
    analyses: Mapping[str, Any] | None = None
    intervals: Mapping[str, Mapping[str, tuple[float | None, float | None]]] | None = None
    undefined: Mapping[str, Mapping[str, int]] | None = None
    not_compared: tuple[tuple[str, str], ...] = ()
    significance: tuple[PairTest, ...] | None = None
    resampling: Resampling | None = None
    swords: Mapping[str, Mapping[str, float]] | None = None
    """System → SWORDS' figures (percentages, as SWORDS' ``evaluate`` reports them) for
    the systems given as SWORDS results."""
    swords_signature: str | None = None
    provenance: Mapping[str, Provenance] | None = None
    """System → what made it (:class:`scoring.signature.Provenance`), for the systems
    whose file has a provenance file beside it (``lexsub generate``)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``lexsub compare --format json`` (docs/score-howto.md)."""
        body: dict[str, Any] = {
            "gold_items": self.gold_items,
            "rules": self.rules,
            "systems": {name: dict(values) for name, values in self.systems.items()},
            "measures": dict(self.measures),
            "signatures": dict(self.signatures),
            "upper_bounds": dict(self.upper_bounds),
        }
        if self.by_pos is not None:
            body["by_pos"] = {
                name: {pos: dict(values) for pos, values in table.items()}
                for name, table in self.by_pos.items()
            }
        if self.analyses is not None:
            body["analyses"] = dict(self.analyses)
        if self.intervals is not None:
            body["intervals"] = {
                name: {m: list(pair) for m, pair in found.items()}
                for name, found in self.intervals.items()
            }
        if self.undefined:
            body["undefined_resamples"] = {
                name: dict(found) for name, found in self.undefined.items()
            }
        if self.not_compared:
            body["not_compared"] = [
                {"a": a, "b": b, "reason": "no measure in common"} for a, b in self.not_compared
            ]
        if self.significance is not None:
            body["significance"] = [test.to_json() for test in self.significance]
        if self.resampling is not None:
            body["resampling"] = self.resampling.to_json()
        if self.swords is not None:
            body["swords"] = {name: dict(values) for name, values in self.swords.items()}
            body["swords_signature"] = self.swords_signature
        for name, found in (self.provenance or {}).items():
            if name in body["systems"]:
                body["systems"][name]["provenance"] = found.to_json()
        return body


def system_names(paths: Sequence[str]) -> list[str]:
    """The names systems are reported under: each file's name, or the path as given when
    two files share a name."""
    names = [PurePath(path).name for path in paths]
    return [
        name if names.count(name) == 1 else path for name, path in zip(names, paths, strict=True)
    ]


def system_provenance(names: Sequence[str], paths: Sequence[str]) -> dict[str, Provenance]:
    """Each system (reported as ``names[i]``) whose file ``paths[i]`` has a provenance
    file beside it, and what that file says (:func:`scoring.signature.read_provenance`;
    ``unreadable`` when it is not one)."""
    found = {}
    for name, path in zip(names, paths, strict=True):
        provenance = read_provenance(path)
        if provenance is not None:
            found[name] = provenance
    return found


def _chosen(rows: SystemRows, settings: Settings) -> list[str]:
    applicable = rows.measures()
    if settings.measures is None:
        return applicable
    return [m for m in settings.measures if m in applicable]


def is_swords_result(text: str) -> bool:
    """Whether a system file is a SWORDS result (a JSON object) rather than a best, oot or
    ranked-candidates file."""
    return text.lstrip()[:1] == "{"


@dataclass(frozen=True)
class SwordsData:
    """A SWORDS dataset that SWORDS results are scored against, and its file's name."""

    dataset: Swords
    name: str


def swords_as_ranked(name: str, text: str, swords: SwordsData) -> tuple[str, dict[str, float]]:
    """A SWORDS result as a ranked-candidates file (its targets' ``LEXELT ID`` from the
    dataset, :func:`scoring.benchmark.convert.ranking_lines`) and its SWORDS figures
    (:func:`scoring.benchmark.swords.evaluate_swords`), the result read once."""
    from scoring.benchmark.convert import ranking_lines
    from scoring.benchmark.swords import evaluate_swords, read_result

    answers = read_result(text, name)
    figures = dict(evaluate_swords(swords.dataset, answers).metrics)
    lines = ranking_lines(answers, swords.dataset)
    return "".join(format_ranking_line(line) + "\n" for line in lines), figures


def _swords_results(
    systems: Sequence[tuple[str, str]], swords: SwordsData | None
) -> tuple[list[tuple[str, str]], dict[str, dict[str, float]]]:
    """Each SWORDS result among ``systems`` as ranked candidates, with its SWORDS figures
    (:func:`swords_as_ranked`)."""
    result: list[tuple[str, str]] = []
    figures: dict[str, dict[str, float]] = {}
    for name, text in systems:
        if not is_swords_result(text):
            result.append((name, text))
            continue
        if swords is None:
            raise ValueError(
                f"{name}: a SWORDS result; give the SWORDS dataset it answers "
                "(compare --swords-data DATASET; for a gold file, make one with "
                "lexsub convert gold-to-swords)"
            )
        ranked, figures[name] = swords_as_ranked(name, text, swords)
        result.append((name, ranked))
    return result, figures


def leaderboard(
    gold: Gold,
    systems: Sequence[tuple[str, str]],
    settings: Settings,
    reading: Gold | None = None,
    swords: SwordsData | None = None,
    provenance: Mapping[str, Provenance] | None = None,
) -> Leaderboard:
    """The leaderboard of ``systems`` (``(name, text)`` pairs) against ``gold``; the
    revised and ranking measures read ``reading`` (the fixed reading of the same file,
    :func:`scoring.formats.gold.read_readings`; ``gold`` itself when None), and their signatures
    say which. A system given as a SWORDS result is scored as its ranked candidates and,
    against ``swords``, with SWORDS' own figures beside the others. ``provenance`` (system
    → :class:`scoring.signature.Provenance`, :func:`system_provenance`) is carried as
    given: it changes no figure."""
    for name in settings.measures or ():
        measure_def(name, LEADERBOARD_KINDS)
    reading = gold if reading is None else reading
    systems, swords_figures = _swords_results(systems, swords)
    found: list[analyses.UpperBounds] = []  # the bounds, found while the workers score
    all_rows = score_files(
        gold,
        systems,
        settings.k,
        settings.workers,
        reading,
        lambda: found.append(analyses.upper_bounds(gold)),
    )
    figures = {rows.name: {m: rows.value(m) for m in _chosen(rows, settings)} for rows in all_rows}
    used = [m for m in MEASURES if any(m in row for row in figures.values())]
    bounds = found[0]
    board = Leaderboard(
        len(gold.items),
        gold.rules,
        figures,
        {m: MEASURES[m].description for m in used},
        {m: LEADERBOARD_BY_NAME[m].signature(settings, gold.rules, reading.rules) for m in used},
        {
            "best": float(bounds.best),
            "oot": float(bounds.oot),
            "oot_duplicates": float(bounds.oot_duplicates),
            "mode": None if bounds.mode is None else float(bounds.mode),
        },
    )
    if provenance:
        board = replace(board, provenance=dict(provenance))
    if swords_figures:
        from scoring.benchmark.swords import swords_signature

        assert swords is not None
        board = replace(
            board, swords=swords_figures, swords_signature=swords_signature(swords.name)
        )
    if settings.by_pos:
        board = replace(
            board,
            by_pos={
                rows.name: {
                    pos: {m: rows.value(m, mask) for m in _chosen(rows, settings)}
                    for pos, mask in pos_masks(rows).items()
                }
                for rows in all_rows
            },
        )
    if settings.analyses:
        board = replace(board, analyses=_analyses(gold, systems, [rows.kind for rows in all_rows]))
    if settings.significance:
        intervals, undefined, unshared, tests = _significance(all_rows, settings)
        board = replace(
            board,
            intervals=intervals,
            undefined=undefined,
            not_compared=unshared,
            significance=tests,
            resampling=Resampling(
                settings.resamples,
                settings.seed,
                settings.confidence,
                settings.trials,
                clusters=max(len(set(rows.lexelts)) for rows in all_rows),
            ),
        )
    return board


class CompareOptions(TypedDict, total=False):
    """The keywords :func:`compare` and :func:`compare_files` share: ``rules`` (default
    ``compat``), the rules the gold is read under for the official measures (``--fixed``);
    ``gold_reading`` (default ``fixed``), those for the revised and ranking measures
    (``--gold-reading``); ``progress`` (default none), given one line before the systems
    are scored (the command prints it to standard error)."""

    rules: Rules
    gold_reading: Rules
    progress: Callable[[str], None] | None


def compare(
    gold: str,
    systems: Sequence[tuple[str, str]],
    settings: Settings | None = None,
    *,
    gold_name: str = "gold",
    swords: SwordsData | None = None,
    provenance: Mapping[str, Provenance] | None = None,
    **options: Unpack[CompareOptions],
) -> Leaderboard:
    """``lexsub compare`` on texts: the gold file's text ``gold`` read under ``rules`` for
    the official measures and under ``gold_reading`` for the revised and ranking ones
    (:func:`scoring.formats.gold.read_readings`), then :func:`leaderboard` of ``systems``
    (``(name, text)`` pairs; a SWORDS result is scored against ``swords``; a generated
    system is listed with its ``provenance``, system name → what its provenance file
    says: :func:`system_provenance`). ``progress``,
    when given, gets one line before the systems are scored (the command prints it to
    standard error); the keywords and their defaults: :class:`CompareOptions`. ValueError
    for a gold with no item in T, TypeError for an unknown keyword."""
    refuse_unknown(options, CompareOptions.__annotations__, "compare")
    rules, gold_reading = options.get("rules", "compat"), options.get("gold_reading", "fixed")
    official, reading = read_readings(gold, rules, gold_reading, gold_name)
    if official.total_items <= 0:
        raise ValueError(
            f"{gold_name}: no gold item with responses (lines LEXELT ID :: SUBSTITUTE "
            "COUNT;…); nothing to score against"
        )
    progress = options.get("progress")
    if progress is not None:
        progress(f"compare: scoring {len(systems)} systems against {len(official.items)} items")
    return leaderboard(official, systems, settings or Settings(), reading, swords, provenance)


def compare_files(
    gold: str | os.PathLike[str],
    systems: Sequence[str | os.PathLike[str]],
    settings: Settings | None = None,
    *,
    swords_data: str | os.PathLike[str] | None = None,
    **options: Unpack[CompareOptions],
) -> Leaderboard:
    """:func:`compare` on files: the gold at path ``gold``, the systems at ``systems`` (each
    reported under its file's name, or its path as given when two share a name:
    :func:`system_names`; a generated one with the provenance file beside it:
    :func:`system_provenance`), SWORDS results against the SWORDS dataset at ``swords_data``;
    the other keywords :func:`compare`'s (:class:`CompareOptions`)."""
    from scoring.files.bounded import read_text

    refuse_unknown(options, CompareOptions.__annotations__, "compare_files")
    paths = [os.fspath(path) for path in systems]
    names = system_names(paths)
    gold_text = read_text(gold, perl=True)
    texts = [(name, read_text(path, perl=True)) for name, path in zip(names, paths, strict=True)]
    swords = None
    if swords_data is not None:
        from scoring.formats.swords import ALL_LABELS, read_swords

        swords = SwordsData(
            read_swords(os.fspath(swords_data), ALL_LABELS), PurePath(swords_data).name
        )
    return compare(
        gold_text,
        texts,
        settings,
        gold_name=os.fspath(gold),
        swords=swords,
        provenance=system_provenance(names, paths),
        **options,
    )


def _lines(name: str, text: str, kind: SystemKind) -> list[SystemLine]:
    """A best or oot file read strictly (the analyses need well-formed answers)."""
    lines = [
        parse_system_line(line, kind, number, name)
        for number, line in enumerate(text.splitlines(), 1)
        if line.strip()
    ]
    return lines


def _analyses(
    gold: Gold, systems: Sequence[tuple[str, str]], kinds: Sequence[SystemKind]
) -> dict[str, Any]:
    """The paper's analyses of section 4 for these systems: items with duplicates (Tables
    7-8) for oot files; type overlap (Table 9) and disambiguation precision (Table 10)
    for best files."""
    duplicates = {}
    best: dict[str, list[SystemLine]] = {}
    for (name, text), kind in zip(systems, kinds, strict=True):
        if kind == "oot":
            found = analyses.items_with_duplicates(
                name, score_system("oot", gold, text, name), gold
            ).as_dict()
            found.pop("iwd_ids")
            duplicates[name] = found
        elif kind == "best":
            best[name] = _lines(name, text, kind)
    result: dict[str, Any] = {"duplicates": duplicates}
    if best:
        result["type_overlap"] = {
            row.system: {k: v for k, v in row.as_dict().items() if k not in ("system", "words")}
            for row in analyses.type_overlap(gold, best)
        }
        found = analyses.disambiguation_precision(gold, best).as_dict()
        found.pop("all_ids")
        result["disambiguation"] = found
    return result


def _corpora(measures: Sequence[str], columns: Sequence[str]) -> dict[str, significance.Corpus]:
    """Each measure's corpus function on sums over ``columns`` (it reads its own two)."""

    def corpus(name: str) -> significance.Corpus:
        measure = measure_def(name)
        picked = [columns.index(column) for column in measure.columns()]
        return lambda sums: measure.corpus(sums[:, picked])

    return {m: corpus(m) for m in measures}


def _number(value: float) -> float | None:
    """A figure of the resampler, None where it is undefined (NaN)."""
    return None if np.isnan(value) else value


def _significance(
    all_rows: Sequence[SystemRows], settings: Settings
) -> tuple[
    dict[str, dict[str, tuple[float | None, float | None]]],
    dict[str, dict[str, int]],
    tuple[tuple[str, str], ...],
    tuple[PairTest, ...],
]:
    """Intervals for every figure (with the counts of resamples that left a figure
    undefined, where some did), the pairs of systems that share no measure, and every
    pairwise comparison, all drawn from the same resamples of lemmas (so the comparisons
    are paired). Each system's rows are summed by lemma once, and one set of resamples and
    one of swaps serve every system, measure and pair
    (:func:`scoring.significance.draw`); the pairs are sorted out first, and no swap is
    drawn when no pair shares a measure."""
    pairs = [
        (first, second, [m for m in _chosen(first, settings) if m in _chosen(second, settings)])
        for first, second in combinations(all_rows, 2)
    ]
    unshared = tuple((first.name, second.name) for first, second, shared in pairs if not shared)
    trials = settings.trials if any(shared for _, _, shared in pairs) else 0
    columns = {rows.name: sorted(rows.columns) for rows in all_rows}
    clusters: dict[tuple[str, ...], tuple[np.ndarray, int]] = {}
    sums, totals = [], []
    for rows in all_rows:
        if rows.lexelts not in clusters:  # the systems of one gold share their lemmas
            codes, ids = significance.cluster_codes(rows.lexelts)
            clusters[rows.lexelts] = codes, len(ids)
        codes, count = clusters[rows.lexelts]
        matrix = np.column_stack([rows.columns[c] for c in columns[rows.name]])
        sums.append(significance.sums_by_cluster(matrix, codes, count))
        # the table's sums, so a pair's figures are the two systems' figures to the bit
        totals.append(corpus_totals(matrix))
    drawn = dict(
        zip(
            [rows.name for rows in all_rows],
            significance.draw(
                sums,
                resamples=settings.resamples,
                trials=trials,
                seed=settings.seed,
                totals=totals,
            ),
            strict=True,
        )
    )
    intervals: dict[str, dict[str, tuple[float | None, float | None]]] = {}
    undefined: dict[str, dict[str, int]] = {}
    for rows in all_rows:
        found = significance.intervals_of(
            drawn[rows.name],
            _corpora(_chosen(rows, settings), columns[rows.name]),
            settings.confidence,
        )
        intervals[rows.name] = {m: (i.low, i.high) for m, i in found.items()}
        counts = {m: i.undefined for m, i in found.items() if i.undefined}
        if counts:
            undefined[rows.name] = counts
    comparisons: list[PairTest] = []
    for first, second, shared in pairs:
        if not shared:
            continue
        picked = sorted({c for m in shared for c in measure_def(m).columns()})

        def select(rows: SystemRows, picked: list[str] = picked) -> significance.Drawn:
            return drawn[rows.name].columns([columns[rows.name].index(c) for c in picked])

        tests = significance.compare_drawn(
            select(first), select(second), _corpora(shared, picked), settings.confidence
        )
        comparisons += [
            PairTest(
                measure,
                first.name,
                second.name,
                _number(test.a),
                _number(test.b),
                _number(test.delta),
                test.interval.low,
                test.interval.high,
                test.p_bootstrap,
                test.p_randomisation,
                test.interval.undefined,
                test.undefined_trials,
            )
            for measure, test in tests.items()
        ]
    return intervals, undefined, unshared, tuple(comparisons)
