"""The one renderer of the typed reports: the leaderboard (:class:`scoring.leaderboard.
Leaderboard`, ``lexsub compare``) and the agreement report
(:class:`scoring.agreement.report.AgreementReport`, ``lexsub agreement``) as
text, markdown, CSV or JSON (the reports' own ``to_json()``).

Text and markdown print percentages with two decimals (alphas with three); CSV and JSON
give fractions.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING, Any

from scoring.agreement.report import INTERVAL_FIGURES, KEYS, AgreementReport
from scoring.agreement.resampled import ALPHAS
from scoring.files import CsvWriter

if TYPE_CHECKING:
    from scoring.leaderboard import Leaderboard

POS_ORDER = ("all", "n", "v", "a", "r")
FORMATS = ("text", "json", "csv", "markdown")


def json_text(body: dict[str, Any]) -> str:
    """A report's JSON, indented, one trailing newline."""
    return json.dumps(body, indent=2) + "\n"


def percent(value: float | None) -> str:
    """A fraction as a percentage with two decimals; ``""`` for None."""
    return "" if value is None else f"{100 * float(value):.2f}"


def text_table(header: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widths, the first two left-aligned, a rule under the
    header."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=False)]
    lines = [
        "  ".join(
            cell.ljust(w) if i < 2 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(line, widths, strict=False))
        ).rstrip()
        for line in (header, *rows)
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines) + "\n"


def markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A markdown table, the columns after the first two right-aligned."""
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# --- the leaderboard -----------------------------------------------------------------------


def undefined_note(undefined: int, resamples: int) -> str:
    """`` (12 of 1000 resamples undefined)`` when some resamples left a figure undefined;
    ``""`` when none did."""
    if not undefined:
        return ""
    return f" ({undefined} of {resamples} resamples undefined)"


def interval_text(
    low: float | None, high: float | None, undefined: int = 0, resamples: int = 0
) -> str:
    """An interval as ``[47.00, 56.00]``, or ``n/a`` when there is none (more than half the
    resamples undefined), with :func:`undefined_note`."""
    found = "n/a" if low is None or high is None else f"[{percent(low)}, {percent(high)}]"
    return found + undefined_note(undefined, resamples)


def _cell(board: Leaderboard, name: str, measure: str, value: float | None) -> str:
    """A figure, with its interval ``[low, high]`` when there are intervals (``n/a`` when
    the measure was undefined in more than half the resamples), and how many resamples
    left it undefined when some did."""
    interval = (board.intervals or {}).get(name, {}).get(measure)
    if interval is None:
        return percent(value) if value is not None else "n/a" if board.intervals else ""
    undefined = (board.undefined or {}).get(name, {}).get(measure, 0)
    resamples = board.resampling.resamples if board.resampling is not None else 0
    found = interval_text(*interval, undefined, resamples)
    return found if value is None else f"{percent(value)} {found}"


def _tables(board: Leaderboard) -> list[tuple[list[str], list[list[str]]]]:
    """One (header, rows) per group of systems with the same measures."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, values in board.systems.items():
        groups.setdefault(tuple(values), []).append(name)
    tables = []
    for measures, names in groups.items():
        if board.by_pos is not None:
            by_pos = board.by_pos
            header = ["system", "PoS", *measures]
            # the intervals are over all the items: in the row "all"
            rows = [
                [
                    name,
                    pos,
                    *(
                        _cell(board, name, m, by_pos[name][pos][m])
                        if pos == "all"
                        else percent(by_pos[name][pos][m])
                        for m in measures
                    ),
                ]
                for name in names
                for pos in POS_ORDER
            ]
        else:
            header = ["system", *measures]
            rows = [
                [name, *(_cell(board, name, m, board.systems[name][m]) for m in measures)]
                for name in names
            ]
        tables.append((header, rows))
    return tables


