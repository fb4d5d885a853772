"""Datasets under real concurrent clients: threads of small browsers (tests/live_clients.py),
each from its own loopback address, against the app under gunicorn with three worker
processes of four threads (tests/live_server.py), on SQLite and on PostgreSQL.

- Annotators saving in a loop while an organiser deletes their dataset: each save is
  stored and acknowledged, or answered with a page that says the dataset was deleted;
  never a 500. The deletion leaves its audit line; another dataset's answers stay.
- One import form sent several times at once (same file, same name): one dataset; one
  answer says imported, the others "already imported".
- Several datasets renamed to one new name at once: one is renamed, the others are told
  the name is taken.

The server's log is read afterwards: no traceback.
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from annotate.models import Dataset, DatasetDeletion, Instance, Response, Revision, User
from annotate.settings import database_url as driver_url
from tests import live_server
from tests.conftest import database_url
from tests.live_clients import (
    FINISHED,
    ORGANISER,
    PASSWORD,
    Annotator,
    Browser,
    Page,
    at_once,
    client_address,
    count_answers,
    create_annotators,
    log_in,
)
from tests.live_server import ROOT, Server, instance_order, lexsub

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

DEMO_XML = ROOT / "annotate" / "demo" / "demo.xml"  # 30 sentences
GONE = "This sentence's dataset was deleted by an organiser while you were answering"
NOT_THERE = "There is no such sentence to save your answer to (nothing was saved)"


@contextmanager
def _served(tmp_path: Path, *imported: str) -> Iterator[tuple[Server, str]]:
    """The demo (``lexsub demo``) and ``imported`` datasets (``lexsub import`` of the demo
    file under these names), served by gunicorn: 3 workers x 4 threads. On leaving, the
    server's log holds no traceback."""
    if not live_server.gunicorn_available():
        pytest.skip(
            "the live tests serve the app with gunicorn: pip install -r requirements-dev.txt"
        )
    url = database_url(tmp_path)
    environment = live_server.prepare_database(url)
    for name in imported:
        lexsub(environment, "import", str(DEMO_XML), "--dataset", name)
    with Server(environment, tmp_path, workers=3, worker_class="gthread", threads=4) as server:
        yield server, url
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-4000:]
    assert " 500 " not in log and "Internal Server Error" not in log, log[-4000:]


def _query(url: str, statement: Any) -> list[tuple[Any, ...]]:
    """The rows of one SELECT on the server's database, from this process."""
    engine = create_engine(driver_url(url))
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(statement)]
    finally:
        engine.dispose()


def _organiser(port: int, index: int) -> Browser:
    """The demo organiser logged in from a loopback address of its own."""
    browser = Browser(port, client_address(200 + index), timeout=60.0)
    log_in(browser, *ORGANISER)
    return browser


def _at_once(calls: list[Callable[[], Page]]) -> list[Page]:
    """:func:`tests.live_clients.at_once`, an error raised here after every thread ended."""
    results = at_once(calls)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert not errors, errors
    return [r for r in results if isinstance(r, Page)]


def _dataset_id(url: str, name: str) -> int:
    (row,) = _query(url, select(Dataset.id).where(Dataset.name == name))
    return int(row[0])


# -- saving while the dataset is deleted --------------------------------------------------


@dataclass
class Saver:
    """An annotator of the dataset being deleted: Save pressed on one sentence after the
    other, each time the next sentence's page opened (its form and CSRF token), as fast
    as the server answers, until a save is told the sentence is no longer there. Once
    the deletion is done the next sentence's page may be gone too (404): the form still
    open in the browser is sent."""

    port: int
    username: str
    address: str
    order: list[int]
    answers: list[tuple[int, str, Page]] = field(default_factory=list)  # (sentence, typed, page)
    shown: Counter[int] = field(default_factory=Counter)  # statuses of the pages after a save
    crash: BaseException | None = None

    def run(self, deleted: threading.Event) -> None:
        try:
            self._run(deleted)
        except BaseException as error:  # reported by the test
            self.crash = error

    def _run(self, deleted: threading.Event) -> None:
        browser = Browser(self.port, self.address, timeout=60.0)
        log_in(browser, self.username, PASSWORD)
        form = browser.request("GET", f"/annotate/{self.order[0]}").form("answer")
        after = 0  # saves sent once the deletion was answered
        for count in range(10_000):
            instance = self.order[count % len(self.order)]
            typed = f"{self.username}-{count}"
            page = browser.request("POST", f"/annotate/{instance}", {**form, "sub1": typed})
            self.answers.append((instance, typed, page))
            if page.status != 302:
                return  # told the sentence is gone: nothing more to save
            shown = browser.request("GET", page.target)  # the next sentence (and "Saved.")
            self.shown[shown.status] += 1
            if shown.status == 200 and shown.has_form("answer"):
                form = shown.form("answer")
            elif shown.status == 200:  # past the last sentence: round again, same form
                assert re.fullmatch(FINISHED, page.target), shown.describe()
            elif shown.status != 404 or "No such page." not in shown.text:
                raise AssertionError(f"after a save: {shown.describe()}")
            after += deleted.is_set()
            if after > 50:
                return  # still "saved" long after the deletion: the test says so


