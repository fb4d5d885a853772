"""A crowd study's counts held under real concurrent clients: threads of small browsers
(tests/live_clients.py), each from its own loopback address, against the app under
gunicorn with three worker processes (tests/live_server.py), on SQLite and on PostgreSQL.

- The participant cap holds: arrivals at once are admitted one after the other.
- One participant id arriving several times at once gets one account and one batch,
  never a 5xx or "exists already".
- Comprehension answers sent at once are counted one after the other: one ``retry``, then
  screened out, whatever the number sent.
- Made-up ids of the wrong format are refused, and the accounts one address makes are
  limited (``ADMISSION_LIMIT``), counted in Redis.
"""

from __future__ import annotations

import os
import secrets
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from annotate import create_app
from annotate.extensions import db
from annotate.models import Assignment, Dataset, DatasetMember, User
from annotate.services.study import open_study, set_design, set_study_rules
from tests import live_server
from tests.conftest import TEST_CONFIG, database_url
from tests.live_clients import Browser, Page, at_once, client_address
from tests.live_server import Server

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

REDIS = os.environ.get("LEXSUB_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
QUESTIONS = "Which box is for a proper name?\n* the Proper name tick\n- the first box\n"


def prolific_id(index: int) -> str:
    """A well-formed Prolific id (24 hexadecimal characters), one for each index."""
    return f"{index:024x}"


@dataclass
class Study:
    server: Server
    url: str
    token: str

    def link(self, participant_id: str) -> str:
        return f"/study/{self.token}?PROLIFIC_PID={participant_id}"


def _with_app(url: str, change: Callable[[Any], Any]) -> Any:
    """``change(demo dataset)`` in an app of this process on the server's database."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        demo = db.session.scalar(select(Dataset).where(Dataset.name == "demo"))
        try:
            return change(demo)
        finally:
            db.session.remove()
            db.engine.dispose()


@contextmanager
def _study(tmp_path: Path, setup: Callable[[Any], None], **env: str) -> Iterator[Study]:
    if not live_server.gunicorn_available():
        pytest.skip(
            "the live tests serve the app with gunicorn: pip install -r requirements-dev.txt"
        )
    url = database_url(tmp_path)
    environment = {**live_server.prepare_database(url), **env}

    def opened(demo: Any) -> str:
        setup(demo)
        demo.screenout_code = "SCREEN-1"
        return open_study(demo, "DONE-1", "prolific")

    token = _with_app(url, opened)
    with Server(environment, tmp_path, workers=3, worker_class="gthread", threads=4) as server:
        yield Study(server, url, token)


def _statuses(results: list[Page | BaseException]) -> Counter[int | str]:
    return Counter(r.status if isinstance(r, Page) else repr(r) for r in results)


def _get(study: Study, address: str, path: str) -> Callable[[], Page]:
    return lambda: Browser(study.server.port, address).request("GET", path)


def test_the_participant_cap_holds_under_arrivalsat_once(tmp_path: Path) -> None:
    def capped(demo: Any) -> None:
        set_study_rules(demo, 30, 3, "SCREEN-1")

    with _study(tmp_path, capped) as study:
        for attempt in range(2):  # two races, 12 arrivals each
            ids = [prolific_id(100 * attempt + i) for i in range(12)]
            results = at_once(
                [
                    _get(study, client_address(12 * attempt + i), study.link(p))
                    for i, p in enumerate(ids)
                ]
            )
            statuses = _statuses(results)
            admitted = 3 if attempt == 0 else 0
            assert statuses == Counter({302: admitted, 409: 12 - admitted}), (
                statuses,
                study.server.log_tail(),
            )
        members = _with_app(
            study.url,
            lambda demo: db.session.scalar(
                select(func.count(DatasetMember.id))
                .join(User, User.id == DatasetMember.user_id)
                .where(DatasetMember.dataset_id == demo.id, User.study_id == demo.id)
            ),
        )
        assert members == 3


def test_one_id_arriving_at_once_gets_one_account_and_one_batch(tmp_path: Path) -> None:
    def overlap(demo: Any) -> None:
        set_design(demo, "overlap", 1, 5)

    with _study(tmp_path, overlap) as study:
        same = prolific_id(7)
        results = at_once([_get(study, client_address(i), study.link(same)) for i in range(8)])
        assert _statuses(results) == Counter({302: 8}), (results, study.server.log_tail())
        assert {r.target for r in results if isinstance(r, Page)} == {
            r.target for r in results[:1] if isinstance(r, Page)
        }

        def accounts(demo: Any) -> tuple[int, list[int]]:
            users = list(db.session.scalars(select(User.id).where(User.participant_id == same)))
            batch = list(
                db.session.scalars(
                    select(Assignment.instance_id)
                    .where(Assignment.user_id.in_(users))
                    .order_by(Assignment.instance_id)
                )
            )
            return len(users), batch

        count, batch = _with_app(study.url, accounts)
        assert count == 1
        assert len(batch) == len(set(batch)) >= 5  # one batch of whole words, given once
        # the same id again, later, from a new tab: the same batch
        assert (
            Browser(study.server.port, client_address(20)).request("GET", study.link(same)).status
            == 302
        )
        assert _with_app(study.url, accounts) == (1, batch)


def test_comprehension_answers_sent_at_once_are_counted_one_by_one(tmp_path: Path) -> None:
    def questions(demo: Any) -> None:
        demo.comprehension = QUESTIONS

    with _study(tmp_path, questions) as study:
        tab = Browser(study.server.port, client_address(0))
        admitted = tab.request("GET", study.link(prolific_id(1)))
        assert admitted.status == 302
        start = tab.request("GET", admitted.target).target  # the onboarding page
        form = tab.request("GET", start).form("onboarding")
        wrong = {**form, "q0": "1"}
        tabs = []
        for _ in range(6):  # the same session in six tabs
            other = Browser(study.server.port, client_address(0))
            other.cookies = dict(tab.cookies)
            tabs.append(other)
        results = at_once(
            [lambda b=b: b.request("POST", start, wrong) for b in tabs]  # type: ignore[misc]
        )
        statuses = _statuses(results)
        # one attempt is told to retry (422), the others find the participant screened out
        assert statuses == Counter({422: 1, 200: 5}), (statuses, study.server.log_tail())
        screened = [r for r in results if isinstance(r, Page) and r.status == 200]
        assert all('id="screened-out"' in r.text for r in screened)

        def failures(demo: Any) -> tuple[int, bool]:
            user = db.session.scalar(select(User).where(User.participant_id == prolific_id(1)))
            assert user is not None
            return user.comprehension_failures, user.screened_out_at is not None

        assert _with_app(study.url, failures) == (2, True)


def test_made_up_ids_are_refused_and_admissions_are_limited_per_address(
    tmp_path: Path,
) -> None:
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except Exception as error:
        pytest.skip(f"the admission limit's live test counts in Redis ({REDIS}): {error}")
    env = {
        "LEXSUB_LIMITER_STORAGE": REDIS,
        "LEXSUB_LIMITER_PREFIX": f"crowd-{secrets.token_hex(6)}",
        "LEXSUB_ADMISSION_LIMIT": "4 per hour",
    }
    with _study(tmp_path, lambda demo: None, **env) as study:
        # made-up ids of another shape: refused, nothing made
        forged = ["p1", "x" * 24, prolific_id(1)[:-1], "worker-7"]
        results = at_once(
            [_get(study, client_address(i), study.link(p)) for i, p in enumerate(forged)]
        )
        assert _statuses(results) == Counter({400: 4}), results
        # well-formed ids from one address at once: 4 accounts, the rest refused (429)
        address = client_address(50)
        ids = [prolific_id(200 + i) for i in range(10)]
        results = at_once([_get(study, address, study.link(p)) for p in ids])
        assert _statuses(results) == Counter({302: 4, 429: 6}), (results, study.server.log_tail())
        admitted = [
            p for p, r in zip(ids, results, strict=True) if isinstance(r, Page) and r.status == 302
        ]
        # a participant admitted comes back from that address: not an admission
        back = Browser(study.server.port, address).request("GET", study.link(admitted[0]))
        assert back.status == 302
        # another address is counted apart
        assert (
            Browser(study.server.port, client_address(51))
            .request("GET", study.link(prolific_id(300)))
            .status
            == 302
        )
        accounts = _with_app(
            study.url,
            lambda demo: db.session.scalar(
                select(func.count(User.id)).where(User.study_id == demo.id)
            ),
        )
        assert accounts == 5