def _significance_rows(board: Leaderboard) -> tuple[list[str], list[list[str]]]:
    header = [
        "measure",
        "a",
        "b",
        "score a",
        "score b",
        "b - a",
        "interval",
        "p bootstrap",
        "p randomisation",
    ]
    setting = board.resampling
    resamples = setting.resamples if setting is not None else 0
    trials = setting.trials or 0 if setting is not None else 0
    rows = [
        [
            t.measure,
            t.a,
            t.b,
            _or_na(t.a_value),
            _or_na(t.b_value),
            _or_na(t.delta),
            interval_text(t.low, t.high, t.undefined_resamples, resamples),
            "n/a" if t.p_bootstrap is None else f"{t.p_bootstrap:.4f}",
            ("n/a" if t.p_randomisation is None else f"{t.p_randomisation:.4f}")
            + (
                f" ({t.undefined_trials} of {trials} trials undefined)"
                if t.undefined_trials
                else ""
            ),
        ]
        for t in board.significance or ()
    ]
    return header, rows


def _or_na(value: float | None) -> str:
    """A percentage, or ``n/a`` for an undefined figure."""
    return "n/a" if value is None else percent(value)


def _analyses_text(found: dict[str, Any]) -> str:
    lines = []
    for name, row in found["duplicates"].items():
        scores = row["scores"]["all"]
        lines.append(
            f"{name}: items with duplicates (IwD) {row['iwd']}; oot recall "
            f"{percent(scores['recall'])}, order {row['order']}"
        )
    for name, row in found.get("type_overlap", {}).items():
        lines.append(
            f"{name}: TypeOverlap {row['type_overlap']:.2f}, #subs {row['subs']:.2f}, "
            f"TypeOverlap_uniq {row['type_overlap_uniq']:.2f} over {row['wp']} words"
        )
    for name, row in found.get("disambiguation", {}).get("systems", {}).items():
        lines.append(
            f"{name}: disambiguation precision All {percent(row['all'])}, "
            f"Sys {percent(row['sys'])} ({row['sys_items']} items)"
        )
    return "Analyses (2009 paper, section 4):\n" + "".join(f"  {line}\n" for line in lines)


def _generated_text(board: Leaderboard, bullet: str) -> str:
    """``Generated systems:``, then ``NAME: MODEL at HOST (GENERATOR); PARAMETERS; prompt
    SHA12; fingerprint FP`` for each system with a provenance file
    (:meth:`scoring.signature.Provenance.summary`)."""
    found = board.provenance or {}
    return "Generated systems:\n" + "".join(
        f"{bullet}{name}: {found[name].summary()}\n" for name in board.systems if name in found
    )


def _provenance_cells(board: Leaderboard, name: str) -> list[str]:
    """The CSV's ``model`` and ``parameters`` of a system (``unreadable`` and nothing for
    a provenance file that is not one; both empty without one); no cells when no system
    has a provenance file."""
    if not board.provenance:
        return []
    found = board.provenance.get(name)
    if found is None:
        return ["", ""]
    if found.unreadable is not None:
        return ["unreadable", ""]
    return [found.model, found.parameters_text()]


def _leaderboard_csv(board: Leaderboard) -> str:
    """One row per system, PoS and measure; ``low`` and ``high`` empty where there is no
    interval, ``undefined_resamples`` (with intervals) how many resamples left the
    measure undefined, ``model`` and ``parameters`` (when some system has a provenance
    file) what made the system."""
    out = io.StringIO()
    writer = CsvWriter(out)
    header = ["system", "pos", "measure", "value", "low", "high", "signature"]
    if board.intervals is not None:
        header.append("undefined_resamples")
    if board.provenance:
        header += ["model", "parameters"]
    writer.writerow(header)
    intervals = board.intervals or {}
    undefined = board.undefined or {}
    for name, values in board.systems.items():
        made = _provenance_cells(board, name)
        for measure, value in values.items():
            low, high = intervals.get(name, {}).get(measure, (None, None))
            count = [undefined.get(name, {}).get(measure, 0)] if board.intervals is not None else []
            writer.writerow(
                [
                    name,
                    "all",
                    measure,
                    "" if value is None else value,
                    "" if low is None else low,
                    "" if high is None else high,
                    board.signatures[measure],
                    *count,
                    *made,
                ]
            )
            for pos in POS_ORDER[1:] if board.by_pos is not None else ():
                assert board.by_pos is not None
                value = board.by_pos[name][pos][measure]
                writer.writerow(
                    [
                        name,
                        pos,
                        measure,
                        "" if value is None else value,
                        "",
                        "",
                        board.signatures[measure],
                        *("" for _ in count),
                        *made,
                    ]
                )
    return out.getvalue()


