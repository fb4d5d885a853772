"""One entry for every format: gunzip, tell the format from the content, parse, each
format a row of the table of formats (:data:`scoring.formats.registry.FORMATS`: its
detector and its reader).

The format is told from the first bytes (after gunzip and a UTF-8 byte-order mark) by the
rows' detectors:
``{`` or ``[`` is JSON (SWORDS); ``<`` is XML, CoInCo when the root element is
``<document>``, the task's format otherwise (whose parser names a wrong root); text whose
first line holds a tab is TSV, else one that holds a comma is CSV. Anything else is
refused with the formats listed. ``format`` given skips the guess (TSAR's and MLSP's
tab-separated files, ``tsar``, are only read when named: their lines look like a table's).
UTF-16 text (a
byte-order mark, or zero bytes) is the task's XML when it starts with ``<`` and refused
otherwise: JSON and tables are UTF-8.

A file is unpacked and parsed a chunk at a time within the bounds of
:class:`~scoring.formats.instances.Limits` (the unpacked size, the instances, a context's
length), so that no upload, not even a gzip bomb, can fill the memory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain

from scoring.files import bounded
from scoring.files.bounded import wide_codec
from scoring.formats.instances import LIMITS, ImportResult, Limits, SourceError
from scoring.formats.language import iso639_1
from scoring.formats.registry import NAMES, detected, format_named
from scoring.formats.sniff import DESCRIPTIONS, kind_of

MAX_UNCOMPRESSED = LIMITS.unpacked
"""The most bytes a file may hold once gunzipped (:class:`~scoring.formats.instances.Limits`)."""
CHUNK = bounded.CHUNK
"""The bytes unpacked and parsed at a time: a gzip file is never inflated whole."""
HEAD = 65536


def unpacked_chunks(data: bytes, name: str, limit: int | None = None) -> Iterator[bytes]:
    """``data`` in chunks, unpacked as they are read if it is gzip
    (:func:`scoring.files.bounded.unpacked_chunks`, the one reader of every upload); a
    :class:`~scoring.errors.BoundError` (a SourceError) for a broken gzip file, or as soon
    as the bytes pass ``limit`` (default :data:`MAX_UNCOMPRESSED`)."""
    return bounded.unpacked_chunks(data, name, MAX_UNCOMPRESSED if limit is None else limit)


def gunzip(data: bytes, name: str) -> bytes:
    """``data`` unpacked if it is gzip (by its magic bytes), else as it is; SourceError
    for a broken gzip file or one that unpacks to more than ``MAX_UNCOMPRESSED`` bytes."""
    return b"".join(unpacked_chunks(data, name))


def detect_format(data: bytes, name: str) -> str:
    """The format of unpacked ``data`` (module docstring); SourceError when none fits.

    >>> detect_format(b'<?xml version="1.0"?>\\n<document>', "f")
    'coinco'
    >>> detect_format(b"id\\tlexelt\\tsentence\\n", "f")
    'tsv'
    """
    head = data[:HEAD].removeprefix(b"\xef\xbb\xbf")
    wide = wide_codec(head)
    if wide is None:
        wrong = _not_a_dataset(head)
        if wrong:
            raise SourceError(name, 1, wrong)
    row = detected(head)
    if row is not None:
        return row.name
    if wide is not None:
        raise SourceError(
            name,
            1,
            f"the file is {wide.upper()}; only XML may be: JSON, TSV and CSV are read "
            "as UTF-8 (save the file as UTF-8)",
        )
    raise SourceError(
        name,
        1,
        "cannot tell the format: not XML (starting with <), not JSON (starting with {), "
        "not a TSV or CSV header naming id, lexelt and sentence; give the format "
        f"({', '.join(NAMES)})",
    )


def _not_a_dataset(head: bytes) -> str | None:
    """What the file is instead of a dataset the formats read without being told, in one
    line (a TSAR-2022 or MLSP-2024 file, a gold, a system's answers, responses), or None."""
    kind = kind_of(head)
    if kind == "tsar":
        return (
            "this looks like a TSAR-2022 or MLSP-2024 file: import it with the format tsar "
            "(--format tsar)"
        )
    if kind in ("gold", "best", "oot", "responses", "annotators"):
        return (
            f"this is {DESCRIPTIONS[kind]}, not a dataset: import reads a dataset's sentences "
            "(the task's XML, CoInCo's XML, SWORDS' JSON, a TSV or CSV table, --format tsar)"
        )
    return None


def parse_source(
    data: bytes,
    name: str,
    format: str | None = None,
    language: str | None = None,
    limits: Limits = LIMITS,
) -> ImportResult:
    """The instances of a file in any of :data:`scoring.formats.registry.FORMATS`,
    gzip-compressed or not, told from the content when ``format`` is None; the dataset's
    language is ``language`` (an ISO 639-1 code) when given, else what the file says, else
    ``en``. SourceError (a
    ValueError) naming the file, the line or JSON path, and the rule, also for a file past
    ``limits``; ValueError for a format or language that is not one.

    The task's XML and the tables are parsed as they are unpacked, a chunk at a time, so a
    file is refused at the first context or instance past the limits; JSON and CoInCo's
    XML are unpacked whole first (at most ``limits.unpacked`` bytes)."""
    row = None if format is None else format_named(format)
    code = iso639_1(language) if language is not None else None
    chunks = unpacked_chunks(data, name, limits.unpacked)
    head = _head(chunks)
    if row is None:
        row = format_named(detect_format(head, name))
    result = row.read(chain((head,), chunks), data, name, code, limits)
    return replace(result, language=code) if code else result


def _head(chunks: Iterator[bytes]) -> bytes:
    """The first chunk, with the next ones while it is shorter than :data:`HEAD`."""
    head = b""
    for chunk in chunks:
        head += chunk
        if len(head) >= HEAD:
            break
    return head


def read_source(
    path: str | os.PathLike[str],
    format: str | None = None,
    language: str | None = None,
    limits: Limits = LIMITS,
) -> ImportResult:
    """:func:`parse_source` on a file, named by its path in messages; a file larger than
    ``limits.unpacked`` is refused as soon as that much is read (:func:`read_limited`)."""
    return parse_source(read_limited(path, limits), str(path), format, language, limits)


def read_limited(path: str | os.PathLike[str], limits: Limits = LIMITS) -> bytes:
    """The bytes of the file at ``path`` as they are (:func:`parse_source` gunzips them),
    read a chunk at a time: :class:`~scoring.errors.BoundError` (a SourceError) as soon as
    they pass ``limits.unpacked`` (it could not be imported, and reading it would fill the
    memory; ``/dev/zero`` included). OSError when it cannot be read."""
    with open(path, "rb") as file:
        chunks = bounded.unpacked_chunks(file, str(path), limits.unpacked, gunzip=False)
        return bounded.joined(chunks)
