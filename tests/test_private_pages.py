"""Every answer to a logged-in user or a crowd participant is ``Cache-Control: no-store``
(their answers, the organisers' answer pages, the completion code stay out of a shared
computer's cache and history); static files and the pages of nobody logged in keep the
caching they had."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import answer, instance_ids, login, make_round, make_user, save

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def _no_store(client: FlaskClient, url: str, **options: object) -> str:
    response = client.get(url, **options)
    assert response.status_code == 200, (url, response.status_code)
    assert response.headers.get("Cache-Control") == "no-store", url
    return response.get_data(as_text=True)


def test_the_answers_pages_are_not_stored(answered: Flask, dataset: int) -> None:
    client = answered.test_client()
    login(client, "boss")
    base = f"/organiser/datasets/{dataset}"
    assert "tolerated" in _no_store(client, f"{base}/answers")
    assert "tolerated" in _no_store(client, f"{base}/annotators/ann")
    assert "clever" in _no_store(client, f"{base}/items/1")
    assert "tolerated" in _no_store(client, f"{base}/export")


def test_the_annotation_pages_are_not_stored(app: Flask, client: FlaskClient, dataset: int) -> None:
    make_user(app, "ann")
    answer(app, "ann", {"1": {"sub1": "clever"}})
    login(client, "ann")
    first = instance_ids(app)[0]
    assert 'value="clever"' in _no_store(client, f"/annotate/{first}")
    assert _no_store(client, "/").count("small") >= 1  # the annotator's home page
    saved = client.post(
        f"/annotate/{first}", data={"sub1": "brilliant"}, headers={"Accept": "application/json"}
    )
    assert saved.status_code == 200 and saved.headers["Cache-Control"] == "no-store"


def test_a_judges_screen_is_not_stored(app: Flask, client: FlaskClient) -> None:
    make_user(app, "jo")
    round_id = make_round(app, judge="jo")
    login(client, "jo")
    assert "clever" in _no_store(client, f"/judge/{round_id}/1")


def test_the_participants_finished_page_with_its_code_is_not_stored(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.study import open_study

    with app.app_context():
        token = open_study(db.get_or_404(Dataset, dataset), "C0DE-42")
    response = client.get(f"/study/{token}?PROLIFIC_PID=60a1b2c3d4e5f6a7b8c9d0e1")
    assert response.status_code == 302 and response.headers["Cache-Control"] == "no-store"
    assert client.post(f"/study/dataset/{dataset}/start").status_code == 302
    for instance_id in instance_ids(app):
        assert save(client, instance_id, {"sub1": "word"}) == 302
    page = _no_store(client, f"/annotate/dataset/{dataset}/done")
    assert ">C0DE-42<" in page


def test_static_files_and_pages_of_nobody_logged_in_keep_their_caching(
    app: Flask, client: FlaskClient
) -> None:
    for url in ("/", "/login"):
        assert client.get(url).headers.get("Cache-Control") is None, url
    make_user(app, "ann")
    login(client, "ann")
    static = client.get("/static/lexsub.css")
    assert static.status_code == 200
    assert static.headers.get("Cache-Control") != "no-store"
    client.post("/logout")
    assert client.get("/login").headers.get("Cache-Control") is None
