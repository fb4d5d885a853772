"""The score.pl drop-in as a library: :func:`score` scores a system's text against a
gold's text and returns a :class:`ScoreResult`, whose :meth:`~ScoreResult.render` is
what ``lexsub score`` prints to standard output and whose ``notes`` are the diagnosis it
prints to standard error; :func:`score_files` does the same on two paths.

``lexsub score`` (:mod:`scoring.score.cli`) reads its files, calls :func:`score` and
prints; the organiser's scores page calls it on the texts it keeps. Neither function
reads or writes anything but its arguments: the cache of gold readings
(:mod:`scoring.score.cache`) is the command's alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NamedTuple, TypedDict, Unpack

from scoring.errors import FormatError, ScorerDied, refuse_unknown
from scoring.files.bounded import read_text
from scoring.formats.gold import Gold, read_gold, read_gold_pair
from scoring.formats.text import split_lines
from scoring.measures.official.items import OfficialScores
from scoring.score.diagnose import diagnose as diagnosis_of
from scoring.score.diagnose import fixed_scan, select_dirty
from scoring.score.report import by_pos as pos_scores
from scoring.score.report import (
    multiword_csv,
    multiword_json,
    multiword_text,
    official_csv,
    official_json,
    official_text,
    pos_tables,
)
from scoring.score.scan import score_system
from scoring.types import Rules

if TYPE_CHECKING:  # mw's scorer is loaded only for mw: best and oot start without it
    from scoring.measures.multiword.items import MultiwordScores

Task = Literal["best", "oot", "mw"]
Output = Literal["text", "json", "csv"]
GoldPair = Callable[[str, str], tuple[Gold, Gold, set[str]]]
"""Reads a gold's text (and its name) under both sets of rules: the compat and fixed
readings and the ids they may score differently (:func:`scoring.formats.gold.read_gold_pair`)."""

__all__ = ["ScoreOptions", "ScoreResult", "died_here", "score", "score_files"]


class ScoreResult(NamedTuple):
    """One system scored against one gold, as ``lexsub score`` scores it.

    ``scores`` are score.pl's figures: :class:`OfficialScores` for best and oot (precision,
    recall, mode precision and mode recall through :func:`scoring.registry.official_figure`),
    :class:`MultiwordScores` for mw. ``notes`` is the diagnosis (what gained or lost credit
    only because of a defect of score.pl; empty without it), the lines ``lexsub score``
    prints to standard error. ``gold`` is the reading the figures by PoS need (None for mw).
    """

    task: Task
    rules: Rules
    system: str
    scores: OfficialScores | MultiwordScores
    notes: tuple[str, ...]
    gold: Gold | None
    by_pos: bool = False

    def render(self, format: Output = "text") -> str:
        """What ``lexsub score`` prints to standard output with ``--format FORMAT`` (and
        ``--by-pos`` when the result was scored with ``by_pos``): in text, score.pl's bytes
        under compat. Where score.pl dies printing a figure it cannot divide (compat),
        :class:`~scoring.errors.ScorerDied` is raised here, its
        ``stdout`` what score.pl printed before (:func:`died_here` says where)."""
        scores, name = self.scores, self.system
        if not isinstance(scores, OfficialScores):  # mw
            if format == "json":
                return multiword_json(name, scores)
            if format == "csv":
                return multiword_csv(name, scores)
            return multiword_text(scores)
        with_pos = self.gold if self.by_pos else None
        if format == "json":
            return official_json(name, scores, with_pos)
        if format == "csv":
            return official_csv(name, scores, with_pos)
        text = official_text(scores)
        if with_pos is not None:
            table = [(os.path.basename(name), pos_scores(scores, with_pos))]
            text += "\n" + pos_tables(table, self.task)
        return text


class ScoreOptions(TypedDict, total=False):
    """The keywords :func:`score` and :func:`score_files` share: ``diagnose`` (default
    True) adds the diagnosis of score.pl's defects (a second scan under the other rules) to
    the result's ``notes`` (``--no-diagnosis`` leaves it out); ``verbose`` (default False)
    keeps score.pl's ``-v`` lines; ``by_pos`` (default False) keeps what the figures by PoS
    need (``--by-pos``)."""

    diagnose: bool
    verbose: bool
    by_pos: bool


def score(
    system: str,
    gold: str,
    task: Task = "best",
    rules: Rules = "compat",
    *,
    system_name: str = "system",
    gold_name: str = "gold",
    read_pair: GoldPair | None = None,
    **options: Unpack[ScoreOptions],
) -> ScoreResult:
    """Score the system file's text ``system`` against the gold file's text ``gold`` as
    ``lexsub score SYSTEM GOLD -t TASK [--fixed] [-v] [--by-pos]`` does.

    ``rules`` is ``compat`` (score.pl's reading, defects included) or ``fixed``
    (docs/scoring.md); ``diagnose`` adds the diagnosis of score.pl's defects (a second
    scan under the other rules) to ``notes``; ``verbose`` keeps score.pl's ``-v`` lines;
    ``by_pos`` keeps what the figures by PoS need. ``system_name`` and ``gold_name``
    stand for the files in the output and in error messages. ``read_pair`` reads the
    gold under both rules for the diagnosis (default
    :func:`scoring.formats.gold.read_gold_pair`; the command passes its cache's reader
    when asked to).

    The keywords and their defaults: :class:`ScoreOptions`.

    Raises :class:`scoring.errors.FormatError` for a file the rules cannot read,
    :class:`scoring.errors.ScorerDied` where score.pl dies (its
    ``stdout`` holds what score.pl printed first), and TypeError for an unknown keyword.
    """
    refuse_unknown(options, ScoreOptions.__annotations__, "score")
    diagnose = options.get("diagnose", True)
    verbose = options.get("verbose", False)
    by_pos = options.get("by_pos", False)
    if task not in ("best", "oot", "mw"):
        raise ValueError(f"task {task!r} is not one of best, oot, mw")
    if rules not in ("compat", "fixed"):
        raise ValueError(f"rules {rules!r} are not compat or fixed")
    if task == "mw":
        return _multiword(system, gold, rules, diagnose, verbose, system_name, gold_name)

    def result(scores: OfficialScores, reading: Gold, notes: list[str]) -> ScoreResult:
        return ScoreResult(task, rules, system_name, scores, tuple(notes), reading, by_pos)

    def plain(reading: Gold) -> OfficialScores:
        return score_system(task, reading, system, system_name, verbose, keep_items=by_pos)

    if not diagnose:
        reading = _compat_of(gold, gold_name, read_pair) if rules == "compat" else None
        if reading is None:
            reading = read_gold(gold, rules, gold_name)
        return result(plain(reading), reading, [])
    try:
        compat, fixed, differ = (read_pair or read_gold_pair)(gold, gold_name)
    except FormatError as error:
        if rules == "fixed":
            raise
        reading = read_gold(gold, "compat", gold_name)
        note = f"diagnosis: the fixed rules cannot read the gold: {error}"
        return result(plain(reading), reading, [note])
    in_compat = rules == "compat"
    # the diagnosis: two plain scans, one under each set of rules, and their difference
    compat_scores = score_system(
        task,
        compat,
        system,
        system_name,
        verbose and in_compat,
        keep_items=by_pos and in_compat,
        trace=True,
        differ=differ,  # the scan lists the dirty lines as it goes
    )
    dirty = select_dirty(task, system, compat_scores, differ)
    if in_compat:  # the fixed scan of the lines where the rules may differ, the rest as is
        fixed_scores = fixed_scan(task, dirty, compat_scores, fixed, system_name)
    else:
        fixed_scores = score_system(
            task, fixed, system, system_name, verbose, keep_items=by_pos, trace=True
        )
    notes = diagnosis_of(task, system, compat_scores, fixed_scores, compat, fixed, differ, dirty)
    if in_compat:
        return result(compat_scores, compat, notes)
    return result(fixed_scores, fixed, notes)


def _compat_of(gold: str, name: str, read_pair: GoldPair | None) -> Gold | None:
    """score.pl's reading of the gold through ``read_pair`` (the pair's compat reading is
    :func:`read_gold` under compat), or None: no reader given, or a gold the fixed rules
    cannot read (then it is read under compat alone)."""
    if read_pair is None:
        return None
    try:
        return read_pair(gold, name)[0]
    except FormatError:
        return None


def _multiword(
    system: str,
    gold: str,
    rules: Rules,
    diagnose: bool,
    verbose: bool,
    system_name: str,
    gold_name: str,
) -> ScoreResult:
    """mw (its scorer is loaded only here)."""
    from scoring.measures.multiword.items import diagnose_multiwords, score_multiwords

    system_lines, gold_lines = split_lines(system), split_lines(gold)
    scores = score_multiwords(gold_lines, system_lines, system_name, gold_name, rules, verbose)
    notes = diagnose_multiwords(gold_lines, system_lines, gold_name) if diagnose else []
    return ScoreResult("mw", rules, system_name, scores, tuple(notes), None)


def died_here(died: ScorerDied, system_name: str, gold_name: str) -> str:
    """Where and why score.pl dies on ``system_name`` against ``gold_name`` (the line
    ``lexsub score`` ends with, after ``Error:``)."""
    return (
        f"{system_name} against {gold_name}: {died.reason}; score.pl dies here "
        "with 'Illegal division by zero'"
    )


def score_files(
    system: str | os.PathLike[str],
    gold: str | os.PathLike[str],
    task: Task = "best",
    rules: Rules = "compat",
    **options: Unpack[ScoreOptions],
) -> ScoreResult:
    """:func:`score` on the files at the paths ``system`` and ``gold`` (read as
    :func:`scoring.files.bounded.read_text` reads them with ``perl=True``; each named by
    its path), with the same keywords (:class:`ScoreOptions`). A file that cannot be read
    raises :class:`OSError` (``lexsub score`` under compat reads it as empty, as score.pl
    does, and warns)."""
    refuse_unknown(options, ScoreOptions.__annotations__, "score_files")
    return score(
        read_text(system, perl=True),
        read_text(gold, perl=True),
        task,
        rules,
        system_name=os.fspath(system),
        gold_name=os.fspath(gold),
        **options,
    )
