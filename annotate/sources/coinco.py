"""Import of CoInCo, the Concepts in Context corpus (Kremer et al. 2014, "What Substitutes
Tell Us", EACL): all content words of 2,474 MASC sentences, each with its substitutes.

The file is ``document/sent``; each ``sent`` holds the target sentence and the sentences
around it, and its tokens::

    <document>
      <sent MASCfile="..." MASCsentID="s-r0">
        <precontext>The sentence before.</precontext>
        <targetsentence>A mission to end a war</targetsentence>
        <postcontext>The sentence after.</postcontext>
        <tokens>
          <token id="XXX" wordform="A" lemma="a" posMASC="XXX" posTT="DT" />
          <token id="4" wordform="mission" lemma="mission" posMASC="NN" posTT="NN"
                 problematic="no"><substitutions>...</substitutions></token>
          ...

One instance per annotated token (a token whose id is not ``XXX``), with the token's id:
the target sentence with that token as the head, the preceding sentence before it and
the following one after it, each on its own line. Tokens marked ``problematic="yes"``
(CoInCo's annotators flagged the target as unfit, 214 of 15,629 in the release) are left
out and counted in a note, so the release gives the 15,415 targets the corpus is known by.
The lexelt is the token's ``lemma`` (its wordform, reported as a repair, where the lemma
is no word: one token of the release has the lemma ``.``) and the family of its
``posMASC`` (Penn tags): NN*
→ n, VB* → v, JJ* → a, RB* → r. An annotated token with any other tag is refused (CoInCo
annotated content words only; the release has none). The substitutes are not imported:
they are CoInCo's gold, not a study's input.

The token's place in the sentence is found by :func:`locate_tokens`: the tokens are the
sentence's words in order, but some are split (``hadn`` ``n\u2019t`` for ``hadn\u2019t``), some
overlap (``com/syndicate`` ``syndicate``) and a few words have no token.
Parsing is as safe as the task's XML (defusedxml: no entity expansion, no external
entities); every problem is ``FILE:LINE: problem``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from annotate.sources.model import ImportResult, Repair, Row, SourceError, group_lexelts
from annotate.sources.xml import feed_xml

POS_FAMILIES = {"NN": "n", "VB": "v", "JJ": "a", "RB": "r"}
"""The first two letters of a Penn tag → the task's PoS."""
NOT_A_TARGET = "XXX"
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


def pos_of(tag: str) -> str:
    """The task's PoS of a Penn tag; ValueError for a tag outside the four families.

    >>> [pos_of(tag) for tag in ("NNS", "VBD", "JJR", "RB")]
    ['n', 'v', 'a', 'r']
    """
    pos = POS_FAMILIES.get(tag[:2])
    if pos is None:
        raise ValueError(
            f"posMASC {tag!r} is not a noun, verb, adjective or adverb tag "
            "(NN* → n, VB* → v, JJ* → a, RB* → r)"
        )
    return pos


def locate_tokens(text: str, words: list[str]) -> list[tuple[int, int] | None]:
    """Where each token stands in ``text``, in order (None: not found). A token is taken
    at its next occurrence when only spaces and punctuation lie before it; else where it
    overlaps the previous token's end (``hadn`` then ``n\u2019t``); else at its next occurrence
    as a whole word (a word without a token lies before it).

    >>> text = "She hadn\u2019t seen it, com/syndicate for more"
    >>> words = ["She", "hadn", "n\u2019t", "seen", "it", ",", "com/syndicate", "syndicate", "more"]
    >>> spans = locate_tokens(text, words)
    >>> [text[span[0] : span[1]] for span in spans if span is not None][1:3]
    ['hadn', 'n\u2019t']
    >>> spans[-2:]
    [(24, 33), (38, 42)]
    """
    spans: list[tuple[int, int] | None] = []
    position = 0
    previous: tuple[int, int] | None = None
    for word in words:
        span: tuple[int, int] | None = None
        start = text.find(word, position) if word else -1
        if start >= 0 and not any(char.isalnum() for char in text[position:start]):
            span = (start, start + len(word))
        elif previous is not None and word:
            start = text.find(word, previous[0] + 1)
            if 0 <= start < previous[1] <= start + len(word):
                span = (start, start + len(word))
        if span is None and word:
            whole = re.compile(r"(?<!\w)" + re.escape(word) + r"(?!\w)").search(text, position)
            if whole is not None:
                span = whole.span()
        if span is not None:
            previous, position = span, span[1]
        spans.append(span)
    return spans


@dataclass
class _Token:
    id: str
    wordform: str
    lemma: str
    pos: str
    problematic: bool
    line: int


@dataclass
class _Sentence:
    line: int
    text: dict[str, list[str]] = field(default_factory=dict)
    tokens: list[_Token] = field(default_factory=list)


