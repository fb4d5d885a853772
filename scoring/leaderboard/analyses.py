"""The analyses of McCarthy & Navigli, "The English lexical substitution task" (2009, seed
001, section 4): theoretical upper bounds (4.1.1, eq. 7; 4.1.2), items with duplicates in
oot (Tables 7-8, column IwD), type overlap (4.2, eq. 8, Table 9) and disambiguation
precision (4.3, eqs. 9-10, Table 10).

They take what the readers give (a :class:`~scoring.formats.gold.Gold`, the official
:class:`~scoring.measures.official.items.OfficialScores`, strict
:class:`~scoring.formats.system.SystemLine` rows)
and return frozen dataclasses with an ``as_dict`` for JSON. Choices where the paper is
silent are listed in docs/analyses.md; the main ones:

- Upper bounds are the best a system can score under the gold's rules: eq. 7 on score.pl's
  reading of the test gold (compat) gives the published 45.76; the fixed reading, which
  merges ``garden`` and ``garden `` (a double space in the file), gives 45.87.
- Overlap and disambiguation compare substitute *types*: one apostrophe removed, trimmed,
  hyphens read as spaces (as the scorer compares); a single word is a form without a
  space as written (``open-air`` is one word). The paper also leaves out items whose
  target is a multiword: that needs the mwgold file, so such ids are passed as ``exclude``.
- bg_i is the first single-word guess of the system's best answer (4.3); a word and PoS
  (wp) is a lexelt (``stand.n.v`` is the verb stand), over the items of the gold (T).
- TypeOverlap_uniq counts the matches no other system has in *its* SU_wp (first guesses).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction

from scoring.formats.gold import Gold, ItemGold
from scoring.formats.system import SystemLine
from scoring.measures.official.items import (
    OOT_GUESSES,
    OfficialScores,
    guesses_compat,
    guesses_fixed,
    score_item,
)
from scoring.score.report import POS_COLUMNS, PosScores, by_pos, vars_of
from scoring.terms import normalise
from scoring.types import Count, Rules

Json = dict[str, object]


def _float(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _ratio(numerator: int | Fraction, denominator: int) -> Fraction | None:
    return Fraction(numerator) / denominator if denominator else None


# --- 4.1: theoretical upper bounds --------------------------------------------------------


@dataclass(frozen=True)
class UpperBounds:
    """The best recall a system can reach on a gold (McCarthy & Navigli 2009, 4.1.1 and 4.1.2).

    ``best`` is eq. 7, Σ_{i∈T} freq(most frequent substitute_i) / |H_i| / |T| (a tie for
    the top changes nothing, footnote 10). ``oot`` gives the 10 most frequent substitutes
    of each item, each once (100% when no item has more than 10 types). ``oot_duplicates``
    lets a guess repeat: score.pl credits each repeat, so ten copies of the top substitute
    give ten times eq. 7 ("457.6%"); the fixed rules credit a guess once, so there it is
    ``oot``. ``mode`` is the mode recall (eqs. 4, 6; 100% in theory) of a system that
    answers m_i itself, as the scorer credits it (compat never matches a hyphenated mode).
    """

    rules: Rules
    items: int
    modes: int
    max_types: int
    best: Fraction
    oot: Fraction
    oot_duplicates: Fraction
    mode: Fraction | None

    def as_dict(self) -> Json:
        return {
            "rules": self.rules,
            "items": self.items,
            "modes": self.modes,
            "max_types": self.max_types,
            "best": float(self.best),
            "oot": float(self.oot),
            "oot_duplicates": float(self.oot_duplicates),
            "mode": _float(self.mode),
        }


def _top_share(item_id: str, item: ItemGold, top: int) -> tuple[Count, Count]:
    """The sum of the ``top`` largest counts of H_i and |H_i| (0 and 1 when no entry can
    earn credit), as the gold's own numbers (ints, exact)."""
    if not item.counts:
        return 0, 1
    if item.total <= 0:
        raise ValueError(
            f"gold item {item.lexelt} {item_id}: gold counts add up to {item.total}; "
            "|H_i| must be positive"
        )
    counts = sorted((count for _, count in item.counts), reverse=True)
    return sum(counts[:top]), item.total


def _sum_of_shares(gold: Gold, top: int) -> Fraction:
    """Σ_i top_i / |H_i|, exactly: numerators are added per distinct |H_i| first, so the
    sum stays fast on large golds (few distinct totals, no growing denominators)."""
    by_total: dict[Count, Count] = {}
    for item_id, item in gold.items.items():
        numerator, total = _top_share(item_id, item, top)
        by_total[total] = by_total.get(total, 0) + numerator
    return sum(
        (Fraction(numerator) / Fraction(total) for total, numerator in by_total.items()),
        Fraction(0),
    )


