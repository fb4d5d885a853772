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

PATTERNS = {
    "gold": r"([\w.]+) (\S+) :: (.*)",
    "best": r"([\w.]+) (\S+) :: (.*)",
    "oot": r"([\w.]+) (\S+) ::: (.*)",
}


def _anchored(kind: str, unicode: bool) -> re.Pattern[str]:
    """A ``kind`` line's pattern over a whole text, a line that does not match being the
    last group (compiled at its first use: a run reads two kinds)."""
    flags = 0 if unicode else re.ASCII
    return re.compile(rf"^(?:{PATTERNS[kind]}|(.*))$", flags | re.MULTILINE)


def _exact(kind: str, unicode: bool) -> re.Pattern[str]:
    """A ``kind`` line's pattern over one line, unanchored as score.pl's, searched in
    linear time (:data:`LINEAR`; compiled only for a text with a line the anchored pattern
    does not match: :func:`_repair`)."""
    return re.compile(LINEAR[kind], 0 if unicode else re.ASCII)


LINEAR = {
    "gold": r"(?<![\w.])([\w.]++) (\S++) :: (.*)",
    "best": r"(?<![\w.])([\w.]++) (\S++) :: (.*)",
    "oot": r"(?<![\w.])([\w.]++) (\S++) ::: (.*)",
}
""":data:`PATTERNS` as :func:`_repair` searches them: the same match, in linear time.

Searched as written, ``([\\w.]+) (\\S+) :: (.*)`` is quadratic: from each position of a
run of ``[\\w.]`` the engine takes the rest of the run and gives it back a character at a
time looking for the space (``lexsub score`` took 46 s on a 100 KB line of letters). Every
start inside a run reaches the same end (the character after a run is not in it, so only
the whole rest of the run can be followed by the space), so the first start that can match
is a run's first character (``(?<![\\w.])``); and neither group gives anything back
(``++``): only a whole run of ``[\\w.]``, or of ``\\S``, can be followed by a space. The
groups are the unanchored pattern's (tests/test_lines_linear.py checks it on random
lines; bench/linear_bench.py times it)."""


NONSPACE = re.compile(r"\S", re.ASCII)
_first = itemgetter(0)
CHUNK = 1 << 20  # characters per findall: bounds the memory of the matched tuples


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
    anchored = _anchored(kind, unicode)
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
            _repair(found, _exact(kind, unicode))
        yield number, found
        number += len(found)
        start = end


PLAIN, HYPHENS, OTHER = 0, 1, 2
"""The kinds of answer :func:`answer_kinds` tells apart."""
_CLASSES = bytes(
    byte if 97 <= byte <= 122 else 32 if byte in b" ;-\n" else 88 for byte in range(256)
)
"""Each byte's class: a lower-case ASCII letter itself, space, ``;``, ``-`` and the newline
a space, any other byte ``X``."""


def answer_kinds(rows: Sequence[tuple[str, str, str, str]]) -> bytearray | None:
    """Which answers of ``rows`` (as :func:`iter_chunks` gives them) both rule sets read
    alike and how, found a chunk at a time in C: ``kinds[j]`` is :data:`PLAIN` (lower-case
    ASCII words, single spaces, guesses split by ``;``, none empty, no guess starting
    ``non-`` or ``non ``: score.pl's guesses are ``answer.split(";")``, and so are the fixed
    rules'), :data:`HYPHENS` (the same once each hyphen is a space: both read the guesses
    of ``answer.replace("-", " ")``) or :data:`OTHER` (any other answer, read line by
    line). None when the answers are not all ASCII.

    The answers are joined, each between two newlines, and their bytes classed
    (:data:`_CLASSES`): an answer is :data:`OTHER` when it has a byte of class ``X`` (not a
    lower-case letter, space, ``;`` or ``-``), or two spaces in a row in its classes with
    the newlines around it (``;;``, ``; ``, ``--``, a hyphen next to a space, a space,
    ``;`` or ``-`` at either end, an empty answer), or ``non`` as a word (a guess starting
    ``non-`` or ``non ``; ``none`` is a plain word)."""
    answers = [""]
    answers += map(_rest, rows)
    answers.append("")
    joined = "\n".join(answers)
    if not joined.isascii():
        return None
    raw = joined.encode("ascii")
    classes = raw.translate(_CLASSES)
    hits = [(at, HYPHENS) for at in _find_all(raw, b"-", raw)]
    for mark in (b"X", b"  ", b" non "):
        hits += [(at, OTHER) for at in _find_all(classes, mark, raw)]
    kinds = bytearray(len(rows))
    if not hits:
        return kinds
    hits.sort()
    line, last = -1, 0
    for at, kind in hits:  # a hit starting on a newline is the next answer's
        line += raw.count(b"\n", last, at + 1)
        last = at + 1
        if kind > kinds[line]:
            kinds[line] = kind
    return kinds


_rest = itemgetter(2)


def _find_all(haystack: bytes, needle: bytes, lines: bytes) -> list[int]:
    """Where ``needle`` occurs in ``haystack``, the first occurrence of each line of
    ``lines`` (a text as long as ``haystack``) only."""
    found = []
    find, newline = haystack.find, lines.find
    at = find(needle)
    while at >= 0:
        found.append(at)
        end = newline(b"\n", at + 1)
        at = -1 if end < 0 else find(needle, end)
    return found


def _repair(found: list[tuple[str, str, str, str]], exact: re.Pattern[str]) -> None:
    """Search the lines that failed the anchored match unanchored, as score.pl does."""
    for index, (lexelt, _item_id, _rest, other) in enumerate(found):
        if not lexelt:
            if not has_content(other):
                found[index] = ("", "", "", "")
            elif (match := exact.search(other)) is not None:
                found_lexelt, found_id, found_rest = match.groups()
                found[index] = (found_lexelt, found_id, found_rest, "")
