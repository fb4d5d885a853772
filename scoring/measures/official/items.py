"""The official SemEval-2007 measures best and oot (McCarthy & Navigli 2007,
section 4, equations 1-8), under score.pl's rules (compat) or corrected (fixed).

For item i with gold frequencies freq_res over H_i and guesses a_i:

- best credit (eq. 1, 2) is Σ_{res∈a_i} freq_res / |H_i| / |a_i|; oot credit (eq. 5, 6) is
  the same without dividing by |a_i|, on at most 10 guesses;
- precision divides the summed credit by |A| (items attempted), recall by |T|;
- mode precision and recall (eq. 3, 4, 7, 8) count items whose first guess (best) or any
  guess (oot) is the mode m_i, over |AM| and |TM|.

Each scored line becomes a row of sufficient statistics (:class:`ItemScore`) and the
corpus figures are functions of their sums, as in sacrebleu, so that resampling works for
every measure: the scan sums them in the file's order (:attr:`OfficialScores.sums`) and
the registered measures (:mod:`scoring.measures.official.family`: ``best.P``, …, ``oot.mode_R``)
divide them. :func:`scoring.score.scan.score_system` scans a file; :func:`score_lines`, here,
is its line-by-line reference. The differences between compat and fixed are listed in
docs/scoring.md.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from scoring.errors import ScorerDied
from scoring.formats.gold import Gold, ItemGold
from scoring.formats.lines import NONSPACE, iter_chunks
from scoring.formats.perl import perl_str
from scoring.formats.text import as_text
from scoring.terms import compat_guess, normalise
from scoring.types import Rules, Task

if TYPE_CHECKING:
    from fractions import Fraction

OOT_GUESSES = 10
"""oot scores at most ten guesses (McCarthy & Navigli 2009, section 2.4.2; McCarthy & Navigli
2007, section 4)."""


def guesses_compat(answer: str) -> list[str]:
    """score.pl's ``split`` + ``fixmisc``: ``non-x`` → ``nonx``, hyphens → spaces,
    one apostrophe removed; no trimming, no lower-casing, inner empty guesses kept."""
    fields = answer.split(";")
    while fields and not fields[-1]:  # perl_split, inlined: this runs once a line
        fields.pop()
    if "-" not in answer and "'" not in answer and "non" not in answer:
        return fields
    return [compat_guess(guess) for guess in fields]


def _plain(answer: str) -> bool:
    """An answer with nothing to trim, fold or drop: printable ASCII, no hyphen or
    apostrophe, single spaces between words, no empty guess."""
    return (
        answer.isascii()
        and answer.isprintable()
        and "-" not in answer
        and "'" not in answer
        and "  " not in answer
        and " ;" not in answer
        and "; " not in answer
        and ";;" not in answer
        and answer[:1] not in " ;"
        and answer[-1:] != " "
    )


def guesses_fixed(answer: str, forms: dict[str, str] | None = None) -> list[str]:
    """The fixed rules: each guess normalised (:func:`scoring.terms.normalise`: NFC, case
    folded, hyphens as spaces, apostrophes removed, trimmed and single-spaced), empty
    guesses dropped; ``non-`` is left alone. ``forms``, when given, keeps each guess's
    normal form for the next answers (a scan normalises each guess once)."""
    if _plain(answer) and answer.islower():
        fields = answer.split(";")  # the usual answer: nothing to trim, fold or drop
        if not fields[-1]:
            fields.pop()
        return fields
    result = []
    for guess in answer.split(";"):
        known = forms.get(guess) if forms is not None else None
        if known is None:
            known = normalise(guess)
            if forms is not None:
                forms[guess] = known
        if known:
            result.append(known)
    return result


class ItemScore(NamedTuple):
    """Sufficient statistics of one scored system line.

    ``credit`` is score.pl's ``$idcorr`` (the summed norms of the guesses); ``score`` what
    the item adds to the numerator of precision and recall (credit / guesses for best).
    ``stale`` marks a compat line whose empty answer was scored with the previous line's
    guesses; ``duplicates`` counts repeated guesses (oot); ``answers`` are the guesses
    scored (split by the rules, cut to 10 for oot, the previous line's when stale): what
    the official family (:mod:`scoring.measures.official.family`) reads.
    """

    line: int
    id: str
    lexelt: str
    guesses: int
    credit: float
    score: float
    attempted: bool
    mode_attempted: bool
    mode_correct: bool
    stale: bool
    duplicates: int
    answers: tuple[str, ...] = ()


_TRACE_COLUMNS = (
    "lines",
    "scores",
    "outcomes",
    "readings",
    "stale",
    "ids",
    "unscored",
    "dirty",
    "repeated",
    "repeated_lines",
)
"""The columns of a :class:`Trace`, in order."""


class Trace:
    """Every scored line's outcome, compactly (what the diagnosis diffs between two scans):
    ``lines[j]`` is the j-th scored line's number, ``scores[j]`` what it adds to the
    numerator, ``outcomes[j]`` the bits attempted | mode attempted << 1 | mode correct << 2
    | repeats a guess << 3 | guesses scored << 4; ``readings[j]`` is a hash of the guesses
    read (the same for an answer both rule sets read alike);
    ``stale[j]`` is 1 for a line scored with the previous line's guesses (compat);
    ``ids[j]`` is its item id. ``unscored`` lists the lines with an id that the scan
    skipped because the gold has no item in T for it, as (line, id).

    ``dirty``, when the compat scan was given the ids whose gold readings differ (the
    diagnosis, :func:`scoring.score.diagnose.dirty_lines`), lists the lines the fixed rules may
    score or read otherwise, found as they were scanned (:data:`DirtyLine`); only
    ``scores`` is then kept for every scored line (the other columns are left empty: the
    dirty lines carry theirs, and only theirs are ever compared), and it holds what each
    line adds under the fixed rules where the scan knows it: a clean line's score, which
    both rule sets give, and a repeating line's fixed score (below); a dirty line's compat
    score, which the fixed scan of the dirty lines replaces. None when they were not
    looked for.

    The lines such a scan needs not list for repeating a guess alone (oot: an answer both
    rule sets read alike, of an id whose two gold readings are the same item, so that only
    the fixed rules' credit differs, each distinct guess once) are scored for both rule sets
    at once and kept as counts: ``repeated`` such lines, the first :data:`LINES_LISTED` of
    them in ``repeated_lines``; their compat scores are in the scan's totals only."""

    __slots__ = _TRACE_COLUMNS

    def __init__(
        self,
        lines: array[int] | None = None,
        scores: array[float] | None = None,
        outcomes: array[int] | None = None,
        readings: array[int] | None = None,
        stale: bytearray | None = None,
        ids: list[str] | None = None,
        unscored: list[tuple[int, str]] | None = None,
        dirty: list[DirtyLine] | None = None,
        repeated: int = 0,
        repeated_lines: list[int] | None = None,
    ) -> None:
        # a plain class, each column new when not given (no dataclass to build at start-up)
        self.lines: array[int] = array("q") if lines is None else lines
        self.scores: array[float] = array("d") if scores is None else scores
        self.outcomes: array[int] = array("q") if outcomes is None else outcomes
        self.readings: array[int] = array("q") if readings is None else readings
        self.stale: bytearray = bytearray() if stale is None else stale
        self.ids: list[str] = [] if ids is None else ids
        self.unscored: list[tuple[int, str]] = [] if unscored is None else unscored
        self.dirty = dirty
        self.repeated = repeated
        self.repeated_lines: list[int] = [] if repeated_lines is None else repeated_lines

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _TRACE_COLUMNS)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Trace:
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # its columns grow

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _TRACE_COLUMNS)
        return f"Trace({shown})"

    def with_repeats(self, repeated: int, repeated_lines: list[int] | None = None) -> Trace:
        """The same columns, with :attr:`repeated` (and :attr:`repeated_lines`) given."""
        return Trace(
            self.lines,
            self.scores,
            self.outcomes,
            self.readings,
            self.stale,
            self.ids,
            self.unscored,
            self.dirty,
            repeated,
            self.repeated_lines if repeated_lines is None else repeated_lines,
        )


