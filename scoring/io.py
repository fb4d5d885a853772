"""Readers and writers for the task's files: gold, mwgold and system answers (best, oot, mw).

Two ways of reading, for two purposes:

* ``read_lines`` + the compat parsers in :mod:`scoring.official` read whatever score.pl
  reads, byte for byte as it does (bytes that are not UTF-8 survive through
  ``surrogateescape``);
* the strict readers here (``read_gold_lines``, ``read_system``) are for new files: they return
  typed values and refuse a malformed line with ``FILE:LINE: what is wrong (the rule)``.

Formats (McCarthy & Navigli 2007, section 2.2): gold and mwgold lines are
``LEXELT ID :: sub count;sub count;``; best and mw answers ``LEXELT ID :: a;b``; oot
answers ``LEXELT ID ::: a;b;…`` (at most 10 are scored).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from scoring.files import refuse_wide
from scoring.types import LEXELT, SystemKind


class _Line(Protocol):
    """A parsed line of any kind: it names its item."""

    @property
    def id(self) -> str: ...


T = TypeVar("T", bound=_Line)
SEPARATORS: dict[str, str] = {"best": "::", "oot": ":::", "mw": "::"}
ENCODING = "utf-8"
ERRORS = "surrogateescape"


class FormatError(ValueError):
    """A file broke a rule of its format. ``problems`` holds every ``FILE:LINE: …`` message."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        shown = "\n".join(self.problems[:20])
        more = len(self.problems) - 20
        super().__init__(shown + (f"\n… and {more} more problems" if more > 0 else ""))


def json_object_problem(obj: object, keys: Sequence[str]) -> str | None:
    """What is wrong with one decoded JSON Lines object that must have exactly ``keys``,
    the first keys of them non-empty strings where the caller checks so; None when its
    keys are right. The one rule of the JSON Lines files (annotators, judgements).

    >>> json_object_problem({"a": 1}, ("a", "b"))
    'missing b (every line has a, b)'
    """
    if not isinstance(obj, dict):
        return f"{type(obj).__name__} is not an object (each line is one JSON object)"
    missing = [key for key in keys if key not in obj]
    if missing:
        return f"missing {', '.join(missing)} (every line has {', '.join(keys)})"
    extra = sorted(set(obj) - set(keys))
    if extra:
        return f"unknown key {', '.join(extra)} (keys are {', '.join(keys)})"
    return None


def read_lines(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a file as Perl's ``<FH>`` sees them, without their ``\\n``.

    A ``\\r`` before the newline is kept (score.pl keeps it); bytes that are not UTF-8
    are kept through ``surrogateescape`` so that writing a line back gives its bytes.
    """
    with open(path, "rb") as file:  # not pathlib: the scorer's start-up does without it
        data = file.read()
    refuse_wide(data, os.fspath(path))
    return split_lines(data.decode(ENCODING, ERRORS))


def split_lines(text: str) -> list[str]:
    """Lines split on ``\n`` only (unlike ``str.splitlines``), as Perl reads them."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def encode(text: str) -> bytes:
    """Bytes of a string read by :func:`read_lines` (the inverse of its decoding)."""
    return text.encode(ENCODING, ERRORS)


@dataclass(frozen=True, slots=True)
class GoldEntry:
    """One substitute of a gold line and how many annotators gave it."""

    substitute: str
    count: int | float
    """Annotators who gave it, or a decimal weight (SemDis 2014's averaged scores)."""


@dataclass(frozen=True, slots=True)
class GoldLine:
    """One line of a gold or mwgold file, as the strict reader returns it."""

    lexelt: str
    id: str
    entries: tuple[GoldEntry, ...]
    line: int = 0

    @property
    def pos(self) -> str:
        return pos_of(self.lexelt)


@dataclass(frozen=True, slots=True)
class SystemLine:
    """One line of a system file: the guesses for one item, in the system's order."""

    lexelt: str
    id: str
    answers: tuple[str, ...]
    line: int = 0


def pos_of(lexelt: str) -> str:
    """The part of speech of a lexelt: its last dotted part (``stand.n.v`` → ``v``)."""
    return lexelt.rsplit(".", 1)[-1] if "." in lexelt else ""


_ID = re.compile(r"\S+")
_COUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def _split_head(text: str, separator: str) -> tuple[str, str, str] | str:
    """Split ``LEXELT ID SEP REST`` or say which rule the line broke."""
    marker = f" {separator}"
    at = text.find(marker)
    if at < 0 or (separator == "::" and text[at + 3 : at + 4] == ":"):
        return f"expected 'LEXELT ID {separator} ANSWERS' (no ' {separator}' found)"
    head, rest = text[:at], text[at + len(marker) :]
    if rest and rest[0] != " ":
        return f"expected one space after '{separator}'"
    rest = rest[1:]
    parts = head.split(" ")
    if len(parts) != 2:
        return "expected exactly 'LEXELT ID' before the separator, single spaces"
    lexelt, item_id = parts
    if not LEXELT.fullmatch(lexelt):
        return f"lexelt {lexelt!r} is not lemma.pos or lemma.pos.pos with pos in n, v, a, r"
    if not _ID.fullmatch(item_id):
        return f"id {item_id!r} is empty"
    return lexelt, item_id, rest


def _fields(rest: str) -> list[str]:
    """``a;b;`` → ``['a', 'b']``: one trailing ``;`` allowed."""
    fields = rest.split(";")
    if fields and fields[-1] == "":
        fields.pop()
    return fields


def parse_gold_line(text: str, line: int = 0, name: str = "<gold>") -> GoldLine:
    """Parse one gold or mwgold line strictly; raise :class:`FormatError` naming the rule."""
    where = f"{name}:{line}"
    if text.endswith("\r"):
        text = text[:-1]
    head = _split_head(text, "::")
    if isinstance(head, str):
        raise FormatError([f"{where}: {head}"])
    lexelt, item_id, rest = head
    entries: list[GoldEntry] = []
    seen: set[str] = set()
    for field in _fields(rest):
        substitute, space, count = field.rpartition(" ")
        if not space or not _COUNT.fullmatch(count) or not float(count) > 0:
            raise FormatError(
                [
                    f"{where}: entry {field!r} must be 'SUBSTITUTE COUNT' with a count of 1 "
                    "or more, or a decimal weight above 0 (such as 2.5)"
                ]
            )
        if substitute != substitute.strip() or "  " in substitute or not substitute:
            raise FormatError(
                [f"{where}: substitute {substitute!r} must be non-empty, single-spaced, trimmed"]
            )
        if substitute in seen:
            raise FormatError([f"{where}: substitute {substitute!r} is listed twice"])
        seen.add(substitute)
        entries.append(GoldEntry(substitute, int(count) if count.isdigit() else float(count)))
    return GoldLine(lexelt, item_id, tuple(entries), line)


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
            "lines (ranked candidates: scoring.ranking.parse_ranking_line)"
        )
    head = _split_head(text, separator)
    if isinstance(head, str):
        raise FormatError([f"{where}: {head}"])
    lexelt, item_id, rest = head
    answers = tuple(_fields(rest)) if kind != "mw" else ((rest,) if rest else ())
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


