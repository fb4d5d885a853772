"""Lines as Perl reads them: split on ``\\n`` only, a ``\\r`` before it kept, and bytes
that are not UTF-8 kept through ``surrogateescape`` so that writing a line back gives its
bytes (score.pl echoes them). The line-by-line strict parse shared by the gold, system and
ranked formats (:func:`parse_all`), and the one rule of a JSON Lines object's keys.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from scoring.errors import FormatError, Problems
from scoring.files.bounded import read_text
from scoring.types import LEXELT

ENCODING = "utf-8"
ERRORS = "surrogateescape"

if TYPE_CHECKING:
    from typing import Protocol, TypeVar

    class _Line(Protocol):
        """A parsed line of any kind: it names its item."""

        @property
        def id(self) -> str: ...

    T = TypeVar("T", bound=_Line)


def read_lines(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a file as Perl's ``<FH>`` sees them, without their ``\\n``
    (:func:`scoring.files.bounded.read_text` with ``perl=True``, :func:`split_lines`)."""
    return split_lines(read_text(path, perl=True))


def split_lines(text: str) -> list[str]:
    """Lines split on ``\\n`` only (unlike ``str.splitlines``), as Perl reads them.

    >>> split_lines("a\\r\\nb\\x0cc\\n")
    ['a\\r', 'b\\x0cc']
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def universal_lines(text: str) -> list[str]:
    """Lines as Python's universal newlines split them (``\\n``, ``\\r\\n``, ``\\r``),
    without their ends, as ``open(…).readlines()`` reads them (the TSAR-2022 and MLSP-2024
    scripts do).

    >>> universal_lines("a\\r\\nb\\rc\\n")
    ['a', 'b', 'c']
    """
    return split_lines(text.replace("\r\n", "\n").replace("\r", "\n"))


def read_universal_lines(path: str | os.PathLike[str]) -> list[str]:
    """:func:`universal_lines` of a file read as Perl reads it
    (:func:`scoring.files.bounded.read_text` with ``perl=True``: a byte-order mark kept, as
    the official scripts keep it; bytes that are not UTF-8 kept through
    ``surrogateescape``)."""
    return universal_lines(read_text(path, perl=True))


def as_text(source: str | Sequence[str]) -> str:
    """Accept a whole text or a sequence of lines (without their ``\\n``)."""
    if isinstance(source, str):
        return source
    return "".join(line + "\n" for line in source)


def encode(text: str) -> bytes:
    """Bytes of a string read by :func:`read_lines` (the inverse of its decoding:
    UTF-8 with ``surrogateescape``)."""
    return text.encode(ENCODING, ERRORS)


def write_lines(path: str | os.PathLike[str], lines: Iterable[str]) -> None:
    """Write lines with ``\\n`` ends, bytes preserved as read."""
    with open(path, "wb") as file:
        file.write(b"".join(encode(line) + b"\n" for line in lines))


def parse_all(
    lines: Iterable[str], name: str, parse: Callable[[str, int, str], T], what: str
) -> tuple[T, ...]:
    """Parse every non-blank line with ``parse`` (text, line number, ``name``), each
    result naming its item (``id``); raise :class:`FormatError` with every problem,
    a repeated id included (``what`` says why ids must be unique)."""
    result: list[T] = []
    problems = Problems()  # the first 20 kept, the rest counted
    seen: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            value = parse(text, number, name)
        except FormatError as error:
            problems.extend(error)
            continue
        item_id = value.id
        if item_id in seen:
            problems.add(f"{name}:{number}: id {item_id} already on line {seen[item_id]} ({what})")
            continue
        seen[item_id] = number
        result.append(value)
    if problems:
        raise problems.error()
    return tuple(result)


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


_ID = re.compile(r"\S+")


def split_head(text: str, separator: str) -> tuple[str, str, str] | str:
    """Split a strict line ``LEXELT ID SEP REST`` (gold, mwgold, best, oot, mw) into its
    three parts, or say which rule the line broke."""
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


def fields(rest: str) -> list[str]:
    """``a;b;`` → ``['a', 'b']``: one trailing ``;`` allowed.

    >>> fields("a;b;"), fields("a;;b")
    (['a', 'b'], ['a', '', 'b'])
    """
    found = rest.split(";")
    if found and found[-1] == "":
        found.pop()
    return found
