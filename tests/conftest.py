"""Shared fixtures: the app and the real data in ../shared.

A test that needs ``../shared/data`` or ``../shared/oracle`` asks for the ``shared``
fixture. Locally it skips with the reason when the folder is missing; under ``CI=true``
it fails instead, and any skipped test at all fails the run (CI always has the data).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from annotate import create_app

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip (fail under CI) when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"needs {path} (the shared data beside the repository)"
        if IN_CI:
            pytest.fail(message + ": CI must have it")
        pytest.skip(message)
    return path


@pytest.fixture
def shared() -> Path:
    return shared_path()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite'}"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under CI a skip hides a missing dependency or data: turn any skip into a failure."""
    if not IN_CI:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped and session.exitstatus == 0:
        print(f"\nCI=true: {skipped} test(s) skipped; CI has every dependency and "
              "../shared/data, so a skip is a failure")
        session.exitstatus = 1
