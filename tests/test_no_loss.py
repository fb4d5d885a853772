"""Every save is in the history and the last one is current, whatever the timing."""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.conftest import assign, login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def _instances(app: Flask) -> list[int]:
    from annotate.extensions import db
    from annotate.models import Instance

    with app.app_context():
        return list(db.session.scalars(select(Instance.id).order_by(Instance.position)))


def _history(app: Flask) -> tuple[int, list[tuple[int, list[str]]]]:
    from annotate.extensions import db
    from annotate.models import Response, Revision

    with app.app_context():
        revisions = db.session.scalar(select(func.count(Revision.id))) or 0
        current = [
            (r.instance_id, r.substitutes)
            for r in db.session.scalars(select(Response).order_by(Response.instance_id))
        ]
    return revisions, current


def test_double_submit_keeps_both_saves(app: Flask, client: FlaskClient, dataset: int) -> None:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    first = _instances(app)[0]
    for _ in range(2):
        assert client.post(f"/annotate/{first}", data={"sub1": "clever"}).status_code == 302
    assert _history(app) == (2, [(first, ["clever"])])


def test_two_tabs_last_save_wins_both_kept(app: Flask, dataset: int) -> None:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    tab1, tab2 = app.test_client(), app.test_client()
    login(tab1, "ann")
    login(tab2, "ann")
    first = _instances(app)[0]
    tab1.get(f"/annotate/{first}")
    tab2.get(f"/annotate/{first}")
    tab1.post(f"/annotate/{first}", data={"sub1": "clever"})
    tab2.post(f"/annotate/{first}", data={"sub1": "smart"})
    assert _history(app) == (2, [(first, ["smart"])])


def test_twenty_threads_saving_at_once(app: Flask, dataset: int) -> None:
    """20 threads, one annotator, the 3 sentences saved over and over concurrently."""
    make_user(app, "ann")
    assign(app, "ann", dataset)
    ids = _instances(app)
    errors: list[BaseException] = []
    barrier = threading.Barrier(20)

    def worker(index: int) -> None:
        try:
            client = app.test_client()
            login(client, "ann")
            barrier.wait()
            response = client.post(f"/annotate/{ids[index % 3]}", data={"sub1": f"w{index}"})
            assert response.status_code == 302
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    revisions, current = _history(app)
    assert revisions == 20
    assert [instance for instance, _ in current] == ids
    from annotate.extensions import db
    from annotate.models import Revision

    with app.app_context():  # the current answer is the last revision of each sentence
        for instance, substitutes in current:
            last = db.session.scalar(
                select(Revision)
                .where(Revision.instance_id == instance)
                .order_by(Revision.id.desc())
                .limit(1)
            )
            assert last is not None and last.substitutes == substitutes


def test_forty_concurrent_saves_are_forty_in_the_counter(app: Flask, dataset: int) -> None:
    """8 threads save one sentence 5 times each. The counter is raised by
    the database (UPDATE … SET saves = saves + 1), so no save is lost from it (a
    read-modify-write counted 27-33 of 40)."""
    from annotate.extensions import db
    from annotate.models import Response

    make_user(app, "ann")
    assign(app, "ann", dataset)
    first = _instances(app)[0]
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def worker(index: int) -> None:
        try:
            client = app.test_client()
            login(client, "ann")
            barrier.wait()
            for save in range(5):
                word = ("clever", "smart", "brilliant", "intelligent", "gifted")[save]
                response = client.post(f"/annotate/{first}", data={"sub1": word})
                assert response.status_code == 302, response.status_code
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    revisions, _ = _history(app)
    assert revisions == 40
    with app.app_context():
        assert list(db.session.scalars(select(Response.saves))) == [40]


def test_the_counter_counts_each_save(app: Flask, client: FlaskClient, dataset: int) -> None:
    from annotate.extensions import db
    from annotate.models import Response

    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    first, second = _instances(app)[:2]
    for count in (1, 2, 3):
        client.post(f"/annotate/{first}", data={"sub1": "clever"})
        with app.app_context():
            assert (
                db.session.scalar(select(Response.saves).where(Response.instance_id == first))
                == count
            )
    client.post(f"/annotate/{second}", data={"sub1": "light"})
    with app.app_context():
        assert db.session.scalar(select(Response.saves).where(Response.instance_id == second)) == 1
