"""The official SemEval-2007 measures: best, oot and mw (``../shared/seeds/002``, section 3).

Two sets of rules, chosen by ``rules``:

``"compat"``
    exactly what the official ``score.pl`` does, every defect included (the list is in
    ``docs/scoring.md``), so that numbers are comparable with everything published;
``"fixed"``
    the same measures with those defects corrected: answers trimmed, an empty answer
    abstains, one-character and numeric gold entries kept, hyphenated modes matchable,
    ``non-`` left alone, CR/LF tolerated, oot duplicates credited once.

Each item becomes a row of sufficient statistics (:class:`ItemScore`) and the corpus
scores are functions of their sums, as in sacrebleu, so that resampling works for every
measure. Definitions (seed 002, section 3): for item i with gold multiset H_i and guesses
a_i, best credit is Σ_{s∈a_i} freq(s) / |H_i| / |a_i|; oot credit is the same without
dividing by |a_i|, on at most 10 guesses; precision divides the summed credit by the
items attempted, recall by |T|; the mode measures count items whose (first, for best)
guess is the item's single most frequent substitute.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from scoring.io import FormatError
from scoring.perl import perl_str, perl_truthy

Rules = Literal["compat", "fixed"]
Measure = Literal["best", "oot"]

# score.pl's patterns, verbatim in meaning (Perl byte semantics = Python re.ASCII).
_GOLD_LINE = re.compile(r"([\w.]+) (\S+) :: (.*)", re.ASCII)
_BEST_LINE = re.compile(r"([\w.]+) (\S+) :: (.*)", re.ASCII)
_OOT_LINE = re.compile(r"([\w.]+) (\S+) ::: (.*)", re.ASCII)
_MW_LINE = re.compile(r"([\w.]+)\s+(\d+)\s*::\s*(.*)\s*$", re.ASCII)
_MW_GOLD_LINE = re.compile(r"([\w.]+)\s+(\d+)\s*:: (.*)", re.ASCII)
_FIRST_COUNT = re.compile(r"[\w'\-\s]+ (\d+)", re.ASCII)
_ENTRY = re.compile(r"(\w[\w'\-\s]+) (\d+)", re.ASCII)
_NON = re.compile(r"non(\s|-)(.*)$", re.ASCII)
_NONSPACE = re.compile(r"\S", re.ASCII)


def perl_split(text: str, separator: str = ";") -> list[str]:
    """Perl's ``split(';', $s)``: inner empty fields kept, trailing ones dropped."""
    fields = text.split(separator)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


# ---------------------------------------------------------------------------------------
# Gold


@dataclass(frozen=True, slots=True)
class ItemGold:
    """What scoring needs of one gold item.

    ``norms`` maps each answer form that earns credit to count / total; a hyphenated
    gold key is also reachable with spaces (seed 002, section 2.2: "if the humans have
    used a hyphen ... we will accept a space instead").
    """

    lexelt: str
    counts: tuple[tuple[str, int], ...]
    total: int
    norms: dict[str, float]


def _item_gold(lexelt: str, entries: Iterable[tuple[str, int]]) -> ItemGold:
    counts: dict[str, int] = {}
    for key, count in entries:
        counts[key] = count
    total = sum(counts.values())
    norms: dict[str, float] = {}
    if total:
        for key, count in counts.items():
            norms[key] = count / total
        # score.pl's result for a hyphen copy colliding with a real key depends on Perl's
        # hash order; here the key as the annotators wrote it always wins.
        for key, count in counts.items():
            if "-" in key:
                norms.setdefault(key.replace("-", " "), count / total)
    return ItemGold(lexelt, tuple(counts.items()), total, norms)


@dataclass(frozen=True)
class Gold:
    """A gold file read under one set of rules.

    ``items`` holds the items in T (the official T: at least two responses), with their
    gold lexelt; ``modes`` the items that have a single most frequent substitute.
    ``total_items`` and ``total_modes`` are score.pl's denominators (in compat mode a
    repeated id counts once per line, as it does there).
    """

    rules: Rules
    items: dict[str, ItemGold]
    modes: dict[str, str]
    total_items: int
    total_modes: int


@dataclass(frozen=True, slots=True)
class _Rest:
    in_t: bool
    entries: tuple[tuple[str, int], ...]
    mode: str | None
    mode_delta: int
    mode_deleted: bool


