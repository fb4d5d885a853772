"""Bounded reading: every upload and import is read through here, within its
:class:`Bounds`, and refused at the first bound it crosses, before what lies past it is
unpacked, split or kept.

* :func:`unpacked_chunks`: a file's bytes a chunk (:data:`CHUNK`) at a time, gunzipped as
  they are read when they are gzip; refused as soon as they pass ``Bounds.bytes``, so a
  gzip bomb is never inflated past the chunk that shows it.
* :func:`bounded_bytes`: the whole (unpacked) file once its bytes, its lines and its
  longest line are counted within the bounds (counted on each chunk as it comes: no line
  is split off and kept to count it).
* :func:`scoring.files.bounded.bounded_text`: the same as UTF-8 text (the rule of text files).
* :func:`read_bounded` and :func:`bounded_lines`: a file a command reads, whole or a line
  at a time, within :func:`command_bounds` (``LEXSUB_MAX_FILE_BYTES``,
  ``LEXSUB_MAX_LINE_BYTES``), through the same two counts.
* :class:`~scoring.errors.Problems` (here too): the problems a reader finds, the first
  20 kept and the rest counted (a file of a million bad lines gives 20 messages and "… and
  999980 more problems", never a million messages).

A file is given as its bytes or as a binary stream (an upload's ``stream``, read a chunk
at a time, never whole). Pure: no Flask, no SQLAlchemy. The drop-in scorer reads its files
through here: gzip, zlib and typing are loaded only where they are used.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from typing import TYPE_CHECKING, NamedTuple

from scoring.errors import BoundError, TextError

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import IO

CHUNK = 2**20
"""The bytes read (and unpacked) at a time."""
GZIP_MAGIC = b"\x1f\x8b"


class Bounds(NamedTuple):
    """The most a file may hold: ``bytes`` once gunzipped, ``lines`` (line breaks, the
    last line without one counted too), ``line_bytes`` in any one line; ``unit`` names
    what a line holds in messages (``rows``, ``accounts``)."""

    bytes: int
    lines: int
    line_bytes: int = CHUNK
    unit: str = "lines"
    settings: bool = False
    """The bounds are the commands' (:func:`command_bounds`): a message names the setting
    that changes the bound crossed."""


MiB = 2**20
ACCOUNTS_FILE = Bounds(MiB, 10_000, 1024, "accounts, comments and blank lines")
"""A list of accounts (at most 1,000 accounts are made at once)."""
ROWS_FILE = Bounds(16 * MiB, 100_000, 64 * 1024, "rows")
"""A judgement round's rows file."""
SYSTEM_FILE = Bounds(16 * MiB, 200_000, 16 * MiB, "answers")
"""A system's file (best, oot, ranked candidates, a SWORDS result, TSAR's or MLSP's
output): one line an instance, and an import holds at most 100,000; a line may fill the
file (a SWORDS result is JSON, often written on one line)."""
GOLD_FILE = Bounds(16 * MiB, 200_000, MiB, "gold lines")
"""A gold, mwgold or scores file uploaded beside a judgement round."""
TSAR_FILE = Bounds(8 * MiB, 100_000, MiB, "one instance a line")
"""A TSAR-2022 or MLSP-2024 file to import (an import holds at most 100,000 instances; the
largest of these tasks' files has under 1 MiB; 58 MiB of MLSP lines whose text Python
keeps at 4 bytes a character took 1,608 MiB to import)."""
SWORDS_BYTES = 32 * MiB
"""The most bytes a SWORDS dataset (JSON, read whole) may hold once unpacked: SWORDS' largest
file, its test set, has 17 MiB; 61 MiB of 10,000-character contexts took 655 MiB to import."""
RESULT_JSON_VALUES = 500_000
"""The most JSON values (objects, arrays, members, items) a SWORDS result may hold: one
with 100 scored candidates for each of SWORDS' 1,132 test targets holds 0.34 million; a
result of 1 million values (4.6 MiB) took 466 MiB to read."""


FILE_SETTING = "LEXSUB_MAX_FILE_BYTES"
LINE_SETTING = "LEXSUB_MAX_LINE_BYTES"
MAX_FILE_BYTES = 256 * MiB
"""The most bytes a command reads from one file, once gunzipped (256 MiB: the largest data
of the field, SWORDS' test set, is under 60 MB unpacked); ``LEXSUB_MAX_FILE_BYTES`` sets
another."""
MAX_LINE_BYTES = 16 * MiB
"""The longest line a command reads in a line-by-line file (16 MiB: a line of a system or
gold file is a few hundred bytes; reading one is linear, so this only keeps a runaway line
from filling the memory); ``LEXSUB_MAX_LINE_BYTES`` sets another."""


