"""The stored leaderboard of a dataset: system files uploaded by
organisers are kept with the dataset, scored against its compiled gold when uploaded,
re-scored on request against the gold as compiled then, ranked and deleted.

Every figure comes from the scoring library as the command lines compute it:
:func:`scoring.leaderboard.leaderboard` (``lexsub compare``) for the measures,
:func:`scoring.score.library.score` (``lexsub score``) for score.pl's output and its
diagnosis, on the texts themselves: nothing is written to a file. This module only
reads and writes the database and calls them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold import CompiledGold
from annotate.gold.write import gold_lines
from annotate.models import Dataset, SystemRun, now
from annotate.services.rules import ServiceError, safe_source, shown
from scoring.errors import FormatError, ScorerDied
from scoring.files.bounded import SYSTEM_FILE, check_text, decode_text
from scoring.formats.gold import Gold, parse_gold_line, read_gold_as_written, read_readings
from scoring.formats.instances import Instance as SourceInstance
from scoring.formats.ranked import parse_ranking, rankings_of
from scoring.formats.swords import ALL_LABELS, parse_swords
from scoring.leaderboard import (
    Leaderboard,
    Settings,
    SwordsData,
    is_swords_result,
    leaderboard,
    swords_as_ranked,
)
from scoring.leaderboard.rows import detect_kind, first_answers
from scoring.registry import MEASURES
from scoring.score.library import died_here, score
from scoring.types import Rules

KINDS: tuple[str, ...] = ("best", "oot", "ranked", "swords")
DEFAULT_MEASURE: dict[str, str] = {
    "best": "best.R",
    "oot": "oot.R",
    "ranked": "gap",
    "swords": "swords.strict_a_f@10",
}
"""The measure each kind of file is ranked by unless the organiser chooses another."""
LOW_COVERAGE = 0.9
"""Below this share of the items in T answered, a system is marked with a warning."""
RULES = ("compat", "fixed")
NAMED_KINDS = {
    ".best": "best",
    ".oot": "oot",
    ".ranked": "ranked",
    ".rank": "ranked",
    ".ranking": "ranked",
}
SWORDS_PREFIX = "swords."
"""A SWORDS result's own figures are stored as ``swords.METRIC`` (fractions) beside its
ranking measures."""


@dataclass(frozen=True)
class ScoringGold:
    """The gold systems are scored against: the compiled gold's ``gold`` file read under
    ``rules`` (``gold``, the official measures) and under the fixed rules (``reading``, the
    revised and ranking measures), its compiler signature and the SHA-256 of its bytes."""

    lines: tuple[str, ...]
    gold: Gold
    reading: Gold
    rules: str
    signature: str
    sha256: str


def scoring_gold(compiled: CompiledGold, rules: str, name: str) -> ScoringGold:
    if rules not in RULES:
        raise ServiceError(f"rules {shown(rules)} are not compat or fixed")
    lines = tuple(gold_lines(compiled))
    text = "".join(line + "\n" for line in lines)
    gold, reading = read_readings(list(lines), rules, "fixed", name)  # type: ignore[arg-type]
    return ScoringGold(
        lines,
        gold,
        reading,
        rules,
        compiled.signature.text,
        hashlib.sha256(text.encode("utf-8")).hexdigest(),
    )


@dataclass(frozen=True)
class Scoring:
    """One system file scored: its kind, every measure that applies (fractions), how many
    items of T it answers, its warnings, and score.pl's output and diagnosis."""

    kind: str
    scores: dict[str, float | None]
    answered: int
    gold_items: int
    warnings: tuple[str, ...]
    scorer_output: str
    diagnosis: tuple[str, ...]

    @property
    def coverage(self) -> float | None:
        return self.answered / self.gold_items if self.gold_items else None


def answered_items(text: str, kind: str, name: str, gold: Gold) -> int:
    """How many items of the gold (T) the file gives a non-empty answer for (a SWORDS
    result is counted as the ranked file it is scored as)."""
    return len(answered_ids(text, kind, name) & gold.items.keys())


def answered_ids(text: str, kind: str, name: str) -> set[str]:
    """The item ids the file gives a non-empty answer for, in the gold or not."""
    if kind == "ranked":
        found = rankings_of(parse_ranking(text.splitlines(), name))
        ids = {item_id for item_id, candidates in found.items() if candidates}
    elif kind == "best" or kind == "oot":
        ids = {
            item_id
            for item_id, guesses in first_answers(text, "best" if kind == "best" else "oot").items()
            if any(guess for guess in guesses)
        }
    else:  # mw files are not stored as systems
        ids = set()
    return ids


