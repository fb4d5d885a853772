"""The Flask app factory (annotation app, organiser pages): :func:`annotate.create_app`.

Templates and migrations are data inside the package (``annotate/templates``,
``annotate/migrations``), so an installed app finds them from any directory. The instance
folder (SQLite database, ``config.py``, the generated secret key) is ``LEXSUB_INSTANCE``
when set, otherwise Flask's default: ``instance/`` beside the package in a checkout (or an
editable install), ``PREFIX/var/annotate-instance`` for an installed package.
"""

from __future__ import annotations

import os
import secrets
from contextlib import suppress
from pathlib import Path
from typing import Any

from flask import Flask, render_template
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from annotate import database_url

PACKAGE = Path(__file__).resolve().parent


def _secret_key(instance: Path) -> str:
    """A secret generated into ``instance/secret_key`` on first run, never in the repo."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``instance/config.py``, the environment
    (``SECRET_KEY``, ``DATABASE_URL``) and ``test_config``, in that order."""
    chosen = os.environ.get("LEXSUB_INSTANCE")
    app = Flask("annotate", instance_path=os.path.abspath(chosen) if chosen else None,
                template_folder="templates", instance_relative_config=True)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'lexsub.sqlite'}",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=64 * 1024 * 1024,
        LOGIN_LIMIT="20 per minute",
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if os.environ.get("LEXSUB_SECURE_COOKIES"):
        app.config.update(SESSION_COOKIE_SECURE=True, REMEMBER_COOKIE_SECURE=True)
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    url = database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    if url.startswith("sqlite"):
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {"connect_args": {"timeout": 30}})

    from annotate import annotator, auth, cli, organiser, reports
    from annotate.extensions import csrf, db, limiter, login_manager, migrate

    db.init_app(app)
    migrate.init_app(app, db, directory=str(PACKAGE / "migrations"), render_as_batch=True)
    login_manager.init_app(app)
    csrf.init_app(app)
    limiter.init_app(app)
    app.register_blueprint(auth.bp)
    app.register_blueprint(annotator.bp)
    app.register_blueprint(organiser.bp)
    app.register_blueprint(reports.bp)
    cli.init_app(app)

    @app.errorhandler(403)
    def forbidden(error: Exception) -> tuple[str, int]:
        return render_template("error.html", code=403,
                               message="This page is for organisers."), 403

    @app.errorhandler(404)
    def not_found(error: Exception) -> tuple[str, int]:
        return render_template("error.html", code=404, message="No such page."), 404

    @app.errorhandler(OperationalError)
    def database_unavailable(error: Exception) -> tuple[str, int, dict[str, str]]:
        """The database went away (a restart, a dropped connection): roll back, and say so
        on a page that needs no database (the usual layout looks up the user). Nothing
        unsaved is kept; the answer is still in the form the browser goes back to."""
        with suppress(SQLAlchemyError):
            db.session.rollback()
        return UNAVAILABLE, 503, {"Retry-After": "2"}

    return app


UNAVAILABLE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>503 · lexsub</title></head><body><h1>503</h1>
<p>The database is briefly unavailable. Go back and press Save again in a moment:
answers that were not saved are not lost from your form.</p></body></html>"""


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(connection: Any, record: Any) -> None:
    """SQLite: enforce foreign keys; write-ahead log so readers never block a save."""
    if type(connection).__module__.startswith("sqlite3"):
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()
