"""How a term is compared: a gold key with a system's answer, under score.pl's rules
(compat) or corrected (fixed), and the mode of a list of counts.

One function per rule, called by every path (the gold reader, the official, revised and
ranking measures, the analyses, the benchmarks, the gold compiler and the agreement
measures), so that a word is matched alike everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from scoring.types import APOSTROPHES, Count, Rules

if TYPE_CHECKING:
    from typing import TypeVar

    _N = TypeVar("_N", bound=float)


def strict_top(counts: Iterable[tuple[str, _N]]) -> tuple[str, _N] | None:
    """The entry strictly more frequent than every other, if there is one (the first of
    equals never wins: a tie at the top has no such entry).

    >>> strict_top([("glad", 3), ("merry", 2)])
    ('glad', 3)
    >>> strict_top([("glad", 3), ("merry", 3), ("sunny", 2)]) is None
    True
    """
    best: tuple[str, _N] | None = None
    tied = False
    for entry in counts:
        if best is None or entry[1] > best[1]:
            best, tied = entry, False
        elif entry[1] == best[1]:
            tied = True
    return None if tied else best


def mode(counts: Iterable[tuple[str, Count]]) -> str | None:
    """m_i: the substitute strictly more frequent than every other, or None (McCarthy & Navigli
    2009, section 2.2.2; McCarthy & Navigli 2007, section 4). The one mode rule of the fixed gold
    reading, the gold compiler and the agreement measures.

    >>> mode([("glad", 3), ("merry", 3), ("sunny", 2)]) is None
    True
    """
    top = strict_top(counts)
    return top[0] if top else None


_NO_APOSTROPHES = str.maketrans("", "", "'" + "".join(APOSTROPHES))
"""The straight apostrophe and every character matched as it
(:data:`scoring.types.APOSTROPHES`: the curly U+2019), removed."""
_NORMAL = re.compile(r"[a-z0-9]+(?: [a-z0-9]+)*")


def normalise(term: str) -> str:
    """The fixed rules' one normaliser, for gold keys and system answers alike: Unicode
    NFC, case folded (``str.casefold``), hyphens as spaces (McCarthy & Navigli 2007, 2.2: "if the
    humans have used a hyphen ... we will accept a space instead"), apostrophes (straight and
    curly) removed, trimmed and single-spaced. Idempotent: a form normalised twice is the
    form normalised once, so every path can call it at its boundary.

    >>> normalise(" Non-stop\u2019ing  Café ")
    'non stoping café'
    >>> normalise(normalise("Rock 'n' Roll")) == normalise("Rock 'n' Roll") == "rock n roll"
    True
    """
    if _NORMAL.fullmatch(term):  # already normal: lower-case words, single spaces
        return term
    if term.isascii():
        if not term.islower():
            term = term.lower()
        return " ".join(term.replace("-", " ").translate(_NO_APOSTROPHES).split())
    import unicodedata  # only for text past ASCII: the scorer's start-up does without it

    term = unicodedata.normalize("NFC", term).casefold()
    term = " ".join(term.replace("-", " ").translate(_NO_APOSTROPHES).split())
    return unicodedata.normalize("NFC", term)  # a removed apostrophe may join a mark on


def fold(term: str) -> str:
    """A term as score.pl compares a gold key with a guess: hyphens as spaces (McCarthy & Navigli
    2007, 2.2). The compat rules' fold; the fixed rules use :func:`normalise`.

    >>> fold("run-down")
    'run down'
    """
    return term.replace("-", " ")


_NON = re.compile(r"non(\s|-)(.*)$", re.ASCII)
"""score.pl's ``fixmisc``: a guess starting ``non-`` or ``non `` loses the separator."""


def compat_guess(guess: str) -> str:
    """One guess as score.pl's ``fixmisc`` leaves it: ``non-x`` → ``nonx``, hyphens as
    spaces, one apostrophe removed; nothing trimmed or lower-cased.

    >>> compat_guess("non-stop's")
    'nonstops'
    """
    non = _NON.match(guess)
    if non:
        guess = "non" + non.group(2)
    return guess.replace("-", " ").replace("'", "", 1)


def answer_key(term: str, rules: Rules = "fixed") -> str:
    """The one candidate normaliser: a system's answer or ranked candidate in the form the
    gold keys of ``rules`` take (:func:`gold_key`), so that every path (the official,
    revised and ranking measures, the analyses, the leaderboard, the benchmarks, the
    library functions) matches a system's words to gold keys alike. ``fixed``:
    :func:`normalise`; ``compat``: score.pl's :func:`compat_guess`.

    >>> answer_key("People's", "fixed"), answer_key("people's", "compat")
    ('peoples', 'peoples')
    """
    return normalise(term) if rules == "fixed" else compat_guess(term)


def gold_key(key: str, rules: Rules = "fixed") -> str:
    """A gold key, as the reader of ``rules`` gives it, in the form answers are matched
    against: ``fixed``: :func:`normalise` (the reader has already applied it: this is
    idempotent); ``compat``: hyphens as spaces (score.pl keeps a hyphenated key and
    accepts its spaced copy).

    >>> gold_key("brand-new", "compat"), gold_key("Brand-new", "fixed")
    ('brand new', 'brand new')
    """
    return normalise(key) if rules == "fixed" else fold(key)
