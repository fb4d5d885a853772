"""What a valid substitute is: one definition for the annotation form, the responses
reader, the gold compiler and the agreement reader.

A substitute ends up as an entry of a gold line, ``lexelt id :: sub count;sub count;``
(McCarthy & Navigli 2007, section 2.2.1), so it may not hold what that format uses as syntax, and it
must survive the compiler's normalisation with a letter or digit left. Everything a
person cannot see (zero-width characters, bidi controls, a byte-order mark, white space
at the ends or repeated) is removed, and the removal reported. Some answers are allowed
but deserve a second look; they are accepted once the annotator confirms them and are
listed in the compiler's summary.

:func:`normalise` gives the form an answer is counted under. Steps, in order: Unicode NFC;
invisible characters removed (zero-width characters, bidi controls, a byte-order mark) and
white space trimmed and runs of it collapsed to one space (:func:`clean`, the cleaning every
checked answer gets); the curly apostrophe U+2019 as the straight one
(:func:`fold_apostrophes`); lower case (English only: other languages lemmatise the typed
form first and fold case when answers are counted, in the gold compiler); punctuation at
either end stripped ("stray" punctuation: any Unicode punctuation character except the
hyphen, repeated until none is left, white space trimmed again). Inner punctuation (``11.27
kilograms``, ``people's``) and every hyphen are kept: the scorer accepts a space for a human
hyphen, not the reverse (McCarthy & Navigli 2007, section 2.2).

>>> check_substitute(" glad\\u200b ").text
'glad'
>>> try:
...     check_substitute("happy; glad")
... except InvalidSubstitute as error:
...     print(error.rule)
one substitute per box
>>> [w.rule for w in check_substitute("nil").warnings]
['name or nil']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.types import APOSTROPHES

MAX_LENGTH = 60
"""Characters in a substitute or multiword (the form's boxes and the database hold this)."""
MAX_WORDS = 5
"""Words in a substitute before it asks for confirmation (a word or a short phrase)."""

# Rules that refuse (the ``rule`` of :class:`InvalidSubstitute`).
EMPTY = "empty"
LIST = "one substitute per box"
SEPARATOR = "gold-format separator"
LINE_BREAK = "line break"
CONTROL = "control character"
RESERVED = "reserved entry"
NO_LETTER = "no letter or digit"
TOO_LONG = "too long"
SURROGATE = "not valid Unicode"
REFUSALS = (EMPTY, LIST, SEPARATOR, LINE_BREAK, CONTROL, RESERVED, NO_LETTER, TOO_LONG, SURROGATE)

# Rules that warn: accepted once confirmed, listed in the compiler's summary.
NAME_OR_NIL = "name or nil"
ONE_CHARACTER = "one character"
TARGET = "target word"
MANY_WORDS = "many words"
WARNINGS = (NAME_OR_NIL, ONE_CHARACTER, TARGET, MANY_WORDS)

# What cleaning removes (reported like the compiler's other normalisations).
INVISIBLE = "invisible"
SPACE = "white space"
APOSTROPHE = "apostrophe"
"""The reason reported when :func:`fold_apostrophes` changed a form."""
_APOSTROPHE_TABLE = str.maketrans(APOSTROPHES)

LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
RESERVED_ENTRIES = frozenset({"pn"})
"""Entries the gold format gives a meaning of its own (``pn N;``: N proper-name answers)."""
_LIST_MARKS = ",/;"


class InvalidSubstitute(ValueError):
    """A typed value that breaks a rule: ``value`` as typed, ``rule`` one of
    :data:`REFUSALS`, ``message`` what to do about it."""

    def __init__(self, value: str, rule: str, message: str) -> None:
        super().__init__(f"{value!r}: {message}")
        self.value = value
        self.rule = rule
        self.message = message


@dataclass(frozen=True, slots=True)
class Caution:
    """A rule the value is allowed to break once the annotator confirms it."""

    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class Checked:
    """A value that passed: ``text`` cleaned (invisible characters removed, white space
    single), ``removed`` what cleaning took out, ``warnings`` what needs a confirmation."""

    text: str
    removed: tuple[str, ...] = ()
    warnings: tuple[Caution, ...] = ()


def _invisible(char: str) -> bool:
    """Format characters (Unicode category Cf): zero-width spaces and joiners, bidi
    marks, embeddings, overrides and isolates, the byte-order mark, soft hyphens."""
    return unicodedata.category(char) == "Cf"


def clean(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` without invisible characters and with white space trimmed and single,
    and which of :data:`INVISIBLE` and :data:`SPACE` applied.

    >>> clean("\\ufeffbright\\u200e  light ")
    ('bright light', ('invisible', 'white space'))
    """
    removed: list[str] = []
    visible = text
    if not text.isascii() and any(_invisible(char) for char in text):
        visible = "".join(char for char in text if not _invisible(char))
        removed.append(INVISIBLE)
    spaced = " ".join(visible.split())
    if spaced != visible:
        removed.append(SPACE)
    return spaced, tuple(removed)


def composed(text: str) -> str:
    """``text`` in Unicode normalisation form C, as the compiler's normalisation (C2)
    makes it first: the rules apply to this form, and lengths are measured on it (the
    Greek question mark U+037E is ``;``; ``\u0958`` is two characters).

    >>> composed("happy\u037eglad")
    'happy;glad'
    >>> len(composed("\u0958"))
    2
    """
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def fold_apostrophes(text: str) -> str:
    """``text`` with every character of :data:`APOSTROPHES` as the straight apostrophe:
    the two are one character for matching.

    >>> fold_apostrophes("dell\u2019anno")
    "dell'anno"
    """
    return text if text.isascii() else text.translate(_APOSTROPHE_TABLE)


def strip_stray(text: str) -> str:
    """``text`` without punctuation or white space at its ends (hyphens kept): the
    compiler's "stray punctuation".

    >>> strip_stray("'quick!'")
    'quick'
    """
    start, end = 0, len(text)
    while start < end and _stray(text[start]):
        start += 1
    while end > start and _stray(text[end - 1]):
        end -= 1
    return text[start:end]


def _stray(char: str) -> bool:
    return char != "-" and (char.isspace() or unicodedata.category(char).startswith("P"))


def _format_problem(raw: str, text: str) -> tuple[str, str] | None:
    """The first rule of the gold format that ``raw`` (as typed) or ``text`` (cleaned)
    breaks, as (rule, message), or None."""
    for char in raw:
        if char in LINE_BREAKS:
            return LINE_BREAK, "contains a line break (one line per gold item)"
        if char != "\t" and unicodedata.category(char) in ("Cc", "Cs"):
            if unicodedata.category(char) == "Cs":
                return SURROGATE, "is not valid Unicode (a lone surrogate)"
            return CONTROL, f"contains the control character U+{ord(char):04X}"
    if not text:
        return EMPTY, "is empty"
    if "::" in text:
        return SEPARATOR, (
            "contains '::' (the gold format puts '::' between the item and its substitutes)"
        )
    length = max(len(text), len(text.lower()))  # lower case may be longer: İ is i̇
    if length > MAX_LENGTH:
        return TOO_LONG, f"is too long: {length} characters (at most {MAX_LENGTH})"
    if not any(char.isalnum() for char in text):
        return NO_LETTER, "has no letter or digit"
    return None


def _is_list(text: str) -> bool:
    """Whether a ``,``, ``/`` or ``;`` stands between two words (``happy, glad``,
    ``smart/clever``); between two digits it is part of a number (``1,000``, ``24/7``)."""
    for index, char in enumerate(text):
        if char in _LIST_MARKS:
            left, right = text[:index].rstrip(), text[index + 1 :].lstrip()
            if (
                left
                and right
                and left[-1].isalnum()
                and right[0].isalnum()
                and not (left[-1].isdigit() and right[0].isdigit())
            ):
                return True
    return False


def comparable(text: str) -> str:
    """The form rules compare: stray punctuation stripped, apostrophes folded
    (:func:`fold_apostrophes`), case folded."""
    return fold_apostrophes(strip_stray(text)).casefold()


def check_substitute(raw: str, targets: Iterable[str] = ()) -> Checked:
    """Check one substitute as typed in one box; ``targets`` are the target word's forms
    (its lemma, the word as it stands in the sentence) for the "target word" warning.

    The rules apply to the value in Unicode normalisation form C (:func:`composed`,
    the compiler's first step), cleaned; ``text`` is that form. Refused
    (:class:`InvalidSubstitute`): a line break or other control character, an empty
    value, ``::``, more than :data:`MAX_LENGTH` characters (in that form, or lower-cased
    as the compiler counts English), no letter or digit, a
    list (``,``, ``/`` or ``;`` between words), any other ``;``, the reserved entry
    ``pn``. Warned (:attr:`Checked.warnings`): ``name`` or ``nil`` typed as a word, one
    character, the target word itself, more than :data:`MAX_WORDS` words.
    """
    text, removed = clean(composed(raw))
    problem = _format_problem(raw, text)
    if problem is None and _is_list(text):
        problem = (
            LIST,
            "one substitute per box (a list was typed: give each substitute in a box of its own)",
        )
    if problem is None and ";" in text:
        problem = SEPARATOR, "contains ';' (the gold format separates substitutes with ';')"
    key = comparable(text)
    if problem is None and key in RESERVED_ENTRIES:
        problem = (
            RESERVED,
            (
                f"'{key}' is reserved: the gold format uses it for proper-name "
                "answers (tick 'Proper name' instead)"
            ),
        )
    if problem is not None:
        raise InvalidSubstitute(raw, *problem)
    warnings: list[Caution] = []
    if key in ("name", "nil"):
        box = "Proper name" if key == "name" else "No substitute (nil)"
        warnings.append(
            Caution(NAME_OR_NIL, f"is typed as a substitute: did you mean to tick '{box}'?")
        )
    if len(key) == 1:
        warnings.append(
            Caution(
                ONE_CHARACTER,
                "is one character long (the official scorer drops one-character gold entries)",
            )
        )
    if key in {comparable(target) for target in targets}:
        warnings.append(Caution(TARGET, "is the target word itself"))
    if len(text.split()) > MAX_WORDS:
        warnings.append(
            Caution(
                MANY_WORDS,
                f"has more than {MAX_WORDS} words (a substitute is a word or a short phrase)",
            )
        )
    return Checked(text, removed, tuple(warnings))


def check_multiword(raw: str) -> Checked:
    """Check the multiword an annotator typed: the gold format's rules (it becomes an
    ``mwgold`` entry) on its NFC form, without the list and reserved-entry rules or
    warnings."""
    text, removed = clean(composed(raw))
    problem = _format_problem(raw, text)
    if problem is None and ";" in text:
        problem = SEPARATOR, "contains ';' (the gold format separates entries with ';')"
    if problem is not None:
        raise InvalidSubstitute(raw, *problem)
    return Checked(text, removed)


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
