"""One item's answers aggregated into counts, mode, membership of T and MW.

Definitions (McCarthy & Navigli 2007, section 4; McCarthy & Navigli 2009, sections 2.2.2 and 2.4):
h_i is annotator h's SET of substitutes for item i after normalisation and lemmatisation (empty for
name and nil), H_i the multiset union of the h_i, freq_res the number of annotators whose set holds
res. The mode m_i is the substitute strictly more frequent than every other, if there is
one. T holds the items with at least two non-nil, non-name answers: by default from at
least two annotators (``t_rule="annotators"``), or, the other reading, two responses in
H_i (``t_rule="responses"``, what score.pl applies to a gold file). MW holds the items
in T whose most frequent multiword (strictly more frequent than any other) was given by
more than one annotator.

Fixed order of a gold line: count descending, then the substitute's code points
ascending (Python's ``str`` order); ``pn N`` last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from scoring.terms import mode, strict_top
from scoring.types import Answer

TRule = Literal["annotators", "responses"]
T_RULES: tuple[TRule, ...] = ("annotators", "responses")

NO_SUBSTITUTE = "no substitute (only name or nil answers)"
ONE_ANNOTATOR = "substitutes from one annotator only"
ONE_RESPONSE = "one response only"
MW_TIE = "most frequent multiwords tied"
MW_SINGLE = "most frequent multiword given by one annotator"


@dataclass(frozen=True, slots=True)
class CompiledItem:
    """What the gold says of one item."""

    lexelt: str
    instance: str
    counts: tuple[tuple[str, int], ...]
    """freq_res of every substitute, in gold line order."""
    names: int
    """Annotators who answered ``name`` (the ``pn N`` entry)."""
    in_t: bool
    reason: str | None
    """Why the item is not in T (None when it is)."""
    mode: str | None
    multiword: tuple[str, int] | None
    """The most frequent multiword and its count, when the item is in MW."""
    multiword_note: str | None
    """Why an item in T with multiwords is not in MW."""
    answers: tuple[Answer, ...]
    """The annotators' answers, sorted by annotator."""

    @property
    def pos(self) -> str:
        return self.lexelt.rsplit(".", 1)[-1]

    @property
    def listed(self) -> bool:
        """Whether the gold file lists the item: a substitute or a name answer."""
        return bool(self.counts) or self.names > 0


def gold_order(entry: tuple[str, int]) -> tuple[int, str]:
    """Sort key of a gold entry: count descending, then the substitute ascending."""
    return -entry[1], entry[0]


def count_substitutes(answers: Iterable[Answer]) -> tuple[tuple[str, int], ...]:
    """freq_res for every res in H_i, in gold order (each annotator counts once per res)."""
    counts = Counter(substitute for answer in answers for substitute in set(answer.substitutes))
    return tuple(sorted(counts.items(), key=gold_order))


def t_reason(
    answers: Iterable[Answer], counts: tuple[tuple[str, int], ...], rule: TRule
) -> str | None:
    """Why the item is not in T under ``rule``, or None when it is in T."""
    if not counts:
        return NO_SUBSTITUTE
    if rule == "responses":
        return None if sum(count for _, count in counts) >= 2 else ONE_RESPONSE
    givers = sum(1 for answer in answers if answer.substitutes)
    return None if givers >= 2 else ONE_ANNOTATOR


def top_multiword(answers: Iterable[Answer]) -> tuple[tuple[str, int] | None, str | None]:
    """The most frequent multiword if it qualifies the item for MW, else why not (None,
    None when nobody gave a multiword)."""
    counts = Counter(answer.multiword for answer in answers if answer.multiword)
    if not counts:
        return None, None
    top = strict_top(sorted(counts.items(), key=gold_order))
    if top is None:
        return None, MW_TIE
    if top[1] < 2:
        return None, MW_SINGLE
    return top, None


def aggregate_item(
    lexelt: str, instance: str, answers: Iterable[Answer], rule: TRule = "annotators"
) -> CompiledItem:
    """One item aggregated: counts, ``pn``, T (and why not), mode, MW."""
    ordered = tuple(sorted(answers, key=lambda answer: answer.annotator))
    counts = count_substitutes(ordered)
    names = sum(1 for answer in ordered if answer.kind == "name")
    reason = t_reason(ordered, counts, rule)
    in_t = reason is None
    multiword, note = top_multiword(ordered) if in_t else (None, None)
    return CompiledItem(
        lexelt,
        instance,
        counts,
        names,
        in_t,
        reason,
        mode(counts) if in_t else None,
        multiword,
        note,
        ordered,
    )
