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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scoring.bounded import read_bounded
from scoring.formats import FormatError
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


def read_items(path: str | os.PathLike[str]) -> tuple[Item, ...]:
    """The items of the task's XML (a file starting with ``<``) or of a TSAR-2022 /
    MLSP-2024 substitutes file (``SENTENCE<TAB>WORD…``); FormatError naming the file and
    the rule otherwise (an empty file included)."""
    name = os.fspath(path)
    data = read_bounded(path)
    if not data.strip():
        raise FormatError([f"{name}: the file is empty (the task's XML or a TSAR file)"])
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
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
