"""One entry for every format: gunzip, tell the format from the content, parse.

The format is told from the first bytes (after gunzip and a UTF-8 byte-order mark):
``{`` or ``[`` is JSON (SWORDS); ``<`` is XML, CoInCo when the root element is
``<document>``, the task's format otherwise (whose parser names a wrong root); text whose
first line holds a tab is TSV, else one that holds a comma is CSV. Anything else is
refused with the formats listed. ``format`` given skips the guess.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import zlib
from dataclasses import replace
from pathlib import Path

from annotate.sources.coinco import parse_coinco
from annotate.sources.language import iso639_1
from annotate.sources.model import ImportResult, SourceError
from annotate.sources.semeval import parse_lexsub_xml
from annotate.sources.swords import parse_swords_dataset
from annotate.sources.table import parse_table

FORMATS = ("semeval", "coinco", "swords", "tsv", "csv")
GZIP_MAGIC = b"\x1f\x8b"
MAX_UNCOMPRESSED = 256 * 1024 * 1024
"""The most bytes a gzip file may unpack to (a small upload must not fill the memory)."""
_PROLOG = re.compile(rb"\s*(?:(?:<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>)\s*)*", re.S)
_ROOT = re.compile(rb"<([A-Za-z_][\w.:-]*)")


def gunzip(data: bytes, name: str) -> bytes:
    """``data`` unpacked if it is gzip (by its magic bytes), else as it is; SourceError
    for a broken gzip file or one that unpacks to more than ``MAX_UNCOMPRESSED`` bytes."""
    if not data.startswith(GZIP_MAGIC):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as handle:
            unpacked = handle.read(MAX_UNCOMPRESSED + 1)
    except (OSError, EOFError, zlib.error) as error:
        raise SourceError(name, "", f"not a complete gzip file: {error}") from None
    if len(unpacked) > MAX_UNCOMPRESSED:
        raise SourceError(
            name, "", f"unpacks to more than {MAX_UNCOMPRESSED // 2**20} MiB (the most imported)"
        )
    return unpacked


def detect_format(data: bytes, name: str) -> str:
    """The format of unpacked ``data`` (module docstring); SourceError when none fits.

    >>> detect_format(b'<?xml version="1.0"?>\\n<document>', "f")
    'coinco'
    >>> detect_format(b"id\\tlexelt\\tsentence\\n", "f")
    'tsv'
    """
    head = data[:65536].removeprefix(b"\xef\xbb\xbf")
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "semeval"  # UTF-16: only the task's XML declares other encodings
    start = head.lstrip()
    if start.startswith((b"{", b"[")):
        return "swords"
    if start.startswith(b"<"):
        prolog = _PROLOG.match(head)
        root = _ROOT.match(head, prolog.end() if prolog else 0)
        return "coinco" if root is not None and root.group(1) == b"document" else "semeval"
    first = head.split(b"\n", 1)[0]
    if b"\t" in first:
        return "tsv"
    if b"," in first:
        return "csv"
    raise SourceError(
        name,
        1,
        "cannot tell the format: not XML (starting with <), not JSON (starting with {), "
        "not a TSV or CSV header naming id, lexelt and sentence; give the format "
        f"({', '.join(FORMATS)})",
    )


def parse_source(
    data: bytes, name: str, format: str | None = None, language: str | None = None
) -> ImportResult:
    """The instances of a file in any of :data:`FORMATS`, gzip-compressed or not, told
    from the content when ``format`` is None; the dataset's language is ``language`` (an
    ISO 639-1 code) when given, else what the file says, else ``en``. SourceError (a
    ValueError) naming the file, the line or JSON path, and the rule; ValueError for a
    format or language that is not one."""
    if format is not None and format not in FORMATS:
        raise ValueError(f"format {format!r} is not one of {', '.join(FORMATS)}")
    code = iso639_1(language) if language is not None else None
    data = gunzip(data, name)
    chosen = format or detect_format(data, name)
    if chosen == "semeval":
        return parse_lexsub_xml(data, name, code)
    if chosen == "coinco":
        result = parse_coinco(data, name)
    elif chosen == "swords":
        result = parse_swords_dataset(data, name)
    else:
        result = parse_table(data, name, chosen)
    return replace(result, language=code) if code else result


def read_source(
    path: str | os.PathLike[str], format: str | None = None, language: str | None = None
) -> ImportResult:
    """:func:`parse_source` on a file, named by its path in messages."""
    return parse_source(Path(path).read_bytes(), str(path), format, language)
