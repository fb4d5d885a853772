"""What a judgement round holds, built without the web: pure
functions from plain data to a :class:`RoundSpec` (items in order, each with its
sentence and its candidates in the order judges see them).

* :func:`posthoc_round`: the post hoc study of McCarthy & Navigli (2009), section 4.4. From a gold
  (:class:`GoldItem`: the compiled gold of a dataset, or a gold file) and the answers of
  one or more systems for the best task, items are sampled by the paper's rule: "items
  which had more than two single word substitutes, no name responses, and where the
  target word was not one of those identified as a multiword by two or more
  annotators" (:func:`eligible`; a single word has no space; the substitutes counted are
  the gold's types). Each item's candidates are the union of the humans' and the
  systems' substitutes, as types after the compiler's normalisation
  (:func:`scoring.substitute.normalise`; a hyphen and a space count as the same, as the
  scorer reads them, :func:`scoring.terms.fold`), each with its origin (``"human"`` and
  the system names), shown "in random order" with the origin hidden. One seeded random
  generator draws the sample (``random.Random(seed).sample``), then shuffles each item's
  candidates, so a seed always gives the same round.
* :func:`parse_rows`: a round from a plain file of rows for any study (lexical
  reference, for one): tab-separated, a header line naming the columns ``sentence``,
  ``target``, ``candidate`` and optionally ``item`` and ``origin`` (names separated by
  commas). The target may be marked in the sentence as ``<head>word</head>`` (once);
  rows of the same item (its ``item`` column, or the same sentence and target) are one
  item, numbered from 1 in order of appearance, candidates in file order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import FormatError, Problems
from scoring.formats.gold import read_gold_as_written
from scoring.formats.judgements import HUMAN
from scoring.substitute import normalise
from scoring.terms import fold

HEAD = ("<head>", "</head>")
COLUMNS = ("sentence", "target", "candidate")
OPTIONAL = ("item", "origin")
MAX_TEXT = 255
"""The longest candidate, target or item id a round keeps."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence with its target: the text before it, the target as written, after it.
    A sentence without a marked target has it all in ``before``."""

    before: str
    target: str
    after: str


@dataclass(frozen=True, slots=True)
class RoundCandidate:
    text: str
    origin: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundItem:
    id: str
    sentence: Sentence
    candidates: tuple[RoundCandidate, ...]
    word: str = ""
    """The target word (a lexelt such as ``bright.a`` in a post hoc round)."""


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """A round's content; for a post hoc round also how it was sampled."""

    items: tuple[RoundItem, ...]
    seed: int | None = None
    eligible: int | None = None
    systems: tuple[str, ...] = ()

    @property
    def candidates(self) -> int:
        return sum(len(item.candidates) for item in self.items)


@dataclass(frozen=True, slots=True)
class GoldItem:
    """What the sampling rule needs of one gold item."""

    id: str
    lexelt: str
    substitutes: tuple[str, ...]
    """The gold's substitute types, in gold order."""
    names: int
    """Annotators who answered ``name``."""
    multiword_marks: int
    """Annotators who marked the target as part of a multiword."""


def eligible(item: GoldItem) -> bool:
    """The paper's rule: more than two single-word substitutes, no name answer, and the
    target marked as part of a multiword by fewer than two annotators."""
    single = {normalise(s) for s in item.substitutes if normalise(s) and " " not in normalise(s)}
    return len(single) > 2 and item.names == 0 and item.multiword_marks < 2


def gold_items_from_file(
    lines: Sequence[str], name: str, mwgold: Sequence[str] = (), mw_name: str = "<mwgold>"
) -> tuple[GoldItem, ...]:
    """Gold items from a gold file's lines (``pn N`` counts the name answers) and,
    optionally, its mwgold file's lines (the counts of an item's multiwords are the
    annotators who marked it; without an mwgold file nobody did)."""
    marks: dict[str, int] = {}
    for line in read_gold_as_written(mwgold, mw_name):
        marks[line.instance] = marks.get(line.instance, 0) + sum(count for _, count in line.entries)
    return tuple(
        GoldItem(
            line.instance,
            line.lexelt,
            tuple(s for s, _ in line.entries),
            line.names,
            marks.get(line.instance, 0),
        )
        for line in read_gold_as_written(lines, name)
    )


def _union(
    item: GoldItem, systems: Mapping[str, Mapping[str, Sequence[str]]], gold_name: str
) -> list[RoundCandidate]:
    types: dict[str, tuple[str, list[str]]] = {}
    sources = [(gold_name, item.substitutes)] + [
        (system, answers.get(item.id, ())) for system, answers in systems.items()
    ]
    for origin, given in sources:
        for raw in given:
            text = normalise(raw)
            if not text:
                continue
            _, origins = types.setdefault(fold(text), (text, []))
            if origin not in origins:
                origins.append(origin)
    return [RoundCandidate(text, tuple(origins)) for text, origins in types.values()]


