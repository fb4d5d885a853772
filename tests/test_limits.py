"""Outside the annotation form, no server error on over-long input or
control characters. Imported XML, dataset names, uploaded file names, lemma decisions,
usernames and log-ins are refused with a message naming the value and the rule (or, for
a file name, kept shortened), and nothing is stored. PostgreSQL refuses NUL in text and
enforces the column sizes, so these run there too."""

from __future__ import annotations

import html
from io import BytesIO

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.conftest import SMALL_XML, login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def xml(item: str = "bright.a", instance: str = "1", head: str = "bright") -> bytes:
    return (
        f'<?xml version="1.0" ?>\n<corpus lang="english">\n<lexelt item="{item}">\n'
        f'<instance id="{instance}">\n<context>A <head>{head}</head> day.</context>\n'
        "</instance>\n</lexelt>\n</corpus>\n"
    ).encode()


def page_text(response: object) -> str:
    from werkzeug.test import TestResponse

    assert isinstance(response, TestResponse)
    assert response.status_code == 200, response.status_code
    return html.unescape(response.get_data(as_text=True))


def counts(app: Flask) -> tuple[int, int, int]:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance, Lexelt

    with app.app_context():
        return tuple(
            db.session.scalar(select(func.count(model.id))) or 0  # type: ignore[return-value]
            for model in (Dataset, Lexelt, Instance)
        )


def upload(client: FlaskClient, data: bytes, file_name: str, name: str = "") -> str:
    return page_text(
        client.post(
            "/organiser/datasets",
            data={"name": name, "file": (BytesIO(data), file_name)},
            content_type="multipart/form-data",
            follow_redirects=True,
        )
    )


# --- imported XML -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (
            xml(item="b" * 119 + ".a"),
            f"big.xml:3: lexelt item {'b' * 40!r}… has 121 characters; at most 120",
        ),
        (
            xml(instance="9" * 65),
            f"big.xml:4: instance id {'9' * 40!r}… has 65 characters; at most 64",
        ),
        (
            xml(head="h" * 256),
            "big.xml:5: the <head> of instance '1' has 256 characters; at most 255",
        ),
    ],
)
def test_over_long_names_in_xml_are_refused(
    app: Flask, organiser: FlaskClient, data: bytes, problem: str
) -> None:
    page = upload(organiser, data, "big.xml", "big")
    assert f"Nothing imported: {problem}" in page
    assert counts(app) == (0, 0, 0)


def test_names_in_xml_at_the_limits_are_stored(app: Flask, organiser: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Instance, Lexelt

    data = xml(item="b" * 118 + ".a", instance="9" * 64, head="h" * 255)
    assert "Imported 1 sentences as edge" in upload(organiser, data, "edge.xml", "edge")
    with app.app_context():
        lexelt = db.session.scalar(select(Lexelt))
        instance = db.session.scalar(select(Instance))
        assert lexelt is not None and instance is not None
        assert (len(lexelt.item), lexelt.pos, len(instance.xml_id), len(instance.head)) == (
            120,
            "a",
            64,
            255,
        )


def test_nul_in_xml_is_refused(app: Flask, organiser: FlaskClient) -> None:
    page = upload(organiser, xml(head="a&#0;b"), "nul.xml", "nul")
    assert "Nothing imported: nul.xml:5: not well-formed XML" in page
    assert counts(app) == (0, 0, 0)


# --- dataset names and uploaded file names ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        ("d" * 121, f"dataset name {'d' * 40!r}… has 121 characters; at most 120"),
        (
            "two\nlines",
            "dataset name 'two\\nlines' contains U+000A: control characters, line "
            "breaks and bidi controls are not allowed",
        ),
        ("nul\x00name", "dataset name 'nul\\x00name' contains U+0000"),
        ("tab\tname", "dataset name 'tab\\tname' contains U+0009"),
        ("c1\x85name", "dataset name 'c1\\x85name' contains U+0085"),
        ("evil\u202eeman", "dataset name 'evil\\u202eeman' contains U+202E"),
        ("para\u2029name", "dataset name 'para\\u2029name' contains U+2029"),
    ],
)
def test_bad_dataset_names_are_refused(
    app: Flask, organiser: FlaskClient, name: str, rule: str
) -> None:
    page = upload(organiser, SMALL_XML, "small.xml", name)
    assert f"Nothing imported: {rule}" in page
    assert counts(app) == (0, 0, 0)


