"""How official scores are written: score.pl's text to the byte, JSON, CSV, and by PoS.

JSON and CSV give fractions (0.4576, not 45.76) without rounding; the text output gives
score.pl's rounded percentages. Every figure is a registered measure (:mod:`scoring.registry`:
``best.P`` … ``oot.mode_R``, ``mw.detection_P`` …) of the columns the scan summed. Every
JSON result carries a ``signature`` naming what determines its numbers.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from scoring.errors import ScorerDied
from scoring.files import CsvWriter
from scoring.formats.gold import Gold
from scoring.formats.perl import perl_round, perl_str
from scoring.measures.official.items import OfficialScores
from scoring.registry import figure, official_figure
from scoring.types import pos_of

if TYPE_CHECKING:  # the mw scorer is loaded for -t mw only
    from scoring.measures.multiword.items import MultiwordScores

POS_COLUMNS = (
    ("all", "All"),
    ("n", "Nouns"),
    ("v", "Verbs"),
    ("a", "Adjectives"),
    ("r", "Adverbs"),
)


def _pct(value: float | None, rules: str, what: str, printed: list[str]) -> str:
    if value is None:
        if rules == "compat":
            raise ScorerDied(
                "".join(line + "\n" for line in printed), f"{what} is undefined (division by zero)"
            )
        return "n/a"
    return perl_round(value)


def _pct_or(value: float | None, blank: str) -> str:
    return blank if value is None else perl_round(value)


def official_text(scores: OfficialScores) -> str:
    """The exact text score.pl prints for best or oot (fixed rules print ``n/a`` where
    score.pl would die)."""
    printed = list(scores.log)
    if scores.duplicate_lines:
        printed.append(f"WARNING OOT file contains duplicates on {scores.duplicate_lines} lines")
    rules = scores.rules
    precision = _pct(official_figure(scores, "P"), rules, "precision (nothing attempted)", printed)
    recall = _pct(official_figure(scores, "R"), rules, "recall (no item in T)", printed)
    printed.append(f"Total = {scores.total_items}, attempted = {scores.attempted}")
    printed.append(f"precision = {precision}, recall = {recall}")
    mode_precision = _pct(
        official_figure(scores, "mode_P"),
        rules,
        "mode precision (no item with a mode attempted)",
        printed,
    )
    mode_recall = _pct(
        official_figure(scores, "mode_R"), rules, "mode recall (no item with a mode)", printed
    )
    printed.append(f"Total with mode {scores.total_modes} attempted {scores.mode_attempted}")
    prefix = "Mode precision" if scores.measure == "best" else "precision"
    recall_name = "Mode recall" if scores.measure == "best" else "recall"
    printed.append(f"{prefix} = {mode_precision}, {recall_name} = {mode_recall}")
    return "".join(line + "\n" for line in printed)


def multiword_text(scores: MultiwordScores) -> str:
    """The exact text score.pl prints for mw."""
    printed = list(scores.log)
    blank = "" if scores.rules == "compat" else "n/a"  # score.pl prints undef as ''
    detection_p = _pct_or(scores.figure("detection_P"), blank)
    identification_p = _pct_or(scores.figure("identification_P"), blank)
    detection_r = _pct(
        scores.figure("detection_R"), scores.rules, "recall (no multiword in the gold)", printed
    )
    identification_r = _pct_or(scores.figure("identification_R"), "n/a")
    printed.append(
        f"Total MWs in GS = {scores.total_modes}, System found "
        f"{perl_str(scores.found or None)} of which "
        f"{perl_str(scores.genuine or None)} were genuine"
    )
    printed.append(f"Detection precision = {detection_p}, recall = {detection_r}")
    printed.append("Number that matched GS")
    printed.append(f"Identification precision = {identification_p}, recall = {identification_r}")
    return "".join(line + "\n" for line in printed)


def _signature(task: str, rules: str, system: str | None = None) -> str:
    """The signature of a best, oot or mw result: the task, the rules, how T is chosen, and
    the fingerprint of the system file's provenance file when it has one."""
    from scoring.signature import (  # not needed for score.pl's text
        provenance_settings,
        scorer_settings,
        signature,
    )

    return signature(task, *scorer_settings(rules), *provenance_settings(system))


class PosScores(NamedTuple):
    """best/oot figures for one PoS (or ``all``), as fractions."""

    total_items: int
    attempted: int
    precision: float | None
    recall: float | None
    total_modes: int
    mode_attempted: int
    mode_precision: float | None
    mode_recall: float | None

    @classmethod
    def of(cls, measure: str, sums: Mapping[str, float]) -> PosScores:
        """The counts and the official figures ``MEASURE.P``, ``.R``, ``.mode_P`` and
        ``.mode_R`` (the registered measures, :func:`scoring.registry.figure`) of the
        official columns' sums (:attr:`OfficialScores.sums`)."""
        return cls(
            int(sums["item"]),
            int(sums["attempted"]),
            figure(f"{measure}.P", sums),
            figure(f"{measure}.R", sums),
            int(sums["has_mode"]),
            int(sums["mode_attempted"]),
            figure(f"{measure}.mode_P", sums),
            figure(f"{measure}.mode_R", sums),
        )


