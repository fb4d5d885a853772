"""Multi-valued alpha (Krippendorff & Craggs 2016): the reliability of data in which an
annotator may give a SET of values to a unit, such as a set of substitutes to an item.

mvalpha = 1 - mvD_o / mvD_e. The values paired are whole sets (the empty set included: an
annotator who says no value applies gives {}), and two sets differ by the share of their
members they do not share, for nominal values

    δ(C, K) = 1 - 2 |C ∩ K| / (|C| + |K|),  δ({}, {}) = 0

(so {} against any non-empty set is 1, and {glad, merry} against {glad} is 1/3).

* **Observed.** The coincidence form of alpha with sets as values: a unit with m_u ≥ 2
  sets contributes every ordered pair of sets of two different annotators with weight
  1 / (m_u - 1), and mvD_o = Σ_u Σ_{i≠j} δ(V_ui, V_uj) / (m_u - 1) / n, n the pairable sets.
* **Expected.** Not the pairs of the observed sets (as :func:`scoring.agreement.alpha.
  masi_alpha` pools them) but sets composed by chance from the pooled VALUES: with n_x the
  number of pairable sets holding value x and P_a the share of pairable sets of size a,
  mvD_e = Σ_{a,b} P_a P_b D(a, b), D(a, b) the mean of δ(C, K) over every set C of a values
  and K of b values, weighted by how often drawing them from the pooled values gives them:
  w(C, K) = Π_{x ∈ C or K} n_x · Π_{x ∈ C ∩ K} (n_x - 1) (a value K shares with C is drawn
  from the n_x - 1 occurrences C left). D(0, 0) = 0 and D(0, b) = 1; a cell whose weights
  are all 0 (no draw can give it) contributes 0, as the R package ``mvalpha`` has it.

The nominal δ depends on |C ∩ K| only, so D(a, b) = 1 - 2 Y(a, b) / ((a + b) Z(a, b)) with
Z = Σ w and Y = Σ w |C ∩ K|, the coefficients of s^a t^b in
Π_x (1 + n_x s + n_x t + n_x (n_x - 1) u s t) at u = 1 and of its derivative in u: one pass
over the distinct occurrence counts, in integers, instead of enumerating every pair of
subsets of the vocabulary (:func:`expected_weights`). Everything is exact
(:class:`fractions.Fraction`); the published examples of Krippendorff & Craggs (2016),
tables 3, 8a-c and 9a-c, are the tests.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction
from typing import Literal, Protocol

ValueSet = frozenset[Hashable]
Nil = Literal["missing", "empty"]
LARGEST_SET = 16
"""The largest set accepted: the expected disagreement multiplies polynomials of degree
(largest + 1)² (annotators give at most 3 substitutes)."""


def set_difference(first: ValueSet, second: ValueSet) -> Fraction:
    """δ(C, K) = 1 - 2 |C ∩ K| / (|C| + |K|) for nominal values, 0 for two empty sets
    (Krippendorff & Craggs 2016)."""
    if not first and not second:
        return Fraction(0)
    return 1 - Fraction(2 * len(first & second), len(first) + len(second))


Weights = tuple[list[list[int]], list[list[int]]]
"""(Z, Y): truncated polynomials in s and t, Y the derivative in u (see below)."""


def _product(first: Weights, second: Weights, largest: int) -> Weights:
    """The product of two (Z, Y) pairs, terms of degree above ``largest`` in s or in t
    dropped: Z = Z1 Z2, Y = Z1 Y2 + Y1 Z2 (the derivative of a product)."""
    size = largest + 1
    z = [[0] * size for _ in range(size)]
    y = [[0] * size for _ in range(size)]
    (z1, y1), (z2, y2) = first, second
    for a1 in range(size):
        for b1 in range(size):
            if not (z1[a1][b1] or y1[a1][b1]):
                continue
            for a2 in range(size - a1):
                for b2 in range(size - b1):
                    z[a1 + a2][b1 + b2] += z1[a1][b1] * z2[a2][b2]
                    y[a1 + a2][b1 + b2] += z1[a1][b1] * y2[a2][b2] + y1[a1][b1] * z2[a2][b2]
    return z, y


def _one(largest: int) -> Weights:
    """The polynomial 1 (and its derivative 0)."""
    size = largest + 1
    return (
        [[int(a == b == 0) for b in range(size)] for a in range(size)],
        [[0] * size for _ in range(size)],
    )


def _power(base: Weights, exponent: int, largest: int) -> Weights:
    result = _one(largest)
    while exponent:
        if exponent & 1:
            result = _product(result, base, largest)
        exponent >>= 1
        if exponent:
            base = _product(base, base, largest)
    return result


def expected_weights(occurrences: Iterable[int], largest: int) -> Weights:
    """(Z, Y): Z[a][b] = Σ w(C, K) and Y[a][b] = Σ w(C, K) |C ∩ K| over the sets C of a
    values and K of b values (a, b ≤ ``largest``), w as in the module docstring, for values
    occurring ``occurrences`` times. Each value x multiplies the generating polynomial by
    1 + n s + n t + n (n - 1) u s t (x in neither set, in C only, in K only, in both);
    Y carries the derivative in u. Values with the same n give the same factor, so each
    distinct n is raised to its multiplicity by squaring: the cost depends on the number
    of distinct counts, not on the size of the vocabulary."""
    size = largest + 1
    total = _one(largest)
    for n, values in sorted(Counter(occurrences).items()):
        z = [[0] * size for _ in range(size)]
        y = [[0] * size for _ in range(size)]
        z[0][0] = 1
        if largest:
            z[1][0] = z[0][1] = n
            z[1][1] = y[1][1] = n * (n - 1)
        total = _product(total, _power((z, y), values, largest), largest)
    return total


def multivalued_alpha_exact(units: Iterable[Sequence[Iterable[Hashable] | None]]) -> Fraction:
    """Multi-valued alpha for nominal values (Krippendorff & Craggs 2016): ``units[u]``
    holds each annotator's set of values for unit u (an empty set when they gave none,
    None when they did not code the unit). Units with fewer than two sets are not
    pairable and drop out. ValueError when no unit is pairable or the expected
    disagreement is 0 (every pairable set is the same single value, or all are empty)."""
    pairs: Counter[tuple[int, int, int]] = Counter()  # (m_u, |C| + |K|, |C ∩ K|) → pairs
    pooled: list[ValueSet] = []
    for unit in units:
        sets = [frozenset(v) for v in unit if v is not None]
        m = len(sets)
        if m < 2:
            continue
        pooled += sets
        pairs.update(
            (m, len(c) + len(k), len(c & k)) for i, c in enumerate(sets) for k in sets[i + 1 :]
        )
    n = len(pooled)
    if n == 0:
        raise ValueError("no unit has two sets (alpha needs pairable values)")
    # each unordered pair twice, (C, K) and (K, C); δ = 1 - 2 i / (|C| + |K|)
    observed = sum(
        (
            Fraction(2 * number, m - 1) * (1 - Fraction(2 * i, sizes) if sizes else 0)
            for (m, sizes, i), number in sorted(pairs.items())
        ),
        Fraction(0),
    )
    sizes = Counter(map(len, pooled))
    if max(sizes) > LARGEST_SET:
        raise ValueError(
            f"a set of {max(sizes)} values (multi-valued alpha accepts sets of at most "
            f"{LARGEST_SET})"
        )
    occurrences = Counter(x for value in pooled for x in value)
    z, y = expected_weights(sorted(occurrences.values()), max(sizes))
    expected = Fraction(0)
    for a, many in sizes.items():
        for b, more in sizes.items():
            if a + b == 0 or z[a][b] == 0:
                continue
            mean = 1 - Fraction(2 * y[a][b], (a + b) * z[a][b])
            expected += many * more * mean
    expected /= n * n
    if expected == 0:
        raise ValueError(
            "expected disagreement 0 (every set is the same single value, or every set is "
            "empty): multi-valued alpha is undefined"
        )
    return 1 - observed / n / expected


def multivalued_alpha(units: Iterable[Sequence[Iterable[Hashable] | None]]) -> float:
    """:func:`multivalued_alpha_exact` as a float."""
    return float(multivalued_alpha_exact(units))


# --- substitutes ----------------------------------------------------------------------------


class _Response(Protocol):
    @property
    def annotator(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def substitutes(self) -> frozenset[str]: ...


class _Item(Protocol):
    @property
    def responses(self) -> Sequence[_Response]: ...


def substitute_sets(
    items: Iterable[_Item], nil: Nil = "missing"
) -> list[list[frozenset[str] | None]]:
    """The units of multi-valued alpha on substitution answers: one per item, holding each
    annotator's (sorted) set of substitutes h_i, None where the annotator did not answer.
    A ``name`` answer (the target is a proper name) is missing. A ``nil`` answer (no
    substitute fits) is missing by default, so that an item is pairable exactly when it is
    in T, as in the other views; ``nil="empty"`` makes it the empty set, a value in its own
    right ("no value applies"), which then disagrees with every non-empty answer."""
    listed = list(items)
    annotators = sorted({r.annotator for item in listed for r in item.responses})
    units: list[list[frozenset[str] | None]] = []
    for item in listed:
        given: dict[str, frozenset[str]] = {}
        for response in item.responses:
            if response.substitutes:
                given[response.annotator] = response.substitutes
            elif response.kind == "nil" and nil == "empty":
                given[response.annotator] = frozenset()
        units.append([given.get(a) for a in annotators])
    return units


def substitute_multivalued_alpha(items: Iterable[_Item], nil: Nil = "missing") -> float:
    """Multi-valued alpha (Krippendorff & Craggs 2016) with the items as units and each
    annotator's answer set as one value: :func:`multivalued_alpha` of
    :func:`substitute_sets`."""
    return multivalued_alpha(substitute_sets(items, nil))
