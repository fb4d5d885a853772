"""Bounded reading: every upload and import is read through here, within its
:class:`Bounds`, and refused at the first bound it crosses, before what lies past it is
unpacked, split or kept.

* :func:`unpacked_chunks`: a file's bytes a chunk (:data:`CHUNK`) at a time, gunzipped as
  they are read when they are gzip; refused as soon as they pass ``Bounds.bytes``, so a
  gzip bomb is never inflated past the chunk that shows it.
* :func:`bounded_bytes`: the whole (unpacked) file once its bytes, its lines and its
  longest line are counted within the bounds (counted on each chunk as it comes: no line
  is split off and kept to count it).
* :func:`bounded_text`: the same as UTF-8 text (:func:`scoring.files.decode_text`).
* :class:`~scoring.formats.Problems` (here too): the problems a reader finds, the first
  20 kept and the rest counted (a file of a million bad lines gives 20 messages and "… and
  999980 more problems", never a million messages).

A file is given as its bytes or as a binary stream (an upload's ``stream``, read a chunk
at a time, never whole). Pure: no Flask, no SQLAlchemy.
"""

from __future__ import annotations

from scoring import TYPE_CHECKING
from scoring.formats.instances import SourceError
from scoring.records import Record

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import IO

CHUNK = 2**20
"""The bytes read (and unpacked) at a time."""
GZIP_MAGIC = b"\x1f\x8b"


class Bounds(Record):
    """The most a file may hold: ``bytes`` once gunzipped, ``lines`` (line breaks, the
    last line without one counted too), ``line_bytes`` in any one line; ``unit`` names
    what a line holds in messages (``rows``, ``accounts``)."""

    bytes: int
    lines: int
    line_bytes: int = CHUNK
    unit: str = "lines"


class BoundError(SourceError):
    """A file past one of its :class:`Bounds`: one :class:`~scoring.formats.Problem`
    naming the file, the line where reading stopped (or none, for its size) and the bound
    (a :class:`~scoring.formats.instances.SourceError`, as the importer's other refusals)."""


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


def _mib(count: int) -> str:
    """``64 MiB``, or ``1,000 bytes`` for less than a MiB."""
    return f"{count / MiB:g} MiB" if count >= MiB else f"{count:,} bytes"


def unpacked_chunks(source: bytes | IO[bytes], name: str, most: int) -> Iterator[bytes]:
    """The bytes of ``source`` in chunks of at most :data:`CHUNK`, gunzipped as they are
    read when they start with gzip's magic bytes; :class:`BoundError` as soon as they pass
    ``most`` bytes (unpacked), or for a gzip file that is not complete. A stream is read
    from where it stands and must be seekable (an upload's is)."""
    if isinstance(source, bytes | bytearray | memoryview):
        import io

        packed = source[:2] == GZIP_MAGIC
        stream: IO[bytes] = io.BytesIO(source)
    else:
        stream = source
        start = stream.tell()
        packed = stream.read(2) == GZIP_MAGIC
        stream.seek(start)
    total = 0
    if not packed:
        while chunk := stream.read(CHUNK):
            total += len(chunk)
            if total > most:
                raise BoundError(name, "", f"holds more than {_mib(most)} (the most read)")
            yield chunk
        return
    import gzip
    import zlib

    try:
        with gzip.GzipFile(fileobj=stream, mode="rb") as handle:
            while chunk := handle.read(CHUNK):
                total += len(chunk)
                if total > most:
                    raise BoundError(
                        name,
                        "",
                        f"unpacks to more than {_mib(most)} (the most read)",
                    )
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
            raise BoundError(name, "", f"holds more than {_mib(bounds.bytes)} (the most read)")
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
            raise BoundError(
                name,
                bounds.lines + 1,
                f"more than {bounds.lines:,} lines; at most {bounds.lines:,} "
                f"({bounds.unit}) are read",
            )
        lines += breaks
        yield chunk


def _too_long(bounds: Bounds) -> str:
    return f"the line has more than {bounds.line_bytes:,} bytes (the longest read)"


def bounded_bytes(source: bytes | IO[bytes], name: str, bounds: Bounds) -> bytes:
    """The bytes of ``source``, gunzipped when they are gzip, within ``bounds`` (their
    size unpacked, their lines, their longest line): :class:`BoundError` at the first bound
    crossed, before the rest is read."""
    chunks = counted_chunks(unpacked_chunks(source, name, bounds.bytes), name, bounds)
    return b"".join(chunks)


def bounded_text(source: bytes | IO[bytes], name: str, bounds: Bounds) -> str:
    """:func:`bounded_bytes` as text under the project's rule for text files
    (:func:`scoring.files.decode_text`: UTF-8, a byte-order mark dropped)."""
    from scoring.files import decode_text

    return decode_text(bounded_bytes(source, name, bounds), name)


def check_text(text: str, name: str, bounds: Bounds) -> None:
    """:class:`BoundError` when ``text`` (already held, such as a stored file) has more
    characters than ``bounds.bytes`` or more lines than ``bounds.lines``: what a file read
    through :func:`bounded_text` now could not hold."""
    if len(text) > bounds.bytes:
        raise BoundError(name, "", f"holds more than {_mib(bounds.bytes)} (the most read)")
    lines = text.count("\n") + (not text.endswith("\n") and bool(text))
    if lines > bounds.lines:
        raise BoundError(
            name,
            bounds.lines + 1,
            f"more than {bounds.lines:,} lines; at most {bounds.lines:,} ({bounds.unit}) are read",
        )


def check_json_values(data: bytes | str, name: str, most: int, what: str = "") -> None:
    """:class:`BoundError` when the JSON ``data`` may hold more than ``most`` values,
    before it is parsed: each value but the first follows a ``[``, ``{``, ``,`` or ``:``,
    so their count bounds the values (it counts those inside strings too, a bound no real
    file reaches). The line named is where the count passes ``most``; ``what`` follows
    the rule (``; a SWORDS file holds …``)."""
    import re

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
