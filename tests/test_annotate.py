"""The annotation flow through the app's HTTP interface."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.conftest import assign, instance_ids, login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

LABELS = [
    "Substitute 1",
    "Substitute 2",
    "Substitute 3",
    "Proper name",
    "No substitute (nil)",
    "Part of a multiword",
    "Multiword",
    "Used a dictionary or thesaurus for this word",
    "Save and next",
    "Previous",
    "Log out",
]


@pytest.fixture
def annotator(app: Flask, client: FlaskClient, dataset: int) -> FlaskClient:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    return client


def test_login_page_labels(client: FlaskClient) -> None:
    page = client.get("/login").get_data(as_text=True)
    for label in ("Username", "Password", "Log in"):
        assert f">{label}<" in page


def test_wrong_password_is_refused(app: Flask, client: FlaskClient) -> None:
    make_user(app, "ann")
    response = client.post("/login", data={"username": "ann", "password": "nope-nope"})
    assert response.status_code == 200 and b"Wrong username or password" in response.data


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:x"])
def test_next_redirect_stays_on_site(app: Flask, client: FlaskClient, target: str) -> None:
    make_user(app, "ann")
    response = client.post(
        f"/login?next={target}", data={"username": "ann", "password": "password1"}
    )
    assert response.headers["Location"] == "/"


def test_first_page_shows_one_sentence_target_bold_no_pos(
    app: Flask, annotator: FlaskClient
) -> None:
    first = instance_ids(app)[0]
    response = annotator.get("/annotate")
    assert response.headers["Location"] == f"/annotate/{first}"
    page = annotator.get(f"/annotate/{first}").get_data(as_text=True)
    assert 'The <mark class="target"><b>bright</b></mark> pupil &amp; her friend.' in page
    assert "bright.a" not in page and ".a<" not in page
    for label in LABELS[:-2]:
        assert label in page
    assert "Log out" in page
    assert "Word 1 of 2 · sentence 1 of 2 · 0 / 3 done" in page


def test_markup_in_context_is_text(app: Flask, annotator: FlaskClient) -> None:
    page = annotator.get(f"/annotate/{instance_ids(app)[1]}").get_data(as_text=True)
    assert 'A <mark class="target"><b>bright</b></mark> light &lt;here&gt;.' in page


def test_save_and_next_stores_answer_and_history(app: Flask, annotator: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Response, Revision

    first, second, _ = instance_ids(app)
    response = annotator.post(
        f"/annotate/{first}",
        data={
            "sub1": " clever ",
            "sub2": "smart",
            "sub3": "",
            "mw": "on",
            "multiword": "bright  pupil",
            "used_dictionary": "on",
        },
    )
    assert response.headers["Location"] == f"/annotate/{second}"
    with app.app_context():
        saved = db.session.scalar(select(Response))
        assert saved is not None
        assert (saved.kind, saved.substitutes, saved.multiword) == (
            "substitutes",
            ["clever", "smart"],
            "bright pupil",
        )
        assert db.session.scalar(select(func.count(Revision.id))) == 1
    page = annotator.get(f"/annotate/{second}").get_data(as_text=True)
    assert re.search(r'name="used_dictionary" checked', page)  # held for the whole word
    assert "Word 1 of 2 · sentence 2 of 2 · 1 / 3 done" in page
    assert f'href="/annotate/{first}" id="previous">Previous' in page


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({}, "Give at least one substitute"),
        ({"sub1": "clever", "name": "on"}, "not both"),
        ({"name": "on", "nil": "on"}, "either"),
        ({"sub1": "clever", "sub2": "Clever"}, "given twice"),
        ({"sub1": "clever", "mw": "on"}, "type the multiword"),
        ({"sub1": "clever", "multiword": "take place"}, "for the multiword you typed"),
        ({"sub1": "a " * 40}, "too long"),
    ],
)
def test_validation_keeps_typed_input(
    app: Flask, annotator: FlaskClient, form: dict[str, str], message: str
) -> None:
    first = instance_ids(app)[0]
    response = annotator.post(f"/annotate/{first}", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and message in page
    if form.get("sub1"):
        assert f'value="{form["sub1"]}"' in page


def test_name_and_nil_are_answers(app: Flask, annotator: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Response

    first, second, _ = instance_ids(app)
    annotator.post(f"/annotate/{first}", data={"name": "on"})
    annotator.post(f"/annotate/{second}", data={"nil": "on"})
    with app.app_context():
        kinds = [r.kind for r in db.session.scalars(select(Response).order_by(Response.id))]
    assert kinds == ["name", "nil"]


def test_logging_in_again_lands_on_first_unanswered(app: Flask, annotator: FlaskClient) -> None:
    first, second, third = instance_ids(app)
    annotator.post(f"/annotate/{first}", data={"sub1": "clever"})
    annotator.post(f"/annotate/{third}", data={"sub1": "bear"})
    annotator.post("/logout")
    login(annotator, "ann")
    assert annotator.get("/annotate").headers["Location"] == f"/annotate/{second}"


def test_going_back_shows_and_changes_the_answer(app: Flask, annotator: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Response, Revision

    first = instance_ids(app)[0]
    annotator.post(f"/annotate/{first}", data={"sub1": "clever"})
    assert 'value="clever"' in annotator.get(f"/annotate/{first}").get_data(as_text=True)
    annotator.post(f"/annotate/{first}", data={"sub1": "gifted"})
    with app.app_context():
        saved = db.session.scalar(select(Response))
        assert saved is not None and saved.substitutes == ["gifted"]
        assert db.session.scalar(select(func.count(Revision.id))) == 2


def test_last_sentence_leads_to_all_done(app: Flask, annotator: FlaskClient) -> None:
    for instance_id in instance_ids(app):
        annotator.post(f"/annotate/{instance_id}", data={"sub1": "word"})
    page = annotator.get("/annotate").get_data(as_text=True)
    assert "All done" in page


def test_anonymous_users_are_sent_to_log_in(client: FlaskClient, dataset: int) -> None:
    response = client.get("/annotate")
    assert response.status_code == 302 and "/login" in response.headers["Location"]
