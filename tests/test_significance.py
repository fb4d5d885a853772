"""The cluster bootstrap and approximate randomisation of scoring.significance: exact
enumerations of tiny cases, results recomputed by hand from the drawn resamples, the
limiting cases (identical systems, a system better everywhere), permutation invariance,
determinism and every ValueError rule."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring.significance
from scoring.significance import (
    TIE,
    Comparison,
    Interval,
    _exact_product,
    _resample_counts,
    _resampled,
    _score,
    _split,
    _swapped,
    _swaps,
    approximate_randomisation,
    bootstrap_interval,
    bootstrap_intervals,
    cluster_sums,
    compare,
    compare_drawn,
    compare_many,
    draw,
    intervals_of,
    lemma_of,
    paired_bootstrap,
    ratio_of,
)

Array = np.ndarray[Any, np.dtype[np.float64]]


def ratio(sums: Array) -> Array:
    """Column 0 over column 1, NaN (undefined) for a 0 denominator (the contract of
    Corpus)."""
    found: Array = np.divide(
        sums[:, 0], sums[:, 1], out=np.full(len(sums), np.nan), where=sums[:, 1] != 0
    )
    return found


def four_sigma(p: float, n: int) -> float:
    """Four binomial standard errors of a share p estimated from n draws."""
    return 4 * math.sqrt(p * (1 - p) / n)


# Six clusters, one row each: (numerator, denominator) of a ratio whose denominator
# differs between the systems (as precision over attempted items does).
SIX_A = np.array([[3, 5], [1, 4], [2, 2], [0, 3], [4, 6], [1, 2]], dtype=float)
SIX_B = np.array([[4, 6], [2, 3], [1, 2], [2, 4], [5, 6], [0, 1]], dtype=float)
SIX = ["c1", "c2", "c3", "c4", "c5", "c6"]


def random_system(rng: np.random.Generator, clusters: int, per: int = 10) -> Array:
    """Items of a ratio measure: a credit in [0, 1] over 1 when attempted (else 0 / 0)."""
    attempted = rng.random(clusters * per) < 0.8
    return np.column_stack([rng.random(clusters * per) * attempted, attempted.astype(float)])


# --- lemma_of and cluster_sums ------------------------------------------------------------


@pytest.mark.parametrize(
    ("item_id", "lexelt"),
    [("bright.a 1", "bright.a"), ("stand.n.v 12", "stand.n.v"), ("a.r x7", "a.r")],
)
def test_lemma_of_is_the_lexelt(item_id: str, lexelt: str) -> None:
    assert lemma_of(item_id) == lexelt


@pytest.mark.parametrize("item_id", ["bright.a", "bright.a ", " 1", "bright.a 1 2", ""])
def test_lemma_of_refuses_other_ids(item_id: str) -> None:
    with pytest.raises(ValueError, match="is not 'LEXELT INSTANCE'"):
        lemma_of(item_id)


def test_cluster_sums_adds_rows_per_cluster_in_str_order() -> None:
    stats = [[1, 1], [2, 1], [4, 1], [8, 0], [16, 1]]
    sums, ids = cluster_sums(stats, [10, 9, "b", 10, 9])
    assert ids == [10, 9, "b"]  # "10" < "9" < "b"
    assert sums.tolist() == [[9, 1], [18, 2], [4, 1]]


# --- exact enumerations ---------------------------------------------------------------------


def test_randomisation_matches_the_exact_permutation_p_value() -> None:
    observed = abs(ratio(SIX_B.sum(0)[None])[0] - ratio(SIX_A.sum(0)[None])[0])
    reached = 0
    for signs in itertools.product([0.0, 1.0], repeat=len(SIX)):
        swap = np.array(signs)[:, None]
        a = (SIX_A * (1 - swap) + SIX_B * swap).sum(0)[None]
        b = (SIX_B * (1 - swap) + SIX_A * swap).sum(0)[None]
        reached += abs(ratio(b)[0] - ratio(a)[0]) >= observed - TIE
    exact = reached / 2 ** len(SIX)
    assert exact == 22 / 64  # not 0 or 1, so the comparison below has teeth
    trials = 20000
    estimate = approximate_randomisation(SIX_A, SIX_B, SIX, ratio, trials=trials, seed=1)
    # (r + 1) / (N + 1) with r ~ Binomial(N, exact): within 4 SE plus the +1 correction
    assert abs(estimate - exact) <= four_sigma(exact, trials) + 1 / (trials + 1)


def test_bootstrap_moments_match_the_exact_resampling_distribution() -> None:
    # Four clusters (one row each) of a ratio measure; the 4^4 ordered draws of 4
    # clusters are equally likely, so they give the exact bootstrap distribution.
    sums = np.array([[1, 2], [0, 1], [3, 3], [2, 4]], dtype=float)
    exact = np.array(
        [ratio(sums[list(draw)].sum(0)[None])[0] for draw in itertools.product(range(4), repeat=4)]
    )
    mean, variance = exact.mean(), exact.var()
    fourth = ((exact - mean) ** 4).mean()
    resamples = 20000
    scores = _score(ratio, _resampled(sums, resamples, seed=3))
    assert abs(scores.mean() - mean) <= 4 * math.sqrt(variance / resamples)
    assert abs(scores.var() - variance) <= 4 * math.sqrt((fourth - variance**2) / resamples)


def test_percentile_interval_matches_the_exact_quantiles() -> None:
    # The mean of four clusters worth 0, 1, 2, 3: the exact 2.5% quantile is 0.5 and the
    # 97.5% one is 2.5 (P(X < 0.5) = 5/256, P(X <= 0.5) = 15/256, symmetric above).
    stats = [[0, 1], [1, 1], [2, 1], [3, 1]]
    exact = np.array([sum(draw) / 4 for draw in itertools.product(range(4), repeat=4)])
    resamples = 20000
    for level, value in ((0.025, 0.5), (0.975, 2.5)):
        below, at_most = (exact < value).mean(), (exact <= value).mean()
        assert below + four_sigma(level, resamples) < level < at_most - four_sigma(level, resamples)
        assert float(np.quantile(exact, level, method="inverted_cdf")) == value
    interval = bootstrap_interval(stats, "abcd", ratio, resamples=resamples, seed=5)
    assert (interval.low, interval.high) == (0.5, 2.5)
    assert interval.estimate == 1.5


# --- by hand from the drawn resamples ---------------------------------------------------------


CLUSTERED = np.array([[1, 2], [0, 3], [2, 2], [5, 7], [0, 0], [3, 4], [1, 1], [4, 9]], dtype=float)
CLUSTERED_IDS = ["e", "a", "c", "b", "a", "d", "e", "c"]


def test_resampled_ratio_is_the_ratio_of_the_drawn_clusters_sums() -> None:
    sums, ids = cluster_sums(CLUSTERED, CLUSTERED_IDS)
    assert ids == ["a", "b", "c", "d", "e"]
    for resamples in (1, 7):
        counts = _resample_counts(len(ids), resamples, 11)
        assert counts.sum(axis=1).tolist() == [len(ids)] * resamples  # C draws each
        by_hand = [
            sum(w * s[0] for w, s in zip(row, sums.tolist(), strict=True))
            / sum(w * s[1] for w, s in zip(row, sums.tolist(), strict=True))
            for row in counts.tolist()
        ]
        interval = bootstrap_interval(
            CLUSTERED, CLUSTERED_IDS, ratio, resamples=resamples, seed=11, confidence=0.9
        )
        low, high = np.quantile(by_hand, [0.05, 0.95])
        assert (interval.low, interval.high) == (low, high)
    assert interval.estimate == 16 / 28  # the ratio of the sums, not a mean of ratios


def test_paired_bootstrap_p_value_and_interval_by_hand() -> None:
    rng = np.random.default_rng(0)
    a, b = random_system(rng, 30), random_system(rng, 30)
    clusters = [f"w{i // 10}.n" for i in range(300)]
    (sums_a, _), (sums_b, _) = cluster_sums(a, clusters), cluster_sums(b, clusters)
    counts = _resample_counts(30, 200, 9).astype(float)
    deltas = ratio(counts @ sums_b) - ratio(counts @ sums_a)
    tail = min((deltas <= 0).sum(), (deltas >= 0).sum())
    interval, p = paired_bootstrap(a, b, clusters, ratio, resamples=200, seed=9)
    assert p == min(1.0, 2 * (1 + tail) / 201)
    assert p is not None and 0.05 < p < 1  # a case where the tail count matters
    low, high = np.quantile(deltas, [0.025, 0.975])
    assert interval.low == pytest.approx(low, abs=1e-12)
    assert interval.high == pytest.approx(high, abs=1e-12)
    assert interval.estimate == pytest.approx(ratio(b.sum(0)[None])[0] - ratio(a.sum(0)[None])[0])


def test_randomisation_p_value_by_hand() -> None:
    trials = 300
    swaps = np.vstack(list(_swaps(len(SIX), trials, 4)))
    assert swaps.shape == (trials, len(SIX)) and set(np.unique(swaps)) <= {0.0, 1.0}
    moved = swaps @ (SIX_B - SIX_A)
    deltas = ratio(SIX_B.sum(0) - moved) - ratio(SIX_A.sum(0) + moved)
    observed = abs(ratio(SIX_B.sum(0)[None])[0] - ratio(SIX_A.sum(0)[None])[0])
    reached = (np.abs(deltas) >= observed - TIE).sum()
    p = approximate_randomisation(SIX_A, SIX_B, SIX, ratio, trials=trials, seed=4)
    assert p == (reached + 1) / (trials + 1)


def test_swaps_are_independent_fair_coins() -> None:
    # The exact-p test cannot see a cluster that is never swapped (swapping every cluster
    # leaves |delta| unchanged), so the coins are checked directly: 20 clusters (three
    # bytes, so every bit position of a byte and a partial last byte), 20000 trials.
    trials = 20000
    swaps = np.vstack(list(_swaps(20, trials, 12)))
    assert swaps.shape == (trials, 20)
    assert np.abs(swaps.mean(axis=0) - 0.5).max() <= four_sigma(0.5, trials)
    both = (swaps[:, :-1] * swaps[:, 1:]).mean(axis=0)  # neighbouring clusters together
    assert np.abs(both - 0.25).max() <= four_sigma(0.25, trials)


# --- exact products ---------------------------------------------------------------------------


def wide_sums(rng: np.random.Generator, clusters: int) -> Array:
    """Cluster sums whose columns span many binades (as sums of fractions do, and more):
    a column of whole numbers, one of fractions in [0, 10), one from 1e-9 to 1e3 with a
    negative value, one of zeros, one with a subnormal."""
    return np.column_stack(
        [
            rng.integers(0, 11, clusters).astype(float),
            rng.random(clusters) * 10,
            10.0 ** rng.uniform(-9, 3, clusters) * rng.choice([-1.0, 1.0], clusters),
            np.zeros(clusters),
            np.where(np.arange(clusters) == 3, 5e-324, rng.random(clusters)),
        ]
    )


def exact_rounded(left: np.ndarray, right: Array) -> Array:
    """left @ right in exact rationals; each entry rounded at the end."""
    rows = []
    for counts in left.tolist():
        sums = [Fraction(0)] * right.shape[1]
        for count, values in zip(counts, right.tolist(), strict=True):
            if count:
                pairs = zip(sums, values, strict=True)
                sums = [total + count * Fraction(value) for total, value in pairs]
        rows.append([float(total) for total in sums])
    return np.array(rows)


def test_the_split_is_exact_and_its_slices_fit_in_the_width() -> None:
    right = wide_sums(np.random.default_rng(1), 40)
    rounds = _split(right, 40)
    width = 53 - (40).bit_length()
    rebuilt = [Fraction(0)] * right.size
    for piece, owners in rounds:
        for column, owner in zip(piece.T, owners, strict=True):
            unit = max(int(np.frexp(np.abs(column).max())[1]) - width, -1074)
            whole = np.ldexp(column, -unit)
            assert np.array_equal(whole, np.trunc(whole)) and np.abs(whole).max() < 2**width
            for row, value in enumerate(column.tolist()):
                rebuilt[row * right.shape[1] + owner] += Fraction(value)
    assert [float(value) for value in rebuilt] == right.ravel().tolist()
    assert len(rounds) >= 3  # the wide column needs more than two slices


def test_resampled_sums_are_the_exact_sums_rounded_once_or_nearly() -> None:
    # Within one unit in the last place of the exact sum (the slices are added smallest
    # first, one rounding each), and equal to it where two slices suffice.
    rng = np.random.default_rng(2)
    right = wide_sums(rng, 50)
    counts = _resample_counts(50, 30, 3)
    found = _resampled(right, 30, 3)
    exact = exact_rounded(counts, right)
    assert np.all(np.abs(found - exact) <= np.spacing(np.abs(exact)))
    assert np.array_equal(found[:, :2], exact[:, :2])  # whole numbers; fractions < 10
    assert np.array_equal(found[:, 3], np.zeros(30))


def test_a_product_does_not_depend_on_the_chunks_or_the_order_of_additions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(3)
    right = wide_sums(rng, 300)
    whole = _resampled(right, 64, 5), _swapped(right, 64, 5)
    monkeypatch.setattr(scoring.significance, "CHUNK", 300 * 7)  # chunks of 7 rows
    assert np.array_equal(_resampled(right, 64, 5), whole[0])
    assert np.array_equal(_swapped(right, 64, 5), whole[1])
    # each slice's product is exact: any order of the terms gives the same bits
    counts = _resample_counts(300, 64, 5).astype(float)
    for piece, _owners in _split(right, 300):
        forward = counts @ piece
        backward = np.zeros_like(forward)
        for c in range(299, -1, -1):
            backward += counts[:, c : c + 1] * piece[c]
        assert np.array_equal(forward, backward)
    again = _exact_product(iter([counts[:10], counts[10:]]), right, 300)
    assert np.array_equal(again, whole[0])


def test_one_draw_for_many_systems_gives_each_its_own_draws() -> None:
    rng = np.random.default_rng(4)
    a, b, c = (random_system(rng, 30) for _ in range(3))
    clusters = [f"w{i // 10}.n" for i in range(300)]
    sums = [cluster_sums(x, clusters)[0] for x in (a, b, c)]
    together = draw(sums, resamples=200, trials=150, seed=8)
    for found, alone in zip(
        together, (draw([x], resamples=200, trials=150, seed=8)[0] for x in sums), strict=True
    ):
        assert found.resampled is not None and alone.resampled is not None
        assert found.swapped is not None and alone.swapped is not None
        assert np.array_equal(found.resampled, alone.resampled)
        assert np.array_equal(found.swapped, alone.swapped)
    corpora = {"P": ratio_of(0, 1)}
    assert intervals_of(together[1], corpora) == bootstrap_intervals(
        sums[1], corpora, resamples=200, seed=8
    )
    assert compare_drawn(together[0], together[2], corpora) == compare_many(
        sums[0], sums[2], corpora, resamples=200, trials=150, seed=8
    )
    assert compare_drawn(together[0], together[2], corpora)["P"] == replace(
        compare(a, c, clusters, ratio, resamples=200, trials=150, seed=8), measure="P"
    )


def test_draws_of_other_clusters_or_seeds_are_refused() -> None:
    rng = np.random.default_rng(5)
    first = cluster_sums(random_system(rng, 3), [i // 10 for i in range(30)])[0]
    second = cluster_sums(random_system(rng, 4), [i // 10 for i in range(40)])[0]
    with pytest.raises(ValueError, match=r"sums of \[3, 4\] clusters"):
        draw([first, second])
    (one,) = draw([first], resamples=10, trials=10, seed=1)
    (other,) = draw([first], resamples=10, trials=10, seed=2)
    with pytest.raises(ValueError, match="needs the same draws"):
        compare_drawn(one, other, {"P": ratio_of(0, 1)})


# --- limiting cases ---------------------------------------------------------------------------


def test_identical_systems_differ_by_exactly_nothing() -> None:
    a = random_system(np.random.default_rng(1), 20)
    clusters = [i // 10 for i in range(200)]
    result = compare(a, a.copy(), clusters, ratio, measure="best", resamples=500, trials=500)
    assert result.a == result.b and result.delta == 0
    assert (result.interval.low, result.interval.high) == (0, 0)
    assert result.p_bootstrap == 1.0 and result.p_randomisation == 1.0


def test_a_system_better_on_every_cluster_is_significant() -> None:
    rng = np.random.default_rng(2)
    clusters = [i // 10 for i in range(400)]  # 40 clusters
    ones = np.ones(400)
    a = np.column_stack([rng.random(400) * 0.5, ones])
    b = np.column_stack([0.5 + rng.random(400) * 0.5, ones])
    result = compare(a, b, clusters, ratio, resamples=1000, trials=2000, seed=8)
    assert result.interval.low is not None
    assert result.delta > 0 and result.interval.low > 0
    # every resampled delta is > 0: the smallest p the bootstrap reports
    assert result.p_bootstrap == 2 / 1001
    # only the identity and the full swap reach |delta| (each cluster's mean differs in
    # the same direction); a trial draws one of them with probability 2 / 2^40
    assert result.p_randomisation == 1 / 2001


# --- invariance and determinism ---------------------------------------------------------------


def test_a_permutation_of_the_items_changes_no_bit() -> None:
    rng = np.random.default_rng(3)
    a, b = random_system(rng, 25), random_system(rng, 25)
    clusters = [f"l{i % 25}.v" for i in range(250)]
    order = rng.permutation(250)
    shuffled = [clusters[i] for i in order]
    assert cluster_sums(a, clusters)[0].tobytes() == cluster_sums(a[order], shuffled)[0].tobytes()
    first = compare(a, b, clusters, ratio, resamples=300, trials=300)
    assert compare(a[order], b[order], shuffled, ratio, resamples=300, trials=300) == first


SMALL_A = random_system(np.random.default_rng(4), 6, per=3)
SMALL_B = random_system(np.random.default_rng(5), 6, per=3)
SMALL_IDS = [i % 6 for i in range(18)]


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(18)))
def test_results_do_not_depend_on_item_order(order: list[int]) -> None:
    ids = [SMALL_IDS[i] for i in order]
    assert bootstrap_interval(SMALL_A[order], ids, ratio, resamples=100) == bootstrap_interval(
        SMALL_A, SMALL_IDS, ratio, resamples=100
    )
    assert approximate_randomisation(
        SMALL_A[order], SMALL_B[order], ids, ratio, trials=100
    ) == approximate_randomisation(SMALL_A, SMALL_B, SMALL_IDS, ratio, trials=100)


def test_the_seed_fixes_the_result() -> None:
    rng = np.random.default_rng(6)
    a, b = random_system(rng, 30), random_system(rng, 30)
    clusters = [i // 10 for i in range(300)]

    def run(seed: int) -> tuple[Interval, Comparison]:
        return (
            bootstrap_interval(a, clusters, ratio, resamples=200, seed=seed),
            compare(a, b, clusters, ratio, resamples=200, trials=200, seed=seed),
        )

    assert run(7) == run(7)
    assert run(7)[0].seed == 7 and run(7)[1].seed == 7
    other, again = run(8), run(7)
    assert (other[0].low, other[0].high) != (again[0].low, again[0].high)
    assert other[1].p_randomisation != again[1].p_randomisation


def test_resample_counts_are_read_only() -> None:
    counts = _resample_counts(5, 3, 0)
    assert not counts.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        counts[0, 0] = 1


# --- the rules --------------------------------------------------------------------------------

GOOD = [[1.0, 1.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]
IDS = ["a", "a", "b", "b"]


def run_all(
    stats: Any = GOOD,
    clusters: Sequence[Hashable] = IDS,
    other: Any = GOOD,
    corpus: Callable[[Array], Array] = ratio,
    **options: Any,
) -> None:
    """Call the function the options belong to (every function for the shared rules)."""
    if "trials" in options:
        approximate_randomisation(stats, other, clusters, corpus, **options)
        return
    if other is not GOOD:
        paired_bootstrap(stats, other, clusters, corpus, **options)
        return
    bootstrap_interval(stats, clusters, corpus, **options)
    paired_bootstrap(stats, stats, clusters, corpus, **options)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"stats": [1.0, 2.0, 3.0, 4.0]}, r"shape \(4,\); it must be \(items, k\)"),
        ({"stats": np.zeros((0, 2)), "clusters": []}, r"shape \(0, 2\); it must be"),
        (
            {"stats": [[1.0, 1.0], [math.nan, 1.0], [0.0, 1.0], [1.0, 1.0]]},
            r"row 1 is \[nan, 1.0\]; statistics must be finite",
        ),
        ({"clusters": ["a", "b", "b"]}, "3 cluster ids for 4 rows"),
        ({"clusters": ["a"] * 4}, "1 distinct cluster id; resampling needs at least 2"),
        ({"clusters": [1, "1", 2, 2]}, "cluster ids '1', 1 all print as '1'"),
        ({"other": [[1.0, 1.0]] * 3}, r"stats_a has shape \(4, 2\) and stats_b \(3, 2\)"),
        ({"resamples": 0}, "resamples = 0; it must be an integer >= 1"),
        ({"resamples": True}, "resamples = True; it must be an integer >= 1"),
        ({"resamples": 10.0}, "resamples = 10.0; it must be an integer >= 1"),
        ({"trials": 0}, "trials = 0; it must be an integer >= 1"),
        ({"seed": -1}, "seed = -1; it must be an integer >= 0"),
        ({"confidence": 0}, "confidence = 0; it must be in 0 < confidence < 1"),
        ({"confidence": 1.0}, "confidence = 1.0; it must be in 0 < confidence < 1"),
        (
            {
                "stats": [[1.0, 1.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
                "corpus": lambda s: s[:, 0] / s[:, 1],
            },
            r"infinity for column sums \[[12].0, 0.0\]; .* \(NaN where the measure is undefined\)",
        ),
        ({"corpus": lambda s: s[:1, 0]}, r"returned shape \(1,\) for \d+ rows"),
        ({"corpus": lambda s: s}, r"returned shape \(\d+, 2\)"),
    ],
)
def test_every_rule_is_a_value_error(arguments: dict[str, Any], message: str) -> None:
    with np.errstate(invalid="ignore", divide="ignore"), pytest.raises(ValueError, match=message):
        run_all(**arguments)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"trials": 0}, "trials = 0"),
        ({"resamples": 0}, "resamples = 0"),
        ({"confidence": 2}, "confidence = 2"),
        ({"seed": -5}, "seed = -5"),
    ],
)
def test_compare_checks_every_option(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compare(GOOD, GOOD, IDS, ratio, **options)


def test_given_totals_are_what_the_figures_are_computed_from() -> None:
    """draw(totals=…): the estimate, delta and observed difference come from the given
    column sums (the leaderboard's table sums), the draws from the clusters' sums."""
    sums_a = np.array([[1.0, 2.0], [3.0, 4.0], [0.0, 2.0]])
    sums_b = np.array([[2.0, 2.0], [1.0, 4.0], [1.0, 2.0]])
    given_a, given_b = np.array([4.5, 8.0]), np.array([4.0, 8.0])
    a, b = draw([sums_a, sums_b], resamples=50, trials=50, seed=7, totals=[given_a, given_b])
    plain_a, _ = draw([sums_a, sums_b], resamples=50, trials=50, seed=7)
    corpora = {"r": ratio}
    assert intervals_of(a, corpora)["r"].estimate == 4.5 / 8.0
    assert intervals_of(plain_a, corpora)["r"].estimate == 4.0 / 8.0
    found = compare_drawn(a, b, corpora)["r"]
    assert (found.a, found.b, found.delta) == (4.5 / 8.0, 4.0 / 8.0, 4.0 / 8.0 - 4.5 / 8.0)
    assert a.resampled is not None and plain_a.resampled is not None
    assert np.array_equal(a.resampled, plain_a.resampled)  # the draws do not change
    assert np.array_equal(a.columns([1]).total, [8.0])


@pytest.mark.parametrize(
    ("totals", "message"),
    [
        ([[1.0, 2.0]], "1 totals for 2 systems"),
        ([[1.0, 2.0], [1.0, 2.0, 3.0]], r"totals\[1\] has shape \(3,\); it must be \(2,\)"),
    ],
)
def test_totals_must_match_the_sums(totals: list[list[float]], message: str) -> None:
    sums = np.ones((3, 2))
    with pytest.raises(ValueError, match=message):
        draw([sums, sums], resamples=5, trials=5, totals=totals)


# --- undefined figures, against a resampler written here -------------------------------------
#
# A system that answers only some lemmas has resamples in which its precision is undefined
# (nothing attempted). The resampler below is independent of scoring.significance: it makes
# the draws that module documents (one numpy.random.default_rng(seed); for the bootstrap one
# (B, C) matrix of integers in [0, C), row r the clusters of resample r, while B * C fits in
# one chunk; for randomisation one (N, ceil(C / 8)) matrix of random bytes whose first C
# bits say which clusters trial t swaps), counts them and sums the clusters with plain
# loops, and scores a precision only where something was attempted. Every statistic is a
# whole multiple of 1/64, so every sum is exact and the two routes must agree to the bit.

LEMMAS = ["a", "a", "b", "b", "c", "c", "d", "d", "e", "e", "f", "f", "g", "g", "h", "h"]
"""Eight lemmas of two items each."""
SKIPPING = np.array(
    [[32, 64], [30, 64], [48, 64], [64, 64]] + [[0, 0]] * 12, dtype=float
) / np.array([64.0, 64.0])
"""(score, attempted) of a system that answers lemmas a and b only: its precision is 31/64
(0.484) on a and 7/8 on b, so every defined resample's precision is at least 31/64."""
OTHER = np.array(
    [[0, 0]] * 4 + [[16 * (n % 4), 64] for n in range(10)] + [[0, 0]] * 2, dtype=float
) / np.array([64.0, 64.0])
"""A system that answers lemmas c to g and skips a, b and h: a randomisation trial that
swaps a and b and no other of A's and B's lemmas leaves A nothing attempted (1 in 128),
and one that swaps c to g and not a or b leaves B nothing."""
LEVELS = [(1 - 0.95) / 2, (1 + 0.95) / 2]
"""The quantiles of a 95% interval, computed as the module computes them (0.025 is not
(1 - 0.95) / 2 to the bit)."""


def hand_counts(clusters: int, resamples: int, seed: int) -> Array:
    """How often each cluster is drawn in each resample, counted one draw at a time."""
    draws = np.random.default_rng(seed).integers(0, clusters, size=(resamples, clusters))
    counts = np.zeros((resamples, clusters))
    for row, drawn in enumerate(draws.tolist()):
        for cluster in drawn:
            counts[row, cluster] += 1
    return counts


def hand_swaps(clusters: int, trials: int, seed: int) -> Array:
    """Which clusters each randomisation trial swaps (1), bit by bit from random bytes."""
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, size=(trials, -(-clusters // 8)), dtype=np.uint8)
    return np.array(
        [[(int(row[c // 8]) >> (7 - c % 8)) & 1 for c in range(clusters)] for row in data],
        dtype=float,
    )


def by_lemma(stats: Array) -> Array:
    """The (score, attempted) sums of each lemma, in sorted order, by a loop."""
    names = sorted(set(LEMMAS))
    sums = np.zeros((len(names), stats.shape[1]))
    for row, lemma in zip(stats, LEMMAS, strict=True):
        sums[names.index(lemma)] += row
    return sums


def hand_precisions(weights: Array, sums: Array) -> list[float | None]:
    """Each resample's precision, None where it attempted nothing."""
    found: list[float | None] = []
    for weight in weights:
        score = sum(w * s for w, s in zip(weight, sums[:, 0], strict=True))
        attempted = sum(w * s for w, s in zip(weight, sums[:, 1], strict=True))
        found.append(score / attempted if attempted else None)
    return found


def test_an_undefined_resample_is_left_out_of_the_interval_and_counted() -> None:
    resamples, seed = 1000, 21
    precisions = hand_precisions(hand_counts(8, resamples, seed), by_lemma(SKIPPING))
    defined = [p for p in precisions if p is not None]
    undefined = len(precisions) - len(defined)
    # P(neither a nor b among 8 draws of 8) = (6/8)^8 = 0.100: about 100 of 1000
    assert 70 <= undefined <= 130
    low, high = np.quantile(defined, LEVELS)
    interval = bootstrap_interval(SKIPPING, LEMMAS, ratio_of(0, 1), resamples=resamples, seed=seed)
    assert (interval.low, interval.high, interval.undefined) == (low, high, undefined)
    assert interval.estimate == (62 + 112) / 64 / 4  # 174/256 = 0.6797
    # never below the lower of the two lemmas' precisions: scoring the undefined resamples
    # as 0 put the low end at 0.00
    assert interval.low is not None and interval.low >= 31 / 64
    assert interval.bounds == (low, high)


def test_a_paired_test_leaves_out_resamples_where_either_side_is_undefined() -> None:
    resamples, trials, seed = 1000, 500, 22
    sums_a, sums_b = by_lemma(SKIPPING), by_lemma(OTHER)
    weights = hand_counts(8, resamples, seed)
    pairs = zip(hand_precisions(weights, sums_a), hand_precisions(weights, sums_b), strict=True)
    deltas = [b - a for a, b in pairs if a is not None and b is not None]
    undefined = resamples - len(deltas)
    assert 70 <= undefined <= 130  # A undefined in about 100, B in about 0.4
    tail = min(sum(d <= 0 for d in deltas), sum(d >= 0 for d in deltas))
    low, high = np.quantile(deltas, LEVELS)
    estimate = ratio_of(0, 1)(sums_b.sum(0)[None])[0] - ratio_of(0, 1)(sums_a.sum(0)[None])[0]
    # randomisation: trial t gives A the rows of B for the clusters it swaps, and B A's
    swapped_deltas = []
    for swap in hand_swaps(8, trials, seed):
        a_now = sum(sb if s else sa for s, sa, sb in zip(swap, sums_a, sums_b, strict=True))
        b_now = sum(sa if s else sb for s, sa, sb in zip(swap, sums_a, sums_b, strict=True))
        if a_now[1] and b_now[1]:
            swapped_deltas.append(b_now[0] / b_now[1] - a_now[0] / a_now[1])
    reached = sum(abs(d) >= abs(estimate) - TIE for d in swapped_deltas)
    result = compare(
        SKIPPING, OTHER, LEMMAS, ratio_of(0, 1), resamples=resamples, trials=trials, seed=seed
    )
    assert result.delta == estimate
    assert (result.interval.low, result.interval.high) == (low, high)
    assert result.interval.undefined == undefined
    assert result.p_bootstrap == min(1.0, 2 * (1 + tail) / (len(deltas) + 1))
    assert result.undefined_trials == trials - len(swapped_deltas) > 0
    assert result.p_randomisation == (reached + 1) / (len(swapped_deltas) + 1)


def test_a_measure_undefined_in_more_than_half_the_resamples_has_no_interval() -> None:
    nothing = np.zeros((16, 2))  # attempted nothing: score.pl's blank, lexsub's n/a
    interval = bootstrap_interval(nothing, LEMMAS, ratio_of(0, 1), resamples=200, seed=3)
    assert (interval.low, interval.high, interval.undefined) == (None, None, 200)
    assert math.isnan(interval.estimate) and interval.bounds is None
    result = compare(SKIPPING, nothing, LEMMAS, ratio_of(0, 1), resamples=200, trials=100, seed=3)
    assert (result.interval.low, result.interval.high, result.p_bootstrap) == (None, None, None)
    assert (result.interval.undefined, result.p_randomisation) == (200, None)
    # a corpus function undefined wherever lemma a is drawn fewer than twice: more than
    # half the resamples (P = 1 - (7/8)^8 - 8 (1/8)(7/8)^7 = 0.264 for two or more)
    counts = hand_counts(8, 300, 4)
    hand_undefined = int((counts[:, 0] < 2).sum())
    assert hand_undefined > 150

    def twice_a(sums: Array) -> Array:
        # column 1 is 1 on the two items of lemma a: 2 for each draw of a
        return np.where(sums[:, 1] >= 4.0, sums[:, 0], np.nan)

    marked = np.zeros((16, 2))
    marked[:2, 1] = 1.0
    marked[:, 0] = 1.0
    found = bootstrap_interval(marked, LEMMAS, twice_a, resamples=300, seed=4)
    assert (found.low, found.high, found.undefined) == (None, None, hand_undefined)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([1.0, math.nan, 3.0, math.nan], (1.0, 3.0, 2)),  # half: an interval
        ([1.0, math.nan, 3.0, math.nan, math.nan], (None, None, 3)),  # more than half: none
        ([2.0, 4.0], (2.0, 4.0, 0)),
    ],
)
def test_the_percentiles_leave_out_undefined_values(
    values: list[float], expected: tuple[float | None, float | None, int]
) -> None:
    assert scoring.significance._percentiles(np.array(values), 1 - 1e-12) == pytest.approx(expected)