def upper_bounds(gold: Gold) -> UpperBounds:
    """The theoretical upper bounds of best, oot and mode recall on ``gold`` (McCarthy & Navigli
    2009, eq. 7 and section 4.1.2), with ``gold.total_items`` as |T| and ``gold.total_modes``
    as |T_m| (score.pl's denominators)."""
    if gold.total_items <= 0:
        raise ValueError("the gold has no item in T; |T| must be positive")
    best = _sum_of_shares(gold, 1)
    oot = _sum_of_shares(gold, OOT_GUESSES)
    split = guesses_fixed if gold.rules == "fixed" else guesses_compat
    found = 0
    for item_id, mode in gold.modes.items():
        _credit, _score, _tried, right = score_item(
            "best", gold.rules, gold.items[item_id], split(mode)
        )
        found += right
    best /= gold.total_items
    oot /= gold.total_items
    return UpperBounds(
        gold.rules,
        gold.total_items,
        gold.total_modes,
        max((len(item.counts) for item in gold.items.values()), default=0),
        best,
        oot,
        OOT_GUESSES * best if gold.rules == "compat" else oot,
        _ratio(found, gold.total_modes),
    )


# --- 4.1.2: items with duplicates (Tables 7-8) ------------------------------------------------


@dataclass(frozen=True)
class DuplicateAnalysis:
    """One system's row of Tables 7-8 (McCarthy & Navigli 2009, 4.1.2) and its split by duplicates.

    ``iwd`` is the column IwD: items whose answer repeats a guess (score.pl's ``WARNING
    duplicate``, counted over the line's guesses before the cut to 10). ``scores`` holds
    All and each PoS (recall: Table 7, mode recall: Table 8); ``with_duplicates`` and
    ``without_duplicates`` the same figures on the IwD items and on the rest of T.
    """

    system: str
    measure: str
    rules: Rules
    iwd_ids: tuple[str, ...]
    scores: dict[str, PosScores]
    with_duplicates: dict[str, PosScores]
    without_duplicates: dict[str, PosScores]

    @property
    def iwd(self) -> int:
        return len(self.iwd_ids)

    @property
    def order(self) -> str:
        """Table 7's column Order: the PoS letters by recall, highest first."""
        return pos_order(self.scores, "recall")

    @property
    def mode_order(self) -> str:
        """Table 8's column Order: the PoS letters by mode recall, highest first."""
        return pos_order(self.scores, "mode_recall")

    def as_dict(self) -> Json:
        def table(rows: dict[str, PosScores]) -> Json:
            return {pos: vars_of(value) for pos, value in rows.items()}

        return {
            "system": self.system,
            "measure": self.measure,
            "rules": self.rules,
            "iwd": self.iwd,
            "iwd_ids": list(self.iwd_ids),
            "order": self.order,
            "mode_order": self.mode_order,
            "scores": table(self.scores),
            "with_duplicates": table(self.with_duplicates),
            "without_duplicates": table(self.without_duplicates),
        }


def pos_order(scores: Mapping[str, PosScores], field: str) -> str:
    """PoS letters (n, v, a, r) by ``field`` of ``scores``, highest first, ties in that
    order; a PoS without a figure is left out (Tables 4-8, column Order)."""
    ranked = [
        (value, index, pos)
        for index, (pos, _label) in enumerate(POS_COLUMNS[1:])
        if pos in scores and (value := getattr(scores[pos], field)) is not None
    ]
    return "".join(pos for _value, _index, pos in sorted(ranked, key=lambda r: (-r[0], r[1])))


def _restrict(scores: OfficialScores, gold: Gold, ids: Collection[str]) -> dict[str, PosScores]:
    """:func:`scoring.score.report.by_pos` on the items ``ids`` of T only."""
    rows = tuple(row for row in scores.items if row.id in ids)
    modes = gold.modes
    part = Gold(
        gold.rules,
        {i: gold.items[i] for i in sorted(ids)},
        len(ids),
        sum(1 for i in ids if i in modes),
    )
    return by_pos(
        OfficialScores(
            scores.measure,
            scores.rules,
            len(ids),
            sum(row.attempted for row in rows),
            sum(row.score for row in rows),
            part.total_modes,
            sum(row.mode_attempted for row in rows),
            sum(row.mode_correct for row in rows),
            sum(1 for row in rows if row.duplicates),
            rows,
            (),
        ),
        part,
    )


