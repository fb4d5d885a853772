"""Sessions end. A session cookie copied before logout, before an
organiser resets the password and before deactivation is refused afterwards; a log-in
checks one password hash whether or not the username exists."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text, update

from tests.conftest import login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def logged_in(client: FlaskClient) -> bool:
    """Whether ``client``'s cookie opens a page that needs a log-in."""
    response = client.get("/annotate")
    assert response.status_code in (200, 302), response.status_code
    return not response.headers.get("Location", "").startswith("/login")


def copy_session(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another client holding a copy of ``client``'s session cookie (as a thief would)."""
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.value
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    return thief


def _token(app: Flask, username: str) -> str:
    from annotate.extensions import db
    from annotate.models import User

    with app.app_context():
        token = db.session.scalar(select(User.session_token).where(User.username == username))
    assert token is not None
    return token


def test_the_cookie_names_the_token_not_the_id(app: Flask, client: FlaskClient) -> None:
    make_user(app, "ann")
    login(client, "ann")
    with client.session_transaction() as session:
        assert session["_user_id"] == _token(app, "ann")
    assert len(_token(app, "ann")) == 43


def test_a_cookie_copied_before_logout_is_refused(app: Flask, client: FlaskClient) -> None:
    make_user(app, "ann")
    login(client, "ann")
    thief = copy_session(app, client)
    assert logged_in(thief)
    before = _token(app, "ann")
    assert client.post("/logout").status_code == 302
    assert not logged_in(thief) and not logged_in(client)
    assert _token(app, "ann") != before
    login(client, "ann")  # the account itself still works
    assert logged_in(client) and not logged_in(thief)


def test_logout_ends_every_session_of_the_account(app: Flask) -> None:
    make_user(app, "ann")
    make_user(app, "bob")
    laptop, phone, other = app.test_client(), app.test_client(), app.test_client()
    login(laptop, "ann")
    login(phone, "ann")
    login(other, "bob")
    laptop.post("/logout")
    assert not logged_in(phone)
    assert logged_in(other)  # another account's session is untouched


def test_a_cookie_copied_before_a_password_reset_is_refused(
    app: Flask, client: FlaskClient, organiser: FlaskClient
) -> None:
    ann = make_user(app, "ann")
    login(client, "ann")
    thief = copy_session(app, client)
    assert logged_in(thief)
    response = organiser.post(f"/organiser/users/{ann}/password", data={"password": "brand-new-pw"})
    assert response.status_code == 302
    assert not logged_in(thief) and not logged_in(client)
    assert logged_in(organiser)  # the organiser's own session goes on
    login(client, "ann", "brand-new-pw")
    assert logged_in(client)


def test_a_refused_reset_ends_no_session(
    app: Flask, client: FlaskClient, organiser: FlaskClient
) -> None:
    ann = make_user(app, "ann")
    login(client, "ann")
    organiser.post(f"/organiser/users/{ann}/password", data={"password": "short"})
    assert logged_in(client)


def test_a_cookie_copied_before_deactivation_is_refused(
    app: Flask, client: FlaskClient, organiser: FlaskClient
) -> None:
    ann = make_user(app, "ann")
    login(client, "ann")
    thief = copy_session(app, client)
    assert logged_in(thief)
    assert organiser.post(f"/organiser/users/{ann}/active").status_code == 302
    assert not logged_in(thief) and not logged_in(client)
    organiser.post(f"/organiser/users/{ann}/active")  # active again: the old cookie stays dead
    assert not logged_in(thief)
    login(client, "ann")
    assert logged_in(client)


def test_the_loader_refuses_an_inactive_account(app: Flask, client: FlaskClient) -> None:
    """Even with its current token (deactivated without the service, by hand in SQL)."""
    from annotate.extensions import db
    from annotate.models import User

    make_user(app, "ann")
    login(client, "ann")
    with app.app_context():
        db.session.execute(update(User).where(User.username == "ann").values(active=False))
        db.session.commit()
    assert not logged_in(client)


def test_a_cookie_naming_the_user_id_is_refused(app: Flask, client: FlaskClient) -> None:
    """Cookies made before the session tokens named the id: they no longer log anyone in."""
    ann = make_user(app, "ann")
    with client.session_transaction() as session:
        session["_user_id"] = str(ann)
        session["_fresh"] = True
    assert not logged_in(client)


@pytest.mark.parametrize("token", ["", "\x00", "x" * 10_000])
def test_a_forged_token_is_refused(app: Flask, client: FlaskClient, token: str) -> None:
    make_user(app, "ann")
    with client.session_transaction() as session:
        session["_user_id"] = token
    assert not logged_in(client)


@pytest.fixture
def hash_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password hash checked during the test (the hash's method, e.g. 'scrypt')."""
    from werkzeug.security import check_password_hash

    import annotate.models

    calls: list[str] = []

    def counting(pwhash: str, password: str) -> bool:
        calls.append(pwhash.split("$", 1)[0])
        return check_password_hash(pwhash, password)

    monkeypatch.setattr(annotate.models, "check_password_hash", counting)
    return calls


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("nobody", "password1", "Wrong username or password."),  # unknown: the dummy hash
        ("ann", "wrong-password", "Wrong username or password."),  # known: her hash
        ("cat", "password1", "This account is deactivated"),  # inactive: her hash
        ("cat", "wrong-password", "Wrong username or password."),
        ("a" * 81, "password1", "Wrong username or password."),  # no account can have it
        ("ann\x00", "password1", "Wrong username or password."),
    ],
)
def test_every_failed_login_checks_one_hash_of_the_same_kind(
    app: Flask,
    client: FlaskClient,
    hash_checks: list[str],
    username: str,
    password: str,
    message: str,
) -> None:
    from annotate.extensions import db
    from annotate.models import User

    make_user(app, "ann")
    make_user(app, "cat")
    with app.app_context():
        db.session.execute(update(User).where(User.username == "cat").values(active=False))
        db.session.commit()
        stored = db.session.scalar(select(User.password_hash).where(User.username == "ann"))
    assert stored is not None
    method = stored.split("$", 1)[0]
    response = client.post("/login", data={"username": username, "password": password})
    assert response.status_code == 200 and message in response.get_data(as_text=True)
    assert hash_checks == [method]  # one check, made the way a real one is
    assert not logged_in(client)


