"""The agreement report: what ``lexsub agreement`` prints and the
organiser's agreement page shows, from one function (:func:`report`).

Per PoS key (``n``, ``v``, ``a``, ``r``, ``all``): Table 1 of McCarthy & Navigli 2009 (PA, eq. 1;
the share of T with a mode; PA_m, eq. 2; |T|), three alphas (:mod:`scoring.agreement.alpha`)
and multi-valued alpha (:mod:`scoring.agreement.multivalued`, ``nil`` answers missing);
per annotator the agreement with the others and with the mode; the multiword agreement
(:mod:`scoring.agreement.multiword`); optionally every figure without each annotator and
percentile bootstrap intervals over lemmas for PA, PA_m, the mode share and the three alphas.

Intervals resample lemmas (lexelts), as the items come ten per lemma
(:mod:`scoring.significance`). Each figure is a ratio of sums over the items of T: PA is
Σ pa_i / |T| (pa_i the mean of the item's pair scores), PA_m is Σ credits / Σ non-empty
answers over T_m (equation 2 pools the answers), the mode share |T_m| / |T|; so one
resampler gives all three. The alphas are no such ratios: their intervals are computed on
the same resamples (the same lemmas drawn as often) from terms kept per lemma
(:mod:`scoring.agreement.resampled`). JSON and CSV give fractions; text gives percentages.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypedDict, Unpack

import numpy as np

from scoring import significance
from scoring.agreement import (
    AgreementRow,
    AnnotatorAgreement,
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
from scoring.agreement.multivalued import substitute_multivalued_alpha
from scoring.agreement.resampled import alpha_intervals
from scoring.errors import refuse_unknown
from scoring.files.bounded import read_text
from scoring.formats.annotators import Item, parse_annotators
from scoring.formats.exclusions import Excluded, Exclusion, leave_out, parse_exclusion
from scoring.formats.text import split_lines
from scoring.signature import signature as build_signature
from scoring.significance import Resampling

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
    return {
        "nominal_first": _defined(_first, items),
        "indicator": _defined(indicator_alpha, items),
        "masi": _defined(masi_alpha, items),
    }


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
        rows.append(
            (
                math.fsum(scores) / len(scores),
                1.0,
                float(mode is not None),
                math.fsum(credits),
                float(len(credits)),
            )
        )
        lexelts.append(item.lexelt)
    return np.array(rows, dtype=float).reshape(-1, 5), lexelts


CORPORA = {
    "PA": significance.ratio_of(0, 1),
    "mode_share": significance.ratio_of(2, 1),
    "PAm": significance.ratio_of(3, 4),
}


def intervals(
    items: Sequence[Item], resamples: int = 1000, seed: int = 12345, confidence: float = 0.95
) -> dict[str, list[float] | None]:
    """Bootstrap intervals over lemmas for PA, PA_m and the mode share; None for all
    three when the items of T come from fewer than two lemmas."""
    rows, lexelts = item_rows(items)
    if len(set(lexelts)) < 2:
        return dict.fromkeys(INTERVAL_FIGURES)
    sums = significance.cluster_sums(rows, lexelts)[0]
    found = significance.bootstrap_intervals(
        sums, CORPORA, resamples=resamples, seed=seed, confidence=confidence
    )
    # None where more than half the resamples left the figure undefined (PAm: no item
    # with a mode drawn), :func:`scoring.significance.intervals_of`
    return {
        name: None if (bounds := found[name].bounds) is None else list(bounds)
        for name in INTERVAL_FIGURES
    }


def _row(row: AgreementRow) -> dict[str, Any]:
    return {"PA": row.PA, "PAm": row.PAm, "T": row.T, "mode_share": row.mode_share}


@dataclass(frozen=True)
class PosReport:
    """Table 1's row for one PoS key, its three alphas, multi-valued alpha (Krippendorff &
    Craggs 2016: each annotator's answer set one value; None where undefined) and (when
    asked) the intervals of PA, PA_m and the mode share (figure → [low, high], None where
    undefined) and of the three alphas (view → [low, high], None where undefined)."""

    row: AgreementRow
    alpha: Mapping[str, float | None]
    intervals: Mapping[str, list[float] | None] | None = None
    multivalued_alpha: float | None = None
    alpha_intervals: Mapping[str, list[float] | None] | None = None

    def to_json(self) -> dict[str, Any]:
        body = {
            **_row(self.row),
            "alpha": dict(self.alpha),
            "multivalued_alpha": self.multivalued_alpha,
        }
        if self.intervals is not None:
            body["intervals"] = dict(self.intervals)
        if self.alpha_intervals is not None:
            body["alpha_intervals"] = dict(self.alpha_intervals)
        return body


@dataclass(frozen=True)
class MultiwordReport:
    """Multiword detection and identification agreement (per item), their alphas, and how
    many responses marked a multiword."""

    detection: float | None
    identification: float | None
    detection_alpha: float | None
    identification_alpha: float | None
    marked: int
    responses: int


DIFFERENT_SETS = (
    "items have different annotator sets: pairwise figures compare the annotators of each item"
)
"""What the report says when items have different annotator sets."""


@dataclass(frozen=True)
class AgreementReport:
    """The agreement report: a :class:`PosReport` per key of :data:`KEYS`, each annotator's
    agreement, the multiword agreement, leave-one-out rows and the resampling when asked,
    the annotators left out of the items before (:mod:`scoring.formats.exclusions`) and the
    signature."""

    pos: Mapping[str, PosReport]
    annotators: Mapping[str, AnnotatorAgreement]
    multiword: MultiwordReport
    signature: str
    leave_one_out: Mapping[str, Mapping[str, AgreementRow]] | None = None
    resampling: Resampling | None = None
    annotator_sets_differ: bool = False
    """Whether items have different annotator sets (an overlap or crowd design)."""
    excluded: tuple[Excluded, ...] = ()

    @property
    def annotator_sets_note(self) -> str | None:
        """:data:`DIFFERENT_SETS` when items have different annotator sets, for the
        command's text and the agreement page alike."""
        return DIFFERENT_SETS if self.annotator_sets_differ else None

    def to_json(self) -> dict[str, Any]:
        """The JSON of ``lexsub agreement --format json`` (docs/agreement-howto.md): one object per
        PoS key, then ``annotators``, ``multiword`` (``leave_one_out``, ``resampling``,
        ``excluded``: only when there are some), ``signature``."""
        body: dict[str, Any] = {key: value.to_json() for key, value in self.pos.items()}
        body["annotator_sets_differ"] = self.annotator_sets_differ
        body["annotators"] = {
            name: {
                "with_others": value.with_others,
                "with_mode": value.with_mode,
                "items": value.items,
            }
            for name, value in self.annotators.items()
        }
        body["multiword"] = asdict(self.multiword)
        if self.leave_one_out is not None:
            body["leave_one_out"] = {
                name: {key: _row(rows[key]) for key in KEYS}
                for name, rows in self.leave_one_out.items()
            }
        if self.resampling is not None:
            body["resampling"] = self.resampling.to_json()
        if self.excluded:
            body["excluded"] = [excluded.to_json() for excluded in self.excluded]
        body["signature"] = self.signature
        return body


