"""Load benchmark of save-and-next with a peer side by side:
lexsub and, with ``--peer potato``, Potato, driven by the same simulated annotators.

What it measures
----------------
N simulated annotators, each an asyncio task with a client of its own
(:mod:`bench.raw_http`, HTTP/1.1 on asyncio's streams, which costs the shared machine a
fraction of what httpx did: see that module), its own cookies and, for lexsub, its own
loopback address, 127.0.1.x, so that the log-in limit per address counts it alone, log
in on the real log-in page and then loop save-and-next:

- **flat out** (``--annotators``, default 50): the next save as soon as the next
  sentence is shown;
- **realistic** (``--realistic-annotators``, default 200): before each save the
  annotator thinks for an exponentially distributed time of mean ``--think`` seconds
  (default 5), one save-and-next every 5 s on average.

Each run lasts ``--duration`` seconds (default 30): no save starts after that, the saves
under way finish, and the wall time runs from the start signal to the last annotator
done. A request that fails at the connection level or with a 5xx is pressed again after
0.1 s, as a person would, and counted as an error; any other answer than the expected
one is counted as an error and ends that annotator. Printed for every run: saves/s
(acknowledged saves ÷ wall time), the cycle time p50/p95/p99 (nearest rank; from pressing
Save to the next sentence shown, think time excluded), errors, acknowledged saves, the
acknowledged saves found stored afterwards, lost (an acknowledged save missing from the
stored history; a current answer that is not the last acknowledged save fails the run
too), the server's CPU (user + system of gunicorn's processes from /proc, in cores and in
ms a save), on PostgreSQL the CPU of the server's backends serving the run's database
(the same machine), and the clients' CPU (this process). Every save types a substitute
unique in the run, so each is told apart in the store. With ``--server-times`` lexsub's
gunicorn also logs each request's time in its worker (an access log,
:data:`ACCESS_FORMAT`), and the saves' p50/p95/p99 there are printed under the table:
the cycle time less that is the clients' own delay (their event loop, on the same cores)
and the wait for a free worker.

lexsub
    The real app (``wsgi:app``) under gunicorn as docs/deploy.md deploys it:
    ``--workers`` sync worker processes (default 2 * CPUs + 1, gunicorn's advice), on a
    fresh SQLite file and on a fresh PostgreSQL database (``--postgres-url``: a database
    ``lexsub_bench_<pid>_<n>`` is created on that server and dropped after), made by
    ``lexsub init-db`` and ``lexsub demo``; the sentences (``--sentences``) are imported
    with ``lexsub import``; the demo organiser creates the annotators' accounts on the
    Accounts page (tests/live_server.py, tests/live_clients.py); on PostgreSQL the
    bench then runs ``ANALYZE``, as autovacuum would within a minute of the import. A
    save is the page's own fetch: ``POST /annotate/<id>`` with the form's fields and CSRF
    token and ``Accept: application/json``, answered 200 with JSON (the next sentence's
    id and page); with ``--no-fetch`` the plain form instead (POST, the redirect, GET of
    the next sentence). An annotator past the last sentence goes round again from the
    first (a re-save is still a save-and-next). Afterwards every acknowledged save is
    looked up among the revisions and current answers in the database
    (tests/live_clients.count_answers).

Potato (``--peer potato``)
    potato-annotation 2.12.1 from PyPI, installed with pip into a virtual environment of
    its own (``--potato-venv``, default ``instance/bench/potato-2.12.1``, outside git;
    made once, reused), never imported here. A task folder made for the run holds a
    config (``config.yaml``, written by :func:`potato_config`: one ``text`` scheme with
    three boxes, ``sub1`` to ``sub3``, password log-in, fixed order, every sentence for
    every annotator) and the same sentences as JSON Lines, the target in ``<b>``.
    Potato is served the way its Docker entry point (``docker-entrypoint.sh`` of its
    repository) does: ``gunicorn --workers 1 --threads 8 --timeout 120 --access-logfile
    - --error-logfile - "potato.flask_server:create_app('config.yaml')"`` in the task
    folder, with the gunicorn version lexsub uses. Accounts are made with Potato's
    register form; each annotator then logs in on its log-in page (``GET /``, ``POST
    /auth``; Potato has no CSRF token). One save-and-next is what its annotation page's
    Next button does (static/annotation.js): ``POST /updateinstance`` (JSON: the three
    boxes as ``substitutes:subN``), ``POST /annotate`` with ``{"action":
    "next_instance"}`` and ``X-Potato-Navigation: 1``, then ``GET /annotate``. A save is
    acknowledged by a 200 whose JSON status is not ``error``. Afterwards every
    acknowledged save is looked up in Potato's store: each annotator's
    ``annotation_history.jsonl`` (every label written, appended and fsynced a save) and
    ``user_state.json`` (the current answers). Potato keeps its state in files of the
    task folder, whatever lexsub's database; it is run once a pace.

The clients share the machine's cores with the servers, so the figures are those of the
whole system on one machine. The machine facts and the load average before and after
are printed with the table.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.load_bench --peer potato            # both databases, both paces
    .venv/bin/python -m bench.load_bench --database sqlite --pace flat --duration 20
    .venv/bin/python -m bench.load_bench --no-fetch               # the form without JavaScript

``--scale 1 100`` runs lexsub on the sentences as they are and on their words repeated
100 times (copy k of ``side.n`` is ``side_k.n``; 171,000 sentences for the test set's
1,710), each store and pace at each size, the larger ones labelled ``SQLite x100``: a
save's cost should not grow with the dataset (its cycle p50 at most 1.5x the unscaled
one's). Potato runs on the sentences as they are.

The sentences default to SemEval-2007's test set (``../shared/data/semeval2007/test/
lexsub_test.xml``, 1,710 sentences, so that nobody goes round in a short run), or the
demo's 30 when that is absent; any file ``lexsub import`` reads will do.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import html
import json
import os
import random
import re
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

from bench import machine, raw_http
from bench.app_bench import add_gunicorn_arguments, machine_facts, scratch_postgres
from tests import live_clients, live_server
from tests.live_clients import Count, Page, Save, percentile

REPO = Path(__file__).resolve().parent.parent
SEMEVAL_TEST = REPO.parent / "shared" / "data" / "semeval2007" / "test" / "lexsub_test.xml"
DEMO = REPO / "annotate" / "demo" / "demo.xml"
DATASET = "bench"
POTATO_VERSION = "2.12.1"
POTATO_VENV = REPO / "instance" / "bench" / f"potato-{POTATO_VERSION}"
POTATO_SCHEME = "substitutes"
POTATO_THREADS = 8
POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
FINISHED = re.compile(r"/annotate/dataset/\d+/done")
RETRY_PAUSE = 0.1  # seconds before a failed request is made again
PATIENCE = 30.0  # seconds of making a failed request again before giving up


# -- statistics ------------------------------------------------------------------------


def cycle_percentiles(seconds: Sequence[float]) -> tuple[float, float, float]:
    """p50, p95 and p99 of cycle times given in seconds, in milliseconds (nearest rank,
    :func:`tests.live_clients.percentile`); NaN for no cycles.

    >>> cycle_percentiles([0.010, 0.020, 0.030, 0.040])
    (20.0, 40.0, 40.0)
    """
    if not seconds:
        return (float("nan"), float("nan"), float("nan"))
    values = list(seconds)
    p50, p95, p99 = (round(1000 * percentile(values, p), 6) for p in (50, 95, 99))
    return p50, p95, p99


def potato_store(
    output: Path, scheme: str = POTATO_SCHEME
) -> tuple[dict[tuple[str, int], Counter[str]], dict[tuple[str, int], tuple[str, int | None]]]:
    """What Potato stored for the first box (``sub1``) of ``scheme`` under its output
    folder: (the values written, counted by (annotator, sentence), from each annotator's
    ``annotation_history.jsonl``; the current value from ``user_state.json``), the shape
    :func:`tests.live_clients.compare_saves` reads."""
    history: dict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    current: dict[tuple[str, int], tuple[str, int | None]] = {}
    for folder in sorted(path for path in output.iterdir() if path.is_dir()):
        log = folder / "annotation_history.jsonl"
        if log.exists():
            for number, line in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
                action = json.loads(line)
                if (
                    action.get("schema_name") == scheme
                    and action.get("label_name") == "sub1"
                    and action.get("action_type") in ("add_label", "update_label")
                    and action.get("new_value") is not None
                ):
                    key = (folder.name, _potato_id(action["instance_id"], log, number))
                    history[key][str(action["new_value"])] += 1
        state = folder / "user_state.json"
        if state.exists():
            labels = json.loads(state.read_text(encoding="utf-8"))
            for instance, values in (labels.get("instance_id_to_label_to_value") or {}).items():
                for label, value in values:
                    if label.get("schema") == scheme and label.get("name") == "sub1":
                        current[folder.name, _potato_id(instance, state, 0)] = (str(value), None)
    return dict(history), current


def _potato_id(value: object, path: Path, line: int) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise ValueError(
            f"{path}:{line}: instance id {value!r} is not one of the bench's (1, 2, …)"
        ) from None


# -- the simulated annotators ----------------------------------------------------------


@dataclass
class Annotator:
    """One simulated annotator: its client, where it is, and what happened."""

    username: str
    password: str
    client: raw_http.Client
    sentence: int = 0  # the sentence on screen
    form: dict[str, str] = field(default_factory=dict)  # lexsub: the answer form's fields
    saves: list[Save] = field(default_factory=list)
    cycles: list[float] = field(default_factory=list)  # seconds, Save → next sentence shown
    connection_errors: int = 0
    server_errors: int = 0
    unexpected: list[str] = field(default_factory=list)
    ran_out: bool = False  # the peer had no sentence left for it


class Site(Protocol):
    """A server the annotators drive: how to log in and do one save-and-next."""

    name: str

    async def log_in(self, annotator: Annotator) -> None:
        """Log in on the real page and open the first sentence (not timed); raises if
        that fails."""

    async def save_and_next(self, annotator: Annotator, save: Save) -> bool:
        """Save ``save`` (its token in the first box) for the sentence on screen and show
        the next; sets ``save.acknowledged_at`` when the server says it is saved. False
        when the annotator cannot go on."""


async def request(
    annotator: Annotator, method: str, url: str, **options: Any
) -> raw_http.Response | None:
    """One request, made again after a pause while it fails at the connection level or
    with a 5xx (each counted), for up to :data:`PATIENCE` seconds (then None)."""
    until = time.monotonic() + PATIENCE
    while True:
        try:
            response = await annotator.client.request(method, url, **options)
        except raw_http.TransportError as error:
            annotator.connection_errors += 1
            what = f"{method} {url}: {type(error).__name__}: {error}"
        else:
            if response.status_code < 500:
                return response
            annotator.server_errors += 1
            what = f"{method} {url} → {response.status_code}"
        if time.monotonic() + RETRY_PAUSE > until:
            annotator.unexpected.append(f"gave up after {PATIENCE:.0f} s: {what}")
            return None
        await asyncio.sleep(RETRY_PAUSE)


def page_of(response: raw_http.Response) -> Page:
    return Page(
        response.method,
        response.path,
        response.status_code,
        response.headers.get("location", ""),
        response.text,
    )


def answer_form(page: Page) -> dict[str, str] | None:
    """The fields of lexsub's answer form (``id="answer"``) in ``page``, None when it has
    none; only the form's own markup is read, its ``<input>`` tags by
    :func:`input_fields` (the whole page through an HTML parser cost the clients about
    a millisecond a save)."""
    at = page.text.find('id="answer"')
    start = page.text.rfind("<form", 0, at)
    end = page.text.find("</form>", at)
    if at < 0 or start < 0 or end < 0:
        return None
    return input_fields(page.text[start:end])


INPUT = re.compile(r"<input\b([^>]*)>", re.IGNORECASE)
ATTRIBUTE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
NOT_SENT = frozenset({"submit", "button", "image", "file"})


def input_fields(markup: str) -> dict[str, str]:
    """What a browser submits from the ``<input>`` tags of one form's ``markup``, as
    tests.live_clients.Page.form reads them with an HTML parser: each named field's
    value (unescaped; "" when it has none), a check box only when ticked (its value, or
    ``on``), no buttons or files."""
    fields: dict[str, str] = {}
    for attributes in INPUT.findall(markup):
        found = {
            name.lower(): html.unescape(double or single or bare)
            for name, double, single, bare in ATTRIBUTE.findall(attributes)
        }
        name = found.get("name")
        if not name:
            continue
        kind = (found.get("type") or "text").lower()
        if kind == "checkbox":
            if "checked" in found:
                fields[name] = found.get("value") or "on"
        elif kind not in NOT_SENT:
            fields[name] = found.get("value") or ""
    return fields


def refuse(annotator: Annotator, what: str, response: raw_http.Response) -> bool:
    """Note an answer that is not what the page expects; the annotator stops."""
    annotator.unexpected.append(f"{annotator.username}: {what}: {page_of(response).describe()}")
    return False


@dataclass
class Lexsub:
    """lexsub's annotation page: the form with its CSRF token, saved by fetch (JSON) or
    as a plain form (redirect, then GET)."""

    order: list[int]  # the sentence ids in the order every annotator gets them
    fetch: bool = True
    name: str = "lexsub"

    async def log_in(self, annotator: Annotator) -> None:
        page = page_of(await annotator.client.get("/login"))
        form = {**page.form(having="username"), "username": annotator.username}
        answer = await annotator.client.post(
            "/login", data={**form, "password": annotator.password}
        )
        target = answer.headers.get("location", "")
        if answer.status_code != 302 or target.startswith("/login"):
            raise RuntimeError(
                f"log-in of {annotator.username} failed: {page_of(answer).describe()}"
            )
        if not await self._open(annotator, "/annotate"):
            raise RuntimeError(f"{annotator.username}: no sentence: {annotator.unexpected}")

    async def _open(self, annotator: Annotator, path: str) -> bool:
        """GET a sentence's page (redirects followed); the finished page leads back to
        the first sentence."""
        response = await request(annotator, "GET", path, follow_redirects=True)
        if response is None:
            return False
        if response.status_code == 200 and FINISHED.fullmatch(response.path):
            response = await request(
                annotator, "GET", f"/annotate/{self.order[0]}", follow_redirects=True
            )
            if response is None:
                return False
        found = re.fullmatch(r"/annotate/(\d+)", response.path)
        form = answer_form(page_of(response))
        if response.status_code != 200 or found is None or form is None:
            return refuse(annotator, f"no sentence page at {path}", response)
        annotator.sentence = int(found.group(1))
        annotator.form = form
        return True

    async def save_and_next(self, annotator: Annotator, save: Save) -> bool:
        form = {**annotator.form, "sub1": save.token, "sub2": "", "sub3": ""}
        path = f"/annotate/{annotator.sentence}"
        if not self.fetch:
            answer = await request(annotator, "POST", path, data=form)
            if answer is None:
                return False
            if answer.status_code not in (302, 303):
                return refuse(annotator, f"save {save.token} not acknowledged", answer)
            save.acknowledged_at = time.monotonic()
            return await self._open(annotator, answer.headers["location"])
        answer = await request(
            annotator, "POST", path, data=form, headers={"Accept": "application/json"}
        )
        if answer is None:
            return False
        if answer.status_code != 200 or not answer.headers.get("content-type", "").startswith(
            "application/json"
        ):
            hint = " (does this lexsub save by fetch yet? try --no-fetch)"
            return refuse(annotator, f"save {save.token} not acknowledged{hint}", answer)
        reply = answer.json()
        if reply.get("saved") != annotator.sentence:
            return refuse(annotator, f"save {save.token}: the reply names another sentence", answer)
        save.acknowledged_at = time.monotonic()
        if reply.get("next") is None:  # the finished page: round again
            return await self._open(annotator, f"/annotate/{self.order[0]}")
        annotator.sentence = int(reply["next"])
        swapped = answer_form(Page("POST", path, 200, "", str(reply.get("html") or "")))
        if swapped is not None:
            annotator.form = swapped
        return True


@dataclass
class Potato:
    """Potato's annotation page as its own script drives it (module docstring)."""

    name: str = "Potato"

    async def register(self, annotator: Annotator) -> None:
        answer = await annotator.client.post(
            "/register", data={"email": annotator.username, "pass": annotator.password}
        )
        if answer.status_code != 302:
            raise RuntimeError(f"Potato registration of {annotator.username}: {answer.status_code}")
        annotator.client.cookies.clear()

    async def log_in(self, annotator: Annotator) -> None:
        page = await annotator.client.get("/")
        if 'action="/auth"' not in page.text:
            raise RuntimeError(f"no Potato log-in form: {page_of(page).describe()}")
        answer = await annotator.client.post(
            "/auth", data={"email": annotator.username, "pass": annotator.password}
        )
        if answer.status_code != 302 or not answer.headers.get("location", "").endswith(
            "/annotate"
        ):
            raise RuntimeError(
                f"Potato log-in of {annotator.username} failed: {page_of(answer).describe()}"
            )
        if not await self._open(annotator):
            raise RuntimeError(f"{annotator.username}: no sentence: {annotator.unexpected}")

    async def _open(self, annotator: Annotator) -> bool:
        response = await request(annotator, "GET", "/annotate", follow_redirects=True)
        if response is None:
            return False
        found = re.search(r'name="instance_id" type="hidden" value="([^"]*)"', response.text)
        if response.status_code != 200 or found is None:
            if response.status_code == 200:
                annotator.ran_out = True  # its completion page
                return False
            return refuse(annotator, "no annotation page", response)
        annotator.sentence = int(found.group(1))
        return True

    async def save_and_next(self, annotator: Annotator, save: Save) -> bool:
        instance = str(annotator.sentence)
        body = {
            "instance_id": instance,
            "annotations": {f"{POTATO_SCHEME}:sub1": save.token},
            "cleared_schemas": [],
            "span_annotations": [],
            "client_timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
            "response_time_seconds": 1,
        }
        answer = await request(annotator, "POST", "/updateinstance", json=body)
        if answer is None:
            return False
        if answer.status_code != 200 or answer.json().get("status") in ("error", "blocked"):
            return refuse(annotator, f"save {save.token} not acknowledged", answer)
        save.acknowledged_at = time.monotonic()
        moved = await request(
            annotator,
            "POST",
            "/annotate",
            json={"action": "next_instance", "instance_id": instance},
            headers={"X-Potato-Navigation": "1"},
        )
        if moved is None:
            return False
        if moved.status_code == 302:  # no sentence left: the study's end
            annotator.ran_out = True
            return False
        if moved.status_code != 200:
            return refuse(annotator, "next_instance", moved)
        return await self._open(annotator)


