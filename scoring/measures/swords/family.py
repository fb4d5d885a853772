"""The SWORDS family: SWORDS' figures (Lee et al. 2021; ``evaluate`` in
``swords/eval.py``) registered in :mod:`scoring.registry` as ``swords.NAME``:
:mod:`scoring.benchmark.swords` prepares the data and the result as SWORDS does and
reads every figure through the registry.

Each evaluated target gives one row (:func:`row`): for each of SWORDS' four settings
(lenient or strict, acceptable or conceivable gold) the hits and the substitutes returned
in the system's list cut at k = 10; for each gold level the size of the gold cut at k and
whole; the hits and substitutes returned at 1 (strict, conceivable); the target's GAP
with TRUE counts and with TRUE shares as weights (-1 where no substitute has a TRUE
label, as Melamud's code gives and SWORDS averages in); and 1 (the target). Counts are
pooled over the targets, as SWORDS' ``pr_at_k`` pools them:

- ``P@k`` = Σ hits / Σ returned, ``R@k`` = Σ hits / Σ min(|gold|, k), ``RS@k`` = Σ hits /
  Σ |gold|;
- ``F@k`` and ``FS@k``: 2PR / (P + R) and 2P·RS / (P + RS) of those pooled counts
  (:func:`scoring.measures.quotient.f_score`; P, R, RS are 0 where their denominator is);
- ``gap`` and ``gap_rat``: Σ GAP / Σ targets, numpy's mean when the column is summed by
  numpy.

Figures are fractions; SWORDS (and ``lexsub benchmark swords``) reports them in
percent. This module imports no numpy (the registry is read by the drop-in scorer); the
GAP of a row is computed by :func:`scoring.measures.ranking.items.gap`, loaded when a row is first
made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from scoring.measures.quotient import Quotient, Row, Value, f_score
from scoring.types import SystemKind

if TYPE_CHECKING:
    from scoring.formats.ranked import Scored
    from scoring.measures.revised.items import Frequencies, Number

K = 10
"""SWORDS' cut of the system's list."""
SETTINGS: tuple[tuple[str, bool, str], ...] = (
    ("lenient_a", True, "a"),
    ("lenient_c", True, "c"),
    ("strict_a", False, "a"),
    ("strict_c", False, "c"),
)
"""SWORDS' four settings: name, lenient (only the data's substitutes kept), gold level
(``a`` acceptable, ``c`` conceivable)."""
METRICS: tuple[str, ...] = (
    *(f"{prefix}_{name}@{K}" for prefix, _, _ in SETTINGS for name in ("f", "fs", "p", "r", "rs")),
    "strict_c_p@1",
    "gap",
    "gap_rat",
)
"""Every figure SWORDS' ``evaluate`` reports, in its order (registered as ``swords.NAME``)."""

COLUMNS: tuple[str, ...] = (
    *(f"{prefix}_{name}@{K}" for prefix, _, _ in SETTINGS for name in ("hits", "returned")),
    *(f"{level}_{name}" for level in ("a", "c") for name in (f"wanted@{K}", "gold")),
    "strict_c_hits@1",
    "strict_c_returned@1",
    "gap",
    "gap_rat",
    "targets",
)
"""The columns of one target's row (:func:`row`)."""


@dataclass(frozen=True, slots=True)
class TargetGold:
    """One evaluated target as SWORDS' measures read it (after its preprocessing): the
    data's substitutes (lemmas), the acceptable and the conceivable ones, and each
    substitute's weight for GAP: its number of TRUE labels and its share of them."""

    pool: frozenset[str]
    acceptable: frozenset[str]
    conceivable: frozenset[str]
    true_counts: Frequencies
    true_shares: Frequencies


def row(target: TargetGold, ranked: Sequence[Scored]) -> Row:
    """One target's :data:`COLUMNS` for the system's list (lemmatised, best first, each
    lemma once; empty when the system leaves the target out)."""
    return tuple(float(value) for value in _values(target, ranked))