def report(
    items: Sequence[Item],
    leave_out: bool = False,
    with_intervals: bool = False,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    excluded: Sequence[Excluded] = (),
) -> AgreementReport:
    """The report of ``items``: every PoS key, the annotators and the multiwords, and
    leave-one-out rows and bootstrap intervals over lemmas when asked. ``excluded``: the
    annotators left out of ``items`` before (:func:`scoring.formats.exclusions.leave_out`, or a
    compile that left them out), listed in the JSON and counted in the signature."""
    table = agreement_table(items)
    pos = {}
    for key in KEYS:
        subset = [item for item in items if key == "all" or item.pos == key]
        pos[key] = PosReport(
            table[key],
            alphas(subset),
            intervals(subset, resamples, seed, confidence) if with_intervals else None,
            _defined(substitute_multivalued_alpha, subset),
            alpha_intervals(subset, resamples, seed, confidence) if with_intervals else None,
        )
    multiword = multiword_agreement(items)
    return AgreementReport(
        pos,
        annotator_agreement(items),
        MultiwordReport(
            multiword.detection.per_item,
            multiword.identification.per_item,
            multiword.detection_alpha,
            multiword.identification_alpha,
            multiword.marked,
            multiword.responses,
        ),
        signature(with_intervals, resamples, seed, confidence, len(excluded)),
        leave_one_out(items) if leave_out else None,
        Resampling(resamples, seed, confidence, clusters=len({item.lexelt for item in items}))
        if with_intervals
        else None,
        len({frozenset(r.annotator for r in item.responses) for item in items}) > 1,
        tuple(excluded),
    )


