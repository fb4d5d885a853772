"""Load and fault tests on the live app, counting every answer afterwards.

Each test serves the real app (``wsgi:app``) with WORKERS gunicorn worker processes over
a fresh database (tests/live_server.py: ``lexsub init-db``, ``lexsub demo``, CSRF on); the
demo organiser creates ANNOTATORS accounts on the Accounts page, and each simulated
annotator (tests/live_clients.py: its own cookie jar and loopback address) logs in on the
log-in page and does save-and-next without pause. After BEFORE_FAULT seconds of load the
test does something bad to the app, and the load goes on for AFTER_FAULT seconds after
it is over. A client presses Save again when a request fails at the connection level or
with a 5xx, as a person would. Afterwards the database must hold every save a client was
told succeeded (the redirect to the next sentence): the current answer of each
(annotator, sentence) is the last acknowledged save, the revision history holds every
acknowledged save, every save was acknowledged in the end and some after the fault (the
app recovered). The assertions are on these counts, not on timings.

- ``test_killed_worker``: SIGKILL to a gunicorn worker while it serves a request (on
  SQLite one in the middle of a write transaction, seen in /proc/locks), on SQLite and
  again on PostgreSQL in the database run of scripts/test.sh. No 5xx allowed.
- ``test_database_restart`` (PostgreSQL only): the server is restarted mid-run with
  ``pg_ctlcluster restart`` when it is a local Debian cluster this user may control (as
  the one scripts/postgres.sh starts or finds); otherwise every backend of the app's
  database is ended with ``pg_terminate_backend``, which severs every pooled connection
  the same way. 5xx answers while the database is down are counted and retried; none
  may come 10 s after it is back. A restart ends the sessions of everyone on the
  server, so the test runs only when asked (``LEXSUB_TEST_RESTART_POSTGRES=1``, which
  .ci/run sets) or against a cluster scripts/postgres.sh started for the tests (it
  writes ``instance/postgres-started-by-tests``); otherwise it skips saying so, a skip
  that CI=true does not count as a failure.

Run with ``-s`` to see the counts.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from annotate.settings import env_flag
from tests import live_clients, live_server
from tests.conftest import IN_CI, database_url, skip_on_purpose
from tests.live_clients import Annotator, Count
from tests.live_server import Server

ANNOTATORS = 8
WORKERS = 3
BEFORE_FAULT = 2.0  # seconds of load before the fault
AFTER_FAULT = 4.0  # seconds of load after the fault is over
POSTGRES = os.environ.get("LEXSUB_TEST_DATABASE_URL")


@dataclass
class Run:
    annotators: list[Annotator]
    count: Count
    fault: str
    fault_done: float  # time.monotonic() when the fault was over

    @property
    def connection_errors(self) -> int:
        return sum(a.connection_errors for a in self.annotators)

    @property
    def server_errors(self) -> int:
        return sum(a.server_errors for a in self.annotators)

    def acknowledged_after_fault(self) -> int:
        return sum(
            1
            for a in self.annotators
            for save in a.saves
            if save.acknowledged_at is not None and save.acknowledged_at > self.fault_done
        )

    def last_failure(self) -> float | None:
        times = [moment for a in self.annotators for moment, _ in a.failures]
        return max(times) if times else None

    def report(self) -> str:
        last = self.last_failure()
        when = (
            "no failure"
            if last is None
            else f"last failure {abs(last - self.fault_done):.2f} s "
            f"{'after' if last > self.fault_done else 'before'} the fault was over"
        )
        failures = [what for a in self.annotators for _, what in a.failures][:6]
        return "\n".join(
            [
                f"fault: {self.fault}",
                f"clients: {len(self.annotators)} annotators, {self.connection_errors} "
                f"connection-level failures, {self.server_errors} 5xx answers (each retried); "
                f"{when}; "
                f"{self.acknowledged_after_fault()} saves acknowledged after it",
                f"database: {self.count.summary()}",
                *(f"  failure: {what[:120]}" for what in failures),
                *(f"  LOST: {line}" for line in self.count.lost[:20]),
                *(f"  ANOMALY: {line}" for line in self.count.anomalies[:20]),
            ]
        )


def _under_load(tmp_path: Path, url: str, fault: Callable[[Server, list[Annotator]], str]) -> Run:
    """Serve the app on ``url``, load it, call ``fault`` after BEFORE_FAULT seconds, go
    on for AFTER_FAULT seconds once it is over, then count."""
    if not live_server.gunicorn_available():
        pytest.skip(
            "the fault tests serve the app with gunicorn: pip install -r requirements-dev.txt"
        )
    env = live_server.prepare_database(url)
    with Server(env, tmp_path, workers=WORKERS) as server:
        names = [f"load{i:02d}" for i in range(ANNOTATORS)]
        live_clients.create_annotators(server.port, names)
        order = live_server.instance_order(url)
        annotators = [
            Annotator(server.port, name, live_clients.client_address(i), order)
            for i, name in enumerate(names)
        ]
        for annotator in annotators:
            annotator.log_in()
        stop = threading.Event()
        threads = [
            threading.Thread(target=a.run, args=(stop,), name=a.username) for a in annotators
        ]
        for thread in threads:
            thread.start()
        try:
            time.sleep(BEFORE_FAULT)
            done = fault(server, annotators)
            fault_done = time.monotonic()
            time.sleep(AFTER_FAULT)
        finally:
            stop.set()
            for thread in threads:  # a client gives up a request after 30 s (patience)
                thread.join(timeout=90)
        assert not any(thread.is_alive() for thread in threads), "a client hangs"
        log = server.log_tail()
    crashes = [f"{a.username}: {a.crash!r}" for a in annotators if a.crash]
    assert not crashes, crashes
    run = Run(
        annotators,
        live_clients.count_answers(url, [s for a in annotators for s in a.saves]),
        done,
        fault_done,
    )
    print(f"\n{run.report()}")
    unexpected = [line for a in annotators for line in a.unexpected]
    assert not unexpected, "\n".join(unexpected[:10]) + "\n" + log
    return run


def _assert_nothing_lost(run: Run) -> None:
    count = run.count
    assert count.lost == (), run.report()
    assert count.anomalies == (), run.report()
    assert count.acknowledged == count.in_history, run.report()
    assert count.current == count.pairs, run.report()
    assert count.unacknowledged == 0, "a save never went through:\n" + run.report()
    assert run.acknowledged_after_fault() > 0, "no save after the fault:\n" + run.report()


def _severed_saves(annotators: list[Annotator]) -> int:
    return sum(1 for a in annotators for _, what in a.failures if what.startswith("POST"))


def _sqlite_writers(url: str) -> set[int]:
    """The processes holding the write lock of a SQLite database in WAL mode (byte 120
    of its -shm file, in /proc/locks): those in a write transaction."""
    shm = Path(url.removeprefix("sqlite:///") + "-shm")
    try:
        inode = shm.stat().st_ino
        table = Path("/proc/locks").read_text()
    except OSError:
        return set()
    writers = set()
    for line in table.splitlines():
        fields = line.split()  # n: POSIX ADVISORY WRITE pid major:minor:inode start end
        if (
            len(fields) >= 8
            and fields[3] == "WRITE"
            and fields[6] == "120"
            and fields[5].rsplit(":", 1)[-1] == str(inode)
        ):
            writers.add(int(fields[4]))
    return writers


def _kill_busy_worker(server: Server, annotators: list[Annotator], url: str) -> str:
    """SIGKILL a worker while it serves a request: on SQLite, one in a write transaction
    if one is seen within 2 s. Until one of the requests cut off is a save (a POST,
    perhaps after its commit), kill another, five at most."""
    killed = []
    for _ in range(5):
        severed = _severed_saves(annotators)
        deadline = time.monotonic() + 2
        writing: set[int] = set()
        while time.monotonic() < deadline:
            workers = set(server.worker_pids())
            if url.startswith("sqlite") and (writing := _sqlite_writers(url) & workers):
                break
            if not url.startswith("sqlite") and server.busy_workers():
                break
            time.sleep(0.001)
        busy = sorted(writing) or server.busy_workers()
        pid = (busy or server.worker_pids())[0]
        os.kill(pid, signal.SIGKILL)
        state = "in a write transaction" if writing else "serving a request" if busy else "idle"
        killed.append(f"{pid} ({state})")
        time.sleep(0.5)
        server.wait_for_workers(WORKERS, timeout=30)  # the master has replaced it
        if _severed_saves(annotators) > severed:
            break
    return (
        f"{len(killed)} SIGKILL, one worker at a time (of {WORKERS}): "
        f"{', '.join(killed)}; {_severed_saves(annotators)} saves cut off"
    )


@pytest.mark.database
def test_killed_worker(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    run = _under_load(
        tmp_path, url, lambda server, annotators: _kill_busy_worker(server, annotators, url)
    )
    _assert_nothing_lost(run)
    assert run.connection_errors > 0, "the kill severed no request:\n" + run.report()
    assert run.server_errors == 0, "a killed worker made another answer 5xx:\n" + run.report()


def _local_cluster(url: str) -> tuple[str, str] | str:
    """(version, name) of the Debian cluster serving ``url`` on this machine, or why
    there is none this process may restart."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if (parsed.host or "localhost") not in ("127.0.0.1", "localhost", "::1"):
        return f"the server {parsed.host} is not on this machine"
    if not (shutil.which("pg_lsclusters") and shutil.which("pg_ctlcluster")):
        return "no pg_lsclusters/pg_ctlcluster (not Debian's postgresql-common)"
    listing = subprocess.run(
        ["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=False, timeout=30
    ).stdout
    for line in listing.splitlines():
        version, name, port, status, owner = line.split()[:5]
        if int(port) == (parsed.port or 5432) and status.startswith("online"):
            if os.geteuid() != 0 and owner != os.environ.get("USER"):
                return f"cluster {version}/{name} belongs to {owner}, not to this user"
            return version, name
    return f"no online local cluster on port {parsed.port or 5432}"


def _restart_database(url: str) -> str:
    cluster = _local_cluster(url)
    started = time.monotonic()
    if isinstance(cluster, tuple):
        version, name = cluster
        done = subprocess.run(
            ["pg_ctlcluster", "--skip-systemctl-redirect", version, name, "restart"],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert done.returncode == 0, f"pg_ctlcluster restart failed: {done.stderr}"
        return (
            f"PostgreSQL {version}/{name} restarted with pg_ctlcluster (fast shutdown: "
            f"every session ended, then started again) in "
            f"{time.monotonic() - started:.2f} s"
        )
    import psycopg
    from sqlalchemy.engine import make_url

    libpq = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True) as connection:
        ended = connection.execute(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    return (
        f"no restart ({cluster}): {ended[0] if ended else 0} backends ended with "
        f"pg_terminate_backend in {time.monotonic() - started:.2f} s"
    )


RESTART = "LEXSUB_TEST_RESTART_POSTGRES"
STARTED = Path(__file__).resolve().parent.parent / "instance" / "postgres-started-by-tests"
"""Written by scripts/postgres.sh when it started a cluster itself ("VERSION NAME")."""


def _why_not_restart(url: str) -> str | None:
    """None when this run may restart the server of ``url``: asked to (``RESTART=1``, as
    .ci/run sets, or another value :func:`annotate.settings.env_flag` reads as on), or its cluster
    is one scripts/postgres.sh started for the tests (none answered). Else why not: a
    restart ends every session of everyone on the server."""
    if env_flag(RESTART):
        return None
    cluster = _local_cluster(url)
    if (
        isinstance(cluster, tuple)
        and STARTED.is_file()
        and STARTED.read_text().split() == [*cluster]
    ):
        return None
    return (
        "test_database_restart restarts the PostgreSQL server, ending every session of "
        "everyone on it; it runs only against a cluster scripts/postgres.sh started for the "
        f"tests, or when asked: {RESTART}=1 (.ci/run sets it)"
    )


if POSTGRES or not IN_CI:  # CI's SQLite run has no PostgreSQL; its database run has

    @pytest.mark.database
    def test_database_restart(tmp_path: Path) -> None:
        if not POSTGRES:
            pytest.skip(
                "needs a PostgreSQL: LEXSUB_TEST_DATABASE_URL (scripts/test.sh "
                "sets it for the database run)"
            )
        url = POSTGRES
        refused = _why_not_restart(url)
        if refused is not None:
            skip_on_purpose(refused)
        run = _under_load(tmp_path, url, lambda server, annotators: _restart_database(url))
        _assert_nothing_lost(run)
        last = run.last_failure()
        assert last is None or last - run.fault_done < 10, (
            "still failing 10 s after the database was back:\n" + run.report()
        )