# -- one run ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    server: str  # "lexsub" or "Potato"
    store: str  # what keeps the answers
    pace: str  # "flat" or "realistic"
    annotators: int
    wall: float
    acknowledged: int
    cycles: list[float]
    connection_errors: int
    server_errors: int
    unexpected: list[str]
    count: Count
    ran_out: int
    server_cpu: float  # CPU seconds of gunicorn's processes during the run
    database_cpu: float | None  # … of PostgreSQL's backends of the run's database
    client_cpu: float  # CPU seconds of this process (the clients) during the run
    server_times: list[float] | None = None  # --server-times: each save's seconds in a worker

    @property
    def errors(self) -> int:
        return self.connection_errors + self.server_errors + len(self.unexpected)

    @property
    def saves_per_second(self) -> float:
        return self.acknowledged / self.wall

    @property
    def lost(self) -> int:
        """Acknowledged saves not found stored (acknowledged - found)."""
        return self.count.acknowledged - self.count.in_history

    @property
    def clean(self) -> bool:
        """No error, nothing lost, every current answer the last acknowledged save, no
        revision nobody sent."""
        count = self.count
        return not (self.errors or self.lost or count.current != count.pairs or count.anomalies)

    def row(self) -> str:
        p50, p95, p99 = cycle_percentiles(self.cycles)
        return (
            f"| {self.server} | {self.store} | {self.pace} | {self.annotators} | "
            f"{self.saves_per_second:.1f} | {p50:.0f} | {p95:.0f} | {p99:.0f} | "
            f"{self.errors} | {self.acknowledged:,} | {self.count.in_history:,} | "
            f"{self.lost} | {self.server_cpu / self.wall:.2f} / "
            f"{1000 * self.server_cpu / max(self.acknowledged, 1):.1f} | "
            + (
                "- | "
                if self.database_cpu is None
                else f"{self.database_cpu / self.wall:.2f} / "
                f"{1000 * self.database_cpu / max(self.acknowledged, 1):.1f} | "
            )
            + f"{1000 * self.client_cpu / max(self.acknowledged, 1):.1f} |"
        )


