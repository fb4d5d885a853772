"""A live lexsub for the load and fault tests (tests/test_faults.py) and the app benchmark
(bench/app_bench.py): the real app (``wsgi:app``) under gunicorn with worker processes,
on 127.0.0.1 and a port the kernel picks, over a fresh database made by the ``lexsub``
commands (``init-db``, then ``demo``: 30 sentences, the demo organiser and annotators).
CSRF protection stays on. The clients that use it are in tests/live_clients.py.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import IO

from tests.live_clients import HOST, ORGANISER, Browser

ROOT = Path(__file__).resolve().parent.parent
DATASET = "demo"


def gunicorn_available() -> bool:
    return importlib.util.find_spec("gunicorn") is not None


# -- the database ----------------------------------------------------------------------


def server_environment(database_url: str) -> dict[str, str]:
    """The environment of the commands and the server: this database, one secret key for
    every worker, plain-HTTP cookies."""
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secrets.token_hex(32)}
    env.pop("LEXSUB_SECURE_COOKIES", None)
    return env


def lexsub(env: Mapping[str, str], *args: str) -> str:
    """Run ``flask --app wsgi lexsub ARGS`` as an organiser would; its standard output."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "wsgi", "lexsub", *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"lexsub {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
        )
    return done.stdout


def reset_postgres(database_url: str) -> None:
    """An empty ``public`` schema, as tests/conftest.py gives every PostgreSQL test."""
    from sqlalchemy import create_engine

    from annotate.settings import database_url as driver_url

    engine = create_engine(driver_url(database_url))
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    finally:
        engine.dispose()


def prepare_database(database_url: str) -> dict[str, str]:
    """A fresh database with the schema and the demo (30 sentences, the demo accounts),
    made by ``lexsub init-db`` and ``lexsub demo``; returns the server's environment."""
    if not database_url.startswith("sqlite"):
        reset_postgres(database_url)
    env = server_environment(database_url)
    lexsub(env, "init-db")
    lexsub(env, "demo", "--organiser-password", ORGANISER[1])
    return env


def instance_order(database_url: str, dataset: str = DATASET) -> list[int]:
    """The sentence ids of ``dataset`` (the demo) in the order every annotator gets them."""
    from sqlalchemy import create_engine, select

    from annotate.models import Dataset, Instance
    from annotate.settings import database_url as driver_url

    engine = create_engine(driver_url(database_url))
    try:
        with engine.connect() as connection:
            return list(
                connection.scalars(
                    select(Instance.id)
                    .join(Dataset, Instance.dataset_id == Dataset.id)
                    .where(Dataset.name == dataset)
                    .order_by(Instance.position)
                )
            )
    finally:
        engine.dispose()


# -- the server ------------------------------------------------------------------------


def cpu_seconds(pids: Iterable[int]) -> float:
    """CPU time (user + system, from /proc) these processes have used; one that has
    ended counts nothing."""
    total = 0
    for pid in pids:
        with suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def postgres_backends(database: str) -> list[int]:
    """The PostgreSQL server processes on this machine serving a connection to
    ``database`` (their title: ``postgres: … USER DATABASE HOST(PORT) STATE``)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with suppress(OSError):
            title = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if title.startswith("postgres: ") and f" {database} " in title:
                found.append(int(cmdline.parent.name))
    return sorted(found)


class Server:
    """``gunicorn wsgi:app`` with ``workers`` worker processes on 127.0.0.1 (a free port),
    in a session of its own so that :meth:`stop` ends the master and every worker.

    ``app``, ``python``, ``cwd`` and ``options`` serve another WSGI app the same way (the
    load benchmark's peer, bench/load_bench.py): its gunicorn's interpreter, the folder it
    runs in, and gunicorn options added after ours (a later option wins)."""

    def __init__(
        self,
        env: Mapping[str, str],
        folder: Path,
        workers: int = 3,
        worker_class: str = "sync",
        threads: int = 1,
        app: str = "wsgi:app",
        python: str = sys.executable,
        cwd: Path = ROOT,
        options: Sequence[str] = (),
    ) -> None:
        self.app = app
        self.python = python
        self.cwd = cwd
        self.options = list(options)
        self.env = dict(env)
        self.log = folder / "gunicorn.log"
        self.workers = workers
        self.worker_class = worker_class
        self.threads = threads
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None

    def __enter__(self) -> Server:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self, timeout: float = 90.0) -> None:
        command = [
            self.python,
            "-m",
            "gunicorn",
            "--workers",
            str(self.workers),
            "--worker-class",
            self.worker_class,
            "--threads",
            str(self.threads),
            "--bind",
            f"{HOST}:0",
            "--no-control-socket",
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            *self.options,
            self.app,
        ]
        self._log_file = self.log.open("ab")
        self.process = subprocess.Popen(
            command,
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while not self.port:
            found = re.search(rb"Listening at: http://127\.0\.0\.1:(\d+)", self.log.read_bytes())
            if found:
                self.port = int(found.group(1))
            else:
                self._check_alive(deadline, "to listen")
                time.sleep(0.05)
        self.wait_for_workers(self.workers, deadline - time.monotonic())
        while True:  # a worker has loaded the app and answers
            with suppress(OSError, http.client.HTTPException):
                if Browser(self.port, HOST, timeout=5).request("GET", "/").status == 200:
                    return
            self._check_alive(deadline, "to answer GET /")
            time.sleep(0.1)

    def _check_alive(self, deadline: float, what: str) -> None:
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({self.process.returncode}):\n" + self.log_tail())
        if time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn took too long {what}:\n" + self.log_tail())

    def stop(self) -> None:
        """SIGTERM to the master (graceful), then SIGKILL to whatever is left of its
        process group; nothing of the server outlives this."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                with suppress(subprocess.TimeoutExpired):
                    self.process.wait(timeout=10)
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def worker_pids(self) -> list[int]:
        """The master's child processes: its workers."""
        assert self.process is not None
        master = self.process.pid
        children = Path(f"/proc/{master}/task/{master}/children")
        if children.exists():
            return sorted(int(pid) for pid in children.read_text().split())
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with suppress(OSError, IndexError, ValueError):
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                    found.append(int(stat.parent.name))
        return sorted(found)

    def wait_for_workers(self, count: int, timeout: float) -> list[int]:
        """Wait until the master has ``count`` workers; their pids."""
        deadline = time.monotonic() + timeout
        while len(pids := self.worker_pids()) < count:
            self._check_alive(deadline, f"to have {count} workers")
            time.sleep(0.05)
        return pids

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the master and its present workers have used."""
        assert self.process is not None
        return cpu_seconds([self.process.pid, *self.worker_pids()])

    def busy_workers(self) -> list[int]:
        """Workers holding an open client connection of this server: serving a request."""
        inodes: set[str] = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with suppress(OSError):
                for line in Path(table).read_text().splitlines()[1:]:
                    fields = line.split()
                    port = int(fields[1].rsplit(":", 1)[1], 16)
                    if port == self.port and fields[3] == "01":  # ESTABLISHED
                        inodes.add(f"socket:[{fields[9]}]")
        busy = []
        for pid in self.worker_pids():
            with suppress(OSError):
                if any(os.readlink(fd) in inodes for fd in Path(f"/proc/{pid}/fd").iterdir()):
                    busy.append(pid)
        return busy
