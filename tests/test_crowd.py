"""Crowd participants through the real app: one account per study, batches that go back
to the pool, a cap on participants, completion and screen-out codes, the platforms' URL
templates, and the migration that splits accounts shared by several studies."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, text

from annotate.extensions import db
from annotate.importer import parse_lexsub_xml
from annotate.models import Assignment, Dataset, DatasetMember, Instance, Response, User
from annotate.models import now as utc_now
from annotate.services.datasets import import_dataset
from annotate.services.study import (
    members,
    open_study,
    release_expired,
    set_design,
    set_study_rules,
)
from tests.conftest import OTHER_XML, SMALL_XML, WORDS_XML, join, login, make_user, save
from tests.conftest import assign as assign_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


PID = "60a1b2c3d4e5f6a7b8c9d0e1"


def _import(app: Flask, data: bytes, name: str) -> int:
    with app.app_context():
        return import_dataset(
            parse_lexsub_xml(data, f"{name}.xml"), name, f"{name}.xml", data
        ).dataset.id


def _ids(app: Flask, dataset_id: int) -> list[int]:
    with app.app_context():
        return list(
            db.session.scalars(
                select(Instance.id)
                .where(Instance.dataset_id == dataset_id)
                .order_by(Instance.position)
            )
        )


def _open(app: Flask, dataset_id: int, code: str) -> str:
    with app.app_context():
        return open_study(db.get_or_404(Dataset, dataset_id), code)


def _accounts(app: Flask, participant_id: str) -> list[tuple[str, int | None]]:
    """(username, study) of every account of ``participant_id``, by username."""
    with app.app_context():
        return [
            (name, study)
            for name, study in db.session.execute(
                select(User.username, User.study_id)
                .where(User.participant_id == participant_id)
                .order_by(User.username)
            )
        ]


def _answers(app: Flask, dataset_id: int) -> list[tuple[str, list[str]]]:
    """(username, substitutes) of every answer in the dataset, in sentence order."""
    with app.app_context():
        return [
            (name, list(subs))
            for name, subs in db.session.execute(
                select(User.username, Response.substitutes)
                .join(User, User.id == Response.user_id)
                .join(Instance, Instance.id == Response.instance_id)
                .where(Instance.dataset_id == dataset_id)
                .order_by(Instance.position, User.username)
            )
        ]


# --- one account per study -------------------------------------------------------------


def test_one_participant_id_is_one_account_per_study(app: Flask, client: FlaskClient) -> None:
    a = _import(app, SMALL_XML, "a")
    b = _import(app, OTHER_XML, "b")
    token_a, token_b = _open(app, a, "CODE-A"), _open(app, b, "CODE-B")
    ids_a, ids_b = _ids(app, a), _ids(app, b)

    assert join(client, f"/study/{token_a}?PROLIFIC_PID={PID}") == 302
    for instance_id in ids_a:
        assert save(client, instance_id, {"sub1": "clever"}) == 302
    assert ">CODE-A<" in client.get(f"/annotate/dataset/{a}/done").get_data(as_text=True)

    # B's link with the same id: another account, which opens nothing of A's
    assert join(client, f"/study/{token_b}?PROLIFIC_PID={PID}") == 302
    assert _accounts(app, PID) == [(f"p{a}-{PID}", a), (f"p{b}-{PID}", b)]
    assert client.get(f"/annotate/dataset/{a}/done").status_code == 404
    assert client.get(f"/annotate/dataset/{a}").status_code == 404
    # a sentence of A: not shown, not saved (the participant is sent to their own study)
    response = client.get(f"/annotate/{ids_a[0]}")
    assert response.headers["Location"] == f"/annotate/dataset/{b}"
    response = client.post(f"/annotate/{ids_a[0]}", data={"sub1": "hacked"})
    assert response.headers["Location"] == f"/annotate/dataset/{b}"
    home = client.get("/").get_data(as_text=True)
    assert "CODE-A" not in home and f"/annotate/dataset/{a}" not in home
    for instance_id in ids_b:
        assert save(client, instance_id, {"sub1": "light"}) == 302
    page = client.get(f"/annotate/dataset/{b}/done").get_data(as_text=True)
    assert ">CODE-B<" in page and "CODE-A" not in page
    assert _answers(app, a) == [(f"p{a}-{PID}", ["clever"])] * 3
    assert _answers(app, b) == [(f"p{b}-{PID}", ["light"])] * 3

    # a closed study's link opens nothing, not even for the id that was in it
    with app.app_context():
        db.get_or_404(Dataset, a).study_token = None
        db.session.commit()
    client.post("/logout")
    assert client.get(f"/study/{token_a}?PROLIFIC_PID={PID}").status_code == 404
    assert client.get(f"/annotate/dataset/{a}/done").status_code == 302  # to the log-in
    assert _accounts(app, PID) == [(f"p{a}-{PID}", a), (f"p{b}-{PID}", b)]


def test_the_completion_code_waits_for_the_whole_batch_and_is_never_cached(
    app: Flask, client: FlaskClient
) -> None:
    small = _import(app, SMALL_XML, "small")
    other = _import(app, OTHER_XML, "other")
    token = _open(app, small, "C0DE-42")
    first, second, third = _ids(app, small)
    response = client.get(f"/study/{token}")  # the form, logged out: not cached either
    assert response.headers["Cache-Control"] == "no-store"
    response = client.get(f"/study/{token}?workerId=A1B2C3")
    assert response.status_code == 302 and response.headers["Cache-Control"] == "no-store"
    assert join(client, f"/study/{token}?workerId=A1B2C3") == 302  # and Start
    assert save(client, first, {"sub1": "clever"}) == 302
    assert save(client, third, {"sub1": "bear"}) == 302
    response = client.get(f"/annotate/dataset/{small}/done")  # one missing: back to it
    assert response.headers["Location"] == f"/annotate/{second}"
    assert save(client, second, {"sub1": "light"}) == 302
    response = client.get(f"/annotate/dataset/{small}/done")
    assert response.headers["Cache-Control"] == "no-store"
    assert 'id="completion-code">C0DE-42<' in response.get_data(as_text=True)
    # the same account made a member of another dataset by the organiser: no code there
    assign_user(app, f"p{small}-A1B2C3", other)
    for instance_id in _ids(app, other):
        assert save(client, instance_id, {"sub1": "word"}) == 302
    page = client.get(f"/annotate/dataset/{other}/done").get_data(as_text=True)
    assert "other: finished" in page and "completion code" not in page


# --- batches that cannot be hoarded, a cap, no account for the refused ---------------------


def _words_study(app: Flask, per_sentence: int = 1) -> tuple[int, str]:
    words = _import(app, WORDS_XML, "words")
    with app.app_context():
        set_design(db.get_or_404(Dataset, words), "overlap", per_sentence, 3)
    return words, _open(app, words, "DONE-1")


def _age(app: Flask, dataset_id: int, minutes: int, username: str | None = None) -> None:
    """Move the dataset's assignments and answers (of ``username``, if given) back in
    time by ``minutes``: as if that long had passed since. (Row by row, in Python: SQLite
    has no arithmetic on the times it keeps as text.)"""
    back = timedelta(minutes=minutes)
    with app.app_context():
        given = select(Assignment).where(Assignment.dataset_id == dataset_id)
        saved = (
            select(Response)
            .join(Instance, Instance.id == Response.instance_id)
            .where(Instance.dataset_id == dataset_id)
        )
        if username is not None:
            user_id = db.session.scalar(select(User.id).where(User.username == username))
            given = given.where(Assignment.user_id == user_id)
            saved = saved.where(Response.user_id == user_id)
        for row in db.session.scalars(given):
            row.assigned_at -= back
        for answer in db.session.scalars(saved):
            answer.updated_at -= back
        db.session.commit()


def _members(app: Flask, dataset_id: int) -> list[str]:
    with app.app_context():
        return [user.username for user in members(db.get_or_404(Dataset, dataset_id))]


def _users(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(User.id))) or 0


def test_forged_ids_cannot_hold_a_study_once_their_batches_expire(app: Flask) -> None:
    words, token = _words_study(app)
    boss = app.test_client()
    make_user(app, "boss", "organiser")
    login(boss, "boss")
    response = boss.post(
        f"/organiser/datasets/{words}/members",
        data={"action": "study-rules", "release_minutes": "30", "screenout_code": "SCREEN-9"},
    )
    assert response.status_code == 302
    forged = {name: app.test_client() for name in ("f1", "f2", "f3")}
    for name, client in forged.items():
        assert join(client, f"/study/{token}?PROLIFIC_PID={name}") == 302
    # the three batches are taken: a real participant is refused, and gets no account
    users = _users(app)
    response = app.test_client().get(f"/study/{token}?PROLIFIC_PID=real1")
    assert response.status_code == 409 and b"has 1 annotators already" in response.data
    assert b"screen-out" not in response.data  # never started: no screen-out code
    assert _users(app) == users and _accounts(app, "real1") == []

    # f2 saves one answer; 29 minutes on, nothing is released yet
    f2_sentence = _ids(app, words)[3]  # the second batch: words b and c
    assert save(forged["f2"], f2_sentence, {"sub1": "kept"}) == 302
    _age(app, words, 29)
    assert app.test_client().get(f"/study/{token}?PROLIFIC_PID=real1").status_code == 409
    # 31 minutes on, f2 saved a minute ago: f1's and f3's batches go back to the pool
    _age(app, words, 2)
    _age(app, words, -29, f"p{words}-f2")
    real = {name: app.test_client() for name in ("real1", "real2", "real3")}
    assert real["real1"].get(f"/study/{token}?PROLIFIC_PID=real1").status_code == 302
    assert _members(app, words) == [f"p{words}-f2", f"p{words}-real1"]
    assert real["real2"].get(f"/study/{token}?PROLIFIC_PID=real2").status_code == 302
    assert real["real3"].get(f"/study/{token}?PROLIFIC_PID=real3").status_code == 409
    assert _accounts(app, "real3") == []
    with app.app_context():
        batches = {
            name: sorted(ids) for name, ids in _batches(db.get_or_404(Dataset, words)).items()
        }
    ids = _ids(app, words)
    assert batches == {
        f"p{words}-f2": ids[3:6],
        f"p{words}-real1": ids[0:3],
        f"p{words}-real2": ids[6:8],
    }
    # f1 comes back: by the link, or in the session it still has: the study is full,
    # and f1 started, so the screen-out code; its account stays, and f2's answer
    for response in (
        app.test_client().get(f"/study/{token}?PROLIFIC_PID=f1"),
        forged["f1"].get(f"/annotate/{ids[0]}", follow_redirects=True),
    ):
        page = response.get_data(as_text=True)
        assert response.status_code == 409 and 'id="screenout-code">SCREEN-9<' in page
        assert "DONE-1" not in page and 'name="participant"' not in page
    assert _accounts(app, "f1") == [(f"p{words}-f1", words)]
    assert _answers(app, words) == [(f"p{words}-f2", ["kept"])]
    # f3's saves go nowhere: its sentence is real2's now
    response = forged["f3"].post(f"/annotate/{ids[6]}", data={"sub1": "late"})
    assert response.headers["Location"] == f"/annotate/dataset/{words}"
    assert _answers(app, words) == [(f"p{words}-f2", ["kept"])]


def _batches(dataset: Dataset) -> dict[str, list[int]]:
    rows = db.session.execute(
        select(User.username, Assignment.instance_id)
        .join(User, User.id == Assignment.user_id)
        .where(Assignment.dataset_id == dataset.id)
    )
    found: dict[str, list[int]] = {}
    for name, instance_id in rows:
        found.setdefault(name, []).append(instance_id)
    return found


def test_a_released_participant_gets_a_new_batch_when_one_is_free(app: Flask) -> None:
    words, token = _words_study(app)
    late = app.test_client()
    assert join(late, f"/study/{token}?PROLIFIC_PID=late") == 302
    _age(app, words, 31)
    assert app.test_client().get(f"/study/{token}?PROLIFIC_PID=next").status_code == 302
    assert _members(app, words) == [f"p{words}-next"]  # late's batch went to next
    ids = _ids(app, words)
    # late comes back in its session: a free batch (the second), not the first
    response = late.get(f"/annotate/{ids[0]}")
    assert response.headers["Location"] == f"/annotate/dataset/{words}"
    response = late.get(f"/annotate/dataset/{words}")
    assert response.headers["Location"] == f"/annotate/dataset/{words}"
    assert late.get(f"/annotate/dataset/{words}").headers["Location"] == f"/annotate/{ids[3]}"
    assert _members(app, words) == [f"p{words}-late", f"p{words}-next"]


def test_finished_batches_and_the_organisers_annotators_are_never_released(
    app: Flask,
) -> None:
    words, token = _words_study(app)
    make_user(app, "lab")
    assign_user(app, "lab", words)  # the first batch
    done = app.test_client()
    assert join(done, f"/study/{token}?PROLIFIC_PID=done") == 302  # the second
    for instance_id in _ids(app, words)[3:6]:
        assert save(done, instance_id, {"sub1": "x"}) == 302
    assert 'id="completion-code">DONE-1<' in done.get(f"/annotate/dataset/{words}/done").get_data(
        as_text=True
    )
    _age(app, words, 24 * 60)
    with app.app_context():
        dataset = db.get_or_404(Dataset, words)
        assert release_expired(dataset) == []
        set_study_rules(dataset, None, None, None)  # never release: nothing either way
        assert release_expired(dataset, utc_now() + timedelta(days=30)) == []
    assert _members(app, words) == ["lab", f"p{words}-done"]


def test_the_cap_counts_the_participants_in_the_study(app: Flask) -> None:
    small = _import(app, SMALL_XML, "small")
    token = _open(app, small, "CAP-1")
    with app.app_context():
        set_study_rules(db.get_or_404(Dataset, small), 30, 2, None)
    make_user(app, "lab")
    assign_user(app, "lab", small)  # not a participant: not counted
    for name in ("one", "two"):
        assert app.test_client().get(f"/study/{token}?participant={name}").status_code == 302
    response = app.test_client().get(f"/study/{token}?participant=three")
    assert response.status_code == 409 and b"has its 2 participants" in response.data
    assert _accounts(app, "three") == []
    # a returning participant is let in: they are one of the two
    assert app.test_client().get(f"/study/{token}?participant=one").status_code == 302
    # one leaves (the organiser unticks them): a place for the next
    with app.app_context():
        dataset = db.get_or_404(Dataset, small)
        one = db.session.scalar(select(User).where(User.username == f"p{small}-one"))
        assert one is not None
        db.session.execute(
            DatasetMember.__table__.delete().where(
                DatasetMember.user_id == one.id, DatasetMember.dataset_id == dataset.id
            )
        )
        db.session.commit()
    assert app.test_client().get(f"/study/{token}?participant=three").status_code == 302


# --- the organiser's page -----------------------------------------------------------------


def test_the_members_page_gives_each_platforms_whole_url_and_the_rules(
    app: Flask, client: FlaskClient
) -> None:
    small = _import(app, SMALL_XML, "small")
    make_user(app, "boss", "organiser")
    login(client, "boss")
    url = f"/organiser/datasets/{small}/members"
    assert "study-templates" not in client.get(url).get_data(as_text=True)
    token = _open(app, small, "C0DE")
    page = client.get(url).get_data(as_text=True)
    link = f"http://localhost/study/{token}"
    assert f'<code id="study-link">{link}</code>' in page
    assert (
        f'<code id="prolific-url">{link}?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}'
        "&amp;STUDY_ID={{%STUDY_ID%}}&amp;SESSION_ID={{%SESSION_ID%}}</code>"
    ) in page
    assert (
        f'<code id="mturk-url">{link}?assignmentId=ASSIGNMENT_ID&amp;hitId=HIT_ID'
        "&amp;turkSubmitTo=SUBMIT_URL&amp;workerId=WORKER_ID</code>"
    ) in page
    assert 'id="release_minutes" name="release_minutes" min="1" value="30"' in page
    # the Prolific URL as Prolific fills it in opens the study
    participant = app.test_client()
    response = participant.get(f"/study/{token}?PROLIFIC_PID={PID}&STUDY_ID=abc&SESSION_ID=def")
    assert response.headers["Location"] == f"/annotate/dataset/{small}"
    # the rules: saved, and refused with the value and the rule
    rules = {"action": "study-rules", "release_minutes": "45", "max_participants": "100"}
    client.post(url, data={**rules, "screenout_code": "OUT-1"})
    with app.app_context():
        dataset = db.get_or_404(Dataset, small)
        assert (dataset.release_minutes, dataset.max_participants, dataset.screenout_code) == (
            45,
            100,
            "OUT-1",
        )
    page = client.post(
        url, data={**rules, "screenout_code": "bad code!"}, follow_redirects=True
    ).get_data(as_text=True)
    assert "screen-out code &#39;bad code!&#39; must be 1-64 letters" in page
    response = client.post(url, data={**rules, "release_minutes": "0"})
    assert response.status_code == 400 and b"minutes" in response.data
    client.post(url, data={"action": "study-rules", "release_minutes": "", "screenout_code": ""})
    with app.app_context():
        dataset = db.get_or_404(Dataset, small)
        assert (dataset.release_minutes, dataset.max_participants, dataset.screenout_code) == (
            None,
            None,
            None,
        )


# --- the migration ------------------------------------------------------------------------


def test_the_migration_splits_an_account_shared_by_two_studies(app: Flask) -> None:
    """Before one account per study, a participant id named one account in every study:
    the migration gives each further study an account of its own, with its membership,
    assignments, answers and history there; nothing is lost."""
    from flask_migrate import downgrade, upgrade

    a = _import(app, SMALL_XML, "a")
    b = _import(app, OTHER_XML, "b")
    ids_a, ids_b = _ids(app, a), _ids(app, b)
    with app.app_context():
        downgrade(revision="e5f6a7b8c9d0")
        with db.engine.begin() as connection:
            insert_user = text(
                "INSERT INTO users (username, password_hash, role, active, created_at, "
                "session_token, participant_id) VALUES (:name, '', 'annotator', :on, "
                "CURRENT_TIMESTAMP, :token, :pid)"
            )
            connection.execute(
                insert_user, {"name": "p-X1", "on": True, "token": "t1", "pid": "X1"}
            )
            connection.execute(
                insert_user, {"name": "p-Y2", "on": True, "token": "t2", "pid": "Y2"}
            )
            old: dict[str, int] = {
                name: user_id
                for name, user_id in connection.execute(text("SELECT username, id FROM users"))
            }
            for dataset_id, instance_id in ((b, ids_b[0]), (a, ids_a[0])):  # B first
                connection.execute(
                    text(
                        "INSERT INTO dataset_members (dataset_id, user_id, added_at) "
                        "VALUES (:d, :u, CURRENT_TIMESTAMP)"
                    ),
                    {"d": dataset_id, "u": old["p-X1"]},
                )
                connection.execute(
                    text(
                        "INSERT INTO assignments (dataset_id, user_id, instance_id, assigned_at) "
                        "VALUES (:d, :u, :i, CURRENT_TIMESTAMP)"
                    ),
                    {"d": dataset_id, "u": old["p-X1"], "i": instance_id},
                )
                for table, when in (("responses", "updated_at"), ("revisions", "saved_at")):
                    extra = ", saves" if table == "responses" else ""
                    connection.execute(
                        text(
                            f"INSERT INTO {table} (user_id, instance_id, kind, substitutes, "
                            f"used_dictionary, {when}{extra}) VALUES (:u, :i, 'substitutes', "
                            f"'[\"w{dataset_id}\"]', :off, CURRENT_TIMESTAMP"
                            f"{', 1' if extra else ''})"
                        ),
                        {"u": old["p-X1"], "i": instance_id, "off": False},
                    )
        upgrade()
        rows = db.session.execute(
            text("SELECT username, participant_id, study_id FROM users ORDER BY username")
        ).all()
        assert [tuple(row) for row in rows] == [
            ("p-X1", "X1", b),  # the study it joined first
            ("p-Y2", "Y2", None),  # in no study: no link opens it
            (f"p{a}-X1", "X1", a),
        ]
        owners = {
            table: sorted(
                (name, dataset_id)
                for name, dataset_id in db.session.execute(
                    text(
                        f"SELECT u.username, i.dataset_id FROM {table} t "
                        "JOIN users u ON u.id = t.user_id "
                        "JOIN instances i ON i.id = t.instance_id"
                    )
                )
            )
            for table in ("responses", "revisions", "assignments")
        }
        db.session.remove()
    assert owners == {table: [("p-X1", b), (f"p{a}-X1", a)] for table in owners}
    assert _members(app, a) == [f"p{a}-X1"] and _members(app, b) == ["p-X1"]
    assert _answers(app, a) == [(f"p{a}-X1", [f"w{a}"])]
    # the old account goes on by its study's link: the same account, its answer kept
    token_b = _open(app, b, "CODE-B")
    client = app.test_client()
    assert client.get(f"/study/{token_b}?PROLIFIC_PID=X1").status_code == 302
    assert _accounts(app, "X1") == [("p-X1", b), (f"p{a}-X1", a)]
    page = client.get(f"/annotate/{ids_b[0]}").get_data(as_text=True)
    assert f'value="w{b}"' in page