def parse_all(
    lines: Iterable[str], name: str, parse: Callable[[str, int, str], T], what: str
) -> tuple[T, ...]:
    """Parse every non-blank line with ``parse`` (text, line number, ``name``), each
    result naming its item (``id``); raise :class:`FormatError` with every problem,
    a repeated id included (``what`` says why ids must be unique)."""
    result: list[T] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            value = parse(text, number, name)
        except FormatError as error:
            problems.extend(error.problems)
            continue
        item_id = value.id
        if item_id in seen:
            problems.append(
                f"{name}:{number}: id {item_id} already on line {seen[item_id]} ({what})"
            )
            continue
        seen[item_id] = number
        result.append(value)
    if problems:
        raise FormatError(problems)
    return tuple(result)


def parse_gold_lines(lines: Sequence[str], name: str = "<gold>") -> tuple[GoldLine, ...]:
    """Parse gold or mwgold lines strictly: every problem is reported, nothing is skipped
    (what :func:`scoring.gold.read_gold` checks under ``rules="strict"``)."""
    return parse_all(lines, name, parse_gold_line, "ids must be unique")


def read_gold_lines(path: str | os.PathLike[str]) -> tuple[GoldLine, ...]:
    """Read a gold or mwgold file's lines strictly (:func:`parse_gold_lines`)."""
    return parse_gold_lines(read_lines(path), str(path))


def read_system(path: str | os.PathLike[str], kind: SystemKind) -> tuple[SystemLine, ...]:
    """Read a system file strictly: every problem is reported, nothing is skipped."""

    def parse(text: str, number: int, name: str) -> SystemLine:
        return parse_system_line(text, kind, number, name)

    return parse_all(read_lines(path), str(path), parse, "score.pl would ignore this line")


def format_gold_line(gold: GoldLine) -> str:
    """The task's gold line: ``lexelt id :: sub count;sub count;`` (trailing ``;``)."""
    entries = "".join(f"{e.substitute} {e.count};" for e in gold.entries)
    return f"{gold.lexelt} {gold.id} :: {entries}"


def format_system_line(answer: SystemLine, kind: SystemKind) -> str:
    """A system line in the format of ``kind`` (answers joined by ``;``)."""
    return f"{answer.lexelt} {answer.id} {SEPARATORS[kind]} {';'.join(answer.answers)}"


def write_lines(path: str | os.PathLike[str], lines: Iterable[str]) -> None:
    """Write lines with ``\\n`` ends, bytes preserved as read."""
    with open(path, "wb") as file:
        file.write(b"".join(encode(line) + b"\n" for line in lines))
