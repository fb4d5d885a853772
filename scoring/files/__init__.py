"""The project's rules for files it reads and writes, in one place.

* :func:`decode_text`: every upload and every file a command reads as strict text is UTF-8;
  a UTF-8 byte-order mark is dropped, UTF-16 and UTF-32 are recognised and refused by name,
  and bytes that are not UTF-8 are named by line and column.
* :func:`parse_json`: ``json.loads`` that refuses too deep nesting and over-long numbers
  as a :class:`json.JSONDecodeError` at their place, like any other malformed JSON.
* :func:`finite_number`: a JSON number as a finite float, or None.
* :class:`CsvWriter`: every CSV the project writes; a cell that a spreadsheet would read as
  a formula is neutralised (OWASP's rule for CSV injection).
* :func:`read_text`: a file a command reads as text, within the commands' bounds
  (:func:`scoring.files.bounded.read_bounded`, where every file is read within its bounds).
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections.abc import Iterable

from scoring import TYPE_CHECKING
from scoring.errors import FormatError
from scoring.files.bounded import bounded_bytes, read_bounded

if TYPE_CHECKING:
    from typing import IO, Any, TextIO

    from scoring.files.bounded import Bounds


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
    it cannot be read; :class:`~scoring.files.bounded.BoundError` when it is not a complete gzip
    file or is past the commands' bounds, :func:`scoring.files.bounded.command_bounds`)."""
    name = os.fspath(path)
    return decode_text(read_bounded(name, gunzip=name.endswith(".gz")), name)


def bounded_text(source: bytes | IO[bytes], name: str, bounds: Bounds) -> str:
    """:func:`decode_text` of an upload's (or any stream's) bytes read within ``bounds``
    (:func:`scoring.files.bounded.bounded_bytes`: gunzipped when they are gzip, refused at the
    first bound crossed)."""
    return decode_text(bounded_bytes(source, name, bounds), name)


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


def user_cache(*parts: str) -> str:
    """A folder of the user's cache for lexsub: ``$XDG_CACHE_HOME/lexsub/PARTS``
    (``~/.cache`` when the variable is unset; ``%LOCALAPPDATA%`` on Windows). One place for
    the gold cache, the WordNet data and the model replies."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = os.environ["LOCALAPPDATA"]
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "lexsub", *parts)