def looks_like_gold(text: str) -> bool:
    """Whether every line of ``text`` reads as a gold (or mwgold) line, ``lexelt id ::
    substitute count;…``: a gold file uploaded as a system."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return False
    try:
        parsed = [parse_gold_line(line) for line in lines]
    except FormatError:
        return False
    return any(line.entries for line in parsed)


def kind_warnings(file_name: str, text: str, kind: str) -> list[str]:
    """What is surprising about the file's kind: a gold file, or a name that says another
    kind than its lines."""
    found = []
    if looks_like_gold(text):
        found.append(
            "every line reads as a gold line ('substitute count;'): this looks like "
            "a gold or mwgold file, not a system's answers"
        )
    suffix = PurePath(file_name).suffix.lower()
    if suffix == ".mw":
        found.append(
            "the file name says mw: multiword answers are scored by python -m "
            f"scoring.score.cli -t mw, not here; its lines were read as a {kind} file"
        )
    elif suffix in NAMED_KINDS and NAMED_KINDS[suffix] != kind:
        found.append(f"the file name says {NAMED_KINDS[suffix]} but its lines are a {kind} file")
    return found


def diagnosis(text: str, kind: str, gold: ScoringGold) -> tuple[str, tuple[str, ...]]:
    """score.pl's output and the diagnosis of ``lexsub score SYSTEM GOLD -t
    KIND [--fixed]`` (what the command prints to standard output and standard error):
    :func:`scoring.score.library.score` on the texts. Ranked files and SWORDS results are not read
    by score.pl: nothing. Where score.pl dies (dividing by zero), what it printed before
    and why, as the command's last line."""
    if kind not in ("best", "oot"):
        return "", ()
    gold_text = "".join(line + "\n" for line in gold.lines)
    rules: Rules = "fixed" if gold.rules == "fixed" else "compat"
    try:
        result = score(text, gold_text, "oot" if kind == "oot" else "best", rules)
        output = result.render()  # score.pl dies printing a figure it cannot divide
    except ScorerDied as died:  # what score.pl printed before it died, and why
        return died.stdout, (f"Error: {died_here(died, 'system', 'gold')}",)
    lines = (line for note in result.notes for line in note.splitlines())
    return output, tuple(line for line in lines if line.strip())


def swords_data(dataset: Dataset, gold: ScoringGold) -> SwordsData:
    """The dataset's gold as a SWORDS dataset (:func:`scoring.benchmark.convert.
    gold_to_swords`: one TRUE label per annotator who gave a substitute), its sentences
    from the database: what a SWORDS result uploaded to the scores page answers."""
    from scoring.benchmark.convert import gold_to_swords

    instances = [
        SourceInstance(row.xml_id, lexelt.item, row.before, row.head, row.after, 0)
        for lexelt in dataset.lexelts
        for row in lexelt.instances
    ]
    name = f"{dataset.name} gold"
    data = gold_to_swords(read_gold_as_written(gold.lines, name), instances, "none", name)
    return SwordsData(parse_swords(data, name, ALL_LABELS), name)


SwordsSource = Callable[[], SwordsData]
"""Builds the SWORDS dataset when a SWORDS result needs it (only then)."""


def _swords_of(dataset: Dataset, gold: ScoringGold) -> SwordsSource:
    return lambda: swords_data(dataset, gold)


def score_text(
    file_name: str, text: str, gold: ScoringGold, swords: SwordsSource | None = None
) -> Scoring:
    """Score one system file's text (a SWORDS result against ``swords()``, with SWORDS'
    own figures as ``swords.METRIC``). ValueError (naming the file) when it cannot be."""
    if not gold.gold.items:
        raise ValueError("the dataset's gold has no item in T yet: nothing to score against")
    figures: dict[str, float] = {}
    if is_swords_result(text):
        if swords is None:
            raise ValueError(f"{file_name}: a SWORDS result, and no SWORDS dataset to score it")
        kind = "swords"
        text, figures = swords_as_ranked(file_name, text, swords())  # scored as ranked
    else:
        kind = detect_kind(text, file_name)
    try:
        board = leaderboard(gold.gold, [(file_name, text)], Settings(), gold.reading)
    except ScorerDied as died:
        raise ValueError(f"{file_name}: {died.reason}") from died
    scores = dict(board.to_json()["systems"][file_name])
    scores.update((SWORDS_PREFIX + key, value / 100) for key, value in figures.items())
    ids = answered_ids(text, "ranked" if kind == "swords" else kind, file_name)
    answered = len(ids & gold.gold.items.keys())
    items = len(gold.gold.items)
    warnings = kind_warnings(file_name, text, kind)
    if answered < LOW_COVERAGE * items:
        warnings.append(
            f"answers {answered} of the {items} items in T "
            f"({100 * answered / items:.1f}%); the unanswered items count as "
            "wrong in every recall"
        )
    if answered == 0:  # score.pl's figures are undefined: nothing attempted
        raise NoAnswer(answers_nothing(file_name, frozenset(ids), gold))
    try:
        output, notes = diagnosis(text, kind, gold)
    except ScorerDied as died:
        raise ValueError(f"{file_name}: {died.reason}") from died
    return Scoring(kind, scores, answered, items, tuple(warnings), output, notes)


