"""Confidence intervals and significance tests for every measure, with one resampler.

As in sacrebleu (``sacrebleu/significance.py``), a measure turns each item into a row of
sufficient statistics (k floats) and its corpus score is a function of the column sums
(:data:`Corpus`). Whole rows are resampled, so the numerator and denominator of a ratio
measure move together. Items come ten per lemma and items of one lemma are not
independent, so the clusters (lexelts, :func:`lemma_of`) are resampled, not the items:
the cluster bootstrap of Davison & Hinkley (1997, *Bootstrap Methods and their
Application*, section 3.8), consistent under both models of Field & Welsh (2007,
"Bootstrapping clustered data", JRSS B 69(3)). Each cluster is reduced once to the sum of
its rows (:func:`cluster_sums`, C clusters); a resample is a vector of counts over the
clusters, and B resamples are a (B, C) count matrix times the (C, k) sums, in chunks,
with no rounding but the last (see Determinism).

Definitions (delta is always ``b - a``: positive when system B scores higher):

- Interval: the percentile interval (Efron & Tibshirani 1993, *An Introduction to the
  Bootstrap*, ch. 13), the (1 - confidence)/2 and (1 + confidence)/2 quantiles of the B
  resampled scores (numpy's default linear interpolation, Hyndman & Fan type 7); the
  estimate is the score of the corpus itself. BCa (ch. 14) is not used: its acceleration
  needs a jackknife over clusters and its end points are unstable at B = 1,000, while
  the percentile interval is what Koehn (2004) and sacrebleu report.
- Paired bootstrap (Koehn 2004, "Statistical Significance Tests for Machine Translation
  Evaluation", EMNLP): both systems are scored on the same resamples, giving delta*.
  p = min(1, 2 (1 + min(#{delta* <= 0}, #{delta* >= 0})) / (B + 1)): Koehn's share of
  resamples in which the winner does not win, made two-sided by doubling the smaller
  tail, with the +1 of the randomisation test so that p is never 0. It is the dual of
  the percentile interval (p < 1 - confidence about when the interval of delta excludes
  0); the shifted test of Berg-Kirkpatrick et al. (2012, delta* > 2 delta) is not used.
- Approximate randomisation (Noreen 1989, *Computer-Intensive Methods for Testing
  Hypotheses*; Riezler & Maxwell 2005): in each of N trials every cluster's rows of A and
  B are swapped (all its rows together) with probability 1/2; r counts the trials with
  |delta'| >= |delta| - TIE max(1, |delta|) (so that rounding cannot split a tie);
  p = (r + 1) / (N + 1), Noreen's correction that keeps the test valid at finite N.
  :func:`compare` runs both tests, each with a generator of its own seeded with ``seed``.

Undefined figures: a measure's corpus function gives NaN where the measure is undefined
(a precision on a resample that attempted nothing, when a system answers only some
lemmas). Such resamples are left out of that measure's percentiles and counted
(:attr:`Interval.undefined`), never scored as 0; when more than half the resamples are
undefined the measure gets no interval. A paired test leaves out the resamples (and the
randomisation trials, :attr:`Comparison.undefined_trials`) in which either system's figure
is undefined, B (and N) in its p-value becoming the number of defined ones; it gives no
interval and no p when more than half are undefined, or when either system's own figure
is. With no undefined resample, nothing changes: the same draws, the same bits.

Determinism: ``numpy.random.default_rng(seed)``; clusters sorted by ``str(id)``; within
a cluster each column's values are added in increasing order, so a permutation of the
items changes no bit of any result. The resample counts depend only on (clusters,
resamples, seed) and are cached (two entries, 20 MB for 1,000 x 10,000), so every
measure and pair scored with one seed uses the same resampled corpora (as sacrebleu
draws its indices once per seed). The products of the counts (and of the swaps) with the
cluster sums have no rounding error until their last additions (:func:`_exact_product`:
the sums are split into slices whose products are exact, Ozaki et al. 2012, and a
column's slices are added smallest first; with two slices, as on the benchmark, each
entry is the exact sum correctly rounded), so no bit depends on the BLAS library, its
number of threads, the machine's cores, the chunking or the other columns multiplied
alongside: the leaderboard draws every system at once (:func:`draw`), each system's
resampled sums are those it would get alone, and the paired tests read them as they are
(delta* = score(B*) - score(A*); in a trial, the sums of the swapped clusters of B less
those of A move between the systems). Identical systems still give delta* = 0 exactly,
and a cluster where the systems agree moves nothing. Each product runs on one BLAS thread
(threadpoolctl; the bits do not need it, but a second thread spins against other work
for the cores), the resamples' and the swaps' side by side. (Before 2026-11-24 the products went
through BLAS as they came, whose last bits depend on its threads and blocking, and the
bootstrap added B's differences to A's resampled sums: the interval ends of the
leaderboard's JSON moved by a few units in the last place, at most 3e-16 absolute on the
100,000-item benchmark; p-values and estimates did not.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

Array = npt.NDArray[np.float64]
Codes = npt.NDArray[np.intp]

Corpus = Callable[[Array], Array]
"""Maps column sums, shape (B, k), to the B corpus scores, vectorised. It returns NaN
where the measure is undefined (a precision whose resample attempted nothing: its last
denominator is 0, as the measures' corpus functions do) and a finite score elsewhere; an
infinite score raises ValueError. An undefined resample is left out of that measure's
interval and counted (:class:`Interval`'s ``undefined``), never scored as 0."""


def ratio_of(numerator: int, denominator: int) -> Corpus:
    """The corpus function of a ratio measure whose numerator and denominator are the
    columns at these places: Σ numerator / Σ denominator, NaN (undefined) where the
    denominator is 0 (a resample can miss every attempted item)."""

    def corpus(sums: Array) -> Array:
        bottom = sums[:, denominator]
        top = sums[:, numerator]
        return np.where(bottom == 0, np.nan, top / np.where(bottom == 0, 1.0, bottom))

    return corpus


@dataclass(frozen=True)
class Resampling:
    """How a report's intervals (and tests, with ``trials``) were drawn: lemmas resampled
    ``resamples`` times with ``seed``, ``confidence`` intervals."""

    resamples: int
    seed: int
    confidence: float
    trials: int | None = None
    unit: str = "lemma"
    clusters: int | None = None
    """How many lemmas were resampled, when known (:attr:`warning`)."""

    @property
    def warning(self) -> str | None:
        """:func:`few_clusters`'s warning for :attr:`clusters`, if it has one."""
        return None if self.clusters is None else few_clusters(self.clusters, self.unit)

    def to_json(self) -> dict[str, Any]:
        """The settings, and ``warning`` when there are too few lemmas."""
        body: dict[str, Any] = {"unit": self.unit, "resamples": self.resamples}
        if self.trials is not None:
            body["trials"] = self.trials
        body = {**body, "seed": self.seed, "confidence": self.confidence}
        if self.warning is not None:
            body["warning"] = self.warning
        return body


MIN_CLUSTERS = 20
"""Fewer lemmas than this, and the intervals and p-values are not to be trusted: with few
clusters the cluster bootstrap's intervals are too narrow and its tests reject too often
(Cameron, Gelbach & Miller 2008, who study 5 to 30 clusters); 20 is a rule of thumb, not
a bound (two lemmas gave p = 0.01 by the bootstrap and 0.56 by randomisation for the
same pair of systems)."""


def few_clusters(count: int, unit: str = "lemma") -> str | None:
    """The warning for intervals and tests drawn from ``count`` clusters (``unit`` names
    them), or None from :data:`MIN_CLUSTERS` on.

    >>> few_clusters(2)
    'only 2 lemmas: with fewer than 20 the intervals and p-values are unreliable'
    >>> few_clusters(20) is None
    True
    """
    if count >= MIN_CLUSTERS:
        return None
    return (
        f"only {count} {unit}{'' if count == 1 else 's'}: with fewer than {MIN_CLUSTERS}"
        " the intervals and p-values are unreliable"
    )


TIE = 1e-9
"""Randomised differences within TIE * max(1, |delta|) of |delta| count as reaching it."""
CHUNK = 1 << 21
"""Elements of the count or swap matrix handled at once (rows = max(1, CHUNK // C)); the
results do not depend on it (:func:`_exact_product`)."""
BITS = 53
"""The significand of a float64: whole numbers up to 2^53 are exact."""
SMALLEST = -1074
"""The exponent of the smallest float64 (subnormal): every float64 is a whole multiple
of 2^-1074."""


@dataclass(frozen=True, slots=True)
class Interval:
    """A score (or a difference of scores) and its percentile bootstrap interval.

    ``undefined``: how many of the ``resamples`` left the measure undefined (NaN: a
    precision with nothing attempted; in a paired test, either system's); they are left
    out of the percentiles. When more than half are undefined there is no interval
    (``low`` and ``high`` None). ``estimate`` is NaN where the corpus' own figure is
    undefined."""

    estimate: float
    low: float | None
    high: float | None
    confidence: float
    resamples: int
    seed: int
    undefined: int = 0

    @property
    def bounds(self) -> tuple[float, float] | None:
        """(low, high), or None when there is no interval (more than half the resamples
        undefined)."""
        if self.low is None or self.high is None:
            return None
        return self.low, self.high


@dataclass(frozen=True, slots=True)
class Comparison:
    """Systems A and B on one measure: their scores, delta = b - a with its paired
    bootstrap interval, and the two-sided p-values of both tests."""

    measure: str | None
    a: float
    b: float
    delta: float
    interval: Interval
    p_bootstrap: float | None
    p_randomisation: float | None
    resamples: int
    trials: int
    seed: int
    undefined_trials: int = 0
    """Randomisation trials in which either system's figure was undefined (left out)."""


def lemma_of(item_id: str) -> str:
    """The cluster of an item id ``LEXELT INSTANCE`` (``"bright.a 1"`` → ``"bright.a"``):
    its lexelt, so the ten sentences of one lemma and PoS are resampled together."""
    lexelt, space, instance = item_id.partition(" ")
    if not space or not lexelt or not instance or " " in instance:
        raise ValueError(
            f"item id {item_id!r} is not 'LEXELT INSTANCE' (two non-empty parts, one space)"
        )
    return lexelt


def _matrix(stats: npt.ArrayLike, name: str) -> Array:
    matrix = np.asarray(stats, dtype=np.float64)
    if matrix.ndim != 2 or 0 in matrix.shape:
        raise ValueError(f"{name} has shape {matrix.shape}; it must be (items, k), both >= 1")
    if not np.isfinite(matrix).all():
        row = int(np.flatnonzero(~np.isfinite(matrix).all(axis=1))[0])
        raise ValueError(
            f"{name} row {row} is {matrix[row].tolist()}; statistics must be "
            "finite (no NaN or infinity)"
        )
    return matrix


def _codes(clusters: Sequence[Hashable], rows: int) -> tuple[Codes, list[Hashable]]:
    """Each row's cluster number and the cluster ids, sorted by ``str(id)``."""
    if len(clusters) != rows:
        raise ValueError(f"{len(clusters)} cluster ids for {rows} rows (one per row)")
    distinct = list(dict.fromkeys(clusters))
    by_name = {str(cluster): cluster for cluster in distinct}
    if len(by_name) != len(distinct):
        twins = min(n for n, c in Counter(map(str, distinct)).items() if c > 1)
        same = sorted(repr(c) for c in distinct if str(c) == twins)
        raise ValueError(
            f"cluster ids {', '.join(same)} all print as {twins!r}; ids must "
            "differ as strings (they are sorted by str)"
        )
    if len(distinct) < 2:
        raise ValueError(
            f"{len(distinct)} distinct cluster id; resampling needs at least 2 clusters"
        )
    ids = [by_name[name] for name in sorted(by_name)]
    index = {cluster: number for number, cluster in enumerate(ids)}
    return np.fromiter(map(index.__getitem__, clusters), dtype=np.intp, count=rows), ids


def _sums(matrix: Array, codes: Codes, count: int) -> Array:
    """The column sums of each cluster, each column's values added in increasing order
    within a cluster, so that the sums (to the bit) do not depend on the order of rows
    (a column of whole numbers is added as it comes: its sums are exact)."""
    keys = codes.astype(np.uint16 if count <= 1 << 16 else np.uint32)  # radix sort if small
    columns = []
    for column in matrix.T:
        if (column == np.floor(column)).all() and np.abs(column).sum() < 2.0**53:
            # whole numbers (counts, 0/1 flags) add up exactly in any order
            columns.append(np.bincount(codes, weights=column, minlength=count))
            continue
        order = np.argsort(column)
        order = order[np.argsort(keys[order], kind="stable")]  # by cluster, then value
        columns.append(np.bincount(codes[order], weights=column[order], minlength=count))
    return np.stack(columns, axis=1).astype(np.float64, copy=False)


def cluster_codes(clusters: Sequence[Hashable]) -> tuple[Codes, list[Hashable]]:
    """Each row's cluster number and the cluster ids, sorted by ``str(id)``, for
    :func:`sums_by_cluster` (:func:`cluster_sums` in two steps, the first shared by every
    system scored on the same items)."""
    return _codes(clusters, len(clusters))


def sums_by_cluster(stats: npt.ArrayLike, codes: Codes, count: int) -> Array:
    """The (count, k) sums of the rows of each cluster, the clusters numbered by
    :func:`cluster_codes` (as :func:`cluster_sums`)."""
    matrix = _matrix(stats, "stats")
    if len(codes) != len(matrix):
        raise ValueError(f"{len(codes)} cluster numbers for {len(matrix)} rows (one per row)")
    return _sums(matrix, codes, count)


def cluster_sums(
    stats: npt.ArrayLike, clusters: Sequence[Hashable]
) -> tuple[Array, list[Hashable]]:
    """The (C, k) sums of the rows of each cluster and the C cluster ids, sorted by
    ``str(id)`` (ids are told apart as dict keys). The result does not depend on the order
    of the rows. Raises ValueError unless there is one id per row, at least 2 clusters,
    and distinct ids print differently."""
    matrix = _matrix(stats, "stats")
    codes, ids = _codes(clusters, len(matrix))
    return _sums(matrix, codes, len(ids)), ids


def _check(
    resamples: int, seed: int, confidence: float | None = None, name: str = "resamples"
) -> None:
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"{name} = {resamples!r}; it must be an integer >= 1")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed = {seed!r}; it must be an integer >= 0")
    if confidence is not None and not 0 < confidence < 1:
        raise ValueError(f"confidence = {confidence!r}; it must be in 0 < confidence < 1")


def _paired(
    stats_a: npt.ArrayLike, stats_b: npt.ArrayLike, clusters: Sequence[Hashable]
) -> tuple[Array, Array]:
    a, b = _matrix(stats_a, "stats_a"), _matrix(stats_b, "stats_b")
    if a.shape != b.shape:
        raise ValueError(
            f"stats_a has shape {a.shape} and stats_b {b.shape}; the systems "
            "must have a row for the same items with the same k"
        )
    codes, ids = _codes(clusters, len(a))
    sums = _sums(np.hstack([a, b]), codes, len(ids))
    return sums[:, : a.shape[1]], sums[:, a.shape[1] :]


def _score(corpus: Corpus, sums: Array) -> Array:
    scores = np.asarray(corpus(sums), dtype=np.float64)
    if scores.shape != (len(sums),):
        raise ValueError(
            f"corpus returned shape {scores.shape} for {len(sums)} rows of "
            f"sums; it must return one score per row, shape ({len(sums)},)"
        )
    if np.isinf(scores).any():
        bad = sums[np.isinf(scores)][0].tolist()
        raise ValueError(
            f"corpus returned infinity for column sums {bad}; it must return a finite "
            "score for every row (NaN where the measure is undefined)"
        )
    return scores


@lru_cache(maxsize=2)
def _resample_counts(
    clusters: int, resamples: int, seed: int
) -> npt.NDArray[np.unsignedinteger[Any]]:
    """(resamples, clusters) counts: row r says how often each cluster was drawn in the
    r-th resample of ``clusters`` draws with replacement. Read-only and cached."""
    rng = np.random.default_rng(seed)
    counts = np.empty((resamples, clusters), dtype=np.uint16 if clusters < 1 << 16 else np.uint32)
    step = max(1, CHUNK // clusters)
    for start in range(0, resamples, step):
        rows = min(step, resamples - start)
        draws = rng.integers(0, clusters, size=(rows, clusters))
        draws += np.arange(rows)[:, None] * clusters
        counts[start : start + rows] = np.bincount(
            draws.ravel(), minlength=rows * clusters
        ).reshape(rows, clusters)
    counts.setflags(write=False)
    return counts


def _split(right: Array, bound: int) -> list[tuple[Array, Codes]]:
    """The columns of ``right`` as exact sums of slices (the error-free split of Ozaki,
    Ogita, Oishi & Rump 2012, "Error-free transformations of matrix multiplication by using
    fast routines of matrix multiplication and its applications", Numer. Algorithms
    59(1)): in each round, every column not yet used up gives one slice of whole multiples
    of a unit 2^e below 2^w units, w = 53 - bit_length(bound), and leaves the rest to the
    next round. A matrix of whole numbers >= 0 whose rows add up to at most ``bound``
    times a slice is then exact in float64 (every product and partial sum is a whole
    number of units below 2^53), so its bits do not depend on the order in which BLAS
    adds (its threads, blocking and kernels). Returns each round's slices (C, s) and the
    columns they come from; a column's slices, largest first, add up to it exactly."""
    width = BITS - max(1, bound).bit_length()
    rounds = []
    rest, owners = right, np.arange(right.shape[1])
    while len(owners):
        top = np.abs(rest).max(axis=0)
        unit = np.maximum(np.frexp(top)[1] - width, SMALLEST)  # |rest| < 2^width units
        piece = np.ldexp(np.trunc(np.ldexp(rest, -unit)), unit)
        rounds.append((piece, owners))
        rest = rest - piece  # exact: the bits of rest below the unit
        left = (rest != 0).any(axis=0)
        rest, owners = rest[:, left], owners[left]
    return rounds


def _exact_product(chunks: Iterable[Array], right: Array, bound: int) -> Array:
    """left @ right, the left matrix given as chunks of rows of whole numbers >= 0, each
    row adding up to at most ``bound``: each slice of :func:`_split` is multiplied
    exactly, and a column's products are added smallest first. The result depends only on
    the two matrices (not on the chunks, the other columns, the machine or BLAS)."""
    rounds = _split(right, bound)
    slices = np.hstack([piece for piece, _ in rounds])
    products = np.vstack([chunk @ slices for chunk in chunks])
    out = np.zeros((len(products), right.shape[1]))
    ends = np.cumsum([len(owners) for _, owners in rounds])
    for (_, owners), end in zip(rounds[::-1], ends[::-1], strict=True):
        out[:, owners] += products[:, end - len(owners) : end]
    return out


def _resampled(sums: Array, resamples: int, seed: int) -> Array:
    """The (resamples, k) column sums of the resampled corpora: the resample counts times
    ``sums``, exactly (:func:`_exact_product`)."""
    counts = _resample_counts(len(sums), resamples, seed)
    step = max(1, CHUNK // len(sums))
    chunks = (
        counts[start : start + step].astype(np.float64) for start in range(0, resamples, step)
    )
    return _exact_product(chunks, sums, len(sums))


def _swaps(clusters: int, trials: int, seed: int) -> Iterator[Array]:
    """Chunks of the (trials, clusters) 0/1 swap matrix, each entry 1 with probability
    1/2 (from uniform random bytes)."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 256, size=(trials, -(-clusters // 8)), dtype=np.uint8)
    step = max(1, CHUNK // clusters)
    for start in range(0, trials, step):
        chunk = np.unpackbits(bits[start : start + step], axis=1, count=clusters)
        yield chunk.astype(np.float64)


def _swapped(sums: Array, trials: int, seed: int) -> Array:
    """The (trials, k) column sums over the clusters each trial swaps, exactly."""
    return _exact_product(_swaps(len(sums), trials, seed), sums, len(sums))


def _percentiles(values: Array, confidence: float) -> tuple[float | None, float | None, int]:
    """The percentile interval of the defined ``values`` (NaN ones left out) and how many
    were undefined; no interval (None, None) when more than half were."""
    undefined = np.isnan(values)
    count = int(undefined.sum())
    if 2 * count > len(values):
        return None, None, count
    defined = values[~undefined] if count else values
    low, high = np.quantile(defined, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(low), float(high), count


@dataclass(frozen=True)
class Drawn:
    """One system under the shared draws (:func:`draw`): ``sums`` (C, K), its
    :func:`cluster_sums`; ``resampled`` (B, K), the column sums of each bootstrap resample
    of the clusters; ``swapped`` (N, K), its sums over the clusters each randomisation
    trial swaps (None when not drawn); ``total`` (K,), the corpus' column sums, from
    which its figures are computed (by default the sums of ``sums``)."""

    sums: Array
    resampled: Array | None
    swapped: Array | None
    resamples: int
    trials: int
    seed: int
    total: Array

    def columns(self, picked: Sequence[int]) -> Drawn:
        """The same draws on the columns at ``picked`` only."""
        index = list(picked)
        return Drawn(
            self.sums[:, index],
            None if self.resampled is None else self.resampled[:, index],
            None if self.swapped is None else self.swapped[:, index],
            self.resamples,
            self.trials,
            self.seed,
            self.total[index],
        )


def _draw(
    matrices: Sequence[Array],
    resamples: int,
    trials: int,
    seed: int,
    totals: Sequence[Array] | None = None,
) -> list[Drawn]:
    """:func:`draw` (0 resamples or trials: not drawn)."""
    clusters = {len(matrix) for matrix in matrices}
    if len(clusters) != 1:
        raise ValueError(
            f"sums of {sorted(clusters)} clusters; every system needs the sums of the same clusters"
        )
    distinct: dict[bytes, int] = {}  # a column shared by systems is drawn once
    columns: list[Array] = []
    places = []
    for matrix in matrices:
        found = []
        for column in matrix.T:
            place = distinct.setdefault(column.tobytes(), len(columns))
            if place == len(columns):
                columns.append(column)
            found.append(place)
        places.append(found)
    side = np.column_stack(columns)
    # One BLAS thread per product (the bits do not depend on it: a second thread spins
    # against other work for the cores); the two products run side by side when both are
    # drawn (numpy lets go of the GIL while it multiplies).
    with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(2) as side_by_side:
        swaps = side_by_side.submit(_swapped, side, trials, seed) if trials else None
        resampled = _resampled(side, resamples, seed) if resamples else None
        swapped = swaps.result() if swaps is not None else None
    if totals is None:
        totals = [matrix.sum(axis=0) for matrix in matrices]
    return [
        Drawn(
            matrix,
            None if resampled is None else resampled[:, found],
            None if swapped is None else swapped[:, found],
            resamples,
            trials,
            seed,
            total,
        )
        for matrix, found, total in zip(matrices, places, totals, strict=True)
    ]


def draw(
    sums: Sequence[npt.ArrayLike],
    *,
    resamples: int = 1000,
    trials: int = 1000,
    seed: int = 12345,
    totals: Sequence[npt.ArrayLike] | None = None,
) -> list[Drawn]:
    """Each system's :class:`Drawn` from its :func:`cluster_sums` (C, K_i), every system
    over the same C clusters: one set of ``resamples`` resamples and one of ``trials``
    swaps (none when ``trials`` is 0), seeded with ``seed``, serve them all. The columns
    of all the systems (each distinct column once) are multiplied together, exactly
    (:func:`_exact_product`), so a system's draws do not depend on the others drawn with
    it.

    ``totals``, each system's (K_i,) column sums over its items, are the sums its figures
    (estimates, deltas, the observed difference of the randomisation) are computed from,
    when the caller reports figures summed its own way (the leaderboard's table sums each
    column in the order of the items); by default the sums of each system's ``sums``."""
    _check(resamples, seed)
    if trials != 0:  # 0: no swaps drawn (no pair to test)
        _check(trials, seed, name="trials")
    matrices = [_matrix(found, f"sums[{number}]") for number, found in enumerate(sums)]
    if totals is None:
        return _draw(matrices, resamples, trials, seed)
    given = [np.asarray(total, dtype=np.float64) for total in totals]
    if len(given) != len(matrices):
        raise ValueError(f"{len(given)} totals for {len(matrices)} systems (one per system)")
    for number, (total, matrix) in enumerate(zip(given, matrices, strict=True)):
        if total.shape != matrix.shape[1:]:
            raise ValueError(
                f"totals[{number}] has shape {total.shape}; it must be ({matrix.shape[1]},), "
                "one sum per column of its sums"
            )
    return _draw(matrices, resamples, trials, seed, given)


def intervals_of(
    drawn: Drawn, corpora: Mapping[str, Corpus], confidence: float = 0.95
) -> dict[str, Interval]:
    """Each measure's corpus score and percentile interval over the drawn resamples."""
    _check(drawn.resamples, drawn.seed, confidence)
    assert drawn.resampled is not None
    total = drawn.total[None, :]
    result = {}
    for name, corpus in corpora.items():
        estimate = float(_score(corpus, total)[0])
        scores = _score(corpus, drawn.resampled)
        low, high, undefined = _percentiles(scores, confidence)
        result[name] = Interval(
            estimate, low, high, confidence, drawn.resamples, drawn.seed, undefined
        )
    return result


def bootstrap_interval(
    stats: npt.ArrayLike,
    clusters: Sequence[Hashable],
    corpus: Corpus,
    *,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> Interval:
    """The corpus score of one system and its percentile interval over ``resamples``
    cluster bootstrap resamples."""
    _check(resamples, seed, confidence)
    sums = cluster_sums(stats, clusters)[0]
    return intervals_of(_draw([sums], resamples, 0, seed)[0], {"": corpus}, confidence)[""]


def bootstrap_intervals(
    sums: Array,
    corpora: Mapping[str, Corpus],
    *,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> dict[str, Interval]:
    """:func:`bootstrap_interval` for many measures of one system at once, from its
    :func:`cluster_sums` (C, K) over all the columns the measures read: each corpus maps
    (B, K) sums to B scores. One set of resampled corpora serves every measure."""
    _check(resamples, seed, confidence)
    drawn = _draw([_matrix(sums, "sums")], resamples, 0, seed)[0]
    return intervals_of(drawn, corpora, confidence)


def resample_counts(
    clusters: int, resamples: int = 1000, seed: int = 12345
) -> npt.NDArray[np.unsignedinteger[Any]]:
    """(resamples, clusters): how often each cluster (numbered as :func:`cluster_codes`
    numbers them) is drawn in each bootstrap resample with ``seed``; the draws of every
    interval of this module over as many clusters with that seed. Read-only."""
    _check(resamples, seed)
    if isinstance(clusters, bool) or not isinstance(clusters, int) or clusters < 2:
        raise ValueError(f"{clusters!r} clusters; resampling needs at least 2 clusters")
    return _resample_counts(clusters, resamples, seed)


Statistic = Callable[[npt.NDArray[np.int64]], float]
"""A figure of a corpus given as weights over its clusters: ``statistic(weights)`` is the
figure of the corpus in which cluster c (numbered as :func:`cluster_codes` numbers them)
occurs ``weights[c]`` times."""


def weighted_interval(
    clusters: int,
    statistic: Statistic,
    *,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> Interval:
    """The percentile interval of a figure that is no function of column sums (Krippendorff's
    alpha: its expected disagreement pairs the values of different items), over the same
    resampled corpora as :func:`bootstrap_intervals` draws over as many clusters with this
    seed: ``statistic`` (:data:`Statistic`) is called with each resample's counts, and with
    all ones for the estimate. A ValueError of the statistic (a figure undefined on some
    resample) is not caught."""
    _check(resamples, seed, confidence)
    counts = resample_counts(clusters, resamples, seed)
    estimate = statistic(np.ones(clusters, dtype=np.int64))
    scores = np.array([statistic(row.astype(np.int64)) for row in counts], dtype=np.float64)
    if not np.isfinite(scores).all():
        raise ValueError("the statistic gave NaN or infinity on a resample; it must be finite")
    low, high, _ = _percentiles(scores, confidence)
    return Interval(estimate, low, high, confidence, resamples, seed)


def _paired_bootstrap(
    a: Drawn, b: Drawn, corpora: Mapping[str, Corpus], confidence: float
) -> dict[str, tuple[Interval, float | None]]:
    """Each measure's interval of delta and p-value over the resamples in which both
    systems' figures are defined (the others counted in the interval's ``undefined``);
    no interval and no p when more than half are undefined or delta itself is."""
    assert a.resampled is not None and b.resampled is not None
    totals = np.stack([a.total, b.total])
    result: dict[str, tuple[Interval, float | None]] = {}
    for name, corpus in corpora.items():
        delta = float(np.diff(_score(corpus, totals))[0])
        # exact sums: where the drawn clusters of A and B agree, delta* = 0 exactly
        deltas = _score(corpus, b.resampled) - _score(corpus, a.resampled)
        low, high, undefined = _percentiles(deltas, confidence)
        p: float | None = None
        if low is not None and not np.isnan(delta):
            defined = deltas[~np.isnan(deltas)] if undefined else deltas
            tail = min(int((defined <= 0).sum()), int((defined >= 0).sum()))
            p = min(1.0, 2 * (1 + tail) / (len(defined) + 1))
        else:
            low = high = None
        interval = Interval(delta, low, high, confidence, a.resamples, a.seed, undefined)
        result[name] = interval, p
    return result


def paired_bootstrap(
    stats_a: npt.ArrayLike,
    stats_b: npt.ArrayLike,
    clusters: Sequence[Hashable],
    corpus: Corpus,
    *,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> tuple[Interval, float | None]:
    """Koehn's (2004) paired bootstrap over clusters: the interval of delta = b - a and
    the two-sided p-value defined in the module docstring. Row i of both systems is the
    same item."""
    _check(resamples, seed, confidence)
    a, b = _draw(_paired(stats_a, stats_b, clusters), resamples, 0, seed)
    return _paired_bootstrap(a, b, {"": corpus}, confidence)[""]


def _randomisation(
    a: Drawn, b: Drawn, corpora: Mapping[str, Corpus]
) -> dict[str, tuple[float | None, int]]:
    """Each measure's p-value over the trials in which both systems' figures are defined,
    and how many trials were not; no p when the observed difference is undefined or more
    than half the trials are."""
    assert a.swapped is not None and b.swapped is not None
    total_a, total_b = a.total, b.total
    moved = b.swapped - a.swapped  # what B gives A (and A gives B) in each trial
    result: dict[str, tuple[float | None, int]] = {}
    for name, corpus in corpora.items():
        observed = abs(float(np.diff(_score(corpus, np.stack([total_a, total_b])))[0]))
        deltas = _score(corpus, total_b - moved) - _score(corpus, total_a + moved)
        undefined = int(np.isnan(deltas).sum())
        if np.isnan(observed) or 2 * undefined > len(deltas):
            result[name] = None, undefined
            continue
        defined = deltas[~np.isnan(deltas)] if undefined else deltas
        reached = int((np.abs(defined) >= observed - TIE * max(1.0, observed)).sum())
        result[name] = (reached + 1) / (len(defined) + 1), undefined
    return result


def approximate_randomisation(
    stats_a: npt.ArrayLike,
    stats_b: npt.ArrayLike,
    clusters: Sequence[Hashable],
    corpus: Corpus,
    *,
    trials: int = 10000,
    seed: int = 12345,
) -> float | None:
    """The two-sided p-value of approximate randomisation with clusters swapped whole,
    (r + 1) / (N + 1) (Noreen 1989; see the module docstring); None where it is
    undefined (see Undefined figures there)."""
    _check(trials, seed, name="trials")
    a, b = _draw(_paired(stats_a, stats_b, clusters), 0, trials, seed)
    return _randomisation(a, b, {"": corpus})[""][0]


def compare_drawn(
    a: Drawn, b: Drawn, corpora: Mapping[str, Corpus], confidence: float = 0.95
) -> dict[str, Comparison]:
    """Both tests of B against A on every measure of ``corpora``, from the two systems'
    :class:`Drawn` (the same draws, over the same columns)."""
    _check(a.resamples, a.seed, confidence)
    _check(a.trials, a.seed, name="trials")
    if (a.resamples, a.trials, a.seed) != (b.resamples, b.trials, b.seed):
        raise ValueError(
            f"A was drawn with {a.resamples} resamples, {a.trials} trials and seed "
            f"{a.seed}, B with {b.resamples}, {b.trials} and {b.seed}; a paired test "
            "needs the same draws"
        )
    if a.sums.shape != b.sums.shape:
        raise ValueError(
            f"A's sums have shape {a.sums.shape} and B's {b.sums.shape}; both systems "
            "need the sums of the same clusters and columns"
        )
    bootstrap = _paired_bootstrap(a, b, corpora, confidence)
    randomisation = _randomisation(a, b, corpora)
    totals = np.stack([a.total, b.total])
    result = {}
    for name, corpus in corpora.items():
        scores = _score(corpus, totals)
        interval, p_bootstrap = bootstrap[name]
        p_randomisation, undefined_trials = randomisation[name]
        result[name] = Comparison(
            name or None,
            float(scores[0]),
            float(scores[1]),
            interval.estimate,
            interval,
            p_bootstrap,
            p_randomisation,
            a.resamples,
            a.trials,
            a.seed,
            undefined_trials,
        )
    return result


def compare(
    stats_a: npt.ArrayLike,
    stats_b: npt.ArrayLike,
    clusters: Sequence[Hashable],
    corpus: Corpus,
    *,
    measure: str | None = None,
    resamples: int = 1000,
    trials: int = 10000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> Comparison:
    """Both tests of B against A on one measure, from the same generator seeded with
    ``seed`` (:func:`paired_bootstrap` and :func:`approximate_randomisation`)."""
    _check(resamples, seed, confidence)
    _check(trials, seed, name="trials")
    a, b = _draw(_paired(stats_a, stats_b, clusters), resamples, trials, seed)
    found = compare_drawn(a, b, {"": corpus}, confidence)[""]
    return replace(found, measure=measure)


def compare_many(
    sums_a: Array,
    sums_b: Array,
    corpora: Mapping[str, Corpus],
    *,
    resamples: int = 1000,
    trials: int = 10000,
    seed: int = 12345,
    confidence: float = 0.95,
) -> dict[str, Comparison]:
    """:func:`compare` for many measures at once, from both systems' :func:`cluster_sums`
    over the same clusters (C, K): one set of resamples and one set of swaps serve every
    measure, so the cost is that of one measure."""
    _check(resamples, seed, confidence)
    _check(trials, seed, name="trials")
    a, b = _matrix(sums_a, "sums_a"), _matrix(sums_b, "sums_b")
    if a.shape != b.shape:
        raise ValueError(
            f"sums_a has shape {a.shape} and sums_b {b.shape}; both systems "
            "need the sums of the same clusters and columns"
        )
    first, second = _draw([a, b], resamples, trials, seed)
    return compare_drawn(first, second, corpora, confidence)
