"""The annotation page's figures (word k of n, sentence k of n, done / total) are read
from figures stored at import and from the annotator's own answers, never counted over
the whole dataset on a save: they equal a direct count of the tables after imports,
saves, re-saves and deletions, for an annotator of every sentence and one with an
assigned batch; the migration fills them for datasets imported before; and the SQLite
work of a save does not grow with the dataset."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text

from tests.conftest import assign, login, make_user

JSON = {"Accept": "application/json"}
PROGRESS = re.compile(r"Word (\d+) of (\d+) · sentence (\d+) of (\d+) · (\d+) / (\d+) done")


def corpus(words: int, sentences: int, tag: str = "") -> bytes:
    """A dataset of ``words`` words (``w0.n``, ``w1.n``, …) whose word i has
    ``sentences + i % 2`` sentences (so the words differ), ids unique by ``tag``."""
    lines = ['<corpus lang="english">']
    for word in range(words):
        lines.append(f'<lexelt item="w{word}.n">')
        for k in range(sentences + word % 2):
            lines.append(
                f'<instance id="{tag}{word}-{k}"><context>Some <head>w{word}</head> '
                f"here {k}.</context></instance>"
            )
        lines.append("</lexelt>")
    lines.append("</corpus>")
    return "\n".join(lines).encode()


def imported(app: Flask, name: str, data: bytes) -> int:
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    with app.app_context():
        return import_dataset(
            parse_lexsub_xml(data, f"{name}.xml"), name, f"{name}.xml", data
        ).dataset.id


def expected(app: Flask, username: str, instance_id: int) -> tuple[int, ...]:
    """(word k, words, sentence k, sentences of the word, done, total) of the page of
    ``instance_id`` for ``username``, counted directly from the tables."""
    from annotate.extensions import db
    from annotate.models import Assignment, Instance, Lexelt, Response, User

    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.username == username))
        shown = db.session.get(Instance, instance_id)
        assert shown is not None
        rows = db.session.execute(
            select(Instance.id, Instance.lexelt_id, Lexelt.position, Instance.position)
            .join(Lexelt, Lexelt.id == Instance.lexelt_id)
            .where(Instance.dataset_id == shown.dataset_id)
        ).all()
        given = set(
            db.session.scalars(
                select(Assignment.instance_id).where(
                    Assignment.user_id == user_id, Assignment.dataset_id == shown.dataset_id
                )
            )
        )
        mine = [row for row in rows if not given or row.id in given]
        answered = set(
            db.session.scalars(select(Response.instance_id).where(Response.user_id == user_id))
        )
        words = sorted({(row[2], row.lexelt_id) for row in mine})
        siblings = sorted((row[3], row.id) for row in mine if row.lexelt_id == shown.lexelt_id)
        return (
            [lexelt for _, lexelt in words].index(shown.lexelt_id) + 1,
            len(words),
            [i for _, i in siblings].index(instance_id) + 1,
            len(siblings),
            sum(1 for row in mine if row.id in answered),
            len(mine),
        )


def on_page(client: FlaskClient, instance_id: int) -> tuple[int, ...]:
    page = client.get(f"/annotate/{instance_id}")
    assert page.status_code == 200
    found = PROGRESS.search(page.get_data(as_text=True))
    assert found is not None
    return tuple(int(group) for group in found.groups())


def ids(app: Flask, dataset_id: int) -> list[int]:
    from annotate.extensions import db
    from annotate.models import Instance

    with app.app_context():
        return list(
            db.session.scalars(
                select(Instance.id)
                .where(Instance.dataset_id == dataset_id)
                .order_by(Instance.position)
            )
        )


def check_every_page(app: Flask, clients: dict[str, FlaskClient], datasets: list[int]) -> None:
    for username, client in clients.items():
        for dataset_id in datasets:
            for instance_id in ids(app, dataset_id):
                if client.get(f"/annotate/{instance_id}").status_code == 404:
                    continue  # not one of theirs (another's batch)
                assert on_page(client, instance_id) == expected(app, username, instance_id), (
                    username,
                    instance_id,
                )


def save(client: FlaskClient, instance_id: int, substitute: str) -> tuple[int, int]:
    """Save by the page's script: the (done, total) it answers."""
    response = client.post(f"/annotate/{instance_id}", data={"sub1": substitute}, headers=JSON)
    assert response.status_code == 200, response.data
    answer = response.get_json()
    return answer["done"], answer["total"]


