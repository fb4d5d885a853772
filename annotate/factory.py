"""The Flask app factory (annotation app, organiser pages): :func:`annotate.create_app`.

The templates are the top-level ``templates/`` of a checkout (one folder per blueprint of
:mod:`annotate.web`), installed inside the package as ``annotate/templates`` (setup.py).
Migrations, static files and the catalogues stay data inside the package: Flask serves
``static/`` and Flask-Babel reads ``translations/`` from the app's own folder with no
setting, and each belongs to code beside it (the pages' scripts, :mod:`annotate.i18n`), so
moving them out would add a mapping and gain a reader nothing. Either way an app finds them
from any directory. The instance folder (SQLite database, ``config.py``, the generated
secret key) is ``LEXSUB_INSTANCE`` when set, otherwise Flask's default: ``instance/``
beside the package in a checkout (or an editable install), ``PREFIX/var/annotate-instance``
for an installed package.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from flask import Flask, current_app, render_template, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import current_user
from flask_wtf.csrf import CSRFError
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from annotate import settings
from annotate.models import shown_time
from annotate.numeric import FormError, IdConverter
from annotate.services.rules import StorageRuleError, log_text, storable_parameters
from annotate.web.paths import ItemIdConverter

PACKAGE = Path(__file__).resolve().parent
TEMPLATES = next(
    (folder for folder in (PACKAGE / "templates", PACKAGE.parent / "templates") if folder.is_dir()),
    PACKAGE / "templates",
)
"""The pages' templates: inside the installed package, or the checkout's ``templates/``."""


def _secret_key(instance: Path) -> str:
    """A secret generated into ``instance/secret_key`` on first run, never in the repo."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def _trust_proxies(app: Flask, count: int) -> None:
    """Take the client's address (the log-in limit's key) and scheme from the last
    ``count`` proxies' ``X-Forwarded-For`` / ``X-Forwarded-Proto``; without it every
    client behind a load balancer would share the balancer's address and its limit."""
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count)  # type: ignore[method-assign]


def _bind_limiter(app: Flask) -> Limiter:
    """A limiter of ``app``'s own (in ``app.extensions["limiter"]``), configured by its
    ``RATELIMIT_*`` settings: its storage, key prefix, in-memory fallback. A server process
    makes one app, the tests many: each starts with its own storage, prefix and state."""
    return Limiter(get_remote_address, app=app, default_limits=[])


def _login_limit() -> str:
    """``LOGIN_LIMIT``: attempts allowed per client address and per username."""
    return str(current_app.config["LOGIN_LIMIT"])


def _limit_logins(app: Flask, limiter: Limiter) -> frozenset[str]:
    """The log-in limit on ``app``'s views: a log-in (POST) per client address and per
    username, a crowd study link per address. Returns the endpoints limited."""
    from annotate.web.auth import username_key

    limited: set[str] = set()

    def limit(endpoint: str, **options: Any) -> None:
        view: Callable[..., Any] = app.view_functions[endpoint]
        app.view_functions[endpoint] = limiter.limit(_login_limit, **options)(view)
        limited.add(endpoint)

    limit("auth.login", methods=["POST"], key_func=username_key)
    limit("auth.login", methods=["POST"])
    limit("annotator.study")
    _limit_admissions(app, limiter)
    return frozenset(limited)


def _limit_admissions(app: Flask, limiter: Limiter) -> None:
    """``ADMISSION_LIMIT``: the accounts a study link makes per client address (requests
    that admit no one new are exempt: :func:`annotate.web.annotator.not_an_admission`)."""
    from annotate.web.annotator import not_an_admission

    view: Callable[..., Any] = app.view_functions["annotator.study"]
    app.view_functions["annotator.study"] = limiter.limit(
        lambda: str(current_app.config["ADMISSION_LIMIT"]),
        exempt_when=not_an_admission,
        scope="admission",
    )(view)


EVERY_ROUTE_LIMITS = (
    "RATELIMIT_DEFAULT",
    "RATELIMIT_APPLICATION",
    "RATELIMIT_META",
    "RATELIMIT_IN_MEMORY_FALLBACK",
)
"""flask-limiter's settings that put limits on every route (lexsub sets none; an
operator's ``config.py`` could)."""


