"""Which lemmatiser for German, Italian, Spanish, French, Portuguese and Catalan:
accuracy on forms checked by hand.

``python -m bench.lemmatiser_compare`` reads the hand-checked tables
``tests/data/lemmas_LANG.tsv`` (:data:`LANGUAGES`; part of speech, the form as typed, its
gold form, why it is there) and prints, per language, how many forms each candidate gets
right:

- ``lemminflect (before)``: what the compiler did before it knew languages (lower case,
  then LemmInflect's English rules), compared with case ignored;
- ``simplemma``: simplemma under the language's rules (:mod:`annotate.gold.languages`);
- ``simplemma, no rules``: simplemma with the form as typed, phrases by the same head
  rule, no lookup capitalisation and no part-of-speech fit;
- ``spaCy lookups``: spaCy's lookup tables (``spacy-lookups-data``) under the same rules
  (:func:`annotate.gold.lemmatisers.spacy_lookups_lemmatiser`): one table per language;
  Italian's tables per part of speech, as spaCy's ``ItalianLemmatizer`` reads them.

The misses of the lemmatiser each language uses are listed below its figures.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from annotate.gold.languages import lemmatise_in, rules_for
from annotate.gold.lemmatisation import Lemmatiser, lemmatise, lemminflect_lemmatiser
from annotate.gold.lemmatisers import (
    lemmatiser_for,
    simplemma_lemmatiser,
    spacy_lookups_lemmatiser,
)
from scoring.substitute import normalise

LANGUAGES = ("de", "it", "es", "fr", "pt", "ca")
"""The languages with a table of hand-checked forms."""
TABLES = Path(__file__).resolve().parent.parent / "tests" / "data"
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


@dataclass(frozen=True, slots=True)
class Form:
    """One hand-checked row: part of speech, the form as typed, its gold form, why."""

    pos: str
    typed: str
    gold: str
    note: str


def read_forms(language: str) -> list[Form]:
    """The hand-checked forms of ``language`` (``\\uXXXX`` in the typed form stands for
    that code point, so that a decomposed letter can be written visibly)."""
    path = TABLES / f"lemmas_{language}.tsv"
    forms = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or fields[0] not in "nvar":
            raise ValueError(f"{path}:{number}: expected pos, typed, gold, note (tab-separated)")
        typed = _ESCAPE.sub(lambda match: chr(int(match[1], 16)), fields[1])
        forms.append(Form(fields[0], typed, fields[2], fields[3]))
    return forms


def spacy_lookups(language: str) -> Lemmatiser | None:
    """spaCy's lookup tables for ``language``, or None when spacy-lookups-data is not
    installed."""
    try:
        return spacy_lookups_lemmatiser(language)
    except ValueError:
        return None


def right_with_rules(forms: list[Form], lemmatiser: Lemmatiser, bare: bool = False) -> int:
    """How many forms come out as their gold form under the language's rules (``bare``:
    without lookup capitalisation and part-of-speech fit)."""
    rules = rules_for(lemmatiser.language)
    if bare:
        rules = replace(rules, capitalised_nouns=False, verb_endings=())
    return sum(
        1
        for form in forms
        if lemmatise_in(normalise(form.typed, lower=False), form.pos, lemmatiser, rules)
        == form.gold
    )


def right_before(forms: list[Form], lemmatiser: Lemmatiser) -> int:
    """How many forms the English pipeline got right, case ignored."""
    return sum(
        1
        for form in forms
        if lemmatise(normalise(form.typed), form.pos, lemmatiser).casefold() == form.gold.casefold()
    )


def wrong_with_rules(forms: list[Form], lemmatiser: Lemmatiser) -> list[tuple[Form, str]]:
    """The forms that do not come out as their gold form, with what they come out as."""
    rules = rules_for(lemmatiser.language)
    found = [
        (form, lemmatise_in(normalise(form.typed, lower=False), form.pos, lemmatiser, rules))
        for form in forms
    ]
    return [(form, result) for form, result in found if result != form.gold]


def main() -> None:
    english = lemminflect_lemmatiser()
    for language in LANGUAGES:
        forms = read_forms(language)
        total = len(forms)
        print(f"{language}: {total} forms checked by hand")
        print(f"  lemminflect (before)   {right_before(forms, english):3d} / {total}")
        simple = simplemma_lemmatiser(language)
        print(f"  simplemma {simple.version:12s} {right_with_rules(forms, simple):3d} / {total}")
        bare = right_with_rules(forms, simple, bare=True)
        print(f"  simplemma, no rules    {bare:3d} / {total}")
        spacy = spacy_lookups(language)
        if spacy is None:
            print("  spaCy lookups          (spacy-lookups-data is not installed)")
        else:
            right = right_with_rules(forms, spacy)
            print(f"  spaCy lookups {spacy.version:8s} {right:3d} / {total}")
        used = lemmatiser_for(language)
        assert used is not None
        for form, result in wrong_with_rules(forms, used):
            print(
                f"    {used.name} misses {form.pos} {form.typed!r}: {result!r} (not {form.gold!r})"
            )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