def test_saves_while_their_dataset_is_deleted_get_a_clear_page(tmp_path: Path) -> None:
    with _served(tmp_path, "kept") as (server, url):
        doomed = [f"doomed{i}" for i in range(6)]
        keeping = [f"keeper{i}" for i in range(3)]
        create_annotators(server.port, doomed, dataset="demo")
        create_annotators(server.port, keeping, dataset="kept")
        demo_id = _dataset_id(url, "demo")
        kept_order = instance_order(url, "kept")
        deleted = threading.Event()
        stop = threading.Event()
        savers = [
            Saver(server.port, name, client_address(i), instance_order(url, "demo"))
            for i, name in enumerate(doomed)
        ]
        keepers = [
            Annotator(server.port, name, client_address(50 + i), kept_order)
            for i, name in enumerate(keeping)
        ]
        for keeper in keepers:
            keeper.log_in()
        organiser = _organiser(server.port, 0)
        confirm = organiser.request("GET", f"/organiser/datasets/{demo_id}/delete").form(
            having="name"
        )
        threads = [threading.Thread(target=s.run, args=(deleted,)) for s in savers]
        threads += [threading.Thread(target=k.run, args=(stop,)) for k in keepers]
        for thread in threads:
            thread.start()
        until = time.monotonic() + 60
        while any(len(s.answers) < 5 for s in savers) and time.monotonic() < until:
            time.sleep(0.02)  # every doomed annotator is saving
        gone = organiser.request(
            "POST", f"/organiser/datasets/{demo_id}/delete", {**confirm, "name": "demo"}
        )
        deleted.set()
        for thread in threads[: len(savers)]:
            thread.join(timeout=120)
        stop.set()
        for thread in threads[len(savers) :]:
            thread.join(timeout=120)

        assert gone.status == 302 and gone.target == "/organiser/datasets", gone.describe()
        crashes = [repr(s.crash)[:2000] for s in savers + keepers if s.crash is not None]
        assert not crashes, crashes
        outcome: Counter[str] = Counter()
        acknowledged: set[tuple[str, int]] = set()
        for saver in savers:
            *saved, (_, _, last) = saver.answers
            for instance, _, page in saved:  # every save before the last one was stored
                assert page.status == 302 and (
                    page.target.startswith("/annotate/") or re.fullmatch(FINISHED, page.target)
                ), page.describe()
                acknowledged.add((saver.username, instance))
            # the last one was told, plainly, that there is nothing to save to
            text = html.unescape(last.text)
            if last.status == 410:
                assert GONE in text, last.describe()
            else:
                assert last.status == 404 and NOT_THERE in text, last.describe()
            outcome[str(last.status)] += 1
            outcome["saved"] += len(saved)
        shown = sum((s.shown for s in savers), Counter[int]())
        print(f"\nsaves on {url.split(':')[0]}: {dict(outcome)}; pages after them: {dict(shown)}")
        assert outcome["410"] + outcome["404"] == len(savers)

        # the audit line: the dataset, who, its 30 sentences, every answer stored before
        audit = _query(
            url,
            select(
                DatasetDeletion.dataset_name,
                DatasetDeletion.deleted_by,
                DatasetDeletion.sentences,
                DatasetDeletion.answers,
            ),
        )
        assert audit == [("demo", ORGANISER[0], 30, len(acknowledged))]
        names = [name for (name,) in _query(url, select(Dataset.name))]
        assert names == ["kept"]
        # nothing of the doomed annotators' answers is left, nothing else was touched
        doomed_ids = select(User.id).where(User.username.in_(doomed))
        assert _query(
            url, select(func.count(Response.id)).where(Response.user_id.in_(doomed_ids))
        ) == [(0,)]
        count = count_answers(url, [save for keeper in keepers for save in keeper.saves])
        assert (count.lost, count.anomalies, count.unacknowledged) == ((), (), 0), count.summary()
        assert count.acknowledged == count.in_history == count.revisions > 0, count.summary()
        assert [k.unexpected for k in keepers] == [[]] * len(keepers)
        assert sum(k.server_errors + k.connection_errors for k in keepers) == 0
        kept_answers = _query(
            url,
            select(func.count(Revision.id))
            .join(Instance)
            .where(Instance.dataset_id == _dataset_id(url, "kept")),
        )
        assert kept_answers == [(count.revisions,)]


