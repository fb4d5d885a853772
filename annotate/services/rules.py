"""The rules every service holds a request to, without the database: the names and texts it
may keep, and the error that says which rule a request breaks."""

from __future__ import annotations

import re


class ServiceError(ValueError):
    """A request that breaks a rule (the message says which)."""


# What no name or id may hold: C0 and C1 controls (NUL, tab, line breaks), the line and
# paragraph separators, bidi controls (they reorder what a page shows) and lone surrogates.
# PostgreSQL refuses NUL in text outright.
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
MAX_USERNAME = 80
MAX_DATASET_NAME = 120
MAX_SOURCE = 255


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message (control characters escaped), cut to ``limit``."""
    return repr(text[:limit]) + ("…" if len(text) > limit else "")


NUL = "\x00"
"""The one character no text may take into the database: PostgreSQL refuses it in text
(an error, not a stored value), so it is refused on SQLite too and both answer alike."""


class StorageRuleError(ServiceError):
    """A text bound for the database holds NUL (:func:`check_storable`): a 400 page that
    names the value and the rule, on SQLite as on PostgreSQL."""


def check_storable(value: str, what: str) -> str:
    """``value`` if the database can keep or look it up: no NUL (:data:`NUL`). Every text
    on its way to the database goes through this rule, the explicit checks of the
    services and the engine's last guard (:func:`storable_parameters`) alike; otherwise
    :class:`StorageRuleError` naming the value and the rule.

    >>> check_storable("a\\x00b", "study link")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    annotate.services.rules.StorageRuleError: study link 'a\\x00b' contains NUL (U+0000), ...
    """
    if NUL in value:
        raise StorageRuleError(
            f"{what} {shown(value)} contains NUL (U+0000), which the database cannot keep"
        )
    return value


def storable(value: str) -> bool:
    """Whether :func:`check_storable` lets ``value`` through (a lookup by a text that
    breaks it finds nothing: a study link holding NUL is no study's)."""
    return NUL not in value


def storable_parameters(parameters: object) -> None:
    """Hold every text among a statement's bound ``parameters`` (a mapping, a sequence, or
    a list of either for many rows) to :func:`check_storable`: the guard that no path,
    checked or not, sends NUL to the database."""
    if isinstance(parameters, str):
        check_storable(parameters, "a text")
    elif isinstance(parameters, dict):
        for key, value in parameters.items():
            if isinstance(value, str):
                check_storable(value, str(key))
            elif isinstance(value, list | tuple | dict):
                storable_parameters(value)
    elif isinstance(parameters, list | tuple):
        for value in parameters:
            if isinstance(value, str | list | tuple | dict):
                storable_parameters(value)


def log_text(text: str) -> str:
    """``text`` as a log line may hold it: control characters and line breaks escaped
    (``\\n``, ``\\x00``), so that a request's path cannot write lines of its own."""
    return UNSAFE.sub(lambda found: found.group().encode("unicode_escape").decode("ascii"), text)


def check_text(value: str, what: str, limit: int) -> str:
    """``value`` if the database can keep it as a name: not empty or only white space, no
    character of :data:`UNSAFE`, at most ``limit`` characters. Otherwise
    :class:`ServiceError` naming the value and the rule."""
    if not value.strip():
        raise ServiceError(f"{what} {shown(value)} is empty")
    bad = UNSAFE.search(value)
    if bad is not None:
        raise ServiceError(
            f"{what} {shown(value)} contains U+{ord(bad.group()):04X}: "
            "control characters, line breaks and bidi controls are not "
            "allowed"
        )
    if len(value) > limit:
        raise ServiceError(f"{what} {shown(value)} has {len(value)} characters; at most {limit}")
    return value


def safe_source(file_name: str) -> str:
    """An uploaded file's name as a dataset keeps it: the characters of :data:`UNSAFE`
    removed and, past :data:`MAX_SOURCE` characters, shortened (ending in '…')."""
    cleaned = UNSAFE.sub("", file_name)
    return cleaned if len(cleaned) <= MAX_SOURCE else cleaned[: MAX_SOURCE - 1] + "…"


def check_username(username: str) -> str:
    """``username`` if an account may have it: 1 to :data:`MAX_USERNAME` letters, digits,
    ``.``, ``_`` or ``-``; otherwise :class:`ServiceError` naming it and the rule."""
    if (
        not username
        or len(username) > MAX_USERNAME
        or not username.replace("_", "").replace("-", "").replace(".", "").isalnum()
    ):
        raise ServiceError(
            f"username {shown(username)} must be 1-{MAX_USERNAME} letters, digits, '.', '_' or '-'"
        )
    return username
