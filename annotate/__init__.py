"""lexsub's web side (the annotation app, the organiser pages) and the gold compiler.

``flask --app annotate ...`` finds :func:`create_app` here. Importing ``annotate`` imports
no Flask: the pure parts (``annotate.gold``, ``python -m annotate.compile``) work on the
plain ``pip install lexsub``; the app needs ``pip install 'lexsub[web]'``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app (:func:`annotate.factory.create_app`): defaults, then
    ``INSTANCE/config.py``, the environment (``SECRET_KEY``, ``DATABASE_URL``) and
    ``test_config``, in that order."""
    from annotate.factory import create_app as build

    return build(test_config)


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


FLAG_OFF = ("0", "false", "no", "off", "")
FLAG_ON = ("1", "true", "yes", "on")


def env_flag(name: str) -> bool:
    """A boolean setting of the environment (every ``LEXSUB_*`` that is on or off): off
    when unset or ``0``, ``false``, ``no``, ``off`` or empty; on for ``1``, ``true``,
    ``yes``, ``on`` (any case, spaces around ignored); ValueError naming the variable, the
    value and the rule otherwise.

    >>> os.environ["LEXSUB_EXAMPLE"] = "Off"
    >>> env_flag("LEXSUB_EXAMPLE")
    False
    >>> os.environ["LEXSUB_EXAMPLE"] = "2"
    >>> env_flag("LEXSUB_EXAMPLE")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: LEXSUB_EXAMPLE='2': must be on (1, true, yes, on) or off (0, false, no, off, ...)
    >>> del os.environ["LEXSUB_EXAMPLE"]
    """
    value = os.environ.get(name, "")
    cleaned = value.strip().lower()
    if cleaned in FLAG_ON:
        return True
    if cleaned in FLAG_OFF:
        return False
    raise ValueError(
        f"{name}={value!r}: must be on ({', '.join(FLAG_ON)}) or off "
        f"({', '.join(FLAG_OFF[:-1])}, empty)"
    )