def _parse_rest_compat(rest: str) -> _Rest:
    """score.pl's ``readgoldfile`` on the part after ``::`` of one line."""
    fields = [field for field in perl_split(rest) if "pn" not in field]
    first_count = 0
    if fields:
        found = _FIRST_COUNT.search(fields[0])
        if found:
            first_count = int(found.group(1))
    if not (len(fields) > 1 or first_count > 1):
        return _Rest(False, (), None, 0, False)
    entries: list[tuple[str, int]] = []
    mode: str | None = None
    mode_count = 0
    delta = 0
    deleted = False
    for field in fields:
        found = _ENTRY.search(field)
        if not found:
            continue  # one-character and numeric entries are dropped here (a defect)
        key = found.group(1).replace("'", "", 1)
        count = int(found.group(2))
        if not perl_truthy(mode):
            mode, mode_count = key, count
            delta += 1
        elif not deleted and count == mode_count:
            deleted = True  # the first entry is not the most frequent: no mode
            delta -= 1
        entries.append((key, count))
    return _Rest(True, tuple(entries), mode, delta, deleted)


def normalise_fixed(text: str) -> str:
    """The fixed rules' form of a gold key: trimmed, single-spaced, one apostrophe removed."""
    return " ".join(text.replace("'", "", 1).split())


def _parse_rest_fixed(rest: str, where: str) -> _Rest:
    """The part after ``::`` read correctly: every entry kept, counts summed, true mode."""
    counts: dict[str, int] = {}
    for field in rest.rstrip("\r").split(";"):
        entry = " ".join(field.split())
        if not entry:
            continue
        key, space, count = entry.rpartition(" ")
        if not space or not count.isdigit():
            raise FormatError([f"{where}: entry {field!r} must be 'SUBSTITUTE COUNT'"])
        if key == "pn":
            continue  # the task's marker for "part of a proper name"
        key = normalise_fixed(key)
        counts[key] = counts.get(key, 0) + int(count)
    if sum(counts.values()) < 2:
        return _Rest(False, (), None, 0, False)
    top = max(counts.values())
    leaders = [key for key, count in counts.items() if count == top]
    mode = leaders[0] if len(leaders) == 1 else None
    return _Rest(True, tuple(counts.items()), mode, int(mode is not None), False)


def read_gold_lines(lines: Sequence[str], rules: Rules = "compat",
                    name: str = "<gold>") -> Gold:
    """Build a :class:`Gold` from the lines of a gold file (see :func:`scoring.io.read_lines`).

    Lines that do not look like gold lines are ignored, as score.pl ignores them.
    """
    items: dict[str, ItemGold] = {}
    modes: dict[str, str] = {}
    total_items = 0
    total_modes = 0
    rests: dict[str, _Rest] = {}
    shared: dict[tuple[str, str], ItemGold] = {}
    fixed = rules == "fixed"
    for number, line in enumerate(lines, 1):
        found = _GOLD_LINE.search(line)
        if not found:
            continue
        lexelt, item_id, rest = found.groups()
        parsed = rests.get(rest)
        if parsed is None:
            parsed = (_parse_rest_fixed(rest, f"{name}:{number}") if fixed
                      else _parse_rest_compat(rest))
            rests[rest] = parsed
        if not parsed.in_t:
            continue
        total_items += 1
        previous = items.get(item_id)
        if previous is None:
            item = shared.get((lexelt, rest))
            if item is None:
                item = shared[(lexelt, rest)] = _item_gold(lexelt, parsed.entries)
        else:  # a repeated id: score.pl merges its substitutes into the first line's
            item = _item_gold(lexelt, previous.counts + parsed.entries)
        items[item_id] = item
        total_modes += parsed.mode_delta
        if parsed.mode is not None:
            modes[item_id] = parsed.mode
        if parsed.mode_deleted:
            modes.pop(item_id, None)
    return Gold(rules, items, modes, total_items, total_modes)


# ---------------------------------------------------------------------------------------
# System answers


def guesses_compat(answer: str) -> tuple[str, ...]:
    """score.pl's ``split`` + ``fixmisc``: ``non-x`` → ``nonx``, hyphens → spaces,
    one apostrophe removed; no trimming, no lower-casing, inner empty guesses kept."""
    result = []
    for guess in perl_split(answer):
        non = _NON.match(guess)
        if non:
            guess = "non" + non.group(2)
        result.append(guess.replace("-", " ").replace("'", "", 1))
    return tuple(result)


