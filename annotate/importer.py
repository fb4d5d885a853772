"""Import of the SemEval-2007 lexical-substitution input format (SPEC A3).

The task's input is ``corpus/lexelt[@item]/instance[@id]/context/head``::

    <corpus lang="english">
      <lexelt item="bright.a">
        <instance id="1">
          <context>He was <head>bright</head> and independent .</context>
        </instance>
      </lexelt>
    </corpus>

An item is ``lemma.pos`` or ``lemma.orig_pos.pos`` (``stand.n.v``: the organisers corrected
the PoS of ``stand`` from n to v); the PoS is the last part, one of n, v, a, r.

Parsing is pure (no web, no database) and safe: defusedxml refuses entity declarations
(so no entity expansion, no "billion laughs") and external entities; a ``<!DOCTYPE corpus
SYSTEM "lexsub.dtd">`` line is accepted and never fetched. A file that breaks any rule is
refused whole with ``XMLImportError("FILE:LINE: problem")``; nothing is half-imported.

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
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from defusedxml import (  # type: ignore[import-untyped, unused-ignore]
    DefusedXmlException,
    EntitiesForbidden,
    ExternalReferenceForbidden,
)
from defusedxml.ElementTree import (  # type: ignore[import-untyped, unused-ignore]
    DefusedXMLParser,
    ParseError,
)

POS_TAGS = ("n", "v", "a", "r")
# The most characters the database keeps (annotate.models uses these for its columns).
MAX_ITEM = 120
MAX_INSTANCE_ID = 64
MAX_HEAD = 255

_ITEM = re.compile(r"([^\s.]+)\.(?:[nvar]\.)?([nvar])")
_SPLIT_CHARREF = re.compile(rb"&#(\d+|x[0-9A-Fa-f]+) +;")
_ESCAPED_BYTES = re.compile("[\udc80-\udcff]+")
_DECLARED_ENCODING = re.compile(rb"""\A(?:\xef\xbb\xbf)?<\?xml[^>]*?encoding\s*=\s*["']([^"']*)""")
_PARSER_POSITION = re.compile(r": line \d+, column \d+$")
_NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_CHILD = {
    "": "corpus",
    "corpus": "lexelt",
    "lexelt": "instance",
    "instance": "context",
    "context": "head",
}


@dataclass(frozen=True, slots=True)
class Instance:
    """One sentence: its context split around the target (``before + head + after``)."""

    id: str
    lexelt: str
    before: str
    head: str
    after: str
    line: int

    @property
    def text(self) -> str:
        """The whole context as plain text."""
        return self.before + self.head + self.after


@dataclass(frozen=True, slots=True)
class Lexelt:
    """One target word (``item`` such as ``bright.a`` or ``stand.n.v``) and its sentences."""

    item: str
    lemma: str
    pos: str
    instances: tuple[Instance, ...]


@dataclass(frozen=True, slots=True)
class Repair:
    """A defect of the input that was repaired before parsing (``instance_id`` is empty
    when the defect lies outside every instance)."""

    instance_id: str
    line: int
    what: str


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The lexelts of a file in file order, and the repairs made to read it."""

    lexelts: tuple[Lexelt, ...]
    repairs: tuple[Repair, ...]

    @property
    def instances(self) -> tuple[Instance, ...]:
        """Every instance, in file order."""
        return tuple(instance for lexelt in self.lexelts for instance in lexelt.instances)

    @property
    def n_instances(self) -> int:
        return sum(len(lexelt.instances) for lexelt in self.lexelts)


class XMLImportError(ValueError):
    """A file that cannot be imported; the message is ``FILE:LINE: problem``."""

    def __init__(self, file: str, line: int, problem: str) -> None:
        super().__init__(f"{file}:{line}: {problem}")
        self.file = file
        self.line = line
        self.problem = problem


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to its first ``limit`` characters."""
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


def split_item(item: str) -> tuple[str, str]:
    """``(lemma, pos)`` of an item ``lemma.pos`` or ``lemma.orig_pos.pos``; ValueError if the
    item is neither."""
    match = _ITEM.fullmatch(item)
    if match is None:
        raise ValueError(
            f"lexelt item {item!r} is not lemma.pos or lemma.pos.pos "
            f"with pos one of {', '.join(POS_TAGS)}"
        )
    return match.group(1), match.group(2)


def read_lexsub_xml(path: str | os.PathLike[str]) -> ImportResult:
    """Import a file; see ``parse_lexsub_xml``."""
    return parse_lexsub_xml(Path(path).read_bytes(), str(path))


def parse_lexsub_xml(data: bytes, name: str = "<xml>") -> ImportResult:
    """Import the task's XML input from ``data`` (``name`` is the file name for messages).

    Raises ``XMLImportError`` naming the line and the rule broken: malformed XML, an entity
    declaration or external entity, an element out of place, an item that is not
    ``lemma.pos[.pos]``, a duplicate lexelt item or instance id, an instance without
    exactly one ``<head>`` in exactly one ``<context>``, text outside ``<context>``, an
    item, instance id or head longer than the database keeps (``MAX_ITEM``,
    ``MAX_INSTANCE_ID``, ``MAX_HEAD`` characters).
    """
    data, found = _repair(data)
    builder = _Builder(name)
    parser = DefusedXMLParser(
        target=builder, forbid_dtd=False, forbid_entities=True, forbid_external=True
    )
    builder.expat = parser.parser
    try:
        parser.feed(data)
        parser.close()
    except XMLImportError:
        raise
    except ParseError as error:
        line, column = error.position
        problem = _PARSER_POSITION.sub("", str(error))
        raise XMLImportError(
            name, line, f"not well-formed XML: {problem} (column {column + 1})"
        ) from None
    except EntitiesForbidden as error:
        if error.sysid or error.pubid:
            problem = (
                f"external entity {error.name!r} ({error.sysid or error.pubid}) is "
                "declared; external entities are forbidden"
            )
        else:
            problem = (
                f"entity declaration {error.name!r} is forbidden (no entity "
                "expansion: it allows a 'billion laughs' attack)"
            )
        raise XMLImportError(name, parser.parser.CurrentLineNumber, problem) from None
    except ExternalReferenceForbidden as error:
        raise XMLImportError(
            name,
            parser.parser.CurrentLineNumber,
            f"reference to the external resource {error.sysid!r} is forbidden",
        ) from None
    except DefusedXmlException as error:
        raise XMLImportError(
            name, parser.parser.CurrentLineNumber, f"forbidden XML construct: {error}"
        ) from None
    except (LookupError, ValueError) as error:  # an encoding expat cannot read
        raise XMLImportError(
            name, parser.parser.CurrentLineNumber, f"cannot read the declared encoding: {error}"
        ) from None
    return ImportResult(tuple(builder.lexelts), builder.locate(found))


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
    bad = _NOT_XML_CHAR.search(text)
    if bad is not None:
        raise ValueError(
            f"U+{ord(bad.group()):04X} in {text!r} is not a character XML 1.0 can hold"
        )


# A repair found before parsing: (byte offset in the repaired data, line, what).
_Found = tuple[int, int, str]


def _repair(data: bytes) -> tuple[bytes, list[_Found]]:
    """Rejoin split character references and replace invalid UTF-8 bytes (module
    docstring). Returns the repaired bytes and each repair's offset in them and line."""
    found: list[_Found] = []
    declared = _DECLARED_ENCODING.match(data)
    utf8 = not data.startswith((b"\xfe\xff", b"\xff\xfe")) and (
        declared is None or declared.group(1).lower() in (b"utf-8", b"utf8")
    )
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

    def __init__(self, name: str) -> None:
        self.name = name
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

    def fail(self, problem: str, line: int | None = None) -> XMLImportError:
        return XMLImportError(self.name, line or self.expat.CurrentLineNumber, problem)

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
        if tag == "lexelt":
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
        item = attrib["item"]
        if len(item) > MAX_ITEM:
            raise self.fail(
                f"lexelt item {_shown(item)} has {len(item)} characters; at most {MAX_ITEM}"
            )
        try:
            self.lemma, self.pos = split_item(item)
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
        id_ = attrib["id"]
        if len(id_) > MAX_INSTANCE_ID:
            raise self.fail(
                f"instance id {_shown(id_)} has {len(id_)} characters; at most {MAX_INSTANCE_ID}"
            )
        if not id_ or any(char.isspace() for char in id_):
            raise self.fail(f"instance id {id_!r} must be non-empty and contain no white space")
        if id_ in self.ids:
            raise self.fail(
                f"duplicate instance id {id_!r} (first at line {self.ids[id_]}); "
                "ids must be unique in the file"
            )
        self.ids[id_] = line
        self.id, self.line = id_, line
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
