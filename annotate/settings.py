"""Every setting the app reads, in one table: its name, its default and what it means.

The app's configuration is, in this order (later wins): the defaults of :data:`SETTINGS`,
``INSTANCE/config.py``, the environment (each setting's variable, when set and not empty)
and the test configuration. docs/deploy.md documents exactly these settings with these
defaults (``tests/test_settings.py`` holds it to that). No Flask here: the factory binds
them to an app.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.formats.instances import LIMITS

MIB = 1024 * 1024
FLAG_OFF = ("0", "false", "no", "off", "")
FLAG_ON = ("1", "true", "yes", "on")


def database_url(url: str) -> str:
    """Any SQLAlchemy URL; ``postgres://`` and ``postgresql://`` go through psycopg 3.

    >>> database_url("postgres://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> database_url("sqlite:///x.sqlite")
    'sqlite:///x.sqlite'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def flag(name: str, value: str) -> bool:
    """A boolean setting of the environment (every ``LEXSUB_*`` that is on or off): off
    for ``0``, ``false``, ``no``, ``off`` or empty; on for ``1``, ``true``, ``yes``,
    ``on`` (any case, spaces around ignored); ValueError naming the variable, the value and
    the rule otherwise.

    >>> flag("LEXSUB_EXAMPLE", " On ")
    True
    >>> flag("LEXSUB_EXAMPLE", "2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: LEXSUB_EXAMPLE='2': must be on (1, true, yes, on) or off (0, false, no, off, ...)
    """
    cleaned = value.strip().lower()
    if cleaned in FLAG_ON:
        return True
    if cleaned in FLAG_OFF:
        return False
    raise ValueError(
        f"{name}={value!r}: must be on ({', '.join(FLAG_ON)}) or off "
        f"({', '.join(FLAG_OFF[:-1])}, empty)"
    )


def env_flag(name: str) -> bool:
    """:func:`flag` of the environment variable ``name`` (off when unset)."""
    return flag(name, os.environ.get(name, ""))


def proxy_count(name: str, value: str) -> int:
    """``LEXSUB_PROXIES``: how many reverse proxies (or load balancers) stand in front.

    >>> proxy_count("LEXSUB_PROXIES", "1")
    1
    """
    if not value.strip().isdigit():
        raise ValueError(
            f"{name}={value!r}: must be the number of reverse proxies in front of "
            "the app (0, 1, 2, ...)"
        )
    return int(value)


def _text(name: str, value: str) -> str:
    return value


@dataclass(frozen=True)
class Setting:
    """One setting: the ``app.config`` keys it sets (none for one read before the app
    exists), the environment variable that sets it (if any) and how its text is read
    (``None``: the variable leaves the setting as it is), its default and its meaning."""

    keys: tuple[str, ...]
    env: str | None
    default: Any
    meaning: str
    shown: str = ""
    """The default as docs/deploy.md writes it, when it is not the value's ``repr``."""
    parse: Callable[[str, str], Any] = _text
    computed: bool = False
    """The default depends on the instance folder (:func:`defaults` and the factory)."""

    @property
    def default_text(self) -> str:
        return self.shown or repr(self.default)


def _on_only(name: str, value: str) -> bool | None:
    return True if flag(name, value) else None


SETTINGS: tuple[Setting, ...] = (
    Setting(
        (),
        "LEXSUB_INSTANCE",
        None,
        "the instance folder: the SQLite database, config.py, the generated secret key",
        shown="instance/ beside the package (PREFIX/var/annotate-instance when installed)",
        computed=True,
    ),
    Setting(
        ("SQLALCHEMY_DATABASE_URI",),
        "DATABASE_URL",
        None,
        "the database (postgresql:// goes through psycopg 3)",
        shown="sqlite:///INSTANCE/lexsub.sqlite",
        computed=True,
    ),
    Setting(
        ("SQLALCHEMY_ENGINE_OPTIONS",),
        None,
        None,
        "SQLAlchemy's engine options",
        shown="SQLite: a 30 s wait for a lock",
        computed=True,
    ),
    Setting(
        ("SECRET_KEY",),
        "SECRET_KEY",
        None,
        "signs the session cookies; the same on every host",
        shown="generated into INSTANCE/secret_key",
        computed=True,
    ),
    Setting(
        ("SESSION_COOKIE_SECURE", "REMEMBER_COOKIE_SECURE"),
        "LEXSUB_SECURE_COOKIES",
        False,
        "cookies sent over HTTPS only (on: 1, true, yes, on; off: 0, false, no, off, empty)",
        parse=_on_only,
    ),
    Setting(
        ("RATELIMIT_STORAGE_URI",),
        "LEXSUB_LIMITER_STORAGE",
        "memory://",
        "where the log-in limit counts (redis://HOST:6379/0 shared by every host)",
    ),
    Setting(
        ("RATELIMIT_KEY_PREFIX",),
        "LEXSUB_LIMITER_PREFIX",
        "",
        "a prefix of the limit's keys, so that deployments can share one Redis",
    ),
    Setting(
        ("TRUSTED_PROXIES",),
        "LEXSUB_PROXIES",
        0,
        "reverse proxies in front whose X-Forwarded-For and X-Forwarded-Proto are believed",
        parse=proxy_count,
    ),
    Setting(
        ("LOGIN_LIMIT",),
        None,
        "20 per minute",
        "log-in attempts per client address and per username (and study links per address)",
    ),
    Setting(
        ("ADMISSION_LIMIT",),
        "LEXSUB_ADMISSION_LIMIT",
        "10 per hour",
        "participant accounts a study link makes per client address",
    ),
    Setting(("MAX_CONTENT_LENGTH",), None, 64 * MIB, "the largest upload", shown=f"{64} MiB"),
    Setting(
        ("IMPORT_LIMITS",),
        None,
        LIMITS,
        "an import's bounds (scoring.formats.instances.Limits): instances, a context's length, "
        "the unpacked size",
        shown=f"{LIMITS.instances:,} instances, {LIMITS.context:,} characters a context, "
        f"{LIMITS.unpacked // MIB} MiB unpacked, {LIMITS.json_values:,} JSON values",
    ),
    Setting(
        ("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED",),
        None,
        True,
        "while the limit's storage is unreachable, each process counts in its own memory",
    ),
    Setting(
        ("WTF_CSRF_TIME_LIMIT",),
        None,
        None,
        "a form's CSRF token lasts as long as its session",
    ),
    Setting(("WTF_CSRF_ENABLED",), None, True, "forms carry a CSRF token (off only in tests)"),
    Setting(("SESSION_COOKIE_HTTPONLY",), None, True, "no script reads the session cookie"),
    Setting(("REMEMBER_COOKIE_HTTPONLY",), None, True, "no script reads the remember cookie"),
    Setting(("SESSION_COOKIE_SAMESITE",), None, "Lax", "cookies stay off other sites' forms"),
)
"""Every setting the app reads: :func:`defaults` gives the values before
``INSTANCE/config.py``, :func:`from_environment` what the environment changes."""


def defaults(instance: Path) -> dict[str, Any]:
    """The defaults of :data:`SETTINGS` as ``app.config`` keys (the database in
    ``instance``; the secret key comes later, when neither file nor environment gives
    one)."""
    values = {
        key: setting.default for setting in SETTINGS if not setting.computed for key in setting.keys
    }
    values["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / 'lexsub.sqlite'}"
    return values


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """What the environment sets: each setting's variable, when set and not empty, read by
    its rule (a ValueError naming the variable, the value and the rule otherwise)."""
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        text = environ.get(setting.env) if setting.env else None
        if not setting.keys or not text:
            continue
        value = setting.parse(setting.env or "", text)
        if value is not None:
            values.update(dict.fromkeys(setting.keys, value))
    return values


def sqlite_engine() -> dict[str, dict[str, int]]:
    """SQLite's engine options when none are given: a save waits up to 30 s for a lock.
    A new dict each call: Flask-SQLAlchemy writes into ``connect_args`` (an in-memory
    database gets ``check_same_thread``), which must not reach the next app."""
    return {"connect_args": {"timeout": 30}}


def instance_path(environ: Mapping[str, str]) -> str | None:
    """``LEXSUB_INSTANCE`` made absolute, or None for Flask's default."""
    chosen = environ.get("LEXSUB_INSTANCE")
    return os.path.abspath(chosen) if chosen else None
