"""The table of the dataset formats that ``lexsub import`` and ``lexsub convert --to hf``
read: one row a format (:class:`Format`: name, detector, reader, writer, gold reader), so
that a new format is one module and one row of :data:`FORMATS`.

The importer (:func:`scoring.formats.importers.read.parse_source`) tells a file's format by
asking each row's detector in turn about the file's first bytes (unpacked, without a UTF-8
byte-order mark; the detectors exclude one another, so the order of the rows is only the
order in which messages list them), and reads it with the row's reader; the converter
(:func:`scoring.formats.importers.hub.converted_hub`) converts the formats with a gold
reader.

A row holds its functions: the readers of the tables beside their parser
(:mod:`scoring.formats.table`), the others in their module of
:mod:`scoring.formats.importers`, each with its gold reader. Those modules import
nothing of this one (the importers' entry, :mod:`scoring.formats.importers.read`, looks
the rows up when it reads a file), so the table imports them without a cycle.

A reader (:data:`Reader`) is called ``read(stream, data, name, language, limits)``: the
unpacked bytes in chunks (the first chunk already read), the file's bytes as given (gzip
or not), its name for messages, the language code asked for (or None) and the
:class:`~scoring.formats.instances.Limits`; it returns an
:class:`~scoring.formats.instances.ImportResult`. A writer (:data:`Writer`) turns lexelts
back into the format's text; a gold reader (:data:`GoldReader`) turns the file's bytes
into each instance's gold entries (:data:`scoring.formats.hf.GoldEntries`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from scoring.files.bounded import wide_codec
from scoring.formats import table, taskxml
from scoring.formats.hf import GoldEntries
from scoring.formats.importers import coinco, semeval, swords, tsar
from scoring.formats.instances import ImportResult, Lexelt, Limits

Reader = Callable[[Iterable[bytes], bytes, str, str | None, Limits], ImportResult]
"""``read(stream, data, name, language, limits)`` (module docstring)."""
Writer = Callable[[Iterable[Lexelt]], str | bytes]
"""Lexelts → the format's text (bytes for XML, which declares its encoding)."""
GoldReader = Callable[[bytes, str], GoldEntries]
"""The file's bytes and name → each instance's gold entries, by instance id or line."""


class Format(NamedTuple):
    """One dataset format: its ``name`` (``--format NAME``), its ``detect``\\ or (the file's
    first bytes → whether they are this format; None: read only when named), its
    ``read``\\ er, and its ``write``\\ r and ``gold`` reader (None: there is none)."""

    name: str
    detect: Callable[[bytes], bool] | None
    read: Reader
    write: Writer | None = None
    gold: GoldReader | None = None


_PROLOG = re.compile(rb"\s*(?:(?:<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>)\s*)*", re.S)
_ROOT = re.compile(rb"<([A-Za-z_][\w.:-]*)")


def _utf8_start(head: bytes) -> bytes | None:
    """The first bytes without leading white space, or None for UTF-16 or UTF-32 text
    (:func:`scoring.files.bounded.wide_codec`), which only the task's XML may be."""
    return None if wide_codec(head) is not None else head.lstrip()


def _root(head: bytes) -> bytes | None:
    """The name of the root element of XML that starts with ``head`` (past the prolog)."""
    prolog = _PROLOG.match(head)
    root = _ROOT.match(head, prolog.end() if prolog else 0)
    return root.group(1) if root is not None else None


def is_task_xml(head: bytes) -> bool:
    """XML whose root is not CoInCo's ``<document>`` (the task's parser names a wrong root);
    UTF-16 or UTF-32 text that starts with ``<`` too (only the task's XML declares other
    encodings).

    >>> is_task_xml(b'<?xml version="1.0"?>\\n<corpus lang="en">'), is_task_xml(b"<document>")
    (True, False)
    """
    wide = wide_codec(head)
    if wide is not None:
        return head.decode(wide, "ignore").lstrip("\ufeff \t\r\n").startswith("<")
    return head.lstrip().startswith(b"<") and _root(head) != b"document"


def is_coinco(head: bytes) -> bool:
    """XML whose root element is ``<document>`` (CoInCo, Kremer et al. 2014)."""
    start = _utf8_start(head)
    return start is not None and start.startswith(b"<") and _root(head) == b"document"


def is_json(head: bytes) -> bool:
    """JSON: it starts with ``{`` or ``[`` (SWORDS, Lee et al. 2021)."""
    start = _utf8_start(head)
    return start is not None and start.startswith((b"{", b"["))


def _first_line(head: bytes) -> bytes | None:
    """The first line of text that is neither XML nor JSON, else None."""
    start = _utf8_start(head)
    if start is None or start.startswith((b"<", b"{", b"[")):
        return None
    return head.split(b"\n", 1)[0]


def is_tsv(head: bytes) -> bool:
    """Text whose first line holds a tab.

    >>> is_tsv(b"id\\tlexelt\\tsentence\\n"), is_csv(b"id\\tlexelt\\tsentence\\n")
    (True, False)
    """
    first = _first_line(head)
    return first is not None and b"\t" in first


def is_csv(head: bytes) -> bool:
    """Text whose first line holds a comma and no tab."""
    first = _first_line(head)
    return first is not None and b"\t" not in first and b"," in first


FORMATS: tuple[Format, ...] = (
    Format("semeval", is_task_xml, semeval.import_stream, write=taskxml.format_lexsub_xml),
    Format("coinco", is_coinco, coinco.import_stream, gold=coinco.gold_entries),
    Format("swords", is_json, swords.import_stream, gold=swords.gold_entries),
    Format("tsv", is_tsv, table.import_tsv, table.format_tsv),
    Format("csv", is_csv, table.import_csv, table.format_csv),
    # TSAR's and MLSP's lines look like a table's: read only when named
    Format("tsar", None, tsar.import_stream, gold=tsar.gold_entries),
)
"""Every dataset format, one row each (module docstring)."""

NAMES: tuple[str, ...] = tuple(row.name for row in FORMATS)
"""The formats' names, in the table's order."""


def format_named(name: str) -> Format:
    """The row called ``name``; ValueError naming the formats when there is none.

    >>> format_named("tsv").detect(b"a\\tb")
    True
    """
    for row in FORMATS:
        if row.name == name:
            return row
    raise ValueError(f"format {name!r} is not one of {', '.join(NAMES)}")


def detected(head: bytes) -> Format | None:
    """The first row whose detector recognises ``head``, or None."""
    for row in FORMATS:
        if row.detect is not None and row.detect(head):
            return row
    return None
