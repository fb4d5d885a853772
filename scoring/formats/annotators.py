"""``annotators.jsonl``: one annotator's answer to one item a line, as the gold compiler
writes it (:mod:`annotate.gold.write`) and the agreement measures read it
(:mod:`scoring.agreement`). Each line is one JSON object with exactly the keys::

    {"annotator": "1", "lexelt": "bright.a", "instance": "1", "kind": "substitutes",
     "substitutes": ["clever", "smart"], "multiword": null}

``kind`` is one of substitutes, name, nil; ``substitutes`` a sorted list without repeats
(it is a set), non-empty exactly when ``kind`` is substitutes, each a valid substitute
(:func:`scoring.substitute.check_substitute`); ``multiword`` null or a non-empty string.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from scoring.errors import FormatError
from scoring.files import json_lines
from scoring.files.bounded import read_text
from scoring.formats.text import json_object_problem, split_lines
from scoring.substitute import InvalidSubstitute, check_substitute
from scoring.types import ANSWER_KINDS, Answer, pos_of

FIELDS = ("annotator", "lexelt", "instance", "kind", "substitutes", "multiword")


@dataclass(frozen=True, slots=True)
class Item:
    """One item (lexelt, instance) and its responses, sorted by annotator."""

    lexelt: str
    instance: str
    responses: tuple[Answer, ...]

    @property
    def id(self) -> str:
        """The item id as the gold file writes it: ``lexelt instance``."""
        return f"{self.lexelt} {self.instance}"

    @property
    def pos(self) -> str:
        """The part of speech: the last dotted part of the lexelt."""
        return pos_of(self.lexelt)

    @property
    def answers(self) -> tuple[frozenset[str], ...]:
        """The non-empty h_i, in annotator order."""
        return tuple(r.substitutes for r in self.responses if r.substitutes)

    @property
    def in_t(self) -> bool:
        """Whether the item is in T: non-empty answers from at least two annotators."""
        return len(self.answers) >= 2

    def without(self, annotator: str) -> Item:
        """The item with one annotator's response removed."""
        kept = tuple(r for r in self.responses if r.annotator != annotator)
        return Item(self.lexelt, self.instance, kept)


def _substitute_problem(text: str, seen: dict[str, str | None]) -> str | None:
    """Why ``text`` is no valid substitute (:mod:`scoring.substitute`, the rule the form
    and the compiler apply), or None; ``seen`` caches the answers."""
    if text not in seen:
        try:
            check_substitute(text)
            seen[text] = None
        except InvalidSubstitute as error:
            seen[text] = f"substitute {error} ({error.rule})"
    return seen[text]


def _response(obj: Any, seen: dict[str, str | None]) -> tuple[str, str, Answer] | str:
    """The (lexelt, instance, response) of one decoded line, or the problem with it."""
    problem = json_object_problem(obj, FIELDS)
    if problem is not None:
        return problem
    for key in ("annotator", "lexelt", "instance"):
        if not isinstance(obj[key], str) or not obj[key]:
            return f"{key} {obj[key]!r} is not a non-empty string"
    kind = obj["kind"]
    if kind not in ANSWER_KINDS:
        return f"kind {kind!r} is not one of {', '.join(ANSWER_KINDS)}"
    subs = obj["substitutes"]
    if not isinstance(subs, list) or not all(isinstance(s, str) and s for s in subs):
        return f"substitutes {subs!r} is not a list of non-empty strings"
    for text in subs:
        problem = _substitute_problem(text, seen)
        if problem:
            return problem
    if subs != sorted(set(subs)):
        return f"substitutes {subs!r} is not a sorted list without repeats (it is a set)"
    if (kind == "substitutes") != bool(subs):
        return (
            f"kind {kind!r} with {len(subs)} substitutes (kind substitutes has at least "
            "one, name and nil have none)"
        )
    multiword = obj["multiword"]
    if multiword is not None and (not isinstance(multiword, str) or not multiword):
        return f"multiword {multiword!r} is neither null nor a non-empty string"
    response = Answer(obj["annotator"], kind, frozenset(subs), multiword)
    return obj["lexelt"], obj["instance"], response


def parse_annotators(lines: Iterable[str], name: str = "<annotators>") -> tuple[Item, ...]:
    """Items from ``annotators.jsonl`` lines (written by ``annotate.gold.write``), sorted by
    (lexelt, instance); every problem is reported as ``FILE:LINE: problem (rule)`` in one
    :class:`scoring.errors.FormatError`. Blank lines are errors too."""
    problems: list[str] = []
    grouped: dict[tuple[str, str], dict[str, Answer]] = {}
    seen: dict[str, str | None] = {}
    for number, obj in json_lines(lines, name, problems.append):
        parsed = _response(obj, seen)
        if isinstance(parsed, str):
            problems.append(f"{name}:{number}: {parsed}")
            continue
        lexelt, instance, response = parsed
        if not pos_of(lexelt):
            problems.append(f"{name}:{number}: lexelt {lexelt!r} has no PoS (word.pos)")
            continue
        answers = grouped.setdefault((lexelt, instance), {})
        if response.annotator in answers:
            problems.append(
                f"{name}:{number}: annotator {response.annotator!r} answers "
                f"{lexelt} {instance} twice (one line per annotator and item)"
            )
            continue
        answers[response.annotator] = response
    if not grouped and not problems:  # every line gives a response or a problem
        problems.append(
            f"{name}: the file is empty (one JSON object per line is expected: "
            "the annotators.jsonl the compiler writes)"
        )
    if problems:
        raise FormatError(problems)
    return tuple(
        Item(lexelt, instance, tuple(answers[a] for a in sorted(answers)))
        for (lexelt, instance), answers in sorted(grouped.items())
    )


def read_annotators(path: str | Path) -> tuple[Item, ...]:
    """:func:`parse_annotators` on a file."""
    return parse_annotators(split_lines(read_text(path)), str(path))


def annotator_lines(items: Iterable[tuple[str, str, Iterable[Answer]]]) -> Iterator[str]:
    """The lines (without newline) of ``(lexelt, instance, answers)`` items: for each answer
    in the order given, what ``json.dumps`` gives for its object (non-ASCII characters as
    they are, substitutes sorted), built from a cache of encoded strings because there may
    be millions."""
    encoded: dict[str, str] = {}

    def quoted(text: str) -> str:
        found = encoded.get(text)
        if found is None:
            found = encoded[text] = encode_basestring(text)
        return found

    for lexelt, instance, answers in items:
        head = f'"lexelt": {quoted(lexelt)}, "instance": {quoted(instance)}, '
        for answer in answers:
            substitutes = ", ".join(map(quoted, sorted(answer.substitutes)))
            multiword = "null" if answer.multiword is None else quoted(answer.multiword)
            yield (
                f'{{"annotator": {quoted(answer.annotator)}, {head}"kind": '
                f'{quoted(answer.kind)}, "substitutes": [{substitutes}], '
                f'"multiword": {multiword}}}'
            )


def format_annotators(items: Iterable[Item]) -> str:
    """The ``annotators.jsonl`` text :func:`parse_annotators` reads back: one line per
    answer (:func:`annotator_lines`), items in the order given, answers in their order.

    >>> items = (Item("bright.a", "1", (Answer("1", "nil", frozenset()),)),)
    >>> format_annotators(items) == (
    ...     '{"annotator": "1", "lexelt": "bright.a", "instance": "1", "kind": "nil", '
    ...     '"substitutes": [], "multiword": null}\\n'
    ... )
    True
    """
    rows = ((item.lexelt, item.instance, item.responses) for item in items)
    return "".join(line + "\n" for line in annotator_lines(rows))
