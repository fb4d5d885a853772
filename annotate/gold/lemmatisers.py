"""Which lemmatiser for each language other than English, and why some have none.

Measured on forms we wrote and checked by hand (``python -m bench.lemmatiser_compare``,
docs/languages.md), under each language's rules
(:mod:`annotate.gold.languages`): Italian is lemmatised with spaCy's lookup tables by part
of speech (spacy-lookups-data, 53 of 53 forms right, simplemma 49), German and every other
language simplemma covers (54) with simplemma (German: 55 of 55, spaCy's one table 53;
Spanish 53 of 55, 47; French 49 of 50, 46; Portuguese 47 of 50, 43; Catalan 47 of 50,
28), except Tagalog, which is kept as typed (:data:`NOT_LEMMATISED`), as are Japanese and
Sinhala, which neither package covers.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from functools import cache
from importlib import import_module, resources
from importlib.metadata import version

from annotate.gold.lemmatisation import UPOS, Lemmatiser


def simplemma_languages() -> frozenset[str]:
    """The ISO 639-1 codes simplemma covers (its data ships with the package)."""
    module = import_module("simplemma.strategies.dictionaries.dictionary_factory")
    return frozenset(code for code in module.SUPPORTED_LANGUAGES if len(code) == 2)


def simplemma_lemmatiser(language: str) -> Lemmatiser:
    """simplemma's lemma for ``language`` (no part of speech; not greedy). ValueError
    when simplemma does not cover the language."""
    if language not in simplemma_languages():
        raise ValueError(f"simplemma does not cover language {language!r}")
    lemmatize: Callable[..., str] = import_module("simplemma").lemmatize
    cache: dict[str, tuple[str, ...]] = {}

    def candidates(word: str, upos: str) -> tuple[str, ...]:
        found = cache.get(word)
        if found is None:
            found = cache[word] = (lemmatize(word, lang=language),)
        return found

    return Lemmatiser("simplemma", version("simplemma"), candidates, language)


LookupTable = dict[str, str]


@cache
def _spacy_table(language: str, name: str) -> LookupTable:
    """One of spacy-lookups-data's tables (empty when it has none of that name); lists
    of lemmas are read as their first. Read once per process (tables do not change)."""
    path = resources.files("spacy_lookups_data").joinpath("data", f"{language}_{name}.json.gz")
    if not path.is_file():
        return {}
    with gzip.open(str(path), "rt", encoding="utf-8") as handle:
        data: dict[str, str | list[str]] = json.load(handle)
    return {
        form: lemma if isinstance(lemma, str) else lemma[0] for form, lemma in data.items() if lemma
    }


def spacy_lookups_lemmatiser(language: str) -> Lemmatiser:
    """spaCy's lookup tables (spacy-lookups-data) for ``language``, read as spaCy reads
    them: Italian by part of speech (``ItalianLemmatizer.pos_lookup_lemmatize``, spaCy
    3.x: the table of the word's PoS, then ``other``, then the PoS-blind ``lemma_lookup``,
    else the word in small letters; a noun with capitals is looked up in small letters
    first), other languages in their one ``lemma_lookup`` table (``Lemmatizer.
    lookup_lemmatize``: the word as typed, else itself). ValueError when the package has
    no table for the language."""
    try:
        legacy = _spacy_table(language, "lemma_lookup")
    except ModuleNotFoundError:
        raise ValueError("spacy-lookups-data is not installed") from None
    if not legacy:
        raise ValueError(f"spacy-lookups-data has no lemma table for language {language!r}")
    if language != "it":

        def plain(word: str, upos: str) -> tuple[str, ...]:
            return (legacy.get(word, word),)

        candidates: Callable[[str, str], tuple[str, ...]] = plain
    else:
        tables = {
            upos: _spacy_table(language, f"lemma_lookup_{upos.lower()}") for upos in UPOS.values()
        }
        other = _spacy_table(language, "lemma_lookup_other")

        def by_pos(word: str, upos: str) -> tuple[str, ...]:
            own = tables[upos]
            if upos == "NOUN" and word != word.lower():
                return (own.get(word.lower()) or own.get(word) or word.lower(),)
            string = word if upos == "NOUN" else word.lower()
            return (own.get(string) or other.get(string) or legacy.get(string, string.lower()),)

        candidates = by_pos
    return Lemmatiser("spacy-lookups-data", version("spacy-lookups-data"), candidates, language)


CHOSEN: dict[str, Callable[[str], Lemmatiser]] = {"it": spacy_lookups_lemmatiser}
"""Languages whose lemmatiser is not simplemma, chosen by measured accuracy on forms
checked by hand (``python -m bench.lemmatiser_compare``): Italian, where spaCy's tables
by part of speech get 53 of 53 forms right and simplemma 49. For Spanish, French,
Portuguese and Catalan simplemma wins (spaCy's one table per language knows no part of
speech: Spanish ``casas`` → *casar*, the verb)."""


NOT_LEMMATISED: dict[str, str] = {
    "tl": (
        "simplemma's Tagalog data gives roots, which change the part of speech "
        "(maganda 'beautiful' -> ganda 'beauty', malaki 'big' -> laki 'size') and drop "
        "focus and aspect (kumain, bumili -> kain, bili); spaCy's Tagalog table changes "
        "none of these forms"
    ),
    "ja": (
        "neither simplemma nor spacy-lookups-data has Japanese lemmas (spaCy lemmatises "
        "Japanese with SudachiPy, a large dependency lexsub does not add)"
    ),
    "si": "neither simplemma nor spacy-lookups-data has Sinhala lemmas",
}
"""Languages kept as typed although a lemmatiser covers them, or whose lack of one the
compile summary explains: each reason is printed by the compiler and written into
``summary.json`` (``forms_kept_as_typed``). Filipino (MLSP-2024's ``fil``) is read as
Tagalog, ``tl`` (:data:`scoring.formats.language.ALIASES`)."""


def has_lemmatiser(language: str) -> bool:
    """Whether :func:`lemmatiser_for` gives a lemmatiser for ``language`` (not English)."""
    if language in NOT_LEMMATISED:
        return False
    return language in CHOSEN or language in simplemma_languages()


def lemmatiser_for(language: str) -> Lemmatiser | None:
    """The lemmatiser of a language other than English: :data:`CHOSEN`'s (ValueError
    when its package is missing), else simplemma where it covers the language and
    :data:`NOT_LEMMATISED` does not refuse it, else None (substitutes are then only
    normalised and case-folded, and the summary says why: :func:`kept_as_typed`)."""
    if not has_lemmatiser(language):
        return None
    chosen = CHOSEN.get(language)
    if chosen is not None:
        return chosen(language)  # a dependency: missing, it is an error, not a fallback
    return simplemma_lemmatiser(language)


def kept_as_typed(language: str) -> str:
    """Why a compile in ``language`` lemmatised nothing (no lemmatiser was used).

    >>> kept_as_typed("si")
    'forms are kept as typed: neither simplemma nor spacy-lookups-data has Sinhala lemmas'
    >>> kept_as_typed("de"), kept_as_typed("zh")  # doctest: +NORMALIZE_WHITESPACE
    ('forms are kept as typed: lemmatisation was turned off',
     'forms are kept as typed: no lemmatiser lexsub ships covers language zh')
    """
    if language in NOT_LEMMATISED:
        reason = NOT_LEMMATISED[language]
    elif has_lemmatiser(language):
        reason = "lemmatisation was turned off"
    else:
        reason = f"no lemmatiser lexsub ships covers language {language}"
    return f"forms are kept as typed: {reason}"