DirtyLine = tuple[int, tuple[str, str, str, str], int, int, int, float, int, int, ItemGold | None]
"""A line of :attr:`Trace.dirty`: (line, row, j, reading, outcome, score, source, kind,
item): the row as :func:`scoring.formats.lines.iter_chunks` matched it, j the line's index in
:attr:`Trace.scores` (or where it would be), then its compat outcome as :class:`Trace`
keeps it: the hash of the guesses read, the outcome bits (-1: the scan did not score the
line), the score, the line its guesses came from when it was scored with an earlier
line's (score.pl's stale ``@res``; else 0); its answer's kind
(:func:`scoring.formats.lines.answer_kinds`); the item it was scored against when the two gold
readings of its id are the same (else None: the fixed reading's item is looked up)."""


class OfficialScores(NamedTuple):
    """The corpus result of best or oot, with every line score.pl prints before its totals.

    ``items`` is empty when the scan was asked not to keep them (``keep_items=False``);
    ``trace`` is None unless it was asked for (``trace=True``). A record (a NamedTuple:
    no dataclass to build at the scorer's start-up).
    """

    measure: Task
    rules: Rules
    total_items: int
    attempted: int
    score_sum: float
    total_modes: int
    mode_attempted: int
    mode_correct: int
    duplicate_lines: int
    items: tuple[ItemScore, ...]
    log: tuple[str, ...]
    trace: Trace | None = None

    @property
    def sums(self) -> dict[str, float]:
        """The official family's columns (:class:`scoring.measures.official.family.Column`)
        summed as score.pl sums them (their figures: :func:`scoring.registry.figure`): the
        score added line by line in the file's order, |T| and |TM| as the gold counts
        them."""
        return {
            "item": self.total_items,
            "score": self.score_sum,
            "attempted": self.attempted,
            "mode_attempted": self.mode_attempted,
            "mode_correct": self.mode_correct,
            "has_mode": self.total_modes,
        }


