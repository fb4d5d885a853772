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
is no word: one token of the release has the lemma ``.``; the words of a lemma such as
``e commerce`` joined with ``_``, as the CoInCo benchmark does) and the family of its
``posMASC`` (Penn tags):
NN* → n, VB* → v, JJ* → a, RB* → r. An annotated token with any other tag is refused (CoInCo
annotated content words only; the release has none). The substitutes are not imported:
they are CoInCo's gold, not a study's input.

The token's place in the sentence is found by :func:`locate_tokens`: the tokens are the
sentence's words in order, but some are split (``hadn`` ``n\u2019t`` for ``hadn\u2019t``), some
overlap (``com/syndicate`` ``syndicate``) and a few words have no token.
The file is read by :func:`scoring.formats.coinco.read_coinco_sentences`, the project's one
CoInCo reader, in its contexts-only reading (``gold=False``: ``posTT``, ``problematic``
and the substitutions may be missing), so the benchmark and the importer refuse a
malformed file alike; parsing is as safe as the task's XML (defusedxml: no DTD, no entity
expansion, no external entities). Only the PoS family, the lemma repair and the token's
place are this module's; every problem is ``FILE:LINE: problem``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from scoring.errors import XmlError
from scoring.formats.coinco import CoincoToken, iter_coinco_sentences, read_coinco
from scoring.formats.hf import GoldEntries, ordered_entries
from scoring.formats.instances import (
    LIMITS,
    ImportResult,
    Limits,
    Repair,
    Row,
    SourceError,
    group_lexelts,
)
from scoring.formats.keys import joined

POS_FAMILIES = {"NN": "n", "VB": "v", "JJ": "a", "RB": "r"}
"""The first two letters of a Penn tag → the task's PoS."""


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
    missed: set[tuple[str, int, tuple[int, int] | None]] = set()  # the same search fails
    for word in words:
        span: tuple[int, int] | None = None
        if not word or (word, position, previous) in missed:
            spans.append(None)
            continue
        start = text.find(word, position)
        if start >= 0 and _ALNUM.search(text, position, start) is None:
            span = (start, start + len(word))
        elif previous is not None:
            after = text.find(word, previous[0] + 1)
            if 0 <= after < previous[1] <= after + len(word):
                span = (after, after + len(word))
        if span is None:
            span = _whole_word(text, word, start)
        if span is None:
            missed.add((word, position, previous))
        else:
            previous, position = span, span[1]
        spans.append(span)
    return spans


_ALNUM = re.compile(r"[^\W_]")
"""A letter or digit (``str.isalnum``)."""


def _whole_word(text: str, word: str, start: int) -> tuple[int, int] | None:
    """The first occurrence of ``word`` at or after ``start`` (one, or -1) that no letter,
    digit or underscore touches (what ``(?<!\\w)WORD(?!\\w)`` finds, without compiling a
    pattern per word)."""
    end = len(text)
    while start >= 0:
        stop = start + len(word)
        if not (start and _is_word_char(text[start - 1])) and not (
            stop < end and _is_word_char(text[stop])
        ):
            return start, stop
        start = text.find(word, start + 1)
    return None


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def is_word(lemma: str) -> bool:
    """Whether a lemma can name a lexelt: not ``<unknown>`` and not punctuation (a letter
    or digit in it).

    >>> is_word("feel"), is_word("."), is_word("<unknown>")
    (True, False, False)
    """
    return lemma != "<unknown>" and any(char.isalnum() for char in lemma)


def _row(
    token_id: str,
    token: CoincoToken,
    lemma: str,
    span: tuple[int, int] | None,
    written: tuple[str, str, str],
) -> Row:
    """One annotated token as a row: ValueError for a tag outside the four families or a
    token not found in its target sentence."""
    try:
        pos = pos_of(token.pos_masc)
    except ValueError as error:
        raise ValueError(f"token {token_id!r}: {error}") from None
    if span is None:
        raise ValueError(
            f"token {token_id!r} {token.wordform!r} is not found in its <targetsentence> "
            "(the tokens are the sentence's words, in order)"
        )
    before, text, after = written
    start, end = span
    return Row(
        token_id,
        f"{joined(lemma)}.{pos}",
        (before + "\n" if before else "") + text[:start],
        text[start:end],
        text[end:] + ("\n" + after if after else ""),
        token.line,
        token.line,
    )


