"""C2: normalisation of a substitute or multiword as typed by an annotator.

Steps, in order: Unicode NFC; invisible characters removed (zero-width characters, bidi
controls, a byte-order mark) and white space trimmed and runs of it collapsed to one space
(:func:`scoring.substitute.clean`, the cleaning every checked answer gets); lower case;
punctuation at either end stripped ("stray" punctuation: any Unicode punctuation character
except the hyphen, repeated until none is left, white space trimmed again). Inner
punctuation (``11.27 kilograms``, ``people's``) and every hyphen are kept: the scorer
accepts a space for a human hyphen, not the reverse (seed 002, section 2.2).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from scoring.substitute import INVISIBLE, SPACE, clean, strip_stray

UNICODE = "unicode"
CASE = "case"
PUNCTUATION = "punctuation"
REASONS = (UNICODE, INVISIBLE, SPACE, CASE, PUNCTUATION)
"""The reasons a form can change, in the order the steps run."""


@dataclass(frozen=True, slots=True)
class Normalised:
    """A normalised form and why it differs from the typed one (empty when it does not)."""

    text: str
    reasons: tuple[str, ...]


def normalise_with_reasons(text: str) -> Normalised:
    """Normalise ``text`` (C2) and say which steps changed it."""
    reasons: list[str] = []
    composed = unicodedata.normalize("NFC", text)
    if composed != text:
        reasons.append(UNICODE)
    spaced, removed = clean(composed)
    reasons.extend(removed)
    lowered = spaced.lower()
    if lowered != spaced:
        reasons.append(CASE)
    stripped = strip_stray(lowered)
    if stripped != lowered:
        reasons.append(PUNCTUATION)
    return Normalised(stripped, tuple(reasons))


def normalise(text: str) -> str:
    """The normalised form of a substitute or multiword (C2); may be empty.

    >>> normalise("  The  Eucharist. ")
    'the eucharist'
    >>> normalise("citizens'")
    'citizens'
    >>> normalise("bile-producing")
    'bile-producing'
    """
    return normalise_with_reasons(text).text
