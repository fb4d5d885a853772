"""CoInCo (Kremer, Erk, Padó & Thater 2014, "What Substitutes Tell Us — Analysis of an
"All-Words" Lexical Substitution Corpus"), read from its original XML: the project's one
CoInCo reader (the benchmark ``lexsub benchmark coinco`` and the importer both
read through it).

The file (``coinco.xml``, optionally gzipped) is one ``<document>`` of ``<sent>``
elements (attributes ``MASCfile``, ``MASCsentID``), each with ``<precontext>``,
``<targetsentence>``, ``<postcontext>`` and ``<tokens>``. Every ``<token>`` has ``id``,
``wordform``, ``lemma``, ``posMASC`` and ``posTT``; a token whose ``id`` is ``XXX`` is
not a target. A target token also has ``problematic`` (``yes`` or ``no``) and
``<substitutions>`` holding ``<subst lemma=… pos=… freq=…/>``, ``freq`` being how many
of the annotators gave that substitute.

:func:`read_coinco_sentences` gives every sentence with its tokens, each with the line
where it starts; :func:`read_coinco` every target token with its sentence and position.
Both are pure (no Flask, no database) and stream the file (one chunk of sentences in
memory at a time) through the one safe XML feed, :func:`scoring.files.safexml.feed_xml`
(defusedxml: a DTD, an entity declaration or an external reference is refused). The
structure is checked as elements arrive: the root is ``<document>``, every element in its
place, text only in the three contexts, one of each per ``<sent>`` and a
``<targetsentence>`` in every one, at least one target in the file.

Two readings. ``gold=True`` (the benchmark; the default) needs the release's full form:
every ``<sent>`` its ``MASCfile``, ``MASCsentID`` and ``<tokens>``, every token its
``posTT``, every target its ``problematic`` and ``<substitutions>``, and target ids
unique. ``gold=False`` (the importer, which reads the contexts) lets those be missing
(``posTT`` then ``""``, ``problematic`` no, no substitutes) and leaves ids to the caller.
A ``<subst>`` present is checked in both. Every problem is a
:class:`scoring.errors.XmlError` ``FILE:LINE: WHERE: problem``: the line, the sentence
(and token) in CoInCo's terms, the value and the rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.errors import XmlError
from scoring.files.bounded import command_bounds, unpacked_chunks
from scoring.files.safexml import feed_xml

NOT_A_TARGET = "XXX"
"""The ``id`` of a token that is not a target."""
CHUNK = 1 << 16
"""Bytes fed to the parser at a time."""
_CHILDREN = {
    "": ("document",),
    "document": ("sent",),
    "sent": ("precontext", "targetsentence", "postcontext", "tokens"),
    "tokens": ("token",),
    "token": ("substitutions",),
    "substitutions": ("subst",),
    "subst": (),
    "precontext": (),
    "targetsentence": (),
    "postcontext": (),
}
_TEXT = ("precontext", "targetsentence", "postcontext")
_TOKEN = ("id", "wordform", "lemma", "posMASC")
_HINT = " (a CoInCo file has no DTD or entities)"


@dataclass(frozen=True, slots=True)
class CoincoSubstitute:
    """One ``<subst>``: a substitute lemma, its PoS (TreeTagger) and how many annotators
    gave it."""

    lemma: str
    pos: str
    freq: int


@dataclass(frozen=True, slots=True)
class CoincoToken:
    """One ``<token>`` and the line where it starts. ``id`` is None for a token that is
    not a target (``XXX``); then ``problematic`` is None and ``substitutes`` empty."""

    id: str | None
    wordform: str
    lemma: str
    pos_masc: str
    pos_tt: str
    problematic: bool | None
    substitutes: tuple[CoincoSubstitute, ...]
    line: int = 0


def _single_spaced(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class CoincoSentence:
    """One ``<sent>``: its MASC origin, its context as written (``<precontext>``,
    ``<targetsentence>``, ``<postcontext>``, each trimmed), its tokens in order and the
    line where it starts. ``number`` counts sentences from 1 in file order."""

    number: int
    masc_file: str
    masc_sent_id: str
    written: tuple[str, str, str]
    tokens: tuple[CoincoToken, ...]
    line: int = 0

    @property
    def precontext(self) -> str:
        """The sentence before, single-spaced."""
        return _single_spaced(self.written[0])

    @property
    def text(self) -> str:
        """The target sentence, single-spaced."""
        return _single_spaced(self.written[1])

    @property
    def postcontext(self) -> str:
        """The sentence after, single-spaced."""
        return _single_spaced(self.written[2])


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


class _Reader:
    """Parser target: checks the structure as elements arrive and builds the sentences
    (``done`` holds those the caller has not taken yet)."""

    def __init__(self, name: str, gold: bool) -> None:
        self.name = name
        self.gold = gold
        self.expat: Any = None
        self.stack: list[str] = []
        self.done: list[CoincoSentence] = []
        self.number = self.targets = 0
        self.ids: dict[str, int] = {}
        self.where = ""  # the open sentence, in messages
        self.sentence: dict[str, str] = {}
        self.sentence_line = 0
        self.texts: dict[str, list[str]] = {}
        self.tokens: list[CoincoToken] = []
        self.has_tokens = False
        self.token: dict[str, str] = {}
        self.token_line = 0
        self.substitutes: list[CoincoSubstitute] | None = None

    def fail(self, problem: str, where: str = "", line: int = 0) -> XmlError:
        return XmlError(self.name, line or self.expat.CurrentLineNumber, problem, where)

    def require(self, attrib: dict[str, str], names: tuple[str, ...], tag: str, where: str) -> None:
        missing = [name for name in names if name not in attrib]
        if missing:
            raise self.fail(f"<{tag}> has no {', '.join(missing)} attribute", where)

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        parent = self.stack[-1] if self.stack else ""
        expected = _CHILDREN[parent]
        if tag not in expected:
            if not parent:
                raise self.fail(f"the root element must be <document> (CoInCo), not <{tag}>")
            wanted = ", ".join(f"<{child}>" for child in expected) or "no element"
            raise self.fail(f"unexpected element <{tag}> in <{parent}>; expected {wanted}")
        self.stack.append(tag)
        if tag == "sent":
            self.start_sentence(attrib)
        elif tag in _TEXT:
            if tag in self.texts:
                raise self.fail(
                    f"the <sent> at line {self.sentence_line} has two <{tag}>", self.where
                )
            self.texts[tag] = []
        elif tag == "tokens":
            self.has_tokens = True
        elif tag == "token":
            self.start_token(attrib)
        elif tag == "substitutions" and self.substitutes is None:
            self.substitutes = []
        elif tag == "subst" and self.substitutes is not None:
            self.substitutes.append(self.substitute(attrib))

    def start_sentence(self, attrib: dict[str, str]) -> None:
        self.number += 1
        self.sentence_line = self.expat.CurrentLineNumber
        self.where = f"sentence {self.number}"
        self.require(attrib, ("MASCfile", "MASCsentID") if self.gold else (), "sent", self.where)
        self.sentence = attrib
        if "MASCfile" in attrib and "MASCsentID" in attrib:
            self.where += f" ({attrib['MASCfile']} {attrib['MASCsentID']})"

    def start_token(self, attrib: dict[str, str]) -> None:
        self.token_line = self.expat.CurrentLineNumber
        self.require(attrib, (*_TOKEN, "posTT") if self.gold else _TOKEN, "token", self.where)
        self.token, self.substitutes = attrib, None
        if attrib["id"] == NOT_A_TARGET:
            return
        where = f"{self.where}, token {attrib['id']}"
        self.require(attrib, ("problematic",) if self.gold else (), "token", where)
        problematic = attrib.get("problematic", "no")
        if problematic not in ("yes", "no"):
            raise self.fail(f"problematic={problematic!r} must be 'yes' or 'no'", where)

    def substitute(self, attrib: dict[str, str]) -> CoincoSubstitute:
        where = f"{self.where}, token {self.token['id']}"
        self.require(attrib, ("lemma", "pos", "freq"), "subst", where)
        lemma, freq = attrib["lemma"], attrib["freq"]
        if not lemma.strip():
            raise self.fail(f"<subst> lemma {lemma!r} is empty (a substitute is a word)", where)
        if not (freq.isascii() and freq.isdigit()) or int(freq) < 1:
            raise self.fail(
                f"<subst lemma={lemma!r}> freq {freq!r} is not a whole number >= 1", where
            )
        return CoincoSubstitute(lemma, attrib["pos"], int(freq))

    def end(self, tag: str) -> None:
        self.stack.pop()
        if tag == "token":
            self.end_token()
        elif tag == "sent":
            self.end_sentence()
        elif tag == "document" and not self.targets:
            raise self.fail("the document has no annotated token (a <token> whose id is not XXX)")

    def end_token(self) -> None:
        attrib, line = self.token, self.token_line
        fields = (attrib["wordform"], attrib["lemma"], attrib["posMASC"], attrib.get("posTT", ""))
        token_id = attrib["id"]
        if token_id == NOT_A_TARGET:
            self.tokens.append(CoincoToken(None, *fields, None, (), line))
            return
        if self.gold:
            if self.substitutes is None:
                raise self.fail(
                    "a target token has no <substitutions> (required)",
                    f"{self.where}, token {token_id}",
                    line,
                )
            if token_id in self.ids:
                raise self.fail(
                    f"id already used in sentence {self.ids[token_id]} (target ids must be unique)",
                    f"sentence {self.number}, token {token_id}",
                    line,
                )
            self.ids[token_id] = self.number
        problematic = attrib.get("problematic") == "yes"
        substitutes = tuple(self.substitutes or ())
        self.tokens.append(CoincoToken(token_id, *fields, problematic, substitutes, line))
        self.targets += 1

    def end_sentence(self) -> None:
        line = self.sentence_line
        if "targetsentence" not in self.texts:
            raise self.fail("<sent> has no <targetsentence>", self.where, line)
        if self.gold and not self.has_tokens:
            raise self.fail("<sent> has no <tokens> (required)", self.where, line)
        before, text, after = ("".join(self.texts.get(tag, ())).strip() for tag in _TEXT)
        self.done.append(
            CoincoSentence(
                self.number,
                self.sentence.get("MASCfile", ""),
                self.sentence.get("MASCsentID", ""),
                (before, text, after),
                tuple(self.tokens),
                line,
            )
        )
        self.texts, self.tokens, self.has_tokens = {}, [], False

    def data(self, text: str) -> None:
        where = self.stack[-1] if self.stack else ""
        if where in _TEXT:
            self.texts[where].append(text)
        elif text.strip():
            raise self.fail(
                f"text {text.strip()[:40]!r} in <{where}>: only <precontext>, "
                "<targetsentence> and <postcontext> hold text"
            )

    def close(self) -> None:
        return None


@contextmanager
def _chunks(source: str | Path | bytes, name: str) -> Iterator[Iterator[bytes]]:
    """The XML's bytes a chunk at a time: ``source`` itself, or a file's, gunzipped when it
    starts with gzip's magic number, within the commands' bounds
    (:func:`scoring.files.bounded.command_bounds`)."""
    if isinstance(source, bytes):
        yield (source[start : start + CHUNK] for start in range(0, len(source), CHUNK))
        return
    with Path(source).open("rb") as raw:
        yield unpacked_chunks(raw, name, command_bounds().bytes, settings=True)


def iter_coinco_sentences(
    source: str | Path | bytes, name: str | None = None, *, gold: bool = True
) -> Iterator[CoincoSentence]:
    """The sentences of a CoInCo XML file (a path, gzipped or not, or the XML's bytes),
    one chunk at a time; ``name`` (default: the path, or ``<coinco>``) names it in
    messages; ``gold``: which reading (module docstring)."""
    if name is None:
        name = "<coinco>" if isinstance(source, bytes) else str(source)
    reader = _Reader(name, gold)
    with _chunks(source, name) as chunks:
        for _ in feed_xml(reader, chunks, name, False, _HINT):
            yield from reader.done
            reader.done.clear()
    yield from reader.done


def read_coinco_sentences(
    source: str | Path | bytes, name: str | None = None, *, gold: bool = True
) -> tuple[CoincoSentence, ...]:
    """Every sentence of a CoInCo XML file, in file order (:func:`iter_coinco_sentences`)."""
    return tuple(iter_coinco_sentences(source, name, gold=gold))


def read_coinco(
    source: str | Path | bytes, name: str | None = None, *, gold: bool = True
) -> tuple[CoincoTarget, ...]:
    """Every target token of a CoInCo XML file (problematic ones included: see
    :attr:`CoincoTarget.problematic`), in file order."""
    return tuple(
        CoincoTarget(sentence, position)
        for sentence in iter_coinco_sentences(source, name, gold=gold)
        for position, token in enumerate(sentence.tokens)
        if token.id is not None
    )