def parse_coinco(data: bytes, name: str = "<coinco>", limits: Limits = LIMITS) -> ImportResult:
    """The instances of a CoInCo XML file (module docstring), read a chunk at a time by
    :func:`scoring.formats.coinco.iter_coinco_sentences` (contexts only: ``gold=False``);
    SourceError naming the line and the rule for what that reader refuses, an annotated
    token with another tag or not in its sentence, and the rules every format shares
    (:func:`scoring.formats.instances.group_lexelts`, with ``limits``)."""
    repairs: list[Repair] = []
    skipped: list[str] = []
    lexelts = group_lexelts(_rows(data, name, limits, repairs, skipped), name, limits)
    notes: tuple[str, ...] = ()
    if skipped:
        notes = (
            f'left out {len(skipped)} tokens that CoInCo\'s annotators marked problematic="yes"',
        )
    return ImportResult(lexelts, tuple(repairs), "en", notes)


def import_stream(
    stream: Iterable[bytes], data: bytes, name: str, language: str | None, limits: Limits
) -> ImportResult:
    """The reader of the ``coinco`` row of :data:`scoring.formats.registry.FORMATS`: the
    file read whole (unpacked first when it is gzip), :func:`parse_coinco`."""
    whole = b"".join(stream) if data.startswith(b"\x1f\x8b") else data
    return parse_coinco(whole, name, limits)


def gold_entries(data: bytes, name: str) -> GoldEntries:
    """The gold reader of the ``coinco`` row: each token's substitute lemmas and how many
    annotators gave them (``;`` written ``,``, as the benchmark reads them), by token id."""
    result: dict[str | int, tuple[tuple[str, int], ...]] = {}
    for target in read_coinco(data, name):
        forms: dict[str, int] = {}
        for substitute in target.substitutes:
            form = substitute.lemma.replace(";", ",")
            forms[form] = forms.get(form, 0) + substitute.freq
        result[target.id] = ordered_entries(forms)
    return result


def _rows(
    data: bytes, name: str, limits: Limits, repairs: list[Repair], skipped: list[str]
) -> Iterator[Row]:
    """The annotated tokens as rows, sentence by sentence (:func:`parse_coinco`); the
    lemma repairs go to ``repairs``, the ids of problematic tokens to ``skipped``. A
    sentence too long for ``limits`` is refused at its first annotated token before its
    tokens are looked for in it."""
    try:
        for sentence in iter_coinco_sentences(data, name, gold=False):
            kept = (token for token in sentence.tokens if token.id and not token.problematic)
            first = next(kept, None)
            if first is not None and first.id is not None:
                before, text, after = sentence.written
                length = len(text) + sum(len(part) + 1 for part in (before, after) if part)
                try:
                    limits.check_context(length, first.id)
                except ValueError as error:
                    raise SourceError(name, first.line, str(error)) from None
            words = [token.wordform for token in sentence.tokens]
            spans = locate_tokens(sentence.written[1], words)
            for token, span in zip(sentence.tokens, spans, strict=True):
                if token.id is None:
                    continue
                if token.problematic:
                    skipped.append(token.id)
                    continue
                lemma = token.lemma if is_word(token.lemma) else token.wordform
                try:
                    yield _row(token.id, token, lemma, span, sentence.written)
                except ValueError as error:
                    raise SourceError(name, token.line, str(error)) from None
                if lemma != token.lemma:
                    what = (
                        f"lemma {token.lemma!r} is not a word; "
                        f"the lexelt takes the wordform {lemma!r}"
                    )
                    repairs.append(Repair(token.id, token.line, what))
    except XmlError as error:
        raise SourceError(error.file, error.line, error.problem) from None
