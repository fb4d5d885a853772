"""The agreement report (SPEC G6): what ``python -m scoring.agreement`` prints and the
organiser's agreement page shows, from one function (:func:`report`).

Per PoS key (``n``, ``v``, ``a``, ``r``, ``all``): Table 1 of seed 001 (PA, eq. 1; the
share of T with a mode; PA_m, eq. 2; |T|) and three alphas (:mod:`scoring.agreement.alpha`);
per annotator the agreement with the others and with the mode; the multiword agreement
(:mod:`scoring.agreement.multiword`); optionally every figure without each annotator and
percentile bootstrap intervals over lemmas for PA, PA_m and the mode share.

Intervals resample lemmas (lexelts), as the items come ten per lemma
(:mod:`scoring.significance`). Each figure is a ratio of sums over the items of T: PA is
Σ pa_i / |T| (pa_i the mean of the item's pair scores), PA_m is Σ credits / Σ non-empty
answers over T_m (equation 2 pools the answers), the mode share |T_m| / |T|; so one
resampler gives all three. JSON and CSV give fractions; text gives percentages.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from scoring import __version__, significance
from scoring.agreement import (
    AgreementRow,
    Item,
    agreement_table,
    annotator_agreement,
    first_substitute_units,
    indicator_alpha,
    item_mode,
    leave_one_out,
    masi_alpha,
    mode_credit,
    multiword_agreement,
    nominal_alpha,
    pair_scores,
)

KEYS = ("n", "v", "a", "r", "all")
INTERVAL_FIGURES = ("PA", "PAm", "mode_share")


def _defined(alpha: Callable[[Sequence[Item]], float], items: Sequence[Item]) -> float | None:
    """An alpha, or None where it is undefined (too few values, no variation)."""
    try:
        value = alpha(items)
    except (ValueError, ZeroDivisionError):
        return None
    return None if math.isnan(value) else value


def _first(items: Sequence[Item]) -> float:
    return nominal_alpha(first_substitute_units(items)[1])


def alphas(items: Sequence[Item]) -> dict[str, float | None]:
    """The three views of Krippendorff's alpha (docs/agreement.md): ``nominal_first``
    (each annotator's first substitute), ``indicator`` ("gave s" per item and s) and
    ``masi`` (MASI distance on the answer sets)."""
    return {"nominal_first": _defined(_first, items),
            "indicator": _defined(indicator_alpha, items),
            "masi": _defined(masi_alpha, items)}


def item_rows(items: Sequence[Item]) -> tuple[np.ndarray, list[str]]:
    """Per item of T: [pa_i, 1, has mode, mode credits, answers of T_m items] and the
    item's lexelt. Column sums give PA (0/1), the mode share (2/1) and PA_m (3/4)."""
    rows, lexelts = [], []
    for item in items:
        if not item.in_t:
            continue
        scores = pair_scores(item)
        mode = item_mode(item)
        credits = [mode_credit(answer, mode) for answer in item.answers] if mode else []
        rows.append((math.fsum(scores) / len(scores), 1.0, float(mode is not None),
                     math.fsum(credits), float(len(credits))))
        lexelts.append(item.lexelt)
    return np.array(rows, dtype=float).reshape(-1, 5), lexelts


CORPORA = {"PA": significance.ratio_of(0, 1), "mode_share": significance.ratio_of(2, 1),
           "PAm": significance.ratio_of(3, 4)}


def intervals(items: Sequence[Item], resamples: int = 1000, seed: int = 12345,
              confidence: float = 0.95) -> dict[str, list[float] | None]:
    """Bootstrap intervals over lemmas for PA, PA_m and the mode share; None for all
    three when the items of T come from fewer than two lemmas."""
    rows, lexelts = item_rows(items)
    if len(set(lexelts)) < 2:
        return dict.fromkeys(INTERVAL_FIGURES)
    sums = significance.cluster_sums(rows, lexelts)[0]
    found = significance.bootstrap_intervals(sums, CORPORA, resamples=resamples, seed=seed,
                                             confidence=confidence)
    return {name: [found[name].low, found[name].high] for name in INTERVAL_FIGURES}


def _row(row: AgreementRow) -> dict[str, Any]:
    return {"PA": row.PA, "PAm": row.PAm, "T": row.T, "mode_share": row.mode_share}


def report(items: Sequence[Item], leave_out: bool = False, with_intervals: bool = False,
           resamples: int = 1000, seed: int = 12345, confidence: float = 0.95
           ) -> dict[str, Any]:
    """The report as JSON-ready data: one object per PoS key (``PA``, ``PAm``, ``T``,
    ``mode_share``, ``alpha``, and ``intervals`` when asked), then ``annotators``,
    ``multiword``, and ``leave_one_out`` / ``resampling`` when asked."""
    table = agreement_table(items)
    body: dict[str, Any] = {}
    for key in KEYS:
        subset = [item for item in items if key == "all" or item.pos == key]
        body[key] = {**_row(table[key]), "alpha": alphas(subset)}
        if with_intervals:
            body[key]["intervals"] = intervals(subset, resamples, seed, confidence)
    annotator_sets = {frozenset(r.annotator for r in item.responses) for item in items}
    body["annotator_sets_differ"] = len(annotator_sets) > 1  # an overlap or crowd design
    body["annotators"] = {name: {"with_others": value.with_others,
                                 "with_mode": value.with_mode, "items": value.items}
                          for name, value in annotator_agreement(items).items()}
    multiword = multiword_agreement(items)
    body["multiword"] = {"detection": multiword.detection.per_item,
                         "identification": multiword.identification.per_item,
                         "detection_alpha": multiword.detection_alpha,
                         "identification_alpha": multiword.identification_alpha,
                         "marked": multiword.marked, "responses": multiword.responses}
    if leave_out:
        body["leave_one_out"] = {name: {key: _row(rows[key]) for key in KEYS}
                                 for name, rows in leave_one_out(items).items()}
    if with_intervals:
        body["resampling"] = {"unit": "lemma", "resamples": resamples, "seed": seed,
                              "confidence": confidence}
    body["signature"] = signature(with_intervals, resamples, seed, confidence)
    return body


def signature(with_intervals: bool = False, resamples: int = 1000, seed: int = 12345,
              confidence: float = 0.95) -> str:
    """What fixes the report's numbers, as sacrebleu prints it: PA per item (eq. 1), T as
    items with two or more non-empty answers, the first substitute alphabetically for
    nominal alpha, and the resampling when there are intervals."""
    parts = ["agreement", "pa:per_item", "t:two+nonempty", "first:alphabetical"]
    if with_intervals:
        parts += ["resample:lemma", f"n:{resamples}", f"seed:{seed}", f"ci:{confidence:g}"]
    return "|".join([*parts, f"version:{__version__}"])


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}"