@pytest.fixture
def people(app: Flask) -> Iterator[dict[str, FlaskClient]]:
    clients = {}
    for name in ("ann", "bob"):
        make_user(app, name)
        clients[name] = app.test_client()
    yield clients


@pytest.mark.database  # on SQLite and on PostgreSQL
def test_the_page_shows_direct_counts_after_imports_saves_and_deletions(
    app: Flask, people: dict[str, FlaskClient]
) -> None:
    """ann annotates every sentence of two datasets; bob is given a batch of the second
    (overlap design: batches of about 4 sentences, whole words)."""
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.study import set_design

    first = imported(app, "first", corpus(3, 2, "a"))
    second = imported(app, "second", corpus(5, 1, "b"))
    with app.app_context():
        set_design(db.get_or_404(Dataset, second), "overlap", 1, 4)
    for name in ("bob", "ann"):  # bob: w0-w2 (4 sentences), ann: w3-w4 (3)
        assign(app, name, second)
    assign(app, "ann", first)
    for name, client in people.items():
        login(client, name)
    ann, bob = people["ann"], people["bob"]
    with app.app_context():
        stored = [
            (d.name, d.sentences, d.words)
            for d in db.session.scalars(select(Dataset).order_by(Dataset.id))
        ]
    assert stored == [("first", 7, 3), ("second", 7, 5)]  # 2+3+2, 1+2+1+2+1
    check_every_page(app, people, [first, second])

    one = ids(app, first)
    assert [save(ann, i, "xx") for i in one[:3]] == [(1, 7), (2, 7), (3, 7)]
    assert save(ann, one[1], "yy") == (3, 7)  # a re-save: nothing more done
    mine = [i for i in ids(app, second) if bob.get(f"/annotate/{i}").status_code == 200]
    assert mine == ids(app, second)[:4]
    assert [save(bob, i, "zz") for i in mine[:2]] == [(1, 4), (2, 4)]
    assert save(ann, ids(app, second)[4], "ww") == (1, 3)  # ann's batch: the rest
    check_every_page(app, people, [first, second])

    with app.app_context():  # answers deleted by hand, then a whole dataset
        db.session.execute(
            text("DELETE FROM responses WHERE instance_id IN (:a, :b)"), {"a": one[0], "b": mine[0]}
        )
        for table, column in (
            ("revisions", "instance_id"),
            ("responses", "instance_id"),
            ("assignments", "dataset_id"),
            ("dataset_members", "dataset_id"),
        ):
            where = (
                f"{column} IN (SELECT id FROM instances WHERE dataset_id = :d)"
                if column == "instance_id"
                else f"{column} = :d"
            )
            db.session.execute(text(f"DELETE FROM {table} WHERE {where}"), {"d": second})
        for table in ("instances", "lexelts"):
            db.session.execute(text(f"DELETE FROM {table} WHERE dataset_id = :d"), {"d": second})
        db.session.execute(text("DELETE FROM datasets WHERE id = :d"), {"d": second})
        db.session.commit()
    third = imported(app, "third", corpus(2, 3, "c"))
    assign(app, "bob", third)
    check_every_page(app, people, [first, third])
    assert on_page(ann, one[0])[4:] == (2, 7)  # one[1] and one[2] still answered
    assert save(ann, one[0], "vv") == (3, 7)
    assert save(bob, ids(app, third)[-1], "uu") == (1, 7)
    check_every_page(app, people, [first, third])