def guesses_fixed(answer: str) -> tuple[str, ...]:
    """The fixed rules: each guess trimmed and single-spaced, hyphens → spaces, one
    apostrophe removed, empty guesses dropped; ``non-`` is left alone."""
    result = []
    for guess in answer.split(";"):
        cleaned = " ".join(guess.replace("-", " ").replace("'", "", 1).split())
        if cleaned:
            result.append(cleaned)
    return tuple(result)


@dataclass(frozen=True, slots=True)
class ItemScore:
    """Sufficient statistics of one scored system line.

    ``credit`` is score.pl's ``$idcorr`` (summed norms of the guesses), ``score`` what the
    item adds to the numerator of precision and recall (credit / guesses for best).
    ``stale`` marks a compat line whose empty answer was scored with the previous line's
    guesses.
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


@dataclass(frozen=True)
class OfficialScores:
    """The corpus result of best or oot, with every printed line of score.pl's run."""

    measure: Measure
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

    @property
    def precision(self) -> float | None:
        return self.score_sum / self.attempted if self.attempted else None

    @property
    def recall(self) -> float | None:
        return self.score_sum / self.total_items if self.total_items else None

    @property
    def mode_precision(self) -> float | None:
        return self.mode_correct / self.mode_attempted if self.mode_attempted else None

    @property
    def mode_recall(self) -> float | None:
        return self.mode_correct / self.total_modes if self.total_modes else None


def score_system(measure: Measure, gold: Gold, lines: Sequence[str], name: str,
                 verbose: bool = False) -> OfficialScores:
    """Score the lines of a best or oot system file against ``gold`` under ``gold.rules``.

    ``name`` is echoed in ``Error in NAME on line N`` as score.pl echoes its argument.
    """
    fixed = gold.rules == "fixed"
    oot = measure == "oot"
    pattern = _OOT_LINE if oot else _BEST_LINE
    split = guesses_fixed if fixed else guesses_compat
    cache: dict[str, tuple[str, ...]] = {}
    items = gold.items
    modes = gold.modes
    log: list[str] = []
    rows: list[ItemScore] = []
    done: set[str] = set()
    guesses: tuple[str, ...] = ()
    count = 0  # score.pl's $numguesses, stale like @res
    attempted = mode_attempted = mode_correct = duplicate_lines = 0
    total = 0.0
    for number, line in enumerate(lines, 1):
        found = pattern.search(line)
        if found is None:
            if _NONSPACE.search(line):
                log.append(f"Error in {name} on line {number}")
            continue
        lexelt, item_id, answer = found.groups()
        item = items.get(item_id)
        if item is None or not item.total or item_id in done:
            continue
        done.add(item_id)
        stale = False
        duplicates = 0
        if _NONSPACE.search(answer):
            guesses = cache.get(answer) or cache.setdefault(answer, split(answer))
            count = len(guesses)
            if count:
                attempted += 1
            if oot:
                duplicates = len(guesses) - len(set(guesses))
                if duplicates:
                    duplicate_lines += 1
                    if verbose:
                        log.append(f"WARNING duplicate at {lexelt} {item_id} responses "
                                   + " ".join(guesses))
        elif fixed:
            guesses, count = (), 0
        else:
            stale = count > 0
        if oot and len(guesses) > 10:
            guesses = guesses[:10]
            count = 10
            if verbose:
                log.append(f"{lexelt} Item {item_id} exceeded 10 guesses")
        scored = tuple(dict.fromkeys(guesses)) if fixed and oot else guesses
        mode = modes.get(item_id)
        mode_tried = mode_right = False
        if perl_truthy(mode) and count:
            assert mode is not None
            mode_tried = True
            mode_attempted += 1
            key = mode.replace("-", " ") if fixed else mode
            mode_right = key in guesses if oot else key == guesses[0]
            if mode_right:
                mode_correct += 1
            if verbose:
                if oot:
                    log.append(f"{lexelt} Item {item_id} mode '{mode}'  "
                               + ("found in guesses" if mode_right else "not found"))
                else:
                    log.append(f"{lexelt} Item {item_id} mode '{mode}' : system '{guesses[0]}' "
                               + (" correct" if mode_right else "wrong"))
        norms = item.norms
        credit = 0.0
        for guess in scored:
            credit += norms.get(guess, 0.0)
        score = credit if oot or not credit else credit / count
        total += score
        if verbose and count:
            shown = perl_str(credit)
            if oot:
                log.append(f"{lexelt} Item {item_id} credit {shown} human responses "
                           f"{item.total}: score is {shown}")
            else:
                log.append(f"{lexelt} Item {item_id} credit {shown} guesses {count} human "
                           f"responses {item.total}: score is {shown}")
        rows.append(ItemScore(number, item_id, item.lexelt, count, credit, score,
                              bool(count) and not stale, mode_tried, mode_right, stale,
                              duplicates))
    if duplicate_lines:
        log.append(f"WARNING OOT file contains duplicates on {duplicate_lines} lines")
    return OfficialScores(measure, gold.rules, gold.total_items, attempted, total,
                          gold.total_modes, mode_attempted, mode_correct, duplicate_lines,
                          tuple(rows), tuple(log))


