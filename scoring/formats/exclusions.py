"""Annotators left out of a compile, each with a reason, their answers kept.

An organiser leaves an annotator out of the gold, the agreement and the scores (a
spammer, a participant who misread the task, one whose agreement with the others is far
below theirs) without deleting anything: the compiler skips that annotator's responses,
``summary.json`` lists them under ``excluded`` with the reason and how many responses were
left out, and the signature ends in ``|excluded:N`` (nothing is added when nobody is
excluded, so such outputs keep their bytes).

On the command lines an exclusion is written ``ANNOTATOR`` or ``ANNOTATOR=REASON``
(:func:`parse_exclusion`, :func:`exclusion_argument`); the reason defaults to
:data:`DEFAULT_REASON`. The compiler (``annotate.gold``) skips the responses of the
annotators left out; the agreement report on an ``annotators.jsonl`` leaves them out of
its items with :func:`leave_out` (``lexsub agreement --exclude``). Both take
the rule from here.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.formats.annotators import Item

DEFAULT_REASON = "left out by the organiser"
MAX_REASON = 255
"""The longest reason (characters), as stored with a dataset's exclusions."""


@dataclass(frozen=True, slots=True)
class Exclusion:
    """One annotator left out of a compile, and why."""

    annotator: str
    reason: str = DEFAULT_REASON


def parse_exclusion(text: str) -> Exclusion:
    """``ANNOTATOR`` or ``ANNOTATOR=REASON`` (split at the first ``=``; spaces around
    either part are dropped). :class:`ValueError` naming the value and the rule when the
    annotator is empty or the reason too long.

    >>> parse_exclusion("bob=answers in French")
    Exclusion(annotator='bob', reason='answers in French')
    >>> parse_exclusion("bob").reason
    'left out by the organiser'
    """
    annotator, _, reason = text.partition("=")
    annotator, reason = annotator.strip(), reason.strip()
    if not annotator:
        raise ValueError(f"{text!r} names no annotator (write ANNOTATOR or ANNOTATOR=REASON)")
    if len(reason) > MAX_REASON:
        raise ValueError(
            f"the reason for leaving out {annotator!r} has {len(reason)} characters "
            f"(at most {MAX_REASON})"
        )
    return Exclusion(annotator, reason or DEFAULT_REASON)


def exclusion_argument(value: str) -> Exclusion:
    """:func:`parse_exclusion` as an argparse ``type``: a usage error stating the rule."""
    try:
        return parse_exclusion(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def merge(*groups: Iterable[Exclusion]) -> tuple[Exclusion, ...]:
    """The exclusions of every group, one per annotator (the first group that names an
    annotator gives the reason), sorted by annotator."""
    found: dict[str, Exclusion] = {}
    for group in groups:
        for exclusion in group:
            found.setdefault(exclusion.annotator, exclusion)
    return tuple(found[name] for name in sorted(found))


@dataclass(frozen=True, slots=True)
class Excluded:
    """An annotator a compile left out: who, why, and how many responses were skipped."""

    annotator: str
    reason: str
    responses: int

    def to_json(self) -> dict[str, object]:
        return {"annotator": self.annotator, "reason": self.reason, "responses": self.responses}


def leave_out(
    items: Sequence[Item], exclusions: Iterable[Exclusion], source: str = "the items"
) -> tuple[list[Item], tuple[Excluded, ...]]:
    """The items without the responses of the annotators of ``exclusions`` (:func:`merge`d:
    one per annotator, sorted; an item left with no response is dropped, as the compiler
    writes no line for it), and each annotator left out with the responses skipped.
    :class:`ValueError` naming ``source`` and the annotators when one has no response in
    the items (a typo would otherwise leave everyone in, silently)."""
    chosen = merge(exclusions)
    responses = {exclusion.annotator: 0 for exclusion in chosen}
    for item in items:
        for response in item.responses:
            if response.annotator in responses:
                responses[response.annotator] += 1
    absent = [name for name, count in responses.items() if not count]
    if absent:
        raise ValueError(
            f"{source}: no responses of {', '.join(map(repr, absent))} "
            "(--exclude names an annotator of the file)"
        )
    kept = [
        Item(item.lexelt, item.instance, remaining)
        for item in items
        if (remaining := tuple(r for r in item.responses if r.annotator not in responses))
    ]
    return kept, tuple(
        Excluded(exclusion.annotator, exclusion.reason, responses[exclusion.annotator])
        for exclusion in chosen
    )
