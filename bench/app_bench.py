"""Benchmark of the annotation app under load: many annotators doing
save-and-next at once, on SQLite and on PostgreSQL, and a count of every answer after.

What it measures
----------------
The real app (``wsgi:app``) under gunicorn (``--workers`` processes, default 2 * CPUs + 1
sync workers, gunicorn's own advice) on 127.0.0.1, over a fresh database made by
``lexsub init-db`` and ``lexsub demo`` (30 sentences), with CSRF on; the demo organiser
creates ``--annotators`` accounts on the Accounts page (tests/live_server.py). One client
thread per annotator in this process (tests/live_clients.py: its own cookies and
loopback address) logs in on the log-in page (not timed); then all start together and
each does its share of ``--saves`` save-and-next without pause: the POST of the answer
with the page's CSRF token and the GET of the next sentence, what a person waits for
after pressing Enter. A request that fails is repeated as a person would, and counted.

- throughput: acknowledged saves ÷ wall time from the start signal to the last client
  done (the first GET of each client included);
- latency of save-and-next: p50, p95, p99 (nearest rank) and the maximum over every
  acknowledged save, retries included;
- errors: requests failed at the connection level, 5xx answers, anything else wrong;
- CPU: milliseconds of CPU a save-and-next costs gunicorn's processes (from
  /proc) and this process (the clients);
- the count: every acknowledged save looked up in the database (its revision and the
  current answer of each annotator and sentence), as tests/test_faults.py does.

The clients share the machine's cores with the server, so the figures are those of the
whole system on one machine, a lower bound for a server that only serves.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.app_bench                     # SQLite
    .venv/bin/python -m bench.app_bench --database-url postgresql://postgres@127.0.0.1:5432/postgres

``--database-url`` names a PostgreSQL server (and a database to connect to there): the
bench creates a database ``lexsub_bench_<pid>_<n>`` on it for the run and drops it after, and
touches nothing else. ``bash scripts/postgres.sh`` prints the URL of a local one.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from bench import machine
from tests import live_clients, live_server
from tests.live_clients import Annotator, Count, percentile

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Result:
    database: str
    annotators: int
    acknowledged: int
    wall: float
    latencies: list[float]
    connection_errors: int
    server_errors: int
    unexpected: list[str]
    count: Count
    server_cpu: float  # CPU seconds of gunicorn's processes during the run
    client_cpu: float  # CPU seconds of this process (the clients) during the run

    def row(self) -> str:
        ms = (
            [1000 * percentile(self.latencies, p) for p in (50, 95, 99)]
            if self.latencies
            else [float("nan")] * 3
        )
        top = 1000 * max(self.latencies) if self.latencies else float("nan")
        return (
            f"| {self.database} | {self.annotators} | {self.acknowledged:,} | "
            f"{self.wall:.1f} | {self.acknowledged / self.wall:.1f} | {ms[0]:.0f} | "
            f"{ms[1]:.0f} | {ms[2]:.0f} | {top:.0f} | {self.connection_errors} / "
            f"{self.server_errors} / {len(self.unexpected)} | {len(self.count.lost)} | "
            f"{1000 * self.server_cpu / self.acknowledged:.1f} / "
            f"{1000 * self.client_cpu / self.acknowledged:.1f} |"
        )


def run(database: str, url: str, folder: Path, options: argparse.Namespace) -> Result:
    log(f"{database}: setting up (lexsub init-db, lexsub demo)")
    env = live_server.prepare_database(url)
    with live_server.Server(
        env,
        folder,
        workers=options.workers,
        worker_class=options.worker_class,
        threads=options.threads,
    ) as server:
        names = [f"bench{i:03d}" for i in range(options.annotators)]
        log(f"{database}: gunicorn on port {server.port}; creating {len(names)} accounts")
        live_clients.create_annotators(server.port, names)
        order = live_server.instance_order(url)
        annotators = [
            Annotator(server.port, name, live_clients.client_address(i), order)
            for i, name in enumerate(names)
        ]
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(Annotator.log_in, annotators))
        share, extra = divmod(options.saves, len(annotators))
        start = threading.Barrier(len(annotators) + 1)
        never = threading.Event()

        def client(annotator: Annotator, saves: int) -> None:
            start.wait()
            annotator.run(never, saves)

        threads = [
            threading.Thread(target=client, args=(a, share + (i < extra)))
            for i, a in enumerate(annotators)
        ]
        for thread in threads:
            thread.start()
        log(f"{database}: {len(annotators)} annotators, {options.saves:,} saves")
        server_cpu, client_cpu = server.cpu_seconds(), time.process_time()
        start.wait()
        began = time.perf_counter()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - began
        server_cpu = server.cpu_seconds() - server_cpu
        client_cpu = time.process_time() - client_cpu
    crashes = [f"{a.username}: {a.crash!r}" for a in annotators if a.crash]
    if crashes:
        raise SystemExit(f"app_bench: client crashed: {crashes[:3]}")
    saves = [save for a in annotators for save in a.saves]
    return Result(
        database,
        len(annotators),
        sum(1 for save in saves if save.acknowledged_at is not None),
        wall,
        [save.seconds for save in saves if save.seconds is not None],
        sum(a.connection_errors for a in annotators),
        sum(a.server_errors for a in annotators),
        [line for a in annotators for line in a.unexpected],
        live_clients.count_answers(url, saves),
        server_cpu,
        client_cpu,
    )


_SCRATCH = itertools.count(1)


@contextmanager
def scratch_postgres(server_url: str) -> Iterator[tuple[str, str]]:
    """A new database on the server of ``server_url`` for the run, dropped after:
    (its URL, the server's version)."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"lexsub_bench_{os.getpid()}_{next(_SCRATCH)}"  # several at once in a run
    server = make_url(server_url).set(drivername="postgresql")
    connect = server.render_as_string(hide_password=False)
    with psycopg.connect(connect, autocommit=True) as connection:
        version = connection.execute("SHOW server_version").fetchone()
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield (
            server.set(database=name).render_as_string(hide_password=False),
            str(version[0]) if version else "?",
        )
    finally:
        with psycopg.connect(connect, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def machine_facts() -> list[tuple[str, str]]:
    head = subprocess.run(
        ["git", "-C", str(REPO), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return [
        *machine.machine_facts(),
        ("python", f"{sys.executable}: {platform.python_version()}"),
        ("code", head[:70]),
    ]


def log(message: str) -> None:
    print(f"[app_bench] {message}", file=sys.stderr, flush=True)


def add_gunicorn_arguments(parser: argparse.ArgumentParser, server: str) -> None:
    """``--workers``, ``--worker-class`` and ``--threads``: how the app's gunicorn serves
    (``server`` names it in the help), as :class:`tests.live_server.Server` takes them."""
    parser.add_argument(
        "--workers",
        type=int,
        default=2 * (os.cpu_count() or 1) + 1,
        help=f"{server} worker processes (default 2 * CPUs + 1)",
    )
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread"])
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (gthread)")


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--annotators", type=int, default=50, help="concurrent annotators (default 50)"
    )
    parser.add_argument(
        "--saves",
        type=int,
        default=2000,
        help="saves in all, shared among the annotators (default 2000)",
    )
    add_gunicorn_arguments(parser, "gunicorn")
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server to run on as well (a scratch database "
        "is created there and dropped)",
    )
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    options = parser.parse_args(argv)
    if options.annotators < 1 or options.saves < options.annotators:
        parser.error(
            f"--saves {options.saves} must be at least --annotators {options.annotators} (>= 1)"
        )
    if options.no_sqlite and not options.database_url:
        parser.error("--no-sqlite needs --database-url")
    return options


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    if not live_server.gunicorn_available():
        raise SystemExit("app_bench: needs gunicorn (pip install -r requirements-dev.txt)")
    load_before = machine.load_average()
    results: list[Result] = []
    versions = [f"SQLite {sqlite3.sqlite_version}"]
    with tempfile.TemporaryDirectory() as folder:
        if not options.no_sqlite:
            sqlite_folder = Path(folder, "sqlite")
            sqlite_folder.mkdir()
            url = f"sqlite:///{sqlite_folder / 'bench.sqlite'}"
            results.append(run("SQLite", url, sqlite_folder, options))
        if options.database_url:
            with scratch_postgres(options.database_url) as (url, version):
                versions.append(f"PostgreSQL {version}")
                pg_folder = Path(folder, "postgres")
                pg_folder.mkdir()
                results.append(run("PostgreSQL", url, pg_folder, options))

    print(
        f"app_bench: save-and-next under load, wsgi:app under gunicorn "
        f"{metadata.version('gunicorn')} ({options.workers} {options.worker_class} workers"
        + (f", {options.threads} threads each" if options.worker_class == "gthread" else "")
        + ")"
    )
    for name, value in machine_facts():
        print(f"  {name:<8} {value}")
    print(f"  database {', '.join(versions)}")
    print(
        f"  clients  {options.annotators} annotator threads in the bench process, same "
        f"machine; {options.saves:,} saves in all"
    )
    print(f"  load     1/5/15-min averages {load_before} before, {machine.load_average()} after")
    print()
    print(
        "| database | annotators | saves | wall s | saves/s | p50 ms | p95 ms | p99 ms "
        "| max ms | errors conn / 5xx / other | lost | CPU ms a save: server / clients |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for result in results:
        print(result.row())
    print()
    failed = False
    for result in results:
        print(f"{result.database}: {result.count.summary()}")
        for line in [*result.count.lost, *result.count.anomalies, *result.unexpected][:10]:
            print(f"  {line}")
        failed |= bool(
            result.count.lost
            or result.count.anomalies
            or result.unexpected
            or result.count.unacknowledged
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