def signature(
    with_intervals: bool = False,
    resamples: int = 1000,
    seed: int = 12345,
    confidence: float = 0.95,
    excluded: int = 0,
) -> str:
    """What fixes the report's numbers, as sacrebleu prints it: PA per item (eq. 1), T as
    items with two or more non-empty answers, the first substitute alphabetically for
    nominal alpha, the resampling when there are intervals, and ``excluded:N`` when N
    annotators were left out (:mod:`scoring.formats.exclusions`; nothing when none were)."""
    parts: list[tuple[str, object]] = [
        ("pa", "per_item"),
        ("t", "two+nonempty"),
        ("first", "alphabetical"),
    ]
    if with_intervals:
        parts += [
            ("resample", "lemma"),
            ("n", resamples),
            ("seed", seed),
            ("ci", f"{confidence:g}"),
        ]
    if excluded:
        parts.append(("excluded", excluded))
    return build_signature("agreement", *parts)


class AgreementOptions(TypedDict, total=False):
    """The keywords :func:`agreement_report` and :func:`agreement_report_file` share: the
    options of ``lexsub agreement``. ``leave_one_out`` (default False): every figure again
    without each annotator; ``intervals`` (default False): bootstrap intervals over lemmas,
    from ``resamples`` resamples (default 1000) drawn with ``seed`` (default 12345) at
    ``confidence`` (default 0.95); ``exclude`` (default none): the annotators left out, each
    an :class:`~scoring.formats.exclusions.Exclusion` or ``ANNOTATOR[=REASON]``, as
    ``--exclude`` takes them."""

    leave_one_out: bool
    intervals: bool
    resamples: int
    seed: int
    confidence: float
    exclude: Iterable[Exclusion | str]


def agreement_report(
    annotators: str, *, name: str = "annotators.jsonl", **options: Unpack[AgreementOptions]
) -> AgreementReport:
    """``lexsub agreement`` on the text of an ``annotators.jsonl`` (``name`` stands for it
    in error messages): :func:`report` of its items, without the responses of the
    annotators in ``exclude`` (each an :class:`~scoring.formats.exclusions.Exclusion` or
    ``ANNOTATOR[=REASON]``, as ``--exclude`` takes them), with every figure again without
    each annotator when ``leave_one_out``, and bootstrap intervals over lemmas when
    ``intervals`` (``resamples``, ``seed``, ``confidence``; the keywords and their defaults:
    :class:`AgreementOptions`). :class:`~scoring.errors.FormatError` for a malformed line,
    ValueError for an excluded annotator with no response, TypeError for an unknown
    keyword."""
    refuse_unknown(options, AgreementOptions.__annotations__, "agreement_report")
    exclude = options.get("exclude", ())
    chosen = [parse_exclusion(e) if isinstance(e, str) else e for e in exclude]
    items, excluded = leave_out(parse_annotators(split_lines(annotators), name), chosen, name)
    return report(
        items,
        options.get("leave_one_out", False),
        options.get("intervals", False),
        options.get("resamples", 1000),
        options.get("seed", 12345),
        options.get("confidence", 0.95),
        excluded,
    )


def agreement_report_file(
    path: str | os.PathLike[str], **options: Unpack[AgreementOptions]
) -> AgreementReport:
    """:func:`agreement_report` on the file at ``path`` (named by its path), with the same
    keywords (:class:`AgreementOptions`)."""
    refuse_unknown(options, AgreementOptions.__annotations__, "agreement_report_file")
    text = read_text(path)  # strict, as read_annotators reads it
    return agreement_report(text, name=os.fspath(path), **options)
