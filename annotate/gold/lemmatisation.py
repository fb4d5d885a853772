"""Lemmatisation of substitutes with the target's part of speech.

The lemmatiser is a value (:class:`Lemmatiser`): a name and version for the signature and
a function giving a word's candidate lemmas for a Universal PoS tag. Tests pass
:data:`IDENTITY`; the default is LemmInflect (:func:`lemminflect_lemmatiser`), which ships
its own data.

Rules (:data:`RULES`), on top of the candidates:

1. the surface form is kept when it is one of the candidates for that PoS (LemmInflect
   gives ``glass`` and ``glasses`` for *glasses*, ``data`` and ``datum`` for *data*, so
   they stay as typed: "lemmatising must not change the meaning");
2. adjectives and adverbs are not lemmatised: LemmInflect's only change for them is the
   degree (*better* → *good*), which changes the meaning;
3. a phrase lemmatises its head word only: the first word for verbs (*took place* → *take
   place*); for ``X of Y`` the last word of X (*states of nature* → *state of nature*,
   the first word when X is one word); otherwise the last word (*sixty feet* → *sixty foot*).

Organiser decisions (:mod:`annotate.gold.decisions`) win over all of this.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from importlib.metadata import version

UPOS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}
"""The task's PoS letters as Universal PoS tags."""
UNCHANGED_POS = frozenset({"a", "r"})
RULES = "keep-if-candidate;a,r-unchanged;head:v=first,of=before-of,else=last"
"""The rules above, as written into the signature of a compiled gold."""


@dataclass(frozen=True)
class Lemmatiser:
    """A lemmatiser: ``candidates(word, upos)`` gives the word's lemmas, preferred first
    (empty when it knows none); ``language`` the ISO 639-1 code of its data."""

    name: str
    version: str
    candidates: Callable[[str, str], tuple[str, ...]]
    language: str = "en"
    inflections: Callable[[str, str], frozenset[str]] | None = None
    """``inflections(lemma, upos)``: every inflected form of ``lemma`` for the tag (the
    lemma review proposes an irregular form that the lemmatiser keeps, *fell*, for the
    lemma of another answer whose inflections hold it, *fall*); None when it knows none."""

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}"


def _no_candidates(word: str, upos: str) -> tuple[str, ...]:
    return ()


IDENTITY = Lemmatiser("identity", "1", _no_candidates)
"""Changes nothing (for tests and ``--no-lemmatise``)."""


def lemminflect_lemmatiser(oov: bool = False) -> Lemmatiser:
    """LemmInflect's lemmas: its dictionary's candidates (``getAllLemmas``), and, only when
    ``oov``, its rules for words it does not know (``getLemma``).

    Out-of-vocabulary rules are off by default: on the task's own data they guess wrong
    far more often than right, above all for the adjectives annotators give for a noun
    (*oblivious* → *obliviou*, *uninformed* → *uninform*, *do-nothing* → *do-nothe*).
    """
    module = import_module("lemminflect")  # imported here: loading its data takes time
    all_lemmas: Callable[[str, str], dict[str, tuple[str, ...]]] = module.getAllLemmas
    get_lemma: Callable[..., tuple[str, ...]] = module.getLemma

    def candidates(word: str, upos: str) -> tuple[str, ...]:
        known = all_lemmas(word, upos).get(upos, ())
        if known or not oov:
            return tuple(known)
        return tuple(get_lemma(word, upos, lemmatize_oov=True))

    all_inflections: Callable[..., dict[str, tuple[str, ...]]] = module.getAllInflections

    def inflections(lemma: str, upos: str) -> frozenset[str]:
        found = all_inflections(lemma, upos=upos)
        return frozenset(form for forms in found.values() for form in forms)

    return Lemmatiser(
        "lemminflect",
        version("lemminflect") + ("+oov" if oov else ""),
        candidates,
        inflections=inflections,
    )


def lemma_of_word(word: str, pos: str, lemmatiser: Lemmatiser) -> str:
    """One word's lemma under rules 1 and 2 (``pos`` is n, v, a or r)."""
    if pos in UNCHANGED_POS or not word:
        return word
    found = lemmatiser.candidates(word, UPOS[pos])
    if not found or word in found:
        return word
    return found[0]


def head_index(words: list[str], pos: str) -> int:
    """Rule 3: the index of the head word of a phrase (its words, none empty)."""
    if pos == "v":
        return 0
    if "of" in words[1:]:
        return words.index("of", 1) - 1
    return len(words) - 1


def lemmatise(text: str, pos: str, lemmatiser: Lemmatiser) -> str:
    """The lemmatised form of a substitute or multiword for a target of PoS ``pos``.

    Words are split on single spaces and joined back the same way, so a form that was not
    normalised keeps its spacing.

    >>> from annotate.gold.lemmatisation import IDENTITY
    >>> lemmatise("took place", "v", IDENTITY)
    'took place'
    """
    if pos in UNCHANGED_POS:
        return text
    tokens = text.split(" ")
    places = [index for index, token in enumerate(tokens) if token]
    if not places:
        return text
    head = places[head_index([tokens[index] for index in places], pos)]
    lemma = lemma_of_word(tokens[head], pos, lemmatiser)
    if lemma == tokens[head]:
        return text
    tokens[head] = lemma
    return " ".join(tokens)
