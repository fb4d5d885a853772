"""The leaderboard's rows (SPEC S2, S4, S5; issue 14 item 2): each system's columns of
sufficient statistics per gold item, which the leaderboard's registered measures
(:data:`scoring.registry.LEADERBOARD`) sum and divide. Every one of them is a ratio of
two column sums over the gold items: best P is Σ score / Σ attempted, new best R is
Σ new_best / Σ item, GAP is Σ gap / Σ relevant. So a corpus figure, a figure by PoS (the
rows of one PoS) and a resample (rows drawn by lemma) are computed the same way, and
numerator and denominator are resampled together. The command lines
(:mod:`scoring.compare`), the leaderboard (:mod:`scoring.leaderboard`) and the
organiser's scores page all read these rows through the registry.

The columns come from a few families, each one pass over an item's answers
(:data:`FAMILIES`): the official measures (:func:`scoring.official.score_item`, under the
gold's rules), the revised best and oot measures (:mod:`scoring.revised`) and the ranking
measures (:mod:`scoring.ranking`). The official family reads the guesses the official scan
scored (:func:`scoring.official.score_system`: score.pl's rules, stale answers included);
the others read each item's first answer line split by the fixed rules (trimmed, hyphens
as spaces). Which families score a system file depends on its kind, told apart by its
first answer line (:func:`detect_kind`; the measures of each kind are listed in
:mod:`scoring.registry`). For weighted recall, weighted precision and rank, A_i is the
set of the first answer line's guesses (:func:`scoring.revised.answer_set`), cut to ten
as oot cuts them. Ranked candidates are folded as gold keys are
(:func:`scoring.ranking.folded`), whatever the kind of file.

The exact functions of :mod:`scoring.revised` and :mod:`scoring.ranking` (Fractions) are
the test oracle of every leaderboard measure (``tests/test_measures.py``).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scoring import ranking, revised
from scoring.gold import Gold, ItemGold, answer_key
from scoring.io import pos_of
from scoring.lines import iter_chunks
from scoring.official import OOT_GUESSES, guesses_fixed, score_item, score_system
from scoring.registry import MEASURES, OFFICIAL_COLUMNS, measure_def
from scoring.types import Rules, SystemKind, Task

Array = npt.NDArray[np.float64]
Row = tuple[float, ...]


@dataclass(frozen=True)
class Settings:
    """What changes a number, beyond the files: all of it goes into the signatures."""

    measures: tuple[str, ...] | None = None  # None: every measure that applies
    by_pos: bool = False
    significance: bool = False
    k: float = 1.0
    resamples: int = 1000
    trials: int = 1000
    seed: int = 12345
    confidence: float = 0.95
    analyses: bool = False
    workers: int = 1  # processes scoring the systems (the figures do not depend on it)


@dataclass(frozen=True, slots=True)
class GoldItem:
    """One gold item as every measure reads it: the item under the gold's rules (the
    official measures; None when that reading leaves it out of T) and whether it has a
    mode there, and freq_i as floats under the measures' reading (the revised and
    ranking measures), computed once."""

    id: str
    lexelt: str
    item: ItemGold | None
    rules: Rules
    has_mode: bool
    frequencies: revised.Frequencies | None
    """None when the measures' reading leaves the item out of T, or keeps it in T with no
    entry left (score.pl's rules drop one-character entries and entries containing
    ``pn``, yet count the line in T): no answer can earn credit on it, so the revised
    measures score it 0 and the ranking measures leave it out as undefined, as the
    official measures score it 0."""
    measured: bool = True
    """Whether the measures' reading has the item in T (the revised measures' |T|)."""


def gold_items(gold: Gold, reading: Gold | None = None) -> tuple[GoldItem, ...]:
    """The items of ``gold`` (the official reading) and of ``reading`` (the revised and
    ranking measures' reading; ``gold`` itself when None), in the gold's order, then the
    items only ``reading`` has in T; ValueError naming an item whose counts cannot give
    frequencies."""
    reading = gold if reading is None else reading
    modes = gold.modes
    ids = list(gold.items)
    if reading is not gold:
        ids += [item_id for item_id in reading.items if item_id not in gold.items]
    result = []
    for item_id in ids:
        item = gold.items.get(item_id)
        measured = reading.items.get(item_id)
        frequencies: revised.Frequencies | None = None
        if measured is not None and measured.counts:  # entries all 0: refused, item named
            try:
                frequencies = revised.frequencies(measured, exact=False)
            except ValueError as error:
                raise ValueError(f"gold item {measured.lexelt} {item_id}: {error}") from error
        lexelt = item.lexelt if item is not None else measured.lexelt if measured else ""
        result.append(
            GoldItem(
                item_id,
                lexelt,
                item,
                gold.rules,
                item_id in modes,
                frequencies,
                measured is not None,
            )
        )
    return tuple(result)


@dataclass(frozen=True, slots=True)
class Answers:
    """What a system gave for one gold item, as each family of measures reads it.

    ``official``: the guesses the official scan scored (split by the gold's rules, cut to
    10 for oot; under compat an empty answer scores the previous line's guesses, and
    ``fresh`` is then False: the item is not attempted). ``guesses``: the item's first
    answer line split and normalised by the measures' reading (:func:`split_answer`).
    ``ranking``: the ranked candidates normalised the same way (a ranked file, or an oot
    file's guesses in file order).
    """

    official: tuple[str, ...] = ()
    fresh: bool = True
    guesses: tuple[str, ...] = ()
    ranking: tuple[ranking.Scored, ...] = ()


NO_ANSWER = Answers()


@dataclass(frozen=True)
class Family:
    """Columns one pass over an item's answers gives: ``row(gold_item, answers, k)`` is a
    tuple of floats, one per column."""

    name: str
    columns: tuple[str, ...]
    row: Callable[[GoldItem, Answers, float], Row]


def _official(task: Task) -> Callable[[GoldItem, Answers, float], Row]:
    def row(gold_item: GoldItem, answers: Answers, k: float) -> Row:
        """best or oot (seed 002, eq. 1-8) by :func:`scoring.official.score_item`."""
        has_mode = float(gold_item.has_mode)
        guesses = answers.official
        item = gold_item.item
        if item is None:  # only the measures' reading has it in T
            return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        if not item.total:  # score.pl skips an item no answer can earn credit on
            return 1.0, 0.0, 0.0, 0.0, 0.0, has_mode
        _credit, score, tried, right = score_item(task, gold_item.rules, item, guesses)
        return (
            1.0,
            score,
            float(bool(guesses) and answers.fresh),
            float(tried),
            float(right),
            has_mode,
        )

    return row


def _revised_best(gold_item: GoldItem, answers: Answers, k: float) -> Row:
    """new best and best-1 (seed 000) of the first answer line."""
    guesses = answers.guesses
    freqs = gold_item.frequencies
    measured = float(gold_item.measured)
    if not guesses or freqs is None:
        return 0.0, 0.0, 0.0, measured
    return (
        float(revised.new_best(freqs, guesses).score),
        float(revised.best_1(freqs, guesses).score),
        1.0,
        measured,
    )


def _revised_oot(gold_item: GoldItem, answers: Answers, k: float) -> Row:
    """weighted recall, weighted precision (penalty k) and rank (seed 000) of A_i, the
    first answer line's distinct guesses cut to ten, as oot cuts them."""
    guesses = revised.answer_set(answers.guesses)[:OOT_GUESSES]
    freqs = gold_item.frequencies
    measured = float(gold_item.measured)
    if not guesses or freqs is None:
        return 0.0, 0.0, 0.0, 0.0, measured
    return (
        float(revised.weighted_recall(freqs, guesses).score),
        float(revised.weighted_precision(freqs, guesses, k).score),
        float(revised.rank(freqs, guesses).score),
        1.0,
        measured,
    )


def _ranking(gold_item: GoldItem, answers: Answers, k: float) -> Row:
    """GAP, AP, P@1, P@10, R@10, whether they are defined, AUC and whether it is."""
    freqs = gold_item.frequencies
    found = ranking.ranking_measures({} if freqs is None else freqs, answers.ranking)
    return (
        float(found["gap"].value),
        float(found["ap"].value),
        float(found["p_at_1"].value),
        float(found["p_at_10"].value),
        float(found["r_at_10"].value),
        float(found["gap"].defined),
        float(found["auc"].value),
        float(found["auc"].defined),
    )


FAMILIES: dict[SystemKind, tuple[Family, ...]] = {
    "best": (
        Family("official best", OFFICIAL_COLUMNS, _official("best")),
        Family("revised best", ("new_best", "best_1", "answered", "measured"), _revised_best),
    ),
    "oot": (
        Family("official oot", OFFICIAL_COLUMNS, _official("oot")),
        Family(
            "revised oot",
            ("weighted_recall", "weighted_precision", "rank", "answered", "measured"),
            _revised_oot,
        ),
        Family(
            "ranking",
            ("gap", "ap", "p_at_1", "p_at_10", "r_at_10", "relevant", "auc", "auc_defined"),
            _ranking,
        ),
    ),
}
FAMILIES["ranked"] = FAMILIES["oot"][2:]
"""The families that score each kind of system file."""


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
        if mask is not None:
            stats = stats[mask]
        return measure_def(measure).figure(stats.sum(axis=0).tolist())


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
        if ranking.looks_ranked(line.strip()):
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
    (:func:`scoring.gold.answer_key`), empty guesses dropped."""
    if rules == "fixed":
        return guesses_fixed(answer)
    return [answer_key(guess, rules) for guess in answer.split(";") if guess.strip()]


def first_answers(text: str, kind: Task, rules: Rules = "fixed") -> dict[str, list[str]]:
    """Each item's guesses from its first answer line (:func:`split_answer`)."""
    answers: dict[str, list[str]] = {}
    for _first, found in iter_chunks(text, kind, unicode=rules == "fixed"):
        for lexelt, item_id, answer, _other in found:
            if lexelt and item_id not in answers:
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
            "is scored with scoring.score -t mw, a SWORDS result as its ranked candidates"
        )
    if kind == "ranked":
        lines = ranking.parse_ranking(text.splitlines(), name)
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
        result[item_id] = Answers(
            row.answers if row else (),
            not row or not row.stale,
            tuple(guesses),
            ranking.as_ranking(guesses) if kind == "oot" else (),
        )
    for item_id, row in scan.items():  # a stale compat line has no first answer of its own
        result.setdefault(item_id, Answers(row.answers, not row.stale))
    return result


def system_rows(
    items: Sequence[GoldItem],
    answers: dict[str, Answers],
    name: str,
    kind: SystemKind,
    k: float = 1.0,
) -> SystemRows:
    """Every column of ``kind``'s families for each gold item: the rows of one system."""
    columns: dict[str, Array] = {}
    for family in FAMILIES[kind]:
        table = np.zeros((len(items), len(family.columns)))
        for index, gold_item in enumerate(items):
            try:
                table[index] = family.row(gold_item, answers.get(gold_item.id, NO_ANSWER), k)
            except ValueError as error:
                raise ValueError(f"{name}: item {gold_item.id}: {error}") from error
        columns.update({column: table[:, c] for c, column in enumerate(family.columns)})
    return SystemRows(
        name,
        kind,
        tuple(item.id for item in items),
        tuple(item.lexelt for item in items),
        columns,
    )


@dataclass(frozen=True)
class _Shared:
    gold: Gold
    reading: Gold
    items: tuple[GoldItem, ...]


_SHARED: _Shared | None = None
"""The gold a worker process inherits (set before the pool forks)."""


def _score_one(job: tuple[str, str, float]) -> SystemRows:
    name, text, k = job
    assert _SHARED is not None
    kind = detect_kind(text, name)
    answers = read_answers(_SHARED.gold, text, name, kind, _SHARED.reading)
    return system_rows(_SHARED.items, answers, name, kind, k)


def score_files(
    gold: Gold,
    systems: Sequence[tuple[str, str]],
    k: float = 1.0,
    workers: int = 1,
    reading: Gold | None = None,
) -> list[SystemRows]:
    """Rows for each ``(name, text)`` system against ``gold`` (the official measures) and
    ``reading`` (the revised and ranking measures; ``gold`` when None), in order. With
    ``workers`` > 1 (and a platform that forks) the systems are scored in that many
    processes, which inherit the gold's items; the rows are the same either way."""
    global _SHARED
    reading = gold if reading is None else reading
    _SHARED = _Shared(gold, reading, gold_items(gold, reading))
    jobs = [(name, text, k) for name, text in systems]
    try:
        if workers > 1 and len(jobs) > 1 and "fork" in mp.get_all_start_methods():
            with mp.get_context("fork").Pool(min(workers, len(jobs))) as pool:
                return pool.map(_score_one, jobs, chunksize=1)
        return [_score_one(job) for job in jobs]
    finally:
        _SHARED = None
