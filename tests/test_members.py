"""The organiser's study pages (annotate/web/members.py) and ``lexsub assign`` /
``create-users`` / ``demo``."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.extensions import db
from annotate.models import Dataset, User
from annotate.services.study import members
from tests.conftest import login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def _members(app: Flask, dataset_id: int) -> list[str]:
    with app.app_context():
        return [user.username for user in members(db.get_or_404(Dataset, dataset_id))]


@pytest.fixture
def annotators(app: Flask) -> list[int]:
    """The ids of three annotators, ann, bob and cat (members of no dataset yet)."""
    return [make_user(app, name) for name in ("ann", "bob", "cat")]


def test_annotators_refused(app: Flask, client: FlaskClient, dataset: int) -> None:
    make_user(app, "ann")
    login(client, "ann")
    for url in (f"/organiser/datasets/{dataset}/members", "/organiser/users/bulk"):
        assert client.get(url).status_code == 403
        assert client.post(url, data={"action": "members"}).status_code == 403


def test_tick_many_members_at_once(
    app: Flask, organiser: FlaskClient, dataset: int, annotators: list[int]
) -> None:
    url = f"/organiser/datasets/{dataset}/members"
    page = organiser.get(url).get_data(as_text=True)
    assert "Members of small" in page and ">boss</label>" not in page
    ann, bob, cat = annotators
    response = organiser.post(url, data={"action": "members", "user": [str(ann), str(cat)]})
    assert response.status_code == 302
    assert _members(app, dataset) == ["ann", "cat"]
    assert "2 annotators assigned, 0 removed." in organiser.get(url).get_data(as_text=True)
    organiser.post(url, data={"action": "members", "user": [str(bob), str(cat)]})
    assert _members(app, dataset) == ["bob", "cat"]
    page = organiser.get(url).get_data(as_text=True)
    assert f'value="{bob}" id="user-{bob}" checked' in page
    assert f'value="{ann}" id="user-{ann}" >' in page


def test_design_guidelines_and_study_link(app: Flask, organiser: FlaskClient, dataset: int) -> None:
    url = f"/organiser/datasets/{dataset}/members"
    organiser.post(
        url, data={"action": "design", "design": "overlap", "per_sentence": "2", "batch_size": "2"}
    )
    organiser.post(url, data={"action": "guidelines", "guidelines": "Be <brief>.\r\nThanks"})
    organiser.post(url, data={"action": "open-study", "completion_code": "DONE-1"})
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        assert (small.design, small.per_sentence, small.batch_size) == ("overlap", 2, 2)
        assert small.guidelines == "Be <brief>.\nThanks"
        assert small.completion_code == "DONE-1" and small.study_token
        token = small.study_token
    page = organiser.get(url).get_data(as_text=True)
    assert f"/study/{token}?PROLIFIC_PID=" in page and "DONE-1" in page
    assert "Be &lt;brief&gt;." in page
    response = organiser.post(
        url, data={"action": "design", "design": "overlap", "per_sentence": "", "batch_size": "2"}
    )
    assert "needs 1-1000 annotators per sentence" in organiser.get(
        response.headers["Location"]
    ).get_data(as_text=True)
    organiser.post(url, data={"action": "close-study"})
    with app.app_context():
        assert db.get_or_404(Dataset, dataset).study_token is None
    assert organiser.post(url, data={"action": "nonsense"}).status_code == 302


def test_bulk_accounts_page(
    app: Flask, organiser: FlaskClient, dataset: int, annotators: list[int]
) -> None:
    response = organiser.post(
        "/organiser/users/bulk",
        data={"usernames": "dan\neve given-password\n", "dataset": str(dataset)},
    )
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    assert "2 accounts created and assigned to small." in page
    assert "<code>given-password</code> (as given)" in page
    assert _members(app, dataset) == ["dan", "eve"]
    refused = organiser.post("/organiser/users/bulk", data={"usernames": "fay\nann\n"})
    text = refused.get_data(as_text=True)
    assert "No account created: user &#39;ann&#39; exists already" in text
    assert "fay\nann" in text  # the list is kept to correct
    with app.app_context():
        assert db.session.scalar(select(User).where(User.username == "fay")) is None


def test_assign_command(app: Flask, dataset: int) -> None:
    make_user(app, "ann")
    runner = app.test_cli_runner()

    def run(*args: str) -> tuple[int, str]:
        result = runner.invoke(args=["lexsub", "assign", *args])
        return result.exit_code, result.output

    assert run("ann", "--dataset", "small") == (0, "ann assigned to dataset 'small'\n")
    assert run("ann", "--dataset", "small") == (0, "ann already assigned to dataset 'small'\n")
    assert _members(app, dataset) == ["ann"]
    assert run("ann", "--dataset", "small", "--remove") == (0, "ann removed from dataset 'small'\n")
    assert _members(app, dataset) == []
    assert run("nobody", "--dataset", "small") == (1, "Error: no user 'nobody'\n")
    assert run("ann", "--dataset", "nothing") == (1, "Error: no dataset 'nothing'\n")
    assert run("ann")[0] == 2


def test_create_users_command(app: Flask, dataset: int, tmp_path: Path) -> None:
    names = tmp_path / "names.txt"
    names.write_text("ann\nbob a-long-password\n", encoding="utf-8")
    result = app.test_cli_runner().invoke(
        args=["lexsub", "create-users", str(names), "--dataset", "small"]
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("ann\t") and lines[1] == "bob\ta-long-password"
    assert _members(app, dataset) == ["ann", "bob"]
    result = app.test_cli_runner().invoke(args=["lexsub", "create-users", str(names)])
    assert result.exit_code == 1 and "Error: no account created: user 'ann' exists" in result.output


def test_demo_assigns_the_demo_to_the_demo_annotators_only(app: Flask, dataset: int) -> None:
    make_user(app, "ann")
    result = app.test_cli_runner().invoke(args=["lexsub", "demo"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        demo = db.session.scalar(select(Dataset).where(Dataset.name == "demo"))
        assert demo is not None
        assert [user.username for user in members(demo)] == ["alice", "bob"]
    assert _members(app, dataset) == []
    again = app.test_cli_runner().invoke(args=["lexsub", "demo"])  # still safe to run again
    assert again.exit_code == 0, again.output
