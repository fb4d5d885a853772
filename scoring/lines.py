"""Lines as score.pl matches them, fast.

score.pl reads a file line by line and matches each with an unanchored pattern such as
``([\\w.]+) (\\S+) :: (.*)``. Doing that one line at a time in Python costs microseconds a
line; here one ``findall`` per chunk of the text tries the same pattern anchored at the
start of every line (where score.pl's search makes its first attempt, so the groups are
identical), and only the lines where that fails are searched again, unanchored, exactly.

Perl's ``\\w``, ``\\s`` and ``\\d`` on bytes are ASCII classes, hence ``re.ASCII``
(score.pl's rules: a lexelt such as ``Gebäude.n`` is read as ``ude.n``). The fixed rules
read lines with Unicode classes (``unicode=True``), so lexelts are whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from operator import itemgetter
from pathlib import Path

from scoring.io import ERRORS

PATTERNS = {
    "gold": r"([\w.]+) (\S+) :: (.*)",
    "best": r"([\w.]+) (\S+) :: (.*)",
    "oot": r"([\w.]+) (\S+) ::: (.*)",
}
_EXACT = {
    (kind, unicode): re.compile(pattern, 0 if unicode else re.ASCII)
    for kind, pattern in PATTERNS.items()
    for unicode in (False, True)
}
_ANCHORED = {
    (kind, unicode): re.compile(
        rf"^(?:{pattern}|(.*))$", re.MULTILINE if unicode else re.ASCII | re.MULTILINE
    )
    for kind, pattern in PATTERNS.items()
    for unicode in (False, True)
}
NONSPACE = re.compile(r"\S", re.ASCII)
_first = itemgetter(0)
CHUNK = 1 << 20  # characters per findall: bounds the memory of the matched tuples


def read_text(path: str | Path) -> str:
    """A file's text, bytes that are not UTF-8 kept through ``surrogateescape``."""
    return Path(path).read_bytes().decode("utf-8", ERRORS)


def as_text(source: str | Sequence[str]) -> str:
    """Accept a whole text or a sequence of lines (without their ``\\n``)."""
    if isinstance(source, str):
        return source
    return "".join(line + "\n" for line in source)


def has_content(text: str) -> bool:
    """Perl's ``/\\S/``. Every Perl (ASCII) space is a Python space, so a first character
    that Python does not call a space settles it without a regex."""
    return bool(text) and (not text[0].isspace() or NONSPACE.search(text) is not None)


def perl_split(text: str, separator: str = ";") -> list[str]:
    """Perl's ``split(';', $s)``: inner empty fields kept, trailing ones dropped."""
    fields = text.split(separator)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def iter_chunks(
    text: str, kind: str, unicode: bool = False
) -> Iterator[tuple[int, list[tuple[str, str, str, str]]]]:
    """The lines of ``text`` in chunks, matched as score.pl matches a ``kind`` line
    (``gold``, ``best`` or ``oot``; with Unicode classes when ``unicode``, as the fixed
    rules read them): ``(number of the chunk's first line, rows)``.

    A row is ``(lexelt, id, rest, '')`` for a matching line, ``('', '', '', line)`` for a
    line that does not match, and ``('', '', '', '')`` for a blank line; lines are
    numbered as Perl's ``$lcnt`` counts them.
    """
    unicode = unicode and not text.isascii()  # the same patterns on ASCII text
    anchored = _ANCHORED[kind, unicode]
    exact = _EXACT[kind, unicode]
    number = 1
    start = 0
    size = len(text)
    while start < size:
        end = text.find("\n", start + CHUNK)
        end = size if end < 0 else end + 1
        found: list[tuple[str, str, str, str]] = anchored.findall(text, start, end)
        if text[end - 1] == "\n":
            found.pop()  # the empty "line" after the chunk's last newline
        if "" in map(_first, found):  # some line did not match anchored: look again
            _repair(found, exact)
        yield number, found
        number += len(found)
        start = end


def _repair(found: list[tuple[str, str, str, str]], exact: re.Pattern[str]) -> None:
    """Search the lines that failed the anchored match unanchored, as score.pl does."""
    for index, (lexelt, _item_id, _rest, other) in enumerate(found):
        if not lexelt:
            if not has_content(other):
                found[index] = ("", "", "", "")
            elif (match := exact.search(other)) is not None:
                found_lexelt, found_id, found_rest = match.groups()
                found[index] = (found_lexelt, found_id, found_rest, "")
