"""Normalisation of a substitute or multiword as typed by an annotator.

Steps, in order: Unicode NFC; invisible characters removed (zero-width characters, bidi
controls, a byte-order mark) and white space trimmed and runs of it collapsed to one space
(:func:`scoring.substitute.clean`, the cleaning every checked answer gets); the curly
apostrophe U+2019 as the straight one (:func:`scoring.substitute.fold_apostrophes`);
lower case (English only: other languages lemmatise the typed form first and fold case
when answers are counted, in the gold compiler);
punctuation at either end stripped ("stray" punctuation: any Unicode punctuation character
except the hyphen, repeated until none is left, white space trimmed again). Inner
punctuation (``11.27 kilograms``, ``people's``) and every hyphen are kept: the scorer
accepts a space for a human hyphen, not the reverse (McCarthy & Navigli 2007, section 2.2).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from scoring.substitute import APOSTROPHE, clean, fold_apostrophes, strip_stray

UNICODE = "unicode"
CASE = "case"
PUNCTUATION = "punctuation"


@dataclass(frozen=True, slots=True)
class Normalised:
    """A normalised form and why it differs from the typed one (empty when it does not)."""

    text: str
    reasons: tuple[str, ...]


def normalise_with_reasons(text: str, lower: bool = True) -> Normalised:
    """Normalise ``text`` and say which steps changed it; ``lower``: lower-case it
    (English), else keep its case for the lemmatiser."""
    reasons: list[str] = []
    composed = unicodedata.normalize("NFC", text)
    if composed != text:
        reasons.append(UNICODE)
    spaced, removed = clean(composed)
    reasons.extend(removed)
    straight = fold_apostrophes(spaced)
    if straight != spaced:
        reasons.append(APOSTROPHE)
    lowered = straight.lower() if lower else straight
    if lowered != straight:
        reasons.append(CASE)
    stripped = strip_stray(lowered)
    if stripped != lowered:
        reasons.append(PUNCTUATION)
    return Normalised(stripped, tuple(reasons))


def normalise(text: str, lower: bool = True) -> str:
    """The normalised form of a substitute or multiword; may be empty.

    >>> normalise("  The  Eucharist. ")
    'the eucharist'
    >>> normalise("citizens'")
    'citizens'
    >>> normalise("bile-producing")
    'bile-producing'
    """
    return normalise_with_reasons(text, lower).text
