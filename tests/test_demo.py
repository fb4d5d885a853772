"""``lexsub demo``: the demo organiser's password is made for each install and printed
once; a password is printed only while it still opens its account."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from annotate.extensions import db
from annotate.models import User
from tests.conftest import login

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

NOT_SHOWN = (
    "password not shown (printed once, when it was made; `lexsub demo"
    " --organiser-password NEW` sets another)"
)


def _organiser_line(output: str) -> str:
    return next(line for line in output.splitlines() if "username organiser" in line)


def test_the_organiser_password_is_made_for_this_install_and_shown_once(
    app: Flask, client: FlaskClient
) -> None:
    runner = app.test_cli_runner()
    first = runner.invoke(args=["lexsub", "demo"])
    assert first.exit_code == 0, first.output
    assert first.output.startswith("demo dataset: 30 sentences\n")
    found = re.fullmatch(
        r"  organiser  username organiser  password (\S{16})  \(made for this install: shown"
        r" only now\)",
        _organiser_line(first.output),
    )
    assert found is not None, first.output
    password = found.group(1)
    assert password != "demo-organiser"
    assert "  annotator  username alice      password demo-alice\n" in first.output
    login(client, "organiser", password)  # the printed password opens the account
    assert client.get("/organiser/").status_code == 200

    again = runner.invoke(args=["lexsub", "demo"]).output
    assert _organiser_line(again) == f"  organiser  username organiser  {NOT_SHOWN}"
    assert password not in again
    assert "password demo-alice" in again  # still works: still shown

    with app.app_context():
        alice = db.session.query(User).filter_by(username="alice").one()
        alice.set_password("something-else")
        db.session.commit()
    changed = runner.invoke(args=["lexsub", "demo"]).output
    assert "demo-alice" not in changed
    assert (
        "  annotator  username alice      password not shown (changed since the account was made)"
        in changed
    )


def test_another_install_gets_another_password(app: Flask) -> None:
    runner = app.test_cli_runner()
    first = _organiser_line(runner.invoke(args=["lexsub", "demo"]).output)
    with app.app_context():
        db.session.query(User).filter_by(username="organiser").delete()
        db.session.commit()
    second = _organiser_line(runner.invoke(args=["lexsub", "demo"]).output)
    assert first != second and "made for this install" in second


def test_an_install_with_the_old_known_password_gets_a_new_one(
    app: Flask, client: FlaskClient
) -> None:
    from annotate.services.accounts import create_user

    with app.app_context():
        create_user("organiser", "demo-organiser", "organiser")  # as the demo made it before
    output = app.test_cli_runner().invoke(args=["lexsub", "demo"]).output
    assert "made for this install" in _organiser_line(output)
    response = client.post("/login", data={"username": "organiser", "password": "demo-organiser"})
    assert response.status_code != 302  # the old password opens nothing


def test_a_given_password_is_set_and_printed(app: Flask, client: FlaskClient) -> None:
    runner = app.test_cli_runner()
    runner.invoke(args=["lexsub", "demo"])
    output = runner.invoke(args=["lexsub", "demo", "--organiser-password", "chosen-one"]).output
    assert _organiser_line(output) == "  organiser  username organiser  password chosen-one"
    login(client, "organiser", "chosen-one")
    short = runner.invoke(args=["lexsub", "demo", "--organiser-password", "short"])
    assert short.exit_code == 1
    assert "Error: a password has at least 8 characters" in short.output
