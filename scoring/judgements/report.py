"""The report of a judgement round: verdicts, Tables 11 and 12,
agreement, models ranked against the verdicts and the figures by source; as a value with
``to_json`` and as text. The commands (:mod:`scoring.judgements.cli`, ``lexsub round
report``) and the organiser's page all call :func:`report`, so their figures are the
same."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.formats.judgements import Judgement, candidates
from scoring.judgements.agreement import ViewAgreement, round_agreement
from scoring.judgements.labels import LabelSet, guess_label_set
from scoring.judgements.models import (
    PERMUTATIONS,
    RECALL_LEVEL,
    SEED,
    Key,
    ModelEvaluation,
    evaluate,
)
from scoring.judgements.sources import SourceFigures, by_source, render_sources
from scoring.judgements.svg import line_chart
from scoring.judgements.verdicts import (
    Breakdown,
    Verdict,
    breakdown,
    by_origin,
    table11,
    table12,
    verdicts,
)


@dataclass(frozen=True)
class JudgementReport:
    label_set: LabelSet
    judges: tuple[str, ...]
    verdicts: tuple[Verdict, ...]
    table11: Mapping[str, Breakdown]
    table12: Mapping[str, Breakdown]
    overall: Breakdown
    by_origin: Mapping[str, Breakdown]
    agreement: Mapping[str, ViewAgreement]
    models: tuple[ModelEvaluation, ...] = field(default=())
    sources: tuple[SourceFigures, ...] = field(default=())
    """Each source's figures (:mod:`scoring.judgements.sources`)."""

    @property
    def fleiss_kappa(self) -> float | None:
        """Fleiss' kappa over the full labels (the contract's ``fleiss_kappa``)."""
        return self.agreement["full"].fleiss_kappa

    def to_json(self) -> dict[str, Any]:
        """The contract's keys (``table11``, ``table12``, ``verdicts``, ``fleiss_kappa``)
        first, then the rest of the report."""
        return {
            "table11": {k: v.to_json() for k, v in self.table11.items()},
            "table12": {k: v.to_json() for k, v in self.table12.items()},
            "verdicts": len(self.verdicts),
            "fleiss_kappa": self.fleiss_kappa,
            "label_set": self.label_set.name,
            "labels": list(self.label_set.labels),
            "judges": list(self.judges),
            "all": self.overall.to_json(),
            "by_origin": {k: v.to_json() for k, v in self.by_origin.items()},
            "agreement": {k: v.to_json() for k, v in self.agreement.items()},
            "models": {m.model: m.to_json() for m in self.models},
            "sources": {row.source: row.to_json() for row in self.sources},
        }


def report(
    judgements: Iterable[Judgement],
    label_set: LabelSet | None = None,
    scores: Mapping[str, Mapping[Key, float]] | None = None,
    level: float = RECALL_LEVEL,
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
    *,
    proposed: Iterable[Sequence[str]] | None = None,
) -> JudgementReport:
    """Everything the round's judgements say; the label set is guessed from the labels
    used when not given (ValueError for a label outside it). ``proposed``: the origin of
    every candidate of the round, judged or not, for the figures by source (None: the
    judged candidates, all a judgements file holds)."""
    listed = list(judgements)
    if not listed:
        raise ValueError("no judgements")
    used = {j.label for j in listed}
    chosen = label_set or guess_label_set(used)
    unknown = sorted(used - set(chosen.labels))
    if unknown:
        raise ValueError(
            f"label {', '.join(unknown)} is not one of {', '.join(chosen.labels)} "
            f"(label set {chosen.name})"
        )
    found = candidates(listed)
    decided = verdicts(found, chosen)
    models = tuple(
        evaluate(name, model, decided, chosen, level, permutations, seed)
        for name, model in sorted((scores or {}).items())
    )
    return JudgementReport(
        chosen,
        tuple(sorted({j.judge for j in listed})),
        decided,
        table11(decided, chosen),
        table12(decided, chosen),
        breakdown(decided, chosen),
        by_origin(decided, chosen),
        round_agreement(found, chosen),
        models,
        by_source(decided, proposed),
    )


