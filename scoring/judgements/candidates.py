"""Candidates for a round from systems' files: a ranked-candidates file, an oot file or a
TSAR-2022 file, from a model, the WordNet baseline or any other system (``lexsub
generate`` writes all three). Each file is one *source*, named by the file's stem
(``wordnet.ranked`` → ``wordnet``); the gold's substitutes are the source ``gold``
(:data:`scoring.formats.judgements.GOLD`).

* :func:`candidate_kind` tells the file's kind as the rest of lexsub tells it (the kind
  sniffer :func:`scoring.formats.sniff.kind_of`, then the system files' rule
  :func:`scoring.leaderboard.rows.detect_kind`) and refuses any other kind in one line
  naming the file, its first line and the rule.
* :func:`read_candidates` reads the file into each item's candidates, best first: a
  ranked file by :func:`scoring.formats.ranked.parse_ranking` (highest score first, ties
  in file order), an oot file by :func:`scoring.leaderboard.rows.first_answers` as the
  scorer reads it, a TSAR file by :func:`scoring.formats.tsar.parse_tsar`, each line
  matched to an item by its sentence and word (:func:`tsar_answers`).

The round mixes them with the gold's substitutes
(:func:`scoring.judgements.rounds.posthoc_round`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Literal

from scoring.errors import FormatError
from scoring.formats.judgements import GOLD, HUMAN
from scoring.formats.ranked import parse_ranking
from scoring.formats.sniff import DESCRIPTIONS, HEAD, kind_of
from scoring.formats.text import split_lines, universal_lines
from scoring.formats.tsar import TsarLine, parse_tsar
from scoring.judgements.rounds import Sentence
from scoring.leaderboard.rows import detect_kind, first_answers

CandidateKind = Literal["ranked", "oot", "tsar"]
KINDS: tuple[CandidateKind, ...] = ("ranked", "oot", "tsar")
READS = (
    "a round's candidates come from a ranked file (LEXELT ID :::: SCORE CANDIDATE;…), an "
    "oot file (LEXELT ID ::: GUESS;…) or a TSAR file (SENTENCE<TAB>WORD<TAB>SUBSTITUTE…)"
)
"""The rule a file of another kind breaks."""
RESERVED = (GOLD, HUMAN)
"""Source names a file cannot take: the gold's."""


@dataclass(frozen=True, slots=True)
class CandidateFile:
    """One source: its name, its file's kind, each item's candidates best first."""

    source: str
    kind: CandidateKind
    answers: Mapping[str, tuple[str, ...]]


def source_name(file_name: str) -> str:
    """A source's name: its file's stem (ValueError for the gold's names).

    >>> source_name("runs/wordnet.ranked")
    'wordnet'
    """
    stem = PurePath(file_name).stem
    if not stem.strip():
        raise ValueError(f"{file_name}: a source is named by its file's stem, and it has none")
    if stem in RESERVED:
        raise ValueError(
            f"{file_name}: the source name {stem!r} is the gold's ({', '.join(RESERVED)}); "
            "rename the file"
        )
    return stem


def candidate_kind(text: str, name: str) -> CandidateKind:
    """The kind of a file of candidates (module docstring); FormatError in one line
    ``FILE:LINE: …`` for a file of another kind, or an empty one.

    >>> candidate_kind("bright.a 1 :::: 0.5 clever;0.25 smart\\n", "m.ranked")
    'ranked'
    >>> candidate_kind("He is bright .\\tbright\\tclever\\n", "m.tsv")
    'tsar'
    >>> candidate_kind("bright.a 1 :: clever 2;smart 1;\\n", "g.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.errors.FormatError: g.txt:1: this is a gold file (LEXELT ID :: ...); a round's ...
    """
    first = next((n for n, line in enumerate(split_lines(text), 1) if line.strip()), None)
    if first is None:
        raise FormatError([f"{name}: the file is empty; {READS}"])
    sniffed = kind_of(text.encode("utf-8", "surrogateescape")[:HEAD])
    if sniffed == "tsar":
        return "tsar"
    if sniffed is not None and sniffed != "oot":
        raise FormatError([f"{name}:{first}: this is {DESCRIPTIONS[sniffed]}; {READS}"])
    try:
        kind = detect_kind(text, name)
    except ValueError:
        raise FormatError([f"{name}:{first}: this line names no item; {READS}"]) from None
    if kind == "ranked" or kind == "oot":
        return kind
    raise FormatError([f"{name}:{first}: this is {DESCRIPTIONS['best']}; {READS}"])


