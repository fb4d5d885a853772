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
from annotate.gold.lemmatisation import UPOS, Lemmatiser
from scoring.formats.responses import Response
from scoring.substitute import normalise


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


def _forms(
    records: Iterable[Response], lower: bool, normalised: bool = True
) -> dict[tuple[str, str], list[str]]:
    """(form, lexelt) → the instances of every response giving it (a substitute or the
    multiword), normalised when ``normalised`` (``lower``: English, case folded)."""
    found: dict[tuple[str, str], list[str]] = {}
    for record in records:
        values = [*record.substitutes, *([record.multiword] if record.multiword else [])]
        for value in values:
            form = normalise(value, lower) if normalised else value
            if form:
                found.setdefault((form, record.lexelt), []).append(record.instance)
    return found


def response_forms(records: Iterable[Response], language: str) -> frozenset[tuple[str, str]]:
    """Every (form, lexelt) of ``records`` as the review lists it and decisions name it
    (normalised as the compiler normalises in ``language``)."""
    return frozenset(_forms(records, language == "en"))


def missing_form(
    surface: str, lexelt: str | None, forms: frozenset[tuple[str, str]], language: str
) -> str | None:
    """Why a correction of ``surface`` (in ``lexelt``, or any word) corrects nothing: no
    answer of ``forms`` (:func:`response_forms`) contains it (languages other than
    English match it with case folded, as decisions do); None when one does."""
    fold = (lambda text: text) if language == "en" else str.casefold
    wanted = fold(surface)
    if any(fold(form) == wanted and lexelt in (None, word) for form, word in forms):
        return None
    where = f" for {lexelt}" if lexelt else ""
    return (
        f"no answer contains the form {surface[:60]!r}{where}: a correction names a form "
        "of the responses as the list of every form shows it (after normalisation)"
    )


def form_uses(
    records: Iterable[Response], gold: CompiledGold, normalised: bool = True
) -> tuple[FormUse, ...]:
    """Every substitute and multiword form of ``records`` per word, sorted by form then
    word, with the gold form ``gold`` (compiled from the same records) gives it. Forms are
    normalised as the compiler does when ``normalised`` (in ``gold``'s language: case
    kept but in English); a form normalisation empties is not listed."""
    found = _forms(records, gold.language == "en", normalised)
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


@dataclass(frozen=True, slots=True)
class IrregularForm:
    """A form the lemmatiser keeps (*fell*) that is an inflection of another answer's
    lemma in the same word (*fall*): proposed as a correction to that lemma."""

    surface: str
    lexelt: str
    lemma: str
    count: int
    items: tuple[str, ...]


def irregular_forms(
    uses: Iterable[FormUse], decisions: Decisions, lemmatiser: Lemmatiser | None
) -> tuple[IrregularForm, ...]:
    """The forms of ``uses`` (:func:`form_uses`) that the gold keeps as typed, that no
    decision covers, and that the lemmatiser's inflections of another answer's gold form
    in the same noun or verb hold (LemmInflect's ``getAllInflections('fall')`` holds
    *fell*): each with that lemma (the most answered if several explain it, then the
    first in order). One word only; nothing without a lemmatiser that inflects."""
    if lemmatiser is None or lemmatiser.inflections is None:
        return ()
    inflections = lemmatiser.inflections
    by_word: dict[str, list[FormUse]] = {}
    for use in uses:
        by_word.setdefault(use.lexelt, []).append(use)
    found: list[IrregularForm] = []
    for lexelt, word_uses in sorted(by_word.items()):
        upos = UPOS.get(lexelt.rsplit(".", 1)[-1])
        if upos is None or upos not in ("NOUN", "VERB"):
            continue
        lemmas: dict[str, int] = {}
        for use in word_uses:
            lemmas[use.gold] = lemmas.get(use.gold, 0) + use.count
        explained: dict[str, list[str]] = {}  # form -> the lemmas whose inflections hold it
        for lemma in lemmas:
            if " " not in lemma:
                for form in inflections(lemma, upos) - {lemma}:
                    explained.setdefault(form, []).append(lemma)
        for use in word_uses:
            if use.gold != use.surface or use.surface not in explained:
                continue
            if decisions.find(use.surface, lexelt) is not None:
                continue
            lemma = min(explained[use.surface], key=lambda name: (-lemmas[name], name))
            found.append(IrregularForm(use.surface, lexelt, lemma, use.count, use.items))
    return tuple(found)
