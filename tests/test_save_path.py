"""The lean save path: a save-and-next by the page's script (``fetch``,
``Accept: application/json``) is at most four SQL statements on SQLite and three on
PostgreSQL, the user's look-up included; what it stores, the word's dictionary tick and the figures
it answers, checked by hand on the small dataset (bright.a: sentences 1 and 2; stand.n.v:
sentence 3). The page without JavaScript keeps working; the migration keeps every tick."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select, text

from tests.conftest import assign, instance_ids, login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

JSON = {"Accept": "application/json"}
MOST = 4
"""The bound on a save-and-next's SQL statements, the user's look-up included."""


@pytest.fixture
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app's engine sends from now on."""
    from annotate.extensions import db

    with app.app_context():
        engine = db.engine
    seen: list[str] = []

    def count(*args: Any) -> None:
        seen.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    yield seen
    event.remove(engine, "before_cursor_execute", count)


@pytest.fixture
def ann(app: Flask, client: FlaskClient, dataset: int) -> FlaskClient:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    return client


def _save_statements(app: Flask) -> int:
    """The statements that store a save: the answer's upsert and the revision's insert,
    one statement on PostgreSQL (annotate.services.responses._upsert_and_append)."""
    from annotate.extensions import db

    with app.app_context():
        return 1 if db.engine.dialect.name == "postgresql" else 2


def _fetch(
    client: FlaskClient, statements: list[str], instance_id: int, form: dict[str, str]
) -> tuple[int, Any, int]:
    """POST as the page's script does: (status, JSON, SQL statements)."""
    statements.clear()
    response = client.post(f"/annotate/{instance_id}", data=form, headers=JSON)
    return response.status_code, response.get_json(), len(statements)


def _item(page: str) -> str:
    """The page's #item element, as the script swaps it (the form's CSRF token, signed
    with the time, left out)."""
    found = '<div id="item"' + page.split('<div id="item"', 1)[1].split("<script src=", 1)[0]
    return _same(found)


def _same(html: str) -> str:
    """``html`` without its CSRF token and the white space around it."""
    return re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token"', html).strip()


def _stored(app: Flask) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(instance, kind, substitutes, multiword, tick, saves) of each current answer, and
    (instance, kind, substitutes, tick) of each revision, in order."""
    from annotate.extensions import db
    from annotate.models import Response, Revision

    with app.app_context():
        current = db.session.execute(
            select(
                Response.instance_id,
                Response.kind,
                Response.substitutes,
                Response.multiword,
                Response.used_dictionary,
                Response.saves,
            ).order_by(Response.instance_id)
        )
        history = db.session.execute(
            select(
                Revision.instance_id, Revision.kind, Revision.substitutes, Revision.used_dictionary
            ).order_by(Revision.id)
        )
        return [tuple(row) for row in current], [tuple(row) for row in history]


def _flags(app: Flask, dataset: int) -> dict[tuple[str, str], bool]:
    """(annotator, word) → the word's dictionary tick (annotate.services.responses.word_flag)."""
    from annotate.extensions import db
    from annotate.models import Lexelt, User
    from annotate.services.responses import dictionary_flags

    with app.app_context():
        names = dict(db.session.execute(select(User.id, User.username)).all())
        items = dict(db.session.execute(select(Lexelt.id, Lexelt.item)).all())
        return {
            (names[user], items[word]): used
            for (user, word), used in dictionary_flags(dataset).items()
        }


