"""``lexsub judgements JUDGEMENTS_FILE [--format text|json] [--labels NAME]
[--scores FILE ...] [--curves FILE.svg] [--recall-level L] [--permutations N]
[--seed S]``: the report of a judgement round (:mod:`scoring.judgements.report`).

Exit status 0, 1 for a file that cannot be read or breaks its format (``Error: …``
naming the file, the line and the rule), 2 for bad usage.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from scoring.command import (
    FAILURES,
    MAX_RESAMPLES,
    ArgumentParser,
    check_count,
    check_seed,
    describe,
    fail,
)
from scoring.formats.judgements import read_judgements
from scoring.judgements.labels import LABEL_SETS, label_set
from scoring.judgements.models import PERMUTATIONS, RECALL_LEVEL, SEED, Key, read_scores
from scoring.judgements.report import curve_charts, render_text, report
from scoring.judgements.svg import document


def main(argv: Sequence[str] | None = None) -> int:
    parser = ArgumentParser(
        prog="lexsub judgements",
        command="lexsub-judgements",
        description="Verdicts, Tables 11 and 12, agreement, model rankings and figures by "
        "source of a judgement round (JSON Lines: item, candidate, judge, label, origin).",
    )
    parser.add_argument("judgements", metavar="JUDGEMENTS_FILE")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--labels", choices=tuple(LABEL_SETS), help="the label set (default: from the labels)"
    )
    parser.add_argument(
        "--scores",
        action="append",
        default=[],
        metavar="FILE",
        help="model scores, JSON Lines: item, candidate, score[, model]; repeatable",
    )
    parser.add_argument("--curves", metavar="FILE.svg", help="write the curves as SVG")
    parser.add_argument("--recall-level", type=float, default=RECALL_LEVEL)
    parser.add_argument(
        "--permutations",
        type=int,
        default=PERMUTATIONS,
        help=f"permutations of the test (default {PERMUTATIONS}, at most {MAX_RESAMPLES:,})",
    )
    parser.add_argument("--seed", type=int, default=SEED)
    options = parser.parse_args(argv)
    check_count(parser, "--permutations", options.permutations)
    check_seed(parser, options.seed)
    if not 0 < options.recall_level <= 1:
        parser.error(f"--recall-level {options.recall_level:g}: it must be in (0, 1]")
    if options.curves and not options.scores:
        parser.error("--curves needs --scores (the curves are the models')")
    try:
        judgements = read_judgements(options.judgements)
        scores: dict[str, dict[Key, float]] = {}
        for path in options.scores:
            for model, values in read_scores(path).items():
                if model in scores:
                    raise ValueError(f"{path}: model {model!r} is scored by an earlier file too")
                scores[model] = values
        result = report(
            judgements,
            label_set(options.labels) if options.labels else None,
            scores,
            options.recall_level,
            options.permutations,
            options.seed,
        )
        if options.curves:
            Path(options.curves).write_text(document(curve_charts(result.models)), "utf-8")
    except FAILURES as error:
        return fail(describe(error))
    if options.format == "json":
        print(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(render_text(result))
    return 0