def posthoc_round(
    gold: Sequence[GoldItem],
    systems: Mapping[str, Mapping[str, Sequence[str]]],
    sentences: Mapping[str, Sentence],
    size: int,
    seed: int,
    gold_name: str = HUMAN,
) -> RoundSpec:
    """Sample ``size`` eligible items with ``seed`` and build their candidates (module
    docstring). ``systems`` maps a system's name to its answers (item id → guesses,
    first = best); ``sentences`` maps an item id to its sentence; the gold's substitutes
    have the origin ``gold_name``. ValueError when fewer than ``size`` items qualify or a
    sampled item has no sentence."""
    if not systems:
        raise ValueError(
            "no system file (a post hoc round mixes the humans' and systems' substitutes)"
        )
    if size < 1:
        raise ValueError(f"sample size {size}; at least 1")
    pool = [item for item in gold if eligible(item)]
    if size > len(pool):
        raise ValueError(
            f"sample size {size} but only {len(pool)} of {len(gold)} items qualify (more than "
            "two single-word substitutes, no name answer, not a multiword for two annotators)"
        )
    rng = random.Random(seed)
    chosen = sorted(rng.sample(range(len(pool)), size))
    missing = [pool[i].id for i in chosen if pool[i].id not in sentences]
    if missing:
        raise ValueError(
            f"no sentence for item {', '.join(missing[:5])} (the dataset holds the sentences "
            "of the gold's items)"
        )
    items = []
    for index in chosen:
        item = pool[index]
        candidates = _union(item, systems, gold_name)
        rng.shuffle(candidates)
        items.append(RoundItem(item.id, sentences[item.id], tuple(candidates), item.lexelt))
    return RoundSpec(tuple(items), seed, len(pool), tuple(systems))


def split_sentence(text: str, where: str) -> Sentence:
    """A sentence with at most one ``<head>…</head>``: the parts around the target."""
    start, end = HEAD
    if text.count(start) != text.count(end) or text.count(start) > 1:
        raise FormatError(
            [f"{where}: the sentence marks the target with {start}…{end} at most once"]
        )
    if start not in text:
        return Sentence(text, "", "")
    before, rest = text.split(start, 1)
    target, after = rest.split(end, 1)
    if not target.strip() or end in before:
        raise FormatError([f"{where}: {start}{target}{end} marks no target"])
    return Sentence(before, target, after)


def parse_rows(lines: Iterable[str], name: str = "<rows>") -> RoundSpec:
    """A round from a rows file (module docstring); every problem as ``FILE:LINE``."""
    rows = iter(enumerate(lines, 1))
    header = next(rows, None)
    if header is None:
        raise FormatError([f"{name}: the file is empty (a header line, then one row a line)"])
    columns = header[1].rstrip("\r").split("\t")
    missing = [c for c in COLUMNS if c not in columns]
    unknown = [c for c in columns if c not in COLUMNS + OPTIONAL]
    if missing or unknown or len(set(columns)) != len(columns):
        raise FormatError(
            [
                f"{name}:1: header {columns} must name {', '.join(COLUMNS)} and optionally "
                f"{', '.join(OPTIONAL)}, each once, separated by tabs"
            ]
        )
    problems = Problems()  # the first 20 kept, the rest counted
    items: dict[str, tuple[Sentence, str, dict[str, RoundCandidate]]] = {}
    numbers: dict[tuple[str, str], str] = {}
    for number, text in rows:
        text = text.rstrip("\r")
        if not text.strip():
            continue
        where = f"{name}:{number}"
        fields = text.split("\t")
        if len(fields) != len(columns):
            problems.add(f"{where}: {len(fields)} fields, the header names {len(columns)}")
            continue
        row = dict(zip(columns, (f.strip() for f in fields), strict=True))
        try:
            sentence = split_sentence(row["sentence"], where)
        except FormatError as error:
            problems.extend(error)
            continue
        bad = [c for c in ("sentence", "target", "candidate") if not row[c]]
        long = [c for c in ("target", "candidate", "item") if len(row.get(c, "")) > MAX_TEXT]
        if bad or long:
            problems.add(
                f"{where}: {', '.join(bad + long)} empty or longer than {MAX_TEXT} characters"
            )
            continue
        item_id = row.get("item") or numbers.setdefault(
            (row["sentence"], row["target"]), str(len(numbers) + 1)
        )
        origin = tuple(o.strip() for o in row.get("origin", "").split(",") if o.strip())
        found = items.setdefault(item_id, (sentence, row["target"], {}))
        if found[0] != sentence:
            problems.add(f"{where}: item {item_id} has another sentence on an earlier line")
            continue
        if row["candidate"] in found[2]:
            problems.add(f"{where}: candidate {row['candidate']!r} again in item {item_id}")
            continue
        found[2][row["candidate"]] = RoundCandidate(row["candidate"], origin)
    if not items and not problems:
        problems.add(f"{name}: no rows after the header")
    problems.raise_any()
    return RoundSpec(
        tuple(
            RoundItem(item_id, sentence, tuple(found.values()), target)
            for item_id, (sentence, target, found) in items.items()
        )
    )
