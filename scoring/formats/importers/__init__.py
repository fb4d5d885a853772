"""Importers of the field's data formats: bytes in, instances out (pure: no Flask, no
SQLAlchemy; the database writing is :func:`annotate.services.datasets.import_dataset`).

============  ===========================================  =====================
format        module                                        instances
============  ===========================================  =====================
``semeval``   :mod:`scoring.formats.taskxml`                one per ``<instance>``
``coinco``    :mod:`scoring.formats.importers.coinco`       one per annotated token
``swords``    :mod:`scoring.formats.importers.swords`       one per target
``tsv``       :mod:`scoring.formats.table`                 one per row
``csv``       :mod:`scoring.formats.table`                 one per row
``tsar``      :mod:`scoring.formats.importers.tsar`         one per line (TSAR, MLSP)
============  ===========================================  =====================

The task's XML is read by :mod:`scoring.formats.taskxml` (:mod:`.semeval` binds
the language names of ``<corpus lang="...">``), CoInCo's by :mod:`scoring.formats.coinco`
and SWORDS' by :mod:`scoring.formats.swords`; the modules here make instances of what they
read. Any of them may be gzip-compressed. :func:`parse_source` unpacks, tells the format
from the content and parses, a chunk at a time, within :class:`Limits`; every format ends in
the one instance type (:mod:`scoring.formats.instances`) and the same rules for ids, items
and lengths.
"""

from scoring.formats.importers.read import (
    FORMATS,
    detect_format,
    gunzip,
    parse_source,
    read_limited,
    read_source,
)
from scoring.formats.instances import (
    LIMITS,
    ImportResult,
    Instance,
    Lexelt,
    Limits,
    Repair,
    SourceError,
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
    "detect_format",
    "gunzip",
    "parse_source",
    "read_limited",
    "read_source",
]
