"""The items a generated system answers, read from the task's XML or a TSAR-2022 /
MLSP-2024 file, and its answers written as a best, oot, ranked-candidates or TSAR file
(each read back unchanged by ``lexsub score``, ``lexsub compare`` or ``lexsub benchmark``).

An item has its key (``lexelt`` and ``id`` for the task's XML; the sentence and the word
for TSAR), the target's lemma and its part of speech (n, v, a, r; None when the input does
not give one, as TSAR's), and the target as written. Answers are ranked candidates, best
first.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from scoring.errors import FormatError
from scoring.files.bounded import bounded_lines, read_bounded, refuse_wide
from scoring.formats.ranked import RankingLine, Scored, format_ranked
from scoring.formats.system import SystemLine, format_system
from scoring.formats.taskxml import parse_lexsub_xml
from scoring.formats.text import read_universal_lines
from scoring.formats.tsar import TsarLine, format_tsar, parse_tsar

FORMATS = ("best", "oot", "ranked", "tsar")
"""What ``lexsub generate`` writes."""
OOT_SIZE = 10
"""The most guesses oot scores."""


@dataclass(frozen=True, slots=True)
class Item:
    """One target in context to answer."""

    lexelt: str
    id: str
    lemma: str
    pos: str | None
    word: str
    sentence: str


def is_task_xml(data: bytes) -> bool:
    """Whether a file's bytes are the task's XML (they start with ``<``) rather than a
    TSAR-2022 / MLSP-2024 file."""
    return data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<")


def input_kind(path: str | os.PathLike[str]) -> str:
    """``xml`` for the task's XML, ``tsar`` otherwise (what :func:`read_items` reads it as)."""
    with open(path, "rb") as file:
        return "xml" if is_task_xml(file.read(4096)) else "tsar"


def read_items(path: str | os.PathLike[str]) -> tuple[Item, ...]:
    """The items of the task's XML (a file starting with ``<``) or of a TSAR-2022 /
    MLSP-2024 substitutes file (``SENTENCE<TAB>WORD…``); FormatError naming the file and
    the rule otherwise (an empty file included)."""
    name = os.fspath(path)
    data = read_bounded(path)
    if not data.strip():
        raise FormatError([f"{name}: the file is empty (the task's XML or a TSAR file)"])
    if is_task_xml(data):
        result = parse_lexsub_xml(data, name)
        return tuple(
            Item(lexelt.item, instance.id, lexelt.lemma, lexelt.pos, instance.head, instance.text)
            for lexelt in result.lexelts
            for instance in lexelt.instances
        )
    lines = parse_tsar(read_universal_lines(name), name)
    return tuple(
        Item(line.sentence, line.word, line.word.strip(), None, line.word, line.sentence)
        for line in lines
    )


CHUNK = 1024
"""Lines of a TSAR file read at a time by :func:`iter_items`."""


def _tsar_chunks(path: str | os.PathLike[str]) -> Iterator[tuple[int, list[str]]]:
    """A TSAR file's lines, :data:`CHUNK` at a time, with the number of each chunk's first
    line (universal newlines, bytes that are not UTF-8 kept: as :func:`read_items`)."""
    with open(path, "rb") as file:
        refuse_wide(file.read(4), os.fspath(path))
    with open(path, encoding="utf-8", errors="surrogateescape", newline=None) as file:
        start = 1
        while lines := [line.rstrip("\n") for line in islice(file, CHUNK)]:
            yield start, lines
            start += len(lines)


def check_limits(path: str | os.PathLike[str]) -> None:
    """The reading limits of every command (:func:`scoring.files.bounded.command_bounds`) on a
    file read a line at a time (:func:`scoring.files.bounded.bounded_lines`):
    :class:`~scoring.errors.BoundError` for a file or a line past them, found while
    holding at most one line."""
    name = os.fspath(path)
    with open(name, "rb") as file:
        for _ in bounded_lines(file, name):
            pass


def count_items(path: str | os.PathLike[str]) -> int:
    """How many items :func:`iter_items` yields, every line checked first (the same
    FormatError as :func:`read_items`); a TSAR file is read a chunk at a time."""
    if input_kind(path) == "xml":
        return len(read_items(path))
    check_limits(path)
    with open(path, "rb") as file:
        if not any(block.strip() for block in iter(lambda: file.read(1 << 20), b"")):
            raise FormatError(
                [f"{os.fspath(path)}: the file is empty (the task's XML or a TSAR file)"]
            )
    return sum(
        len(parse_tsar(lines, os.fspath(path), start)) for start, lines in _tsar_chunks(path)
    )


def iter_items(path: str | os.PathLike[str]) -> Iterator[Item]:
    """The items of :func:`read_items`, a TSAR file's read a chunk at a time, so that a run
    over them holds one chunk, not the file (check the file with :func:`count_items`
    first: a broken line is found here only when reached)."""
    if input_kind(path) == "xml":
        yield from read_items(path)
        return
    for start, lines in _tsar_chunks(path):
        for line in parse_tsar(lines, os.fspath(path), start):
            yield Item(line.sentence, line.word, line.word.strip(), None, line.word, line.sentence)


def format_answers(items: Sequence[Item], answers: Sequence[Sequence[str]], format: str) -> str:
    """The file of ``answers`` (each item's candidates, best first) in ``format``: best
    (the first candidate), oot (the first ten), ranked (every candidate, scored by rank:
    1, 1/2, 1/3 …) or tsar (the sentence, the word, every candidate). An item with no
    candidate is left out of best, oot and ranked files (score.pl counts it as not
    attempted) and written with none in a TSAR file."""
    if format == "tsar":
        return format_tsar(
            TsarLine(item.sentence, item.word, tuple(found), "")
            for item, found in zip(items, answers, strict=True)
        )
    answered = [(item, found) for item, found in zip(items, answers, strict=True) if found]
    if format == "ranked":
        return format_ranked(
            RankingLine(
                item.lexelt,
                item.id,
                tuple(Scored(c, round(1 / rank, 6)) for rank, c in enumerate(found, 1)),
            )
            for item, found in answered
        )
    if format not in ("best", "oot"):
        raise ValueError(f"format {format!r} is not one of {', '.join(FORMATS)}")
    size = 1 if format == "best" else OOT_SIZE
    return format_system(
        (SystemLine(item.lexelt, item.id, tuple(found[:size])) for item, found in answered),
        "best" if format == "best" else "oot",
    )


def write_answers(path: str | os.PathLike[str], text: str) -> None:
    """Write a generated file (UTF-8, ``\\n`` line ends)."""
    Path(path).write_text(text, encoding="utf-8", newline="\n")
