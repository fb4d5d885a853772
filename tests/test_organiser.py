"""Organiser pages and commands: access, accounts, import, progress, export."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import SMALL_XML, assign, login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

EXPORT_KEYS = {
    "annotator",
    "lexelt",
    "instance",
    "kind",
    "substitutes",
    "multiword",
    "used_dictionary",
    "updated_at",
}


def test_upload_import_and_reimport(organiser: FlaskClient) -> None:
    def upload() -> str:
        return organiser.post(
            "/organiser/datasets",
            data={"name": "small", "file": (BytesIO(SMALL_XML), "small.xml")},
            content_type="multipart/form-data",
        ).get_data(as_text=True)

    assert "Imported 3 sentences as small; 0 repairs" in upload()
    assert "Already imported (unchanged): 3 sentences" in upload()


def test_bad_upload_imports_nothing(app: Flask, organiser: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance

    page = organiser.post(
        "/organiser/datasets",
        data={"name": "bad", "file": (BytesIO(b"<corpus><lexelt item='a.n'>"), "bad.xml")},
        content_type="multipart/form-data",
    ).get_data(as_text=True)
    assert "Nothing imported: bad.xml:1" in page
    with app.app_context():
        assert db.session.query(Dataset).count() == 0 and db.session.query(Instance).count() == 0


def test_accounts_create_deactivate_reset(app: Flask, organiser: FlaskClient) -> None:
    page = organiser.post(
        "/organiser/users", data={"username": "cara", "password": "longenough", "role": "annotator"}
    ).get_data(as_text=True)
    assert "Account cara created." in page
    from annotate.extensions import db
    from annotate.models import User

    with app.app_context():
        cara = db.session.query(User).filter_by(username="cara").one().id
    organiser.post(f"/organiser/users/{cara}/active")
    other = app.test_client()
    response = other.post("/login", data={"username": "cara", "password": "longenough"})
    assert b"deactivated" in response.data
    organiser.post(f"/organiser/users/{cara}/active")
    organiser.post(f"/organiser/users/{cara}/password", data={"password": "brand-new-pw"})
    login(other, "cara", "brand-new-pw")


def test_progress_and_export(app: Flask, client: FlaskClient, dataset: int) -> None:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    make_user(app, "boss", "organiser")
    login(client, "ann")
    first = client.get("/annotate").headers["Location"]
    client.post(
        first,
        data={"sub1": "clever", "mw": "on", "multiword": "bright pupil", "used_dictionary": "on"},
    )
    client.post("/logout")
    login(client, "boss")
    page = client.get(f"/organiser/datasets/{dataset}/progress").get_data(as_text=True)
    assert "<td>bright.a</td><td>2</td><td>1</td>" in page
    body = client.get(f"/organiser/datasets/{dataset}/export").get_data(as_text=True)
    (record,) = [json.loads(line) for line in body.splitlines()]
    assert set(record) >= EXPORT_KEYS
    assert {k: record[k] for k in EXPORT_KEYS - {"updated_at"}} == {
        "annotator": "ann",
        "lexelt": "bright.a",
        "instance": "1",
        "kind": "substitutes",
        "substitutes": ["clever"],
        "multiword": "bright pupil",
        "used_dictionary": True,
    }


def test_commands(app: Flask, tmp_path: Path) -> None:
    runner = app.test_cli_runner()
    assert "database ready" in runner.invoke(args=["lexsub", "init-db"]).output
    assert "database ready" in runner.invoke(args=["lexsub", "init-db"]).output  # idempotent
    result = runner.invoke(
        args=["lexsub", "create-user", "boss", "--role", "organiser", "--password", "password1"]
    )
    assert result.output == "created organiser boss\n"
    result = runner.invoke(args=["lexsub", "create-user", "ann"], input="password1\npassword1\n")
    assert "created annotator ann" in result.output
    assert (
        runner.invoke(args=["lexsub", "create-user", "ann", "--password", "password1"]).exit_code
        == 1
    )
    xml = tmp_path / "small.xml"
    xml.write_bytes(SMALL_XML)
    result = runner.invoke(args=["lexsub", "import", str(xml), "--dataset", "small"])
    assert "imported 3 instances in 2 words as dataset 'small' (0 repairs" in result.output
    result = runner.invoke(args=["lexsub", "import", str(xml), "--dataset", "small"])
    assert "already imported, unchanged: 3 instances" in result.output
    out = tmp_path / "responses.jsonl"
    result = runner.invoke(
        args=["lexsub", "export-responses", "--dataset", "small", "--out", str(out)]
    )
    assert result.output == f"wrote 0 responses to {out}\n" and out.read_text() == ""


def test_export_name_with_any_characters(app: Flask, client: FlaskClient) -> None:
    """Found in a real browser: a dataset name outside latin-1 broke the download header."""
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    make_user(app, "boss", "organiser")
    login(client, "boss")
    with app.app_context():
        dataset = import_dataset(
            parse_lexsub_xml(SMALL_XML, "s.xml"), 'données 日本 "x"', "s.xml", SMALL_XML
        ).dataset.id
    response = client.get(f"/organiser/datasets/{dataset}/export")
    header = response.headers["Content-Disposition"]
    header.encode("latin-1")  # what a server must be able to send
    assert "filename*=UTF-8''donn%C3%A9es%20%E6%97%A5%E6%9C%AC%20%22x%22.responses.jsonl" in header
