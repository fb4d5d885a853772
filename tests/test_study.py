"""annotate.services.study: members, who opens what, overlap batches, crowd participants; and
the annotation flow that depends on them (landing, finished page, study link)."""

from __future__ import annotations

from collections import Counter

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.extensions import db
from annotate.importer import parse_lexsub_xml
from annotate.models import Assignment, Dataset, Instance, User
from annotate.services.datasets import import_dataset
from annotate.services.rules import ServiceError
from annotate.services.study import (
    assign,
    batches,
    can_open,
    create_users,
    members,
    open_study,
    parse_user_lines,
    participant,
    sentence_count,
    set_design,
    unassign,
    visible_datasets,
)
from tests.conftest import OTHER_XML, WORDS_XML, login, make_user, save
from tests.conftest import assign as assign_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def _import(data: bytes, name: str) -> int:
    return import_dataset(
        parse_lexsub_xml(data, f"{name}.xml"), name, f"{name}.xml", data
    ).dataset.id


def _user(name: str) -> User:
    return db.session.execute(select(User).where(User.username == name)).scalar_one()


def _ids(dataset_id: int) -> list[int]:
    return list(
        db.session.scalars(
            select(Instance.id).where(Instance.dataset_id == dataset_id).order_by(Instance.position)
        )
    )


@pytest.fixture
def two(app: Flask, dataset: int) -> tuple[int, int]:
    """'small' (the dataset fixture) and 'other'; ann is a member of 'small' only."""
    with app.app_context():
        other = _import(OTHER_XML, "other")
    make_user(app, "ann")
    make_user(app, "boss", "organiser")
    assign_user(app, "ann", dataset)
    return dataset, other


def test_members_see_and_open_their_datasets_only(app: Flask, two: tuple[int, int]) -> None:
    small, other = two
    with app.app_context():
        ann, boss = _user("ann"), _user("boss")
        assert [d.name for d in visible_datasets(ann)] == ["small"]
        assert [d.name for d in visible_datasets(boss)] == ["small", "other"]
        assert [u.username for u in members(db.get_or_404(Dataset, small))] == ["ann"]
        assert members(db.get_or_404(Dataset, other)) == []
        first_small, first_other = _ids(small)[0], _ids(other)[0]
        assert can_open(ann, db.get_or_404(Instance, first_small))
        assert not can_open(ann, db.get_or_404(Instance, first_other))
        assert can_open(boss, db.get_or_404(Instance, first_other))
        assert sentence_count(ann, db.get_or_404(Dataset, small)) == 3


def test_assign_twice_and_unassign(app: Flask, two: tuple[int, int]) -> None:
    _small, other = two
    with app.app_context():
        ann, dataset = _user("ann"), db.get_or_404(Dataset, other)
        assert assign(ann, dataset) is True
        assert assign(ann, dataset) is False
        assert unassign(ann, dataset) is True
        assert unassign(ann, dataset) is False
        with pytest.raises(ServiceError, match="organiser"):
            assign(_user("boss"), dataset)


def test_another_datasets_sentence_is_a_404(
    app: Flask, client: FlaskClient, two: tuple[int, int]
) -> None:
    small, other = two
    login(client, "ann")
    with app.app_context():
        theirs, foreign = _ids(small)[0], _ids(other)[0]
    assert client.get(f"/annotate/{theirs}").status_code == 200
    assert client.get(f"/annotate/{foreign}").status_code == 404
    assert client.post(f"/annotate/{foreign}", data={"sub1": "x"}).status_code == 404
    assert client.get(f"/annotate/dataset/{other}").status_code == 404
    assert client.get(f"/annotate/dataset/{other}/done").status_code == 404
    home = client.get("/").get_data(as_text=True)
    assert "small" in home and "other" not in home