def _some(ids: Iterable[str], limit: int = 3) -> str:
    """Up to ``limit`` of ``ids`` in their order, and '…' when there are more."""
    listed = list(ids)
    return ", ".join(shown(i, 40) for i in listed[:limit]) + (", …" if len(listed) > limit else "")


class NoAnswer(ValueError):
    """A system file that answers none of the gold's items in T (its message says which
    ids it answers beside the gold's)."""


def answers_nothing(name: str, ids: frozenset[str], gold: ScoringGold) -> str:
    """Why a file that answers none of the gold's items in T cannot be scored: the ids it
    answers (or that it answers none) beside the gold's."""
    items = len(gold.gold.items)
    theirs = (
        f"its {len(ids)} answered id{'' if len(ids) == 1 else 's'} "
        f"({_some(sorted(ids, key=lambda i: (len(i), i)))}) "
        f"{'is' if len(ids) == 1 else 'are'} not in the gold"
        if ids
        else "it gives no answer"
    )
    return (
        f"{name} answers none of the {items} item{'' if items == 1 else 's'} in T of the "
        f"gold: {theirs} (the gold's ids: {_some(gold.gold.items)})"
    )


class DuplicateSystem(ServiceError):
    """An upload whose bytes equal those of a system the dataset already keeps."""


def _apply(row: SystemRun, scoring: Scoring, gold: ScoringGold) -> None:
    row.kind = scoring.kind
    row.scores = scoring.scores
    row.answered = scoring.answered
    row.gold_items = scoring.gold_items
    row.warnings = list(scoring.warnings)
    row.diagnosis = list(scoring.diagnosis)
    row.scorer_output = scoring.scorer_output
    row.gold_signature = gold.signature
    row.gold_sha256 = gold.sha256
    row.scored_at = now()


def store_system(
    dataset: Dataset,
    file_name: str,
    data: bytes,
    rules: str,
    who: str,
    compiled: CompiledGold,
    provenance: str | None = None,
) -> SystemRun:
    """Score an uploaded file against the dataset's gold and keep it with the dataset,
    with the text of its provenance file when one was uploaded with it (kept as given:
    :meth:`SystemRun.made` reads it). ServiceError when it is not UTF-8 text, holds a NUL
    or cannot be scored (nothing is stored then)."""
    name = safe_source(file_name) or "system"
    try:
        text = decode_text(data, name)
        check_text(text, name, SYSTEM_FILE)  # the upload was read within it; a caller's bytes too
    except FormatError as error:
        raise ServiceError(str(error)) from None
    if "\x00" in text:
        raise ServiceError(f"{name} holds a NUL character: not a system file")
    digest = hashlib.sha256(data).hexdigest()
    same = same_bytes(dataset, digest)
    if same is not None:
        raise DuplicateSystem(
            f"{name} has the same bytes as {same.file_name}, stored on "
            f"{same.uploaded_at:%Y-%m-%d %H:%M} ({same.rules} rules): nothing stored"
        )
    gold = scoring_gold(compiled, rules, f"{dataset.name} gold")
    try:
        scoring = score_text(name, text, gold, _swords_of(dataset, gold))
    except NoAnswer as error:
        raise ServiceError(f"{error}: nothing stored") from error
    except ValueError as error:
        raise ServiceError(str(error)) from error
    row = SystemRun(
        dataset_id=dataset.id,
        file_name=name,
        content=text,
        sha256=digest,
        rules=rules,
        uploaded_by=who,
        uploaded_at=now(),
        provenance=provenance,
    )
    _apply(row, scoring, gold)
    db.session.add(row)
    db.session.commit()
    return row


def same_bytes(dataset: Dataset, digest: str) -> SystemRun | None:
    """The dataset's stored system whose uploaded bytes have SHA-256 ``digest`` (the
    first stored), or None."""
    return db.session.scalars(
        select(SystemRun)
        .where(SystemRun.dataset_id == dataset.id, SystemRun.sha256 == digest)
        .order_by(SystemRun.id)
        .limit(1)
    ).first()


def stored_systems(dataset: Dataset) -> list[SystemRun]:
    """The dataset's systems, oldest upload first."""
    return list(
        db.session.scalars(
            select(SystemRun)
            .where(SystemRun.dataset_id == dataset.id)
            .order_by(SystemRun.uploaded_at, SystemRun.id)
        )
    )


