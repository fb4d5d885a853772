"""The library's errors, in one place, and how a command ends with one.

* :class:`FormatError`: a file broke a rule of its format; every reader raises it or a
  kind of it: :class:`SourceError` (a file that cannot be imported), :class:`BoundError`
  (past a bound of its reading), :class:`TextError` (not UTF-8 text), :class:`XmlError`
  (its XML format); each problem a :class:`Problem` (``FILE:LINE: rule``), the first
  :data:`SHOWN_PROBLEMS` kept and the rest counted (:class:`Problems`);
* :class:`ScorerDied`: where score.pl itself would die (``Illegal division by zero``);
* how every command line ends a failure: one line ``Error: …`` on standard error and exit
  status 1 (:func:`fail`, :func:`describe`, :func:`guarded`); a usage error exits with
  status 2, also with one line ``Error: …``. Never a traceback: the message names the
  file (and line) and the rule. Every command answers ``--version`` with one line,
  ``COMMAND VERSION`` (:func:`version_line`);
* :func:`refuse_unknown`: a library function that takes its keywords as ``**options``
  refuses a misspelt one by name, as Python does for a keyword it declares.

The rules' own refusals stay beside their rule (:class:`scoring.substitute.
InvalidSubstitute`, :class:`scoring.formats.keys.InvalidKey`), which callers turn into one
of these with the file and line.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

import scoring

if TYPE_CHECKING:
    from typing import TextIO

USAGE_STATUS = 2
ERROR_STATUS = 1
READING: tuple[type[BaseException], ...] = (OSError, ValueError, MemoryError)
"""What reading and checking a file raise, a gzip file's failures aside
(:func:`failures`)."""


def _gzip_failures() -> tuple[type[BaseException], ...]:
    """What a truncated or corrupt gzip file raises: ``EOFError``, and ``zlib.error`` once
    ``zlib`` is loaded (a process that has not loaded it cannot have raised its error)."""
    zlib = sys.modules.get("zlib")
    return (EOFError,) if zlib is None else (EOFError, zlib.error)


def failures() -> tuple[type[BaseException], ...]:
    """What reading and checking a file raise: the file system's errors, a format broken
    (``ValueError``: FormatError, TextError, JSON errors…), memory running out, a
    truncated or corrupt gzip file (:func:`_gzip_failures`). ``zlib`` is not loaded for
    it: the drop-in scorer starts without the shared library (``except failures()`` is
    evaluated only when something is raised)."""
    return (*READING, *_gzip_failures())


def __getattr__(name: str) -> tuple[type[BaseException], ...]:
    """``FAILURES``: :func:`failures` with ``zlib`` loaded, for the commands that
    import it by name."""
    if name == "FAILURES":
        import zlib  # noqa: F401 - loaded, so that failures() names its error

        return failures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def one_line(message: str) -> str:
    """A message on one line: the lines of a multi-line message joined by ``; ``."""
    return "; ".join(part for part in message.splitlines() if part.strip()) or message


def describe(error: BaseException) -> str:
    """What went wrong, naming the file: ``FILE: reason`` for the file system's errors."""
    if isinstance(error, OSError) and error.strerror:
        if error.filename is not None:
            return f"cannot use {error.filename}: {error.strerror}"
        return error.strerror
    if isinstance(error, MemoryError):
        return "not enough memory to read the files (a file too large for this machine)"
    if isinstance(error, _gzip_failures()):
        return f"not a complete gzip file ({error})"
    return str(error) or type(error).__name__


def version_line(command: str) -> str:
    """What ``COMMAND --version`` prints: ``COMMAND VERSION``, the version written in
    ``pyproject.toml`` (``scoring.__version__``, read only when asked for)."""
    return f"{command} {scoring.__version__}"


def fail(message: str, err: TextIO | None = None) -> int:
    """Print ``Error: MESSAGE`` (on one line) on standard error; the exit status 1."""
    print(f"Error: {one_line(message)}", file=err or sys.stderr)
    return ERROR_STATUS


def guarded(body: Callable[[], int], err: TextIO | None = None) -> int:
    """Run a command's body: its exit status, or :func:`fail` on a file's failure."""
    try:
        return body()
    except failures() as error:
        return fail(describe(error), err)