@dataclass(frozen=True)
class Pace:
    name: str
    annotators: int
    think: float  # mean seconds before each save; 0 flat out


async def drive(
    site: Site,
    port: int,
    usernames: Sequence[str],
    password: str,
    pace: Pace,
    duration: float,
    seed: int,
    own_addresses: bool,
    cpu: Callable[[], float],
    database_cpu: Callable[[], float] | None = None,
    prepare: Callable[[Annotator], Awaitable[None]] | None = None,
) -> Run:
    """Log every annotator in (at most 8 at a time), then run them together for
    ``duration`` seconds; ``cpu`` and ``database_cpu`` read the CPU seconds the server
    and its database have used so far."""
    annotators = [
        Annotator(
            username,
            password,
            raw_http.Client(
                live_clients.HOST,
                port,
                live_clients.client_address(i) if own_addresses else None,
            ),
        )
        for i, username in enumerate(usernames)
    ]
    gate = asyncio.Semaphore(8)

    async def enter(annotator: Annotator) -> None:
        async with gate:
            if prepare is not None:
                await prepare(annotator)
            await site.log_in(annotator)

    start = asyncio.Event()
    stop_at = 0.0

    async def work(annotator: Annotator, rng: random.Random) -> None:
        await start.wait()
        while True:
            if pace.think:
                await asyncio.sleep(rng.expovariate(1 / pace.think))
            if time.monotonic() >= stop_at:
                return
            save = Save(
                annotator.username,
                annotator.sentence,
                f"{annotator.username}-{len(annotator.saves) + 1}",
            )
            annotator.saves.append(save)
            pressed = time.perf_counter()
            going = await site.save_and_next(annotator, save)
            if save.acknowledged_at is not None and going:
                save.seconds = time.perf_counter() - pressed
                annotator.cycles.append(save.seconds)
            if not going:
                return

    try:
        await asyncio.gather(*(enter(annotator) for annotator in annotators))
        # The set-up's objects (clients, pages, accounts) leave the collector's generations:
        # a full collection that walked them paused this driver for about 115 ms in the
        # middle of a run, delaying every answer in flight (a pause of the driver's, not of
        # the server's, and the same for every site driven).
        gc.collect()
        gc.freeze()
        tasks = [
            asyncio.create_task(work(annotator, random.Random(f"{seed}-{i}")))
            for i, annotator in enumerate(annotators)
        ]
        await asyncio.sleep(0.2)  # every task waits at the start
        database = database_cpu() if database_cpu else 0.0
        server, client = cpu(), time.process_time()
        began = time.monotonic()
        stop_at = began + duration
        start.set()
        await asyncio.gather(*tasks)
        return Run(
            annotators,
            time.monotonic() - began,
            cpu() - server,
            database_cpu() - database if database_cpu else None,
            time.process_time() - client,
        )
    finally:
        gc.unfreeze()
        await asyncio.gather(*(annotator.client.aclose() for annotator in annotators))


