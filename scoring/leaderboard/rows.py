"""The leaderboard's rows: each system's columns of
sufficient statistics per gold item, which the leaderboard's registered measures
(:data:`scoring.registry.LEADERBOARD`) sum and divide. Every one of them is a ratio of
two column sums over the gold items: best P is Σ score / Σ attempted, new best R is
Σ new_best / Σ item, GAP is Σ gap / Σ relevant. So a corpus figure, a figure by PoS (the
rows of one PoS) and a resample (rows drawn by lemma) are computed the same way, and
numerator and denominator are resampled together. The command lines
(:mod:`scoring.leaderboard.cli`), the leaderboard (:mod:`scoring.leaderboard`) and the
organiser's scores page all read these rows through the registry.

The columns come from the families of :mod:`scoring.measures` that score the system's
kind (:data:`scoring.registry.FAMILIES`), each computed for every gold item at once by
its bulk route (on the gold and answers of :mod:`scoring.measures.bulk`): the official measures
(under the gold's rules), the revised best and oot measures and the ranking measures.
The official family reads the guesses the official scan scored
(:func:`scoring.score.scan.score_system`: score.pl's rules, stale answers included); the
others read each item's first answer line split by the fixed rules (trimmed, hyphens as
spaces). Which families score a system file depends on its kind, told apart by its first
answer line (:func:`detect_kind`). For weighted recall, weighted precision and rank, A_i
is the set of the first answer line's guesses (:func:`scoring.measures.revised.items.answer_set`),
cut
to ten as oot cuts them. Ranked candidates are folded as gold keys are
(:func:`scoring.measures.ranking.items.normalised`), whatever the kind of file.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scoring.formats import ranked
from scoring.formats.gold import Gold
from scoring.formats.lines import HYPHENS, OTHER, PLAIN, answer_kinds, iter_chunks
from scoring.measures.bulk import (
    NO_ANSWER,
    Answers,
    Array,
    Given,
    GoldItem,
    GoldTable,
    gold_items,
    gold_table,
)
from scoring.measures.official.items import guesses_fixed
from scoring.measures.ranking import items as ranking
from scoring.registry import FAMILIES, MEASURES, measure_def
from scoring.score.scan import score_system
from scoring.terms import answer_key
from scoring.types import Rules, SystemKind, Task, pos_of

__all__ = [
    "Answers",
    "GoldItem",
    "SystemRows",
    "detect_kind",
    "first_answers",
    "gold_items",
    "read_answers",
    "score_files",
    "system_rows",
]


def corpus_totals(stats: Array) -> Array:
    """The column sums of (items, k) rows, each column added in the order of the items:
    the sums every figure of a system is computed from (:meth:`SystemRows.value`, the
    leaderboard's pairs)."""
    total: Array = stats.sum(axis=0)
    return total


@dataclass(frozen=True)
class SystemRows:
    """One system's rows: ``columns[c][j]`` is column c of gold item ``ids[j]``."""

    name: str
    kind: SystemKind
    ids: tuple[str, ...]
    lexelts: tuple[str, ...]
    columns: dict[str, Array] = field(repr=False)

    def measures(self) -> list[str]:
        """The registered measures that apply to this system's kind, in registry order."""
        return [name for name, m in MEASURES.items() if self.kind in m.kinds]

    def stats(self, measure: str) -> Array:
        """The (items, k) array of the columns ``measure`` reads."""
        definition = measure_def(measure)
        if self.kind not in definition.kinds:
            raise ValueError(
                f"{self.name}: {measure} does not apply to a {self.kind} file "
                f"(it needs {' or '.join(sorted(definition.kinds))})"
            )
        return np.column_stack([self.columns[c] for c in definition.columns()])

    def value(self, measure: str, mask: npt.NDArray[np.bool_] | None = None) -> float | None:
        """The corpus figure (rows under ``mask`` only, when given); None when its
        denominator is 0 (nothing attempted, no item of that PoS)."""
        stats = self.stats(measure)
        totals = corpus_totals(stats if mask is None else stats[mask])
        return measure_def(measure).figure(totals.tolist())


def pos_masks(rows: SystemRows) -> dict[str, npt.NDArray[np.bool_]]:
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
        if ranked.looks_ranked(line.strip()):
            return "ranked"
        if " ::: " in line or line.rstrip().endswith(":::"):
            return "oot"
        if " :: " in line or line.rstrip().endswith("::"):
            return "best"
    raise ValueError(
        f"{name}: no line names an item with '::' (best), ':::' (oot) or a "
        "ranked-candidates separator (docs/ranking.md); is it a system file?"
    )


def split_answer(answer: str, rules: Rules) -> list[str]:
    """One answer's guesses, each in the form of gold keys under ``rules``
    (:func:`scoring.terms.answer_key`), empty guesses dropped."""
    if rules == "fixed":
        return guesses_fixed(answer)
    return [answer_key(guess, rules) for guess in answer.split(";") if guess.strip()]


def first_answers(text: str, kind: Task, rules: Rules = "fixed") -> dict[str, list[str]]:
    """Each item's guesses from its first answer line (:func:`split_answer`). Under the
    fixed rules an ASCII answer of plain lower-case words, or of such words and hyphens
    (:func:`scoring.formats.lines.answer_kinds`, found a chunk at a time), is split at once, as
    the official scan splits it: :func:`split_answer` gives the same guesses."""
    answers: dict[str, list[str]] = {}
    fixed = rules == "fixed"
    for _first, found in iter_chunks(text, kind, unicode=fixed):
        kinds = answer_kinds(found) if fixed else None
        if kinds is None:  # non-ASCII answers, or compat: each split by split_answer
            kinds = bytearray([OTHER]) * len(found)
        for (lexelt, item_id, answer, _other), how in zip(found, kinds, strict=True):
            if lexelt and item_id not in answers:
                if how == PLAIN:
                    answers[item_id] = answer.split(";")
                elif how == HYPHENS:
                    answers[item_id] = answer.replace("-", " ").split(";")
                else:
                    answers[item_id] = split_answer(answer, rules)
    return answers


def read_answers(
    gold: Gold, text: str, name: str, kind: SystemKind, reading: Gold | None = None
) -> dict[str, Answers]:
    """What the system file ``text`` (of ``kind``) gives each item of ``gold`` or of
    ``reading`` (the revised and ranking measures' reading, ``gold`` when None) that it
    answers: the official guesses under the gold's rules, the others normalised under the
    reading's rules."""
    reading = gold if reading is None else reading
    rules = reading.rules
    known = gold.items.keys() | reading.items.keys() if reading is not gold else gold.items
    if kind == "mw" or kind == "swords":
        raise ValueError(
            f"{name}: the leaderboard scores best, oot and ranked files; a multiword file "
            "is scored with scoring.score.cli -t mw, a SWORDS result as its ranked candidates"
        )
    if kind == "ranked":
        lines = ranked.parse_ranking(text.splitlines(), name)
        return {
            line.id: Answers(ranking=ranking.normalised(line.candidates, rules))
            for line in lines
            if line.id in known
        }
    scan = {row.id: row for row in score_system(kind, gold, text, name).items}
    result = {}
    for item_id, guesses in first_answers(text, kind, rules).items():
        if item_id not in known:
            continue
        row = scan.get(item_id)
        result[item_id] = (
            Answers(
                row.answers,
                not row.stale,
                tuple(guesses),
                (),
                (row.score, row.mode_attempted, row.mode_correct),
            )
            if row
            else Answers((), True, tuple(guesses))
        )
    for item_id, row in scan.items():  # a stale compat line has no first answer of its own
        if item_id not in result:
            outcome = (row.score, row.mode_attempted, row.mode_correct)
            result[item_id] = Answers(row.answers, not row.stale, (), (), outcome)
    return result


def system_rows(
    items: Sequence[GoldItem] | GoldTable,
    answers: dict[str, Answers],
    name: str,
    kind: SystemKind,
    k: float = 1.0,
) -> SystemRows:
    """Every column of ``kind``'s families for each gold item: the rows of one system.
    ``items`` may be given as their :func:`gold_table`, computed once for many systems."""
    table = items if isinstance(items, GoldTable) else gold_table(items)
    given = Given(table, [answers.get(gold_item.id, NO_ANSWER) for gold_item in table.items])
    columns: dict[str, Array] = {}
    for family in FAMILIES[kind]:
        try:
            found = family.bulk(given, k)
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from error
        columns.update({str(column): values for column, values in found.items()})
    return SystemRows(name, kind, table.ids, table.lexelts, columns)


@dataclass(frozen=True)
class _Shared:
    gold: Gold
    reading: Gold
    table: GoldTable


_SHARED: _Shared | None = None
"""The gold a worker process inherits (set before the pool forks)."""


def _score_one(job: tuple[str, str, float]) -> tuple[SystemKind, dict[str, Array]]:
    """One system's kind and columns (what a worker sends back: the ids and lexelts are
    the gold table's)."""
    name, text, k = job
    assert _SHARED is not None
    kind = detect_kind(text, name)
    answers = read_answers(_SHARED.gold, text, name, kind, _SHARED.reading)
    rows = system_rows(_SHARED.table, answers, name, kind, k)
    return rows.kind, rows.columns


def score_files(
    gold: Gold,
    systems: Sequence[tuple[str, str]],
    k: float = 1.0,
    workers: int = 1,
    reading: Gold | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> list[SystemRows]:
    """Rows for each ``(name, text)`` system against ``gold`` (the official measures) and
    ``reading`` (the revised and ranking measures; ``gold`` when None), in order. With
    ``workers`` > 1 (and a platform that forks) the systems are scored in that many
    processes, which inherit the gold's items; the rows are the same either way.
    ``meanwhile``, when given, is called in this process while the workers score (after
    the systems, without workers)."""
    global _SHARED
    reading = gold if reading is None else reading
    table = gold_table(gold_items(gold, reading))
    _SHARED = _Shared(gold, reading, table)
    jobs = [(name, text, k) for name, text in systems]
    try:
        if workers > 1 and len(jobs) > 1 and "fork" in mp.get_all_start_methods():
            # the longest files first, so that no worker is left with a long one at the end
            order = sorted(range(len(jobs)), key=lambda j: -len(jobs[j][1]))
            with mp.get_context("fork").Pool(min(workers, len(jobs))) as pool:
                pending = pool.map_async(_score_one, [jobs[j] for j in order], chunksize=1)
                if meanwhile is not None:
                    meanwhile()
                done = pending.get()
            found = [done[order.index(j)] for j in range(len(jobs))]
        else:
            found = [_score_one(job) for job in jobs]
            if meanwhile is not None:
                meanwhile()
    finally:
        _SHARED = None
    return [
        SystemRows(name, kind, table.ids, table.lexelts, columns)
        for (name, _text, _k), (kind, columns) in zip(jobs, found, strict=True)
    ]
