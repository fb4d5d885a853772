"""What an annotator may answer, checked without the web: pure functions.

An answer is 1 to 3 substitutes, or ``name`` (the target is part of a proper name), or
``nil`` (no decent substitute); independently, the target may be marked as part of a
multiword, which must then be typed. Each box is checked by the one rule of a valid
substitute, :mod:`scoring.substitute`, the rule the compiler and the agreement reader
apply too, so what the form accepts always compiles. Values the rule only flags (``nil``
typed as a word, one character, the target word) are saved once the annotator confirms
them: the form comes back with the question and a confirmation token, and the same
values sent again with that token are accepted.

A language model's reply goes through the same rule (:func:`model_answer`): its list is
turned into the form a person would send (:func:`model_form`) and read by
:func:`validate_answer`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scoring.substitute import (
    MAX_LENGTH,
    InvalidSubstitute,
    check_multiword,
    check_substitute,
    clean,
)

MAX_SUBSTITUTES = 3
FIELDS = ("sub1", "sub2", "sub3", "name", "nil", "mw", "multiword", "used_dictionary", "rating")
"""The form's fields (their labels are contracts: see templates/annotate/item.html)."""
__all__ = [
    "FIELDS",
    "MAX_LENGTH",
    "MAX_SUBSTITUTES",
    "Answer",
    "FormCheck",
    "Message",
    "ModelAnswer",
    "model_answer",
    "model_form",
    "validate_answer",
    "validate_rating",
]


RATINGS = ("1", "2", "3", "4", "5")
"""A complexity study's answer: how difficult the target is, 1 (very easy) to 5 (very
difficult), the five-point scale of MultiLS (Shardlow et al. 2024)."""


@dataclass(frozen=True)
class Answer:
    """An answer as stored: ``kind`` substitutes, name or nil; or ``rating`` (a
    complexity study), whose one element of ``substitutes`` is the rating, 1 to 5."""

    kind: str  # substitutes | name | nil | rating
    substitutes: tuple[str, ...]
    multiword: str | None
    used_dictionary: bool


def N_(text: str) -> str:
    """Marks ``text`` as a msgid for the catalogues (``pybabel extract -k N_``)."""
    return text


@dataclass(frozen=True, slots=True)
class Message:
    """A problem with the form: the fields it concerns (each gets ``aria-invalid`` and
    points at the message) and the message, an English ``template`` (a msgid of the
    annotator's catalogues, see annotate/i18n.py) with its ``params``; a ``problem``
    parameter is a message of :mod:`scoring.substitute`."""

    fields: tuple[str, ...]
    template: str
    params: tuple[tuple[str, str], ...] = ()

    @property
    def text(self) -> str:
        """The message in English."""
        return self.template % dict(self.params) if self.params else self.template

    @property
    def values(self) -> dict[str, str]:
        return dict(self.params)


@dataclass(frozen=True)
class FormCheck:
    """The form read: the answer when it may be saved, else what stops it. ``cautions``
    need a confirmation: send the form again with ``confirm`` = ``token``."""

    answer: Answer | None
    errors: tuple[Message, ...] = ()
    cautions: tuple[Message, ...] = ()
    token: str = ""
    focus: str = ""  # a field outside the answer that gets the focus (the page's jump field)

    @property
    def fields(self) -> frozenset[str]:
        """The fields an error or caution names (for aria-invalid)."""
        return frozenset(f for m in (*self.errors, *self.cautions) for f in m.fields)

    def messages_of(self, field: str) -> tuple[int, ...]:
        """The 1-based numbers of the messages shown (errors, else cautions) that concern
        ``field``: the page's ``message-N`` ids its ``aria-describedby`` names."""
        shown = self.errors or self.cautions
        return tuple(n for n, m in enumerate(shown, 1) if field in m.fields)

    @property
    def first_field(self) -> str | None:
        """The first field (in the form's order) a shown message concerns: it gets the
        focus when the page comes back."""
        marked = {f for m in (self.errors or self.cautions) for f in m.fields}
        return next((f for f in FIELDS if f in marked), None)

    def described(self, field: str, limited: bool = False) -> str:
        """The attributes of the form's box ``field`` that tie it to what describes it:
        ``aria-invalid`` when a shown message concerns it, ``aria-describedby`` naming
        those messages, the target word and (``limited``: a box with a length limit) its
        limit note, and ``autofocus`` on the box that gets the focus (the first a message
        concerns, else ``sub1``; none when :attr:`focus` names another field). Ids only,
        safe in HTML as they are."""
        numbers = self.messages_of(field)
        ids = [f"message-{n}" for n in numbers] + ["target-word"]
        if limited:
            ids.append(f"limit-{field}")
        return (
            (' aria-invalid="true"' if numbers else "")
            + f' aria-describedby="{" ".join(ids)}"'
            + (" autofocus" if field == (self.focus or self.first_field or "sub1") else "")
        )


