"""A cache of gold readings, for the drop-in scorer's start-up.

System builders score many outputs against one gold file: every run of ``python -m
scoring.score.cli`` reads the same gold under both rule sets (:func:`read_gold_pair`, about
half of a run on the task's 1,703-line test gold). The first run keeps the two readings
in a small file (:mod:`marshal`), named by a digest of

* the gold's text,
* the Python that wrote it (:data:`sys.version`, the marshal format),
* this cache's format (:data:`FORMAT`),
* the name, size and modification time of every ``scoring`` module the process has
  loaded (any change to the code that reads a gold starts a new entry);

later runs load it instead of parsing the text. What is loaded is the same readings
(the same items, counts, floats to the bit, modes, ``differ``), so every figure, line of
the diagnosis and byte of output is the same as without the cache
(``tests/test_gold_cache.py`` compares).

Where: ``$LEXSUB_CACHE_DIR`` if set (empty: no cache), else ``$XDG_CACHE_HOME/lexsub``,
else ``~/.cache/lexsub``; entries go in its ``gold/`` folder, at most :data:`KEEP` of
them and :data:`MAX_BYTES` in all (the oldest are removed first). Only golds up to
:data:`MAX_TEXT` characters are cached (a bigger one is read from its text). A cache
that cannot be read or written (no such folder, no permission, a damaged entry) is
ignored: the gold is read from its text, as without it. The scorer uses the cache only
when asked (``lexsub score --cache``, or ``LEXSUB_GOLD_CACHE=1`` in the environment):
by default it reads the gold's text and writes nothing.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from array import array
from functools import partial
from itertools import islice, repeat
from operator import is_
from typing import TYPE_CHECKING

from scoring.files import user_cache
from scoring.formats.gold import Gold, ItemGold, read_gold_pair

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

FORMAT = 2
"""The layout of an entry; raise it when the layout changes."""

KEEP = 32
"""Entries kept at most; writing one more removes the oldest."""

MAX_BYTES = 512 << 20
"""The entries' bytes at most; writing one more removes the oldest beyond it."""

MAX_TEXT = 64 << 20
"""Golds of more characters than this are not cached (a million-item gold has about 60 M;
its entry is a third to one and a half times its text)."""

_MAGIC = "lexsub-gold-cache"
_new = tuple.__new__


def cache_directory() -> str | None:
    """The folder of gold entries, or None when the cache is off (``LEXSUB_CACHE_DIR``
    set to the empty string)."""
    chosen = os.environ.get("LEXSUB_CACHE_DIR")
    if chosen is not None:
        return os.path.join(chosen, "gold") if chosen else None
    return user_cache("gold")


def code_stamp() -> str:
    """Name, size and modification time of every loaded ``scoring`` module's file."""
    parts = []
    for name, module in sorted(sys.modules.items()):
        if name == "scoring" or name.startswith("scoring."):
            path = getattr(module, "__file__", None)
            if path:
                try:
                    stat = os.stat(path)
                except OSError:
                    parts.append(f"{name}:?")
                else:
                    parts.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}")
    return ";".join(parts)


def entry_name(text: str) -> str:
    """The file name of ``text``'s entry (a BLAKE2b digest of what it depends on)."""
    digest = hashlib.blake2b(digest_size=20)
    for part in (_MAGIC, str(FORMAT), sys.version, str(marshal.version), code_stamp()):
        digest.update(part.encode("utf-8", "surrogateescape") + b"\0")
    digest.update(text.encode("utf-8", "surrogateescape"))
    return digest.hexdigest() + ".marshal"


def cached_gold_pair(
    text: str,
    name: str = "<gold>",
    directory: str | None = None,
    later: list[Callable[[], None]] | None = None,
    keep: list[object] | None = None,
) -> tuple[Gold, Gold, set[str]]:
    """:func:`read_gold_pair` of ``text``, loaded from the cache when an entry exists,
    else read and kept. ``directory`` defaults to :func:`cache_directory`. With
    ``later``, a new entry is not written now: its writing is appended to ``later``, for
    the caller to run once the texts it holds are freed (the scorer writes it after its
    output, so that the entry's memory never adds to the run's peak). With ``keep``, the
    items as marshal loaded them (each copied into an :class:`ItemGold`) are appended to
    it rather than freed: for a caller whose process ends without freeing anything (the
    scorer, :func:`scoring.score.cli.main`), freeing them one by one would be work for
    nothing."""
    folder = directory if directory is not None else cache_directory()
    if not folder or len(text) > MAX_TEXT:
        return read_gold_pair(text, name)
    path = os.path.join(folder, entry_name(text))
    try:
        with open(path, "rb") as file:
            loaded = _unpack(marshal.loads(file.read()), keep)
    except (OSError, EOFError, ValueError, TypeError, IndexError, KeyError):
        loaded = None
    if loaded is not None:
        return loaded
    pair = read_gold_pair(text, name)
    if later is None:
        _store(folder, path, pair)
    else:
        later.append(partial(_store, folder, path, pair))
    return pair


