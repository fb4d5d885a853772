"""lexsub's web side (the annotation app, the organiser pages) and the gold compiler.

``flask --app annotate ...`` finds :func:`create_app` here. Importing ``annotate`` imports
no Flask: the pure parts (``annotate.gold``, ``lexsub compile``) work on the
plain ``pip install lexsub``; the app needs ``pip install 'lexsub[web]'``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app (:func:`annotate.factory.create_app`): the defaults of
    :data:`annotate.settings.SETTINGS`, then ``INSTANCE/config.py``, the environment and
    ``test_config``, in that order."""
    from annotate.factory import create_app as build

    return build(test_config)
