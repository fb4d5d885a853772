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
==================================  ======================================================

The importers (:mod:`annotate.sources`), the gold compiler (:mod:`annotate.gold`), the
scorer and the benchmarks read and write through these modules. GermEval's and EVALITA's
files are read by their benchmarks (:mod:`scoring.benchmark`), as their own scripts read
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scoring.records import Record

SHOWN_PROBLEMS = 20
"""The problems a message shows (and a reader keeps): the rest are counted."""


class Problem(Record):
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

    def __init__(self, problems: Sequence[str | Problem], more: int = 0) -> None:
        self.located = tuple(problem for problem in problems if isinstance(problem, Problem))
        self.problems = tuple(map(str, problems))
        self.count = len(self.problems) + more
        """Every problem found, those not kept (``more``: a reader keeps the first
        :data:`SHOWN_PROBLEMS` only, :class:`scoring.bounded.Problems`) included."""
        shown = "\n".join(self.problems[:SHOWN_PROBLEMS])
        rest = self.count - min(len(self.problems), SHOWN_PROBLEMS)
        super().__init__(shown + (f"\n… and {rest} more problems" if rest > 0 else ""))


class SourceError(FormatError):
    """A file that cannot be imported, or read within its bounds
    (:class:`scoring.bounded.BoundError`): one :class:`Problem`, the message
    ``FILE:LINE: problem`` (for JSON ``FILE:PATH: problem``, for a problem of the whole
    file ``FILE: problem``). :mod:`scoring.formats.instances` gives it to the importers."""

    def __init__(self, file: str, where: int | str, problem: str) -> None:
        super().__init__([Problem(file, where, problem)])
        self.file = file
        self.where = where
        self.line = where if isinstance(where, int) else 0
        self.problem = problem


class Problems:
    """The problems a reader finds in a file: the first :data:`SHOWN_PROBLEMS` kept, the
    others counted. ``raise_any()`` raises them as one :class:`FormatError` whose message
    shows those kept and "… and N more problems".

    >>> found = Problems()
    >>> for line in range(1, 26):
    ...     found.add(f"f:{line}: bad")
    >>> len(found), found.kept[-1]
    (25, 'f:20: bad')
    >>> str(found.error()).splitlines()[-1]
    '… and 5 more problems'
    """

    def __init__(self, keep: int = SHOWN_PROBLEMS) -> None:
        self.keep = keep
        self.kept: list[str | Problem] = []
        self.more = 0

    def add(self, problem: str | Problem) -> None:
        if len(self.kept) < self.keep:
            self.kept.append(problem)
        else:
            self.more += 1

    def extend(self, problems: FormatError | Iterable[str | Problem]) -> None:
        """Each of ``problems``; those of a :class:`FormatError` with its uncounted ones."""
        if not isinstance(problems, FormatError):
            for problem in problems:
                self.add(problem)
            return
        given = problems.located or problems.problems
        for problem in given:
            self.add(problem)
        self.more += problems.count - len(given)

    def __len__(self) -> int:
        return len(self.kept) + self.more

    def __bool__(self) -> bool:
        return bool(self.kept)

    def error(self) -> FormatError:
        return FormatError(self.kept, self.more)

    def raise_any(self) -> None:
        """Raise the problems found, if any, as one :class:`FormatError`."""
        if self:
            raise self.error()