def _pack(pair: tuple[Gold, Gold, set[str]]) -> tuple[Any, ...]:
    """An entry: each distinct item once, as a plain tuple (ids that share an item, as a
    gold's repeated lines do, and the fixed reading's items shared with the compat one
    keep sharing it; equal strings and floats made one object, so that marshal writes
    each once); the compat reading's ids joined by newlines (an id has no white space)
    with the positions of their items as an array's bytes; the fixed reading as the
    compat one less the ids it drops, then the ids it adds (its replayed lines): a few
    large objects rather than two a line, one string an id, for a small entry, a quick
    load and little memory (and a million lines packed by C loops, not Python's)."""
    compat, fixed, differ = pair
    unique = dict(zip(map(id, compat.items.values()), compat.items.values(), strict=True))
    unique.update(zip(map(id, fixed.items.values()), fixed.items.values(), strict=True))
    position = {key: place for place, key in enumerate(unique)}
    same: dict[object, Any] = {}
    items = tuple(_shared(item, same) for item in unique.values())
    # the fixed reading as the compat one less its ids of ``differ`` that it reads
    # otherwise, then its replayed lines (how read_gold_pair makes it), when it is so,
    # checked item by item; any other reading (a non-ASCII gold): all of it
    dropped = tuple(
        sorted(i for i in differ if i in compat.items and fixed.items.get(i) is not compat.items[i])
    )
    base = compat.items.copy()
    for item_id in dropped:
        del base[item_id]
    count = len(base)
    prefix = (
        count > 0
        and list(islice(fixed.items, count)) == list(base)
        and all(map(is_, islice(fixed.items.values(), count), base.values()))
    )
    tail = dict(islice(fixed.items.items(), count, None)) if prefix else fixed.items
    return (
        _MAGIC,
        FORMAT,
        items,
        *_columns(compat.items, position),
        compat.total_items,
        compat.total_modes,
        prefix,
        dropped if prefix else (),
        *_columns(tail, position),
        fixed.total_items,
        fixed.total_modes,
        tuple(sorted(differ)),
    )


def _columns(items: dict[str, ItemGold], position: dict[int, int]) -> tuple[object, ...]:
    """Ids and the positions of their items; ValueError (no entry is written) for an id
    with a newline, which the gold's line patterns never give."""
    joined = "\n".join(items)
    if items and joined.count("\n") != len(items) - 1:
        raise ValueError("an id with a newline")
    places = array("q", map(position.__getitem__, map(id, items.values())))
    return len(items), joined, places.tobytes()


def _shared(item: ItemGold, same: dict[object, Any]) -> tuple[object, ...]:
    """``item`` as a plain tuple whose strings and floats are the ones ``same`` holds
    (a float is looked up by its bits: 0.0 and -0.0 stay apart)."""

    def one(value: Any) -> Any:
        key = (str, value) if value.__class__ is str else (float, value.hex())
        return same.setdefault(key, value)

    lexelt, counts, total, norms, mode, mode_delta, rules = item
    return (
        one(lexelt),
        tuple((one(key), count) for key, count in counts),
        total,
        {one(key): one(norm) for key, norm in norms.items()},
        None if mode is None else one(mode),
        mode_delta,
        one(rules),
    )


def _unpack(data: object, keep: list[object] | None = None) -> tuple[Gold, Gold, set[str]] | None:
    if not isinstance(data, tuple) or len(data) != 16 or data[:2] != (_MAGIC, FORMAT):
        return None
    (_, _, raw, count, ids, places, total_items, total_modes, prefix, dropped, tail_count,
     tail_ids, tail_places, fixed_items, fixed_modes, differ) = data  # fmt: skip
    values = list(map(_new, repeat(ItemGold), raw))
    if keep is not None:
        keep.append(raw)
    keys = ids.split("\n") if count else []
    compat = dict(zip(keys, map(values.__getitem__, _positions(places)), strict=True))
    fixed: dict[str, ItemGold] = compat.copy() if prefix else {}
    if prefix:
        for item_id in dropped:
            del fixed[item_id]
    tail = tail_ids.split("\n") if tail_count else []
    fixed.update(zip(tail, map(values.__getitem__, _positions(tail_places)), strict=True))
    return (
        Gold("compat", compat, total_items, total_modes),
        Gold("fixed", fixed, fixed_items, fixed_modes),
        set(differ),
    )


def _positions(places: bytes) -> array[int]:
    positions = array("q")
    positions.frombytes(places)
    return positions


def _store(folder: str, path: str, pair: tuple[Gold, Gold, set[str]]) -> None:
    """Write the entry (to a temporary name, then renamed: a reader never sees half of
    it) and remove the oldest beyond :data:`KEEP`; any failure leaves no entry."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(folder, exist_ok=True)
        with open(temporary, "wb") as file:
            file.write(marshal.dumps(_pack(pair)))
        os.replace(temporary, path)
        _prune(folder)
    except (OSError, ValueError):
        try:  # noqa: SIM105 - contextlib.suppress would import contextlib at start-up
            os.remove(temporary)
        except OSError:
            pass


def _prune(folder: str) -> None:
    """Remove the oldest entries until at most :data:`KEEP` are left, of at most
    :data:`MAX_BYTES` in all."""
    entries = []
    for entry in os.scandir(folder):
        if entry.name.endswith(".marshal"):
            stat = entry.stat()
            entries.append((stat.st_mtime_ns, entry.path, stat.st_size))
    entries.sort(reverse=True)  # newest first
    size = 0
    for kept, (_, path, bytes_) in enumerate(entries, 1):
        size += bytes_
        if kept > KEEP or (size > MAX_BYTES and kept > 1):
            os.remove(path)
