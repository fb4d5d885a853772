"""The lemma review: every lemma change the lemmatiser proposes, for the organiser to decide on.

A compiled gold carries the list (:attr:`CompiledGold.lemma_changes`): surface → proposed
lemma, the form applied, the decision taken if any, how many responses and which items.
The organiser accepts, rejects or corrects each, globally or for one lexelt, and the
decisions (:mod:`annotate.gold.decisions`) are stored and win at the next compilation.
A correction may name any form of the responses, not only those the lemmatiser changes
(``movies`` kept beside ``movie``): :func:`form_uses` lists every form, where it occurs
and what the gold makes of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from annotate.gold.compiler import (
    CompiledGold,
    LemmaChange,
    item_order,
)
from annotate.gold.decisions import Action, Decision, Decisions
from scoring.formats.responses import Response
from scoring.normalisation import normalise


def pending_changes(gold: CompiledGold) -> tuple[LemmaChange, ...]:
    """The proposed changes no decision covers yet (applied as proposed until then)."""
    return tuple(
        change
        for change in gold.lemma_changes
        if change.decision is None and change.proposed != change.surface
    )


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
        lines.append(
            f"{change.surface} → {change.proposed}{decided} count: {change.count} "
            f"lexelts: {' '.join(change.lexelts)} items: {' '.join(change.items)}"
        )
    return lines


@dataclass(frozen=True, slots=True)
class FormUse:
    """A form of the responses (after normalisation, as decisions name it) in one word:
    how many responses give it, in which items, and the form the gold holds for it
    (``gold``: the lemma applied, or the form itself)."""

    surface: str
    lexelt: str
    count: int
    items: tuple[str, ...]
    gold: str


def _gold_form(form: str, lexelt: str, folds: dict[tuple[str, str], str]) -> str:
    return folds.get((lexelt, form), form)


def form_uses(
    records: Iterable[Response], gold: CompiledGold, normalised: bool = True
) -> tuple[FormUse, ...]:
    """Every substitute and multiword form of ``records`` per word, sorted by form then
    word, with the gold form ``gold`` (compiled from the same records) gives it. Forms are
    normalised as the compiler does when ``normalised`` (in ``gold``'s language: case
    kept but in English); a form normalisation empties is not listed."""
    found: dict[tuple[str, str], list[str]] = {}
    lower = gold.language == "en"
    for record in records:
        values = [*record.substitutes, *([record.multiword] if record.multiword else [])]
        for value in values:
            form = normalise(value, lower) if normalised else value
            if form:
                found.setdefault((form, record.lexelt), []).append(record.instance)
    results = {
        (change.surface, lexelt): change.result
        for change in gold.lemma_changes
        for lexelt in change.lexelts
    }
    folds = {(fold.lexelt, fold.form): fold.gold for fold in gold.case_folds}
    return tuple(
        FormUse(
            form,
            lexelt,
            len(items),
            tuple(item_order(set(items))),
            _gold_form(
                results.get((form, lexelt)) or gold.recased.get((form, lexelt), form), lexelt, folds
            ),
        )
        for (form, lexelt), items in sorted(found.items())
    )
