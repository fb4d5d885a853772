"""Every time shown says its zone; the responses export's ``updated_at`` carries its offset
on SQLite as on PostgreSQL (docs/formats.md); single-file downloads are named after the
dataset."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from flask import Flask

from annotate.models import aware, shown_time
from tests.conftest import login, make_user

pytestmark = pytest.mark.database

ISO_WITH_OFFSET = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00")


def test_a_time_is_shown_in_utc_and_says_so() -> None:
    naive = datetime(2026, 12, 2, 4, 36, 15)  # as SQLite gives a stored UTC time back
    assert aware(naive) == datetime(2026, 12, 2, 4, 36, 15, tzinfo=UTC)
    assert shown_time(naive) == "2026-12-02 04:36 UTC"
    assert shown_time(naive, "%Y-%m-%d %H:%M:%S") == "2026-12-02 04:36:15 UTC"
    berlin = datetime(2026, 12, 2, 5, 36, tzinfo=timezone(timedelta(hours=1)))
    assert shown_time(berlin) == "2026-12-02 04:36 UTC"
    assert shown_time(None) == ""


def test_the_export_carries_the_offset(answered: Flask) -> None:
    client = answered.test_client()
    login(client, "boss")
    body = client.get("/organiser/datasets/1/export").get_data(as_text=True)
    records = [json.loads(line) for line in body.splitlines()]
    assert len(records) == 6
    for record in records:
        assert ISO_WITH_OFFSET.fullmatch(record["updated_at"]), record["updated_at"]


def test_pages_show_times_with_their_zone(answered: Flask) -> None:
    client = answered.test_client()
    login(client, "boss")
    stamp = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?( UTC)?")
    for url in (
        "/organiser/",
        "/organiser/datasets/1/answers",
        "/organiser/datasets/1/items/1?revisions=on",
    ):
        html = client.get(url).get_data(as_text=True)
        found = [match.group() for match in stamp.finditer(html)]
        assert found, url
        assert all(text.endswith(" UTC") for text in found), (url, found)


@pytest.mark.parametrize(
    ("file", "name"),
    [
        ("gold", "small.gold"),
        ("mwgold", "small.mwgold"),
        ("summary.json", "small.summary.json"),
        ("annotators.jsonl", "small.annotators.jsonl"),
    ],
)
def test_single_file_downloads_are_named_after_the_dataset(
    answered: Flask, file: str, name: str
) -> None:
    client = answered.test_client()
    login(client, "boss")
    response = client.get("/organiser/datasets/1/gold", query_string={"file": file})
    assert response.status_code == 200
    assert f"filename={name}" in response.headers["Content-Disposition"]


def test_a_deletion_leaves_an_audit_line_on_the_dashboard(answered: Flask) -> None:
    from annotate.extensions import db
    from annotate.models import DatasetDeletion

    make_user(answered, "eve", "organiser")
    client = answered.test_client()
    login(client, "eve")
    assert 'id="deletions"' not in client.get("/organiser/").get_data(as_text=True)
    response = client.post("/organiser/datasets/1/delete", data={"name": "small"})
    assert response.status_code == 302
    with answered.app_context():
        [row] = db.session.scalars(db.select(DatasetDeletion))
        assert (row.dataset_name, row.deleted_by, row.answers, row.sentences, row.accounts) == (
            "small",
            "eve",
            6,
            3,
            0,
        )
        when = shown_time(row.deleted_at)
    boss = answered.test_client()
    login(boss, "boss")  # another organiser sees who deleted it
    html = boss.get("/organiser/").get_data(as_text=True)
    assert (
        f"<li>small deleted by eve on {when} (6 answers, 3 sentences, "
        "0 participant accounts)</li>" in html
    )