def render_leaderboard(board: Leaderboard, output: str) -> str:
    """The leaderboard as ``text``, ``markdown``, ``csv`` or ``json``."""
    if output == "json":
        return json_text(board.to_json())
    if output == "csv":
        return _leaderboard_csv(board)
    table = markdown_table if output == "markdown" else text_table
    parts = [f"Scores (%), against a gold of {board.gold_items} items ({board.rules} rules)\n"]
    bullet = "- " if output == "markdown" else "  "
    for header, rows in _tables(board):
        parts.append(table(header, rows))
    if board.provenance:
        parts.append(_generated_text(board, bullet))
    parts.append(
        "Upper bounds (%): "
        + ", ".join(f"{k} {percent(v)}" for k, v in board.upper_bounds.items())
        + "\n"
    )
    if board.significance is not None and board.resampling is not None:
        setting = board.resampling
        parts.append(
            f"Intervals [low, high] and paired significance: "
            f"{setting.resamples} bootstrap resamples and {setting.trials} "
            f"randomisation trials of lemmas, seed {setting.seed}, "
            f"{100 * setting.confidence:g}% intervals\n"
        )
        if setting.warning is not None:
            parts.append(f"Warning: {setting.warning}.\n")
        if board.not_compared:
            parts.append(
                "".join(
                    f"{a} and {b} share no measure: not compared.\n" for a, b in board.not_compared
                )
            )
        if board.significance:
            parts.append(table(*_significance_rows(board)))
        elif not board.not_compared:
            parts.append("(one system: no pair to compare)\n")
    if board.analyses is not None:
        parts.append(_analyses_text(dict(board.analyses)))
    if board.swords:
        names = list(board.swords)
        metrics = list(board.swords[names[0]])
        rows = [[m, *(f"{board.swords[n][m]:.2f}" for n in names)] for m in metrics]
        parts.append("SWORDS (%, as SWORDS' evaluate reports them)\n")
        parts.append(table(["metric", *names], rows))
    signatures = [*board.signatures.values()]
    if board.swords_signature:
        signatures.append(board.swords_signature)
    parts.append("Signatures:\n" + "".join(f"{bullet}{sig}\n" for sig in signatures))
    return "\n".join(parts)


# --- the agreement report ------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}"


def _alpha_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


ALPHA_TEXT = {"nominal_first": "alpha first", "indicator": "indicator", "masi": "MASI"}
"""The alphas' names in the text report (its table's headings)."""


def _alpha_interval(bounds: list[float] | None) -> str:
    return "n/a" if bounds is None else f"[{bounds[0]:.3f}, {bounds[1]:.3f}]"


