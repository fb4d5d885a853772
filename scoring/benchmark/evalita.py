"""``lexsub benchmark evalita SYSTEM --data GOLD [-t best|oot|llm-f1]``: the
EVALITA 2009 lexical substitution task, Italian (Toral 2009), and the F1 that Evalita-LLM
(Magnini et al. 2025) gives the same data.

``best`` and ``oot``: the task's files are SemEval-2007's (a gold ``LEXELT ID :: SUBSTITUTE
COUNT;…``, answers ``LEXELT ID :: GUESS;…`` and ``::: GUESS;…``) and its measures McCarthy &
Navigli's (2007). The task's own scorer could not be found; the figures are those of the
project's score.pl (:mod:`scoring.benchmark.scorepl`), checked on cases computed by hand from
the definitions (docs/benchmarks.md).

``llm-f1``: Evalita-LLM asks a model for ten substitutes separated by commas and scores the
answer as ``ls_process_results`` and ``_aggreg_ls`` of its lm-evaluation-harness task
(``lm_eval/tasks/evalita_llm``) do; :func:`llm_item` and :func:`llm_f1` reproduce them,
verified against that code run unmodified (docs/benchmarks.md). ``GOLD`` is the task's JSON
Lines (one object a line with ``answers``: ``[{"word": W, "count": N}, …]``, other keys
ignored); ``SYSTEM`` has one JSON line per gold line, in the same order: the model's answer
as a JSON string, or an object with ``response`` (and ``id``, checked against the gold's
``id`` when both have one).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from scoring.benchmark import Report
from scoring.benchmark.scorepl import add_rules_option, data_name, official_report
from scoring.errors import FormatError
from scoring.files import parse_json
from scoring.formats.text import read_lines
from scoring.signature import signature
from scoring.types import Rules

DESCRIPTION = (
    "EVALITA 2009 lexical substitution (Italian): best and oot as score.pl computes them, "
    "or Evalita-LLM's F1 of a model's comma-separated answers (-t llm-f1)"
)

LLM_GUESSES = 10
"""Evalita-LLM scores the first ten substitutes of an answer."""

_FIELD = re.compile(r"[^,]+")


@dataclass(frozen=True, slots=True)
class LlmItem:
    """One gold line of Evalita-LLM's lexical substitution data: the annotators' words and
    how many gave each, in the file's order."""

    answers: tuple[tuple[str, int], ...]
    id: str | None = None


@dataclass(frozen=True, slots=True)
class LlmScore:
    """What one answer adds to the corpus sums: ``credit`` (the matched counts over the
    item's total), whether the answer named anything, whether the gold has a word."""

    credit: float
    answered: bool
    annotated: bool


def llm_guesses(response: str) -> list[str]:
    """The substitutes Evalita-LLM reads from an answer (``split_text_with_regex`` with
    ``[^,]+``, then the cut to ten): the first line only, split on commas, each stripped
    of white space and double quotes, empty ones kept; the last of the ten keeps only its
    letters (``"e così via."`` → ``ecosìvia``).

    >>> llm_guesses('bello, "buono", ottimo.\\naltro')
    ['bello', 'buono', 'ottimo']
    """
    first = response.split("\n")[0]
    fields: list[str] = []
    for match in _FIELD.findall(first):
        if match.startswith('"') and match.endswith('"'):
            fields.extend(_FIELD.findall(match[1:-1]))
        else:
            fields.append(match)
    guesses = [field.strip().replace('"', "") for field in fields][:LLM_GUESSES]
    if guesses:
        guesses[-1] = "".join(char for char in guesses[-1] if char.isalpha())
    return guesses


def llm_item(item: LlmItem, response: str) -> LlmScore:
    """One answer's credit: Σ count(g) over its guesses g that are gold words (exact
    match; a guess given twice counts twice), divided by the item's total count (left
    undivided when that total is 0)."""
    guesses = llm_guesses(response)
    counts: dict[str, int] = {}
    for word, count in item.answers:
        counts.setdefault(word, count)  # the first of a repeated word, as list.index finds
    credit = sum(counts[guess] for guess in guesses if guess in counts)
    total = sum(count for _, count in item.answers)
    return LlmScore(credit / total if total else credit, bool(guesses), bool(item.answers))


def llm_f1(scores: Sequence[LlmScore]) -> tuple[float, float, float]:
    """(precision, recall, F1): the summed credit over the answered items |A| and over
    the annotated items |T| (each over 1 when it is 0), F1 their harmonic mean (0 when
    both are 0), as ``_aggreg_ls`` computes them."""
    credit = sum(score.credit for score in scores)
    answered = sum(score.answered for score in scores)
    annotated = sum(score.annotated for score in scores)
    precision = credit / (answered or 1)
    recall = credit / (annotated or 1)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _decode(text: str, where: str) -> object:
    """One line's JSON (:func:`scoring.files.parse_json`: nesting too deep for the parser is
    malformed JSON too); :class:`FormatError` naming ``where`` when it is not JSON."""
    try:
        return parse_json(text)
    except json.JSONDecodeError as error:
        raise FormatError([f"{where}: not JSON ({error.msg}, column {error.colno})"]) from None