Outcome = tuple[float, float, bool, bool]
"""What one item's guesses earn: (credit, score, mode attempted, mode correct)."""

N = TypeVar("N", float, "Fraction")
"""A credit: a float as score.pl adds it, or a Fraction (the exact route)."""


def official_outcome(
    oot: bool,
    norms: Mapping[str, N],
    mode: str | None,
    guesses: Sequence[str],
    distinct: bool,
    zero: N,
) -> tuple[N, N, bool, bool]:
    """What one item's guesses earn, best or (``oot``) oot (McCarthy & Navigli 2007,
    section 4): (credit, score, mode attempted, mode correct). The one implementation of
    the official credit: the line-by-line reference calls it with floats (the bulk scan,
    :mod:`scoring.score.scan`, writes its steps into its loop and is tested against it),
    the official family's exact route with Fractions (``zero``: where the sum starts).

    - credit (eq. 1, 5): Σ_{res ∈ a_i} freq_res / |H_i|, the norm of each guess (``norms``:
      count / |H_i| of each answer form that earns credit,
      :func:`scoring.formats.gold.gold_norms`) added guess by guess in order, as score.pl
      adds them (never ``sum``, whose floats may round otherwise); score.pl's ``$idcorr``.
      ``distinct`` (fixed oot) credits each distinct guess once, as score.pl does not;
    - score: best divides the credit by the guesses, |a_i| (eq. 1-2); oot does not (eq.
      5-6; its guesses already cut to :data:`OOT_GUESSES`);
    - mode (eq. 3-4, 7-8): an item with a mode (Perl's truth: not empty, not ``0``) and
      guesses is attempted; best is correct when its first guess is the mode, oot when
      any guess is (a fixed mode is normalised as the guesses are).

    >>> official_outcome(False, {"a": 3 / 4, "b": 1 / 4}, "a", ["a", "b"], False, 0.0)
    (1.0, 0.5, True, True)
    """
    credit = zero
    for guess in dict.fromkeys(guesses) if distinct else guesses:
        if guess in norms:
            credit += norms[guess]
    tried = right = False
    if guesses and mode and mode != "0":  # Perl's truth of the mode
        tried = True
        right = mode in guesses if oot else mode == guesses[0]
    return credit, (credit if oot or not credit else credit / len(guesses)), tried, right


def best_credit(norms: Mapping[str, N], guesses: Sequence[str], zero: N) -> tuple[N, N]:
    """A best answer's (credit, score) by :func:`official_outcome`: the score is the
    credit over the guesses (McCarthy & Navigli 2007, eq. 1-2).

    >>> best_credit({"a": 3 / 4, "b": 1 / 4}, ["a", "b"], 0.0)
    (1.0, 0.5)
    """
    credit, score, _tried, _right = official_outcome(False, norms, None, guesses, False, zero)
    return credit, score


def oot_credit(norms: Mapping[str, N], guesses: Sequence[str], distinct: bool, zero: N) -> N:
    """An oot answer's credit, which is its score, by :func:`official_outcome` (McCarthy &
    Navigli 2007, eq. 5-6); ``distinct``: each distinct guess once (the fixed rules).

    >>> oot_credit({"a": 3 / 4, "b": 1 / 4}, ["a", "a", "b"], False, 0.0)
    1.75
    >>> oot_credit({"a": 3 / 4, "b": 1 / 4}, ["a", "a", "b"], True, 0.0)
    1.0
    """
    return official_outcome(True, norms, None, guesses, distinct, zero)[0]


def score_item(measure: Task, rules: Rules, item: ItemGold, guesses: Sequence[str]) -> Outcome:
    """One item's best or oot outcome (:func:`official_outcome`) for guesses already split
    by the rules (and, for oot, cut to 10); fixed oot credits each distinct guess once."""
    oot = measure == "oot"
    return official_outcome(oot, item.norms, item.mode, guesses, oot and rules == "fixed", 0.0)