@dataclass(frozen=True)
class Run:
    annotators: list[Annotator]
    wall: float  # seconds from the start signal to the last annotator done
    server_cpu: float
    database_cpu: float | None
    client_cpu: float


def result(
    server: str, store: str, pace: Pace, run: Run, count: Callable[[list[Save]], Count]
) -> Result:
    annotators = run.annotators
    saves = [save for annotator in annotators for save in annotator.saves]
    return Result(
        server,
        store,
        pace.name,
        len(annotators),
        run.wall,
        sum(1 for save in saves if save.acknowledged_at is not None),
        [seconds for annotator in annotators for seconds in annotator.cycles],
        sum(annotator.connection_errors for annotator in annotators),
        sum(annotator.server_errors for annotator in annotators),
        [line for annotator in annotators for line in annotator.unexpected],
        count(saves),
        sum(annotator.ran_out for annotator in annotators),
        run.server_cpu,
        run.database_cpu,
        run.client_cpu,
    )


def names(count: int) -> list[str]:
    return [f"bench{i:03d}" for i in range(count)]


def run_lexsub(
    store: str, url: str, folder: Path, pace: Pace, options: argparse.Namespace, sentences: Path
) -> Result:
    log(f"lexsub on {store}, {pace.name}: lexsub init-db, demo, import {sentences.name}")
    env = live_server.prepare_database(url)
    live_server.lexsub(env, "import", str(sentences), "--dataset", DATASET)
    order = live_server.instance_order(url, DATASET)
    access = folder / "access.log"
    with live_server.Server(
        env,
        folder,
        workers=options.workers,
        worker_class=options.worker_class,
        threads=options.threads,
        options=(
            ["--access-logfile", str(access), "--access-logformat", ACCESS_FORMAT]
            if options.server_times
            else []
        ),
    ) as server:
        usernames = names(pace.annotators)
        log(f"lexsub: gunicorn on port {server.port}; {len(usernames)} accounts")
        live_clients.create_annotators(server.port, usernames, dataset=DATASET)
        if not url.startswith("sqlite"):
            analyze(url)
        log(
            f"lexsub on {store}: {pace.annotators} annotators, {pace.name}, "
            f"{options.duration:.0f} s"
        )
        run = asyncio.run(
            drive(
                Lexsub(order, fetch=not options.no_fetch),
                server.port,
                usernames,
                live_clients.PASSWORD,
                pace,
                options.duration,
                options.seed,
                own_addresses=True,
                cpu=server.cpu_seconds,
                database_cpu=None if url.startswith("sqlite") else lambda: postgres_cpu(url),
            )
        )
    outcome = result(
        "lexsub", store, pace, run, lambda saves: live_clients.count_answers(url, saves)
    )
    if options.server_times:
        return replace(outcome, server_times=save_times(access.read_text()))
    return outcome


ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s"
"""gunicorn's access-log line of ``--server-times``: method, path, status and the request's
time in the worker in microseconds (from its request read to its response written: the
wait in the listening socket's queue for a free worker is not in it)."""


