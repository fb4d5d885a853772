"""The task's XML as the importer reads it: :mod:`scoring.formats.taskxml` with the
corpus's ``lang`` read by :func:`scoring.formats.language.declared_language` (which knows
the languages' names, from ``pycountry``)."""

from __future__ import annotations

import os
from collections.abc import Iterable

from scoring.formats import taskxml
from scoring.formats.instances import LIMITS, ImportResult, Limits
from scoring.formats.language import declared_language


def parse_lexsub_xml(
    data: bytes | Iterable[bytes],
    name: str = "<xml>",
    language: str | None = None,
    limits: Limits = LIMITS,
) -> ImportResult:
    """:func:`scoring.formats.taskxml.parse_lexsub_xml`, the ``lang`` a file declares read
    as a language's name or code."""
    return taskxml.parse_lexsub_xml(data, name, language, limits, declared_language)


def import_stream(
    stream: Iterable[bytes], data: bytes, name: str, language: str | None, limits: Limits
) -> ImportResult:
    """The reader of the ``semeval`` row of :data:`scoring.formats.registry.FORMATS`: the
    unpacked chunks parsed as they come."""
    return parse_lexsub_xml(stream, name, language, limits)


def read_lexsub_xml(path: str | os.PathLike[str]) -> ImportResult:
    """Import a file; see :func:`parse_lexsub_xml`."""
    return taskxml.read_lexsub_xml(path, declared_language)