def test_a_fetch_save_and_next_is_four_statements_and_answers_the_next_page(
    app: Flask, ann: FlaskClient, dataset: int, statements: list[str]
) -> None:
    one, two, three = instance_ids(app)
    counts = []

    # the same word next: sentence 2 of bright.a, the tick held for the word
    status, saved, count = _fetch(ann, statements, one, {"sub1": "clever", "used_dictionary": "on"})
    counts.append(count)
    html = saved.pop("html")
    assert (status, saved) == (
        200,
        {"saved": one, "url": f"/annotate/{two}", "next": two, "done": 1, "total": 3},
    )
    assert 'data-title="Sentence 2 of word 1 · small · lexsub"' in html
    assert "Word 1 of 2 · sentence 2 of 2 · 1 / 3 done" in html
    assert 'A <mark class="target"><b>bright</b></mark> light &lt;here&gt;.' in html
    assert 'name="used_dictionary" checked' in html
    assert f'href="/annotate/{one}" id="previous"' in html
    assert html.count("(answered)") == 1 and 'aria-current="page">2<' in html
    assert _same(html) == _item(ann.get(f"/annotate/{two}").get_data(as_text=True))
    assert _flags(app, dataset) == {("ann", "bright.a"): True}

    # the next word: stand.n.v, whose tick is its own (none yet); bright.a's tick is now
    # the one of its latest save, sentence 2's (not ticked)
    status, saved, count = _fetch(ann, statements, two, {"name": "on"})
    counts.append(count)
    html = saved.pop("html")
    assert (status, saved) == (
        200,
        {"saved": two, "url": f"/annotate/{three}", "next": three, "done": 2, "total": 3},
    )
    assert "Word 2 of 2 · sentence 1 of 1 · 2 / 3 done" in html
    assert 'name="used_dictionary" checked' not in html
    assert f'href="/annotate/{two}" id="previous"' in html
    assert _same(html) == _item(ann.get(f"/annotate/{three}").get_data(as_text=True))
    assert _flags(app, dataset) == {("ann", "bright.a"): False}

    # an answered sentence again: nothing more done; the next page shows its saved
    # answer (a name) and the word's tick, ticked again by this latest save
    status, saved, count = _fetch(ann, statements, one, {"sub1": "smart", "used_dictionary": "on"})
    counts.append(count)
    html = saved.pop("html")
    assert (status, saved) == (
        200,
        {"saved": one, "url": f"/annotate/{two}", "next": two, "done": 2, "total": 3},
    )
    assert "Word 1 of 2 · sentence 2 of 2 · 2 / 3 done" in html
    assert 'name="name" checked' in html and 'name="used_dictionary" checked' in html
    assert html.count("(answered)") == 2
    assert _same(html) == _item(ann.get(f"/annotate/{two}").get_data(as_text=True))

    # the last sentence: the dataset's finished page, no next page
    status, saved, count = _fetch(ann, statements, three, {"sub1": "bear"})
    counts.append(count)
    finished = f"/annotate/dataset/{dataset}/done"
    assert (status, saved) == (
        200,
        {"saved": three, "url": finished, "next": None, "done": 3, "total": 3, "html": None},
    )
    assert "Saved." in ann.get(finished).get_data(as_text=True)

    assert all(count <= MOST for count in counts), counts
    assert counts == [2 + _save_statements(app)] * 4  # the user, the page, the save
    assert _stored(app) == (
        [
            (one, "substitutes", ["smart"], None, True, 2),
            (two, "name", [], None, False, 1),
            (three, "substitutes", ["bear"], None, False, 1),
        ],
        [
            (one, "substitutes", ["clever"], True),
            (two, "name", [], False),
            (one, "substitutes", ["smart"], True),
            (three, "substitutes", ["bear"], False),
        ],
    )
    assert _flags(app, dataset) == {("ann", "bright.a"): True, ("ann", "stand.n.v"): False}
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.datasets import export_records

    with app.app_context():
        exported = [
            (record["instance"], record["used_dictionary"])
            for record in export_records(db.get_or_404(Dataset, dataset))
        ]
    assert exported == [("1", True), ("2", True), ("3", False)]  # held for the whole word


def test_only_the_users_look_up_goes_through_the_orms_execute(
    app: Flask, ann: FlaskClient, dataset: int, statements: list[str]
) -> None:
    """A save-and-next's page read and its save run as Core runs them
    (annotate.services.core.execute): the session's ORM execution (its
    ``do_orm_execute`` event) sees the user's look-up only, and the save is stored."""
    from sqlalchemy.orm import ORMExecuteState, Session

    one, two, _ = instance_ids(app)
    seen: list[str] = []

    def orm(state: ORMExecuteState) -> None:
        seen.append(str(state.statement))

    event.listen(Session, "do_orm_execute", orm)
    try:
        status, saved, count = _fetch(ann, statements, one, {"sub1": "clever"})
    finally:
        event.remove(Session, "do_orm_execute", orm)
    assert (status, saved["next"], count) == (200, two, 2 + _save_statements(app))
    assert len(seen) == 1 and "session_token" in seen[0], seen
    assert _stored(app) == (
        [(one, "substitutes", ["clever"], None, False, 1)],
        [(one, "substitutes", ["clever"], False)],
    )


def test_the_page_without_javascript_saves_and_redirects(
    app: Flask, ann: FlaskClient, statements: list[str]
) -> None:
    one, two, _ = instance_ids(app)
    statements.clear()
    response = ann.post(f"/annotate/{one}", data={"sub1": "clever", "used_dictionary": "on"})
    posted = len(statements)
    assert (response.status_code, response.headers["Location"]) == (302, f"/annotate/{two}")
    statements.clear()
    page = ann.get(f"/annotate/{two}").get_data(as_text=True)
    shown = len(statements)
    # the save (as by fetch: its answer and revision one statement on PostgreSQL), the page
    assert (posted, shown) == (_save_statements(app) + 2, 2)
    assert "Saved." in page and "Word 1 of 2 · sentence 2 of 2 · 1 / 3 done" in page
    assert 'name="used_dictionary" checked' in page
    assert _stored(app) == (
        [(one, "substitutes", ["clever"], None, True, 1)],
        [(one, "substitutes", ["clever"], True)],
    )


