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