def items_with_duplicates(system: str, scores: OfficialScores, gold: Gold) -> DuplicateAnalysis:
    """Column IwD of Tables 7-8 and the system's scores on the items with and without
    duplicates, from the official per-item rows (``score_system(..., keep_items=True)``)."""
    if scores.rules != gold.rules:
        raise ValueError(
            f"{system}: scored under {scores.rules} rules, gold read under "
            f"{gold.rules}; both must use the same rules"
        )
    if scores.attempted and not scores.items:
        raise ValueError(f"{system}: the scores keep no item rows; score with keep_items=True")
    unknown = sorted({row.id for row in scores.items} - gold.items.keys())
    if unknown:
        raise ValueError(f"{system}: scored ids {unknown[:10]} are not items of the gold")
    duplicated = sorted(row.id for row in scores.items if row.duplicates)
    rest = gold.items.keys() - set(duplicated)
    return DuplicateAnalysis(
        system,
        scores.measure,
        scores.rules,
        tuple(duplicated),
        by_pos(scores, gold),
        _restrict(scores, gold, duplicated),
        _restrict(scores, gold, rest),
    )


def oot_table(
    rows: Sequence[DuplicateAnalysis], field: str = "recall"
) -> tuple[DuplicateAnalysis, ...]:
    """Rows in the order of Tables 7 (``recall``) and 8 (``mode_recall``): systems with
    duplicates first (4.1.2: "we partition the systems accordingly"), each group by the
    All figure, highest first, then by name."""

    def key(row: DuplicateAnalysis) -> tuple[bool, float, str]:
        value = getattr(row.scores["all"], field)
        return row.iwd == 0, -(value if value is not None else -1.0), row.system

    return tuple(sorted(rows, key=key))


# --- 4.2 and 4.3: substitute types per word and PoS ------------------------------------------


def substitute_type(form: str) -> str:
    """A system's guess or a gold key as the analyses compare them: the fixed rules' form
    (:func:`~scoring.terms.normalise`, idempotent on a key the fixed reader gave)."""
    return normalise(form)


def is_single_word(form: str) -> bool:
    """Whether a substitute, as written, is one word (no space; hyphens allowed)."""
    return len(form.split()) == 1 and bool(normalise(form))


def best_guesses(
    gold: Gold, system: Sequence[SystemLine], name: str, exclude: Collection[str] = ()
) -> dict[str, str]:
    """bg_i (4.3): the type of the first single-word guess of each gold item the system
    answers, ``exclude`` left out. Lines for ids outside the gold are ignored; a repeated
    id raises ValueError."""
    seen: dict[str, int] = {}
    result: dict[str, str] = {}
    for line in system:
        if line.id in seen:
            raise ValueError(
                f"{name}:{line.line}: id {line.id} already on line "
                f"{seen[line.id]}; each item is answered once"
            )
        seen[line.id] = line.line
        if line.id not in gold.items or line.id in exclude:
            continue
        single = [answer for answer in line.answers if is_single_word(answer)]
        if single:
            result[line.id] = substitute_type(single[0])
    return dict(sorted(result.items()))


def _words(gold: Gold, exclude: Collection[str]) -> dict[str, list[str]]:
    """WP: each lexelt of the gold's items (``exclude`` left out) and its ids, sorted."""
    words: dict[str, list[str]] = {}
    for item_id in sorted(gold.items.keys() - set(exclude)):
        words.setdefault(gold.items[item_id].lexelt, []).append(item_id)
    return dict(sorted(words.items()))


def _system_types(
    gold: Gold, systems: Mapping[str, Sequence[SystemLine]], exclude: Collection[str]
) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, set[str]]]]:
    """bg_i of every system and SU_wp, the set of its bg types for each lexelt."""
    if not systems:
        raise ValueError("no system given; the analyses compare at least one")
    guesses = {name: best_guesses(gold, lines, name, exclude) for name, lines in systems.items()}
    su: dict[str, dict[str, set[str]]] = {}
    for name, bg in guesses.items():
        su[name] = {}
        for item_id, guess in bg.items():
            su[name].setdefault(gold.items[item_id].lexelt, set()).add(guess)
    return guesses, su


@dataclass(frozen=True, slots=True)
class WordOverlap:
    """One wp for one system: |GU_wp|, |SU_wp|, |GU_wp ∩ SU_wp| and the part of that
    intersection no other system's SU_wp has."""

    lexelt: str
    gold_types: int
    system_types: int
    overlap: int
    unique: int