def _number(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _table(title: str, rows: Mapping[str, Breakdown], labels: Sequence[str]) -> list[str]:
    width = max(12, *(len(label) + 2 for label in labels))
    lines = [title, f"{'':<12}{'total':>8}" + "".join(f"{label:>{width}}" for label in labels)]
    for name, row in rows.items():
        lines.append(
            f"{name.replace('_', ' '):<12}{row.total:>8}"
            + "".join(f"{_number(row.percent[label], 2):>{width}}" for label in labels)
        )
    return lines


def render_text(result: JudgementReport) -> str:
    """The report as text: percentages with two decimals, as the paper prints them."""
    labels = result.label_set.labels
    order = " > ".join(labels) if result.label_set.ordered else ", ".join(labels)
    lines = [
        f"label set: {result.label_set.name} ({order}); {len(result.judges)} judges "
        f"({', '.join(result.judges)}); {len(result.verdicts)} verdicts",
        "",
        *_table("Table 11 (verdicts, % of each row)", result.table11, labels),
        "",
        *_table("Table 12", result.table12, labels),
        "",
        *_table(
            "All candidates, and by origin", {"all": result.overall, **result.by_origin}, labels
        ),
    ]
    for view, agreement in result.agreement.items():
        lines += [
            "",
            f"Agreement ({'the labels' if view == 'full' else 'binary view'}, "
            f"{agreement.units} candidates with two or more judgements): "
            f"Fleiss' kappa {_number(agreement.fleiss_kappa)}, "
            f"alpha nominal {_number(agreement.alpha_nominal)}"
            + (
                f", alpha ordinal {_number(agreement.alpha_ordinal)}"
                if view == "full" and result.label_set.ordered
                else ""
            ),
        ]
        for pair, value in agreement.cohen.items():
            lines.append(f"  Cohen's kappa {pair.replace('|', ' & ')}: {_number(value)}")
        for judge, figures in agreement.judges.items():
            share = None if figures.with_verdict is None else 100 * figures.with_verdict
            lines.append(
                f"  judge {judge}: {figures.judged} judged, mean Cohen's kappa "
                f"{_number(figures.mean_cohen)}, same as the verdict "
                f"{_number(share, 2)}%"
            )
    for model in result.models:
        lines += [
            "",
            f"model {model.model}: AP {_number(model.ap, 4)}, ROC AUC {_number(model.auc, 4)}, "
            f"{model.relevant} relevant of {model.rows}",
            f"  against random ranking: p = {_number(model.p_value, 4)}; AP needed for p < 0.05 "
            f"{_number(model.ap_05, 4)}, for p < 0.01 {_number(model.ap_01, 4)} "
            f"({model.permutations} permutations, seed {model.seed})",
            f"  at recall {model.recall_level:g} (reached {_number(model.recall_reached, 4)}): "
            + ", ".join(
                f"{label} {_number(value, 4)}" for label, value in model.recall_by_label.items()
            ),
        ]
    text = "\n".join(lines) + "\n"
    if result.sources:
        text += "\n" + render_sources(result.sources, result.label_set.positive)
    return text


def curve_charts(models: Sequence[ModelEvaluation]) -> tuple[str, str]:
    """The recall-precision chart (steps) and the ROC chart (with the chance line)."""
    rp = line_chart(
        "Recall-precision",
        {
            m.model: [(0.0, m.curves.recall_precision[0][1]), *m.curves.recall_precision]
            for m in models
        },
        "recall",
        "precision",
        steps=True,
    )
    roc = line_chart(
        "ROC",
        {m.model: list(m.curves.roc) for m in models if m.curves.roc},
        "false positive rate",
        "true positive rate",
        diagonal=True,
    )
    return rp, roc