def _skip_unlimited(app: Flask, limiter: Limiter, limited: frozenset[str]) -> None:
    """Let flask-limiter's check before every request (some 2% of a save's CPU, for no
    limit at all) stop at once for an endpoint it does not limit: a request filter
    (``Limiter.request_filter``) exempting every endpoint but ``limited``, the ones
    :func:`_limit_logins` limits. Only when no setting of :data:`EVERY_ROUTE_LIMITS` is
    given, so every limit the limiter would enforce still is."""
    if any(app.config.get(name) for name in EVERY_ROUTE_LIMITS):
        return

    @limiter.request_filter
    def unlimited() -> bool:
        return request.endpoint not in limited


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: the defaults of :data:`annotate.settings.SETTINGS`, then
    ``instance/config.py``, the environment (each setting's variable) and ``test_config``,
    in that order.

    Nothing a request depends on is kept in the process: the session is the signed cookie
    (``SECRET_KEY``), the account's session token is in the database, and the log-in limit
    counts in ``RATELIMIT_STORAGE_URI`` (Redis when several hosts serve one database; see
    docs/deploy.md)."""
    app = Flask(
        "annotate",
        instance_path=settings.instance_path(os.environ),
        template_folder=str(TEMPLATES),
        instance_relative_config=True,
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(settings.defaults(instance))
    app.config.from_pyfile("config.py", silent=True)
    app.config.update(settings.from_environment(os.environ))
    if test_config:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)
    url = settings.database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    if url.startswith("sqlite"):
        app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", settings.sqlite_engine())

    from annotate import cli, i18n
    from annotate.extensions import csrf, db, login_manager, migrate
    from annotate.web import annotator, auth, judge, members, onboarding, organiser, reports

    if app.config["TRUSTED_PROXIES"]:
        _trust_proxies(app, int(app.config["TRUSTED_PROXIES"]))
    db.init_app(app)
    migrate.init_app(app, db, directory=str(PACKAGE / "migrations"), render_as_batch=True)
    login_manager.init_app(app)
    csrf.init_app(app)
    limiter = _bind_limiter(app)
    i18n.init_app(app)
    app.url_map.converters["id"] = IdConverter  # every id in a path: <id:name>
    app.url_map.converters["item_id"] = ItemIdConverter  # an item's id, any characters
    app.add_template_filter(shown_time, "when")  # every time a page shows, with its zone
    app.register_blueprint(auth.bp)
    app.register_blueprint(annotator.bp)
    app.register_blueprint(organiser.bp)
    app.register_blueprint(members.bp)
    app.register_blueprint(reports.bp)
    app.register_blueprint(judge.bp)  # judgement rounds
    app.register_blueprint(onboarding.bp)  # a crowd participant's first page
    _skip_unlimited(app, limiter, _limit_logins(app, limiter))
    cli.init_app(app)

    _error_pages(app)
    app.after_request(_security_headers)
    app.after_request(_private_pages)

    @app.errorhandler(OperationalError)
    def database_unavailable(error: Exception) -> tuple[str, int, dict[str, str]]:
        """The database went away (a restart, a dropped connection): roll back, and say so
        on a page that needs no database (the usual layout looks up the user). Nothing
        unsaved is kept; the answer is still in the form the browser goes back to."""
        with suppress(SQLAlchemyError):
            db.session.rollback()
        return UNAVAILABLE, 503, {"Retry-After": "2"}

    return app


ERROR_MESSAGES = {
    400: "The request could not be understood: go back, reload the page and try again.",
    403: "This page is for organisers.",
    404: "No such page.",
    405: "That page cannot be used this way.",
    413: "The file is too large (at most {limit} MB).",
    429: "Too many attempts: wait a minute and try again.",
    500: "Something went wrong on our side; nothing you saved is lost. Try again, and tell "
    "the organiser if it happens again.",
}

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
"""Sent with every response: no inline script or style runs, nothing frames the app."""


def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _private_pages(response: Response) -> Response:
    """``Cache-Control: no-store`` on every answer to a logged-in user (an annotator, a
    crowd participant, a judge, an organiser): their answers, their completion code and
    the organisers' pages stay out of a shared computer's cache and history. Static
    files keep their caching. Whether someone is logged in is read from the session
    (Flask-Login's ``_user_id``), not the database: an answer the database could not
    give (a 503) is marked too."""
    if request.endpoint != "static" and session.get("_user_id"):
        response.headers["Cache-Control"] = "no-store"
    return response


def _error_pages(app: Flask) -> None:
    """Styled pages for the HTTP errors, a form sent after its session ended, and any
    unexpected error (rolled back, logged, a 500 page that needs no database)."""
    from annotate.extensions import db
    from annotate.web.annotator import keep_and_log_in, session_ended, wants_json

    def page(code: int, message: str | None = None) -> tuple[str, int]:
        limit = app.config.get("MAX_CONTENT_LENGTH") or 0
        text = message or ERROR_MESSAGES.get(code, "")
        return render_template(
            "error.html", code=code, message=text.format(limit=limit // (1024 * 1024))
        ), code

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int] | HTTPException:
        if error.code is None or error.code < 400:
            return error
        if isinstance(error, FormError):  # a field breaks its rule: say which
            return page(error.code, error.description)
        return page(error.code, None if error.code in ERROR_MESSAGES else error.description)

    @app.errorhandler(CSRFError)
    def stale_form(error: CSRFError) -> tuple[str, int] | Response | tuple[Response, int]:
        """A form whose session ended (its CSRF token no longer matches). An answer sent
        by nobody logged in is kept and the annotator asked to log in again (the page's
        script gets a 401 and sends the form as a page, which does that); any other form
        (a logged-in browser without the page's token: forged) is a 400 page."""
        if (
            request.endpoint == "annotator.item"
            and request.view_args
            and not current_user.is_authenticated
        ):
            if wants_json():
                return session_ended()
            return keep_and_log_in(int(request.view_args["instance_id"]))
        return page(
            400,
            "The form had expired (the session ended or the page was open too "
            "long): go back, reload the page and send it again.",
        )

    @app.errorhandler(StorageRuleError)
    def unstorable(error: StorageRuleError) -> tuple[str, int]:
        """A text bound for the database holds NUL (any field, any URL part): rolled back,
        a 400 page naming the value and the rule (PostgreSQL would refuse it, a 500)."""
        with suppress(SQLAlchemyError):
            db.session.rollback()
        return page(400, str(error))

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> tuple[str, int]:
        if isinstance(error, HTTPException):  # pragma: no cover - handled above
            raise error
        with suppress(SQLAlchemyError):
            db.session.rollback()
        app.logger.exception("unexpected error on %s %s", request.method, log_text(request.path))
        if app.config.get("PROPAGATE_EXCEPTIONS"):
            raise error
        return page(500)


UNAVAILABLE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>503 · lexsub</title></head><body><h1>503</h1>
<p>The database is briefly unavailable. Go back and press Save again in a moment:
answers that were not saved are not lost from your form.</p></body></html>"""


@event.listens_for(Engine, "connect")
def _connection_settings(connection: Any, record: Any) -> None:
    """SQLite: enforce foreign keys; write-ahead log so readers never block a save.
    PostgreSQL: plan a prepared statement once (:data:`GENERIC_PLANS`)."""
    if type(connection).__module__.startswith("sqlite3"):
        cursor = connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()
    elif type(connection).__module__.startswith("psycopg"):
        _generic_plans(connection)


@event.listens_for(Engine, "before_cursor_execute")
def _storable(
    connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool
) -> None:
    """No text holding NUL reaches either database (:func:`storable_parameters`, the rule
    of :mod:`annotate.services.rules`): PostgreSQL refuses it, SQLite would keep it."""
    storable_parameters(parameters)


GENERIC_PLANS = "SET plan_cache_mode = force_generic_plan"
"""PostgreSQL: a statement psycopg has prepared (one run five times on a connection, as
the save path's are) is planned once, not at every run. Under the default (``auto``)
PostgreSQL plans the annotation page's query anew at each of its first five runs and
afterwards keeps doing so whenever the generic plan's estimated cost is above the custom
plans': on a dataset of 171,000 sentences it was, and the page's one SELECT took 5.0 ms
a save (planning about 4 of it) against 2.4 ms on 1,710 sentences; with the generic
plan 2.0 ms at both sizes (``bench/save_cpu.py --statements``, bench/RESULTS.md)."""


def _generic_plans(connection: Any) -> None:
    """Set :data:`GENERIC_PLANS` for the connection's session (committed at once: in
    the transaction psycopg would open for it, a rollback would undo it)."""
    autocommit = connection.autocommit
    connection.autocommit = True
    try:
        connection.execute(GENERIC_PLANS)
    finally:
        connection.autocommit = autocommit
