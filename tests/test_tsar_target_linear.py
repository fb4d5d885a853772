"""The TSAR and MLSP importer's target search (:func:`find_target`) finds what its first
version found with regular expressions (kept here as the reference: quadratic on a long
sentence, fine on these short ones) on random sentences and words, letters whose case
``re.IGNORECASE`` folds specially included."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from hypothesis import example, given, settings
from hypothesis import strategies as st

from annotate.sources.tsar import _WORD, FORM_LIKENESS, find_target


def reference(sentence: str, word: str) -> tuple[int, int, bool]:
    """find_target as first written (regular expressions and difflib on every word)."""
    word = word.strip()
    if not word:
        return -1, -1, False
    for flags in (0, re.IGNORECASE):
        whole = re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", sentence, flags)
        found = whole or re.search(re.escape(word), sentence, flags)
        if found is not None:
            return found.start(), found.end(), False
    best: tuple[float, int, int] = (FORM_LIKENESS, -1, -1)
    folded = word.casefold()
    for token in _WORD.finditer(sentence):
        likeness = SequenceMatcher(None, folded, token.group().casefold()).ratio()
        if likeness >= best[0] and (best[1] < 0 or likeness > best[0]):
            best = (likeness, token.start(), token.end())
    return best[1], best[2], best[1] >= 0


# letters in both cases, ones whose case re.IGNORECASE folds specially (dotless i, long s,
# Kelvin sign, micro sign, sigma, sharp s), a digit, an underscore, spaces and punctuation
CHARACTERS = (
    "aAbBsS\u017fiI\u0131\u0130kK\u212a\u00b5\u03bc\u039c\u03c3\u03c2\u03a3\u00df\u1e9e1_ -.\t"
)
texts = st.text(alphabet=CHARACTERS, max_size=30)
periodic = st.tuples(st.sampled_from(["a ", "ab", "a", "Ab-", "s\u017f "]), st.integers(1, 12))


@settings(max_examples=4000)
@given(texts, st.one_of(texts.map(lambda text: text[:8]), texts))
@example("an antelope and an ant", "ant")
@example("a a a a a a b", "a a a ")
@example("Straße STRASSE strasse", "STRAßE")
@example("Burr wurde nominiert.", "nominieren")
def test_find_target_finds_what_the_regular_expressions_found(sentence: str, word: str) -> None:
    assert find_target(sentence, word) == reference(sentence, word)


@settings(max_examples=1500)
@given(periodic, periodic, st.text(alphabet=CHARACTERS, max_size=3))
def test_periodic_sentences_and_words(
    sentence: tuple[str, int], word: tuple[str, int], tail: str
) -> None:
    """Many overlapping occurrences, few or none of them whole words."""
    text, target = sentence[0] * sentence[1] + tail, word[0] * word[1]
    assert find_target(text, target) == reference(text, target)
    assert find_target(text.upper(), target) == reference(text.upper(), target)
