"""The TSAR and MLSP importer's target search (:func:`find_target`) finds what its first
version found with regular expressions (kept here as the reference: quadratic on a long
sentence, fine on these short ones) on random sentences and words, letters whose case
``re.IGNORECASE`` folds specially included."""

from __future__ import annotations

import re
from collections.abc import Callable
from difflib import SequenceMatcher

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoring.formats.importers.tsar import _WORD, FORM_LIKENESS, _case_key, find_target


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


@settings(max_examples=3000)
@given(
    st.text(st.characters(), min_size=1, max_size=16),
    st.integers(0, 15),
    st.integers(1, 6),
    st.sampled_from([str.upper, str.lower, str.swapcase, str.casefold, str.title]),
)
def test_any_characters_in_any_case(
    sentence: str, start: int, size: int, case: Callable[[str], str]
) -> None:
    """Any Unicode characters, the word a piece of the sentence in another case."""
    word = case(sentence[start : start + size]) or sentence
    assert find_target(sentence, word) == reference(sentence, word)
    assert find_target(case(sentence), sentence) == reference(case(sentence), sentence)


def test_characters_that_ignorecase_matches_share_their_case_key() -> None:
    """:func:`_case_key` is what the search groups characters by: checked on every
    character that has another case (and its cases), against ``re`` itself; a character
    without one matches only itself."""
    cased: set[str] = set()
    for point in range(0x110000):
        character = chr(point)
        if 0xD800 <= point < 0xE000 or character.lower() == character == character.upper():
            continue
        cased.add(character)
        cased.update(
            other
            for other in (character.lower(), character.upper(), character.casefold())
            if len(other) == 1
        )
    text = "".join(sorted(cased))
    for character in cased:
        for match in re.finditer(re.escape(character), text, re.IGNORECASE):
            assert _case_key(match.group()) == _case_key(character), (character, match.group())
