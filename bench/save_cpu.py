"""CPU time of one save-and-next in-process, and where it goes.

What it measures
----------------
The app (``annotate.create_app``) on a fresh SQLite file (or a scratch PostgreSQL
database with ``--database-url``), the sentences imported as ``lexsub import`` does
(``--scale N``: their words repeated N times, as ``bench/load_bench.py --scale``), one
annotator logged in through the log-in page, then ``--saves`` save-and-next by the
page's script (``POST /annotate/<id>`` with ``Accept: application/json``, the next
sentence's page in the JSON answer) through Flask's test client, no HTTP server: the
app's own CPU a save (``time.process_time``, this process only, so PostgreSQL's backend
is not counted) and the wall time, median and mean. Several sizes (``--scale 1 100``)
are each made first and then saved to in turn, save by save, so that whatever the
machine or the process does meanwhile falls on every size alike (one size after the
other, the second ran a quarter to a half slower, whichever it was). With ``--statements``
the wall time of each SQL statement a save runs (from the driver's call to its return,
as SQLAlchemy's cursor events see it) is printed, median and mean a save, with the
commit's. With ``--profile`` the saves run
under cProfile (timed by ``time.process_time``: CPU, not waits) and the functions with
the most time of their own are printed, with the share of the CPU time spent in each part
of the stack (the view and its SQL, SQLAlchemy, the template, Flask and Werkzeug, the
log-in and the session).

CPU time is what a busy machine changes least; the figures are still those of this
machine, printed with its load.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.save_cpu                       # SQLite, 300 saves
    .venv/bin/python -m bench.save_cpu --scale 100           # 171,000 sentences
    .venv/bin/python -m bench.save_cpu --profile --saves 200
    .venv/bin/python -m bench.save_cpu --database-url postgresql://postgres@127.0.0.1:5432/postgres
    .venv/bin/python -m bench.save_cpu --scale 1 100 --statements --database-url …
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import machine
from bench.app_bench import machine_facts, scratch_postgres
from bench.load_bench import DEMO, SEMEVAL_TEST, analyze, scaled

PASSWORD = "password1"
PARTS = (
    ("template", ("jinja2", "flask_babel", "babel", "templates/")),
    ("SQLAlchemy", ("sqlalchemy",)),
    ("database driver", ("sqlite3", "psycopg", "{method 'execute'", "{method 'commit'")),
    ("log-in, session, CSRF", ("flask_login", "flask_wtf", "itsdangerous", "hmac", "hashlib")),
    ("Flask, Werkzeug", ("flask", "werkzeug")),
    ("lexsub", ("annotate",)),
)


def part(filename: str, function: str) -> str:
    where = f"{filename}:{function}"
    for name, markers in PARTS:
        if any(marker in where for marker in markers):
            return name
    return "other"


@dataclass
class Site:
    """One size's app, its logged-in client and each save's times."""

    name: str
    app: Any
    client: Any
    following: int  # the sentence the next save answers
    timings: StatementTimes | None
    profile: cProfile.Profile | None
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)


def prepare(name: str, url: str, sentences: Path, options: argparse.Namespace) -> Site:
    """The app on ``url`` with ``sentences`` imported, one annotator logged in."""
    from flask_migrate import upgrade
    from sqlalchemy import select

    from annotate import create_app
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Instance
    from annotate.services.accounts import create_user
    from annotate.services.datasets import import_dataset
    from annotate.services.study import assign
    from scoring.formats.instances import Limits

    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False}
    )
    with app.app_context():
        upgrade()
        data = sentences.read_bytes()
        # --scale 100 makes 171,000 sentences: more than an upload may hold by default
        # (IMPORT_LIMITS), as an operator may allow
        limits = Limits(instances=10_000_000)
        parsed = parse_lexsub_xml(data, sentences.name, limits=limits)
        dataset = import_dataset(parsed, "bench", sentences.name, data).dataset
        user = create_user("bench", PASSWORD)
        assign(user, dataset)
        first = db.session.scalar(
            select(Instance.id).where(Instance.dataset_id == dataset.id).order_by(Instance.position)
        )
        db.session.remove()
    if not url.startswith("sqlite"):
        analyze(url)
    timings = watch_statements(app, db) if options.statements else None
    client = app.test_client()
    response = client.post("/login", data={"username": "bench", "password": PASSWORD})
    if response.status_code != 302:
        raise SystemExit(f"save_cpu: log-in answered {response.status_code}")
    if timings is not None:
        timings.current.clear()  # the log-in's
    profile = cProfile.Profile(time.process_time) if options.profile else None
    if first is None:
        raise SystemExit(f"save_cpu: no sentence was imported from {sentences}")
    return Site(name, app, client, first, timings, profile)


def save(site: Site, number: int) -> None:
    """One save-and-next by fetch, timed (CPU of this process, and wall)."""
    form = {"sub1": f"word{number}", "sub2": "other"}
    profile = site.profile
    started, started_cpu = time.perf_counter(), time.process_time()
    if profile is not None:
        profile.enable()
    response = site.client.post(
        f"/annotate/{site.following}", data=form, headers={"Accept": "application/json"}
    )
    if profile is not None:
        profile.disable()
    site.cpu.append(time.process_time() - started_cpu)
    site.wall.append(time.perf_counter() - started)
    answer = response.get_json()
    if response.status_code != 200 or not answer or answer.get("next") is None:
        raise SystemExit(f"save_cpu: {site.name}: save {number} answered {response.status_code}")
    site.following = answer["next"]
    if site.timings is not None:
        site.timings.end_save()


def finish(site: Site, saves: int) -> None:
    """Print the site's statement times and profile; close its connections."""
    from annotate.extensions import db

    if site.timings is not None or site.profile is not None:
        print(f"{site.name}:")
    if site.timings is not None:
        site.timings.report()
    if site.profile is not None:
        report(pstats.Stats(site.profile), saves)
    with site.app.app_context():
        db.engine.dispose()