def test_login_lands_on_the_first_unanswered_sentence(
    app: Flask, client: FlaskClient, two: tuple[int, int]
) -> None:
    small, _ = two
    with app.app_context():
        first, second, _third = _ids(small)
    response = client.post("/login", data={"username": "ann", "password": "password1"})
    assert response.headers["Location"] == f"/annotate/{first}"
    assert save(client, first, {"sub1": "clever"}) == 302
    client.post("/logout")
    response = client.post("/login", data={"username": "ann", "password": "password1"})
    assert response.headers["Location"] == f"/annotate/{second}"
    client.post("/logout")
    response = client.post(
        f"/login?next=/annotate/{first}", data={"username": "ann", "password": "password1"}
    )
    assert response.headers["Location"] == f"/annotate/{first}"  # next= wins


def test_an_organiser_lands_on_the_dashboard(client: FlaskClient, two: tuple[int, int]) -> None:
    response = client.post("/login", data={"username": "boss", "password": "password1"})
    assert response.headers["Location"] == "/organiser/"


def test_no_dataset_assigned_says_so(app: Flask, client: FlaskClient, dataset: int) -> None:
    make_user(app, "lone")
    response = client.post("/login", data={"username": "lone", "password": "password1"})
    assert response.headers["Location"] == "/"
    assert "No dataset is assigned to you yet" in client.get("/").get_data(as_text=True)
    assert "No dataset is assigned to you yet" in client.get("/annotate").get_data(as_text=True)


def test_the_page_names_its_dataset_and_shows_progress(
    app: Flask, client: FlaskClient, two: tuple[int, int]
) -> None:
    small, _ = two
    login(client, "ann")
    with app.app_context():
        first = _ids(small)[0]
    page = client.get(f"/annotate/{first}").get_data(as_text=True)
    assert "Dataset <strong>small</strong>" in page and "· small · lexsub</title>" in page
    assert "Word 1 of 2 · sentence 1 of 2 · 0 / 3 done" in page
    assert '<progress id="progress-bar" value="0" max="3"' in page
    assert 'src="/static/annotate.js"' in page
    client.post(f"/annotate/{first}", data={"sub1": "clever"})
    assert "Saved." in client.get(f"/annotate/{_ids_of(app, small)[1]}").get_data(as_text=True)


def _ids_of(app: Flask, dataset_id: int) -> list[int]:
    with app.app_context():
        return _ids(dataset_id)


def test_finishing_a_dataset_shows_its_page_never_the_next(
    app: Flask, client: FlaskClient, two: tuple[int, int]
) -> None:
    small, other = two
    assign_user(app, "ann", other)
    login(client, "ann")
    first, second, third = _ids_of(app, small)
    assert save(client, first, {"sub1": "clever"}) == 302
    # the last sentence in order, with the second unanswered: back to the second
    response = client.post(f"/annotate/{third}", data={"sub1": "bear"})
    assert response.headers["Location"] == f"/annotate/dataset/{small}/done"
    response = client.get(f"/annotate/dataset/{small}/done")
    assert response.headers["Location"] == f"/annotate/{second}"
    # answering the last missing one finishes the dataset: its finished page
    response = client.post(f"/annotate/{second}", data={"sub1": "light"})
    assert response.headers["Location"] == f"/annotate/dataset/{small}/done"
    page = client.get(f"/annotate/dataset/{small}/done").get_data(as_text=True)
    assert "small: finished" in page and "other</a>: 0 / 3 done" in page
    assert "completion code" not in page  # not a crowd participant
    # logging in again lands in the unfinished one
    client.post("/logout")
    response = client.post("/login", data={"username": "ann", "password": "password1"})
    assert response.headers["Location"] == f"/annotate/{_ids_of(app, other)[0]}"


def test_instructions_list_shortcuts_and_the_guidelines(
    app: Flask, client: FlaskClient, two: tuple[int, int]
) -> None:
    small, other = two
    with app.app_context():
        db.get_or_404(Dataset, small).guidelines = "Prefer single words.\nNo slang."
        db.get_or_404(Dataset, other).guidelines = "Secret other guidelines."
        db.session.commit()
    login(client, "ann")
    page = client.get("/instructions").get_data(as_text=True)
    for key in ("Alt</kbd>+<kbd>P", "Alt</kbd>+<kbd>N", "Alt</kbd>+<kbd>M"):
        assert key in page
    assert "Guidelines for small" in page and "Prefer single words.\nNo slang." in page
    assert "Secret other" not in page