def save_times(log: str) -> list[float]:
    """The worker's seconds of each save (``POST /annotate/<id>``, answered 200 or by a
    redirect) in an access log of :data:`ACCESS_FORMAT`."""
    times = []
    for line in log.splitlines():
        method, path, status, micros = line.split()
        if method == "POST" and path.startswith("/annotate/") and status in ("200", "302", "303"):
            times.append(int(micros) / 1e6)
    return times


def analyze(url: str) -> None:
    """``ANALYZE`` the PostgreSQL database of ``url``: what autovacuum does within about a
    minute of a large import, so that a run just after the import is not measured with
    the planner's statistics of empty tables (31 ms instead of 2.5 ms for the save's
    SELECT on 1,710 sentences)."""
    from sqlalchemy import create_engine

    from annotate.settings import database_url as driver_url

    engine = create_engine(driver_url(url), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("ANALYZE")
    finally:
        engine.dispose()


def postgres_cpu(url: str) -> float:
    """CPU seconds the PostgreSQL backends serving the database of ``url`` have used (on
    this machine; a backend that ended is no longer counted)."""
    from sqlalchemy.engine import make_url

    database = make_url(url).database or ""
    return live_server.cpu_seconds(live_server.postgres_backends(database))


# -- Potato ----------------------------------------------------------------------------


def potato_python(venv: Path) -> Path:
    """The interpreter of a virtual environment with Potato and gunicorn, made (pip
    install from PyPI) if ``venv`` has none yet."""
    python = venv / "bin" / "python"
    ready = venv / "lexsub-bench-ready"
    gunicorn = metadata.version("gunicorn")
    wanted = f"potato-annotation=={POTATO_VERSION} gunicorn=={gunicorn}\n"
    if ready.exists() and ready.read_text() == wanted:
        return python
    log(f"making {venv}: pip install {wanted.strip()} (a few minutes)")
    shutil.rmtree(venv, ignore_errors=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", *wanted.split()],
        check=True,
    )
    ready.write_text(wanted)
    return python


def potato_config(data: str) -> str:
    """Potato's config for the bench's task: three free-text boxes over the sentences of
    ``data`` (JSON Lines, ``id`` and ``text``), every sentence for every annotator in file
    order, password log-in, Potato's default file store."""
    return f"""\
annotation_task_name: lexsub load bench
task_dir: .
output_annotation_dir: annotation_output/
data_files:
  - {data}
item_properties:
  id_key: id
  text_key: text
user_config:
  allow_all_users: true
require_password: true
assignment_strategy: fixed_order
max_annotations_per_item: -1
persist_sessions: true
debug: false
annotation_schemes:
  - annotation_type: text
    name: {POTATO_SCHEME}
    description: Up to three words that could replace the word in bold
    labels: [sub1, sub2, sub3]
"""


def scaled(sentences: Path, factor: int, folder: Path) -> Path:
    """``sentences`` with every word repeated ``factor`` times (copy k of ``side.n`` is
    ``side_k.n``, its sentences' ids end in ``-k``), written in the task's XML layout
    into ``folder``: a dataset ``factor`` times as large; ``sentences`` itself for 1."""
    if factor == 1:
        return sentences
    from dataclasses import replace

    from scoring.formats.importers.read import parse_source
    from scoring.formats.taskxml import format_lexsub_xml

    lexelts = parse_source(sentences.read_bytes(), str(sentences)).lexelts
    copies = [
        replace(
            lexelt,
            item=f"{lexelt.lemma}_{k}.{lexelt.pos}",
            lemma=f"{lexelt.lemma}_{k}",
            instances=tuple(replace(i, id=f"{i.id}-{k}") for i in lexelt.instances),
        )
        if k
        else lexelt
        for k in range(factor)
        for lexelt in lexelts
    ]
    path = folder / f"{sentences.stem}-x{factor}.xml"
    path.write_bytes(format_lexsub_xml(copies))
    return path


def count_sentences(path: Path) -> int:
    from scoring.formats.importers.read import parse_source

    return parse_source(path.read_bytes(), str(path)).n_instances


def potato_task(folder: Path, sentences: Path) -> Path:
    """A Potato task folder with the config and the sentences (ids 1, 2, … in file
    order, lexsub's order; the target in ``<b>``)."""
    from scoring.formats.importers.read import parse_source

    task = folder / "potato"
    (task / "data").mkdir(parents=True)
    instances = parse_source(sentences.read_bytes(), str(sentences)).instances
    with (task / "data" / "sentences.jsonl").open("w", encoding="utf-8") as out:
        for number, instance in enumerate(instances, 1):
            text = (
                f"{html.escape(instance.before)}<b>{html.escape(instance.head)}</b>"
                f"{html.escape(instance.after)}"
            )
            out.write(json.dumps({"id": str(number), "text": text}, ensure_ascii=False) + "\n")
    (task / "config.yaml").write_text(potato_config("data/sentences.jsonl"), encoding="utf-8")
    return task


def run_potato(python: Path, folder: Path, pace: Pace, options: argparse.Namespace) -> Result:
    task = potato_task(folder, options.sentences)
    env = {
        "PATH": f"{python.parent}:{os.environ.get('PATH', '')}",
        "HOME": str(task),
        "POTATO_CONFIG": "config.yaml",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": str(POTATO_THREADS),
        "POTATO_NONINTERACTIVE": "1",
        "POTATO_SECRET_KEY": secrets.token_hex(32),
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    log(f"Potato, {pace.name}: gunicorn 1 worker x {POTATO_THREADS} threads in {task}")
    site = Potato()
    with live_server.Server(
        env,
        folder,
        workers=1,
        worker_class="gthread",
        threads=POTATO_THREADS,
        app="potato.flask_server:create_app('config.yaml')",
        python=str(python),
        cwd=task,
        options=["--timeout", "120", "--access-logfile", "-", "--error-logfile", "-"],
    ) as server:
        log(f"Potato: port {server.port}; {pace.annotators} annotators, {options.duration:.0f} s")
        run = asyncio.run(
            drive(
                site,
                server.port,
                names(pace.annotators),
                live_clients.PASSWORD,
                pace,
                options.duration,
                options.seed,
                own_addresses=False,
                cpu=server.cpu_seconds,
                prepare=site.register,
            )
        )
    history, current = potato_store(task / "annotation_output")
    return result(
        "Potato",
        "its files",
        pace,
        run,
        lambda saves: live_clients.compare_saves(saves, history, current),
    )


# -- the whole benchmark ---------------------------------------------------------------


@contextmanager
def databases(options: argparse.Namespace) -> Iterator[list[tuple[str, str | None]]]:
    """(name, URL) of each database asked for: SQLite's URL is None (a fresh file a run),
    the PostgreSQL database is made for the benchmark and dropped after (each run empties
    it first: tests/live_server.prepare_database)."""
    chosen: list[tuple[str, str | None]] = []
    if options.database in ("sqlite", "both"):
        chosen.append(("SQLite", None))
    if options.database not in ("postgresql", "both"):
        yield chosen
        return
    with scratch_postgres(options.postgres_url) as (url, version):
        options.versions.append(f"PostgreSQL {version}")
        yield [*chosen, ("PostgreSQL", url)]


FLAT_TARGET = {"SQLite": 8.0, "PostgreSQL": 6.0}
"""Flat out, lexsub's saves/s at least this many times Potato's, by database."""
REALISTIC_P99 = 30.0
"""At the realistic pace, lexsub's cycle p99 under this many ms."""
LARGER = 1.5
"""On a larger dataset, the cycle p50 at most this many times the unscaled one's."""


def comparisons(results: Sequence[Result]) -> list[str]:
    """The load targets against this run's figures, one line each."""
    lines = []
    potato = {r.pace: r for r in results if r.server == "Potato"}
    unscaled = {(r.store, r.pace): r for r in results if r.server == "lexsub"}
    for r in results:
        if r.server != "lexsub":
            continue
        if r.store not in FLAT_TARGET:  # a larger dataset: against the unscaled one
            base = unscaled.get((r.store.split(" x")[0], r.pace))
            if base is not None:
                ratio = cycle_percentiles(r.cycles)[0] / cycle_percentiles(base.cycles)[0]
                lines.append(
                    f"{r.pace}, {r.store}: cycle p50 {cycle_percentiles(r.cycles)[0]:.1f} ms = "
                    f"{ratio:.2f}x the unscaled {cycle_percentiles(base.cycles)[0]:.1f} ms "
                    f"(target <= {LARGER}x): {'met' if ratio <= LARGER else 'MISSED'}"
                )
            continue
        if r.pace == "flat" and "flat" in potato:
            need = FLAT_TARGET[r.store]
            ratio = r.saves_per_second / potato["flat"].saves_per_second
            lines.append(
                f"flat out, {r.store}: lexsub {r.saves_per_second:.1f} saves/s = "
                f"{ratio:.1f}x Potato's {potato['flat'].saves_per_second:.1f} "
                f"(target >= {need:.0f}x): {'met' if ratio >= need else 'MISSED'}"
            )
        if r.pace == "realistic":
            p99 = cycle_percentiles(r.cycles)[2]
            peer = (
                f" (Potato's p99 {cycle_percentiles(potato['realistic'].cycles)[2]:.0f} ms)"
                if "realistic" in potato
                else ""
            )
            lines.append(
                f"realistic, {r.store}: lexsub cycle p99 {p99:.0f} ms{peer} "
                f"(target < {REALISTIC_P99:.0f} ms): {'met' if p99 < REALISTIC_P99 else 'MISSED'}"
            )
    clean = all(r.clean for r in results)
    lines.append(f"zero errors and zero lost saves in every run: {'yes' if clean else 'NO'}")
    return lines


def log(message: str) -> None:
    print(f"[load_bench] {message}", file=sys.stderr, flush=True)


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--peer", choices=["potato"], help="run Potato side by side")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--pace", choices=["flat", "realistic", "both"], default="both")
    parser.add_argument(
        "--annotators", type=int, default=50, help="annotators flat out (default 50)"
    )
    parser.add_argument(
        "--realistic-annotators",
        type=int,
        default=200,
        help="annotators at the realistic pace (default 200)",
    )
    parser.add_argument(
        "--think", type=float, default=5.0, help="mean think time at the realistic pace (s)"
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds a run (default 30)")
    add_gunicorn_arguments(parser, "lexsub's gunicorn")
    parser.add_argument(
        "--no-fetch",
        action="store_true",
        help="lexsub saves with the plain form (redirect, then GET) instead of fetch",
    )
    parser.add_argument(
        "--sentences",
        type=Path,
        default=SEMEVAL_TEST if SEMEVAL_TEST.exists() else DEMO,
        help="the sentences (any file lexsub import reads; default SemEval-2007's test set)",
    )
    parser.add_argument(
        "--postgres-url",
        default=POSTGRES,
        help=f"a PostgreSQL server (a scratch database is made there; default {POSTGRES})",
    )
    parser.add_argument(
        "--potato-venv",
        type=Path,
        default=POTATO_VENV,
        help="Potato's virtual environment, made when missing (default instance/bench/…)",
    )
    parser.add_argument(
        "--scale",
        type=int,
        nargs="+",
        default=[1],
        help="run lexsub on the sentences' words repeated N times, for each N given "
        "(default 1; '--scale 1 100' shows both sizes)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the think times")
    parser.add_argument(
        "--server-times",
        action="store_true",
        help="lexsub's gunicorn writes an access log with each request's time in its worker; "
        "the saves' p50/p95/p99 there are printed beside the clients' cycle times (the log "
        "costs the workers a little CPU)",
    )
    options = parser.parse_args(argv)
    if min(options.annotators, options.realistic_annotators) < 1 or options.duration <= 0:
        parser.error("annotators and --duration must be positive")
    if options.think <= 0:
        parser.error("--think must be positive")
    if min(options.scale) < 1:
        parser.error(f"--scale {min(options.scale)} must be at least 1")
    options.versions = [f"SQLite {sqlite3.sqlite_version}"]
    return options


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(sys.argv[1:] if argv is None else argv)
    if not live_server.gunicorn_available():
        raise SystemExit("load_bench: needs gunicorn (pip install -r requirements-dev.txt)")
    paces = [
        pace
        for pace in (
            Pace("flat", options.annotators, 0.0),
            Pace("realistic", options.realistic_annotators, options.think),
        )
        if options.pace in (pace.name, "both")
    ]
    python = potato_python(options.potato_venv.resolve()) if options.peer == "potato" else None
    load_before = machine.load_average()
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="load_bench-") as scratch, databases(options) as chosen:
        sizes = [
            (factor, scaled(options.sentences, factor, Path(scratch))) for factor in options.scale
        ]
        counted = [
            (factor, path.name, count_sentences(path)) for factor, path in sizes if factor != 1
        ]
        for pace in paces:
            if python is not None:
                folder = Path(scratch, f"potato-{pace.name}")
                folder.mkdir()
                results.append(run_potato(python, folder, pace, options))
            for factor, sentences in sizes:
                for store, url in chosen:
                    folder = Path(scratch, f"{store}-{pace.name}-x{factor}")
                    folder.mkdir()
                    url = url or f"sqlite:///{folder / 'bench.sqlite'}"
                    label = store if factor == 1 else f"{store} x{factor}"
                    results.append(run_lexsub(label, url, folder, pace, options, sentences))
    load_after = machine.load_average()

    print("load_bench: save-and-next under load, lexsub" + (" and Potato" if python else ""))
    for name, value in machine_facts():
        print(f"  {name:<9} {value}")
    print(
        f"  load      1/5/15-min averages {load_before} before, {load_after} after (shared machine)"
    )
    print(
        f"  lexsub    wsgi:app under gunicorn {metadata.version('gunicorn')}, {options.workers} "
        f"{options.worker_class} workers"
        + (f" x {options.threads} threads" if options.worker_class == "gthread" else "")
        + "; saves by "
        + ("the plain form (POST, redirect, GET)" if options.no_fetch else "fetch (JSON)")
        + f"; {', '.join(options.versions)}"
    )
    if python is not None:
        print(
            f"  Potato    potato-annotation {POTATO_VERSION} ({python}), gunicorn 1 worker x "
            f"{POTATO_THREADS} threads (its Docker entry point); its own file store"
        )
    print(
        "  clients   asyncio + bench/raw_http.py in one process on the same machine; "
        f"{options.duration:.0f} s a run; flat out {options.annotators} annotators, realistic "
        f"{options.realistic_annotators} thinking {options.think:g} s on average (exponential)"
    )
    print(
        f"  sentences {options.sentences}"
        + "".join(
            f"; x{factor} for lexsub ('SQLite x{factor}'): {name}, {count:,}"
            for factor, name, count in counted
        )
    )
    print()
    print(
        "| server | store | pace | annotators | saves/s | p50 ms | p95 ms | p99 ms | errors "
        "| acknowledged | found stored | lost | server CPU cores / ms a save "
        "| PostgreSQL CPU cores / ms a save | client CPU ms a save |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(r.row())
    print()
    for line in comparisons(results):
        print(line)
    for r in results:
        if r.server_times:
            p50, p95, p99 = cycle_percentiles(r.server_times)
            print(
                f"{r.server} on {r.store}, {r.pace}: a save's time in a gunicorn worker "
                f"(--server-times, {len(r.server_times):,} saves) p50 {p50:.1f} ms, "
                f"p95 {p95:.1f} ms, p99 {p99:.1f} ms"
            )
    failed = False
    for r in results:
        notes = [*r.count.lost, *r.count.anomalies, *r.unexpected]
        if r.ran_out:
            notes.append(f"{r.ran_out} annotators ran out of sentences")
        print(
            f"{r.server} on {r.store}, {r.pace}: {r.connection_errors} connection errors, "
            f"{r.server_errors} 5xx, {len(r.unexpected)} other; {r.count.summary()}"
        )
        for line in notes[:10]:
            print(f"  {line}")
        failed |= not r.clean
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