class StatementTimes:
    """The wall time of each statement (by its first words) and commit, save by save."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)
        self.saves: list[dict[str, float]] = []
        self.started: list[float] = []

    def begin(self) -> None:
        self.started.append(time.perf_counter())

    def end(self, what: str) -> None:
        if self.started:
            self.current[what] += time.perf_counter() - self.started.pop()

    def end_save(self) -> None:
        self.saves.append(dict(self.current))
        self.current.clear()

    def report(self) -> None:
        names = sorted({name for save in self.saves for name in save})
        print(f"statements: wall ms a save, median / mean over {len(self.saves)} saves")
        for name in names:
            each = [save.get(name, 0.0) for save in self.saves]
            print(
                f"  {1000 * statistics.median(each):6.2f} / {1000 * statistics.fmean(each):6.2f}"
                f"  {name}"
            )


def statement_name(statement: str) -> str:
    """A statement told apart by its first words and the tables it names."""
    words = statement.split()
    tables = sorted(
        {words[at + 1].strip('"(') for at, word in enumerate(words[:-1]) if word in TABLE_WORDS}
    )
    return f"{' '.join(words[:2])} … {', '.join(tables)}"[:100]


TABLE_WORDS = frozenset({"FROM", "INTO", "UPDATE", "JOIN"})


def watch_statements(app: Any, db: Any) -> StatementTimes:
    """Listen to the app's engine's cursor and commit events (bench only: the app has
    none)."""
    from sqlalchemy import event

    times = StatementTimes()
    with app.app_context():
        engine = db.engine

    def before(*_: Any) -> None:
        times.begin()

    def after(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        times.end(statement_name(statement))

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "after_cursor_execute", after)

    @event.listens_for(engine, "commit")
    def commit_started(_conn: Any) -> None:
        times.begin()

    @event.listens_for(engine.pool, "reset")
    def commit_ended(*_: Any) -> None:  # the pool's reset follows the commit
        times.end("(commit and the connection's return)")

    return times


def report(stats: pstats.Stats, saves: int) -> None:
    """The share of each part of the stack (time of the functions' own), and the
    functions with the most time of their own, in ms a save."""
    own: dict[str, float] = defaultdict(float)
    rows = []
    for (filename, line, function), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        own[part(filename, function)] += tottime
        rows.append((tottime, f"{Path(filename).name}:{line}({function})"))
    total = sum(own.values())
    print(f"profiled: {1000 * total / saves:.2f} ms a save (under cProfile), by part:")
    for name, seconds in sorted(own.items(), key=lambda item: -item[1]):
        print(f"  {name:<24} {1000 * seconds / saves:6.2f} ms  {100 * seconds / total:5.1f}%")
    print("functions with the most time of their own:")
    for seconds, where in sorted(rows, reverse=True)[:25]:
        print(f"  {1000 * seconds / saves:6.3f} ms  {where}")


def summary(name: str, cpu: Sequence[float], wall: Sequence[float]) -> str:
    return (
        f"| {name} | {len(cpu)} | {1000 * statistics.median(cpu):.2f} | "
        f"{1000 * statistics.fmean(cpu):.2f} | {1000 * statistics.median(wall):.2f} | "
        f"{1000 * statistics.fmean(wall):.2f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=300, help="save-and-next (default 300)")
    parser.add_argument(
        "--scale", type=int, nargs="+", default=[1], help="the words repeated N times (each N)"
    )
    parser.add_argument("--database-url", help="a PostgreSQL server instead of SQLite")
    parser.add_argument("--profile", action="store_true", help="under cProfile, with a report")
    parser.add_argument(
        "--statements", action="store_true", help="the wall time of each SQL statement a save"
    )
    parser.add_argument(
        "--sentences",
        type=Path,
        default=SEMEVAL_TEST if SEMEVAL_TEST.exists() else DEMO,
        help="the sentences (default SemEval-2007's test set)",
    )
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if options.saves < 1 or min(options.scale) < 1:
        parser.error("--saves and --scale must be at least 1")
    load_before = machine.load_average()
    sites: list[Site] = []
    with tempfile.TemporaryDirectory(prefix="save_cpu-") as folder, ExitStack() as stack:
        for factor in options.scale:
            sentences = scaled(options.sentences, factor, Path(folder))
            if options.database_url:
                url, version = stack.enter_context(scratch_postgres(options.database_url))
                name = f"PostgreSQL {version}, x{factor}"
            else:
                url = f"sqlite:///{Path(folder) / f'bench-{factor}.sqlite'}"
                name = f"SQLite, x{factor}"
            sites.append(prepare(name, url, sentences, options))
        gc.collect()  # the imports' garbage, before any save is timed
        for number in range(options.saves):  # the sizes in turn, save by save
            for site in sites:
                save(site, number)
        for site in sites:
            finish(site, options.saves)
    rows = [summary(site.name, site.cpu, site.wall) for site in sites]
    print("save_cpu: save-and-next by fetch, in-process (Flask's test client), one annotator")
    for name, value in machine_facts():
        print(f"  {name:<8} {value}")
    print(f"  load     1/5/15-min averages {load_before} before, {machine.load_average()} after")
    print(f"  sentences {options.sentences}" + (" (profiled)" if options.profile else ""))
    print()
    print("| database, size | saves | CPU ms p50 | CPU ms mean | wall ms p50 | wall ms mean |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