def command_bounds(limit: int | None = None, line_limit: int | None = None) -> Bounds:
    """The bounds of a file a command reads: :data:`MAX_FILE_BYTES` (or the environment's
    ``LEXSUB_MAX_FILE_BYTES``, or ``limit``) once gunzipped, any number of lines, none
    longer than :data:`MAX_LINE_BYTES` (``LEXSUB_MAX_LINE_BYTES``, ``line_limit``)."""
    most = _setting(FILE_SETTING, MAX_FILE_BYTES) if limit is None else limit
    longest = _setting(LINE_SETTING, MAX_LINE_BYTES) if line_limit is None else line_limit
    return Bounds(most, sys.maxsize, longest, "lines", True)


def _setting(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip().isdigit() and int(value) > 0 else default


def _mib(count: int) -> str:
    """``64 MiB`` for whole MiB, else ``1,000 bytes``."""
    return f"{count // MiB} MiB" if count >= MiB and not count % MiB else f"{count:,} bytes"


def _past(verb: str, most: int, setting: bool) -> str:
    """The rule a file past ``most`` bytes broke (and the setting that changes it)."""
    return f"{verb} more than {_mib(most)} (the most read{_sets(setting, FILE_SETTING)})"


def _sets(setting: bool, name: str) -> str:
    return f"; {name} sets it" if setting else ""


def unpacked_chunks(
    source: bytes | IO[bytes],
    name: str,
    most: int,
    gunzip: bool | None = None,
    settings: bool = False,
) -> Iterator[bytes]:
    """The bytes of ``source`` in chunks of at most :data:`CHUNK`, gunzipped as they are
    read when ``gunzip`` (by default: when they start with gzip's magic bytes);
    :class:`BoundError` as soon as they pass ``most`` bytes (unpacked), or for a gzip file
    that is not complete. A stream is read from where it stands; it must be seekable
    unless ``gunzip`` is given (an upload's is). ``settings``: ``most`` is the commands'
    (:func:`command_bounds`), and the message names its setting."""
    if isinstance(source, bytes | bytearray | memoryview):
        import io

        stream: IO[bytes] = io.BytesIO(source)
    else:
        stream = source
    packed = gunzip
    if packed is None:
        start = stream.tell()
        packed = stream.read(2) == GZIP_MAGIC
        stream.seek(start)
    total = 0
    if not packed:
        while chunk := stream.read(CHUNK):
            total += len(chunk)
            if total > most:
                raise BoundError(name, "", _past("holds", most, settings))
            yield chunk
        return
    import gzip
    import zlib

    try:
        with gzip.GzipFile(fileobj=stream, mode="rb") as handle:
            while chunk := handle.read(CHUNK):
                total += len(chunk)
                if total > most:
                    raise BoundError(name, "", _past("unpacks to", most, settings))
                yield chunk
    except (OSError, EOFError, zlib.error) as error:
        raise BoundError(name, "", f"not a complete gzip file: {error}") from None


def counted_chunks(chunks: Iterable[bytes], name: str, bounds: Bounds) -> Iterator[bytes]:
    """``chunks`` as they are, their bytes and lines counted as they pass: :class:`BoundError`
    past ``bounds.bytes``, at the first line past ``bounds.lines``, or at a line longer
    than ``bounds.line_bytes``,
    naming that line (no line is split off to be counted)."""
    longest = bounds.line_bytes
    lines = 0  # line breaks passed
    since = 0  # bytes since the last line break
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > bounds.bytes:
            raise BoundError(name, "", _past("holds", bounds.bytes, bounds.settings))
        breaks = chunk.count(b"\n")
        if breaks:
            first = chunk.index(b"\n")
            if since + first > longest:
                raise BoundError(name, lines + 1, _too_long(bounds))
            if len(chunk) - first - 1 > longest:  # a line inside the chunk may be too long
                inner = chunk[first + 1 :].split(b"\n")[:-1]
                for number, line in enumerate(inner, lines + 2):
                    if len(line) > longest:
                        raise BoundError(name, number, _too_long(bounds))
            since = len(chunk) - chunk.rindex(b"\n") - 1
        else:
            since += len(chunk)
        if since > longest:
            raise BoundError(name, lines + breaks + 1, _too_long(bounds))
        if lines + breaks + (since > 0) > bounds.lines:
            raise BoundError(name, bounds.lines + 1, _too_many(bounds))
        lines += breaks
        yield chunk


def _too_many(bounds: Bounds) -> str:
    return f"more than {bounds.lines:,} lines; at most {bounds.lines:,} ({bounds.unit}) are read"


def _too_long(bounds: Bounds) -> str:
    return (
        f"the line has more than {bounds.line_bytes:,} bytes "
        f"(the longest read{_sets(bounds.settings, LINE_SETTING)})"
    )


def bounded_lines(stream: IO[bytes], name: str, bounds: Bounds | None = None) -> Iterator[bytes]:
    """The lines of an open binary file, each with its ``\\n``, as they are read within
    ``bounds`` (:func:`command_bounds` by default; the file is not gunzipped):
    :func:`counted_chunks` refuses a line too long before it is joined, so no line without
    end (``/dev/zero``'s) is ever held whole."""
    bounds = command_bounds() if bounds is None else bounds
    chunks = unpacked_chunks(stream, name, bounds.bytes, False, bounds.settings)
    pending: list[bytes] = []  # the pieces of the line not yet ended
    for chunk in counted_chunks(chunks, name, bounds):
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            pending.append(chunk[start : end + 1])
            yield b"".join(pending)
            pending.clear()
            start = end + 1
        if start < len(chunk):
            pending.append(chunk[start:])
    if pending:
        yield b"".join(pending)


def read_bounded(
    path: str | os.PathLike[str],
    gunzip: bool = False,
    lines: bool = False,
    limit: int | None = None,
    line_limit: int | None = None,
) -> bytes:
    """A file a command reads, gunzipped when ``gunzip``, within :func:`command_bounds`
    (``limit`` and ``line_limit`` set other bounds): its bytes, and when ``lines`` its
    longest line (split on ``\\n``), counted as they are read and unpacked
    (:func:`unpacked_chunks`, :func:`counted_chunks`), so a gzip bomb or ``/dev/zero`` is
    refused (:class:`BoundError`) a chunk past the bound, never held whole. OSError when
    the file cannot be opened or read."""
    name = os.fspath(path)
    bounds = command_bounds(limit, line_limit)
    with open(name, "rb") as file:
        chunks = unpacked_chunks(file, name, bounds.bytes, gunzip, bounds.settings)
        return joined(counted_chunks(chunks, name, bounds) if lines else chunks)


def joined(chunks: Iterable[bytes]) -> bytes:
    """The bytes of ``chunks`` as one, held once: a buffer grown as they come, whose bytes
    are given as they are (``b"".join`` of the list held them twice at its end: 300 MiB
    to read a 150 MB file, 156 MiB this way)."""
    import io

    buffer = io.BytesIO()
    for chunk in chunks:
        buffer.write(chunk)
    return buffer.getvalue()


def bounded_bytes(source: bytes | IO[bytes], name: str, bounds: Bounds) -> bytes:
    """The bytes of ``source``, gunzipped when they are gzip, within ``bounds`` (their
    size unpacked, their lines, their longest line): :class:`BoundError` at the first bound
    crossed, before the rest is read."""
    return joined(counted_chunks(unpacked_chunks(source, name, bounds.bytes), name, bounds))


def check_text(text: str, name: str, bounds: Bounds) -> None:
    """:class:`BoundError` when ``text`` (already held, such as a stored file) has more
    characters than ``bounds.bytes`` or more lines than ``bounds.lines``: what a file read
    through :func:`scoring.files.bounded.bounded_text` now could not hold."""
    if len(text) > bounds.bytes:
        raise BoundError(name, "", _past("holds", bounds.bytes, bounds.settings))
    lines = text.count("\n") + (not text.endswith("\n") and bool(text))
    if lines > bounds.lines:
        raise BoundError(name, bounds.lines + 1, _too_many(bounds))


def check_json_values(data: bytes | str, name: str, most: int, what: str = "") -> None:
    """:class:`BoundError` when the JSON ``data`` may hold more than ``most`` values,
    before it is parsed: each value but the first follows a ``[``, ``{``, ``,`` or ``:``,
    so their count bounds the values (it counts those inside strings too, a bound no real
    file reaches). The line named is where the count passes ``most``; ``what`` follows
    the rule (``; a SWORDS file holds …``)."""

    data = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    count = 0
    for start in range(0, len(data), CHUNK):
        piece = data[start : start + CHUNK]
        here = sum(piece.count(char) for char in (b"[", b"{", b",", b":"))
        if count + here > most:
            found = re.finditer(rb"[\[{,:]", piece)
            at = start + next(m.start() for n, m in enumerate(found, 1) if n == most - count + 1)
            raise BoundError(
                name,
                data.count(b"\n", 0, at) + 1,
                f"holds more than {most:,} JSON values (objects, arrays, members, items); "
                f"at most that many are read{what}",
            )
        count += here


BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose mark begins it
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
UTF8_RULE = "files are UTF-8 text"


def decode_text(data: bytes, name: str) -> str:
    """The text of a file's bytes: UTF-8, without a leading byte-order mark.

    >>> decode_text(b"\\xef\\xbb\\xbfglad", "f.txt")
    'glad'
    >>> decode_text("glad".encode("utf-16"), "f.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    scoring.errors.TextError: f.txt: UTF-16 text (it starts with a UTF-16 byte-order mark)...
    """
    data = without_mark(data, name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, start) + 1
        end = data.find(b"\n", error.start)
        raise TextError(
            not_utf8(name, line, data[start : end if end >= 0 else None], error.start - start)
        ) from None


def without_mark(start: bytes, name: str) -> bytes:
    """The first bytes of a file without a UTF-8 byte-order mark; :class:`TextError` when
    they are UTF-16 or UTF-32 (:func:`refuse_wide`)."""
    if start.startswith(codecs.BOM_UTF8):
        return start[len(codecs.BOM_UTF8) :]
    refuse_wide(start, name)
    return start


def refuse_wide(start: bytes, name: str) -> None:
    """:class:`TextError` when the first bytes of a file are UTF-16 or UTF-32 text (with a
    byte-order mark, or a NUL byte beside each ASCII character)."""
    codec = wide_codec(start)
    if codec is None:
        return
    encoding = codec[:6].upper()
    if codec in ("utf-16", "utf-32"):
        raise TextError(
            f"{name}: {encoding} text (it starts with a {encoding} byte-order mark); {UTF8_RULE}"
        )
    raise TextError(f"{name}: {encoding} text (a NUL byte beside each character); {UTF8_RULE}")


def not_utf8(name: str, line: int, data: bytes, column: int) -> str:
    """``FILE:LINE: byte 0xE9 at column 16 is not UTF-8 (…)`` for the byte at ``column``
    (0-based) of a line's ``data``."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        reason = error.reason
    else:
        reason = "truncated character"
    return (
        f"{name}:{line}: byte 0x{data[column]:02X} at column {column + 1} is not UTF-8 ({reason})"
    )


def wide_codec(start: bytes) -> str | None:
    """The codec of a file that starts with ``start`` when it is UTF-16 or UTF-32 text
    (``utf-32`` or ``utf-16`` with a byte-order mark; ``utf-16-be`` or ``utf-16-le`` without
    one: a NUL in every other byte of its first characters, which no UTF-8 text has), else
    None. The one test of the project's file readers and of the importer.

    >>> [wide_codec(text) for text in ("id".encode("utf-16"), "id".encode("utf-16-be"), b"id")]
    ['utf-16', 'utf-16-be', None]
    """
    for mark, codec in BOMS:
        if start.startswith(mark):
            return codec
    head = start[:64]
    head = head[: len(head) - len(head) % 2]
    if len(head) < 4:
        return None
    if not any(head[0::2]):
        return "utf-16-be"
    if not any(head[1::2]):
        return "utf-16-le"
    return None


def read_text(path: str | os.PathLike[str], perl: bool = False) -> str:
    """A file's text, within the commands' bounds (:func:`command_bounds`; OSError when it
    cannot be read, :class:`BoundError` past the bounds or for a broken gzip file), read
    one of two ways:

    - the project's (``perl=False``): :func:`decode_text` (strict UTF-8, a byte-order mark
      dropped), gunzipped when the name ends in ``.gz``;
    - Perl's (``perl=True``), for the files the official scripts read: bytes that are not
      UTF-8 kept through ``surrogateescape`` (written back, they give the same bytes, as
      score.pl echoes them), a byte-order mark kept, no gunzip, each line within the
      line bound; UTF-16 and UTF-32 text refused (:func:`refuse_wide`).
    """
    name = os.fspath(path)
    if perl:
        data = read_bounded(name, lines=True)
        refuse_wide(data, name)
        return data.decode("utf-8", "surrogateescape")
    return decode_text(read_bounded(name, gunzip=name.endswith(".gz")), name)


def bounded_text(source: bytes | IO[bytes], name: str, bounds: Bounds) -> str:
    """:func:`decode_text` of an upload's (or any stream's) bytes read within ``bounds``
    (:func:`scoring.files.bounded.bounded_bytes`: gunzipped when they are gzip, refused at the
    first bound crossed)."""
    return decode_text(bounded_bytes(source, name, bounds), name)
