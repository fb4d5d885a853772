"""Models ranked against judgements: a model scores every
candidate of a round; the candidates whose binary verdict is positive are the relevant
ones (:mod:`scoring.judgements.verdicts`).

* The recall-precision curve (Glickman et al. 2006, section 5.1) has one point per distinct score,
  highest first: recall and precision of the candidates scoring at least that much.
  Tied scores are one threshold (one point), so the curve does not depend on the order
  of rows. **Average precision** is the area under this uninterpolated curve,
  AP = Σ_k (R_k - R_{k-1}) P_k over the thresholds k (R_0 = 0), "equivalent to the area
  under an uninterpolated recall-precision curve" (Glickman et al. 2006, after Voorhees & Harman
  1999), as scikit-learn's ``average_precision_score`` computes it: the ranking measures'
  :func:`scoring.measures.ranking.items.average_precision`, which treats ties so too. Without ties
  it
  equals (1/R) Σ_{i relevant} P@i.
* The ROC curve (Cohn 2003, section 3) plots the true positive rate against the false
  positive rate at the same thresholds, from (0, 0); its area is
  :func:`scoring.measures.ranking.items.roc_auc` (Mann-Whitney, a tie counting one half), the
  probability that a random relevant candidate scores above a random other one.
* Recall per sub-category at an overall recall level (Glickman et al. 2006, Table 6): the smallest
  threshold set (best first, ties together) whose overall recall reaches the level, then,
  for each positive label, the share of the candidates with that verdict it holds.
* The permutation test against random ranking: the relevance of the rows is shuffled
  over the scores ``permutations`` times (seeded; ties stay ties) and
  p = (1 + #{AP_random ≥ AP}) / (1 + permutations); ``ap_05`` and ``ap_01`` are the AP a
  model needs for p < 0.05 and p < 0.01 (the 95th and 99th percentiles of AP_random,
  the figures Glickman et al. (2006) quote: 0.65 and 0.66 on its data).

Scores file: JSON Lines, one object per candidate with ``item``, ``candidate``,
``score`` (a finite number) and optionally ``model`` (default: the file's name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from scoring.errors import Problems
from scoring.files import finite_number, json_lines, shown_value
from scoring.files.bounded import read_text
from scoring.formats.ranked import Scored
from scoring.formats.text import split_lines
from scoring.judgements.labels import POSITIVE, LabelSet
from scoring.judgements.verdicts import Verdict
from scoring.measures.ranking.items import average_precision as ranking_ap
from scoring.measures.ranking.items import roc_auc

Key = tuple[str, str]
"""(item, candidate)."""
PERMUTATIONS = 1000
SEED = 12345
RECALL_LEVEL = 0.25


def parse_scores(lines: Iterable[str], name: str) -> dict[str, dict[Key, float]]:
    """model → (item, candidate) → score; every problem as ``FILE:LINE: problem``."""
    problems = Problems()  # the first 20 kept, the rest counted
    models: dict[str, dict[Key, float]] = {}
    default = Path(name).name
    for number, obj in json_lines(lines, name, problems.add):
        where = f"{name}:{number}"
        if not isinstance(obj, dict) or not {"item", "candidate", "score"} <= set(obj):
            problems.add(f"{where}: not an object with item, candidate and score")
            continue
        extra = sorted(set(obj) - {"item", "candidate", "score", "model"})
        if extra:
            problems.add(f"{where}: unknown key {', '.join(extra)}")
            continue
        score, model = finite_number(obj["score"]), obj.get("model", default)
        if score is None:
            problems.add(f"{where}: score {shown_value(obj['score'])} is not a finite number")
            continue
        if not all(isinstance(obj[k], str) and obj[k] for k in ("item", "candidate")) or not (
            isinstance(model, str) and model
        ):
            problems.add(f"{where}: item, candidate and model are non-empty strings")
            continue
        scores = models.setdefault(model, {})
        key = (obj["item"], obj["candidate"])
        if key in scores:
            problems.add(f"{where}: model {model!r} scores {key} twice")
            continue
        scores[key] = score
    if not models and not problems:
        problems.add(f"{name}: no scores (one JSON object per candidate expected)")
    if problems:
        raise problems.error()
    return models


def read_scores(path: str | Path) -> dict[str, dict[Key, float]]:
    return parse_scores(split_lines(read_text(path)), str(path))


@dataclass(frozen=True, slots=True)
class Curves:
    """Both curves at the thresholds (distinct scores, highest first)."""

    thresholds: tuple[float, ...]
    recall_precision: tuple[tuple[float, float], ...]
    """(recall, precision) at each threshold."""
    roc: tuple[tuple[float, float], ...]
    """(false positive rate, true positive rate), from (0, 0); empty without negatives."""


def _groups(scores: Sequence[float]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The rows best first (a stable order) and the distinct scores, highest first."""
    values = np.asarray(scores, dtype=np.float64)
    order = np.argsort(-values, kind="stable")
    return order.astype(np.int64), np.unique(values)[::-1]