@pytest.mark.database  # on SQLite and on PostgreSQL
def test_the_migration_fills_the_figures_of_datasets_imported_before(
    app: Flask, people: dict[str, FlaskClient]
) -> None:
    """Down to the schema without them, two datasets imported there, up again: the
    stored figures are the ones an import stores, and every page shows direct counts."""
    from flask_migrate import downgrade, upgrade

    from annotate.extensions import db

    first = imported(app, "first", corpus(3, 2, "a"))
    figures = (
        "SELECT d.name, d.sentences, d.words, l.item, l.word_index "
        "FROM datasets d JOIN lexelts l ON l.dataset_id = d.id ORDER BY d.id, l.position"
    )
    with app.app_context():
        after_import = [tuple(row) for row in db.session.execute(text(figures))]
        db.session.remove()  # its transaction would hold off the migration's ALTER TABLE
        downgrade(revision="d4e5f6a7b8c9")
        upgrade()
        migrated = [tuple(row) for row in db.session.execute(text(figures))]
        db.session.remove()
    assert after_import == [
        ("first", 7, 3, "w0.n", 1),
        ("first", 7, 3, "w1.n", 2),
        ("first", 7, 3, "w2.n", 3),
    ]
    assert migrated == after_import
    assign(app, "ann", first)
    login(people["ann"], "ann")
    check_every_page(app, {"ann": people["ann"]}, [first])


def vm_steps(app: Flask, client: FlaskClient, instance_id: int, status: int = 200) -> int:
    """The SQLite virtual-machine instructions a save-and-next by the page's script runs
    (every statement of the request): the work of its SQL, whatever the machine's speed."""
    from sqlalchemy import event

    from annotate.extensions import db

    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0  # go on

    def watch(connection: Any, *_: Any) -> None:
        connection.connection.driver_connection.set_progress_handler(count, 1)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", watch)
    try:
        response = client.post(f"/annotate/{instance_id}", data={"sub1": "xx"}, headers=JSON)
    finally:
        event.remove(engine, "before_cursor_execute", watch)
    assert response.status_code == status
    return steps[0]


def test_a_saves_sqlite_work_does_not_grow_with_the_dataset(
    app: Flask, people: dict[str, FlaskClient]
) -> None:
    """The same save (the second sentence of the first word, the annotator's first
    answer there) in a dataset of 10 sentences and in one of 1,000: the statements run
    about as many instructions (counting the dataset's sentences and words on every
    save made it ~100 times as many)."""
    from annotate.extensions import db

    with app.app_context():
        assert db.engine.dialect.name == "sqlite"  # its progress handler counts them
    small = imported(app, "small", corpus(4, 2, "s"))
    large = imported(app, "large", corpus(400, 2, "l"))
    assert (len(ids(app, small)), len(ids(app, large))) == (10, 1000)
    ann = people["ann"]
    for dataset_id in (small, large):
        assign(app, "ann", dataset_id)
    login(ann, "ann")
    steps = [vm_steps(app, ann, ids(app, dataset_id)[1]) for dataset_id in (small, large)]
    assert steps[1] <= 1.2 * steps[0], steps


def test_an_assigned_batchs_last_save_does_not_walk_the_dataset(
    app: Flask, people: dict[str, FlaskClient]
) -> None:
    """Overlap design, batches of at least 4 sentences: bob's batch is the first two
    words (5 sentences) of a dataset of 10 and of one of 1,000; the save of his last
    sentence (no next one of his) runs about as many instructions in both (looking for
    his next sentence among everyone's made it ~100 times as many on the larger)."""
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.study import set_design

    small = imported(app, "small", corpus(4, 2, "s"))
    large = imported(app, "large", corpus(400, 2, "l"))
    with app.app_context():
        assert db.engine.dialect.name == "sqlite"
        for dataset_id in (small, large):
            set_design(db.get_or_404(Dataset, dataset_id), "overlap", 1, 4)
    for dataset_id in (small, large):
        assign(app, "bob", dataset_id)
    bob = people["bob"]
    login(bob, "bob")
    steps = [vm_steps(app, bob, ids(app, dataset_id)[4]) for dataset_id in (small, large)]
    assert steps[1] <= 1.2 * steps[0], steps
    assert bob.post(f"/annotate/{ids(app, large)[5]}", data={"sub1": "xx"}).status_code == 404
