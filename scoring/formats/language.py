"""A dataset's language: an ISO 639-1 code (``en``, ``de``, ``it``), ``en`` by default.

Two readings, one table (ISO 639 as the ``pycountry`` package ships it, 184 two-letter
codes):

* :func:`iso639_1` checks a code given by a person (``--language``, the dataset's settings page):
  it must be one of the two-letter codes, in any case;
* :func:`declared_language` reads what a file says (``<corpus lang="english">`` in the
  SemEval-2007 files): a language's English name (``english``, ``German``), a two- or
  three-letter ISO 639 code (``de``, ``deu``, ``ger``), or a tag whose first part is one
  (``de-DE``, ``it_IT``); the language must have a two-letter code.

Filipino has none: ISO 639-1 codes only Tagalog (``tl``), the language Filipino is the
standard form of. MLSP-2024 names it ``fil``, so both readings take ``fil`` (and the name
*Filipino*) as ``tl`` (:data:`ALIASES`).
"""

from __future__ import annotations

import re
from functools import cache

import pycountry  # type: ignore[import-untyped, unused-ignore]

DEFAULT = "en"
ALIASES = {"fil": "tl"}
"""Codes of languages without an ISO 639-1 code, read as the code of the language they
are a standard form of: Filipino (``fil``, MLSP-2024's code) as Tagalog (``tl``)."""
_TAG = re.compile(r"([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})+")


@cache
def codes() -> frozenset[str]:
    """Every ISO 639-1 code."""
    return frozenset(
        language.alpha_2 for language in pycountry.languages if hasattr(language, "alpha_2")
    )


def language_name(code: str) -> str:
    """The English name of an ISO 639-1 code (``de`` → ``German``).

    >>> language_name("it")
    'Italian'
    """
    language = pycountry.languages.get(alpha_2=code)
    return str(language.name) if language is not None else code


def iso639_1(code: str) -> str:
    """``code`` lower-cased if it is an ISO 639-1 code; ValueError naming the rule (and
    the code meant, when a name or a longer code was given) otherwise.

    >>> iso639_1("DE")
    'de'
    >>> iso639_1("german")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: language 'german' is not an ISO 639-1 code (...); German is 'de'
    """
    cleaned = code.strip().lower()
    if cleaned in codes():
        return cleaned
    if cleaned in ALIASES:
        return ALIASES[cleaned]
    rule = f"language {code!r} is not an ISO 639-1 code (two letters, such as en, de, it)"
    try:
        meant = declared_language(code)
    except ValueError:
        raise ValueError(rule) from None
    raise ValueError(f"{rule}; {language_name(meant)} is {meant!r}")


def declared_language(value: str) -> str:
    """The ISO 639-1 code of a language as a file names it; ValueError naming the rule.

    A two-letter code is read as one before any name: pycountry's ``lookup`` alone finds
    the language *named* "En" for ``en``.

    >>> [declared_language(v) for v in ("english", "German", "ita", "de-DE", "fr", "en", "EN")]
    ['en', 'de', 'it', 'de', 'fr', 'en', 'en']
    >>> [declared_language(v) for v in ("fil", "Filipino", "fil-PH", "tl")]
    ['tl', 'tl', 'tl', 'tl']
    """
    cleaned = value.strip()
    tag = _TAG.fullmatch(cleaned)
    if tag is not None:
        cleaned = tag.group(1)
    if cleaned.lower() in codes():
        return cleaned.lower()
    try:
        language = pycountry.languages.lookup(cleaned)
    except LookupError:
        raise ValueError(
            f"language {value!r} is neither a language's English name (english, german, "
            "italian) nor an ISO 639 code (en, deu)"
        ) from None
    code = getattr(language, "alpha_2", None) or ALIASES.get(language.alpha_3)
    if not isinstance(code, str):
        raise ValueError(f"language {value!r} ({language.name}) has no ISO 639-1 (two-letter) code")
    return code
