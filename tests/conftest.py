"""Shared fixtures: the app and the real data in ../shared.

A test that needs ``../shared/data`` or ``../shared/oracle`` asks for the ``shared``
fixture. Locally it skips with the reason when the folder is missing; under ``CI=true``
it fails instead, and any skipped test at all fails the run (CI always has the data).
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from flask import Flask
from flask.testing import FlaskClient

from annotate import create_app

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
# the scorer's cache of gold readings (scoring.score.cache) in a folder of this run's own,
# for the commands the tests run in this process and in subprocesses alike
if "LEXSUB_CACHE_DIR" not in os.environ:
    os.environ["LEXSUB_CACHE_DIR"] = tempfile.mkdtemp(prefix="lexsub-test-cache-")
    atexit.register(shutil.rmtree, os.environ["LEXSUB_CACHE_DIR"], ignore_errors=True)
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip (fail under CI) when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"needs {path} (the shared data beside the repository)"
        if IN_CI:
            pytest.fail(message + ": CI must have it")
        pytest.skip(message)
    return path


@pytest.fixture
def shared() -> Path:
    return shared_path()


SMALL_XML = b"""<?xml version="1.0" ?>
<corpus lang="english">
  <lexelt item="bright.a">
    <instance id="1"><context>The <head>bright</head> pupil &amp; her friend.</context></instance>
    <instance id="2"><context>A <head>bright</head> light &lt;here&gt;.</context></instance>
  </lexelt>
  <lexelt item="stand.n.v">
    <instance id="3"><context>I cannot <head>stand</head> it.</context></instance>
  </lexelt>
</corpus>
"""

OTHER_XML = (
    SMALL_XML.replace(b'id="1"', b'id="11"')
    .replace(b'id="2"', b'id="12"')
    .replace(b'id="3"', b'id="13"')
)
"""SMALL_XML under other instance ids: a second dataset beside it."""

# four words: 3 + 1 + 2 + 2 sentences; batches of 3 are words a | b c | d
WORDS_XML = b"""<?xml version="1.0" ?>
<corpus lang="english">
<lexelt item="a.n"><instance id="a1"><context><head>a</head> x</context></instance>
<instance id="a2"><context><head>a</head> y</context></instance>
<instance id="a3"><context><head>a</head> z</context></instance></lexelt>
<lexelt item="b.n"><instance id="b1"><context><head>b</head> x</context></instance></lexelt>
<lexelt item="c.n"><instance id="c1"><context><head>c</head> x</context></instance>
<instance id="c2"><context><head>c</head> y</context></instance></lexelt>
<lexelt item="d.n"><instance id="d1"><context><head>d</head> x</context></instance>
<instance id="d2"><context><head>d</head> y</context></instance></lexelt>
</corpus>
"""


def database_url(tmp_path: Path) -> str:
    """The database tests run on: PostgreSQL when LEXSUB_TEST_DATABASE_URL names one (a
    fresh schema each test), else a SQLite file in ``tmp_path``."""
    url = os.environ.get("LEXSUB_TEST_DATABASE_URL")
    if not url:
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    return url


TEST_CONFIG = {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with the schema made by the migrations, made once and copied."""
    from flask_migrate import upgrade

    from annotate.extensions import db

    path = tmp_path_factory.mktemp("schema") / "schema.sqlite"
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return path


@pytest.fixture
def app(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Flask]:
    from flask_migrate import upgrade

    from annotate.extensions import db

    url = database_url(tmp_path)
    if url.startswith("sqlite"):
        shutil.copy(migrated_sqlite, tmp_path / "test.sqlite")
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    if not url.startswith("sqlite"):
        with app.app_context():
            with db.engine.begin() as connection:
                connection.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
            upgrade()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def make_user(
    app: Flask, username: str, role: str = "annotator", password: str = "password1"
) -> int:
    from annotate.services.accounts import create_user

    with app.app_context():
        return create_user(username, password, role).id


def assign(app: Flask, username: str, dataset_id: int) -> None:
    """Make annotator ``username`` a member of the dataset (only members open it)."""
    from annotate.extensions import db
    from annotate.models import Dataset, User
    from annotate.services.study import assign as assign_dataset

    with app.app_context():
        user = db.session.query(User).filter_by(username=username).one()
        assign_dataset(user, db.get_or_404(Dataset, dataset_id))


def instance_ids(app: Flask) -> list[int]:
    """Every sentence's id, in the order annotators get them."""
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Instance

    with app.app_context():
        return list(db.session.scalars(select(Instance.id).order_by(Instance.position)))


def make_round(app: Flask, name: str = "round", judge: str | None = None) -> int:
    """A lexical-reference judgement round of two candidates (a rows file we write), with
    ``judge`` assigned when given; its id."""
    from annotate.extensions import db
    from annotate.models import User
    from annotate.services.rounds import assign_judge, create_round
    from scoring.judgements.rounds import parse_rows

    plan = parse_rows(
        [
            "sentence\ttarget\tcandidate\torigin",
            "The <head>bright</head> boy .\tbright\tclever\thuman",
            "The <head>bright</head> boy .\tbright\tshiny\tsysA",
        ],
        "rows.tsv",
    )
    with app.app_context():
        found = create_round(plan, name, "rows", "lexical-reference")
        if judge is not None:
            user = db.session.query(User).filter_by(username=judge).one()
            assign_judge(user, found)
        return found.id


