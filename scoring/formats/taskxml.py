"""The task's XML: the SemEval-2007 lexical-substitution input format (McCarthy & Navigli
2007), read into instances grouped by lexelt (:mod:`scoring.formats.instances`) and
written back (:func:`format_lexsub_xml`).

The task's input is ``corpus/lexelt[@item]/instance[@id]/context/head``::

    <corpus lang="english">
      <lexelt item="bright.a">
        <instance id="1">
          <context>He was <head>bright</head> and independent .</context>
        </instance>
      </lexelt>
    </corpus>

An item is ``lemma.pos`` or ``lemma.orig_pos.pos`` (``stand.n.v``: the organisers corrected
the PoS of ``stand`` from n to v); the PoS is the last part, one of n, v, a, r. A lemma
of several words joins them with ``_`` (``spazieren_gehen.v``). Items and ids are
NFC-normalised. The corpus's ``lang`` (``english``, ``german``, ``it``) gives the
dataset's language.

Parsing is pure (no web, no database) and safe: defusedxml refuses entity declarations
(so no entity expansion, no "billion laughs") and external entities; a ``<!DOCTYPE corpus
SYSTEM "lexsub.dtd">`` line is accepted and never fetched. A file that breaks any rule is
refused whole with ``SourceError("FILE:LINE: problem")``; nothing is half-imported.

The task's own files are not well-formed, and two of their defects are repaired before
parsing, each repair reported (``Repair``) with its line and the instance it falls in:

* a character reference split by spaces, ``&#8221 ;``, is rejoined as ``&#8221;``;
* in a UTF-8 file (no other encoding declared), each byte that is not valid UTF-8 is
  replaced by U+FFFD REPLACEMENT CHARACTER. The original character cannot be known (the
  byte 0xEF in test instance 1255 is a lone lead byte), so no guess such as cp1252 is made.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

from scoring.files.bounded import read_bounded
from scoring.files.safexml import feed_xml
from scoring.formats.instances import (
    LIMITS,
    MAX_HEAD,
    NOT_XML_CHAR,
    ImportResult,
    Instance,
    Lexelt,
    Limits,
    Repair,
    SourceError,
    check_id,
    check_item,
    nfc,
)

_SPLIT_CHARREF = re.compile(rb"&#(\d+|x[0-9A-Fa-f]+) +;")
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]+")
_CHARREF = 64
_DECLARED_ENCODING = re.compile(rb"""\A(?:\xef\xbb\xbf)?<\?xml[^>]*?encoding\s*=\s*["']([^"']*)""")
_CHILD = {
    "": "corpus",
    "corpus": "lexelt",
    "lexelt": "instance",
    "instance": "context",
    "context": "head",
}


DEFAULT = "en"
"""The language of a file that declares none."""

LanguageOf = Callable[[str], str]
"""What reads a ``<corpus lang="...">``: its ISO 639-1 code, or ValueError naming the rule
(:func:`scoring.formats.language.declared_language`, which knows the languages' names,
passed in by the importer, :mod:`scoring.formats.importers.semeval`: read without it, the
task's XML loads no table of languages)."""


def read_lexsub_xml(
    path: str | os.PathLike[str], language_of: LanguageOf | None = None
) -> ImportResult:
    """Read a file; see :func:`parse_lexsub_xml`."""
    return parse_lexsub_xml(read_bounded(path), str(path), language_of=language_of)


def parse_lexsub_xml(
    data: bytes | Iterable[bytes],
    name: str = "<xml>",
    language: str | None = None,
    limits: Limits = LIMITS,
    language_of: LanguageOf | None = None,
) -> ImportResult:
    """Import the task's XML input from ``data``, its bytes or its bytes in chunks (parsed
    as they come); ``name`` is the file name for messages.

    The dataset's language is ``language`` when given (an ISO 639-1 code, checked by the
    caller); otherwise the one ``<corpus lang="...">`` names as ``language_of`` reads it
    (a name such as ``english`` or a code), ``en`` without it; without ``language_of`` the
    ``lang`` attribute is not read (the language is ``en``).
    Item names and instance ids are NFC-normalised.

    Raises ``SourceError`` naming the line and the rule broken: malformed XML, an entity
    declaration or external entity, an element out of place, an item that is not
    ``lemma.pos[.pos]``, a duplicate lexelt item or instance id, an instance without
    exactly one ``<head>`` in exactly one ``<context>``, text outside ``<context>``, an
    item, instance id or head longer than the database keeps (``MAX_ITEM``,
    ``MAX_INSTANCE_ID``, ``MAX_HEAD`` characters), a ``lang`` that names no language
    with a two-letter code (unless ``language`` is given), more instances or a longer
    context than ``limits`` admit (refused as soon as the parser reaches it).
    """
    found: list[_Found] = []
    builder = _Builder(name, language, limits, language_of)
    chunks = (data,) if isinstance(data, bytes) else data
    for _ in feed_xml(builder, _repaired(_pieces(chunks), found), name, True, "", SourceError):
        pass
    return ImportResult(tuple(builder.lexelts), builder.locate(found), language or builder.language)


def _pieces(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """``chunks`` cut where no repair can straddle the cut: before a ``&`` among the last
    :data:`_CHARREF` bytes (a split character reference is shorter) and before a UTF-8
    sequence the chunk ends inside."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        cut = len(pending)
        amp = pending.rfind(b"&", max(0, cut - _CHARREF))
        if amp >= 0:
            cut = amp
        back = cut
        while back > max(0, cut - 3) and 0x80 <= pending[back - 1] < 0xC0:
            back -= 1
        if back > 0 and pending[back - 1] >= 0xC0:
            cut = back - 1
        yield pending[:cut]
        pending = pending[cut:]
    if pending:
        yield pending


def _repaired(pieces: Iterator[bytes], found: list[_Found]) -> Iterator[bytes]:
    """Each piece repaired (:func:`_repair`; the first decides whether the file is
    UTF-8); the repairs go to ``found`` with their offsets and lines in the whole file."""
    first = next(pieces, b"")
    utf8 = _is_utf8(first)
    offset, line = 0, 0
    for piece in chain((first,), pieces):
        repaired, here = _repair(piece, utf8)
        found.extend((offset + at, line + number, what) for at, number, what in here)
        offset += len(repaired)
        line += piece.count(b"\n")
        yield repaired


def format_lexsub_xml(lexelts: Iterable[Lexelt]) -> bytes:
    """Write lexelts in the task's layout (UTF-8); ``parse_lexsub_xml`` reads them back.

    Raises ValueError for a character that XML 1.0 cannot hold (such as U+0000).
    """
    lines = [
        '<?xml version="1.0" ?>',
        '<!DOCTYPE corpus SYSTEM "lexsub.dtd">',
        "",
        '<corpus lang="english">',
    ]
    for lexelt in lexelts:
        lines.append(f'\t<lexelt item="{_escape_attribute(lexelt.item)}">')
        for instance in lexelt.instances:
            lines.append(f'\t\t<instance id="{_escape_attribute(instance.id)}">')
            lines.append(
                f"\t\t\t<context>{_escape_text(instance.before)}"
                f"<head>{_escape_text(instance.head)}</head>"
                f"{_escape_text(instance.after)}</context>"
            )
            lines.append("\t\t</instance>")
        lines.append("\t</lexelt>")
    lines.append("</corpus>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _escape_text(text: str) -> str:
    _check_xml_chars(text)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")
    )


def _escape_attribute(text: str) -> str:
    return _escape_text(text).replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;")


def _check_xml_chars(text: str) -> None:
    bad = NOT_XML_CHAR.search(text)
    if bad is not None:
        raise ValueError(
            f"U+{ord(bad.group()):04X} in {text!r} is not a character XML 1.0 can hold"
        )


# A repair found before parsing: (byte offset in the repaired data, line, what).
_Found = tuple[int, int, str]


def _is_utf8(start: bytes) -> bool:
    """Whether a file that starts with ``start`` is UTF-8: no UTF-16 byte-order mark, no
    other encoding declared."""
    declared = _DECLARED_ENCODING.match(start)
    return not start.startswith((b"\xfe\xff", b"\xff\xfe")) and (
        declared is None or declared.group(1).lower() in (b"utf-8", b"utf8")
    )


def _repair(data: bytes, utf8: bool) -> tuple[bytes, list[_Found]]:
    """Rejoin split character references and replace invalid UTF-8 bytes (module
    docstring) in a file, or a piece of it, that is ``utf8`` or not. Returns the repaired
    bytes and each repair's offset in them and line."""
    found: list[_Found] = []
    if utf8:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            data, found = _replace_invalid_utf8(data)
    if b"&#" in data:
        data, found = _rejoin_charrefs(data, found)
    return data, found


def _replace_invalid_utf8(data: bytes) -> tuple[bytes, list[_Found]]:
    text = data.decode("utf-8", "surrogateescape")
    found: list[_Found] = []
    parts: list[str] = []
    line = 1
    offset = last = 0
    for run in _ESCAPED_BYTES.finditer(text):
        kept = text[last : run.start()]
        parts.append(kept)
        offset += len(kept.encode("utf-8", "surrogateescape"))
        line += kept.count("\n")
        raw = run.group().encode("utf-8", "surrogateescape")
        names = " ".join(f"0x{byte:02X}" for byte in raw)
        plural = "s" if len(raw) > 1 else ""
        found.append((offset, line, f"invalid UTF-8 byte{plural} {names} replaced by U+FFFD"))
        parts.append("\ufffd" * len(raw))
        offset += 3 * len(raw)
        last = run.end()
    parts.append(text[last:])
    return "".join(parts).encode("utf-8"), found


def _rejoin_charrefs(data: bytes, earlier: list[_Found]) -> tuple[bytes, list[_Found]]:
    """Rejoin ``&#NNNN ;``; the offsets of ``earlier`` repairs move with the bytes removed."""
    found: list[_Found] = []
    starts: list[int] = []
    removed_before: list[int] = []
    removed = 0
    line, counted = 1, 0
    for match in _SPLIT_CHARREF.finditer(data):
        line += data.count(b"\n", counted, match.start())
        counted = match.start()
        reference = match.group().decode("ascii")
        joined = f"&#{match.group(1).decode('ascii')};"
        found.append(
            (
                match.start() - removed,
                line,
                f"split character reference {reference!r} rejoined as {joined!r}",
            )
        )
        removed += len(reference) - len(joined)
        starts.append(match.start())
        removed_before.append(removed)
    if not found:
        return data, earlier
    for offset, line, what in earlier:
        index = bisect_right(starts, offset) - 1
        found.append((offset - (removed_before[index] if index >= 0 else 0), line, what))
    return _SPLIT_CHARREF.sub(rb"&#\1;", data), sorted(found)


class _Builder:
    """Parser target: checks the structure as elements arrive and builds the lexelts."""

    def __init__(
        self,
        name: str,
        language: str | None = None,
        limits: Limits = LIMITS,
        language_of: LanguageOf | None = None,
    ) -> None:
        self.name = name
        self.language_of = language_of
        self.limits = limits
        self.length = 0
        self.given_language = language
        self.language = DEFAULT
        self.expat: Any = None
        self.lexelts: list[Lexelt] = []
        self.stack: list[str] = []
        self.items: dict[str, int] = {}
        self.ids: dict[str, int] = {}
        self.spans: list[tuple[int, int, str]] = []
        self.item = self.lemma = self.pos = ""
        self.instances: list[Instance] = []
        self.id = ""
        self.line = self.start_byte = self.context_line = 0
        self.contexts = self.heads = 0
        self.before: list[str] = []
        self.head: list[str] = []
        self.after: list[str] = []

    def fail(self, problem: str, line: int | None = None) -> SourceError:
        return SourceError(self.name, line or self.expat.CurrentLineNumber, problem)

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        parent = self.stack[-1] if self.stack else ""
        expected = _CHILD.get(parent)
        if tag != expected:
            if not parent:
                raise self.fail(f"the root element must be <corpus>, not <{tag}>")
            if expected is None:
                raise self.fail(
                    f"element <{tag}> inside the <head> of instance {self.id!r}: "
                    "the head must be plain text"
                )
            raise self.fail(f"unexpected element <{tag}> in <{parent}>; expected <{expected}>")
        self.stack.append(tag)
        if (
            tag == "corpus"
            and attrib.get("lang", "").strip()
            and self.given_language is None
            and self.language_of is not None
        ):
            try:
                self.language = self.language_of(attrib["lang"])
            except ValueError as error:
                raise self.fail(
                    f'<corpus lang="{attrib["lang"][:40]}">: {error}; give the language '
                    "with --language CODE"
                ) from None
        elif tag == "lexelt":
            self.start_lexelt(attrib)
        elif tag == "instance":
            self.start_instance(attrib)
        elif tag == "context":
            self.contexts += 1
            if self.contexts > 1:
                raise self.fail(f"instance {self.id!r} has more than one <context>")
            self.context_line = self.expat.CurrentLineNumber
        elif tag == "head":
            self.heads += 1
            if self.heads > 1:
                raise self.fail(
                    f"instance {self.id!r} has more than one <head>; exactly one is required"
                )

    def start_lexelt(self, attrib: dict[str, str]) -> None:
        line = self.expat.CurrentLineNumber
        if "item" not in attrib:
            raise self.fail("<lexelt> has no item attribute")
        item = nfc(attrib["item"])
        try:
            self.lemma, self.pos = check_item(item)
        except ValueError as error:
            raise self.fail(str(error)) from None
        if item in self.items:
            raise self.fail(
                f"duplicate lexelt item {item!r} (first at line "
                f"{self.items[item]}); a word must be one <lexelt>"
            )
        self.items[item] = line
        self.item = item
        self.instances = []

    def start_instance(self, attrib: dict[str, str]) -> None:
        line = self.expat.CurrentLineNumber
        if "id" not in attrib:
            raise self.fail(f"an <instance> of {self.item!r} has no id attribute")
        id_ = nfc(attrib["id"])
        try:
            check_id(id_)
        except ValueError as error:
            raise self.fail(str(error)) from None
        if id_ in self.ids:
            raise self.fail(
                f"duplicate instance id {id_!r} (first at line {self.ids[id_]}); "
                "ids must be unique in the file"
            )
        try:
            self.limits.check_count(len(self.ids) + 1)
        except ValueError as error:
            raise self.fail(str(error)) from None
        self.ids[id_] = line
        self.id, self.line = id_, line
        self.length = 0
        self.start_byte = self.expat.CurrentByteIndex
        self.contexts = self.heads = 0
        self.before, self.head, self.after = [], [], []

    def end(self, tag: str) -> None:
        self.stack.pop()
        if tag == "head":
            head = "".join(self.head)
            if not head.strip():
                raise self.fail(f"instance {self.id!r} has an empty <head>")
            if len(head) > MAX_HEAD:
                raise self.fail(
                    f"the <head> of instance {self.id!r} has {len(head)} "
                    f"characters; at most {MAX_HEAD}"
                )
        elif tag == "context":
            if self.heads == 0:
                raise self.fail(
                    f"instance {self.id!r} has no <head> in its <context>; exactly one is required",
                    self.context_line,
                )
        elif tag == "instance":
            if self.contexts == 0:
                raise self.fail(f"instance {self.id!r} has no <context>", self.line)
            self.instances.append(
                Instance(
                    self.id,
                    self.item,
                    "".join(self.before),
                    "".join(self.head),
                    "".join(self.after),
                    self.line,
                )
            )
            self.spans.append((self.start_byte, self.expat.CurrentByteIndex, self.id))
        elif tag == "lexelt":
            if not self.instances:
                raise self.fail(f"lexelt {self.item!r} has no instances", self.items[self.item])
            self.lexelts.append(Lexelt(self.item, self.lemma, self.pos, tuple(self.instances)))
        elif tag == "corpus" and not self.lexelts:
            raise self.fail("the corpus has no <lexelt>")

    def data(self, text: str) -> None:
        where = self.stack[-1] if self.stack else ""
        if where in ("head", "context"):
            self.length += len(text)
            try:
                self.limits.check_context(self.length, self.id)
            except ValueError as error:
                raise self.fail(str(error)) from None
        if where == "head":
            self.head.append(text)
        elif where == "context":
            (self.after if self.heads else self.before).append(text)
        elif text.strip():
            raise self.fail(
                f"text {text.strip()[:40]!r} in <{where}>: only <context> and <head> hold text"
            )

    def close(self) -> None:
        return None

    def locate(self, found: list[_Found]) -> tuple[Repair, ...]:
        """Each repair with the id of the instance whose bytes hold it."""
        starts = [start for start, _, _ in self.spans]
        repairs = []
        for offset, line, what in found:
            index = bisect_right(starts, offset) - 1
            inside = index >= 0 and offset < self.spans[index][1]
            repairs.append(Repair(self.spans[index][2] if inside else "", line, what))
        return tuple(repairs)
