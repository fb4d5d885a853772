"""Importers of the field's data formats: bytes in, instances out (pure: no Flask, no
SQLAlchemy; the database writing is :func:`annotate.services.datasets.import_dataset`).

===========  ========================================  =========================
format       reader                                    instances
===========  ========================================  =========================
``semeval``  :mod:`scoring.formats.importers.semeval`  one per ``<instance>``
``coinco``   :mod:`scoring.formats.importers.coinco`   one per annotated token
``swords``   :mod:`scoring.formats.importers.swords`   one per target
``tsv``      :mod:`scoring.formats.table`              one per row
``csv``      :mod:`scoring.formats.table`              one per row
``tsar``     :mod:`scoring.formats.importers.tsar`     one per line (TSAR, MLSP)
===========  ========================================  =========================

Each format is a row of the table of formats (:data:`scoring.formats.registry.FORMATS`,
whose :data:`~scoring.formats.registry.NAMES` are what ``--format`` takes) holding its
module's reader, ``import_stream``, and, for ``lexsub convert --to hf`` (:mod:`.hub`), its
gold reader, ``gold_entries``. The task's XML is parsed by :mod:`scoring.formats.taskxml`
(:mod:`.semeval` reads the language of ``<corpus lang="...">`` by its name), CoInCo's by
:mod:`scoring.formats.coinco` and SWORDS' by :mod:`scoring.formats.swords`; the modules
here make instances of what those parsers read. Any file may be gzip-compressed.
:func:`scoring.formats.importers.read.parse_source`, the importers' entry, unpacks, tells the
format from the content and parses, a chunk at a time, within
:class:`~scoring.formats.instances.Limits`; every format ends in the one instance type
(:mod:`scoring.formats.instances`) and the same rules for ids, items and lengths.

The package imports none of its modules: the table imports the readers, and the entry
imports the table, so neither is imported by way of the other.
"""
