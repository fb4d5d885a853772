"""Multiword agreement: detection and identification.

McCarthy & Navigli (2007), section 6: "For multiwords we calculate the pairwise
agreement of multiword identification over all items (many of these won't be multiwords
so agreement will be high due to this), and for the subset of multiword responses ... the
pairwise agreement of the actual multiword which is identified." Here the first is called
*detection* and the second *identification*, as in the mw measures (McCarthy & Navigli 2007, section
4.3, equations 9-12):

* detection: over every pair of annotators who both answered an item (any kind: the
  multiword tick is independent of the substitutes, ``name`` and ``nil`` answers
  included), the pair agrees when both marked a multiword or neither did
  (``Answer.multiword`` is or is not None);
* identification: over every pair who both marked a multiword for the item, the pair
  agrees when the two strings are equal (as written in ``annotators.jsonl``, where the
  compiler has already normalised them).

Each is given in the layout of PA (McCarthy & Navigli 2009, equation 1: the mean over the pairs of
an item, then the mean over the items with a pair) and pooled (agreeing pairs over all
pairs, the reading of McCarthy & Navigli 2007), with the counts. Because most items have no
multiword, detection agreement is high by chance; the chance-corrected figure is nominal alpha on
marked / not marked. Ties and orders do not arise: every figure is a sum of counts.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from scoring.agreement.alpha import alpha_from_counts, nominal_alpha

if TYPE_CHECKING:
    from scoring.formats.annotators import Item
    from scoring.types import Answer


@dataclass(frozen=True, slots=True)
class PairAgreement:
    """Agreement over pairs of responses, with what it is computed over."""

    per_item: float | None
    """Mean over the pairs of each item, then mean over the items (None without pairs)."""
    pooled: float | None
    """agreeing / pairs (None without pairs)."""
    items: int
    """Items with at least one pair."""
    pairs: int
    agreeing: int


@dataclass(frozen=True, slots=True)
class MultiwordAgreement:
    """Detection and identification agreement of a set of items."""

    detection: PairAgreement
    identification: PairAgreement
    detection_alpha: float | None
    """Nominal alpha on marked / not marked, units the items: 1 - observed / chance
    disagreement. None when undefined (no item with two responses, or every response
    marked alike)."""
    identification_alpha: float | None
    """Nominal alpha on the multiword strings of the responses that marked one. None when
    undefined (no item with two markings, or one string only)."""
    responses: int
    marked: int
    """Responses that marked a multiword."""


def _pair_agreement(per_item: list[tuple[int, int]]) -> PairAgreement:
    """From (agreeing, pairs) per item with at least one pair."""
    pairs = sum(p for _, p in per_item)
    agreeing = sum(a for a, _ in per_item)
    if not pairs:
        return PairAgreement(None, None, 0, 0, 0)
    mean = math.fsum(a / p for a, p in per_item) / len(per_item)
    return PairAgreement(mean, agreeing / pairs, len(per_item), pairs, agreeing)


def _agreeing(responses: tuple[Answer, ...]) -> tuple[int, int, int, int]:
    """(detection agreeing, detection pairs, identification agreeing, identification
    pairs) of one item's responses, by counting: n responses of which k marked, the
    marked strings with counts c_s."""
    n = len(responses)
    strings = Counter(r.multiword for r in responses if r.multiword is not None)
    k = sum(strings.values())
    detected = math.comb(k, 2) + math.comb(n - k, 2)
    identified = sum(math.comb(c, 2) for c in strings.values())
    return detected, math.comb(n, 2), identified, math.comb(k, 2)


def multiword_agreement(items: Iterable[Item]) -> MultiwordAgreement:
    """Detection and identification agreement (see the module docstring) over all
    items; an item with one response has no pair and counts nowhere."""
    detection: list[tuple[int, int]] = []
    identification: list[tuple[int, int]] = []
    marks: list[tuple[int, int]] = []
    strings: list[list[str]] = []
    responses = marked = 0
    for item in items:
        detected, pairs, identified, marked_pairs = _agreeing(item.responses)
        given = [r.multiword for r in item.responses if r.multiword is not None]
        responses += len(item.responses)
        marked += len(given)
        if pairs:
            detection.append((detected, pairs))
            marks.append((len(given), len(item.responses) - len(given)))
        if marked_pairs:
            identification.append((identified, marked_pairs))
            strings.append(given)
    return MultiwordAgreement(
        _pair_agreement(detection),
        _pair_agreement(identification),
        _defined(alpha_from_counts, marks),
        _defined(nominal_alpha, strings),
        responses,
        marked,
    )


def _defined(alpha: Callable[[Any], float], data: Sequence[Any]) -> float | None:
    """Alpha of the data, or None where it is undefined (no pairable unit, or one value
    only: expected disagreement 0)."""
    try:
        return alpha(data) if data else None
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class AnnotatorMultiword:
    """One annotator's multiword agreement with the others."""

    detection: float | None
    """Over the items they and at least one other answered: the share of the others who
    marked alike (both or neither), then the mean over those items (None if none)."""
    identification: float | None
    """Over the items where they and at least one other marked a multiword: the share of
    those others who wrote the same string, then the mean over those items."""
    detection_items: int
    identification_items: int
    marked: int
    """Items this annotator marked a multiword for."""
    answered: int
    """Items this annotator answered."""


def mean_or_none(values: Sequence[float]) -> float | None:
    """The mean of ``values`` (summed by ``math.fsum``), None when there are none: an
    annotator's figure here and in :func:`scoring.agreement.annotator_agreement`, PA_m.

    >>> mean_or_none([0.5, 1.0]), mean_or_none([])
    (0.75, None)
    """
    return math.fsum(values) / len(values) if values else None


def annotator_multiword(items: Iterable[Item]) -> dict[str, AnnotatorMultiword]:
    """:class:`AnnotatorMultiword` for every annotator, sorted by annotator (the
    per-annotator layout of ``annotator_agreement``)."""
    detection: dict[str, list[float]] = {}
    identification: dict[str, list[float]] = {}
    marked: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    for item in items:
        responses = item.responses
        for response in responses:
            answered[response.annotator] += 1
            others = [r for r in responses if r is not response]
            if response.multiword is not None:
                marked[response.annotator] += 1
            if others:
                same = sum(
                    1 for r in others if (r.multiword is None) == (response.multiword is None)
                )
                detection.setdefault(response.annotator, []).append(same / len(others))
            if response.multiword is None:
                continue
            also = [r.multiword for r in others if r.multiword is not None]
            if also:
                share = also.count(response.multiword) / len(also)
                identification.setdefault(response.annotator, []).append(share)

    return {
        a: AnnotatorMultiword(
            mean_or_none(detection.get(a, [])),
            mean_or_none(identification.get(a, [])),
            len(detection.get(a, [])),
            len(identification.get(a, [])),
            marked[a],
            answered[a],
        )
        for a in sorted(answered)
    }


def pair_list(item: Item) -> list[tuple[str, str, bool, bool | None]]:
    """Every pair of one item's responses, in annotator order: (annotator, annotator,
    detection agrees, identification agrees or None when not both marked). For reports
    and for checking the counts by hand."""
    result = []
    for first, second in combinations(item.responses, 2):
        both = first.multiword is not None and second.multiword is not None
        result.append(
            (
                first.annotator,
                second.annotator,
                (first.multiword is None) == (second.multiword is None),
                first.multiword == second.multiword if both else None,
            )
        )
    return result
