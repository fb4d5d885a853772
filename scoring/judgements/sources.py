"""A round's figures by source: for every name in the candidates' origins (the gold, each
system or model), how many candidates it proposed, the share of them the judges accept,
and how many acceptable substitutes it found that the gold lacks: the post hoc question
of McCarthy & Navigli (2009, section 4.4), whether the systems find good substitutes the
annotators did not give, asked of each source.

A candidate is **accepted** when its binary verdict is positive
(:func:`scoring.judgements.verdicts.binary_verdict`: for ``posthoc`` good or reasonable,
for ``lexical-reference`` any true, for ``swords`` TRUE); it is **judged** when it has a
binary verdict at all (a candidate nobody labelled, or one only given labels without a
binary value such as UNSURE, is not). The share is accepted / judged. A candidate
proposed by several sources counts for each of them. The gold is the origin ``gold``
(or ``human``, :class:`scoring.formats.judgements.Candidate.human`); a round without it
(from a rows file naming other origins) has no "not in the gold" figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.formats.judgements import GOLD, HUMAN
from scoring.judgements.labels import POSITIVE
from scoring.judgements.verdicts import Verdict

GOLD_NAMES = (GOLD, HUMAN)


@dataclass(frozen=True, slots=True)
class SourceFigures:
    """One source's row."""

    source: str
    candidates: int
    """Candidates of the round it proposed, judged or not."""
    judged: int
    """Of those, the candidates with a binary verdict."""
    accepted: int
    """Of those, the candidates whose binary verdict is positive."""
    not_in_gold: int | None
    """Accepted candidates whose origin lacks the gold (None for the gold itself, and in
    a round without the gold)."""

    @property
    def share(self) -> float | None:
        """accepted / judged (None when nothing is judged)."""
        return self.accepted / self.judged if self.judged else None

    def to_json(self) -> dict[str, Any]:
        return {
            "candidates": self.candidates,
            "judged": self.judged,
            "accepted": self.accepted,
            "share": self.share,
            "accepted_not_in_gold": self.not_in_gold,
        }


def _is_gold(name: str) -> bool:
    return name in GOLD_NAMES


def by_source(
    found: Sequence[Verdict], proposed: Iterable[Sequence[str]] | None = None
) -> tuple[SourceFigures, ...]:
    """Every source's figures (module docstring), the gold first, then by name.
    ``found`` are the round's verdicts; ``proposed`` the origin of every candidate of the
    round, judged or not (None: the candidates of ``found``).

    >>> from scoring.formats.judgements import Candidate
    >>> def judged(text, origin, binary):
    ...     return Verdict(Candidate("1", text, origin, {"j": "x"}), "x", binary)
    >>> found = [
    ...     judged("glad", ("gold", "llm"), "positive"),
    ...     judged("merry", ("llm",), "positive"),
    ...     judged("sad", ("llm", "wordnet"), "negative"),
    ... ]
    >>> for row in by_source(found, [*(v.candidate.origin for v in found), ("wordnet",)]):
    ...     print(row.source, row.candidates, row.judged, row.accepted, row.not_in_gold)
    gold 1 1 1 None
    llm 3 3 2 1
    wordnet 2 1 0 0
    """
    origins = [tuple(o) for o in proposed] if proposed is not None else None
    if origins is None:
        origins = [v.candidate.origin for v in found]
    names = {name for origin in origins for name in origin}
    names.update(name for v in found for name in v.candidate.origin)
    has_gold = any(_is_gold(name) for name in names)
    rows = []
    for name in sorted(names, key=lambda n: (not _is_gold(n), n)):
        mine = [v for v in found if name in v.candidate.origin and v.binary is not None]
        accepted = [v for v in mine if v.binary == POSITIVE]
        beyond = None
        if has_gold and not _is_gold(name):
            beyond = sum(1 for v in accepted if not v.candidate.human)
        rows.append(
            SourceFigures(
                name,
                sum(1 for origin in origins if name in origin),
                len(mine),
                len(accepted),
                beyond,
            )
        )
    return tuple(rows)


def _number(value: int | None) -> str:
    return "-" if value is None else str(value)


def render_sources(rows: Sequence[SourceFigures], positive: Sequence[str]) -> str:
    """The rows as text, the share in percent with two decimals; ``positive`` are the
    labels that accept a candidate."""
    width = max(12, *(len(row.source) + 2 for row in rows)) if rows else 12
    lines = [
        f"By source (accepted: {', '.join(positive)}; a candidate of several sources counts "
        "for each)",
        f"{'':<{width}}{'candidates':>12}{'judged':>8}{'accepted':>10}{'accepted %':>12}"
        f"{'accepted, not in gold':>23}",
    ]
    for row in rows:
        share = "-" if row.share is None else f"{100 * row.share:.2f}"
        lines.append(
            f"{row.source:<{width}}{row.candidates:>12}{row.judged:>8}{row.accepted:>10}"
            f"{share:>12}{_number(row.not_in_gold):>23}"
        )
    return "\n".join(lines) + "\n"