def test_batches_keep_words_together(app: Flask) -> None:
    with app.app_context():
        dataset = db.get_or_404(Dataset, _import(WORDS_XML, "words"))
        ids = _ids(dataset.id)
        assert batches(dataset, 3) == [ids[0:3], ids[3:6], ids[6:8]]
        assert batches(dataset, 2) == [ids[0:3], ids[3:6], ids[6:8]]
        assert batches(dataset, 100) == [ids]
        assert batches(dataset, 1) == [ids[0:3], ids[3:4], ids[4:6], ids[6:8]]
        with pytest.raises(ServiceError):
            batches(dataset, 0)


def test_overlap_gives_each_sentence_exactly_k_annotators(app: Flask) -> None:
    for name in ("u1", "u2", "u3", "u4", "u5", "u6", "u7"):
        make_user(app, name)
    with app.app_context():
        dataset = db.get_or_404(Dataset, _import(WORDS_XML, "words"))
        set_design(dataset, "overlap", 2, 3)
        for name in ("u1", "u2", "u3", "u4", "u5", "u6"):
            assert assign(_user(name), dataset)
        with pytest.raises(ServiceError, match="has 2 annotators already"):
            assign(_user("u7"), dataset)
        assert [u.username for u in members(dataset)] == ["u1", "u2", "u3", "u4", "u5", "u6"]
        per_sentence = Counter(db.session.scalars(select(Assignment.instance_id)))
        assert set(per_sentence.values()) == {2} and len(per_sentence) == 8
        assert [sentence_count(_user(n), dataset) for n in ("u1", "u2", "u3")] == [3, 3, 2]
        with pytest.raises(ServiceError, match="assigned already"):
            set_design(dataset, "overlap", 3, 3)
        # a member who leaves frees the batch for the next one
        unassign(_user("u1"), dataset)
        assert assign(_user("u7"), dataset)
        assert sentence_count(_user("u7"), dataset) == 3


def test_overlap_annotators_see_only_their_batch(app: Flask, client: FlaskClient) -> None:
    make_user(app, "ann")
    with app.app_context():
        dataset_id = _import(WORDS_XML, "words")
        dataset = db.get_or_404(Dataset, dataset_id)
        set_design(dataset, "overlap", 1, 3)
        make_user(app, "first")
        assign(_user("first"), dataset)  # takes the first batch (word a)
        assign(_user("ann"), dataset)  # the second (words b and c)
        ids = _ids(dataset_id)
    login(client, "ann")
    assert client.get("/annotate").headers["Location"] == f"/annotate/{ids[3]}"
    assert client.get(f"/annotate/{ids[0]}").status_code == 404
    page = client.get(f"/annotate/{ids[4]}").get_data(as_text=True)
    assert "Word 2 of 2 · sentence 1 of 2 · 0 / 3 done" in page
    assert save(client, ids[3], {"sub1": "x1"}) == 302
    assert save(client, ids[4], {"sub1": "x2"}) == 302
    response = client.post(f"/annotate/{ids[5]}", data={"sub1": "x3"})
    assert response.headers["Location"] == f"/annotate/dataset/{dataset_id}/done"


def test_design_rules(app: Flask, dataset: int) -> None:
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        for design, k, m in (("crowd", 2, 2), ("overlap", None, 2), ("overlap", 2, 0)):
            with pytest.raises(ServiceError):
                set_design(small, design, k, m)
        set_design(small, "overlap", 2, 2)
        set_design(small, "all", 5, 5)
        assert (small.design, small.per_sentence, small.batch_size) == ("all", None, None)


def test_a_participant_has_no_password_and_comes_back_by_the_link(app: Flask, dataset: int) -> None:
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        open_study(small, "C0DE-42")
        user = participant(small, "5f2b0c9e1a")
        assert (user.username, user.participant_id) == (f"p{dataset}-5f2b0c9e1a", "5f2b0c9e1a")
        assert user.study_id == dataset
        assert not user.check_password("") and not user.check_password("anything")
        assert participant(small, "5f2b0c9e1a").id == user.id
        assert [u.username for u in members(small)] == [f"p{dataset}-5f2b0c9e1a"]
        for bad in ("", "a b", "x" * 65, "ü", "a/b"):
            with pytest.raises(ServiceError):
                participant(small, bad)
        with pytest.raises(ServiceError):
            open_study(small, "bad code!")


