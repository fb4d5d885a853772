"""What a measure is, in the manner of sacrebleu's ``Metric``: the
:class:`Measure` protocol every measure of the registry (:mod:`scoring.registry`) follows,
and :class:`Quotient`, the one way a figure is computed from column sums.

A measure turns each item into a row of sufficient statistics (``item_stats``: floats,
its own columns of its family's row) and its figure is a function of the column sums over
the items. Every figure lexsub reports ends in one division of two functions of those
sums (:meth:`Quotient.parts`): best P is Σ score / Σ attempted, an F-score is 2PR / (P +
R) with P and R themselves ratios of sums. The same ``parts`` serve both routes, so each
figure is defined once:

- :meth:`Quotient.figure`: one figure from sums given as Python numbers, None where the
  last division's denominator is 0 (where score.pl prints nothing or dies). It needs no
  numpy, which the drop-in scorer does not import (it would double its start-up time).
- :meth:`Quotient.corpus`: B figures from a (B, k) array of sums, 0 where that
  denominator is 0, vectorised for the resampler (:mod:`scoring.significance`).

An inner ratio whose denominator is 0 counts as 0 (:func:`divide`) in both routes.

>>> divide(3.0, 4.0), divide(1.0, 0.0)
(0.75, 0.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from scoring.types import SystemKind

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

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
    """One registered measure, as sacrebleu's ``Metric``: its name, the kinds of system
    it applies to, a description, the column sums it reads, one item's statistics, its
    figure from column sums (one, or B vectorised), and its signature (every setting that
    fixes the figure: each family takes the settings it has)."""

    @property
    def name(self) -> str: ...

    @property
    def kinds(self) -> frozenset[SystemKind]: ...

    @property
    def description(self) -> str: ...

    def columns(self) -> tuple[str, ...]: ...

    def item_stats(self, gold_item: Any, answers: Any) -> Row: ...

    def corpus(self, sums: Array) -> Array: ...

    def figure(self, sums: Sequence[float]) -> float | None: ...

    def signature(self, *settings: Any, **named: Any) -> str: ...


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
        """(B, k) column sums → B figures, 0 where the last denominator is 0 (a resample
        can miss every attempted item)."""
        top, bottom = self.parts(list(sums.T))
        return divide(top, bottom)

    def figure(self, sums: Sequence[float]) -> float | None:
        """The figure from one set of column sums; None where the last denominator is 0.

        >>> class P(Quotient):
        ...     def parts(self, sums):
        ...         return sums[0], sums[1]
        >>> P().figure([1, 4]), P().figure([0, 0])
        (0.25, None)
        """
        top, bottom = self.parts([float(value) for value in sums])
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
