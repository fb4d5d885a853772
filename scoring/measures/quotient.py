"""What a measure is, in the manner of sacrebleu's ``Metric``: the
:class:`Measure` protocol every measure of the registry (:mod:`scoring.registry`) follows,
:class:`Quotient`, the one way a figure is computed from column sums, :class:`Ratio`, the
leaderboard's measures, and :class:`Family`, columns computed together for every item
(the families of :mod:`scoring.measures`).

A family turns each item into a row of sufficient statistics (named columns) and a
measure's figure is a function of the column sums over the items. Every figure lexsub
reports ends in one division of two functions of those sums (:meth:`Quotient.parts`):
best P is Σ score / Σ attempted, an F-score is 2PR / (P + R) with P and R themselves
ratios of sums. The same ``parts`` serve both routes, so each figure is defined once:

- :meth:`Quotient.figure`: one figure from sums given as Python numbers, None where the
  last division's denominator is 0 (where score.pl prints nothing or dies). It needs no
  numpy, which the drop-in scorer does not import (it would double its start-up time).
- :meth:`Quotient.corpus`: B figures from a (B, k) array of sums, NaN (undefined) where
  that denominator is 0, vectorised for the resampler (:mod:`scoring.significance`).

An inner ratio whose denominator is 0 counts as 0 (:func:`divide`) in both routes.

>>> divide(3.0, 4.0), divide(1.0, 0.0)
(0.75, 0.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeVar

from scoring.types import Rules, SystemKind

if TYPE_CHECKING:
    from fractions import Fraction

    import numpy as np
    import numpy.typing as npt

    from scoring.measures.bulk import Answers, Given, GoldItem
    from scoring.signature import Settings

    Array = npt.NDArray[np.float64]

Row = tuple[float, ...]
"""One item's columns (or one measure's statistics of an item)."""

Value = TypeVar("Value", float, "Array")
"""A column sum: one (a Python float) or B of them (a numpy array, the resampler's)."""


def divide(top: Value, bottom: Value) -> Value:
    """``top / bottom``, 0 where ``bottom`` is 0: on one figure or on B of them alike."""
    if isinstance(bottom, float):
        return top / bottom if bottom else 0.0
    import numpy as np  # arrays only come with numpy loaded

    zero = bottom == 0
    result: Array = np.where(zero, 0.0, top / np.where(zero, 1.0, bottom))
    return result


class Measure(Protocol):
    """One registered measure, as sacrebleu's ``Metric``: its name, the family whose
    columns it reads (a module of :mod:`scoring.measures`), the kinds of system it applies
    to, a description, the column sums it reads and its figure from column sums (one, or
    B vectorised). The leaderboard's measures also sign their figures
    (:meth:`Ratio.signature`); the scorer and the benchmarks sign theirs as a whole."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def kinds(self) -> frozenset[SystemKind]: ...

    @property
    def description(self) -> str: ...

    def columns(self) -> tuple[str, ...]: ...

    def corpus(self, sums: Array) -> Array: ...

    def figure(self, sums: Sequence[float]) -> float | None: ...


class Quotient:
    """The figure of a measure whose last step divides two functions of its column sums
    (:meth:`parts`); subclasses give :meth:`columns` and :meth:`parts`."""

    def columns(self) -> tuple[str, ...]:
        """The columns whose sums the figure reads, in the order :meth:`parts` takes."""
        raise NotImplementedError

    def parts(self, sums: Sequence[Value]) -> tuple[Value, Value]:
        """The numerator and denominator of the figure's last division, from the sums of
        :meth:`columns` (floats, or arrays of B resampled sums)."""
        raise NotImplementedError

    def corpus(self, sums: Array) -> Array:
        """(B, k) column sums → B figures, NaN where the last denominator is 0, where
        :meth:`figure` is None (a resample can miss every attempted item: the measure is
        undefined there, and the resampler leaves it out, :mod:`scoring.significance`)."""
        return corpus_figures(self.parts, sums)

    def figure(self, sums: Sequence[float]) -> float | None:
        """The figure from one set of column sums; None where the last denominator is 0.

        >>> class P(Quotient):
        ...     def parts(self, sums):
        ...         return sums[0], sums[1]
        >>> P().figure([1, 4]), P().figure([0, 0])
        (0.25, None)
        """
        return one_figure(self.parts, sums)


Parts = Callable[[Sequence[Value]], tuple[Value, Value]]
"""A measure's :meth:`Quotient.parts`."""


def corpus_figures(parts: Parts[Array], sums: Array) -> Array:
    """:meth:`Quotient.corpus` of the measure whose parts are ``parts``."""
    import numpy as np  # arrays only come with numpy loaded

    top, bottom = parts(list(sums.T))
    zero = bottom == 0
    result: Array = np.where(zero, np.nan, top / np.where(zero, 1.0, bottom))
    return result


def one_figure(parts: Parts[float], sums: Sequence[float]) -> float | None:
    """:meth:`Quotient.figure` of the measure whose parts are ``parts``."""
    top, bottom = parts([float(value) for value in sums])
    return top / bottom if bottom else None


def f_score(hits: Value, returned: Value, wanted: Value) -> tuple[Value, Value]:
    """The parts of the F-score of pooled counts: 2PR / (P + R) with P = hits / returned
    and R = hits / wanted (each 0 where its denominator is 0).

    >>> top, bottom = f_score(3.0, 7.0, 5.0)
    >>> round(top / bottom, 12)
    0.5
    """
    precision = divide(hits, returned)
    recall = divide(hits, wanted)
    return 2 * precision * recall, precision + recall


class Ratio(NamedTuple):
    """A measure ``Σ numerator / Σ denominator`` of two columns of ``family`` over the
    items. ``official``: score.pl's scan gives the figure (the gold read under its own
    rules; the others read it under ``Settings.reading``); ``uses_k``: the penalty k of
    weighted precision fixes the figure. A :class:`Quotient` whose parts are the two
    sums (a record, as the registry's rows are)."""

    name: str
    family: str
    kinds: frozenset[SystemKind]
    numerator: str
    denominator: str
    description: str
    official: bool = False
    uses_k: bool = False

    def columns(self) -> tuple[str, ...]:
        return self.numerator, self.denominator

    def parts(self, sums: Sequence[Value]) -> tuple[Value, Value]:
        return sums[0], sums[1]

    def corpus(self, sums: Array) -> Array:
        """As :meth:`Quotient.corpus`."""
        return corpus_figures(self.parts, sums)

    def figure(self, sums: Sequence[float]) -> float | None:
        """As :meth:`Quotient.figure`.

        >>> Ratio("x.P", "x", frozenset(), "a", "b", "").figure([1, 4])
        0.25
        """
        return one_figure(self.parts, sums)

    def signature(self, settings: Settings, rules: Rules, reading: Rules | None = None) -> str:
        """``metric:best.P|rules:compat|t:two+responses|...|version:X``: every setting that
        fixes the figure. ``rules`` are the gold's, which the official measures read it
        under; the others read it under ``reading`` (``rules`` when None)."""
        # imported here: the drop-in scorer prints its figures unsigned, without json
        from scoring.signature import scorer_settings, signature

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


ExactRow = Mapping[str, "Fraction"]
"""One item's columns in exact arithmetic, by column name."""
Columns = Mapping[str, "Array"]
"""Every item's columns computed in bulk, by column name (one value per item)."""


class Family(NamedTuple):
    """Columns of the leaderboard computed together for every gold item: ``bulk(given,
    k)`` gives each column's values for the items of ``given.table`` (numpy, loaded by
    the call), ``exact(gold_item, answers, k)`` one item's columns in Fractions, the test
    oracle of the bulk route (tests/test_measures.py checks that they agree on every
    registered measure)."""

    name: str
    columns: tuple[str, ...]
    bulk: Callable[[Given, float], Columns]
    exact: Callable[[GoldItem, Answers, Fraction], ExactRow]