def exact_row(target: TargetGold, ranked: Sequence[Scored]) -> dict[str, Fraction]:
    """:func:`row` by column name in Fractions (GAP exact when the target's weights are
    Fractions)."""
    return {
        column: Fraction(value)
        for column, value in zip(COLUMNS, _values(target, ranked), strict=True)
    }


def _values(target: TargetGold, ranked: Sequence[Scored]) -> list[Number]:
    from scoring.measures.ranking.items import gap

    names = [entry.candidate for entry in ranked]
    lenient = [name for name in names if name in target.pool]
    gold = {"a": target.acceptable, "c": target.conceivable}
    result: list[Number] = []
    for _prefix, is_lenient, level in SETTINGS:
        top = (lenient if is_lenient else names)[:K]
        result += [sum(name in gold[level] for name in top), len(top)]
    for level in ("a", "c"):
        result += [min(len(gold[level]), K), len(gold[level])]
    result += [sum(name in target.conceivable for name in names[:1]), len(names[:1])]
    for weights in (target.true_counts, target.true_shares):
        found = gap(weights, ranked)
        result.append(found.value if found.defined else -1)
    result.append(1)
    return result


@dataclass(frozen=True)
class SwordsMeasure(Quotient):
    """A SWORDS figure of pooled columns: ``Σ a / Σ b`` of two columns, or, with
    ``harmonic``, the F-score of three (hits, returned, wanted)."""

    name: str
    reads: tuple[str, ...]
    description: str
    harmonic: bool = False
    family: str = "swords"
    kinds: frozenset[SystemKind] = field(default=frozenset(("swords",)))

    def columns(self) -> tuple[str, ...]:
        return self.reads

    def parts(self, sums: Sequence[Value]) -> tuple[Value, Value]:
        if self.harmonic:
            return f_score(sums[0], sums[1], sums[2])
        return sums[0], sums[1]


def _setting(prefix: str, level: str) -> tuple[SwordsMeasure, ...]:
    hits, returned = f"{prefix}_hits@{K}", f"{prefix}_returned@{K}"
    wanted, gold = f"{level}_wanted@{K}", f"{level}_gold"
    what = f"{prefix.replace('_', ' ')} ({'acceptable' if level == 'a' else 'conceivable'})"
    return (
        SwordsMeasure(
            f"swords.{prefix}_f@{K}",
            (hits, returned, wanted),
            f"F@{K} of pooled counts, {what}: 2PR / (P + R)",
            harmonic=True,
        ),
        SwordsMeasure(
            f"swords.{prefix}_fs@{K}",
            (hits, returned, gold),
            f"FS@{K} of pooled counts, {what}: 2P·RS / (P + RS)",
            harmonic=True,
        ),
        SwordsMeasure(
            f"swords.{prefix}_p@{K}", (hits, returned), f"P@{K}, {what}: hits / returned"
        ),
        SwordsMeasure(
            f"swords.{prefix}_r@{K}", (hits, wanted), f"R@{K}, {what}: hits / min(|gold|, {K})"
        ),
        SwordsMeasure(f"swords.{prefix}_rs@{K}", (hits, gold), f"RS@{K}, {what}: hits / |gold|"),
    )


SWORDS: tuple[SwordsMeasure, ...] = (
    *(measure for prefix, _, level in SETTINGS for measure in _setting(prefix, level)),
    SwordsMeasure(
        "swords.strict_c_p@1",
        ("strict_c_hits@1", "strict_c_returned@1"),
        "P@1, strict (conceivable): hits / returned",
    ),
    SwordsMeasure(
        "swords.gap",
        ("gap", "targets"),
        "GAP weighted by TRUE labels (Melamud), mean over targets, -1 with no TRUE label",
    ),
    SwordsMeasure(
        "swords.gap_rat",
        ("gap_rat", "targets"),
        "GAP weighted by the share of TRUE labels, mean over targets",
    ),
)
"""SWORDS' figures, in the order of :data:`METRICS`."""
