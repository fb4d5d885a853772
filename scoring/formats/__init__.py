"""The project's file formats, one module per format.

Each module parses text (or bytes) into typed records (frozen dataclasses) and formats
records back into a string; its ``read_*`` and ``write_*`` functions are thin wrappers
that add the file. Every problem is one :class:`FormatError` naming ``FILE:LINE`` (or a
JSON path) and the rule broken.

==================================  ======================================================
module                              format
==================================  ======================================================
:mod:`scoring.formats.gold`         gold and mwgold files (``LEXELT ID :: sub count;…``)
:mod:`scoring.formats.system`       system files: best (``::``), oot (``:::``), mw (``::``)
:mod:`scoring.formats.ranked`       ranked candidates (``LEXELT ID :::: SCORE CANDIDATE;…``)
:mod:`scoring.formats.swords`       SWORDS datasets (Lee et al. 2021), JSON
:mod:`scoring.formats.coinco`       CoInCo's XML (Kremer et al. 2014)
:mod:`scoring.formats.taskxml`      the task's XML input (McCarthy & Navigli 2007)
:mod:`scoring.formats.table`        TSV and CSV tables of sentences
:mod:`scoring.formats.instances`    what every dataset format gives: instances by lexelt
:mod:`scoring.formats.responses`    responses JSONL, the gold compiler's input
:mod:`scoring.formats.annotators`   ``annotators.jsonl``: one annotator's answer a line
:mod:`scoring.formats.judgements`   judgements JSONL, a judgement round's labels
:mod:`scoring.formats.tsar`         TSAR-2022's and MLSP-2024's substitutes (``*_ls.tsv``)
:mod:`scoring.formats.lcp`          MLSP-2024's lexical complexity (``*_lcp.tsv``)
:mod:`scoring.formats.text`         lines as Perl reads them; the strict line parse
:mod:`scoring.formats.registry`     the table of dataset formats ``lexsub import`` reads
:mod:`scoring.formats.importers`    a dataset file of any of them → instances, one module
                                    per format
:mod:`scoring.formats.language`     a dataset's language: ISO 639 codes and names
==================================  ======================================================

The importers (:mod:`scoring.formats.importers`), the gold compiler (:mod:`annotate.gold`),
the scorer and the benchmarks read and write through these modules. GermEval's and EVALITA's
files are read by their benchmarks (:mod:`scoring.benchmark`), as their own scripts read
them.
"""