def _cumulative(scores: Sequence[float], relevant: Sequence[bool]) -> tuple[Any, Any, Any]:
    """Per threshold: candidates and relevant candidates scoring at least it."""
    order, distinct = _groups(scores)
    ranked = np.asarray(scores, dtype=np.float64)[order]
    hits = np.asarray(relevant, dtype=np.int64)[order]
    ends = np.searchsorted(-ranked, -distinct, side="right")  # end of each tie group
    tp = np.cumsum(hits)[ends - 1]
    return distinct, ends, tp


def curves(scores: Sequence[float], relevant: Sequence[bool]) -> Curves:
    """The recall-precision and ROC curves (module docstring)."""
    if len(scores) != len(relevant) or not scores:
        raise ValueError(f"{len(scores)} scores for {len(relevant)} rows (one each, at least one)")
    positives = sum(relevant)
    if not positives:
        raise ValueError("no relevant candidate (recall is undefined)")
    distinct, ends, tp = _cumulative(scores, relevant)
    negatives = len(scores) - positives
    rp = tuple((int(t) / positives, int(t) / int(e)) for t, e in zip(tp, ends, strict=True))
    roc: tuple[tuple[float, float], ...] = ()
    if negatives:
        roc = (
            (0.0, 0.0),
            *(
                ((int(e) - int(t)) / negatives, int(t) / positives)
                for t, e in zip(tp, ends, strict=True)
            ),
        )
    return Curves(tuple(float(d) for d in distinct), rp, roc)


def average_precision(scores: Sequence[float], relevant: Sequence[bool]) -> float:
    """The area under the uninterpolated recall-precision curve, Σ (R_k - R_{k-1}) P_k,
    tied scores one threshold: :func:`scoring.measures.ranking.items.average_precision`, exact, as a
    float. ValueError without a relevant row."""
    if len(scores) != len(relevant) or not scores:
        raise ValueError(f"{len(scores)} scores for {len(relevant)} rows (one each, at least one)")
    gold = {str(i): 1 for i, hit in enumerate(relevant) if hit}
    if not gold:
        raise ValueError("no relevant candidate (recall is undefined)")
    return float(ranking_ap(gold, [Scored(str(i), s) for i, s in enumerate(scores)]).value)


def auc(scores: Sequence[float], relevant: Sequence[bool]) -> float | None:
    """ROC AUC by :func:`scoring.measures.ranking.items.roc_auc` (None without a relevant or an
    irrelevant candidate)."""
    gold = {str(i): 1 for i, hit in enumerate(relevant) if hit}
    result = roc_auc(gold, [Scored(str(i), s) for i, s in enumerate(scores)])
    return float(result.value) if result.defined else None


def recall_by_label(
    scores: Sequence[float], labels: Sequence[str | None], positive: Sequence[str], level: float
) -> tuple[float, dict[str, float | None]]:
    """Table 6 of Glickman et al. (2006): the overall recall reached at the first threshold where it
    is at least ``level``, and for each positive label the share of its candidates found
    there (None for a label no candidate has). ``labels[i]`` is row i's verdict, None
    for a row that is not relevant."""
    if not 0 < level <= 1:
        raise ValueError(f"recall level {level:g} is not in (0, 1]")
    relevant = [label is not None for label in labels]
    _, ends, tp = _cumulative(scores, relevant)
    total = sum(relevant)
    if not total:
        raise ValueError("no relevant candidate (recall is undefined)")
    cut = int(np.searchsorted(tp / total, level - 1e-12, side="left"))
    order, _ = _groups(scores)
    found = [labels[int(i)] for i in order[: int(ends[cut])]]
    return int(tp[cut]) / total, {
        label: (found.count(label) / labels.count(label) if labels.count(label) else None)
        for label in positive
    }