class _Builder:
    """Parser target: checks the structure as elements arrive and collects the rows."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.expat: Any = None
        self.stack: list[str] = []
        self.sentence = _Sentence(0)
        self.rows: list[Row] = []
        self.repairs: list[Repair] = []
        self.skipped = 0

    def fail(self, problem: str, line: int | None = None) -> SourceError:
        return SourceError(self.name, line or self.expat.CurrentLineNumber, problem)

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        parent = self.stack[-1] if self.stack else ""
        expected = _CHILDREN[parent]
        if tag not in expected:
            if not parent:
                raise self.fail(f"the root element must be <document> (CoInCo), not <{tag}>")
            wanted = ", ".join(f"<{child}>" for child in expected) or "no element"
            raise self.fail(f"unexpected element <{tag}> in <{parent}>; expected {wanted}")
        self.stack.append(tag)
        line = self.expat.CurrentLineNumber
        if tag == "sent":
            self.sentence = _Sentence(line)
        elif tag in _TEXT:
            if tag in self.sentence.text:
                raise self.fail(f"the <sent> at line {self.sentence.line} has two <{tag}>")
            self.sentence.text[tag] = []
        elif tag == "token":
            self.sentence.tokens.append(self.token(attrib, line))

    def token(self, attrib: dict[str, str], line: int) -> _Token:
        missing = [key for key in ("id", "wordform", "lemma", "posMASC") if key not in attrib]
        if missing:
            raise self.fail(f"<token> has no {', '.join(missing)} attribute")
        id_ = attrib["id"]
        problematic = attrib.get("problematic", "no") == "yes"
        pos = ""
        if id_ != NOT_A_TARGET and not problematic:
            try:
                pos = pos_of(attrib["posMASC"])
            except ValueError as error:
                raise self.fail(f"token {id_!r}: {error}") from None
        return _Token(id_, attrib["wordform"], attrib["lemma"], pos, problematic, line)

    def end(self, tag: str) -> None:
        self.stack.pop()
        if tag == "sent":
            self.end_sentence()
        elif tag == "document" and not self.rows and not self.skipped:
            raise self.fail("the document has no annotated token (a <token> whose id is not XXX)")

    def end_sentence(self) -> None:
        sentence = self.sentence
        if "targetsentence" not in sentence.text:
            raise self.fail("<sent> has no <targetsentence>", sentence.line)
        text = "".join(sentence.text["targetsentence"]).strip()
        before = "".join(sentence.text.get("precontext", [])).strip()
        after = "".join(sentence.text.get("postcontext", [])).strip()
        spans = locate_tokens(text, [token.wordform for token in sentence.tokens])
        for token, span in zip(sentence.tokens, spans, strict=True):
            if token.id == NOT_A_TARGET:
                continue
            if token.problematic:
                self.skipped += 1
                continue
            if span is None:
                raise self.fail(
                    f"token {token.id!r} {token.wordform!r} is not found in its "
                    "<targetsentence> (the tokens are the sentence's words, in order)",
                    token.line,
                )
            start, end = span
            lemma = token.lemma
            if lemma == "<unknown>" or not any(char.isalnum() for char in lemma):
                lemma = token.wordform
                self.repairs.append(
                    Repair(
                        token.id,
                        token.line,
                        f"lemma {token.lemma!r} is not a word; the lexelt takes the "
                        f"wordform {lemma!r}",
                    )
                )
            self.rows.append(
                Row(
                    token.id,
                    f"{lemma}.{token.pos}",
                    (before + "\n" if before else "") + text[:start],
                    text[start:end],
                    text[end:] + ("\n" + after if after else ""),
                    token.line,
                    token.line,
                )
            )

    def data(self, text: str) -> None:
        where = self.stack[-1] if self.stack else ""
        if where in _TEXT:
            self.sentence.text[where].append(text)
        elif text.strip():
            raise self.fail(
                f"text {text.strip()[:40]!r} in <{where}>: only <precontext>, "
                "<targetsentence> and <postcontext> hold text"
            )

    def close(self) -> None:
        return None


def parse_coinco(data: bytes, name: str = "<coinco>") -> ImportResult:
    """The instances of a CoInCo XML file (module docstring); SourceError naming the line
    and the rule for malformed XML, an element out of place, a sentence without a target
    sentence, a token without its attributes, with another tag, or not in its sentence,
    and the rules every format shares (:func:`annotate.sources.model.group_lexelts`)."""
    builder = _Builder(name)
    feed_xml(builder, data, name, False, " (a CoInCo file has no DTD or entities)")
    notes: tuple[str, ...] = ()
    if builder.skipped:
        notes = (
            f'left out {builder.skipped} tokens that CoInCo\'s annotators marked problematic="yes"',
        )
    return ImportResult(group_lexelts(builder.rows, name), tuple(builder.repairs), "en", notes)
