"""The project's rules for files it reads and writes, in one place.

* :func:`decode_text`: every upload and every file a command reads as strict text is UTF-8;
  a UTF-8 byte-order mark is dropped, UTF-16 and UTF-32 are recognised and refused by name,
  and bytes that are not UTF-8 are named by line and column.
* :func:`parse_json`: ``json.loads`` that refuses too deep nesting and over-long numbers
  as a :class:`json.JSONDecodeError` at their place, like any other malformed JSON.
* :func:`finite_number`: a JSON number as a finite float, or None.
* :class:`CsvWriter`: every CSV the project writes; a cell that a spreadsheet would read as
  a formula is neutralised (OWASP's rule for CSV injection).
* :func:`read_bounded`: every file a command reads, read at most :func:`max_file_bytes`
  bytes (once gunzipped) and, for a line-by-line file, with no line longer than
  :func:`max_line_bytes`: a gzip bomb, ``/dev/zero`` or a giant line is refused by name
  (:class:`TooLarge`) before it fills the memory.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections.abc import Iterable

from scoring import TYPE_CHECKING
from scoring.formats import FormatError

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO, TextIO


# csv, gzip and json are loaded by the functions that use them: the scorer's text run reads
# its files through this module and starts without them.

BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE, whose mark begins it
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
UTF8_RULE = "files are UTF-8 text"


class TextError(FormatError):
    """A file that is not UTF-8 text. The message names the file (and line) and the rule."""

    def __init__(self, message: str) -> None:
        super().__init__([message])


def decode_text(data: bytes, name: str) -> str:
    """The text of a file's bytes: UTF-8, without a leading byte-order mark.

    >>> decode_text(b"\\xef\\xbb\\xbfglad", "f.txt")
    'glad'
    >>> decode_text("glad".encode("utf-16"), "f.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    scoring.files.TextError: f.txt: UTF-16 text (it starts with a UTF-16 byte-order mark)...
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


def read_text(path: str | os.PathLike[str]) -> str:
    """:func:`decode_text` of a file, gunzipped when its name ends in ``.gz`` (OSError when
    it cannot be read, EOFError or ``zlib.error`` when it is not a complete gzip file,
    :class:`TooLarge` past :func:`max_file_bytes`)."""
    name = os.fspath(path)
    return decode_text(read_bounded(name, gunzip=name.endswith(".gz")), name)


MAX_FILE_BYTES = 256 << 20
"""The most bytes a command reads from one file, once gunzipped (256 MiB: the largest data
of the field, SWORDS' test set, is under 60 MB unpacked); ``LEXSUB_MAX_FILE_BYTES`` sets
another."""
MAX_LINE_BYTES = 16 << 20
"""The longest line a command reads in a line-by-line file (16 MiB: a line of a system or
gold file is a few hundred bytes; reading one is linear, so this only keeps a runaway line
from filling the memory); ``LEXSUB_MAX_LINE_BYTES`` sets another."""


class TooLarge(TextError):
    """A file past a reading limit: the message names the file (and line), the limit and
    the setting that changes it."""


def max_file_bytes() -> int:
    """:data:`MAX_FILE_BYTES`, or the environment's ``LEXSUB_MAX_FILE_BYTES``."""
    return _setting("LEXSUB_MAX_FILE_BYTES", MAX_FILE_BYTES)


def max_line_bytes() -> int:
    """:data:`MAX_LINE_BYTES`, or the environment's ``LEXSUB_MAX_LINE_BYTES``."""
    return _setting("LEXSUB_MAX_LINE_BYTES", MAX_LINE_BYTES)


def _setting(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip().isdigit() and int(value) > 0 else default


def read_bounded(
    path: str | os.PathLike[str],
    gunzip: bool = False,
    lines: bool = False,
    limit: int | None = None,
    line_limit: int | None = None,
) -> bytes:
    """A file's bytes, gunzipped when ``gunzip``: at most ``limit`` of them
    (:func:`max_file_bytes` by default), and, when ``lines``, no line (split on ``\\n``)
    longer than ``line_limit`` (:func:`max_line_bytes`). :class:`TooLarge` names the
    file, the line and the rule; the file is read a block at a time and gunzipped a block
    at a time, so a gzip bomb or ``/dev/zero`` is refused after ``limit`` bytes, never
    held whole. OSError when the file cannot be read, EOFError or ``zlib.error`` when it is
    not a complete gzip file."""
    name = os.fspath(path)
    most = max_file_bytes() if limit is None else limit
    rule = f"files are at most {most:,} bytes (LEXSUB_MAX_FILE_BYTES)"
    with open(name, "rb") as file:
        if gunzip:
            data = _gunzip(file, name, most, rule)
        else:
            data = file.read(most + 1)
            if len(data) > most:
                raise TooLarge(f"{name}: more than {most:,} bytes; {rule}")
    if lines:
        check_lines(data, name, max_line_bytes() if line_limit is None else line_limit)
    return data


def _gunzip(file: Any, name: str, most: int, rule: str) -> bytes:
    """The gunzipped bytes of an open gzip file, at most ``most`` of them (gzip unpacks as
    it reads: no more than ``most + 1`` bytes are ever unpacked)."""
    import gzip

    with gzip.GzipFile(fileobj=file) as unpacked:
        data = unpacked.read(most + 1)
    if len(data) > most:
        raise TooLarge(f"{name}: more than {most:,} bytes once gunzipped; {rule}")
    return data


def bounded_lines(file: BinaryIO, name: str) -> Iterator[bytes]:
    """The lines of an open binary file, each with its ``\\n``, read one at a time:
    :class:`TooLarge` when a line is longer than :func:`max_line_bytes` or the file than
    :func:`max_file_bytes` (iterating the file itself would hold a line without end, such
    as ``/dev/zero``'s, whole)."""
    most, longest = max_file_bytes(), max_line_bytes()
    size = 0
    number = 0
    while line := file.readline(longest + 1):
        number += 1
        size += len(line)
        if len(line) > longest and not line.endswith(b"\n"):  # readline stopped inside it
            raise TooLarge(
                f"{name}:{number}: a line of more than {longest:,} bytes; lines are at most "
                f"{longest:,} bytes (LEXSUB_MAX_LINE_BYTES)"
            )
        if size > most:
            raise TooLarge(
                f"{name}: more than {most:,} bytes; files are at most {most:,} bytes "
                "(LEXSUB_MAX_FILE_BYTES)"
            )
        yield line


class BoundedReader:
    """An open binary stream (a file, or one gunzipped as it is read) that raises
    :class:`TooLarge` once more than :func:`max_file_bytes` bytes are read from it, for
    the readers that parse a file a chunk at a time (CoInCo's XML)."""

    def __init__(self, stream: BinaryIO, name: str, gunzipped: bool = False) -> None:
        self._stream = stream
        self._name = name
        self._most = max_file_bytes()
        self._size = 0
        self._how = " once gunzipped" if gunzipped else ""

    def read(self, size: int = -1) -> bytes:
        """At most ``size`` bytes (past the limit: :class:`TooLarge`)."""
        wanted = self._most + 1 - self._size
        data = self._stream.read(wanted if size < 0 else min(size, wanted))
        self._size += len(data)
        if self._size > self._most:
            raise TooLarge(
                f"{self._name}: more than {self._most:,} bytes{self._how}; files are at "
                f"most {self._most:,} bytes (LEXSUB_MAX_FILE_BYTES)"
            )
        return data


def check_lines(data: bytes, name: str, limit: int) -> None:
    """:class:`TooLarge` naming ``FILE:LINE`` when a line of ``data`` (split on ``\\n``) is
    longer than ``limit`` bytes. A line that long holds a whole aligned block of
    ``limit // 2`` bytes without a newline, so only such blocks are looked at: a few
    ``find`` calls for the whole file."""
    if len(data) <= limit:
        return
    half = max(1, limit // 2)
    block = 0
    while block < len(data):
        if data.find(b"\n", block, block + half) >= 0:
            block += half
            continue
        start = data.rfind(b"\n", 0, block) + 1
        end = data.find(b"\n", block)
        end = len(data) if end < 0 else end
        if end - start > limit:
            line = data.count(b"\n", 0, start) + 1
            raise TooLarge(
                f"{name}:{line}: a line of more than {limit:,} bytes; lines are at most "
                f"{limit:,} bytes (LEXSUB_MAX_LINE_BYTES)"
            )
        block = end + 1


def parse_json(text: str) -> Any:
    """``json.loads``, with arrays or objects nested too deep for the parser and integers
    of more digits than Python converts refused as :class:`json.JSONDecodeError` (with its
    line and column), as any other malformed JSON is."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        depth, at = _deepest(text)
        raise json.JSONDecodeError(
            f"arrays and objects nested {depth} deep; at most about "
            f"{sys.getrecursionlimit()} levels can be read",
            text,
            at,
        ) from None
    except ValueError as error:  # an integer past sys.get_int_max_str_digits()
        found = re.search(f"[0-9]{{{sys.get_int_max_str_digits() + 1},}}", text)
        at, digits = (found.start(), len(found.group())) if found else (0, 0)
        raise json.JSONDecodeError(
            f"a number of {digits} digits (at most {sys.get_int_max_str_digits()})", text, at
        ) from error


_BRACKETS = r'"(?:[^"\\]|\\.)*"|[\[\]{}]'  # compiled on an error only, as re caches it


def _deepest(text: str) -> tuple[int, int]:
    """The deepest nesting of ``text`` and where it is first reached."""
    depth = deepest = at = 0
    for match in re.finditer(_BRACKETS, text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, match.start()
        elif token in "]}":
            depth -= 1
    return deepest, at


def finite_number(value: object) -> float | None:
    """A JSON number as a float when it is one and finite (not a boolean, not beyond the
    range of a double), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    import math  # here: the scorer's start-up does without it

    return number if math.isfinite(number) else None


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: object) -> object:
    """A CSV cell that no spreadsheet reads as a formula: text starting with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return gets a leading ``'`` (OWASP, "CSV
    Injection"); numbers, and text that is a number, are left alone.

    >>> spreadsheet_safe("=HYPERLINK(1)"), spreadsheet_safe("-0.5"), spreadsheet_safe(-1)
    ("'=HYPERLINK(1)", '-0.5', -1)
    """
    if not isinstance(cell, str) or not cell.startswith(FORMULA_STARTS):
        return cell
    try:
        float(cell)
    except ValueError:
        return "'" + cell
    return cell


class CsvWriter:
    """``csv.writer`` with ``\\n`` line ends and every cell :func:`spreadsheet_safe`
    (``delimiter``: a tab for TSV)."""

    def __init__(self, out: TextIO, delimiter: str = ",") -> None:
        import csv

        self._writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([spreadsheet_safe(cell) for cell in row])


def shown_value(value: object, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to its first ``limit`` characters.

    >>> shown_value(10**50)
    '1000000000000000000000000000000000000000…'
    """
    text = repr(value)
    return text[:limit] + ("…" if len(text) > limit else "")
