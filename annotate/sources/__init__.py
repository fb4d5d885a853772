"""Importers of the field's data formats: bytes in, instances out (pure: no Flask, no
SQLAlchemy; the database writing is :func:`annotate.services.datasets.import_dataset`).

============  ===========================================  =====================
format        module                                        instances
============  ===========================================  =====================
``semeval``   :mod:`annotate.sources.semeval`               one per ``<instance>``
``coinco``    :mod:`annotate.sources.coinco`                one per annotated token
``swords``    :mod:`annotate.sources.swords`                one per target
``tsv``       :mod:`annotate.sources.table`                 one per row
``csv``       :mod:`annotate.sources.table`                 one per row
============  ===========================================  =====================

Any of them may be gzip-compressed. :func:`parse_source` unpacks, tells the format from
the content and parses, a chunk at a time, within :class:`Limits`; every format ends in
the one instance type (:mod:`annotate.sources.model`) and the same rules for ids, items
and lengths.
"""

from annotate.sources.model import (
    LIMITS,
    ImportResult,
    Instance,
    Lexelt,
    Limits,
    Repair,
    SourceError,
)
from annotate.sources.read import (
    FORMATS,
    check_size,
    detect_format,
    gunzip,
    parse_source,
    read_source,
)

__all__ = [
    "FORMATS",
    "LIMITS",
    "ImportResult",
    "Instance",
    "Lexelt",
    "Limits",
    "Repair",
    "SourceError",
    "check_size",
    "detect_format",
    "gunzip",
    "parse_source",
    "read_source",
]
