"""System files (McCarthy & Navigli 2007, section 2.2): best and mw answers
``LEXELT ID :: a;b``, oot answers ``LEXELT ID ::: a;b;…`` (at most 10 are scored).

This is the strict reading, for new files: typed lines, and a malformed line refused with
``FILE:LINE: what is wrong (the rule)``. The scorer reads whatever score.pl reads, as it
does, line by line through :mod:`scoring.formats.lines` (:mod:`scoring.measures.official.items`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import FormatError
from scoring.formats.ranked import Scored, as_ranking
from scoring.formats.text import fields, parse_all, read_lines, split_head
from scoring.types import SystemKind

SEPARATORS: dict[str, str] = {"best": "::", "oot": ":::", "mw": "::"}


@dataclass(frozen=True, slots=True)
class SystemLine:
    """One line of a system file: the guesses for one item, in the system's order."""

    lexelt: str
    id: str
    answers: tuple[str, ...]
    line: int = 0


def parse_system_line(
    text: str, kind: SystemKind, line: int = 0, name: str = "<system>"
) -> SystemLine:
    """Parse one system line strictly (answers trimmed, none empty, at most 10 for oot)."""
    where = f"{name}:{line}"
    if text.endswith("\r"):
        text = text[:-1]
    separator = SEPARATORS.get(kind)
    if separator is None:
        raise ValueError(
            f"kind {kind!r}: parse_system_line reads {', '.join(SEPARATORS)} "
            "lines (ranked candidates: scoring.formats.ranked.parse_ranking_line)"
        )
    head = split_head(text, separator)
    if isinstance(head, str):
        raise FormatError([f"{where}: {head}"])
    lexelt, item_id, rest = head
    answers = tuple(fields(rest)) if kind != "mw" else ((rest,) if rest else ())
    for answer in answers:
        if not answer.strip():
            raise FormatError([f"{where}: empty answer in {rest!r} (answers are separated by ';')"])
        if answer != answer.strip():
            raise FormatError([f"{where}: answer {answer!r} has leading or trailing white space"])
    if kind == "oot" and len(answers) > 10:
        raise FormatError([f"{where}: {len(answers)} answers; oot scores at most 10"])
    if kind == "oot" and len(set(answers)) != len(answers):
        raise FormatError([f"{where}: an answer is repeated (oot would credit it twice)"])
    return SystemLine(lexelt, item_id, answers, line)


def parse_system(
    lines: Iterable[str], kind: SystemKind, name: str = "<system>"
) -> tuple[SystemLine, ...]:
    """Parse a system file's lines strictly: every problem is reported, nothing is
    skipped, a repeated id refused (score.pl would ignore the later line)."""

    def parse(text: str, number: int, name: str) -> SystemLine:
        return parse_system_line(text, kind, number, name)

    return parse_all(lines, name, parse, "score.pl would ignore this line")


def read_system(path: str | os.PathLike[str], kind: SystemKind) -> tuple[SystemLine, ...]:
    """Read a system file strictly (:func:`parse_system`)."""
    return parse_system(read_lines(path), kind, str(path))


def format_system_line(answer: SystemLine, kind: SystemKind) -> str:
    """A system line in the format of ``kind`` (answers joined by ``;``)."""
    return f"{answer.lexelt} {answer.id} {SEPARATORS[kind]} {';'.join(answer.answers)}"


def format_system(lines: Iterable[SystemLine], kind: SystemKind) -> str:
    """A system file's text: :func:`format_system_line` of each line, each ending ``\\n``."""
    return "".join(format_system_line(line, kind) + "\n" for line in lines)


def system_rankings(lines: Iterable[SystemLine]) -> dict[str, tuple[Scored, ...]]:
    """A best or oot system's answers as rankings (:func:`as_ranking`)."""
    return {line.id: as_ranking(line.answers) for line in lines}


def read_system_ranking(
    path: str | os.PathLike[str], kind: SystemKind
) -> dict[str, tuple[Scored, ...]]:
    """Read a best or oot file with :func:`read_system` as rankings."""
    return system_rankings(read_system(path, kind))
