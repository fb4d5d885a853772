"""The importer's door to the one safe XML feed (:func:`scoring.safexml.feed_xml`: no
entity expansion, no external references; a DTD only where the format has one), each
failure a :class:`~annotate.sources.model.SourceError` naming the line and the rule."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from annotate.sources.model import SourceError
from scoring.safexml import feed_xml as feed_chunks


def feed_xml(
    builder: Any, data: bytes | Iterable[bytes], name: str, allow_dtd: bool, hint: str = ""
) -> None:
    """Parse ``data``, bytes or bytes in chunks, into ``builder`` (an ElementTree parser
    target with an ``expat`` attribute, set here to the expat parser so that it can name
    lines). ``hint`` follows the message of a forbidden construct (e.g. what the format
    never has)."""
    chunks = (data,) if isinstance(data, bytes) else data
    for _ in feed_chunks(builder, chunks, name, allow_dtd, hint, SourceError):
        pass