SHOWN_PROBLEMS = 20
"""The problems a message shows (and a reader keeps): the rest are counted."""


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
    :class:`scoring.errors.XmlError` and :class:`scoring.errors.TextError` are kinds
    of
    it). ``problems`` holds every ``FILE:LINE: …`` (or ``FILE:JSON.PATH: …``) message;
    ``located`` those given as :class:`Problem` records, so that a caller can take a
    problem's parts without reading them back out of its message."""

    def __init__(self, problems: Sequence[str | Problem], more: int = 0) -> None:
        self.located = tuple(problem for problem in problems if isinstance(problem, Problem))
        self.problems = tuple(map(str, problems))
        self.count = len(self.problems) + more
        """Every problem found, those not kept (``more``: a reader keeps the first
        :data:`SHOWN_PROBLEMS` only, :class:`scoring.files.bounded.Problems`) included."""
        shown = "\n".join(self.problems[:SHOWN_PROBLEMS])
        rest = self.count - min(len(self.problems), SHOWN_PROBLEMS)
        super().__init__(shown + (f"\n… and {rest} more problems" if rest > 0 else ""))


class SourceError(FormatError):
    """A file that cannot be imported, or read within its bounds
    (:class:`scoring.errors.BoundError`): one :class:`Problem`, the message
    ``FILE:LINE: problem`` (for JSON ``FILE:PATH: problem``, for a problem of the whole
    file ``FILE: problem``). :mod:`scoring.formats.instances` gives it to the importers."""

    def __init__(self, file: str, where: int | str, problem: str) -> None:
        super().__init__([Problem(file, where, problem)])
        self.file = file
        self.where = where
        self.line = where if isinstance(where, int) else 0
        self.problem = problem


LINES_LISTED = 5
"""How many line numbers a note of the diagnosis lists at most."""


class Tally:
    """How many guesses (or lines) a defect touched, and the first lines it did (a plain
    class: one dataclass fewer to build at the scorer's start-up)."""

    __slots__ = ("count", "lines")

    def __init__(self) -> None:
        self.count = 0
        self.lines: list[int] = []

    def add(self, line: int) -> None:
        self.count += 1
        if len(self.lines) < LINES_LISTED and line not in self.lines:
            self.lines.append(line)

    def where(self) -> str:
        shown = ", ".join(str(line) for line in self.lines)
        return f"line{'s' if len(self.lines) > 1 else ''} {shown}" + (
            ", …" if self.count > len(self.lines) else ""
        )


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


class XmlError(FormatError):
    """A file that breaks a rule of its XML format: ``FILE:LINE: problem``, or
    ``FILE:LINE: WHERE: problem`` where ``where`` names the place in the format's own
    terms (``sentence 3 (…), token 7``)."""

    def __init__(self, file: str, line: int, problem: str, where: str = "") -> None:
        super().__init__([Problem(file, line, f"{where}: {problem}" if where else problem)])
        self.file = file
        self.line = line
        self.problem = problem
        self.where = where


class BoundError(SourceError):
    """A file past one of its :class:`Bounds`, or a gzip file that is not complete: one
    :class:`~scoring.errors.Problem` naming the file, the line where reading stopped (or
    none, for its size) and the bound (a :class:`~scoring.errors.SourceError`, as the
    importer's other refusals; every reader, upload or command, raises this one error)."""


class TextError(FormatError):
    """A file that is not UTF-8 text. The message names the file (and line) and the rule."""

    def __init__(self, message: str) -> None:
        super().__init__([message])


class ScorerDied(Exception):
    """score.pl would die here (``Illegal division by zero``) after printing ``stdout``."""

    def __init__(self, stdout: str, reason: str) -> None:
        super().__init__(reason)
        self.stdout = stdout
        self.reason = reason


def refuse_unknown(
    options: Mapping[str, object], allowed: Collection[str], function_name: str
) -> None:
    """Raise :class:`TypeError` naming each keyword of ``options`` that is not in ``allowed``
    (the keys of the function's ``TypedDict``), with the nearest allowed one when there is
    one: Python refuses a misspelt keyword only where the function declares its keywords,
    and one taking ``**options: Unpack[...]`` would otherwise ignore it in silence.

    >>> refuse_unknown({"seeed": 1}, ("seed", "confidence"), "agreement_report")
    Traceback (most recent call last):
    TypeError: agreement_report() got an unexpected keyword argument 'seeed' (did you mean 'seed'?)
    """
    unknown = [name for name in options if name not in allowed]
    if not unknown:
        return
    from difflib import get_close_matches  # only on the error: a call does without it

    shown = []
    for name in unknown:
        near = get_close_matches(name, list(allowed), n=1)
        shown.append(f"{name!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    plural = "s" if len(unknown) > 1 else ""
    raise TypeError(
        f"{function_name}() got an unexpected keyword argument{plural} {', '.join(shown)}"
    )
