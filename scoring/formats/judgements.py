"""The judgements file: JSON Lines, one object per judgement with
the keys ``item`` (string), ``candidate`` (string), ``judge`` (string), ``label``
(string) and ``origin`` (a list of strings: ``"human"`` or ``"gold"``, and/or system
names). The app's round export writes it; ``lexsub judgements`` reads it.

A candidate is one (item, candidate) pair; every line of a candidate gives the same
origin, and a judge judges a candidate once. Every problem is reported as
``FILE:LINE: problem (rule)`` in one :class:`scoring.errors.FormatError`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.errors import Problems
from scoring.files import json_lines
from scoring.files.bounded import read_text
from scoring.formats.text import json_object_problem, split_lines

KEYS = ("item", "candidate", "judge", "label", "origin")
HUMAN = "human"
"""The origin of a substitute the original annotators gave (the paper's origA)."""
GOLD = "gold"
"""The same origin in a round whose candidates come from systems' files (the sources are
named by their files' stems, the gold ``gold``)."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """One judge's label for one candidate of one item."""

    item: str
    candidate: str
    judge: str
    label: str
    origin: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The object of one line of the judgements file, keys in the contract's order."""
        return {
            "item": self.item,
            "candidate": self.candidate,
            "judge": self.judge,
            "label": self.label,
            "origin": list(self.origin),
        }


@dataclass(frozen=True, slots=True)
class Candidate:
    """One (item, candidate) and every label it was given, judge → label (sorted)."""

    item: str
    candidate: str
    origin: tuple[str, ...]
    labels: Mapping[str, str]

    @property
    def human(self) -> bool:
        """Given by the original annotators (origA): ``"human"`` or ``"gold"``."""
        return HUMAN in self.origin or GOLD in self.origin

    @property
    def system(self) -> bool:
        """Given by a system: the origin names anything other than the gold (sys)."""
        return any(name not in (HUMAN, GOLD) for name in self.origin)


def judgement_line(judgement: Judgement) -> str:
    """One line of the judgements file (without its newline)."""
    return json.dumps(judgement.to_json(), ensure_ascii=False)


def format_judgements(judgements: Iterable[Judgement]) -> str:
    """The judgements file's text: :func:`judgement_line` of each, each ending ``\\n``
    (what :func:`parse_judgements` reads back)."""
    return "".join(judgement_line(judgement) + "\n" for judgement in judgements)


def _problem(obj: Any) -> str | Judgement:
    problem = json_object_problem(obj, KEYS)
    if problem is not None:
        return problem
    for key in KEYS[:4]:
        if not isinstance(obj[key], str) or not obj[key].strip():
            return f"{key} {obj[key]!r} is not a non-empty string"
    origin = obj["origin"]
    if not isinstance(origin, list) or not all(isinstance(o, str) and o for o in origin):
        return f"origin {origin!r} is not a list of non-empty strings"
    if len(set(origin)) != len(origin):
        return f"origin {origin!r} names one origin twice"
    return Judgement(obj["item"], obj["candidate"], obj["judge"], obj["label"], tuple(origin))


def parse_judgements(lines: Iterable[str], name: str = "<judgements>") -> tuple[Judgement, ...]:
    """The judgements of a JSON Lines file, in file order, checked: the keys and their
    types, one origin per candidate, one judgement per judge and candidate."""
    problems = Problems()  # the first 20 kept, the rest counted
    found: list[Judgement] = []
    origins: dict[tuple[str, str], tuple[tuple[str, ...], int]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for number, obj in json_lines(lines, name, problems.add):
        parsed = _problem(obj)
        if isinstance(parsed, str):
            problems.add(f"{name}:{number}: {parsed}")
            continue
        unit = (parsed.item, parsed.candidate)
        origin, first = origins.setdefault(unit, (tuple(sorted(parsed.origin)), number))
        if origin != tuple(sorted(parsed.origin)):
            problems.add(
                f"{name}:{number}: origin {list(parsed.origin)} of {parsed.candidate!r} in "
                f"item {parsed.item!r} differs from line {first}'s {list(origin)} (a "
                "candidate has one origin)"
            )
            continue
        key = (*unit, parsed.judge)
        if key in seen:
            problems.add(
                f"{name}:{number}: judge {parsed.judge!r} judges {parsed.candidate!r} in item "
                f"{parsed.item!r} again (first on line {seen[key]}; one label per judge "
                "and candidate)"
            )
            continue
        seen[key] = number
        found.append(parsed)
    if not found and not problems:  # every line gives a judgement or a problem
        problems.add(f"{name}: the file is empty (one JSON object per judgement expected)")
    if problems:
        raise problems.error()
    return tuple(found)


def read_judgements(path: str | Path) -> tuple[Judgement, ...]:
    """:func:`parse_judgements` on a file."""
    return parse_judgements(split_lines(read_text(path)), str(path))


def candidates(judgements: Iterable[Judgement]) -> tuple[Candidate, ...]:
    """The candidates judged, sorted by (item, candidate), each with its labels by judge."""
    grouped: dict[tuple[str, str], tuple[tuple[str, ...], dict[str, str]]] = {}
    for j in judgements:
        _, labels = grouped.setdefault((j.item, j.candidate), (j.origin, {}))
        labels[j.judge] = j.label
    return tuple(
        Candidate(item, candidate, origin, dict(sorted(labels.items())))
        for (item, candidate), (origin, labels) in sorted(grouped.items())
    )
