"""The project's rules for files it reads and writes, in one place.

* :mod:`scoring.files.bounded`: every file and upload is read there, within its bounds, and
  decoded by its one text reader (:func:`~scoring.files.bounded.read_text`): UTF-8, a
  byte-order mark dropped, UTF-16 and UTF-32 refused by name, bytes that are not UTF-8
  named by line and column;
* :func:`parse_json`: ``json.loads`` that refuses too deep nesting and over-long numbers
  as a :class:`json.JSONDecodeError` at their place, like any other malformed JSON.
* :func:`json_lines`: the lines of a JSON Lines file decoded (by :func:`parse_json`), a
  line that is not JSON reported as ``FILE:LINE: what (each line is one JSON object)``.
* :func:`finite_number`: a JSON number as a finite float, or None.
* :class:`CsvWriter`: every CSV the project writes; a cell that a spreadsheet would read as
  a formula is neutralised (OWASP's rule for CSV injection).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, TextIO


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


def json_lines(
    lines: Iterable[str], name: str, problem: Callable[[str], object]
) -> Iterator[tuple[int, Any]]:
    """Each line of the JSON Lines file ``name`` decoded (:func:`parse_json`), with its
    number from 1; a line that is not JSON is given to ``problem`` as ``NAME:LINE: what
    (each line is one JSON object)`` and skipped, so that a reader reports every bad line
    at once. The one rule of the JSON Lines files read line by line (annotators,
    judgements, model scores)."""
    import json

    for number, text in enumerate(lines, start=1):
        try:
            obj = parse_json(text)
        except json.JSONDecodeError as error:
            problem(f"{name}:{number}: {error.msg} (each line is one JSON object)")
            continue
        yield number, obj


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
