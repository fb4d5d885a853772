"""What an annotator may answer (A4, A6), checked without the web: pure functions.

An answer is 1 to 3 substitutes, or ``name`` (the target is part of a proper name), or
``nil`` (no decent substitute); independently, the target may be marked as part of a
multiword, which must then be typed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

MAX_SUBSTITUTES = 3
MAX_LENGTH = 60  # characters in a substitute or multiword
MAX_WORDS = 5


@dataclass(frozen=True)
class Answer:
    kind: str  # substitutes | name | nil
    substitutes: tuple[str, ...]
    multiword: str | None
    used_dictionary: bool


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def validate_answer(form: Mapping[str, str]) -> tuple[Answer | None, list[str]]:
    """Read the annotation form: ``sub1``-``sub3``, ``name``, ``nil``, ``mw``,
    ``multiword``, ``used_dictionary``. Returns the answer, or None and every problem."""
    errors: list[str] = []
    substitutes = [_clean(form.get(f"sub{i}")) for i in range(1, MAX_SUBSTITUTES + 1)]
    substitutes = [s for s in substitutes if s]
    name = bool(form.get("name"))
    nil = bool(form.get("nil"))
    if name and nil:
        errors.append("Choose either 'Proper name' or 'No substitute (nil)', not both.")
    if (name or nil) and substitutes:
        errors.append("Give substitutes, or tick 'Proper name' or 'No substitute (nil)', "
                      "not both.")
    if not (name or nil or substitutes):
        errors.append("Give at least one substitute, or tick 'Proper name' or "
                      "'No substitute (nil)'.")
    seen: set[str] = set()
    for substitute in substitutes:
        if len(substitute) > MAX_LENGTH or len(substitute.split()) > MAX_WORDS:
            errors.append(f"'{substitute[:MAX_LENGTH]}' is too long: a substitute is a word "
                          f"or a short phrase (at most {MAX_WORDS} words, {MAX_LENGTH} "
                          "characters).")
        if substitute.casefold() in seen:
            errors.append(f"'{substitute}' is given twice.")
        seen.add(substitute.casefold())
    multiword = _clean(form.get("multiword"))
    ticked = bool(form.get("mw"))
    if ticked and not multiword:
        errors.append("You ticked 'Part of a multiword': type the multiword.")
    if multiword and not ticked:
        errors.append("Tick 'Part of a multiword' for the multiword you typed, or clear it.")
    if len(multiword) > MAX_LENGTH:
        errors.append(f"The multiword is too long (at most {MAX_LENGTH} characters).")
    if errors:
        return None, errors
    kind = "name" if name else "nil" if nil else "substitutes"
    return Answer(kind, tuple(substitutes), multiword or None,
                  bool(form.get("used_dictionary"))), []
