"""``lexsub benchmark lcp PREDICTIONS --data GOLD``: lexical complexity
prediction as MLSP-2024 (Shardlow et al. 2024) scores it, with the script of the LCP-2021
shared task (Shardlow et al. 2021), ``lcp_evaluate.py``: Pearson's and Spearman's
correlation (as SciPy's ``pearsonr`` and ``spearmanr``), mean absolute error, mean
squared error and R² (as scikit-learn's ``mean_absolute_error``, ``mean_squared_error``
and ``r2_score``) between the gold complexities and the predictions.

The files are MLSP's ``*_lcp.tsv`` (``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>VALUE``)
or two columns ``ID<TAB>VALUE`` (:mod:`scoring.formats.lcp`; the script itself
reads ``ID,VALUE``). As the script: the items are the gold's ids in the gold's order, an
id given twice keeps its last value, predictions for ids outside the gold are ignored
(a note counts them) and a gold id without a prediction stops it (lexsub refuses, naming
the ids). Where a correlation is undefined (a constant gold or constant predictions; the
script prints ``nan``) lexsub gives no figure (``nan`` in text, ``null`` in JSON) and a
note; R² with a constant gold is scikit-learn's 1.0 (perfect) or 0.0. At the edges the
figures are the script's: two items give a Pearson r of exactly 1.0 or -1.0 (SciPy's),
and one item, where the script stops with SciPy's ValueError, gives no figure and a note
saying so.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.benchmark import Report
from scoring.errors import FormatError
from scoring.formats.lcp import LcpLine, read_lcp
from scoring.signature import signature

DESCRIPTION = (
    "MLSP-2024 lexical complexity: Pearson, Spearman, MAE, MSE and R2 as lcp_evaluate.py "
    "computes them"
)

METRICS = ("pearson", "spearman", "mae", "mse", "r2")
"""The figures in the order (and under the names) ``lcp_evaluate.py`` writes them."""


@dataclass(frozen=True)
class LcpScores:
    metrics: dict[str, float]
    notes: tuple[str, ...]


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r in SciPy's ``pearsonr`` arithmetic (the centred vectors' norms taken
    after scaling by their largest magnitude, their unit vectors' dot product, clipped to
    [-1, 1]); with two items exactly 1.0 or -1.0, as SciPy gives them; NaN when either
    vector is constant or has fewer than two items (SciPy raises a ValueError there)."""
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if len(xs) < 2 or (xs == xs[0]).all() or (ys == ys[0]).all():
        return math.nan
    if len(xs) == 2:  # SciPy: the signs of the two differences, exactly
        return float(np.sign(xs[1] - xs[0]) * np.sign(ys[1] - ys[0]))
    xm = xs - xs.mean()
    ym = ys - ys.mean()
    x_max, y_max = np.abs(xm).max(), np.abs(ym).max()
    x_norm = x_max * np.linalg.norm(xm / x_max, axis=-1)  # a reduction, as SciPy
    y_norm = y_max * np.linalg.norm(ym / y_max, axis=-1)
    r = float(np.vecdot(xm / x_norm, ym / y_norm))
    return max(-1.0, min(1.0, r))


def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1, ties given the mean of the ranks they span (SciPy's ``rankdata``).

    >>> average_ranks([0.5, 0.1, 0.5, 0.9])
    [2.5, 1.0, 2.5, 4.0]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start : end + 1]:
            ranks[i] = (start + end + 2) / 2
        start = end + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho in SciPy's ``spearmanr`` arithmetic: NumPy's ``corrcoef`` of the
    average ranks (laid out as SciPy lays them out); NaN when either vector is constant."""
    if len(set(x)) == 1 or len(set(y)) == 1:
        return math.nan
    ranked = np.vstack((average_ranks(x), average_ranks(y))).T
    return float(np.corrcoef(ranked, rowvar=False)[1, 0])


def r2(gold: Sequence[float], predicted: Sequence[float]) -> float:
    """1 - SS_res / SS_tot (scikit-learn's ``r2_score``; a constant gold gives 1.0 when
    the predictions equal it, else 0.0; one item gives NaN, as scikit-learn's with its
    warning that R² is not well-defined with fewer than two samples)."""
    if len(gold) < 2:
        return math.nan
    g = np.asarray(gold, dtype=np.float64)
    p = np.asarray(predicted, dtype=np.float64)
    residual = float(((g - p) ** 2).sum())
    total = float(((g - g.mean()) ** 2).sum())
    if total == 0:
        return 1.0 if residual == 0 else 0.0
    return 1 - residual / total


def score(
    gold_lines: Sequence[LcpLine],
    prediction_lines: Sequence[LcpLine],
    prediction_name: str = "<predictions>",
) -> LcpScores:
    """Every figure of ``lcp_evaluate.py``; :class:`scoring.errors.FormatError` when the gold is
    empty or a gold id has no prediction."""
    gold: dict[str, float] = {}
    for line in gold_lines:
        gold[line.id] = line.value
    predicted: Mapping[str, float] = {line.id: line.value for line in prediction_lines}
    missing = [ident for ident in gold if ident not in predicted]
    if not gold:
        raise FormatError(["the gold has no line (nothing to correlate)"])
    if missing:
        shown = ", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")
        raise FormatError(
            [f"{prediction_name}: no prediction for {len(missing)} gold ids: {shown}"]
        )
    g = [gold[ident] for ident in gold]
    p = [predicted[ident] for ident in gold]
    notes: list[str] = []
    extra = len(set(predicted) - set(gold))
    if extra:
        notes.append(f"{extra} predicted ids are not in the gold: ignored (as the script)")
    arrays = np.asarray(g, dtype=np.float64), np.asarray(p, dtype=np.float64)
    difference = arrays[0] - arrays[1]
    metrics = {
        "pearson": pearson(g, p),
        "spearman": spearman(g, p),
        "mae": float(np.mean(np.abs(difference))),
        "mse": float(np.mean(difference**2)),
        "r2": r2(g, p),
    }
    if len(g) == 1:
        notes.append(
            "one item: Pearson, Spearman and R2 are undefined (SciPy's pearsonr stops with a "
            "ValueError, so the script stops there; scikit-learn's R2 is nan)"
        )
    elif math.isnan(metrics["pearson"]):
        which = "gold" if len(set(g)) == 1 else "predictions"
        notes.append(
            f"the {which} are constant: Pearson and Spearman are undefined (the script prints nan)"
        )
    return LcpScores(metrics, tuple(notes))


def text_of(metrics: Mapping[str, float]) -> str:
    """The figures as ``lcp_evaluate.py`` writes them: ``NAME:VALUE``, full precision."""
    return "\n".join(f"{name}:{metrics[name]}" for name in METRICS) + "\n"


def configure(parser: argparse.ArgumentParser) -> None:
    """No option beyond the common ones."""


def evaluate_files(system: str | Path, data: str | Path) -> Report:
    """``lexsub benchmark lcp SYSTEM --data GOLD``: the complexity predictions at
    ``system`` against the LCP gold at ``data``, as ``lcp_evaluate.py`` scores them."""
    scores = score(read_lcp(data), read_lcp(system), str(system))
    return Report(
        "lcp",
        scores.metrics,
        signature("lcp", ("items", "gold-ids"), ("ranks", "average")),
        scores.notes,
        text=text_of(scores.metrics),
    )


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files`."""
    return evaluate_files(args.system, args.data)
