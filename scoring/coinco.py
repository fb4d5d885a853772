"""CoInCo (Kremer, Erk, Padó & Thater 2014, "What Substitutes Tell Us — Analysis of an
"All-Words" Lexical Substitution Corpus"), read from its original XML.

The file (``coinco.xml``, optionally gzipped) is one ``<document>`` of ``<sent>``
elements (attributes ``MASCfile``, ``MASCsentID``), each with ``<precontext>``,
``<targetsentence>``, ``<postcontext>`` and ``<tokens>``. Every ``<token>`` has ``id``,
``wordform``, ``lemma``, ``posMASC`` and ``posTT``; a token whose ``id`` is ``XXX`` is
not a target. A target token also has ``problematic`` (``yes`` or ``no``) and
``<substitutions>`` holding ``<subst lemma=… pos=… freq=…/>``, ``freq`` being how many
of the annotators gave that substitute.

:func:`read_coinco_sentences` gives every sentence with its tokens;
:func:`read_coinco` every target token with its sentence and position. Both are pure
(no Flask, no database) and stream the file with :func:`xml.etree.ElementTree.iterparse`
(one sentence in memory at a time). ElementTree does not fetch external entities, and the
expat of Python 3.11+ refuses exponential entity expansion. Malformed input raises
``ValueError`` naming the file and the line and column (XML errors) or the sentence,
token, attribute, value and rule.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, cast
from xml.etree.ElementTree import Element, ParseError, iterparse

NOT_A_TARGET = "XXX"
"""The ``id`` of a token that is not a target."""


@dataclass(frozen=True, slots=True)
class CoincoSubstitute:
    """One ``<subst>``: a substitute lemma, its PoS (TreeTagger) and how many annotators
    gave it."""

    lemma: str
    pos: str
    freq: int


@dataclass(frozen=True, slots=True)
class CoincoToken:
    """One ``<token>``. ``id`` is None for a token that is not a target (``XXX``); then
    ``problematic`` is None and ``substitutes`` empty."""

    id: str | None
    wordform: str
    lemma: str
    pos_masc: str
    pos_tt: str
    problematic: bool | None
    substitutes: tuple[CoincoSubstitute, ...]


@dataclass(frozen=True, slots=True)
class CoincoSentence:
    """One ``<sent>``: its MASC origin, its context (text as in the file, trimmed) and its
    tokens in order. ``number`` counts sentences from 1 in file order."""

    number: int
    masc_file: str
    masc_sent_id: str
    precontext: str
    text: str
    postcontext: str
    tokens: tuple[CoincoToken, ...]


@dataclass(frozen=True, slots=True)
class CoincoTarget:
    """One target token, its sentence and its position (0-based) among the tokens."""

    sentence: CoincoSentence
    position: int

    @property
    def token(self) -> CoincoToken:
        return self.sentence.tokens[self.position]

    @property
    def id(self) -> str:
        return self.token.id or ""

    @property
    def lemma(self) -> str:
        return self.token.lemma

    @property
    def pos_masc(self) -> str:
        return self.token.pos_masc

    @property
    def problematic(self) -> bool:
        return bool(self.token.problematic)

    @property
    def substitutes(self) -> tuple[CoincoSubstitute, ...]:
        return self.token.substitutes


def _open(path: Path) -> BinaryIO:
    """The file's bytes, gunzipped when it starts with gzip's magic number."""
    with path.open("rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return cast(BinaryIO, gzip.open(path, "rb"))
    return path.open("rb")


def _attribute(element: Element, name: str, where: str) -> str:
    value = element.get(name)
    if value is None:
        raise ValueError(f"{where}: <{element.tag}> has no {name!r} attribute (required)")
    return value


def _text(element: Element | None) -> str:
    return " ".join((element.text or "").split()) if element is not None else ""


def _substitute(element: Element, where: str) -> CoincoSubstitute:
    lemma = _attribute(element, "lemma", where)
    freq = _attribute(element, "freq", where)
    if not lemma.strip():
        raise ValueError(f"{where}: <subst> lemma {lemma!r} is empty (a substitute is a word)")
    if not freq.isdigit() or int(freq) < 1:
        raise ValueError(
            f"{where}: <subst lemma={lemma!r}> freq {freq!r} is not a whole number >= 1"
        )
    return CoincoSubstitute(lemma, _attribute(element, "pos", where), int(freq))


def _token(element: Element, where: str) -> CoincoToken:
    token_id = _attribute(element, "id", where)
    wordform = _attribute(element, "wordform", where)
    lemma = _attribute(element, "lemma", where)
    pos_masc = _attribute(element, "posMASC", where)
    pos_tt = _attribute(element, "posTT", where)
    if token_id == NOT_A_TARGET:
        return CoincoToken(None, wordform, lemma, pos_masc, pos_tt, None, ())
    where = f"{where}, token {token_id}"
    problematic = _attribute(element, "problematic", where)
    if problematic not in ("yes", "no"):
        raise ValueError(f"{where}: problematic={problematic!r} must be 'yes' or 'no'")
    substitutions = element.find("substitutions")
    if substitutions is None:
        raise ValueError(f"{where}: a target token has no <substitutions> (required)")
    substitutes = tuple(_substitute(sub, where) for sub in substitutions.iter("subst"))
    return CoincoToken(
        token_id, wordform, lemma, pos_masc, pos_tt, problematic == "yes", substitutes
    )


def _sentence(element: Element, number: int, name: str) -> CoincoSentence:
    where = f"{name}: sentence {number}"
    masc_file = _attribute(element, "MASCfile", where)
    masc_sent_id = _attribute(element, "MASCsentID", where)
    where = f"{where} ({masc_file} {masc_sent_id})"
    tokens = element.find("tokens")
    if tokens is None:
        raise ValueError(f"{where}: <sent> has no <tokens> (required)")
    return CoincoSentence(
        number,
        masc_file,
        masc_sent_id,
        _text(element.find("precontext")),
        _text(element.find("targetsentence")),
        _text(element.find("postcontext")),
        tuple(_token(token, where) for token in tokens.iter("token")),
    )


def iter_coinco_sentences(path: str | Path) -> Iterator[CoincoSentence]:
    """The sentences of a CoInCo XML file (gzipped or not), one at a time."""
    path = Path(path)
    number = 0
    seen: dict[str, int] = {}
    with _open(path) as stream:
        events = iterparse(stream, events=("end",))
        try:
            for _, element in events:
                if element.tag != "sent":
                    continue
                number += 1
                sentence = _sentence(element, number, str(path))
                element.clear()
                for token in sentence.tokens:
                    if token.id is None:
                        continue
                    if token.id in seen:
                        raise ValueError(
                            f"{path}: sentence {number}, token {token.id}: id already used "
                            f"in sentence {seen[token.id]} (target ids must be unique)"
                        )
                    seen[token.id] = number
                yield sentence
        except ParseError as error:
            line, column = error.position
            raise ValueError(f"{path}:{line}:{column}: not well-formed XML ({error})") from None


def read_coinco_sentences(path: str | Path) -> tuple[CoincoSentence, ...]:
    """Every sentence of a CoInCo XML file, in file order."""
    return tuple(iter_coinco_sentences(path))


def read_coinco(path: str | Path) -> tuple[CoincoTarget, ...]:
    """Every target token of a CoInCo XML file (problematic ones included: see
    :attr:`CoincoTarget.problematic`), in file order."""
    return tuple(
        CoincoTarget(sentence, position)
        for sentence in iter_coinco_sentences(path)
        for position, token in enumerate(sentence.tokens)
        if token.id is not None
    )
