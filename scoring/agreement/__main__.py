"""``python -m scoring.agreement ANNOTATORS_FILE [--format text|json|csv] [--by-pos]
[--leave-one-out]``: the agreement report on the compiler's ``annotators.jsonl``.

Table 1 of McCarthy & Navigli (2009): PA (eq. 1), the share of items with a mode, PAm
(eq. 2) and |T|, for all items and, with ``--by-pos``, for each PoS; per annotator, the
agreement with the others and with the mode; with ``--leave-one-out``, every figure again
without each annotator. ``alpha.nominal_first`` is Krippendorff's alpha (nominal) on each
annotator's first substitute (alphabetically first of their set). JSON and CSV give
fractions; text gives percentages.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Sequence
from typing import Any

from scoring.agreement import (
    AgreementRow,
    Item,
    agreement_table,
    annotator_agreement,
    first_substitute_units,
    leave_one_out,
    nominal_alpha,
    read_annotators,
)
from scoring.io import FormatError

KEYS = ("n", "v", "a", "r", "all")


def _alpha(items: Sequence[Item]) -> float | None:
    """Nominal alpha on first substitutes, or None where it is undefined."""
    try:
        return nominal_alpha(first_substitute_units(items)[1])
    except (ValueError, ZeroDivisionError):
        return None


def report(items: Sequence[Item], leave_out: bool = False) -> dict[str, Any]:
    """The report as JSON-ready data: one object per PoS key, then ``annotators``."""
    table = agreement_table(items)
    body: dict[str, Any] = {}
    for key in KEYS:
        row = table[key]
        subset = [item for item in items if key == "all" or item.pos == key]
        body[key] = {"PA": row.PA, "PAm": row.PAm, "T": row.T, "mode_share": row.mode_share,
                     "alpha": {"nominal_first": _alpha(subset)}}
    body["annotators"] = {name: {"with_others": value.with_others,
                                 "with_mode": value.with_mode, "items": value.items}
                          for name, value in annotator_agreement(items).items()}
    if leave_out:
        body["leave_one_out"] = {name: {key: _row(rows[key]) for key in KEYS}
                                 for name, rows in leave_one_out(items).items()}
    return body


def _row(row: AgreementRow) -> dict[str, Any]:
    return {"PA": row.PA, "PAm": row.PAm, "T": row.T, "mode_share": row.mode_share}


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}"


def as_text(body: dict[str, Any], by_pos: bool) -> str:
    lines = [f"{'PoS':<5}{'#':>6}{'PA':>8}{'% with mode':>13}{'PAm':>8}{'alpha':>8}"]
    for key in KEYS if by_pos else ("all",):
        row = body[key]
        alpha = row["alpha"]["nominal_first"]
        lines.append(f"{key:<5}{row['T']:>6}{_pct(row['PA']):>8}{_pct(row['mode_share']):>13}"
                     f"{_pct(row['PAm']):>8}{'n/a' if alpha is None else f'{alpha:.3f}':>8}")
    lines.append("")
    lines.append(f"{'annotator':<16}{'with others':>12}{'with mode':>11}{'items':>7}")
    for name, value in body["annotators"].items():
        lines.append(f"{name:<16}{_pct(value['with_others']):>12}{_pct(value['with_mode']):>11}"
                     f"{value['items']:>7}")
    for name, rows in body.get("leave_one_out", {}).items():
        row = rows["all"]
        lines.append(f"without {name}: PA {_pct(row['PA'])}, PAm {_pct(row['PAm'])}, "
                     f"T {row['T']}")
    return "\n".join(lines) + "\n"


def as_csv(body: dict[str, Any], by_pos: bool) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["pos", "T", "PA", "mode_share", "PAm", "alpha_nominal_first"])
    for key in KEYS if by_pos else ("all",):
        row = body[key]
        values = [row["PA"], row["mode_share"], row["PAm"], row["alpha"]["nominal_first"]]
        writer.writerow([key, row["T"], *("" if v is None else v for v in values)])
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring.agreement",
                                     description="Agreement report on annotators.jsonl.")
    parser.add_argument("annotators", metavar="ANNOTATORS_FILE")
    parser.add_argument("--format", choices=("text", "json", "csv"), default="text")
    parser.add_argument("--by-pos", action="store_true", help="a row for n, v, a, r too")
    parser.add_argument("--leave-one-out", action="store_true",
                        help="every figure again without each annotator")
    options = parser.parse_args(argv)
    try:
        items = read_annotators(options.annotators)
        body = report(items, options.leave_one_out)
    except FormatError as error:
        print(f"agreement: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"agreement: cannot read {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    except ValueError as error:
        print(f"agreement: {error}", file=sys.stderr)
        return 1
    if options.format == "json":
        sys.stdout.write(json.dumps(body, indent=2) + "\n")
    elif options.format == "csv":
        sys.stdout.write(as_csv(body, options.by_pos))
    else:
        sys.stdout.write(as_text(body, options.by_pos))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