@dataclass(frozen=True)
class TypeOverlap:
    """One system's row of Table 9 (McCarthy & Navigli 2009, 4.2): the means over WP of the overlap
    (TypeOverlap, eq. 8), of |SU_wp| (#subs) and of the unique overlap (TypeOverlap_uniq)."""

    system: str
    words: tuple[WordOverlap, ...]

    def _mean(self, field: str) -> Fraction:
        return Fraction(sum(getattr(word, field) for word in self.words), len(self.words))

    @property
    def type_overlap(self) -> Fraction:
        return self._mean("overlap")

    @property
    def subs(self) -> Fraction:
        return self._mean("system_types")

    @property
    def type_overlap_uniq(self) -> Fraction:
        return self._mean("unique")

    def as_dict(self) -> Json:
        return {
            "system": self.system,
            "wp": len(self.words),
            "type_overlap": float(self.type_overlap),
            "subs": float(self.subs),
            "type_overlap_uniq": float(self.type_overlap_uniq),
            "words": [asdict(word) for word in self.words],
        }


def gold_types(gold: Gold, exclude: Collection[str] = ()) -> dict[str, set[str]]:
    """GU_wp (4.2): the single-word substitute types of H_i over the items of each lexelt."""
    return {
        lexelt: {
            substitute_type(key)
            for item_id in ids
            for key, _count in gold.items[item_id].counts
            if is_single_word(key)
        }
        for lexelt, ids in _words(gold, exclude).items()
    }


def type_overlap(
    gold: Gold, systems: Mapping[str, Sequence[SystemLine]], exclude: Collection[str] = ()
) -> tuple[TypeOverlap, ...]:
    """Table 9 (McCarthy & Navigli 2009, 4.2, eq. 8) for best-task systems (name → lines), one row
    each, ordered as the table: TypeOverlap highest first, then by name."""
    gu = gold_types(gold, exclude)
    if not gu:
        raise ValueError("no gold item left after exclude; |WP| must be positive")
    _bg, su = _system_types(gold, systems, exclude)
    rows = []
    for name in sorted(systems):
        words = []
        for lexelt, gold_set in gu.items():
            mine = su[name].get(lexelt, set())
            others = set().union(*(su[other].get(lexelt, set()) for other in su if other != name))
            words.append(
                WordOverlap(
                    lexelt,
                    len(gold_set),
                    len(mine),
                    len(mine & gold_set),
                    len((mine & gold_set) - others),
                )
            )
        rows.append(TypeOverlap(name, tuple(words)))
    return tuple(sorted(rows, key=lambda row: (-row.type_overlap, row.system)))


@dataclass(frozen=True, slots=True)
class Precision:
    """Items whose bg_i is the mode m_i, of the items considered."""

    correct: int
    items: int

    @property
    def value(self) -> Fraction | None:
        return _ratio(self.correct, self.items)


@dataclass(frozen=True)
class Disambiguation:
    """Table 10 (McCarthy & Navigli 2009, 4.3): ``all_ids`` is the set All (items whose mode every
    system has in its SU_wp); per system, All precision (eq. 9) and Sys precision (eq. 10, on
    the items whose mode that system has in its SU_wp)."""

    all_ids: tuple[str, ...]
    all: dict[str, Precision]
    sys: dict[str, Precision]

    def as_dict(self) -> Json:
        return {
            "all_items": len(self.all_ids),
            "all_ids": list(self.all_ids),
            "systems": {
                name: {
                    "all": _float(self.all[name].value),
                    "all_correct": self.all[name].correct,
                    "sys": _float(self.sys[name].value),
                    "sys_correct": self.sys[name].correct,
                    "sys_items": self.sys[name].items,
                }
                for name in self.all
            },
        }


def disambiguation_precision(
    gold: Gold, systems: Mapping[str, Sequence[SystemLine]], exclude: Collection[str] = ()
) -> Disambiguation:
    """All and Sys precision against the mode (McCarthy & Navigli 2009, 4.3, eqs. 9-10) for
    best-task systems (name → lines), over the items of T_m (``exclude`` left out)."""
    guesses, su = _system_types(gold, systems, exclude)
    modes = {
        item_id: substitute_type(mode)
        for item_id, mode in sorted(gold.modes.items())
        if item_id not in exclude
    }
    found = {
        name: sorted(
            item_id
            for item_id, mode in modes.items()
            if mode in su[name].get(gold.items[item_id].lexelt, set())
        )
        for name in sorted(systems)
    }
    everyone = set.intersection(*(set(ids) for ids in found.values()))

    def precision(name: str, ids: Collection[str]) -> Precision:
        return Precision(sum(guesses[name].get(i) == modes[i] for i in ids), len(ids))

    return Disambiguation(
        tuple(sorted(everyone)),
        {name: precision(name, everyone) for name in found},
        {name: precision(name, ids) for name, ids in found.items()},
    )