def login(client: FlaskClient, username: str, password: str = "password1") -> None:
    response = client.post("/login", data={"username": username, "password": password})
    assert response.status_code == 302, response.data


@pytest.fixture
def organiser(app: Flask) -> FlaskClient:
    """A client of its own (not ``client``) logged in as the organiser "boss": a test
    may hold an annotator's session in ``client`` beside it."""
    make_user(app, "boss", "organiser")
    boss = app.test_client()
    login(boss, "boss")
    return boss


@pytest.fixture
def dataset(app: Flask) -> int:
    """The small dataset above, imported as 'small'."""
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    with app.app_context():
        return import_dataset(
            parse_lexsub_xml(SMALL_XML, "small.xml"), "small", "small.xml", SMALL_XML
        ).dataset.id


ON_PURPOSE = "skipped on purpose: "
"""The start of the reason of a test that runs only when asked for, because it would
disturb a machine others share (restarting its PostgreSQL): such a skip is no failure
under CI=true (``.ci/run`` asks for these tests, so there they run)."""


def skip_on_purpose(reason: str) -> NoReturn:
    """Skip this test, saying why and how to ask for it; not a failure under CI=true."""
    pytest.skip(ON_PURPOSE + reason)


def unexpected_skips(reports: list[pytest.TestReport]) -> int:
    """How many of the skipped tests' ``reports`` are not :func:`skip_on_purpose`."""
    return sum(
        1
        for report in reports
        if not (isinstance(report.longrepr, tuple) and ON_PURPOSE in report.longrepr[2])
    )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Under CI a skip hides a missing dependency or data: turn any skip into a failure
    (but one :func:`skip_on_purpose`)."""
    if not IN_CI:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = unexpected_skips(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped and session.exitstatus == 0:
        print(
            f"\nCI=true: {skipped} test(s) skipped; CI has every dependency and "
            "../shared/data, so a skip is a failure"
        )
        session.exitstatus = 1


def join(client: FlaskClient, link: str) -> int:
    """Follow a study link as a participant and press Start on the onboarding page (no
    consent text, no questions); returns the link's own status (302 when admitted)."""
    response = client.get(link)
    if response.status_code == 302:
        opened = client.get(response.headers["Location"])
        if opened.headers.get("Location", "").endswith("/start"):
            assert client.post(opened.headers["Location"]).status_code == 302
    return response.status_code


def save(client: FlaskClient, instance_id: int, form: dict[str, str]) -> int:
    """Save ``form`` through the annotation page, confirming flagged values (a one-letter
    substitute, ``nil`` typed as a word, the target word) as an annotator would by
    pressing Save again; returns the final status (302 when saved)."""
    response = client.post(f"/annotate/{instance_id}", data=form)
    if response.status_code == 200:
        token = re.search(r'name="confirm" value="([0-9a-f]+)"', response.get_data(as_text=True))
        if token:
            response = client.post(
                f"/annotate/{instance_id}", data={**form, "confirm": token.group(1)}
            )
    return response.status_code


def answer(app: Flask, username: str, answers: dict[str, dict[str, str]]) -> None:
    """``username`` logs in and saves ``answers`` (xml id → form) through HTTP."""
    from annotate.extensions import db
    from annotate.models import Dataset, Instance, User
    from annotate.services.study import assign

    client = app.test_client()
    login(client, username)
    with app.app_context():
        ids = {row.xml_id: row.id for row in db.session.query(Instance)}
        user = db.session.query(User).filter_by(username=username).one()
        for dataset in db.session.query(Dataset):  # annotators open only their datasets
            assign(user, dataset)
    for xml_id, form in answers.items():
        assert save(client, ids[xml_id], form) == 302, (xml_id, form)


@pytest.fixture
def answered(app: Flask, dataset: int) -> Flask:
    """Three annotators (and the organiser "boss") on the small dataset, through HTTP:
    bright.a 1: ann {clever}, bob {clever, smart}, cat a name; stand.n.v 3: ann
    {tolerated, bear}, bob {tolerated}, cat {bear} ('tolerated', a verb, will be
    lemmatised)."""
    for name in ("ann", "bob", "cat"):
        make_user(app, name)
    make_user(app, "boss", "organiser")
    answer(app, "ann", {"1": {"sub1": "clever"}, "3": {"sub1": "tolerated", "sub2": "bear"}})
    answer(app, "bob", {"1": {"sub1": "clever", "sub2": "smart"}, "3": {"sub1": "tolerated"}})
    answer(app, "cat", {"1": {"name": "on"}, "3": {"sub1": "bear"}})
    return app