def validate_answer(form: Mapping[str, str], targets: Iterable[str] = ()) -> FormCheck:
    """Read the annotation form: ``sub1``-``sub3``, ``name``, ``nil``, ``mw``,
    ``multiword``, ``used_dictionary`` and ``confirm``. ``targets`` are the target
    word's forms (lemma, the word in the sentence) for the "target word" caution."""
    targets = tuple(targets)
    errors: list[Message] = []
    cautions: list[Message] = []
    substitutes: list[tuple[str, str]] = []
    seen: set[str] = set()
    for number in range(1, MAX_SUBSTITUTES + 1):
        field = f"sub{number}"
        typed = form.get(field) or ""
        if not clean(typed)[0]:
            continue  # an empty box (white space or invisible characters only)
        try:
            checked = check_substitute(typed, targets)
        except InvalidSubstitute as error:
            errors.append(
                Message(
                    (field,),
                    N_("Substitute %(number)s ('%(value)s'): %(problem)s."),
                    (("number", str(number)), ("value", typed), ("problem", error.message)),
                )
            )
            continue
        if checked.text.casefold() in seen:
            errors.append(
                Message((field,), N_("'%(value)s' is given twice."), (("value", checked.text),))
            )
        seen.add(checked.text.casefold())
        cautions.extend(
            Message(
                (field,),
                N_("Substitute %(number)s ('%(value)s') %(problem)s"),
                (("number", str(number)), ("value", checked.text), ("problem", caution.message)),
            )
            for caution in checked.warnings
        )
        substitutes.append((field, checked.text))
    name, nil = bool(form.get("name")), bool(form.get("nil"))
    ticks = tuple(field for field, ticked in (("name", name), ("nil", nil)) if ticked)
    if name and nil:
        errors.append(
            Message(ticks, N_("Choose either 'Proper name' or 'No substitute (nil)', not both."))
        )
    if (name or nil) and substitutes:
        errors.append(
            Message(
                (*(field for field, _ in substitutes), *ticks),
                N_("Give substitutes, or tick 'Proper name' or 'No substitute (nil)', not both."),
            )
        )
    if not (name or nil or substitutes or errors):
        errors.append(
            Message(
                ("sub1",),
                N_("Give at least one substitute, or tick 'Proper name' or 'No substitute (nil)'."),
            )
        )
    multiword = ""
    typed_multiword = form.get("multiword") or ""
    if clean(typed_multiword)[0]:
        try:
            multiword = check_multiword(typed_multiword).text
        except InvalidSubstitute as error:
            errors.append(
                Message(
                    ("multiword",),
                    N_("Multiword ('%(value)s'): %(problem)s."),
                    (("value", typed_multiword), ("problem", error.message)),
                )
            )
            multiword = typed_multiword.strip()
    ticked = bool(form.get("mw"))
    if ticked and not multiword:
        errors.append(
            Message(("multiword",), N_("You ticked 'Part of a multiword': type the multiword."))
        )
    if multiword and not ticked:
        errors.append(
            Message(
                ("mw", "multiword"),
                N_("Tick 'Part of a multiword' for the multiword you typed, or clear it."),
            )
        )
    if errors:
        return FormCheck(None, tuple(errors), tuple(cautions))
    token = _token(cautions)
    if cautions and form.get("confirm") != token:
        return FormCheck(None, (), tuple(cautions), token)
    kind = "name" if name else "nil" if nil else "substitutes"
    return FormCheck(
        Answer(
            kind,
            tuple(text for _, text in substitutes),
            multiword or None,
            bool(form.get("used_dictionary")),
        ),
        (),
        tuple(cautions),
        token,
    )