def test_the_save_that_answers_the_last_unanswered_sentence_finishes(
    app: Flask, ann: FlaskClient, dataset: int, statements: list[str]
) -> None:
    one, two, three = instance_ids(app)
    for instance in (two, three):
        assert _fetch(ann, statements, instance, {"sub1": "word"})[0] == 200
    status, saved, count = _fetch(ann, statements, one, {"sub1": "clever"})
    assert count <= MOST
    assert (status, saved) == (
        200,
        {
            "saved": one,
            "url": f"/annotate/dataset/{dataset}/done",
            "next": None,
            "done": 3,
            "total": 3,
            "html": None,
        },
    )


def test_an_assigned_batch_counts_and_ends_with_its_own_sentences(
    app: Flask, client: FlaskClient, dataset: int, statements: list[str]
) -> None:
    """Overlap design, 1 annotator a sentence, batches of 2: ann gets bright.a (1, 2),
    bob stand.n.v (3); each one's figures and next sentence are their batch's."""
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.study import set_design

    with app.app_context():
        set_design(db.get_or_404(Dataset, dataset), "overlap", 1, 2)
    for name in ("ann", "bob"):
        make_user(app, name)
        assign(app, name, dataset)
    one, two, three = instance_ids(app)
    login(client, "ann")
    status, saved, count = _fetch(client, statements, one, {"sub1": "clever"})
    html = saved.pop("html")
    assert (status, saved, count <= MOST) == (
        200,
        {"saved": one, "url": f"/annotate/{two}", "next": two, "done": 1, "total": 2},
        True,
    )
    assert "Word 1 of 1 · sentence 2 of 2 · 1 / 2 done" in html
    finished = f"/annotate/dataset/{dataset}/done"
    status, saved, count = _fetch(client, statements, two, {"sub1": "light"})
    assert (status, saved["url"], saved["done"], saved["total"]) == (200, finished, 2, 2)
    assert _fetch(client, statements, three, {"sub1": "bear"})[0] == 404  # bob's
    bob = app.test_client()
    login(bob, "bob")
    status, saved, count = _fetch(bob, statements, three, {"sub1": "bear"})
    assert (status, saved["url"], saved["done"], saved["total"], count <= MOST) == (
        200,
        finished,
        1,
        1,
        True,
    )


def test_refused_answers_and_ended_sessions_are_not_200(
    app: Flask, client: FlaskClient, dataset: int, statements: list[str]
) -> None:
    """Anything but a save answers a status the page's script does not take for one (it
    then sends the form as a page): 422 with the messages, 401, 400; nothing stored."""
    make_user(app, "ann")
    assign(app, "ann", dataset)
    one = instance_ids(app)[0]
    assert _fetch(client, statements, one, {"sub1": "clever"})[:2] == (
        401,
        {"error": "Your session had ended: log in again."},
    )
    login(client, "ann")
    assert _fetch(client, statements, one, {"sub1": "clever", "mw": "on"})[:2] == (
        422,
        {"errors": {"multiword": ["You ticked 'Part of a multiword': type the multiword."]}},
    )
    status, refused, _ = _fetch(client, statements, one, {"sub1": "bright"})  # to confirm
    assert (status, list(refused["errors"])) == (422, ["sub1"])
    assert refused["errors"]["sub1"][0].startswith("Substitute 1 ('bright') is the target")
    app.config["WTF_CSRF_ENABLED"] = True
    assert _fetch(client, statements, one, {"sub1": "clever", "csrf_token": "forged"})[0] == 400
    client.post("/logout", data={"csrf_token": "forged"})
    stale = app.test_client()  # no session at all: the CSRF check fails before the view
    assert _fetch(stale, statements, one, {"sub1": "clever", "csrf_token": "old"})[0] == 401
    assert _stored(app) == ([], [])