def test_bad_dataset_names_are_refused_by_the_service(app: Flask) -> None:
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset
    from annotate.services.rules import ServiceError

    result = parse_lexsub_xml(SMALL_XML, "small.xml")
    with app.app_context():
        for name in ("", "   ", "x" * 121, "a\x00", "a\r\nb"):
            with pytest.raises(ServiceError, match=r"^dataset name "):
                import_dataset(result, name, "small.xml", SMALL_XML)
        assert import_dataset(result, "é" * 120, "small.xml", SMALL_XML).instances == 3
    assert counts(app) == (1, 2, 3)


def test_an_over_long_file_name_without_a_dataset_name_is_refused(
    app: Flask, organiser: FlaskClient
) -> None:
    file_name = "f" * 200 + ".xml"
    page = upload(organiser, SMALL_XML, file_name)
    assert f"Nothing imported: dataset name {'f' * 40!r}… has 204 characters; at most 120" in page
    assert counts(app) == (0, 0, 0)


def test_an_over_long_file_name_is_kept_shortened(app: Flask, organiser: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset

    file_name = "f" * 300 + ".xml"
    assert "Imported 3 sentences as small" in upload(organiser, SMALL_XML, file_name, "small")
    with app.app_context():
        source = db.session.scalar(select(Dataset.source))
    assert source == "f" * 254 + "…"


def test_control_characters_are_removed_from_a_file_name() -> None:
    from annotate.services.rules import safe_source

    assert safe_source("a\x00b\x1fc\u202e.xml") == "abc.xml"
    assert safe_source("x" * 255) == "x" * 255
    assert safe_source("x" * 256) == "x" * 254 + "…"


# --- lemma decisions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "rule"),
    [
        (
            {"surface": "s" * 256, "action": "accept"},
            f"surface {'s' * 40!r}… has 256 characters; at most 255",
        ),
        ({"surface": "bad\x00", "action": "reject"}, "surface 'bad\\x00' contains U+0000"),
        ({"surface": "two\nlines", "action": "accept"}, "surface 'two\\nlines' contains U+000A"),
        (
            {"surface": "went", "action": "correct", "lemma": "l" * 256},
            f"lemma {'l' * 40!r}… has 256 characters; at most 255",
        ),
        (
            {"surface": "went", "action": "correct", "lemma": "go\x00"},
            "lemma 'go\\x00' contains U+0000",
        ),
        (
            {"surface": "went", "action": "accept", "lexelt": "x" * 119 + ".v"},
            f"lexelt {'x' * 40!r}… has 121 characters; at most 120",
        ),
        (
            {"surface": "went", "action": "accept", "lexelt": "go.v\x00"},
            "lexelt 'go.v\\x00' contains U+0000",
        ),
        ({"surface": "went", "action": "x" * 300}, f"action {'x' * 40!r} is not accept, reject"),
    ],
)
def test_bad_lemma_decisions_are_refused(
    app: Flask, organiser: FlaskClient, dataset: int, form: dict[str, str], rule: str
) -> None:
    from annotate.extensions import db
    from annotate.models import LemmaDecision

    page = page_text(
        organiser.post(f"/organiser/datasets/{dataset}/lemmas", data=form, follow_redirects=True)
    )
    assert rule in page
    with app.app_context():
        assert db.session.scalar(select(func.count(LemmaDecision.id))) == 0