def score_lines(
    measure: Task,
    gold: Gold,
    system: str | Sequence[str],
    name: str,
    verbose: bool = False,
    keep_items: bool = True,
    trace: bool = False,
    numbers: Sequence[int] | None = None,
) -> OfficialScores:
    """:func:`scoring.score.scan.score_system` one line at a time, as score.pl reads them (the
    reference the chunked scan is tested against)."""
    rules = gold.rules
    traced = Trace() if trace else None
    fixed = rules == "fixed"
    oot = measure == "oot"
    split = guesses_fixed if fixed else guesses_compat
    items = gold.items
    log: list[str] = []
    rows: list[ItemScore] = []
    done: set[str] = set()
    guesses: list[str] = []  # score.pl's @res: kept from line to line (stale answers)
    attempted = mode_attempted = mode_correct = duplicate_lines = 0
    total = 0.0
    guesses_line = 0
    for first, found in iter_chunks(as_text(system), measure, unicode=fixed):
        numbered = (
            enumerate(found, first)
            if numbers is None
            else zip(numbers[first - 1 : first - 1 + len(found)], found, strict=True)
        )
        for number, (lexelt, item_id, answer, other) in numbered:
            if not lexelt:
                if other:
                    log.append(f"Error in {name} on line {number}")
                continue
            item = items.get(item_id)
            if item is not None and not item.total and item.counts:
                # every count is 0: score.pl's normalisevalues divides by zero right here
                raise ScorerDied(
                    "".join(line + "\n" for line in log),
                    f"item {item_id}'s gold counts add up to 0",
                )
            if item is None or not item.total or item_id in done:
                if traced is not None and item_id not in done:
                    traced.unscored.append((number, item_id))
                continue
            done.add(item_id)
            stale_from = 0
            duplicates = 0
            if answer and (not answer[0].isspace() or NONSPACE.search(answer)):
                guesses = split(answer)
                guesses_line = number
                if guesses:
                    attempted += 1
                if oot:
                    duplicates = len(guesses) - len(set(guesses))
                    if duplicates:
                        duplicate_lines += 1
                        if verbose:
                            log.append(
                                f"WARNING duplicate at {lexelt} {item_id} responses "
                                + " ".join(guesses)
                            )
            elif fixed:
                guesses = []
            elif guesses:
                stale_from = guesses_line
            if oot and len(guesses) > OOT_GUESSES:
                guesses = guesses[:OOT_GUESSES]
                if verbose:
                    log.append(f"{lexelt} Item {item_id} exceeded 10 guesses")
            outcome = score_item(measure, rules, item, guesses)
            credit, score, tried, right = outcome
            total += score
            if tried:
                mode_attempted += 1
                mode_correct += right
            if verbose and guesses:
                _log_item(log, oot, lexelt, item_id, item, guesses, outcome)
            if keep_items:
                rows.append(
                    ItemScore(
                        number,
                        item_id,
                        item.lexelt,
                        len(guesses),
                        credit,
                        score,
                        bool(guesses) and not stale_from,
                        tried,
                        right,
                        bool(stale_from),
                        duplicates,
                        tuple(guesses),
                    )
                )
            if traced is not None:
                traced.lines.append(number)
                traced.scores.append(score)
                traced.outcomes.append(
                    (bool(guesses) and not stale_from)
                    | tried << 1
                    | right << 2
                    | bool(duplicates) << 3
                    | len(guesses) << 4
                )
                traced.readings.append(hash(tuple(guesses)))
                traced.stale.append(bool(stale_from))
                traced.ids.append(item_id)
    return OfficialScores(
        measure,
        rules,
        gold.total_items,
        attempted,
        total,
        gold.total_modes,
        mode_attempted,
        mode_correct,
        duplicate_lines,
        tuple(rows),
        tuple(log),
        traced,
    )


def _log_item(
    log: list[str],
    oot: bool,
    lexelt: str,
    item_id: str,
    item: ItemGold,
    guesses: Sequence[str],
    outcome: Outcome,
) -> None:
    """score.pl's ``-v`` lines for one item, spaces and number format exactly."""
    credit, _score, tried, right = outcome
    if tried:
        if oot:
            log.append(
                f"{lexelt} Item {item_id} mode '{item.mode}'  "
                + ("found in guesses" if right else "not found")
            )
        else:
            log.append(
                f"{lexelt} Item {item_id} mode '{item.mode}' : system '{guesses[0]}' "
                + (" correct" if right else "wrong")
            )
    shown = perl_str(credit)
    per_guess = "" if oot else f" guesses {len(guesses)}"
    log.append(
        f"{lexelt} Item {item_id} credit {shown}{per_guess} human responses "
        f"{perl_str(item.total)}: score is {shown}"
    )
