"""Import of the data formats: the names the rest of lexsub uses.

The parsing lives in :mod:`scoring.formats.importers` (one module per format, one instance
type); this module keeps the names the app, the commands and the tests have always imported.
"""

from __future__ import annotations

from scoring.formats.importers.read import parse_source, read_source
from scoring.formats.importers.semeval import parse_lexsub_xml, read_lexsub_xml
from scoring.formats.instances import (
    MAX_HEAD,
    MAX_INSTANCE_ID,
    MAX_ITEM,
    POS_TAGS,
    ImportResult,
    Instance,
    Lexelt,
    Repair,
    SourceError,
    split_item,
)
from scoring.formats.registry import NAMES as FORMATS
from scoring.formats.taskxml import format_lexsub_xml

XMLImportError = SourceError
"""The older name of :class:`SourceError` (the task's XML was the only format)."""

__all__ = [
    "FORMATS",
    "MAX_HEAD",
    "MAX_INSTANCE_ID",
    "MAX_ITEM",
    "POS_TAGS",
    "ImportResult",
    "Instance",
    "Lexelt",
    "Repair",
    "SourceError",
    "XMLImportError",
    "format_lexsub_xml",
    "parse_lexsub_xml",
    "parse_source",
    "read_lexsub_xml",
    "read_source",
    "split_item",
]