def _agreement_text(body: AgreementReport, by_pos: bool) -> str:
    """Table 1 in percentages, the alphas, per annotator, multiwords, leave-one-out."""
    lines = [
        f"{'PoS':<5}{'#':>6}{'PA':>8}{'% with mode':>13}{'PAm':>8}"
        f"{'alpha first':>13}{'indicator':>11}{'MASI':>8}{'multi-valued':>14}"
    ]
    keys = KEYS if by_pos else ("all",)
    for key in keys:
        row, alpha = body.pos[key].row, body.pos[key].alpha
        lines.append(
            f"{key:<5}{row.T:>6}{_pct(row.PA):>8}{_pct(row.mode_share):>13}"
            f"{_pct(row.PAm):>8}{_alpha_text(alpha['nominal_first']):>13}"
            f"{_alpha_text(alpha['indicator']):>11}{_alpha_text(alpha['masi']):>8}"
            f"{_alpha_text(body.pos[key].multivalued_alpha):>14}"
        )
    if body.resampling is not None:
        setting = body.resampling
        lines.append("")
        lines.append(
            f"{100 * setting.confidence:g}% intervals, {setting.resamples} "
            f"bootstrap resamples of lemmas, seed {setting.seed}:"
        )
        if setting.warning is not None:
            lines.append(f"Warning: {setting.warning}.")
        for key in keys:
            found = body.pos[key].intervals or {}
            alphas = body.pos[key].alpha_intervals or {}
            lines.append(
                f"{key:<5}"
                + "  ".join(
                    f"{name} "
                    + (
                        "n/a"
                        if (bounds := found.get(name)) is None
                        else f"{_pct(bounds[0])}-{_pct(bounds[1])}"
                    )
                    for name in INTERVAL_FIGURES
                )
            )
            lines.append(
                " " * 5
                + "  ".join(
                    f"{ALPHA_TEXT[name]} {_alpha_interval(alphas.get(name))}" for name in ALPHAS
                )
            )
    lines.append("")
    if body.annotator_sets_note is not None:
        lines.append(body.annotator_sets_note)
    lines.append(f"{'annotator':<16}{'with others':>12}{'with mode':>11}{'items':>7}")
    for name, value in body.annotators.items():
        lines.append(
            f"{name:<16}{_pct(value.with_others):>12}{_pct(value.with_mode):>11}{value.items:>7}"
        )
    multiword = body.multiword
    lines.append("")
    lines.append(
        f"multiwords: detection {_pct(multiword.detection)} (alpha "
        f"{_alpha_text(multiword.detection_alpha)}), identification "
        f"{_pct(multiword.identification)} (alpha "
        f"{_alpha_text(multiword.identification_alpha)}); "
        f"{multiword.marked} of {multiword.responses} responses marked one"
    )
    for name, rows in (body.leave_one_out or {}).items():
        row = rows["all"]
        lines.append(f"without {name}: PA {_pct(row.PA)}, PAm {_pct(row.PAm)}, T {row.T}")
    lines.append("")
    lines.append(f"signature: {body.signature}")
    return "\n".join(lines) + "\n"


def _agreement_csv(body: AgreementReport, by_pos: bool) -> str:
    """One row per PoS key: T, PA, mode share, PAm, the three alphas, the intervals of PA
    and PAm, multi-valued alpha and the intervals of the three alphas."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(
        [
            "pos",
            "T",
            "PA",
            "mode_share",
            "PAm",
            "alpha_nominal_first",
            "alpha_indicator",
            "alpha_masi",
            "PA_low",
            "PA_high",
            "PAm_low",
            "PAm_high",
            "multivalued_alpha",
            *(f"alpha_{name}_{end}" for name in ALPHAS for end in ("low", "high")),
        ]
    )
    for key in KEYS if by_pos else ("all",):
        row = body.pos[key].row
        found = body.pos[key].intervals or {}
        bounds: list[list[float] | list[str]] = [
            found.get(name) or ["", ""] for name in ("PA", "PAm")
        ]
        values = [row.PA, row.mode_share, row.PAm, *body.pos[key].alpha.values()]
        multivalued = body.pos[key].multivalued_alpha
        alphas = body.pos[key].alpha_intervals or {}
        ends: list[float | str] = []
        for name in ALPHAS:
            ends += alphas.get(name) or ["", ""]
        writer.writerow(
            [
                key,
                row.T,
                *("" if v is None else v for v in values),
                *bounds[0],
                *bounds[1],
                "" if multivalued is None else multivalued,
                *ends,
            ]
        )
    return out.getvalue()


def render_agreement(body: AgreementReport, output: str, by_pos: bool = False) -> str:
    """The agreement report as ``text``, ``csv`` or ``json`` (``by_pos``: a row for each
    PoS, not only ``all``)."""
    if output == "json":
        return json_text(body.to_json())
    if output == "csv":
        return _agreement_csv(body, by_pos)
    return _agreement_text(body, by_pos)
