"""``lexsub agreement ANNOTATORS_FILE [--format text|json|csv] [--by-pos]
[--leave-one-out] [--intervals [--resamples N] [--seed S] [--confidence C]]
[--exclude ANNOTATOR[=REASON] ...]``: the agreement report on the compiler's
``annotators.jsonl`` (:mod:`scoring.agreement.report`).

Table 1 of McCarthy & Navigli (2009): PA (eq. 1), the share of items with a mode, PAm
(eq. 2) and |T|, for all items and, with ``--by-pos``, for each PoS; three views of
Krippendorff's alpha (``alpha.nominal_first``, ``alpha.indicator``, ``alpha.masi``:
docs/agreement.md) and multi-valued alpha (``multivalued_alpha``, Krippendorff & Craggs
2016); per annotator, the agreement with the others and with the mode;
multiword detection and identification agreement; with ``--leave-one-out``, every figure
again without each annotator; with ``--intervals``, bootstrap intervals over lemmas for
PA, PAm, the mode share and the three alphas (``alpha_intervals``; the seed is printed).
JSON and CSV give fractions; text gives percentages. ``--help`` lists the registered
agreement measures (:data:`scoring.registry.AGREEMENT`): the report's, then the
library's for labels, judgements and ratings. ``--exclude`` leaves an annotator's
responses out of every figure, as the compiler's ``--exclude`` leaves them out of the
gold (the same rule, :mod:`scoring.formats.exclusions`): the JSON lists them under ``excluded``
with the reason and the responses skipped, and the signature ends in ``|excluded:N``; an
annotator with no response in the file is an error naming them.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from scoring.agreement.report import agreement_report_file
from scoring.command import (
    FAILURES,
    ArgumentParser,
    add_resampling,
    check_resampling,
    describe,
    fail,
)
from scoring.formats.exclusions import exclusion_argument
from scoring.formats.sniff import file_mixup
from scoring.registry import figures_of, listing
from scoring.render import render_agreement

REPORTED = (*figures_of("agreement", "sets"), *figures_of("agreement", "multiwords"))
"""The registered agreement measures the report gives."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = ArgumentParser(
        prog="lexsub agreement",
        command="lexsub-agreement",
        description="Agreement report on annotators.jsonl.",
        epilog="The report's measures (scoring.registry): "
        + listing([(f.name, f.description) for f in REPORTED])
        + ". The library's other agreement measures (scoring.agreement, for labels, "
        "judgements and ratings, which annotators.jsonl does not hold): "
        + listing([(f.name, f.description) for f in figures_of("agreement") if f not in REPORTED])
        + ".",
    )
    parser.add_argument("annotators", metavar="ANNOTATORS_FILE")
    parser.add_argument("--format", choices=("text", "json", "csv"), default="text")
    parser.add_argument("--by-pos", action="store_true", help="a row for n, v, a, r too")
    parser.add_argument(
        "--leave-one-out", action="store_true", help="every figure again without each annotator"
    )
    parser.add_argument(
        "--intervals",
        action="store_true",
        help="bootstrap intervals over lemmas for PA, PAm, the mode share and the three alphas",
    )
    add_resampling(parser)
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        type=exclusion_argument,
        metavar="ANNOTATOR[=REASON]",
        help="leave this annotator out of every figure, with a reason (repeatable)",
    )
    options = parser.parse_args(argv)
    check_resampling(parser, options)
    wrong = file_mixup(options.annotators, "agreement", ("annotators",))
    if wrong:
        return fail(wrong)
    try:
        body = agreement_report_file(
            options.annotators,
            leave_one_out=options.leave_one_out,
            intervals=options.intervals,
            resamples=options.resamples,
            seed=options.seed,
            confidence=options.confidence,
            exclude=options.exclude,
        )
    except FAILURES as error:
        return fail(describe(error))
    sys.stdout.write(render_agreement(body, options.format, options.by_pos))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