def _token(cautions: list[Message]) -> str:
    """Names exactly the cautions confirmed: other values need a confirmation of their own."""
    if not cautions:
        return ""
    text = "\x1f".join(f"{' '.join(m.fields)}\x1e{m.text}" for m in cautions)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def validate_rating(form: Mapping[str, str]) -> FormCheck:
    """Read a complexity study's form: ``rating``, one of :data:`RATINGS`."""
    value = (form.get("rating") or "").strip()
    if value not in RATINGS:
        return FormCheck(
            None, (Message(("rating",), N_("Choose how difficult the word is, from 1 to 5.")),)
        )
    return FormCheck(Answer("rating", (value,), None, False))


MULTIWORD_MARK = "multiword:"
"""How a model's list marks the multiword the target is part of (``multiword: take
off``), as a person ticks 'Part of a multiword' and types it."""


@dataclass(frozen=True)
class ModelAnswer:
    """A model's reply read by the rule of a person's answer: the answer to store (None
    when the rule refuses it whole), the candidates left out (refused by the rule of a
    valid substitute, repeated, or past the three boxes) and the rule's messages."""

    answer: Answer | None
    dropped: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def model_form(candidates: Sequence[str]) -> tuple[dict[str, str], tuple[str, ...]]:
    """The form a person would send for a model's ``candidates`` (best first), and the
    candidates that do not fit in it: the list ``["name"]`` ticks 'Proper name', an empty
    list or ``["nil"]`` 'No substitute (nil)'; an entry ``multiword: EXPRESSION`` ticks
    'Part of a multiword' and types it; the others fill the :data:`MAX_SUBSTITUTES`
    boxes in order, each kept only when the rule of a valid substitute takes it and it
    is not a repeat (the others, and those past the third, are left out).

    >>> model_form(["glad", "happy; content", "Glad", "cheerful", "merry"])
    ({'sub1': 'glad', 'sub2': 'cheerful', 'sub3': 'merry'}, ('happy; content', 'Glad'))
    >>> model_form(["name"])[0], model_form([])[0]
    ({'name': 'on'}, {'nil': 'on'})
    """
    form: dict[str, str] = {}
    words: list[str] = []
    for candidate in candidates:
        if candidate.lower().startswith(MULTIWORD_MARK):
            if "multiword" not in form:
                form["mw"] = "on"
                form["multiword"] = candidate[len(MULTIWORD_MARK) :].strip()
            continue
        words.append(candidate)
    if [word.strip().lower() for word in words] == ["name"]:
        return form | {"name": "on"}, ()
    if not words or [word.strip().lower() for word in words] == ["nil"]:
        return form | {"nil": "on"}, ()
    dropped: list[str] = []
    seen: set[str] = set()
    kept = 0
    for word in words:
        try:
            text = check_substitute(word).text
        except InvalidSubstitute:
            dropped.append(word)
            continue
        if text.casefold() in seen or kept == MAX_SUBSTITUTES:
            dropped.append(word)
            continue
        seen.add(text.casefold())
        kept += 1
        form[f"sub{kept}"] = word
    if not kept:
        form["nil"] = "on"  # every candidate refused: no decent substitute left
    return form, tuple(dropped)


def model_answer(candidates: Sequence[str], targets: Iterable[str] = ()) -> ModelAnswer:
    """A model's ``candidates`` read as a person's form (:func:`model_form`) by
    :func:`validate_answer`, the rule every answer goes through; what the rule only
    flags is confirmed, as a person confirms it (the compiler lists it all the same). A
    multiword the rule refuses is dropped and the rest read again."""
    form, dropped = model_form(candidates)
    targets = tuple(targets)
    check = validate_answer(form, targets)
    if check.answer is None and "multiword" in check.fields and "multiword" in form:
        dropped += (MULTIWORD_MARK + " " + form.pop("multiword"),)
        form.pop("mw")
        check = validate_answer(form, targets)
    if check.answer is None and check.token and not check.errors:
        check = validate_answer(form | {"confirm": check.token}, targets)
    problems = tuple(message.text for message in (*check.errors, *check.cautions))
    return ModelAnswer(check.answer, dropped, problems)
