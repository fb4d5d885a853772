"""The WordNet baseline of McCarthy & Navigli (2009, section 2.5; Table 6): for a target
word, its synonyms found by these criteria in order, each group ranked by corpus
frequency, single words only:

1. the synonyms of the target's first synset;
2. the synonyms of that synset's hypernyms (nouns and verbs) or similar adjectives
   (adjectives: WordNet's "similar to", the closely related classes);
3. the synonyms of all the target's synsets;
4. the synonyms of the hypernyms or similar adjectives of all its synsets.

``best`` is the first candidate, ``oot`` the first ten. The paper used WordNet 2.1 and
frequencies of the British National Corpus (Leech 1992); lexsub uses WordNet 3.0 (Debian's
``wordnet-base``, as :mod:`scoring.benchmark.wordnet` finds it) and the English frequencies
of the ``wordfreq`` package (Speer 2022), so figures land near the paper's, not on them
(docs/models.md compares them). Ties of frequency are broken alphabetically, so a run
gives the same file every time. An item without a part of speech (TSAR-2022's) takes the
word's synsets of every part of speech, in WordNet's order.

A run writes a provenance file beside its output, as ``lexsub generate llm`` does
(:func:`provenance`: the WordNet version, the frequency list and its version, the options),
so ``lexsub score``, ``compare`` and ``benchmark`` can say what made the file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import scoring
from annotate.generate.items import Item
from annotate.generate.llm import fingerprint
from scoring.benchmark.wordnet import wordnet_reader

Frequency = Callable[[str], float]
"""A word's frequency in a corpus (any scale: only the order counts)."""

POS = ("n", "v", "a", "r")


class MissingFrequencies(RuntimeError):
    """The ``wordfreq`` package is not installed."""


def english_frequency() -> Frequency:
    """``wordfreq``'s English frequency of a word (0 for an unknown one)."""
    try:
        from wordfreq import word_frequency
    except ImportError as error:
        raise MissingFrequencies(
            "the WordNet baseline ranks synonyms by wordfreq's frequencies: "
            "pip install 'lexsub[models]' (or pip install wordfreq)"
        ) from error
    return lambda word: float(word_frequency(word, "en"))


def related(synset: Any) -> list[Any]:
    """The synsets criterion 2 and 4 take of ``synset``: its hypernyms (and instance
    hypernyms) for a noun or verb, its similar adjectives for an adjective, none for an
    adverb."""
    if synset.pos() in ("a", "s"):
        return list(synset.similar_tos())
    if synset.pos() in ("n", "v"):
        return list(synset.hypernyms()) + list(synset.instance_hypernyms())
    return []


def _words(synsets: Iterable[Any]) -> Iterator[str]:
    for synset in synsets:
        for name in synset.lemma_names():
            if "_" not in name:  # single words only
                yield name


def _bases(wordnet: Any, word: str, poses: Sequence[str | None]) -> list[str]:
    """The WordNet base forms of ``word`` (``maniacs``: ``maniac``): the target's own
    inflections are never its substitutes."""
    every = POS if poses == [None] else poses
    return [base for p in every if (base := wordnet.morphy(word.replace(" ", "_"), p))]


def candidates(lemma: str, pos: str | None, frequency: Frequency) -> list[str]:
    """Every candidate for ``lemma`` (of ``pos``, or of any part of speech for None), in
    the baseline's order: criterion by criterion, each ranked by ``frequency`` (highest
    first, ties alphabetical), a word kept at its first place, the target and its base
    forms left out."""
    wordnet = wordnet_reader()
    poses: Sequence[str | None] = [pos] if pos in POS else [None]
    synsets = [synset for p in poses for synset in wordnet.synsets(lemma.replace(" ", "_"), p)]
    if not synsets:
        return []
    first = synsets[0]
    groups = (
        [first],
        related(first),
        synsets,
        [other for synset in synsets for other in related(synset)],
    )
    seen = {lemma.lower()} | {base.lower() for base in _bases(wordnet, lemma, poses)}
    ranked: list[str] = []
    for group in groups:
        found = sorted(
            {word for word in _words(group) if word.lower() not in seen},
            key=lambda word: (-frequency(word), word),
        )
        for word in found:
            if word.lower() not in seen:
                seen.add(word.lower())
                ranked.append(word)
    return ranked


def generate(items: Sequence[Item], frequency: Frequency) -> list[list[str]]:
    """Each item's candidates (looked up once a lemma and part of speech)."""
    found: dict[tuple[str, str | None], list[str]] = {}
    answers = []
    for item in items:
        key = (item.lemma, item.pos)
        if key not in found:
            found[key] = candidates(item.lemma, item.pos, frequency)
        answers.append(found[key])
    return answers


FREQUENCY_LIST = "wordfreq"
"""The frequency list :func:`english_frequency` reads (its ``en`` ``best`` word list)."""


def frequency_list() -> str:
    """``wordfreq 3.1.1 (en, best)``: the frequency list and its installed version."""
    try:
        found = version(FREQUENCY_LIST)
    except PackageNotFoundError:
        found = "?"
    return f"{FREQUENCY_LIST} {found} (en, best)"


def provenance(data: str, format: str, items: int, answered: int, seconds: float) -> dict[str, Any]:
    """The provenance file's content of a run on the file ``data`` (its name only, no
    folder) written as ``format``: the fingerprint is of the WordNet version, the
    frequency list and the format, what fixes the answers."""
    fixed = {
        "generator": "wordnet",
        "wordnet": str(wordnet_reader().get_version()),
        "parameters": {"format": format, "frequencies": frequency_list()},
    }
    return {
        **fixed,
        "data": os.path.basename(data),
        "items": items,
        "answered": answered,
        "seconds": round(seconds, 3),
        "lexsub": scoring.__version__,
        "fingerprint": fingerprint(fixed),
    }
