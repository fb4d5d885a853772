"""Ranked candidates: ``LEXELT ID :::: SCORE CANDIDATE;SCORE CANDIDATE`` (docs/ranking.md),
the score first so that a multiword candidate needs no quoting; four colons so that the
strict best/oot readers refuse a ranking file and this reader refuses an oot file. A best or
oot file is read as a ranking too (:func:`as_ranking`: the file order is the rank).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from scoring.errors import FormatError
from scoring.formats.text import parse_all, read_lines, split_lines
from scoring.types import LEXELT

SEPARATOR = "::::"
"""Between ``LEXELT ID`` and the scored candidates of a ranking line."""


@dataclass(frozen=True, slots=True)
class Scored:
    """One candidate and the system's score for it (higher is better)."""

    candidate: str
    score: float


@dataclass(frozen=True, slots=True)
class RankingLine:
    """One line of a ranked-candidates file: the scored candidates of one item, as given."""

    lexelt: str
    id: str
    candidates: tuple[Scored, ...]
    line: int = 0


_HEAD = re.compile(rf"(\S+) (\S+) {SEPARATOR}(?: (.*))?")
_SCORE = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def _parse_entry(field: str, where: str) -> Scored:
    score_text, space, candidate = field.partition(" ")
    if not space:
        raise FormatError([f"{where}: entry {field!r} must be 'SCORE CANDIDATE'"])
    if not _SCORE.fullmatch(score_text):
        raise FormatError(
            [
                f"{where}: score {score_text!r} of {field!r} is not a decimal "
                "number (scores come first: 'SCORE CANDIDATE')"
            ]
        )
    score = float(score_text)
    if not math.isfinite(score):
        raise FormatError(
            [f"{where}: score {score_text!r} is not finite; scores must be finite numbers"]
        )
    if not candidate or candidate != " ".join(candidate.split()):
        raise FormatError(
            [f"{where}: candidate {candidate!r} must be non-empty, trimmed and single-spaced"]
        )
    return Scored(candidate, score)


def parse_ranking_line(
    text: str, line: int = 0, name: str = "<ranking>", scored: bool = True
) -> RankingLine:
    """Parse ``LEXELT ID :::: SCORE CANDIDATE;SCORE CANDIDATE`` strictly (one trailing
    ``;`` allowed); raise :class:`FormatError` naming the rule broken.

    ``scored=False`` reads GermEval 2015's GAP file instead (Miller et al. 2015):
    ``LEXELT ID :::: CANDIDATE;CANDIDATE``, best first and unscored (the file order is the
    rank, :func:`as_ranking`), the separator followed by a space, each candidate non-empty
    without outer spaces and given once.

    >>> line = parse_ranking_line("Ärger.n 7 :::: Wut;Zorn", scored=False)
    >>> [(item.candidate, item.score) for item in line.candidates]
    [('Wut', 2.0), ('Zorn', 1.0)]
    """
    where = f"{name}:{line}"
    text = text.removesuffix("\r")
    head = _HEAD.fullmatch(text)
    if head is None or (not scored and head.group(3) is None):
        entry = "SCORE CANDIDATE" if scored else "CANDIDATE"
        hint = (
            " (an oot line: read it with read_system_ranking)" if scored and " ::: " in text else ""
        )
        raise FormatError(
            [f"{where}: expected 'LEXELT ID {SEPARATOR} {entry};…' with single spaces{hint}"]
        )
    lexelt, item_id, rest = head.group(1), head.group(2), head.group(3) or ""
    if not LEXELT.fullmatch(lexelt):
        raise FormatError(
            [f"{where}: lexelt {lexelt!r} is not lemma.pos or lemma.pos.pos with pos in n, v, a, r"]
        )
    fields = rest.split(";") if rest else []
    if fields and fields[-1] == "":
        fields.pop()
    if scored:
        candidates = tuple(_parse_entry(field, where) for field in fields)
    else:
        candidates = as_ranking(_ordered(fields, where))
    return RankingLine(lexelt, item_id, candidates, line)


def _ordered(fields: list[str], where: str) -> list[str]:
    """The candidates of an unscored ranked line, each checked: non-empty, without outer
    spaces, given once."""
    seen: set[str] = set()
    for candidate in fields:
        if not candidate or candidate != candidate.strip():
            raise FormatError(
                [f"{where}: candidate {candidate!r} must be non-empty, without outer spaces"]
            )
        if candidate in seen:
            raise FormatError([f"{where}: candidate {candidate!r} is ranked twice"])
        seen.add(candidate)
    return fields


def format_ranking_line(ranking: RankingLine) -> str:
    """The line :func:`parse_ranking_line` reads back (scores in Python's shortest repr)."""
    entries = ";".join(f"{item.score!r} {item.candidate}" for item in ranking.candidates)
    return f"{ranking.lexelt} {ranking.id} {SEPARATOR}" + (f" {entries}" if entries else "")


def read_ranking(path: str | os.PathLike[str]) -> tuple[RankingLine, ...]:
    """Read a ranked-candidates file strictly: blank lines skipped, every problem reported
    as ``FILE:LINE: problem (rule)``, a repeated id refused."""
    return parse_ranking(read_lines(path), str(path))


def looks_ranked(text: str) -> bool:
    """Whether a line is a ranked-candidates line (``LEXELT ID ::::`` …) rather than a
    best or oot answer."""
    return _HEAD.fullmatch(text.removesuffix("\r")) is not None


def parse_ranking(
    lines: Iterable[str], name: str = "<ranking>", scored: bool = True
) -> tuple[RankingLine, ...]:
    """:func:`read_ranking` on lines already read (``name`` is used in the messages;
    ``scored=False``: GermEval's unscored lines, :func:`parse_ranking_line`)."""
    what = "ids must be unique: one ranking per item" if scored else "one line per item"
    return parse_all(lines, name, partial(parse_ranking_line, scored=scored), what)


def rankings_of(lines: Iterable[RankingLine]) -> dict[str, tuple[Scored, ...]]:
    """id → scored candidates, as given (the measures order them)."""
    return {line.id: line.candidates for line in lines}


def as_ranking(guesses: Sequence[str]) -> tuple[Scored, ...]:
    """Guesses in file order as a ranking: the i-th of n scores n - i + 1 (first = best,
    no ties).

    >>> [item.score for item in as_ranking(["a", "b"])]
    [2.0, 1.0]
    """
    return tuple(Scored(guess, float(len(guesses) - place)) for place, guess in enumerate(guesses))


def parse_ranked(text: str, name: str = "<ranking>") -> tuple[RankingLine, ...]:
    """:func:`parse_ranking` of a whole text."""
    return parse_ranking(split_lines(text), name)


def format_ranked(lines: Iterable[RankingLine]) -> str:
    """A ranked-candidates file's text: :func:`format_ranking_line` of each line, each
    ending ``\\n``."""
    return "".join(format_ranking_line(line) + "\n" for line in lines)
