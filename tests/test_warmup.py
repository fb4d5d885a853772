"""A server process is warmed before it serves (annotate/warmup.py). After
:func:`annotate.warmup.warm`, a save-and-next compiles no SQL (every statement it sends
is a hit in SQLAlchemy's compiled cache), nothing was written, and a database without
its tables leaves the app starting, cold, with a warning."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select
from sqlalchemy.engine.default import CACHE_HIT

from annotate import create_app
from annotate.warmup import PAGES, templates, warm
from tests.conftest import TEST_CONFIG, assign, instance_ids, login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

JSON = {"Accept": "application/json"}


@pytest.fixture(autouse=True)
def _unfreeze() -> Iterator[None]:
    """warm() freezes the collector's generations, which a test process must undo."""
    yield
    gc.unfreeze()


def _save_and_next(app: Flask, client: FlaskClient, instance_id: int) -> list[bool]:
    """Whether each SQL statement of a save-and-next was compiled before (a cache hit)."""
    from annotate.extensions import db

    with app.app_context():
        engine = db.engine
    hits: list[bool] = []

    def seen(*args: Any) -> None:
        hits.append(args[4].cache_hit is CACHE_HIT)  # the execution context

    event.listen(engine, "before_cursor_execute", seen)
    try:
        response = client.post(f"/annotate/{instance_id}", data={"sub1": "clever"}, headers=JSON)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert response.status_code == 200, response.data
    return hits


def _statements(app: Flask) -> int:
    """A save-and-next's statements: the user, the page's read and the save's two writes,
    one statement on PostgreSQL (annotate.services.responses._upsert_and_append)."""
    from annotate.extensions import db

    with app.app_context():
        return 3 if db.engine.dialect.name == "postgresql" else 4


def _counts(app: Flask) -> tuple[int, int]:
    from annotate.extensions import db
    from annotate.models import Response, Revision

    with app.app_context():
        return (
            db.session.scalar(select(func.count()).select_from(Response)) or 0,
            db.session.scalar(select(func.count()).select_from(Revision)) or 0,
        )


def test_a_warmed_app_compiles_nothing_on_its_first_save_and_writes_nothing(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    assert warm(app) is True
    assert _counts(app) == (0, 0)
    login(client, "ann")
    hits = _save_and_next(app, client, instance_ids(app)[0])
    # the user, the page's read, the two writes (one statement on PostgreSQL)
    assert hits == [True] * _statements(app)
    assert _counts(app) == (1, 1)


def test_a_cold_app_compiles_its_first_save(app: Flask, client: FlaskClient, dataset: int) -> None:
    """What the warm-up saves: without it every statement compiles on the first save
    (the log-in looks the user up by name, not by the cookie's session token)."""
    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    hits = _save_and_next(app, client, instance_ids(app)[0])
    assert hits == [False] * _statements(app)


def test_a_database_without_tables_leaves_the_app_cold_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    empty = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e'}"})
    empty.logger.disabled = False  # Alembic's logging set-up, run by earlier tests, disables it
    empty.logger.addHandler(caplog.handler)  # and may stop it propagating
    try:
        assert warm(empty) is False
    finally:
        empty.logger.removeHandler(caplog.handler)
    assert "warm-up skipped the database (OperationalError)" in caplog.text


def test_gunicorn_warms_each_worker_before_it_serves(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    """gunicorn.conf.py's hook, as gunicorn calls it once a worker has loaded the app."""
    import runpy
    from types import SimpleNamespace

    make_user(app, "ann")
    assign(app, "ann", dataset)
    hooks = runpy.run_path(str(Path(__file__).resolve().parent.parent / "gunicorn.conf.py"))
    hooks["post_worker_init"](SimpleNamespace(wsgi=app))
    login(client, "ann")
    assert _save_and_next(app, client, instance_ids(app)[0]) == [True] * _statements(app)


def test_the_warm_up_loads_every_template_a_save_and_next_renders(
    app: Flask, client: FlaskClient, dataset: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The templates are found by walking the pages' extends, includes and imports, so a
    template added to the page later is warmed too: after the warm-up, neither the page
    nor a save by fetch goes to the loader (which now fails)."""
    make_user(app, "ann")
    assign(app, "ann", dataset)
    assert templates(app.jinja_env, PAGES) == [
        "annotate/item.html",
        "annotate/_item.html",
        "base.html",
    ]
    warm(app)
    loader = app.jinja_env.loader
    assert loader is not None

    def cold(*args: Any) -> None:
        raise AssertionError(f"a template was loaded after the warm-up: {args[-1]}")

    login(client, "ann")  # the log-in page is not the annotation page: loaded as it comes
    monkeypatch.setattr(loader, "get_source", cold)
    first = instance_ids(app)[0]
    assert client.get(f"/annotate/{first}").status_code == 200
    assert _save_and_next(app, client, first) == [True] * _statements(app)
