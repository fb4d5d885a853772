"""A real browser (Debian's Chromium, driven by Playwright) against a live lexsub server.

``live`` runs the app with CSRF protection on, on a free port of 127.0.0.1, in a
background thread, over a fresh SQLite file holding the demo dataset; ``browser`` is one
headless Chromium per module. Without ``/usr/bin/chromium`` (or the playwright package)
every test here skips with the reason; under ``CI=true`` tests/conftest.py turns that skip
into a failure.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEMO = Path(__file__).resolve().parents[2] / "annotate" / "demo" / "demo.xml"
PASSWORD = "password1"
TIMEOUT_MS = 10_000


@dataclass
class Live:
    """A running server: its base URL and the app (for database checks in a context)."""

    url: str
    app: Flask
    tmp: Path

    def user(
        self,
        username: str,
        role: str = "annotator",
        password: str = PASSWORD,
        datasets: tuple[str, ...] = (),
    ) -> int:
        """A new account, a member of ``datasets`` (by name: only members open them)."""
        from sqlalchemy import select

        from annotate.extensions import db
        from annotate.models import Dataset
        from annotate.services.accounts import create_user
        from annotate.services.study import assign

        with self.app.app_context():
            user = create_user(username, password, role)
            for name in datasets:
                assign(
                    user,
                    db.session.execute(select(Dataset).where(Dataset.name == name)).scalar_one(),
                )
            return user.id


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"browser tests need Debian's Chromium at {CHROMIUM} (apt-get install -y chromium)"
        )
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
    )
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    """A fresh server per test: its own database with the demo dataset imported."""
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

    from annotate import create_app
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    app = create_app(
        {
            "TESTING": False,
            "SECRET_KEY": "x",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite'}",
            "LOGIN_LIMIT": "1000 per minute",
        }
    )
    assert app.config.get("WTF_CSRF_ENABLED", True), "CSRF must stay on for these tests"
    with app.app_context():
        upgrade()
        data = DEMO.read_bytes()
        import_dataset(parse_lexsub_xml(data, str(DEMO)), "demo", DEMO.name, data)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="lexsub-live", daemon=True)
    thread.start()
    try:
        yield Live(f"http://127.0.0.1:{server.port}", app, tmp_path)
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Open a page in a new browser context (own cookies); all closed at teardown."""
    contexts: list[BrowserContext] = []

    def open_page(**options: Any) -> Page:
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    return new_page()
