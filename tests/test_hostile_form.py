"""Hostile input through the app: the form applies the one rule of a valid
substitute and keeps what was typed, flagged values are saved once confirmed, an answer
sent after the session ended comes back after logging in, every route sends the security
headers, and errors have styled pages."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.conftest import assign, login, make_round, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


@pytest.fixture
def annotator(app: Flask, client: FlaskClient, dataset: int) -> FlaskClient:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    return client


def _first(app: Flask) -> int:
    from annotate.extensions import db
    from annotate.models import Instance

    with app.app_context():
        found = db.session.scalar(select(Instance.id).order_by(Instance.position).limit(1))
        assert found is not None
        return found


def _saved(app: Flask) -> list[tuple[str, list[str], str | None]]:
    from annotate.extensions import db
    from annotate.models import Response

    with app.app_context():
        return [
            (r.kind, list(r.substitutes), r.multiword)
            for r in db.session.scalars(select(Response).order_by(Response.id))
        ]


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"sub1": "happy; glad"}, "sub1", "Substitute 1 ('happy; glad'): one substitute per box"),
        (
            {"sub1": "clever", "sub2": "smart, clever"},
            "sub2",
            "Substitute 2 ('smart, clever'): one substitute per box",
        ),
        ({"sub1": "smart/clever"}, "sub1", "one substitute per box"),
        ({"sub1": "quick :: rapid"}, "sub1", "contains '::'"),
        ({"sub1": "pn"}, "sub1", "'pn' is reserved"),
        ({"sub1": "!!!"}, "sub1", "has no letter or digit"),
        ({"sub1": "gl\x00ad"}, "sub1", "contains the control character U+0000"),
        ({"sub1": "clever", "sub3": "x" * 61}, "sub3", "Substitute 3"),
        (
            {"sub1": "clever", "mw": "on", "multiword": "take; place"},
            "multiword",
            "Multiword ('take; place')",
        ),
    ],
)
def test_refused_values_keep_what_was_typed_and_mark_the_field(
    app: Flask, annotator: FlaskClient, form: dict[str, str], field: str, message: str
) -> None:
    response = annotator.post(f"/annotate/{_first(app)}", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert message.replace("'", "&#39;") in page
    assert "<title>Error: " in page
    assert re.search(
        rf'id="{field}" name="{field}" value="[^"]*"[^>]*aria-invalid="true" '
        r'aria-describedby="message-1[ "]',  # then the target word
        page,
    ), page
    if "\x00" not in form[field]:
        assert f'value="{form[field]}"' in page  # what was typed is kept
    assert _saved(app) == []


def test_invisible_characters_and_spaces_are_removed_before_saving(
    app: Flask, annotator: FlaskClient
) -> None:
    annotator.post(
        f"/annotate/{_first(app)}", data={"sub1": "\u200bclever\u200e ", "sub2": " quick  witted "}
    )
    assert _saved(app) == [("substitutes", ["clever", "quick witted"], None)]


@pytest.mark.parametrize(
    ("typed", "caution"),
    [
        ("nil", "did you mean to tick &#39;No substitute (nil)&#39;"),
        ("name", "did you mean to tick &#39;Proper name&#39;"),
        ("x", "is one character long"),
        ("bright", "is the target word itself"),
    ],
)
def test_flagged_values_are_saved_once_confirmed(
    app: Flask, annotator: FlaskClient, typed: str, caution: str
) -> None:
    first = _first(app)
    response = annotator.post(f"/annotate/{first}", data={"sub1": typed})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and caution in page and "<title>Check: " in page
    assert _saved(app) == []
    token = re.search(r'name="confirm" value="([0-9a-f]+)"', page)
    assert token is not None
    # another value with the old token is asked about again
    again = annotator.post(
        f"/annotate/{first}", data={"sub1": "y" if typed != "y" else "z", "confirm": token.group(1)}
    )
    assert again.status_code == 200 and _saved(app) == []
    confirmed = annotator.post(
        f"/annotate/{first}", data={"sub1": typed, "confirm": token.group(1)}
    )
    assert confirmed.status_code == 302
    assert _saved(app) == [("substitutes", [typed], None)]


def test_an_answer_sent_after_the_session_ended_comes_back_after_login(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    """With CSRF on, as in production: the session cookie is gone (expired, or the
    browser restarted); the answer is kept, the annotator logs in and finds it typed."""
    app.config["WTF_CSRF_ENABLED"] = True
    make_user(app, "ann")
    assign(app, "ann", dataset)
    first = _first(app)
    form = {
        "sub1": "clever",
        "sub2": "gifted",
        "mw": "on",
        "multiword": "bright pupil",
        "used_dictionary": "on",
        "csrf_token": "stale",
    }
    response = client.post(f"/annotate/{first}", data=form)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/login?next=/annotate/{first}"
    page = client.get("/login").get_data(as_text=True)
    assert "Your session had ended, so your answer was not saved yet." in page
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    response = client.post(
        f"/login?next=/annotate/{first}",
        data={"username": "ann", "password": "password1", "csrf_token": token},
    )
    assert response.headers["Location"] == f"/annotate/{first}"
    page = client.get(f"/annotate/{first}").get_data(as_text=True)
    for value in ("clever", "gifted", "bright pupil"):
        assert f'value="{value}"' in page
    assert 'name="used_dictionary" checked' in page and 'name="mw" checked' in page
    assert "This answer is not saved yet" in page
    assert _saved(app) == []
    # shown once: the next visit shows the stored (empty) answer
    assert 'value="gifted"' not in client.get(f"/annotate/{first}").get_data(as_text=True)


def test_an_answer_sent_after_logout_elsewhere_comes_back(
    app: Flask, annotator: FlaskClient, dataset: int
) -> None:
    """The cookie is still there but names no session any more (logged out in another
    tab): same outcome."""
    first = _first(app)
    other = app.test_client()
    login(other, "ann")
    other.post("/logout")
    response = annotator.post(f"/annotate/{first}", data={"sub1": "brainy"})
    if response.status_code == 302 and response.headers["Location"].startswith("/login"):
        login(annotator, "ann")
        page = annotator.get(f"/annotate/{first}").get_data(as_text=True)
        assert 'value="brainy"' in page
        assert _saved(app) == []
    else:  # sessions that survived a logout elsewhere were the failure this guards against
        pytest.fail(f"the answer was taken after logout: {response.status_code}")


HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def _check_headers(response_headers: object, where: str) -> None:
    headers = dict(response_headers)  # type: ignore[call-overload]
    for name, value in HEADERS.items():
        assert headers.get(name) == value, (where, name)
    policy = headers.get("Content-Security-Policy", "")
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, where
    assert "unsafe-inline" not in policy, where


def test_every_route_sends_the_security_headers(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    """Every rule of app.url_map, as an organiser (who may open every page), with the
    ids of real objects; and the error pages."""
    from annotate.extensions import db
    from annotate.models import User

    make_user(app, "boss", "organiser")
    login(client, "boss")
    with app.app_context():
        user_id = db.session.scalar(select(User.id))
    values = {
        "dataset_id": dataset,
        "instance_id": _first(app),
        "user_id": user_id,
        "filename": "lexsub.css",
        "xml_id": "1",
        "token": "no-such-study",
        "username": "boss",
        "round_id": make_round(app, judge="boss"),
        "index": 0,
    }
    seen = 0
    for rule in app.url_map.iter_rules():
        url = rule.rule
        for name in rule.arguments:
            url = (
                url.replace(f"<id:{name}>", str(values[name]))
                .replace(f"<path:{name}>", str(values[name]))
                .replace(f"<{name}>", str(values[name]))
            )
        methods = rule.methods or set()
        method = "GET" if "GET" in methods else "POST"
        if rule.endpoint == "auth.logout":
            continue  # checked last: it ends the session
        response = client.open(url, method=method)
        assert response.status_code < 500, url
        _check_headers(response.headers, url)
        seen += 1
    assert seen >= 15
    _check_headers(client.get("/no/such/page").headers, "404")
    _check_headers(client.post("/logout").headers, "/logout")


@pytest.mark.parametrize(
    ("path", "code", "text"),
    [
        ("/no/such/page", 404, "No such page."),
        ("/annotate/999999", 404, "No such page."),
    ],
)
def test_error_pages_are_styled(annotator: FlaskClient, path: str, code: int, text: str) -> None:
    response = annotator.get(path)
    page = response.get_data(as_text=True)
    assert response.status_code == code
    assert f"<title>{code} · lexsub</title>" in page and text in page
    assert 'rel="stylesheet"' in page


def test_a_nul_or_long_id_in_a_path_is_a_404(app: Flask, client: FlaskClient, dataset: int) -> None:
    make_user(app, "boss", "organiser")
    login(client, "boss")
    for xml_id in ("a%00b", "x" * 300, "1%0A"):
        response = client.get(f"/organiser/datasets/{dataset}/items/{xml_id}")
        assert response.status_code == 404, xml_id


HOSTILE_VALUES = ("\x00", "a\x00b", "x" * 5000, "line\nbreak", "\u202e", "pn", ";")
FIELD_NAMES = (
    "username",
    "password",
    "name",
    "role",
    "surface",
    "action",
    "lemma",
    "lexelt",
    "sub1",
    "sub2",
    "sub3",
    "nil",
    "mw",
    "multiword",
    "used_dictionary",
    "confirm",
    "seed",
    "fixed",
    "significance",
    "system",
)


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_no_post_route_answers_500_to_hostile_values(
    app: Flask, client: FlaskClient, dataset: int, value: str
) -> None:
    """Every POST route of app.url_map, as an organiser, with every form field the app
    reads set to a hostile value (and a file of that name): a page or a redirect, never
    a server error, on SQLite and PostgreSQL."""
    import io

    from annotate.extensions import db
    from annotate.models import User

    make_user(app, "boss", "organiser")
    make_user(app, "ann")
    login(client, "boss")
    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.username == "ann"))
    values = {
        "dataset_id": dataset,
        "instance_id": _first(app),
        "user_id": user_id,
        "round_id": make_round(app, judge="ann"),
        "index": 0,
    }
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()) or rule.endpoint == "auth.logout":
            continue
        url = rule.rule
        for name in rule.arguments:
            url = url.replace(f"<id:{name}>", str(values[name]))
        data: dict[str, object] = {name: value for name in FIELD_NAMES}
        data["file"] = (io.BytesIO(b"<corpus/>"), value[:300] + ".xml")
        data["systems"] = (io.BytesIO(b"x.n 1 :: a\n"), value[:300])
        response = client.post(url, data=data, content_type="multipart/form-data")
        assert response.status_code < 500, (url, value, response.status_code)


def test_forbidden_too_large_and_stale_forms_have_pages(
    app: Flask, annotator: FlaskClient, dataset: int
) -> None:
    page = annotator.get("/organiser/").get_data(as_text=True)
    assert "<h1>403</h1>" in page and "This page is for organisers." in page
    app.config["MAX_CONTENT_LENGTH"] = 1024 * 1024
    too_big = annotator.post(f"/annotate/{_first(app)}", data={"sub1": "x" * (2 << 20)})
    assert too_big.status_code == 413
    assert "The file is too large (at most 1 MB)." in too_big.get_data(as_text=True)
    app.config["WTF_CSRF_ENABLED"] = True
    stale = annotator.post("/organiser/users", data={"username": "x", "csrf_token": "old"})
    assert stale.status_code == 400
    assert "The form had expired" in stale.get_data(as_text=True)


def test_an_unexpected_error_is_a_styled_500(
    app: Flask, annotator: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import annotate.web.annotator

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(annotate.web.annotator, "save_answer", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = annotator.post(f"/annotate/{_first(app)}", data={"sub1": "clever"})
    assert response.status_code == 500
    page = response.get_data(as_text=True)
    assert "<h1>500</h1>" in page and "nothing you saved is lost" in page
