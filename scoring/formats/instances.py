"""What every importer gives: instances grouped into lexelts, and the one error type.

An instance is a context split around its target (``before + head + after``); a lexelt
is a target word (``item`` ``lemma.pos`` or ``lemma.orig_pos.pos``) and its instances.
Every format ends in :func:`group_lexelts`, which applies the rules the database needs
(the same as the task's XML): item names and ids NFC-normalised (a decomposed and a
composed ``Gebäude.n`` are one word), then held to the gold's rules for a lexelt and an
instance id (:mod:`scoring.formats.keys`, the compiler's: no white space, ``;`` or control
character; ``spazieren_gehen.v``, not ``spazieren gehen.v``), ids unique,
lengths within ``MAX_ITEM``, ``MAX_INSTANCE_ID``, ``MAX_HEAD``, a head that is not blank,
no character XML 1.0 cannot hold (PostgreSQL refuses U+0000); and the bounds of
:class:`Limits` (a context's length, the number of instances), so that no file can fill
the memory.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from scoring.errors import SourceError as SourceError  # its home; the importers take it here
from scoring.formats.keys import InvalidKey, check_instance_id, check_lexelt

POS_TAGS = ("n", "v", "a", "r")
# The most characters the database keeps (annotate.models uses these for its columns).
MAX_ITEM = 120
MAX_INSTANCE_ID = 64
MAX_HEAD = 255
# The bounds of an import, far above any study's (the longest context of SemEval-2007,
# CoInCo and SWORDS has 865 characters; CoInCo has 15,415 instances, the largest file,
# SWORDS' test set, unpacks to 17 MiB): what they admit stays under 600 MiB of memory.
MAX_CONTEXT = 10_000
MAX_INSTANCES = 100_000
MAX_UNPACKED = 64 * 2**20
MAX_JSON_VALUES = 3_000_000  # SWORDS' test set holds 1.2 million (objects, arrays, items)

# lemma.pos or lemma.orig_pos.pos, the lemma without a dot; read as words separated by
# single spaces, which the gold refuses (:func:`check_item`), so as to suggest the fix.
_ITEM = re.compile(r"([^\s.]+(?: [^\s.]+)*)\.(?:[nvar]\.)?([nvar])")
NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


@dataclass(frozen=True, slots=True)
class Limits:
    """The most an import may hold: characters in one context (``before + head + after``),
    instances in the file, bytes in the file once gunzipped, values (objects, arrays,
    members and items) in a JSON file."""

    context: int = MAX_CONTEXT
    instances: int = MAX_INSTANCES
    unpacked: int = MAX_UNPACKED
    json_values: int = MAX_JSON_VALUES

    def check_count(self, count: int) -> None:
        """ValueError when ``count`` instances are more than an import may hold."""
        if count > self.instances:
            raise ValueError(
                f"more than {self.instances:,} instances; at most {self.instances:,} "
                "are imported (split the file into several datasets)"
            )

    def check_context(self, length: int, id_: str) -> None:
        """ValueError when a context of ``length`` characters is longer than allowed."""
        if length > self.context:
            raise ValueError(
                f"the context of instance {id_!r} has more than {self.context:,} "
                f"characters; at most {self.context:,}"
            )


LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class Instance:
    """One sentence: its context split around the target (``before + head + after``);
    ``line`` is where it starts in its file (0 for JSON, which has paths, not lines)."""

    id: str
    lexelt: str
    before: str
    head: str
    after: str
    line: int

    @property
    def text(self) -> str:
        """The whole context as plain text."""
        return self.before + self.head + self.after


@dataclass(frozen=True, slots=True)
class Lexelt:
    """One target word (``item`` such as ``bright.a`` or ``stand.n.v``) and its sentences."""

    item: str
    lemma: str
    pos: str
    instances: tuple[Instance, ...]


@dataclass(frozen=True, slots=True)
class Repair:
    """A defect of the input that was repaired before parsing (``instance_id`` is empty
    when the defect lies outside every instance)."""

    instance_id: str
    line: int
    what: str


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The lexelts of a file in file order, the repairs made to read it, the dataset's
    language (an ISO 639-1 code), notes on what was left out on purpose, the task its
    annotators do (``substitution``, ``simplification`` or ``complexity``) and the file's
    own gold when it carries one (``reference``: TSAR's and MLSP's substitutes or
    complexities, the file's text)."""

    lexelts: tuple[Lexelt, ...]
    repairs: tuple[Repair, ...]
    language: str = "en"
    notes: tuple[str, ...] = ()
    task: str = "substitution"
    reference: str = ""

    @property
    def instances(self) -> tuple[Instance, ...]:
        """Every instance, in file order."""
        return tuple(instance for lexelt in self.lexelts for instance in lexelt.instances)

    @property
    def n_instances(self) -> int:
        return sum(len(lexelt.instances) for lexelt in self.lexelts)


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to its first ``limit`` characters."""
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


def nfc(text: str) -> str:
    """``text`` in Unicode normalisation form C (composed)."""
    return unicodedata.normalize("NFC", text)


def split_item(item: str) -> tuple[str, str]:
    """``(lemma, pos)`` of an item ``lemma.pos`` or ``lemma.orig_pos.pos``; ValueError if the
    item is neither.

    >>> split_item("stand.n.v")
    ('stand', 'v')
    >>> split_item("spazieren_gehen.v")
    ('spazieren_gehen', 'v')
    >>> split_item("spazieren gehen.v")  # read, but refused by check_item
    ('spazieren gehen', 'v')
    """
    match = _ITEM.fullmatch(item)
    if match is None:
        raise ValueError(
            f"lexelt item {item!r} is not lemma.pos or lemma.pos.pos "
            f"with pos one of {', '.join(POS_TAGS)}"
        )
    return match.group(1), match.group(2)


def check_item(item: str) -> tuple[str, str]:
    """``(lemma, pos)`` of an item the gold can hold (:func:`scoring.formats.keys.check_lexelt`,
    the compiler's rule) within the database's length; ValueError naming the rule
    otherwise."""
    if len(item) > MAX_ITEM:
        raise ValueError(
            f"lexelt item {shown(item)} has {len(item)} characters; at most {MAX_ITEM}"
        )
    parts = split_item(item)
    try:
        check_lexelt(item)
    except InvalidKey as error:
        raise ValueError(f"lexelt item {error.message}") from None
    return parts


def check_id(id_: str) -> None:
    """ValueError unless ``id_`` is an instance id the gold can hold
    (:func:`scoring.formats.keys.check_instance_id`, the compiler's rule) and the database keeps."""
    if len(id_) > MAX_INSTANCE_ID:
        raise ValueError(
            f"instance id {shown(id_)} has {len(id_)} characters; at most {MAX_INSTANCE_ID}"
        )
    if not id_ or any(char.isspace() for char in id_):
        raise ValueError(f"instance id {id_!r} must be non-empty and contain no white space")
    try:
        check_instance_id(id_)
    except InvalidKey as error:
        raise ValueError(f"instance id {error.message}") from None


def check_text(text: str, what: str) -> None:
    """ValueError if ``text`` holds a character XML 1.0 cannot (U+0000 and other controls,
    lone surrogates); ``what`` names the field."""
    bad = NOT_XML_CHAR.search(text)
    if bad is not None:
        raise ValueError(
            f"{what} holds U+{ord(bad.group()):04X}, a control character that no "
            "context may hold (the characters of XML 1.0 only)"
        )


@dataclass(frozen=True, slots=True)
class Row:
    """One instance as a format reads it, before the shared rules: ``where`` is its line
    (or JSON path) for messages, ``line`` its line (0 in JSON)."""

    id: str
    item: str
    before: str
    head: str
    after: str
    where: int | str
    line: int


def group_lexelts(rows: Iterable[Row], file: str, limits: Limits = LIMITS) -> tuple[Lexelt, ...]:
    """The rows as lexelts, words in the order of their first instance, each word's
    instances in file order; item and id NFC-normalised. SourceError at the first row that
    breaks a rule of this module's docstring, or when there are no rows at all."""
    seen: dict[str, int | str] = {}
    words: dict[str, tuple[str, str, list[Instance]]] = {}
    for row in rows:
        item, id_ = nfc(row.item), nfc(row.id)
        try:
            limits.check_count(len(seen) + 1)
            limits.check_context(len(row.before) + len(row.head) + len(row.after), id_)
            lemma, pos = check_item(item)
            check_id(id_)
            if id_ in seen:
                raise ValueError(
                    f"duplicate instance id {id_!r} (first at {_at(seen[id_])}); "
                    "ids must be unique in the file"
                )
            if not row.head.strip():
                raise ValueError(f"instance {id_!r} has an empty target")
            if len(row.head) > MAX_HEAD:
                raise ValueError(
                    f"the target of instance {id_!r} has {len(row.head)} characters; "
                    f"at most {MAX_HEAD}"
                )
            for text in (row.before, row.head, row.after):
                check_text(text, f"the context of instance {id_!r}")
        except ValueError as error:
            raise SourceError(file, row.where, str(error)) from None
        seen[id_] = row.where
        instance = Instance(id_, item, row.before, row.head, row.after, row.line)
        words.setdefault(item, (lemma, pos, []))[2].append(instance)
    if not words:
        raise SourceError(file, "", "no instances: the file holds no target to annotate")
    return tuple(
        Lexelt(item, lemma, pos, tuple(instances))
        for item, (lemma, pos, instances) in words.items()
    )


def _at(where: int | str) -> str:
    return f"line {where}" if isinstance(where, int) else where
