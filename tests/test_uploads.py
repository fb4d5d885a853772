"""Hostile uploads: every upload is read by the one rule of
:func:`scoring.files.bounded.decode_text`
(UTF-8, a UTF-8 byte-order mark dropped, UTF-16 refused by name) and every refusal names
the file, the line and the rule; a 5,000-digit score is a line's problem, not a 500."""

from __future__ import annotations

import html
import io

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.extensions import db
from annotate.models import JudgementRound, User
from tests.conftest import login, make_user

pytestmark = pytest.mark.database

BOM = b"\xef\xbb\xbf"
ROWS = "sentence\ttarget\tcandidate\titem\nA bright day.\tbright\tsunny\t1\n"
UTF16 = "UTF-16 text (it starts with a UTF-16 byte-order mark); files are UTF-8 text"


@pytest.fixture
def boss(app: Flask, client: FlaskClient) -> FlaskClient:
    make_user(app, "boss", "organiser")
    login(client, "boss")
    return client


def _bulk(client: FlaskClient, body: bytes) -> str:
    response = client.post(
        "/organiser/users/bulk",
        data={"file": (io.BytesIO(body), "users.txt")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200
    return html.unescape(response.get_data(as_text=True))


def test_bulk_users_accept_a_byte_order_mark(app: Flask, boss: FlaskClient) -> None:
    assert "2 accounts created." in _bulk(boss, BOM + b"dan\neve\n")
    with app.app_context():
        names = db.session.scalars(select(User.username).order_by(User.username)).all()
    assert names == ["boss", "dan", "eve"]


def test_bulk_users_refuse_utf16_by_name(app: Flask, boss: FlaskClient) -> None:
    page = _bulk(boss, "dan\neve\n".encode("utf-16"))
    assert f"No account created: users.txt: {UTF16}" in page
    page = _bulk(boss, b"dan\nev\xe9\n")
    assert (
        "No account created: users.txt:2: byte 0xE9 at column 3 is not UTF-8 "
        "(unexpected end of data)"
    ) in page


def _rows(client: FlaskClient, body: bytes) -> tuple[int, str]:
    response = client.post(
        "/organiser/rounds",
        data={
            "action": "rows",
            "name": "lr",
            "labels": "lexical-reference",
            "rows": (io.BytesIO(body), "rows.tsv"),
        },
        content_type="multipart/form-data",
    )
    return response.status_code, html.unescape(response.get_data(as_text=True))


def test_a_rows_file_with_a_byte_order_mark_makes_a_round(app: Flask, boss: FlaskClient) -> None:
    status, page = _rows(boss, BOM + ROWS.encode())
    assert status == 302, page
    with app.app_context():
        assert db.session.scalar(select(JudgementRound.name)) == "lr"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (ROWS.encode("utf-16"), f"rows.tsv: {UTF16}"),
        (
            ROWS.encode("utf-16-le"),
            "rows.tsv: UTF-16 text (a NUL byte beside each character); files are UTF-8 text",
        ),
    ],
)
def test_a_utf16_rows_file_is_refused_by_name(
    app: Flask, boss: FlaskClient, body: bytes, message: str
) -> None:
    status, page = _rows(boss, body)
    assert status == 200
    assert f"No round created: {message}" in page
    with app.app_context():
        assert db.session.scalar(select(JudgementRound.name)) is None


def _report(client: FlaskClient, round_id: int, body: bytes) -> tuple[int, str]:
    response = client.post(
        f"/organiser/rounds/{round_id}/report",
        data={"scores": (io.BytesIO(body), "m.jsonl")},
        content_type="multipart/form-data",
    )
    return response.status_code, html.unescape(response.get_data(as_text=True))


def _score_line(score: str) -> bytes:
    return ('{"item": "1", "candidate": "sunny", "score": ' + score + "}\n").encode()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            _score_line("9" * 5000),
            "m.jsonl:1: a number of 5000 digits (at most 4300) (each line is one JSON object)",
        ),
        (
            _score_line("9" * 400),
            f"m.jsonl:1: score {'9' * 40}… is not a finite number",
        ),
        (_score_line("1e999"), "m.jsonl:1: score inf is not a finite number"),
        (
            _score_line("[" * 50_000 + "]" * 50_000),
            "m.jsonl:1: arrays and objects nested 50001 deep; at most about 1000 levels can "
            "be read",
        ),
        (
            b'{"item": "1", "candidate": "sunny"}\n{"item": "1", "candidate": "gl\xe9ad"}\n',
            "m.jsonl:2: byte 0xE9 at column 31 is not UTF-8 (invalid continuation byte)",
        ),
        (_score_line("0.5").decode().encode("utf-16"), f"m.jsonl: {UTF16}"),
    ],
)
def test_a_hostile_scores_file_is_a_message(
    app: Flask, boss: FlaskClient, body: bytes, message: str
) -> None:
    status, page = _rows(boss, ROWS.encode())
    assert status == 302, page
    with app.app_context():
        round_id = db.session.scalar(select(JudgementRound.id))
    assert round_id is not None
    status, page = _report(boss, round_id, body)
    assert status == 400
    assert message in page


def test_a_scores_file_with_a_byte_order_mark_is_read(app: Flask, boss: FlaskClient) -> None:
    _rows(boss, ROWS.encode())
    with app.app_context():
        round_id = db.session.scalar(select(JudgementRound.id))
    assert round_id is not None
    status, page = _report(boss, round_id, BOM + _score_line("0.5"))
    assert status == 200, page
    assert 'role="alert"' not in page


def test_a_system_file_with_a_byte_order_mark_is_scored_and_utf16_refused(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from tests.test_systems import GOOD, upload

    login(client, "boss")
    page = html.unescape(
        upload(
            client,
            dataset,
            (BOM + GOOD, "marked.best"),
            (GOOD.decode().encode("utf-16"), "wide.best"),
            (b"bright.a 1 :: cl\xe9ver\n", "latin.best"),
        )
    )
    assert "marked.best stored and scored (best, compat rules)." in page
    assert f"Not scored: wide.best: {UTF16}" in page
    assert (
        "Not scored: latin.best:1: byte 0xE9 at column 17 is not UTF-8 (invalid continuation byte)"
    ) in page
