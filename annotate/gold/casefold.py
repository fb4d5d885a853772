"""Aggregation for languages other than English: counting and agreement fold case.

English forms are lower-cased by normalisation. Other languages lemmatise the typed
form, case kept (German nouns come out capitalised: *Haus*), so forms of one word that
differ only in case (``schön`` and ``Schön``, ``Haus der Kunst`` and ``Haus der kunst``)
are made one here, per word (lexelt), before answers are counted: every form of a group
with one ``str.casefold`` key becomes the group's gold form, the one most responses give,
ties to the one with fewer capital letters, then to the smaller in code-point order. The
choice depends on the responses as a whole, never on their order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.types import Answer


@dataclass(frozen=True, slots=True)
class CaseFold:
    """A form of word ``lexelt`` counted as another that differs from it only in case:
    ``form`` as the answers held it, ``gold`` the form written, ``count`` the responses
    holding ``form``."""

    lexelt: str
    form: str
    gold: str
    count: int


def _preference(form: str, counts: Counter[str]) -> tuple[int, int, str]:
    return -counts[form], sum(1 for char in form if char.isupper()), form


def gold_forms(
    answers: Iterable[tuple[str, Answer]],
) -> tuple[dict[tuple[str, str], str], tuple[CaseFold, ...]]:
    """For (lexelt, answer) pairs: (lexelt, form) → gold form for every form that case
    folding changes, and those changes in (lexelt, form) order.

    >>> mapping, _ = gold_forms([
    ...     ("schön.a", Answer("a", "substitutes", frozenset({"Schön"}))),
    ...     ("schön.a", Answer("b", "substitutes", frozenset({"schön"}))),
    ... ])
    >>> mapping
    {('schön.a', 'Schön'): 'schön'}
    """
    counts: dict[tuple[str, str], int] = {}
    for lexelt, answer in answers:
        for form in sorted(answer.substitutes):
            key = lexelt, form
            counts[key] = counts.get(key, 0) + 1
        if answer.multiword:
            key = lexelt, answer.multiword
            counts[key] = counts.get(key, 0) + 1
    groups: dict[tuple[str, str], Counter[str]] = {}
    for (lexelt, form), count in counts.items():
        found = groups.get((lexelt, form.casefold()))
        if found is None:
            found = groups[(lexelt, form.casefold())] = Counter()
        found[form] = count
    mapping: dict[tuple[str, str], str] = {}
    changes: list[CaseFold] = []
    for (lexelt, _), forms in groups.items():
        if len(forms) < 2:
            continue
        gold = min(forms, key=lambda form: _preference(form, forms))
        for form, count in forms.items():
            if form != gold:
                mapping[(lexelt, form)] = gold
                changes.append(CaseFold(lexelt, form, gold, count))
    changes.sort(key=lambda change: (change.lexelt, change.form))
    return mapping, tuple(changes)


def fold_answer(answer: Answer, lexelt: str, mapping: Mapping[tuple[str, str], str]) -> Answer:
    """``answer`` with its forms as ``mapping`` gives them (a set again: two forms that
    fold together count once)."""
    substitutes = frozenset(
        sorted({mapping.get((lexelt, form), form) for form in answer.substitutes})
    )
    multiword = (
        mapping.get((lexelt, answer.multiword), answer.multiword) if answer.multiword else None
    )
    if substitutes == answer.substitutes and multiword == answer.multiword:
        return answer
    return Answer(answer.annotator, answer.kind, substitutes, multiword)
