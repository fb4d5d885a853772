"""``python -m scoring.benchmark semeval07 SYSTEM --data GOLD``: the SemEval-2007 lexical
substitution task (McCarthy & Navigli 2007) in the candidate-ranking setting (GAP over
each target's pooled gold candidates, Melamud's or LexSubGen's convention) and the
generation setting (LexSubGen's P@1, P@3, R@10): :mod:`scoring.benchmark.candidates`.

``GOLD`` is a task gold file (``test/gold``, ``trial/gold.trial``, or both joined, which
LexSubGen calls ``semeval_all``). The field's codebases read it differently from score.pl
(:func:`scoring.gold.read_gold`), so :func:`read_task_gold` keeps what they keep: every
line is an item (items outside T too), entries stay as written and in file order
(``pn`` and its place included, a double space before the count left on the substitute),
each entry read by :func:`scoring.gold.gold_entry`.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from scoring.benchmark.candidates import BenchmarkItem, add_options, evaluate_items
from scoring.benchmark.cli import Report
from scoring.gold import gold_entry
from scoring.io import FormatError, read_lines
from scoring.types import LEXELT

DESCRIPTION = (
    "SemEval-2007 lexical substitution: GAP over the pooled candidates (Melamud's or "
    "LexSubGen's convention) or P@1, P@3, R@10 of generated substitutes (LexSubGen's)"
)

_LINE = re.compile(r"(\S+) (\S+) ::(?: (.*))?")


def read_task_gold(lines: Sequence[str], name: str = "<gold>") -> tuple[BenchmarkItem, ...]:
    """Every line ``LEXELT ID :: SUBSTITUTE COUNT;…`` as a :class:`BenchmarkItem`, entries
    as written. Raises :class:`scoring.io.FormatError` naming ``FILE:LINE``, the value and
    the rule for a malformed line, a count of 0 (the codebases disagree on what it means)
    or a repeated id (LexSubGen refuses one; Melamud's code keeps the last)."""
    items: list[BenchmarkItem] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        text = text.removesuffix("\r")
        if not text.strip():
            continue
        where = f"{name}:{number}"
        found = _LINE.fullmatch(text)
        if found is None or not LEXELT.fullmatch(found.group(1)):
            problems.append(
                f"{where}: {text[:60]!r} is not 'LEXELT ID :: SUBSTITUTE COUNT;…' "
                "(lexelt lemma.pos, single spaces)"
            )
            continue
        lexelt, item_id, rest = found.group(1), found.group(2), found.group(3) or ""
        try:
            entries = tuple(gold_entry(field, where) for field in rest.split(";") if field)
        except FormatError as error:
            problems.extend(error.problems)
            continue
        zero = [substitute for substitute, count in entries if count == 0]
        if zero:
            problems.append(
                f"{where}: {zero[0]!r} has count 0 (benchmark gold counts must be >= 1)"
            )
            continue
        if item_id in seen:
            problems.append(
                f"{where}: id {item_id} already on line {seen[item_id]} (one line per item)"
            )
            continue
        seen[item_id] = number
        items.append(BenchmarkItem(lexelt, item_id, entries, where))
    if problems:
        raise FormatError(problems)
    return tuple(items)


def configure(parser: argparse.ArgumentParser) -> None:
    add_options(parser)


def evaluate(args: argparse.Namespace) -> Report:
    items = read_task_gold(read_lines(args.data), str(args.data))
    return evaluate_items("semeval07", items, args, "task-gold")