def rescore(dataset: Dataset, compiled: CompiledGold) -> tuple[int, list[str]]:
    """Score every stored system again against ``compiled`` (each under its own rules):
    how many were scored, and the problems of those that no longer score (they keep
    their previous figures)."""
    golds = {rules: scoring_gold(compiled, rules, f"{dataset.name} gold") for rules in RULES}
    done, problems = 0, []
    for row in stored_systems(dataset):
        gold = golds.get(row.rules, golds["compat"])
        try:
            check_text(row.content, row.file_name, SYSTEM_FILE)  # one stored before the bounds
            scoring = score_text(row.file_name, row.content, gold, _swords_of(dataset, gold))
        except ValueError as error:
            problems.append(f"{row.file_name}: {error}")
            continue
        _apply(row, scoring, gold)
        done += 1
    db.session.commit()
    return done, problems


def find_system(dataset: Dataset, system_id: int) -> SystemRun:
    """The dataset's stored system ``system_id``; ServiceError when it has none."""
    row = db.session.get(SystemRun, system_id)
    if row is None or row.dataset_id != dataset.id:
        raise ServiceError(f"no system {system_id} in dataset {dataset.name!r}")
    return row


def delete_system(dataset: Dataset, system_id: int) -> SystemRun:
    """Delete the dataset's stored system ``system_id`` (ServiceError when it has none)."""
    row = find_system(dataset, system_id)
    db.session.delete(row)
    db.session.commit()
    return row


def measures_of(kind: str) -> list[str]:
    """The registered measures that apply to files of ``kind`` (a SWORDS result: the
    ranking measures, then SWORDS' own figures)."""
    found = [name for name, measure in MEASURES.items() if kind in measure.kinds]
    return measures_of("ranked") + found if kind == "swords" else found


@dataclass(frozen=True)
class Ranked:
    """A system's place in its kind's table (ties share a place)."""

    place: int
    system: SystemRun
    value: float | None


def rank(systems: Sequence[SystemRun], measure: str) -> list[Ranked]:
    """``systems`` by ``measure``, highest first; a missing (None) figure last; ties share
    a place (1, 1, 3) and are listed by file name, then upload order."""
    ordered = sorted(
        systems,
        key=lambda row: (
            row.scores.get(measure) is None,
            -(row.scores.get(measure) or 0.0),
            row.file_name,
            row.id,
        ),
    )
    ranked: list[Ranked] = []
    for index, row in enumerate(ordered):
        value = row.scores.get(measure)
        same = ranked and ranked[-1].value == value
        ranked.append(Ranked(ranked[-1].place if same else index + 1, row, value))
    return ranked


def leaderboards(
    systems: Sequence[SystemRun], chosen: Mapping[str, str]
) -> list[tuple[str, str, list[Ranked]]]:
    """(kind, measure, ranked systems) for each kind with a stored system; ``chosen``
    maps a kind to its measure (an unknown one falls back to :data:`DEFAULT_MEASURE`)."""
    tables: list[tuple[str, str, list[Ranked]]] = []
    for kind in KINDS:
        of_kind = [row for row in systems if row.kind == kind]
        if of_kind:
            measure = chosen.get(kind, "")
            if measure not in measures_of(kind):
                measure = DEFAULT_MEASURE[kind]
            tables.append((kind, measure, rank(of_kind, measure)))
    return tables


def labels(systems: Sequence[SystemRun]) -> dict[int, str]:
    """Each system's name in a chart or a comparison: its file name, with ``#id`` when
    two share one."""
    names = [row.file_name for row in systems]
    return {
        row.id: row.file_name if names.count(row.file_name) == 1 else f"{row.file_name} #{row.id}"
        for row in systems
    }


def significance(
    dataset: Dataset, compiled: CompiledGold, rules: str, seed: int
) -> Leaderboard | None:
    """Intervals and paired significance (bootstrap and approximate randomisation over
    lemmas) of the stored systems scored under ``rules``, against the gold as compiled
    now: :func:`scoring.leaderboard.leaderboard`'s result, or None with no system."""
    chosen = [row for row in stored_systems(dataset) if row.rules == rules]
    if not chosen:
        return None
    gold = scoring_gold(compiled, rules, f"{dataset.name} gold")
    if not gold.gold.items:
        return None
    names = labels(chosen)
    swords = (
        swords_data(dataset, gold) if any(is_swords_result(row.content) for row in chosen) else None
    )
    return leaderboard(
        gold.gold,
        [(names[row.id], row.content) for row in chosen],
        Settings(significance=True, seed=seed),
        gold.reading,
        swords,
    )
