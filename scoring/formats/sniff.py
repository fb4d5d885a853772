"""What kind of file a text looks like, so that a command given the wrong file says so in
one line ("this is a gold file; agreement reads the annotators.jsonl that compile writes")
instead of refusing every line of it.

:func:`kind_of` reads at most :data:`HEAD` bytes of a file (inflated first when it is
gzip-compressed) and looks at its first :data:`LINES` non-blank lines; :func:`mixup` turns
what it found and what a command wanted into the line to print. Only a confident guess
names a kind: a file that fits no kind, or fits the expected one, gives no hint, and the
command's own reading decides as before.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the scorer's run loads neither typing nor json nor zlib for a plain file
    from typing import Literal

    Kind = Literal["gold", "best", "oot", "responses", "annotators", "task-xml", "tsar", "binary"]

HEAD = 65_536
"""Bytes read (and, for a gzip file, inflated) to tell a file's kind."""
LINES = 20
"""Non-blank lines looked at."""

DESCRIPTIONS: dict[Kind, str] = {
    "gold": "a gold file (LEXELT ID :: SUBSTITUTE COUNT;…)",
    "best": "a best system file (LEXELT ID :: GUESS;…)",
    "oot": "an oot system file (LEXELT ID ::: GUESS;…)",
    "responses": "a responses file (one answer a line, as lexsub export writes)",
    "annotators": "an annotators.jsonl (as lexsub compile writes)",
    "task-xml": "the task's XML (the sentences)",
    "tsar": "a TSAR-2022 or MLSP-2024 file (SENTENCE<TAB>WORD…, or MLSP's ratings)",
    "binary": "not a text file",
}
"""How a message names each kind."""

_GOLD_ENTRY = re.compile(r".+ \d+(?:\.\d+)?")  # a count, or a decimal weight (SemDis 2014)
_KEYED = re.compile(r"^\S+ \S+ (:::?) ")


def head_of(path: str | os.PathLike[str]) -> bytes:
    """The first :data:`HEAD` bytes of ``path``, inflated when it is gzip-compressed (an
    unreadable file gives no bytes: its command says why when it reads it)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(HEAD)
    except OSError:
        return b""
    if data[:2] == b"\x1f\x8b":
        import zlib

        try:
            data = zlib.decompressobj(wbits=31).decompress(data, HEAD)
        except zlib.error:
            return data
    return data


def kind_of(data: bytes) -> Kind | None:
    """The kind ``data`` (a file's first bytes) confidently looks like, or None.

    >>> kind_of(b"bright.a 1 :: clever 2;smart 1;\\nbright.a 2 :: sunny 3;\\n")
    'gold'
    >>> kind_of(b"bright.a 1 ::: clever;smart\\n")
    'oot'
    >>> kind_of(b"bright.a 1 :: clever\\n")
    'best'
    >>> kind_of(b"\\x00\\x01ELF")
    'binary'
    """
    if not data:
        return None
    if b"\0" in data:
        return "binary"
    text = data.decode("utf-8", errors="replace").lstrip("\ufeff")
    if text.count("\ufffd") > max(8, len(text) // 100):
        return "binary"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(data) == HEAD and len(lines) > 1:
        lines.pop()  # cut at HEAD: the last line may be partial
    lines = lines[:LINES]
    if not lines:
        return None
    first = lines[0]
    if first.startswith("<"):
        return "task-xml" if re.search(r"<(corpus|lexelt|instance)\b", text) else None
    if first.startswith("{"):
        return _json_kind(lines)
    keyed = [match for line in lines if (match := _KEYED.match(line + " "))]
    if len(keyed) == len(lines):
        if all(match.group(1) == ":::" for match in keyed):
            return "oot"
        if all(match.group(1) == "::" for match in keyed):
            return "gold" if all(_gold_line(line) for line in lines) else "best"
        return None
    if all(_tsar_line(line) for line in lines):
        return "tsar"
    return None


def _gold_line(line: str) -> bool:
    """Every substitute of the line followed by its count (``clever 2;``)."""
    entries = [entry.strip() for entry in line.split(" :: ", 1)[1].split(";") if entry.strip()]
    return bool(entries) and all(_GOLD_ENTRY.fullmatch(entry) for entry in entries)


def _tsar_line(line: str) -> bool:
    """SENTENCE<TAB>WORD… (a sentence of several words that holds the word), or MLSP's
    complexity line ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>COMPLEXITY…"""
    cells = line.split("\t")
    return _holds(cells, 0) or (len(cells) >= 5 and _holds(cells, 2))


def _holds(cells: list[str], at: int) -> bool:
    sentence = cells[at].strip()
    return len(cells) > at + 1 and " " in sentence and cells[at + 1].strip() in sentence


def _json_kind(lines: list[str]) -> Kind | None:
    import json

    keys: set[str] = set()
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            return None
        if not isinstance(value, dict):
            return None
        keys.update(value)
    if not {"annotator", "instance", "kind"} <= keys:
        return None
    return "responses" if keys & {"used_dictionary", "updated_at"} else "annotators"


HINTS: dict[tuple[str, Kind], str] = {
    ("agreement", "gold"): "agreement reads the annotators.jsonl that compile writes",
    ("agreement", "responses"): (
        "agreement reads the annotators.jsonl that compile writes: lexsub compile FILE --out "
        "DIR, then lexsub agreement DIR/annotators.jsonl"
    ),
    ("compile", "gold"): (
        "compile reads responses (lexsub export writes them) or a dataset (--dataset NAME)"
    ),
    ("compile", "annotators"): (
        "compile reads responses (lexsub export writes them); agreement reads this file"
    ),
    ("import", "tsar"): "import it with --format tsar",
    ("import", "gold"): (
        "import reads a dataset's sentences (the task's XML, CoInCo, SWORDS, a table), not a gold"
    ),
    ("score", "task-xml"): "the gold is the task's gold file (LEXELT ID :: SUBSTITUTE COUNT;…)",
    ("score", "binary"): "the gold is the task's gold file (LEXELT ID :: SUBSTITUTE COUNT;…)",
}
"""What a command says after naming the kind it was given, where more helps than the
kind it reads."""


def mixup(name: str, found: Kind | None, command: str, expected: tuple[Kind, ...]) -> str | None:
    """The one line for ``name``, found to be of kind ``found``, given to ``command``, which
    reads the ``expected`` kinds; None when the kind is expected or unknown.

    >>> mixup("g.txt", "gold", "agreement", ("annotators",))
    'g.txt is a gold file; agreement reads the annotators.jsonl that compile writes'
    >>> mixup("a.jsonl", "annotators", "agreement", ("annotators",)) is None
    True
    """
    if found is None or found in expected:
        return None
    hint = HINTS.get((command, found))
    if hint is None:
        wanted = " or ".join(DESCRIPTIONS[kind] for kind in expected)
        hint = f"{command} reads {wanted}"
    description = DESCRIPTIONS[found]
    if found == "gold":
        description = "a gold file"
    return f"{name} is {description}; {hint}"


def file_mixup(
    path: str | os.PathLike[str], command: str, expected: tuple[Kind, ...]
) -> str | None:
    """:func:`mixup` for the file at ``path``."""
    return mixup(os.fspath(path), kind_of(head_of(path)), command, expected)
