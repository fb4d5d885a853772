"""The mw family: the mw measures (McCarthy & Navigli 2007, section 4.3; ``score.pl -t mw``)
registered in :mod:`scoring.registry`: multiword detection and identification, precision
and recall.

Each id a system file names (its first line; score.pl's ``%done``) gives one row of four
columns (:func:`row`): ``found`` (the line has an answer), ``genuine`` (the id has a gold
multiword and the system tried it), ``matched`` (and named it), ``has_mw`` (the id has a
gold multiword: MW), whole numbers, so that the float row is also the exact one
(:func:`exact_row`). Detection P is Σ genuine / Σ found, detection R Σ genuine / |MW|,
identification P Σ matched / Σ found, identification R Σ matched / |MW|.
:func:`scoring.measures.multiword.items.score_multiwords` scans a file with :func:`row` and sums the
columns in the file's order, |MW| counted as score.pl's ``readmwfile`` counts it.

>>> item = MultiwordItem("take place", "fixed")
>>> row(item, "take  place"), row(item, " "), row(MultiwordItem(None, "fixed"), "x")
((1.0, 1.0, 1.0, 1.0), (0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 0.0))
>>> row(MultiwordItem("take place", "compat"), " ")  # score.pl: an empty answer tries
(0.0, 1.0, 0.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.formats.lines import NONSPACE
from scoring.formats.perl import perl_truthy
from scoring.measures.quotient import Quotient, Row, Value
from scoring.terms import normalise
from scoring.types import Rules, SystemKind

COLUMNS = ("found", "genuine", "matched", "has_mw")
"""The columns of one id's row (:func:`row`)."""


@dataclass(frozen=True, slots=True)
class MultiwordItem:
    """One id as the mw measures read it: its gold multiword (None when it has none, or
    when annotators tie), under ``rules``."""

    mode: str | None
    rules: Rules


def row(item: MultiwordItem, answer: str | None) -> Row:
    """One id's columns for the answer of its first system line (None: no line). Compat
    counts a line with an empty answer as a detection attempt of a gold multiword (a
    defect that inflates recall) and compares answers as written; fixed does not, and
    compares them trimmed and single-spaced, hyphens as spaces."""
    mode = item.mode
    has_mw = perl_truthy(mode)
    if answer is None:
        return 0.0, 0.0, 0.0, float(has_mw)
    fixed = item.rules == "fixed"
    has_answer = bool(NONSPACE.search(answer))
    genuine = has_mw and (has_answer or not fixed)
    matched = genuine and (normalise(answer) == normalise(mode or "") if fixed else mode == answer)
    return float(has_answer), float(genuine), float(matched), float(has_mw)


def exact_row(item: MultiwordItem, answer: str | None) -> dict[str, Fraction]:
    """:func:`row` by column name, in Fractions (its values are 0 or 1)."""
    return {
        column: Fraction(value) for column, value in zip(COLUMNS, row(item, answer), strict=True)
    }


@dataclass(frozen=True)
class MultiwordRatio(Quotient):
    """An mw measure: Σ numerator / Σ denominator of two of :data:`COLUMNS`."""

    name: str
    numerator: str
    denominator: str
    description: str
    family: str = "mw"
    kinds: frozenset[SystemKind] = field(default=frozenset(("mw",)))

    def columns(self) -> tuple[str, ...]:
        return self.numerator, self.denominator

    def parts(self, sums: Sequence[Value]) -> tuple[Value, Value]:
        return sums[0], sums[1]


_SOURCE = "score.pl -t mw (McCarthy & Navigli 2007, section 4.3)"
MULTIWORD: tuple[MultiwordRatio, ...] = (
    MultiwordRatio(
        "mw.detection_P",
        "genuine",
        "found",
        f"multiword detection precision: answered ids with a gold multiword ({_SOURCE})",
    ),
    MultiwordRatio(
        "mw.detection_R",
        "genuine",
        "has_mw",
        f"multiword detection recall: gold multiwords the system tried ({_SOURCE})",
    ),
    MultiwordRatio(
        "mw.identification_P",
        "matched",
        "found",
        f"multiword identification precision: answers naming the gold multiword ({_SOURCE})",
    ),
    MultiwordRatio(
        "mw.identification_R",
        "matched",
        "has_mw",
        f"multiword identification recall: gold multiwords named ({_SOURCE})",
    ),
)
"""The mw measures, in the order score.pl prints them."""
