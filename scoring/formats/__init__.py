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

The responses the gold compiler reads (:mod:`scoring.formats.responses`), the judgements
(:mod:`scoring.formats.judgements`) and the importer's formats (:mod:`annotate.sources`)
raise this same error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Problem(NamedTuple):
    """One problem of a file and where it is: a line number, a JSON path, or ``""`` for
    the whole file.

    >>> str(Problem("gold", 3, "no ' ::' found")), str(Problem("d.json", "", "not an object"))
    ("gold:3: no ' ::' found", 'd.json: not an object')
    """

    file: str
    where: int | str
    problem: str

    def __str__(self) -> str:
        if self.where == "":
            return f"{self.file}: {self.problem}"
        return f"{self.file}:{self.where}: {self.problem}"


class FormatError(ValueError):
    """A file broke a rule of its format: the one error of every reader (the importer's
    :class:`scoring.formats.instances.SourceError`, the XML feed's
    :class:`scoring.safexml.XmlError` and :class:`scoring.files.TextError` are kinds of
    it). ``problems`` holds every ``FILE:LINE: …`` (or ``FILE:JSON.PATH: …``) message;
    ``located`` those given as :class:`Problem` records, so that a caller can take a
    problem's parts without reading them back out of its message."""

    def __init__(self, problems: Sequence[str | Problem]) -> None:
        self.located = tuple(problem for problem in problems if isinstance(problem, Problem))
        self.problems = tuple(map(str, problems))
        shown = "\n".join(self.problems[:20])
        more = len(self.problems) - 20
        super().__init__(shown + (f"\n… and {more} more problems" if more > 0 else ""))