# -- one import sent several times at once ------------------------------------------------


def test_an_import_sent_several_times_at_once_makes_one_dataset(tmp_path: Path) -> None:
    data = DEMO_XML.read_bytes()
    times, rounds = 6, 3  # six tabs send the form at once; three times, three names
    with _served(tmp_path) as (server, url):
        organisers = [_organiser(server.port, i) for i in range(times)]
        for round_ in range(rounds):
            name = f"twice-{round_}"
            forms = [
                o.request("GET", "/organiser/datasets").form(having="csrf_token")
                for o in organisers
            ]
            pages = _at_once(
                [
                    lambda o=o, sent={**f, "name": name, "format": "", "language": ""}: o.request(  # type: ignore[misc]
                        "POST", "/organiser/datasets", sent, {"file": ("demo.xml", data)}
                    )
                    for o, f in zip(organisers, forms, strict=True)
                ]
            )
            assert Counter(p.status for p in pages) == Counter({200: times}), [
                p.describe() for p in pages
            ]
            said = Counter(
                re.sub(r"\s+", " ", found.group(0))
                if (found := re.search(r"<p>(Imported|Already imported)[^<]*</p>", p.text))
                else p.describe()
                for p in pages
            )
            assert said == Counter(
                {
                    f"<p>Imported 30 sentences as {name}; 0 repairs.</p>": 1,
                    f"<p>Already imported (unchanged): 30 sentences as {name}; 0 repairs.</p>": (
                        times - 1
                    ),
                }
            ), said
        assert _query(url, select(Dataset.name, Dataset.sentences).order_by(Dataset.id)) == [
            ("demo", 30),
            *((f"twice-{r}", 30) for r in range(rounds)),
        ]
        assert _query(url, select(func.count(Instance.id))) == [(30 * (1 + rounds),)]


# -- renames to one name at once ----------------------------------------------------------


def test_renames_to_one_name_at_once_rename_one(tmp_path: Path) -> None:
    count, rounds = 4, 3  # four datasets renamed to one name at once; three times
    with _served(tmp_path, *(f"study-{i}" for i in range(count))) as (server, url):
        organisers = [_organiser(server.port, i) for i in range(count)]
        names = {_dataset_id(url, f"study-{i}"): f"study-{i}" for i in range(count)}
        ids = sorted(names)
        for round_ in range(rounds):
            new = f"final-{round_}"
            forms = [
                o.request("GET", f"/organiser/datasets/{i}/settings").form(having="csrf_token")
                for o, i in zip(organisers, ids, strict=True)
            ]
            pages = _at_once(
                [
                    lambda o=o,
                    i=i,
                    sent={  # type: ignore[misc]
                        "csrf_token": f["csrf_token"],
                        "action": "rename",
                        "name": new,
                    }: o.request("POST", f"/organiser/datasets/{i}/settings", sent)
                    for o, f, i in zip(organisers, forms, ids, strict=True)
                ]
            )
            assert [(p.status, p.target) for p in pages] == [
                (302, f"/organiser/datasets/{i}/settings") for i in ids
            ], [p.describe() for p in pages]
            told = {
                i: html.unescape(re.sub(r"\s+", " ", o.request("GET", p.target).text))
                for o, p, i in zip(organisers, pages, ids, strict=True)
            }
            renamed = [i for i in ids if f"Dataset {names[i]} is now named {new}." in told[i]]
            refused = [
                i for i in ids if f"Not renamed: a dataset is named '{new}' already" in told[i]
            ]
            assert len(renamed) == 1 and sorted(renamed + refused) == ids, told
            names[renamed[0]] = new
            stored = dict(_query(url, select(Dataset.id, Dataset.name).where(Dataset.id.in_(ids))))
            assert stored == names
