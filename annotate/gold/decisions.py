"""The organiser's decisions on lemma changes, which win over the lemmatiser.

A decision names a surface form (a substitute or multiword after normalisation) and
either accepts the lemmatiser's proposal, rejects it (the surface form is kept: *glasses*
is not *glass*) or corrects it to a given form, which is held to the rule of an answer
(:func:`check_correction`: what the gold cannot hold, such as ``x;y`` or ``pn``, is
refused where a correction is made, on the page, by the command or in a file). It holds
for every word (global) or for one lexelt; a lexelt's own decision wins over a global one.

File format (JSON, written sorted so that it diffs well)::

    {"decisions": [
      {"surface": "glasses", "action": "reject"},
      {"surface": "feet", "lexelt": "yard.n", "action": "correct", "lemma": "foot"}
    ]}
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from scoring.files import parse_json
from scoring.files.bounded import read_text
from scoring.substitute import InvalidSubstitute, check_substitute

Action = Literal["accept", "reject", "correct"]
ACTIONS: tuple[Action, ...] = ("accept", "reject", "correct")


class DecisionError(ValueError):
    """A decisions file or value broke a rule; the message names the file and the entry."""


@dataclass(frozen=True, slots=True, order=True)
class Decision:
    """One organiser decision on the lemma of ``surface`` (for ``lexelt``, or globally)."""

    surface: str
    action: Action
    lemma: str | None = None
    lexelt: str | None = None

    def __post_init__(self) -> None:
        if self.action not in ACTIONS:
            raise DecisionError(f"action {self.action!r} is not one of accept, reject, correct")
        if (self.action == "correct") != bool(self.lemma):
            raise DecisionError(
                f"decision for {self.surface!r}: 'correct' needs a lemma and "
                "only 'correct' takes one"
            )

    def result(self, surface: str, proposed: str) -> str:
        """The form this decision gives, the lemmatiser having proposed ``proposed``."""
        if self.action == "accept":
            return proposed
        if self.action == "reject":
            return surface
        assert self.lemma is not None
        return self.lemma

    def as_json(self) -> dict[str, str]:
        value = {"surface": self.surface}
        if self.lexelt is not None:
            value["lexelt"] = self.lexelt
        value["action"] = self.action
        if self.lemma is not None:
            value["lemma"] = self.lemma
        return value


def check_correction(lemma: str) -> str:
    """The form a correction puts into the gold: ``lemma`` held to the rule every answer
    is held to (:func:`scoring.substitute.check_substitute`), cleaned and in Unicode
    normal form C. :class:`DecisionError` naming the value and the rule otherwise.

    >>> check_correction(" foot ")
    'foot'
    >>> try:
    ...     check_correction("a::b")
    ... except DecisionError as error:
    ...     print(error)
    lemma 'a::b': contains '::' (the gold format puts '::' between the item and its substitutes)
    """
    try:
        return check_substitute(lemma).text
    except InvalidSubstitute as error:
        shown = repr(lemma[:40]) + ("…" if len(lemma) > 40 else "")
        raise DecisionError(f"lemma {shown}: {error.message}") from None


def _key(decision: Decision) -> tuple[str, str]:
    return decision.surface, decision.lexelt or ""


@dataclass(frozen=True)
class Decisions:
    """A set of decisions, at most one per (surface, lexelt or global)."""

    entries: tuple[Decision, ...] = ()
    _index: dict[tuple[str, str], Decision] = field(init=False, repr=False, compare=False)
    _folded: dict[tuple[str, str], Decision] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index: dict[tuple[str, str], Decision] = {}
        for decision in self.entries:
            key = _key(decision)
            if key in index and index[key] != decision:
                where = f"for lexelt {decision.lexelt}" if decision.lexelt else "globally"
                raise DecisionError(
                    f"two decisions for {decision.surface!r} {where} "
                    "(one surface, one decision per lexelt or globally)"
                )
            index[key] = decision
        entries = tuple(sorted(index.values(), key=_key))
        folded: dict[tuple[str, str], Decision] = {}
        for decision in entries:
            folded.setdefault((decision.surface.casefold(), decision.lexelt or ""), decision)
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_folded", folded)

    def __len__(self) -> int:
        return len(self.entries)

    def find(self, surface: str, lexelt: str, fold: bool = False) -> Decision | None:
        """The decision for ``surface`` in ``lexelt``: the lexelt's own, else the global.
        ``fold`` (languages other than English, whose forms keep their case): a decision
        on a form that differs from ``surface`` only in case holds too, when there is
        none on ``surface`` itself (the first such in the decisions' order)."""
        found = self._index.get((surface, lexelt)) or self._index.get((surface, ""))
        if found is not None or not fold:
            return found
        key = surface.casefold()
        return self._folded.get((key, lexelt)) or self._folded.get((key, ""))

    def as_json(self) -> dict[str, list[dict[str, str]]]:
        return {"decisions": [decision.as_json() for decision in self.entries]}

    def digest(self) -> str:
        """``sha256:`` of the canonical JSON of the decisions (for the signature)."""
        text = json.dumps(self.as_json(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


NO_DECISIONS = Decisions()


def _decision(value: object, where: str) -> Decision:
    if not isinstance(value, dict):
        raise DecisionError(f"{where}: expected an object with surface and action")
    unknown = set(value) - {"surface", "action", "lemma", "lexelt"}
    if unknown:
        raise DecisionError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
            "(allowed: surface, action, lemma, lexelt)"
        )
    for key in ("surface", "action"):
        if not isinstance(value.get(key), str) or not value[key]:
            raise DecisionError(f"{where}: {key} must be a non-empty string")
    for key in ("lemma", "lexelt"):
        if key in value and (not isinstance(value[key], str) or not value[key]):
            raise DecisionError(f"{where}: {key} must be a non-empty string when given")
    try:
        if value["action"] == "correct" and "lemma" in value:
            check_correction(value["lemma"])
        return Decision(value["surface"], value["action"], value.get("lemma"), value.get("lexelt"))
    except DecisionError as error:
        raise DecisionError(f"{where}: {error}") from None


def parse_decisions(data: object, name: str = "<decisions>") -> Decisions:
    """Decisions from the decoded JSON of a decisions file."""
    if not isinstance(data, dict) or not isinstance(data.get("decisions"), list):
        raise DecisionError(f'{name}: expected {{"decisions": [...]}}')
    entries = [
        _decision(value, f"{name}: decisions[{number}]")
        for number, value in enumerate(data["decisions"])
    ]
    try:
        return Decisions(tuple(entries))
    except DecisionError as error:
        raise DecisionError(f"{name}: {error}") from None


def read_decisions(path: str | Path) -> Decisions:
    """Read a decisions file (see the module's docstring for its format)."""
    try:
        data = parse_json(read_text(path))
    except json.JSONDecodeError as error:
        raise DecisionError(f"{path}:{error.lineno}: not JSON ({error.msg})") from None
    return parse_decisions(data, str(path))


def decisions_text(decisions: Decisions) -> str:
    """Decisions as JSON, sorted by surface then lexelt (global first)."""
    return json.dumps(decisions.as_json(), indent=1, ensure_ascii=False) + "\n"


def write_decisions(path: str | Path, decisions: Decisions) -> None:
    """Write :func:`decisions_text` to ``path``."""
    Path(path).write_text(decisions_text(decisions), encoding="utf-8")