def _matched(sentence: str) -> str:
    """A sentence as TSAR lines are matched: white space runs as one space, trimmed."""
    return " ".join(sentence.split())


def tsar_answers(
    lines: Sequence[TsarLine], sentences: Mapping[str, Sentence]
) -> dict[str, tuple[str, ...]]:
    """Each TSAR line's substitutes under the item (of ``sentences``, id → sentence) it
    answers: the item whose sentence (white space runs read as one space) is the line's and
    whose target is its word, else the only item with that sentence. FormatError naming
    ``FILE:LINE`` for a line that matches no item, or several, or an item answered twice.

    >>> found = tsar_answers(
    ...     [TsarLine("A  bright day .", "bright", ("sunny",), "m.tsv:1")],
    ...     {"7": Sentence("A ", "bright", " day .")},
    ... )
    >>> found
    {'7': ('sunny',)}
    """
    by_text: dict[str, list[str]] = {}
    for item, sentence in sentences.items():
        text = _matched(sentence.before + sentence.target + sentence.after)
        by_text.setdefault(text, []).append(item)
    answers: dict[str, tuple[str, ...]] = {}
    first: dict[str, str] = {}
    for line in lines:
        same = by_text.get(_matched(line.sentence), [])
        word = _matched(line.word)
        exact = [item for item in same if _matched(sentences[item].target) == word]
        found = exact if exact else same
        if len(found) != 1:
            problem = "no item of the dataset has" if not found else f"{len(found)} items have"
            raise FormatError(
                [
                    f"{line.location}: {problem} the sentence {line.sentence[:60]!r} with the "
                    f"word {line.word!r} (a TSAR line answers the dataset's item with its "
                    "sentence and target word)"
                ]
            )
        (item,) = found
        if item in answers:
            raise FormatError(
                [f"{line.location}: item {item} again (first answered on {first[item]})"]
            )
        answers[item], first[item] = line.substitutes, line.location
    return answers


def read_candidates(
    text: str, file_name: str, sentences: Mapping[str, Sentence], top: int | None = None
) -> CandidateFile:
    """One file of candidates (module docstring); ``sentences`` (item id → sentence) are
    those a TSAR line is matched to; ``top``: an item's first ``top`` candidates only (the
    WordNet baseline ranks every synonym it finds). FormatError naming the file, the line
    and the rule."""
    if top is not None and top < 1:
        raise ValueError(f"top {top}: at least 1 candidate of an item")
    kind = candidate_kind(text, file_name)
    try:
        source = source_name(file_name)
    except ValueError as error:
        raise FormatError([str(error)]) from None
    answers: dict[str, tuple[str, ...]]
    if kind == "ranked":
        answers = {
            line.id: tuple(
                scored.candidate
                for _, scored in sorted(
                    enumerate(line.candidates), key=lambda pair: (-pair[1].score, pair[0])
                )
            )
            for line in parse_ranking(split_lines(text), file_name)
        }
    elif kind == "oot":
        answers = {item: tuple(found) for item, found in first_answers(text, "oot").items()}
    else:
        answers = tsar_answers(parse_tsar(universal_lines(text), file_name), sentences)
    if top is not None:
        answers = {item: found[:top] for item, found in answers.items()}
    return CandidateFile(source, kind, answers)