# ---------------------------------------------------------------------------------------
# Multiwords


@dataclass(frozen=True)
class MultiwordScores:
    """Detection and identification of multiwords (seed 002, section 3, "mw").

    ``found``: system lines with an answer (precision's denominator); ``genuine``: of the
    items with a gold multiword, how many the system attempted; ``matched``: how many it
    named exactly; ``total_modes``: items with a gold multiword (recall's denominator).
    """

    rules: Rules
    total_modes: int
    found: int
    genuine: int
    matched: int
    log: tuple[str, ...]

    @property
    def detection_precision(self) -> float | None:
        return self.genuine / self.found if self.found else None

    @property
    def detection_recall(self) -> float | None:
        return self.genuine / self.total_modes if self.total_modes else None

    @property
    def identification_precision(self) -> float | None:
        return self.matched / self.found if self.found else None

    @property
    def identification_recall(self) -> float | None:
        return self.matched / self.total_modes if self.total_modes else None


def read_mwgold_lines(lines: Sequence[str], gold_name: str,
                      log: list[str]) -> tuple[dict[str, str], int]:
    """score.pl's ``readmwfile``: the multiword "mode" of each item given by two or more
    annotators, and how many there are. Malformed lines are reported into ``log``."""
    modes: dict[str, str] = {}
    total_modes = 0
    for number, line in enumerate(lines, 1):
        found = _MW_GOLD_LINE.search(line)
        if found is None:
            if _NONSPACE.search(line):
                log.append(f"Error in {gold_name} on line {number}")
            continue
        _lexelt, item_id, rest = found.groups()
        fields = perl_split(rest)
        first = _FIRST_COUNT.search(fields[0]) if fields else None
        if not (first and int(first.group(1)) > 1):
            continue
        mode: str | None = None
        mode_count = 0
        deleted = False
        for field in fields:
            entry = _ENTRY.search(field)
            if not entry:
                continue
            multiword = entry.group(1).replace("'", "", 1)
            count = int(entry.group(2))
            if not perl_truthy(mode) and count > 1:
                mode, mode_count = multiword, count
                modes[item_id] = mode
                total_modes += 1
            elif not deleted and perl_truthy(mode) and count == mode_count:
                modes.pop(item_id, None)
                total_modes -= 1
                deleted = True
    return modes, total_modes


def score_multiwords(gold_lines: Sequence[str], lines: Sequence[str], name: str,
                     gold_name: str, rules: Rules = "compat",
                     verbose: bool = False) -> MultiwordScores:
    """Score a mw system file. Compat counts a line with an empty answer as a detection
    attempt of a gold multiword (a defect that inflates recall); fixed does not, and
    compares answers trimmed and single-spaced, hyphens as spaces."""
    fixed = rules == "fixed"
    log: list[str] = []
    if fixed:
        gold_lines = [line.rstrip("\r") for line in gold_lines]
    modes, total_modes = read_mwgold_lines(gold_lines, gold_name, log)
    done: set[str] = set()
    found_count = genuine = matched = 0
    for number, line in enumerate(lines, 1):
        found = _MW_LINE.search(line)
        if found is None:
            if _NONSPACE.search(line):
                log.append(f"Error in {name} on line {number}")
            continue
        lexelt, item_id, answer = found.groups()
        if item_id in done:
            continue
        done.add(item_id)
        has_answer = bool(_NONSPACE.search(answer))
        if has_answer:
            found_count += 1
        mode = modes.get(item_id)
        if perl_truthy(mode) and (has_answer or not fixed):
            assert mode is not None
            genuine += 1
            if fixed:
                right = (" ".join(answer.replace("-", " ").split())
                         == " ".join(mode.replace("-", " ").split()))
            else:
                right = mode == answer
            matched += right
            if verbose:
                log.append(f"{lexelt} {item_id} human mode is {mode} system {answer}")
        elif verbose:
            log.append(f"{lexelt} {item_id} No MW found by annotators, system {answer}")
    return MultiwordScores(rules, total_modes, found_count, genuine, matched, tuple(log))
