"""The project's file formats, one module per format.

Each module parses text (or bytes) into typed records (frozen dataclasses) and formats
records back into a string; its ``read_*`` and ``write_*`` functions are thin wrappers
that add the file. Every problem is one :class:`FormatError` naming ``FILE:LINE`` (or a
JSON path) and the rule broken.

=============================  ============================================================
module                         format
=============================  ============================================================
:mod:`scoring.formats.text`    lines as Perl reads them, bytes kept; JSON Lines objects
:mod:`scoring.formats.gold`    gold and mwgold files (``LEXELT ID :: sub count;…``)
:mod:`scoring.formats.system`  system files: best (``::``), oot (``:::``), mw (``::``)
:mod:`scoring.formats.ranked`  ranked candidates (``LEXELT ID :::: SCORE CANDIDATE;…``)
:mod:`scoring.formats.swords`  SWORDS datasets and results (Lee et al. 2021), JSON
:mod:`scoring.formats.coinco`  CoInCo's XML (Kremer et al. 2014)
:mod:`scoring.formats.annotators`  ``annotators.jsonl``: one annotator's answer a line
=============================  ============================================================

The responses the gold compiler reads (:mod:`annotate.gold.records`), the judgements
(:mod:`scoring.judgements.records`) and the importer's formats (:mod:`annotate.sources`)
raise this same error.
"""

from __future__ import annotations

from collections.abc import Sequence


class FormatError(ValueError):
    """A file broke a rule of its format. ``problems`` holds every ``FILE:LINE: …`` (or
    ``FILE: JSON.PATH: …``) message."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        shown = "\n".join(self.problems[:20])
        more = len(self.problems) - 20
        super().__init__(shown + (f"\n… and {more} more problems" if more > 0 else ""))