def test_the_study_link_logs_in_and_ends_with_the_completion_code(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        token = open_study(small, "C0DE-42")
    assert client.get("/study/no-such-token?PROLIFIC_PID=abc").status_code == 404
    assert 'name="participant"' in client.get(f"/study/{token}").get_data(as_text=True)
    assert client.get(f"/study/{token}?participant=a%20b").status_code == 400
    response = client.get(f"/study/{token}?PROLIFIC_PID=60a1b2c3d4e5f6a7b8c9d0e1")
    assert response.headers["Location"] == f"/annotate/dataset/{dataset}"
    ids = _ids_of(app, dataset)
    # the onboarding page first: no sentence before Start
    start = f"/study/dataset/{dataset}/start"
    assert client.get(f"/annotate/dataset/{dataset}").headers["Location"] == start
    assert client.get(f"/annotate/{ids[0]}").headers["Location"] == start
    assert client.post(start).headers["Location"] == f"/annotate/dataset/{dataset}"
    assert client.get(f"/annotate/dataset/{dataset}").headers["Location"] == f"/annotate/{ids[0]}"
    for instance_id in ids:
        assert save(client, instance_id, {"sub1": "word"}) == 302
    page = client.get(f"/annotate/dataset/{dataset}/done").get_data(as_text=True)
    assert "Your completion code" in page and ">C0DE-42<" in page
    # the password log-in form cannot open the account
    client.post("/logout")
    response = client.post(
        "/login", data={"username": f"p{dataset}-60a1b2c3d4e5f6a7b8c9d0e1", "password": ""}
    )
    assert response.status_code == 200
    # MTurk's workerId works too
    response = client.get(f"/study/{token}?workerId=A1B2C3D4E5")
    assert response.status_code == 302


def test_a_full_overlap_study_says_so(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        dataset = db.get_or_404(Dataset, _import(WORDS_XML, "words"))
        set_design(dataset, "overlap", 1, 100)
        token = open_study(dataset)
        code = dataset.completion_code
    assert code and len(code) == 8
    assert client.get(f"/study/{token}?PROLIFIC_PID=first").status_code == 302
    client.post("/logout")
    response = client.get(f"/study/{token}?PROLIFIC_PID=second")
    assert response.status_code == 409 and b"has 1 annotators already" in response.data
    with app.app_context():  # a refused participant gets no account
        assert db.session.scalar(select(User).where(User.participant_id == "second")) is None


def test_bulk_accounts(app: Flask, dataset: int) -> None:
    rows = parse_user_lines("# our annotators\nann\n\nbob secret-pw1\ncat,another-pw\n")
    assert rows == [("ann", None), ("bob", "secret-pw1"), ("cat", "another-pw")]
    with pytest.raises(ServiceError, match="list:2"):
        parse_user_lines("ann\nbob pw pw\n", "list")
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        created = create_users(rows, small)
        assert [(a.username, a.generated) for a in created] == [
            ("ann", True),
            ("bob", False),
            ("cat", False),
        ]
        assert len(created[0].password) >= 16 and created[1].password == "secret-pw1"
        assert _user("ann").check_password(created[0].password)
        assert [u.username for u in members(small)] == ["ann", "bob", "cat"]
        bad_lists: list[tuple[list[tuple[str, str | None]], str]] = [
            ([("dan", None), ("dan", None)], "twice"),
            ([("eve", "short")], "fewer than 8"),
            ([("a b", None)], "must be"),
            ([("fay", None), ("ann", None)], "exists already"),
        ]
        for bad, message in bad_lists:
            with pytest.raises(ServiceError, match=message):
                create_users(bad)
        assert db.session.scalar(select(User).where(User.username == "fay")) is None
