"""A study's comprehension check: the organiser's multiple-choice questions, as text.

The format (one question a block, blocks apart by a blank line)::

    What do you type when no single word fits?
    - a word that is close enough
    * the phrase, in the phrase box
    - nothing

The first line of a block is the question; each following line is an option, marked
``*`` when it is the correct one and ``-`` when it is not. A question has at least two
options and exactly one correct one. Lines starting with ``#`` are comments.

A participant passes when every question is answered with its correct option; as on
Prolific, they have two attempts (:data:`ATTEMPTS`), and a second failure screens them
out. Pure: no web and no database here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

ATTEMPTS = 2
"""Attempts at the comprehension check (Prolific's rule): a second failure screens out."""
MAX_TEXT = 20000
"""The longest comprehension text (characters)."""


class ComprehensionError(ValueError):
    """The text breaks the format: the message names the line, the value and the rule."""


@dataclass(frozen=True)
class Question:
    """One question: its text, its options in order, and the index of the correct one."""

    text: str
    options: tuple[str, ...]
    correct: int


def parse_questions(text: str) -> tuple[Question, ...]:
    """The questions of ``text`` (the format above), in order; () for an empty text.

    >>> [q.correct for q in parse_questions("Q1\\n- no\\n* yes\\n\\nQ2\\n* a\\n- b")]
    [1, 0]
    """
    questions: list[Question] = []
    block: list[tuple[int, str]] = []
    for number, line in enumerate([*text.splitlines(), ""], 1):
        line = line.strip()
        if line.startswith("#"):
            continue
        if line:
            block.append((number, line))
        elif block:
            questions.append(_question(block))
            block = []
    return tuple(questions)


def _question(block: list[tuple[int, str]]) -> Question:
    (number, text), options = block[0], block[1:]
    if text[0] in "*-":
        raise ComprehensionError(
            f"line {number}: {text[:60]!r} starts a question with an option mark; a question "
            "is a line of text followed by its options"
        )
    choices: list[str] = []
    correct: list[int] = []
    for line_number, line in options:
        mark, option = line[0], line[1:].strip()
        if mark not in "*-" or not option:
            raise ComprehensionError(
                f"line {line_number}: {line[:60]!r} is not an option: an option is '* text' "
                "(the correct one) or '- text'"
            )
        if mark == "*":
            correct.append(len(choices))
        choices.append(option)
    if len(choices) < 2:
        raise ComprehensionError(f"line {number}: question {text[:60]!r} has fewer than 2 options")
    if len(correct) != 1:
        raise ComprehensionError(
            f"line {number}: question {text[:60]!r} marks {len(correct)} options correct "
            "with '*'; exactly one is"
        )
    return Question(text, tuple(choices), correct[0])


def passes(questions: tuple[Question, ...], answers: Mapping[int, int | None]) -> bool:
    """Whether ``answers`` (question index → chosen option index, None: unanswered)
    chooses the correct option of every question.

    >>> qs = parse_questions("Q\\n- no\\n* yes")
    >>> passes(qs, {0: 1}), passes(qs, {0: 0}), passes(qs, {})
    (True, False, False)
    """
    return all(answers.get(index) == question.correct for index, question in enumerate(questions))
