"""Hashed passwords, CSRF on forms, limited log-in attempts,
real near-original files imported through the command with their repairs."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from annotate import create_app
from tests.conftest import login, make_user, shared_path

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def test_passwords_are_hashed(app: Flask) -> None:
    from annotate.extensions import db
    from annotate.models import User

    make_user(app, "ann", password="secret-pw-1")
    with app.app_context():
        stored = db.session.scalar(select(User.password_hash))
    assert (
        stored is not None
        and "secret-pw-1" not in stored
        and stored.startswith(("scrypt:", "pbkdf2:"))
    )


def test_forms_need_the_csrf_token(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    make_user(app, "ann")
    assert (
        client.post("/login", data={"username": "ann", "password": "password1"}).status_code == 400
    )
    page = client.get("/login").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    response = client.post(
        "/login", data={"username": "ann", "password": "password1", "csrf_token": token}
    )
    assert response.status_code == 302


def test_login_attempts_are_limited(app: Flask) -> None:
    app.config["LOGIN_LIMIT"] = "3 per minute"
    client = app.test_client()
    codes = [
        client.post("/login", data={"username": "x", "password": "wrong-pw"}).status_code
        for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]


def test_session_cookie_settings(app: Flask) -> None:
    make_user(app, "ann")
    client = app.test_client()
    response = client.post("/login", data={"username": "ann", "password": "password1"})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    secure = create_app({"TESTING": True, "SECRET_KEY": "x", "SESSION_COOKIE_SECURE": True})
    assert secure.config["SESSION_COOKIE_SECURE"] is True


@pytest.mark.parametrize(
    ("value", "secure"),
    [
        ("0", False),
        ("false", False),
        ("No", False),
        ("OFF", False),
        ("", False),
        ("1", True),
        ("true", True),
        ("Yes", True),
        (" on ", True),
    ],
)
def test_secure_cookies_setting_reads_off_and_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, secure: bool
) -> None:
    monkeypatch.setenv("LEXSUB_INSTANCE", str(tmp_path))
    monkeypatch.setenv("LEXSUB_SECURE_COOKIES", value)
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert app.config["SESSION_COOKIE_SECURE"] is secure
    assert app.config.get("REMEMBER_COOKIE_SECURE", False) is secure


def test_secure_cookies_unset_is_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXSUB_INSTANCE", str(tmp_path))
    monkeypatch.delenv("LEXSUB_SECURE_COOKIES", raising=False)
    assert create_app({"TESTING": True, "SECRET_KEY": "x"}).config["SESSION_COOKIE_SECURE"] is False


@pytest.mark.parametrize("value", ["2", "enabled", "y"])
def test_secure_cookies_setting_that_is_neither_on_nor_off_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("LEXSUB_INSTANCE", str(tmp_path))
    monkeypatch.setenv("LEXSUB_SECURE_COOKIES", value)
    with pytest.raises(ValueError) as caught:
        create_app({"TESTING": True, "SECRET_KEY": "x"})
    assert str(caught.value) == (
        f"LEXSUB_SECURE_COOKIES={value!r}: must be on (1, true, yes, on) "
        "or off (0, false, no, off, empty)"
    )


def test_every_boolean_setting_reads_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test suite's own switch is read by the same rule as the app's."""
    from tests import test_faults

    monkeypatch.setenv("LEXSUB_TEST_RESTART_POSTGRES", "true")
    assert test_faults._why_not_restart("postgresql://nobody@127.0.0.1:1/x") is None
    monkeypatch.setenv("LEXSUB_TEST_RESTART_POSTGRES", "maybe")
    with pytest.raises(ValueError, match=r"^LEXSUB_TEST_RESTART_POSTGRES='maybe': must be on"):
        test_faults._why_not_restart("postgresql://nobody@127.0.0.1:1/x")


def test_secret_key_is_generated_into_instance(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.setenv("LEXSUB_INSTANCE", str(tmp_path / "instance"))
    first = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}).config["SECRET_KEY"]
    again = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"}).config["SECRET_KEY"]
    assert len(first) == 64 and first == again
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    ("part", "instances", "words"),
    [(("trial", "lexsub_trial.xml"), 300, 34), (("test", "lexsub_test.xml"), 1710, 171)],
)
def test_near_original_files_import_with_repairs(
    app: Flask, part: tuple[str, str], instances: int, words: int
) -> None:
    from annotate.extensions import db
    from annotate.models import Instance

    path = shared_path("data", "semeval2007", *part)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["lexsub", "import", str(path), "--dataset", part[0]])
    assert result.exit_code == 0, result.output
    assert f"imported {instances} instances in {words} words" in result.output
    assert "repaired " in result.output and "(instance " in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count(Instance.id))) == instances


def test_hostile_xml_is_refused_and_nothing_stored(app: Flask, tmp_path: Path) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset

    bomb = tmp_path / "bomb.xml"
    bomb.write_text(
        '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaa">'
        '<!ENTITY b "&a;&a;&a;&a;">]><corpus><lexelt item="a.n"><instance id="1">'
        "<context>&b; <head>a</head></context></instance></lexelt></corpus>"
    )
    result = app.test_cli_runner().invoke(args=["lexsub", "import", str(bomb), "--dataset", "x"])
    assert result.exit_code == 1 and "nothing imported" in result.output
    with app.app_context():
        assert db.session.scalar(select(func.count(Dataset.id))) == 0


def test_annotator_login_does_not_reach_organiser(app: Flask) -> None:
    make_user(app, "ann")
    client = app.test_client()
    login(client, "ann")
    assert client.get("/organiser/").status_code == 403
