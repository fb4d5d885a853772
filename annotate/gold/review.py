"""C3 review: every lemma change the lemmatiser proposes, for the organiser to decide on.

A compiled gold carries the list (:attr:`CompiledGold.lemma_changes`): surface → proposed
lemma, the form applied, the decision taken if any, how many responses and which items.
The organiser accepts, rejects or corrects each, globally or for one lexelt, and the
decisions (:mod:`annotate.gold.decisions`) are stored and win at the next compilation.
"""

from __future__ import annotations

from collections.abc import Iterable

from annotate.gold.compiler import CompiledGold, CompileOptions, LemmaChange, compile_responses
from annotate.gold.decisions import Action, Decision, Decisions
from annotate.gold.records import Response


def lemma_review(records: Iterable[Response],
                 options: CompileOptions | None = None) -> tuple[LemmaChange, ...]:
    """Every change proposed (or decided) when compiling ``records`` with ``options``."""
    return compile_responses(records, options).lemma_changes


def pending_changes(gold: CompiledGold) -> tuple[LemmaChange, ...]:
    """The proposed changes no decision covers yet (applied as proposed until then)."""
    return tuple(change for change in gold.lemma_changes
                 if change.decision is None and change.proposed != change.surface)


def decisions_template(changes: Iterable[LemmaChange], action: Action = "accept") -> Decisions:
    """One global decision ``action`` (accept or reject) per surface form of ``changes``,
    a starting point for the organiser's file."""
    if action == "correct":
        raise ValueError("a template decides 'accept' or 'reject'; a correction needs a lemma")
    surfaces = sorted({change.surface for change in changes if change.proposed != change.surface})
    return Decisions(tuple(Decision(surface, action) for surface in surfaces))


def review_lines(changes: Iterable[LemmaChange]) -> list[str]:
    """The changes as text, one a line: ``surface → proposed [decision → result] count:
    N lexelts: … items: …``."""
    lines = []
    for change in changes:
        decided = f" [{change.decision} → {change.result}]" if change.decision else ""
        lines.append(f"{change.surface} → {change.proposed}{decided} count: {change.count} "
                     f"lexelts: {' '.join(change.lexelts)} items: {' '.join(change.items)}")
    return lines