def by_pos(scores: OfficialScores, gold: Gold) -> dict[str, PosScores]:
    """Scores for each PoS of the gold's lexelts (n, v, a, r) and ``all`` (Tables 4-8 of
    the 2009 paper). PoS is the last part of the gold lexelt (``stand.n.v`` is a verb);
    the official columns of the items of one PoS are summed in the file's order."""
    result = {"all": by_pos_all(scores)}
    for pos, _label in POS_COLUMNS[1:]:
        ids = {item_id for item_id, item in gold.items.items() if pos_of(item.lexelt) == pos}
        rows = [row for row in scores.items if row.id in ids]
        sums = {
            "item": len(ids),
            "score": sum(row.score for row in rows),
            "attempted": sum(row.attempted for row in rows),
            "mode_attempted": sum(row.mode_attempted for row in rows),
            "mode_correct": sum(row.mode_correct for row in rows),
            "has_mode": sum(1 for item_id in gold.modes if item_id in ids),
        }
        result[pos] = PosScores.of(scores.measure, sums)
    return result


def official_json(name: str, scores: OfficialScores, gold: Gold | None = None) -> str:
    """One JSON object: counts, fractions, signature; ``by_pos`` when ``gold`` is given."""
    import json  # loaded for this format only: the text output starts without it

    body: dict[str, object] = {
        "system": name,
        "measure": scores.measure,
        "rules": scores.rules,
        "total": scores.total_items,
        "attempted": scores.attempted,
        "precision": official_figure(scores, "P"),
        "recall": official_figure(scores, "R"),
        "total_with_mode": scores.total_modes,
        "mode_attempted": scores.mode_attempted,
        "mode_precision": official_figure(scores, "mode_P"),
        "mode_recall": official_figure(scores, "mode_R"),
        "duplicate_lines": scores.duplicate_lines,
        "signature": _signature(scores.measure, scores.rules, name),
    }
    if gold is not None:
        body["by_pos"] = {pos: vars_of(value) for pos, value in by_pos(scores, gold).items()}
    return json.dumps(body, indent=2) + "\n"


def vars_of(value: PosScores) -> dict[str, object]:
    return {field: getattr(value, field) for field in PosScores._fields}


def official_csv(name: str, scores: OfficialScores, gold: Gold | None = None) -> str:
    """CSV with a header: one row for ``all`` (and one per PoS when ``gold`` is given)."""

    out = io.StringIO()
    writer = CsvWriter(out)
    columns = list(PosScores._fields)
    writer.writerow(["system", "measure", "rules", "pos", *columns, "signature"])
    table = by_pos(scores, gold) if gold is not None else None
    rows = table.items() if table else [("all", by_pos_all(scores))]
    for pos, value in rows:
        writer.writerow(
            [
                name,
                scores.measure,
                scores.rules,
                pos,
                *("" if v is None else v for v in vars_of(value).values()),
                _signature(scores.measure, scores.rules, name),
            ]
        )
    return out.getvalue()


def by_pos_all(scores: OfficialScores) -> PosScores:
    return PosScores.of(scores.measure, scores.sums)


def pos_tables(rows: Sequence[tuple[str, dict[str, PosScores]]], measure: str) -> str:
    """Tables 4-8 of the 2009 paper: one table per figure, systems as rows, All and each
    PoS as columns, percentages to two decimals."""
    titles = {
        "precision": f"{measure} precision",
        "recall": f"{measure} recall",
        "mode_precision": f"{measure} mode precision",
        "mode_recall": f"{measure} mode recall",
    }
    width = max([len("Systems"), *(len(name) for name, _ in rows)])
    lines: list[str] = []
    for field, title in titles.items():
        lines.append(f"Results for {title}")
        header = "Systems".ljust(width) + "".join(f"  {label:>10}" for _, label in POS_COLUMNS)
        lines.append(header)
        for name, table in rows:
            cells = []
            for pos, _label in POS_COLUMNS:
                value = getattr(table[pos], field)
                cells.append(f"  {'n/a' if value is None else perl_round(value):>10}")
            lines.append(name.ljust(width) + "".join(cells))
        lines.append("")
    return "\n".join(lines)


_MW_FIELDS = {
    "detection_precision": "detection_P",
    "detection_recall": "detection_R",
    "identification_precision": "identification_P",
    "identification_recall": "identification_R",
}
"""The JSON and CSV fields of mw and the registered measures (``mw.NAME``) they show."""


def multiword_json(name: str, scores: MultiwordScores) -> str:
    import json  # loaded for this format only: the text output starts without it

    body = {
        "system": name,
        "measure": "mw",
        "rules": scores.rules,
        "total_with_mw": scores.total_modes,
        "found": scores.found,
        "genuine": scores.genuine,
        "matched": scores.matched,
        **{field: scores.figure(name) for field, name in _MW_FIELDS.items()},
        "signature": _signature("mw", scores.rules, name),
    }
    return json.dumps(body, indent=2) + "\n"


def multiword_csv(name: str, scores: MultiwordScores) -> str:

    out = io.StringIO()
    writer = CsvWriter(out)
    fields = list(_MW_FIELDS)
    writer.writerow(
        [
            "system",
            "measure",
            "rules",
            "total_with_mw",
            "found",
            "genuine",
            "matched",
            *fields,
            "signature",
        ]
    )
    values = [scores.figure(name) for name in _MW_FIELDS.values()]
    writer.writerow(
        [
            name,
            "mw",
            scores.rules,
            scores.total_modes,
            scores.found,
            scores.genuine,
            scores.matched,
            *("" if v is None else v for v in values),
            _signature("mw", scores.rules, name),
        ]
    )
    return out.getvalue()