def test_the_migration_keeps_every_words_tick(app: Flask, ann: FlaskClient, dataset: int) -> None:
    """Down to the schema with word_flags (each word's flag is its latest save's), then a
    flag an older version could hold alone (bright.a ticked though its latest answer is
    not), up again: every page reads the same ticks as word_flags held."""
    from flask_migrate import downgrade, upgrade

    from annotate.extensions import db

    one, two, three = instance_ids(app)
    for instance, form in (
        (one, {"sub1": "clever", "used_dictionary": "on"}),
        (two, {"sub1": "light"}),
        (three, {"sub1": "bear", "used_dictionary": "on"}),
    ):
        assert ann.post(f"/annotate/{instance}", data=form).status_code == 302
    flags = (
        "SELECT l.item, f.used_dictionary FROM word_flags f JOIN lexelts l ON l.id = f.lexelt_id"
    )
    with app.app_context():
        downgrade(revision="7f3a9c2e1d04")
        assert {item: bool(used) for item, used in db.session.execute(text(flags))} == {
            "bright.a": False,
            "stand.n.v": True,
        }
        db.session.execute(text("UPDATE word_flags SET used_dictionary = :on"), {"on": True})
        db.session.commit()
        upgrade()
        ticks = {
            instance: bool(used)
            for instance, used in db.session.execute(
                text("SELECT instance_id, used_dictionary FROM responses")
            )
        }
        db.session.remove()
    assert ticks == {one: True, two: True, three: True}
    assert _flags(app, dataset) == {("ann", "bright.a"): True, ("ann", "stand.n.v"): True}


def test_the_migrations_make_the_models_schema(app: Flask) -> None:
    """Alembic finds nothing between the migrated database and the models."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from annotate.extensions import db

    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


def test_the_swapped_page_keeps_its_ids_unique(
    app: Flask, ann: FlaskClient, statements: list[str]
) -> None:
    """The content the script swaps in has the ids the page's labels and descriptions
    point at, once each."""
    one = instance_ids(app)[0]
    html = _fetch(ann, statements, one, {"sub1": "clever"})[1]["html"]
    ids = re.findall(r' id="([^"]+)"', html)
    assert len(ids) == len(set(ids))
    assert {"item", "answer", "sub1", "target-word", "sentence", "progress"} <= set(ids)


def test_the_pages_links_are_url_for_without_building_each(app: Flask) -> None:
    """The annotation page links its sentences by :func:`annotate.web.annotator.item_path`
    and the id: exactly what ``url_for`` builds, under a script root too."""
    from flask import url_for

    from annotate.web.annotator import item_path

    for root in ("", "/lexsub"):
        with app.test_request_context("/", base_url=f"http://localhost{root}/"):
            assert item_path() == f"{root}/annotate/"
            for instance_id in (0, 1, 42, 9_999_999_999):
                built = url_for("annotator.item", instance_id=instance_id)
                assert item_path() + str(instance_id) == built


def test_the_page_query_is_the_page_statement_under_a_short_cache_key() -> None:
    """The page's read runs :func:`page_statement` wrapped in a lambda statement whose
    cache key is short: the statement's own is hashed whole on each execution."""
    from annotate.services.itempage import page_query, page_statement

    for following in (False, True):
        query = page_query(following)
        assert str(query._resolved) == str(page_statement(following))
        short = len(repr(query._generate_cache_key()))
        assert short * 50 < len(repr(page_statement(following)._generate_cache_key()))
    assert page_query(True)._generate_cache_key() != page_query(False)._generate_cache_key()


def test_the_page_query_is_planned_once_on_postgresql(app: Flask, ann: FlaskClient) -> None:
    """PostgreSQL: each connection's session plans a prepared statement once
    (annotate.factory.GENERIC_PLANS): eight saves without the script read the page's
    query eight times on the one connection; psycopg prepares it for its sixth run, and
    its last three runs use a generic plan, none a custom one (under PostgreSQL's
    default, ``auto``, the first five runs of a prepared statement are custom plans).
    SQLite: the connection's pragmas (foreign keys, the write-ahead log)."""
    from annotate.extensions import db

    one, two, _ = instance_ids(app)
    for number in range(8):
        response = ann.post(f"/annotate/{(one, two)[number % 2]}", data={"sub1": f"w{number}"})
        assert response.status_code == 302
    with app.app_context():
        connection = db.session.connection()
        if db.engine.dialect.name == "postgresql":
            assert connection.exec_driver_sql("SHOW plan_cache_mode").scalar() == (
                "force_generic_plan"
            )
            plans = connection.exec_driver_sql(
                "SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                " WHERE starts_with(statement, 'WITH ctx')"
            ).all()
            assert [tuple(row) for row in plans] == [(3, 0)]
        else:
            pragmas = [
                connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                for name in ("foreign_keys", "journal_mode", "busy_timeout")
            ]
            assert pragmas == [1, "wal", 30000]