def read_llm_gold(lines: Sequence[str], name: str = "<gold>") -> tuple[LlmItem, ...]:
    """Every non-blank line as an :class:`LlmItem`; :class:`FormatError` lists each line
    that is not an object with ``answers``, a list of ``{"word": non-empty string, "count":
    integer >= 0}`` whose words hold neither ``::`` nor ``$`` (the harness joins words and
    counts with ``$$`` and entries with ``::``, and splits them again)."""
    items: list[LlmItem] = []
    problems: list[str] = []
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        where = f"{name}:{number}"
        try:
            obj = _decode(text, where)
        except FormatError as error:
            problems.extend(error.problems)
            continue
        problem = _gold_problem(obj)
        if problem:
            problems.append(f"{where}: {problem}")
            continue
        assert isinstance(obj, dict)
        answers = tuple((answer["word"], answer["count"]) for answer in obj["answers"])
        item_id = obj.get("id")
        items.append(LlmItem(answers, None if item_id is None else str(item_id)))
    if problems:
        raise FormatError(problems)
    return tuple(items)


def _gold_problem(obj: object) -> str | None:
    if not isinstance(obj, dict) or not isinstance(obj.get("answers"), list):
        return "expected an object with 'answers' (a list of {'word', 'count'})"
    for answer in obj["answers"]:
        if not isinstance(answer, dict) or set(answer) != {"word", "count"}:
            return f"answer {answer!r} must be an object with exactly 'word' and 'count'"
        word, count = answer["word"], answer["count"]
        if not isinstance(word, str) or not word or "::" in word or "$" in word:
            return f"word {word!r} must be a non-empty string without '::' or '$'"
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            return f"count {count!r} of {word!r} must be an integer >= 0"
    return None


def read_llm_responses(
    lines: Sequence[str], gold: Sequence[LlmItem], name: str = "<system>"
) -> tuple[str, ...]:
    """One answer per gold item, line by line (blank lines are answers too only when
    written as ``""``): a JSON string, or an object with a string ``response`` and
    optionally ``id`` (equal to the gold item's ``id`` when it has one)."""
    rows = [(number, text) for number, text in enumerate(lines, 1) if text.strip()]
    if len(rows) != len(gold):
        raise FormatError(
            [f"{name}: {len(rows)} answers for {len(gold)} gold items (one JSON line per item)"]
        )
    responses: list[str] = []
    problems: list[str] = []
    for (number, text), item in zip(rows, gold, strict=True):
        where = f"{name}:{number}"
        try:
            obj = _decode(text, where)
        except FormatError as error:
            problems.extend(error.problems)
            continue
        if isinstance(obj, dict):
            response = obj.get("response")
            given = obj.get("id")
            if given is not None and item.id is not None and str(given) != item.id:
                problems.append(f"{where}: id {given!r} where the gold has {item.id!r}")
                continue
        else:
            response = obj
        if not isinstance(response, str):
            problems.append(f"{where}: expected a JSON string or an object with 'response'")
            continue
        responses.append(response)
    if problems:
        raise FormatError(problems)
    return tuple(responses)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-t",
        dest="measure",
        choices=("best", "oot", "llm-f1"),
        default="best",
        help="best or oot (SYSTEM as score.pl reads it, GOLD a task gold file) or llm-f1 "
        "(GOLD and SYSTEM JSON Lines, Evalita-LLM's)",
    )
    add_rules_option(parser)


def evaluate_files(
    system: str | Path,
    data: str | Path,
    *,
    measure: Literal["best", "oot", "llm-f1"] = "best",
    rules: Rules = "fixed",
) -> Report:
    """``lexsub benchmark evalita SYSTEM --data GOLD -t MEASURE --rules RULES``: best or
    oot of the system file at ``system`` (as score.pl reads it) under ``rules`` against the
    task gold file at ``data``, or Evalita-LLM's F1 (both files JSON Lines)."""
    gold_path = str(data)
    if measure == "llm-f1":
        gold = read_llm_gold(read_lines(gold_path), gold_path)
        responses = read_llm_responses(read_lines(system), gold, str(system))
        precision, recall, f1 = llm_f1(
            [llm_item(item, response) for item, response in zip(gold, responses, strict=True)]
        )
        metrics = {"F1": 100 * f1, "precision": 100 * precision, "recall": 100 * recall}
        sign = signature("evalita.llm-f1", ("guesses", LLM_GUESSES), ("data", data_name(data)))
        return Report("evalita", metrics, sign)
    return official_report("evalita", measure, system, gold_path, rules)


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files` with its options."""
    return evaluate_files(args.system, args.data, measure=args.measure, rules=args.rules)