def test_a_successful_login_checks_one_hash(
    app: Flask, client: FlaskClient, hash_checks: list[str]
) -> None:
    make_user(app, "ann")
    login(client, "ann")
    assert len(hash_checks) == 1


def _migrated_tokens(app: Flask, fill: Callable[[], None]) -> list[tuple[str, str | None]]:
    from flask_migrate import downgrade, upgrade

    from annotate.extensions import db

    with app.app_context():
        downgrade(revision="61afe1a3a51f")
        fill()
        upgrade()
        rows = db.session.execute(
            text("SELECT username, session_token FROM users ORDER BY username")
        ).all()
        db.session.remove()
    return [(name, token) for name, token in rows]


def test_the_migration_gives_existing_accounts_their_own_token(app: Flask) -> None:
    from annotate.extensions import db

    def fill() -> None:
        with db.engine.begin() as connection:
            for name in ("ann", "bob", "cat"):
                connection.execute(
                    text(
                        "INSERT INTO users (username, password_hash, role, active, created_at) "
                        "VALUES (:name, 'x', 'annotator', :active, CURRENT_TIMESTAMP)"
                    ),
                    {"name": name, "active": True},
                )

    rows = _migrated_tokens(app, fill)
    assert [name for name, _ in rows] == ["ann", "bob", "cat"]
    tokens = [token for _, token in rows]
    assert all(token and len(token) == 43 for token in tokens)
    assert len(set(tokens)) == 3
