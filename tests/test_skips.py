"""The skip rules of the suite (tests/conftest.py): under CI=true a skip is a failure,
except a test skipped on purpose because it would disturb a machine others share (the
PostgreSQL restart of tests/test_faults.py, which runs only when asked)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import ON_PURPOSE, unexpected_skips

ROOT = Path(__file__).resolve().parent.parent


def _skipped(reason: str) -> Any:
    """A skipped test's report as pytest keeps it: (file, line, "Skipped: reason")."""
    return SimpleNamespace(longrepr=("tests/x.py", 3, f"Skipped: {reason}"))


def test_only_skips_on_purpose_are_not_counted() -> None:
    reports = [
        _skipped("needs ../shared/data"),
        _skipped(ON_PURPOSE + "restarts the server"),
        _skipped("no gunicorn"),
    ]
    assert unexpected_skips(reports) == 2
    assert unexpected_skips([_skipped(ON_PURPOSE + "x")]) == 0
    assert unexpected_skips([]) == 0


def test_the_restart_skips_unasked_and_ci_does_not_fail_for_it() -> None:
    """tests/test_faults.py::test_database_restart under CI=true with a PostgreSQL named
    (one nobody serves: nothing can be restarted) and LEXSUB_TEST_RESTART_POSTGRES unset:
    skipped, saying why and how to ask for it, and the run passes."""
    env = {k: v for k, v in os.environ.items() if k != "LEXSUB_TEST_RESTART_POSTGRES"}
    env.update(CI="true", LEXSUB_TEST_DATABASE_URL="postgresql://nobody@127.0.0.1:1/none")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_faults.py::test_database_restart",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "1 skipped" in output, output
    assert ON_PURPOSE + "test_database_restart restarts the PostgreSQL server" in output
    assert "LEXSUB_TEST_RESTART_POSTGRES=1 (.ci/run sets it)" in output


def test_the_restart_is_allowed_when_asked_or_on_the_tests_own_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decision only (nothing is restarted): asked for, or the cluster serving the
    URL is the one scripts/postgres.sh recorded as started for the tests."""
    from tests import test_faults

    url = "postgresql://postgres@127.0.0.1:5432/lexsub_test"
    monkeypatch.delenv("LEXSUB_TEST_RESTART_POSTGRES", raising=False)
    monkeypatch.setattr(test_faults, "_local_cluster", lambda url: ("16", "main"))
    monkeypatch.setattr(test_faults, "STARTED", tmp_path / "postgres-started-by-tests")
    assert "LEXSUB_TEST_RESTART_POSTGRES=1" in str(test_faults._why_not_restart(url))
    (tmp_path / "postgres-started-by-tests").write_text("15 main\n")  # another cluster
    assert test_faults._why_not_restart(url) is not None
    (tmp_path / "postgres-started-by-tests").write_text("16 main\n")
    assert test_faults._why_not_restart(url) is None
    monkeypatch.setattr(test_faults, "_local_cluster", lambda url: "no online local cluster")
    assert test_faults._why_not_restart(url) is not None
    monkeypatch.setenv("LEXSUB_TEST_RESTART_POSTGRES", "1")
    assert test_faults._why_not_restart(url) is None
