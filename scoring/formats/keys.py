"""What may name an item of a gold line ``LEXELT ID :: sub count;…``: one rule for the
lexelt and one for the instance id, for the importer, the compiler's reader and the
lemma review alike, so that what was imported can always be compiled and scored.

A lexelt is ``lemma.pos`` or ``lemma.orig_pos.pos`` (pos one of n, v, a, r) and an id
one token: the gold line separates them from each other and from ``::`` by single
spaces, so neither may hold white space; the line separates substitutes with ``;``, so
neither may hold ``;``; and neither may hold a control character (XML 1.0 and PostgreSQL
cannot keep most of them). An id may not begin with ``::``, which would read as the
separator. A lemma of several words joins them with ``_`` (``spazieren_gehen.v``).

>>> check_lexelt("bright.a")
>>> try:
...     check_lexelt("spazieren gehen.v")
... except InvalidKey as error:
...     print(error.rule, error.message.rsplit(": ", 1)[-1])
white space write 'spazieren_gehen.v'
"""

from __future__ import annotations

import re

from scoring.types import LEXELT

_CONTROL = "\x00-\x1f\x7f-\x9f"
INSTANCE_ID = re.compile(rf"(?!::)[^\s;{_CONTROL}\ud800-\udfff]+")
"""An instance id as the gold needs it (:func:`check_instance_id` says which rule a value
breaks); a fast path may match this pattern alone."""
_BAD_CHARACTER = re.compile(rf"[;{_CONTROL}\ud800-\udfff]")

# The rules (the ``rule`` of :class:`InvalidKey`).
EMPTY = "empty"
WHITE_SPACE = "white space"
SEPARATOR = "gold-format separator"
CONTROL = "control character"
SURROGATE = "not valid Unicode"
NOT_LEXELT = "not lemma.pos"


class InvalidKey(ValueError):
    """A lexelt or instance id that breaks a rule: ``value``, ``rule`` (one of this
    module's rule names) and ``message`` (``'VALUE': the rule: the fix``)."""

    def __init__(self, value: str, rule: str, message: str) -> None:
        super().__init__(message)
        self.value = value
        self.rule = rule
        self.message = message


def joined(lemma: str) -> str:
    """A lemma of several words as a lexelt holds it: its words joined with ``_``.

    >>> joined("e commerce")
    'e_commerce'
    """
    return "_".join(lemma.split())


def _character_problem(value: str, what: str) -> InvalidKey | None:
    """The rule a character of ``value`` breaks (white space, ``;``, a control character,
    a lone surrogate), with the fix, or None."""
    if any(char.isspace() for char in value):
        fixed = joined(value)
        fix = f": write {fixed!r}" if fixed else ""
        return InvalidKey(
            value,
            WHITE_SPACE,
            f"{value!r}: {what} holds no white space (the gold line separates "
            f"'LEXELT ID ::' by spaces){fix}",
        )
    bad = _BAD_CHARACTER.search(value)
    if bad is None:
        return None
    char = bad.group()
    if char == ";":
        return InvalidKey(
            value,
            SEPARATOR,
            f"{value!r}: {what} holds no ';' (the gold line separates substitutes with ';')"
            f": write {value.replace(';', '_')!r}",
        )
    if "\ud800" <= char <= "\udfff":
        return InvalidKey(value, SURROGATE, f"{value!r}: {what} is not valid Unicode")
    return InvalidKey(
        value, CONTROL, f"{value!r}: {what} holds the control character U+{ord(char):04X}"
    )


def check_lexelt(lexelt: str) -> None:
    """:class:`InvalidKey` unless ``lexelt`` is one the gold can hold: ``lemma.pos`` or
    ``lemma.orig_pos.pos`` with pos one of n, v, a, r, and none of white space, ``;`` or
    a control character."""
    problem = _character_problem(lexelt, "a lexelt")
    if problem is not None:
        raise problem
    if not LEXELT.fullmatch(lexelt):
        raise InvalidKey(
            lexelt,
            NOT_LEXELT if lexelt else EMPTY,
            f"{lexelt!r} is not lemma.pos or lemma.pos.pos with pos one of n, v, a, r",
        )


def check_instance_id(id_: str) -> None:
    """:class:`InvalidKey` unless ``id_`` is an instance id the gold can hold: one token,
    not empty, none of white space, ``;`` or a control character, not beginning ``::``."""
    if INSTANCE_ID.fullmatch(id_):
        return
    if not id_:
        raise InvalidKey(id_, EMPTY, "'': an instance id is not empty")
    problem = _character_problem(id_, "an instance id")
    if problem is not None:
        raise problem
    raise InvalidKey(
        id_,
        SEPARATOR,
        f"{id_!r}: an instance id does not begin with '::' (the gold line's separator)",
    )
