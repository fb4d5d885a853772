"""A server process made ready before it takes requests.

A fresh process pays for its first save-and-next several times over: Jinja compiles the
annotation page's templates, Flask-Babel reads the catalogues, and SQLAlchemy compiles
the save path's statements (the page's one SELECT alone takes about 80 ms to compile).
Under gunicorn every worker pays it, so right after a start or a restart the first
annotators served by each worker waited 80-230 ms where a save usually takes about 20.
:func:`warm` pays it at start-up instead: ``gunicorn.conf.py`` calls it in each worker
once the worker has loaded the app, before its first request. (Not ``wsgi.py``: the
``lexsub …`` commands load it too, and need no warm-up.)

Nothing is written: the reads ask for a user and a sentence no row has (id 0), and the
two writes of a save name them too, so the database refuses them by their foreign keys
after SQLAlchemy has compiled them, and the transaction is rolled back. A database that
is not there yet (the schema not made) only leaves the process cold: the warm-up logs
it and the app starts as before.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable

from flask import Flask
from jinja2 import Environment, meta
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from annotate.answers import Answer
from annotate.extensions import db
from annotate.i18n import CATALOGUES, ENGLISH, translations, use_language
from annotate.services import core
from annotate.services.itempage import page_parameters, page_query
from annotate.services.responses import save_statements
from annotate.web.access import load_user

PAGES = ("annotate/item.html", "annotate/_item.html")
"""What a save-and-next renders: the annotation page, and the next sentence's part of it
that a save by fetch gets back."""

NO_ROW = 0
"""An id no row has (ids start at 1 on SQLite and PostgreSQL)."""


def warm(app: Flask) -> bool:
    """Compile the annotation page's templates, load every catalogue and compile the
    save path's SQL (module docstring); then move what start-up made out of the garbage
    collector's way (:func:`gc.freeze`), so that a collection during a request does not
    walk the app's modules, templates and compiled statements again. False when the
    database could not be used (logged)."""
    for name in templates(app.jinja_env, PAGES):
        app.jinja_env.get_template(name)
    with app.test_request_context():
        for language in (ENGLISH, *sorted(CATALOGUES)):
            use_language(language)
            translations()
        try:
            _compile_save_path()
            warmed = True
        except SQLAlchemyError as error:
            db.session.rollback()
            app.logger.warning("warm-up skipped the database (%s)", error.__class__.__name__)
            warmed = False
        finally:
            db.session.remove()
    # A connection opened here must not be shared with a process forked later (gunicorn
    # --preload forks its workers from this one): the child drops the pool's connections
    # without closing them, as SQLAlchemy advises for os.fork().
    with app.app_context():
        engine = db.engine
    os.register_at_fork(after_in_child=lambda: engine.dispose(close=False))
    gc.collect()
    gc.freeze()
    return warmed


def templates(env: Environment, roots: Iterable[str]) -> list[str]:
    """``roots`` and every template they extend, include or import, however deep (those
    named by a constant: a name computed at render time cannot be known here), in the
    order found."""
    found = list(dict.fromkeys(roots))
    for name in found:  # grows while it is walked
        source = env.loader.get_source(env, name)[0] if env.loader else ""
        for referenced in meta.find_referenced_templates(env.parse(source)):
            if referenced is not None and referenced not in found:
                found.append(referenced)
    return found


def _compile_save_path() -> None:
    load_user("warm-up")  # the log-in cookie's look-up
    for following in (False, True):  # a sentence's page, and a save's next sentence
        core.execute(page_query(following), page_parameters(NO_ROW, NO_ROW))
    for statement, parameters in save_statements(NO_ROW, NO_ROW, Answer("nil", (), None, False)):
        try:
            core.execute(statement, parameters)
        except IntegrityError:
            pass  # refused by the foreign keys, as intended: compiled, nothing written
        finally:
            db.session.rollback()