def test_lemma_decisions_at_the_limits_are_stored(app: Flask, dataset: int) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset, LemmaDecision
    from annotate.services.goldfiles import decide
    from annotate.services.rules import ServiceError

    with app.app_context():
        small = db.session.get(Dataset, dataset)
        assert small is not None
        # a correction is an answer's form: the substitute rule's 60 characters at most;
        # one of 60 passes that rule, and is refused only because no answer holds the form
        with pytest.raises(ServiceError, match="too long: 61 characters"):
            decide(small, "s" * 255, "correct", "l" * 61, "x" * 118 + ".v", "boss")
        with pytest.raises(ServiceError, match="no answer contains the form 'sss"):
            decide(small, "s" * 255, "correct", "l" * 60, "x" * 118 + ".v", "boss")
        decide(small, "s" * 255, "accept", None, "x" * 118 + ".v", "boss")
        row = db.session.scalar(select(LemmaDecision))
        assert row is not None
        assert (len(row.surface), row.lemma, len(row.lexelt)) == (255, None, 120)


# --- usernames and log-ins -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("username", "shown"),
    [
        ("u" * 81, f"{'u' * 40!r}…"),
        ("nul\x00", "'nul\\x00'"),
        ("two\nlines", "'two\\nlines'"),
        ("tab\tname", "'tab\\tname'"),
    ],
)
def test_bad_usernames_are_refused(
    app: Flask, organiser: FlaskClient, username: str, shown: str
) -> None:
    from annotate.extensions import db
    from annotate.models import User

    page = page_text(
        organiser.post(
            "/organiser/users",
            data={"username": username, "password": "longenough", "role": "annotator"},
        )
    )
    assert f"username {shown} must be 1-80 letters, digits, '.', '_' or '-'" in page
    with app.app_context():
        assert list(db.session.scalars(select(User.username))) == ["boss"]


def test_a_username_of_80_characters_is_stored(app: Flask) -> None:
    make_user(app, "u" * 80)
    client = app.test_client()
    login(client, "u" * 80)


@pytest.mark.parametrize("username", ["nul\x00", "x" * 10_000, "two\nlines", "\x00"])
def test_a_login_with_any_username_is_answered(
    app: Flask, client: FlaskClient, username: str
) -> None:
    make_user(app, "ann")
    page = page_text(
        client.post("/login", data={"username": username, "password": "password1\x00"})
    )
    assert "Wrong username or password." in page


# --- the login limit, per username -----------------------------------------------------------


def _attempt(client: FlaskClient, address: str, username: str) -> int:
    return client.post(
        "/login",
        data={"username": username, "password": "wrong-pw"},
        environ_base={"REMOTE_ADDR": address},
    ).status_code


def test_the_login_limit_counts_per_username(app: Flask) -> None:
    """Three addresses, one guess each at ann: a fourth address is refused for ann
    (and for ANN, the same name in other case), not for bob."""
    app.config["LOGIN_LIMIT"] = "3 per minute"
    make_user(app, "ann")
    make_user(app, "bob")
    client = app.test_client()
    assert [_attempt(client, f"10.0.0.{n}", "ann") for n in (1, 2, 3)] == [200, 200, 200]
    assert _attempt(client, "10.0.0.4", "ann") == 429
    assert _attempt(client, "10.0.0.5", " ANN ") == 429
    assert _attempt(client, "10.0.0.6", "bob") == 200
    # ann herself, with the right password, waits too: the limit is on the name
    response = client.post(
        "/login",
        data={"username": "ann", "password": "password1"},
        environ_base={"REMOTE_ADDR": "10.0.0.7"},
    )
    assert response.status_code == 429


def test_the_login_limit_still_counts_per_address(app: Flask) -> None:
    app.config["LOGIN_LIMIT"] = "3 per minute"
    client = app.test_client()
    assert [_attempt(client, "10.0.0.1", f"user{n}") for n in range(4)] == [200, 200, 200, 429]


@pytest.mark.parametrize(
    "target", ["/%0aevil", "/%0d%0aSet-Cookie:%20a=b", "/%00x", "/%5c%5cevil.com", "/%5cevil.com"]
)
def test_a_next_address_with_a_control_character_is_ignored(
    app: Flask, client: FlaskClient, target: str
) -> None:
    make_user(app, "ann")
    response = client.post(
        f"/login?next={target}", data={"username": "ann", "password": "password1"}
    )
    assert (response.status_code, response.headers["Location"]) == (302, "/")