def _alpha_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def as_text(body: dict[str, Any], by_pos: bool) -> str:
    """Table 1 in percentages, the alphas, per annotator, multiwords, leave-one-out."""
    lines = [f"{'PoS':<5}{'#':>6}{'PA':>8}{'% with mode':>13}{'PAm':>8}"
             f"{'alpha first':>13}{'indicator':>11}{'MASI':>8}"]
    for key in KEYS if by_pos else ("all",):
        row = body[key]
        alpha = row["alpha"]
        lines.append(f"{key:<5}{row['T']:>6}{_pct(row['PA']):>8}{_pct(row['mode_share']):>13}"
                     f"{_pct(row['PAm']):>8}{_alpha_text(alpha['nominal_first']):>13}"
                     f"{_alpha_text(alpha['indicator']):>11}{_alpha_text(alpha['masi']):>8}")
    if "resampling" in body:
        setting = body["resampling"]
        lines.append("")
        lines.append(f"{100 * setting['confidence']:g}% intervals, {setting['resamples']} "
                     f"bootstrap resamples of lemmas, seed {setting['seed']}:")
        for key in KEYS if by_pos else ("all",):
            found = body[key]["intervals"]
            lines.append(f"{key:<5}" + "  ".join(
                f"{name} " + ("n/a" if found[name] is None else
                              f"{_pct(found[name][0])}-{_pct(found[name][1])}")
                for name in INTERVAL_FIGURES))
    lines.append("")
    if body.get("annotator_sets_differ"):
        lines.append("items have different annotator sets: pairwise figures compare the "
                     "annotators of each item")
    lines.append(f"{'annotator':<16}{'with others':>12}{'with mode':>11}{'items':>7}")
    for name, value in body["annotators"].items():
        lines.append(f"{name:<16}{_pct(value['with_others']):>12}{_pct(value['with_mode']):>11}"
                     f"{value['items']:>7}")
    multiword = body["multiword"]
    lines.append("")
    lines.append(f"multiwords: detection {_pct(multiword['detection'])} (alpha "
                 f"{_alpha_text(multiword['detection_alpha'])}), identification "
                 f"{_pct(multiword['identification'])} (alpha "
                 f"{_alpha_text(multiword['identification_alpha'])}); "
                 f"{multiword['marked']} of {multiword['responses']} responses marked one")
    for name, rows in body.get("leave_one_out", {}).items():
        row = rows["all"]
        lines.append(f"without {name}: PA {_pct(row['PA'])}, PAm {_pct(row['PAm'])}, "
                     f"T {row['T']}")
    lines.append("")
    lines.append(f"signature: {body['signature']}")
    return "\n".join(lines) + "\n"


def as_csv(body: dict[str, Any], by_pos: bool) -> str:
    """One row per PoS key: T, PA, mode share, PAm, the three alphas, and the intervals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["pos", "T", "PA", "mode_share", "PAm", "alpha_nominal_first",
                     "alpha_indicator", "alpha_masi", "PA_low", "PA_high", "PAm_low",
                     "PAm_high"])
    for key in KEYS if by_pos else ("all",):
        row = body[key]
        found = row.get("intervals") or {}
        bounds = [found.get(name) or ["", ""] for name in ("PA", "PAm")]
        values = [row["PA"], row["mode_share"], row["PAm"], *row["alpha"].values()]
        writer.writerow([key, row["T"], *("" if v is None else v for v in values),
                         *bounds[0], *bounds[1]])
    return out.getvalue()
