"""``lexsub benchmark semeval07 SYSTEM --data GOLD``: the SemEval-2007 lexical
substitution task (McCarthy & Navigli 2007) in the candidate-ranking setting (GAP over
each target's pooled gold candidates, Melamud's or LexSubGen's convention) and the
generation setting (LexSubGen's P@k, R@k and F1@k for k = 1, 3, 10):
:mod:`scoring.benchmark.candidates`.

``GOLD`` is a task gold file (``test/gold``, ``trial/gold.trial``, or both joined, which
LexSubGen calls ``semeval_all``). The field's codebases read it differently from score.pl
(:func:`scoring.formats.gold.read_gold`), so :func:`read_task_gold` keeps what they keep: every
line is an item (items outside T too), entries stay as written and in file order
(``pn`` and its place included, a double space before the count left on the substitute),
as :func:`scoring.formats.gold.read_gold_as_written` reads them (decimal weights allowed).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Unpack

from scoring.benchmark import Report
from scoring.benchmark.candidates import (
    BenchmarkItem,
    CandidateOptions,
    add_options,
    evaluate_items,
    option_keywords,
)
from scoring.formats.gold import GoldLineAsWritten, read_gold_as_written
from scoring.formats.text import read_lines

DESCRIPTION = (
    "SemEval-2007 lexical substitution: GAP over the pooled candidates (Melamud's or "
    "LexSubGen's convention) or P@k, R@k, F1@k (k = 1, 3, 10) of generated substitutes "
    "(LexSubGen's)"
)


def _benchmark_rules() -> Callable[[GoldLineAsWritten], str | None]:
    """The benchmark's rules beyond the reader's: no count of 0 (the codebases disagree
    on what it means) and one line per id (LexSubGen refuses a repeated id; Melamud's
    code keeps the last)."""
    seen: dict[str, int] = {}

    def check(line: GoldLineAsWritten) -> str | None:
        zero = [substitute for substitute, count in line.written if count == 0]
        if zero:
            return f"{zero[0]!r} has count 0 (benchmark gold counts must be >= 1)"
        if line.instance in seen:
            return f"id {line.instance} already on line {seen[line.instance]} (one line per item)"
        seen[line.instance] = line.line
        return None

    return check


def read_task_gold(lines: Sequence[str], name: str = "<gold>") -> tuple[BenchmarkItem, ...]:
    """Every line ``LEXELT ID :: SUBSTITUTE COUNT;…`` as a :class:`BenchmarkItem`, entries
    as written. Raises :class:`scoring.errors.FormatError` naming ``FILE:LINE``, the value and
    the rule for a malformed line, a count of 0 or a repeated id."""
    return tuple(
        BenchmarkItem(line.lexelt, line.instance, line.written, f"{name}:{line.line}")
        for line in read_gold_as_written(lines, name, weights=True, check=_benchmark_rules())
    )


def configure(parser: argparse.ArgumentParser) -> None:
    add_options(parser)


def evaluate_files(
    system: str | Path, data: str | Path, **options: Unpack[CandidateOptions]
) -> Report:
    """``lexsub benchmark semeval07 SYSTEM --data DATA``: the system file at ``system`` scored
    on the data at ``data`` (a task gold file); the keywords are the command's options
    (:func:`scoring.benchmark.candidates.add_options`)."""
    items = read_task_gold(read_lines(data), str(data))
    return evaluate_items(
        "semeval07",
        items,
        "task-gold",
        system,
        **options,
    )


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files` with its options."""
    return evaluate_files(args.system, args.data, **option_keywords(args))