def permutation_test(
    scores: Sequence[float], relevant: Sequence[bool], permutations: int, seed: int
) -> tuple[float, float, float]:
    """(p-value, AP for p < 0.05, AP for p < 0.01) of the model's AP against random
    rankings: the relevance shuffled over the rows ``permutations`` times."""
    if permutations < 1:
        raise ValueError(f"permutations = {permutations}; at least 1")
    observed = average_precision(scores, relevant)
    order, distinct = _groups(scores)
    ranked = np.asarray(scores, dtype=np.float64)[order]
    ends = np.searchsorted(-ranked, -distinct, side="right")
    hits = np.asarray(relevant, dtype=np.int64)
    positives = int(hits.sum())
    rng = np.random.default_rng(seed)
    null: list[npt.NDArray[np.float64]] = []
    for start in range(0, permutations, 100):
        size = min(100, permutations - start)
        shuffled = np.array([rng.permutation(hits) for _ in range(size)])
        tp = np.cumsum(shuffled, axis=1)[:, ends - 1]
        recall = tp / positives
        steps = np.diff(np.concatenate([np.zeros((size, 1)), recall], axis=1), axis=1)
        null.append((steps * (tp / ends)).sum(axis=1))
    values = np.concatenate(null)
    p = (1 + int((values >= observed - 1e-12).sum())) / (1 + permutations)
    return (
        p,
        float(np.quantile(values, 0.95, method="higher")),
        float(np.quantile(values, 0.99, method="higher")),
    )


@dataclass(frozen=True, slots=True)
class ModelEvaluation:
    """One model against a round's verdicts."""

    model: str
    rows: int
    relevant: int
    ap: float
    auc: float | None
    curves: Curves
    recall_level: float
    recall_reached: float
    recall_by_label: Mapping[str, float | None]
    p_value: float
    ap_05: float
    ap_01: float
    permutations: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "relevant": self.relevant,
            "ap": self.ap,
            "auc": self.auc,
            "recall_level": self.recall_level,
            "recall_reached": self.recall_reached,
            "recall_by_label": dict(self.recall_by_label),
            "p_value": self.p_value,
            "ap_05": self.ap_05,
            "ap_01": self.ap_01,
            "permutations": self.permutations,
            "seed": self.seed,
            "recall_precision": [list(p) for p in self.curves.recall_precision],
            "roc": [list(p) for p in self.curves.roc],
        }


def evaluate(
    model: str,
    scores: Mapping[Key, float],
    found: Sequence[Verdict],
    label_set: LabelSet,
    level: float = RECALL_LEVEL,
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
) -> ModelEvaluation:
    """Every figure of one model; each candidate with a binary verdict must be scored,
    and no other (ValueError naming the first ones otherwise)."""
    rows = [v for v in found if v.binary is not None]
    keys = [(v.candidate.item, v.candidate.candidate) for v in rows]
    missing = [key for key in keys if key not in scores]
    unknown = sorted(set(scores) - set(keys))
    if missing or unknown:
        shown = "; ".join(
            [f"no score for {k}" for k in missing[:3]]
            + [f"{k} is not a candidate of the round" for k in unknown[:3]]
        )
        raise ValueError(
            f"model {model!r}: {len(missing)} candidates unscored, {len(unknown)} unknown "
            f"({shown}); a model scores every judged candidate once"
        )
    values = [scores[key] for key in keys]
    relevant = [v.binary == POSITIVE for v in rows]
    labels = [v.label if v.binary == POSITIVE else None for v in rows]
    reached, by_label = recall_by_label(values, labels, label_set.positive, level)
    p, ap_05, ap_01 = permutation_test(values, relevant, permutations, seed)
    return ModelEvaluation(
        model,
        len(rows),
        sum(relevant),
        average_precision(values, relevant),
        auc(values, relevant),
        curves(values, relevant),
        level,
        reached,
        by_label,
        p,
        ap_05,
        ap_01,
        permutations,
        seed,
    )
