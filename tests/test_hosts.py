"""More than one app host. The app keeps nothing a request depends on in
its process: the session is the signed cookie (one ``SECRET_KEY`` for every host), the
account's session token is in the database, and the log-in limit counts in the storage
``LEXSUB_LIMITER_STORAGE`` names (Redis when several hosts share one database).

- In-process: the limit's storage is this process's memory by default and the one the
  environment names otherwise; an unreachable storage falls back to counting in memory
  (log-ins still work, still limited); behind ``LEXSUB_PROXIES`` reverse proxies the
  limit keys on the client's forwarded address, and without it a forged
  ``X-Forwarded-For`` changes nothing.
- Live (``test_two_hosts``, PostgreSQL and Redis): two gunicorn servers on two ports,
  each with an instance folder of its own, one PostgreSQL database, one Redis (a key
  prefix of the run's own); real HTTP clients show failed log-ins on host A counting
  toward the limit on host B, a log-in form from one host accepted by the other, and a
  session logged in on A and logged out on B refused on A afterwards.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from annotate import create_app
from tests import live_server
from tests.conftest import IN_CI, TEST_CONFIG, make_user
from tests.live_clients import Browser, Page
from tests.live_server import Server

POSTGRES = os.environ.get("LEXSUB_TEST_DATABASE_URL")
REDIS = os.environ.get("LEXSUB_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
WRONG = "Wrong username or password."
TOO_MANY = "Too many attempts"
CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def _app(tmp_path: Path, migrated_sqlite: Path, **config: object) -> Flask:
    shutil.copy(migrated_sqlite, tmp_path / "test.sqlite")
    database = f"sqlite:///{tmp_path / 'test.sqlite'}"
    return create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database, **config})


def _attempt(client: FlaskClient, username: str, password: str, **headers: str) -> int:
    """POST the log-in form; 200 (refused with the message), 302 (in) or 429."""
    response = client.post(
        "/login", data={"username": username, "password": password}, headers=headers
    )
    if response.status_code == 200:
        assert WRONG in response.get_data(as_text=True)
    if response.status_code == 429:
        assert TOO_MANY in response.get_data(as_text=True)
    return response.status_code


# -- in-process: the configuration ----------------------------------------------------


def test_the_limit_counts_in_memory_by_default(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from limits.storage import MemoryStorage

    monkeypatch.delenv("LEXSUB_LIMITER_STORAGE", raising=False)
    app = _app(tmp_path, migrated_sqlite)
    (limiter,) = app.extensions["limiter"]
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert type(limiter.storage) is MemoryStorage


def test_the_environment_names_a_shared_storage(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from limits.storage import RedisStorage

    monkeypatch.setenv("LEXSUB_LIMITER_STORAGE", "redis://127.0.0.1:6379/7")
    monkeypatch.setenv("LEXSUB_LIMITER_PREFIX", "study-7")
    app = _app(tmp_path, migrated_sqlite)
    (limiter,) = app.extensions["limiter"]
    assert app.config["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/7"
    assert app.config["RATELIMIT_KEY_PREFIX"] == "study-7"
    assert type(limiter.storage) is RedisStorage
    kwargs = limiter.storage.storage.connection_pool.connection_kwargs
    assert (kwargs["host"], kwargs["port"], kwargs["db"]) == ("127.0.0.1", 6379, 7)


def test_an_unreachable_storage_falls_back_to_memory(tmp_path: Path, migrated_sqlite: Path) -> None:
    """Redis down: log-ins still work (not a 500 page), each process counting in its
    own memory (flask-limiter logs "Rate limit storage unreachable")."""
    app = _app(
        tmp_path, migrated_sqlite, RATELIMIT_STORAGE_URI=CLOSED_PORT, LOGIN_LIMIT="3 per minute"
    )
    make_user(app, "ann")
    client = app.test_client()
    assert _attempt(client, "ann", "wrong") == 200
    assert _attempt(client, "ann", "wrong") == 200
    assert _attempt(client, "ann", "password1") == 302  # in: the limit counts, not blocks
    client.post("/logout")
    assert _attempt(client, "ann", "wrong") == 429  # the fourth attempt in a minute


def test_each_app_counts_in_its_own_storage_with_its_own_prefix(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Apps made one after the other in a process (the tests make many) share nothing of
    the limit: not an earlier app's key prefix, nor its storage having gone away."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.setenv("LEXSUB_LIMITER_PREFIX", "first-app")
    dead = _app(tmp_path / "a", migrated_sqlite, RATELIMIT_STORAGE_URI=CLOSED_PORT)
    assert _attempt(dead.test_client(), "ann", "wrong") == 200  # its storage found dead
    monkeypatch.delenv("LEXSUB_LIMITER_PREFIX")
    app = _app(tmp_path / "b", migrated_sqlite, LOGIN_LIMIT="1 per minute")
    (limiter,) = app.extensions["limiter"]
    assert (limiter,) != tuple(dead.extensions["limiter"])
    client = app.test_client()
    assert _attempt(client, "ann", "wrong") == 200
    assert _attempt(client, "ann", "wrong") == 429
    keys = sorted(limiter.storage.storage)  # limits' MemoryStorage: its counters by key
    assert keys and not [key for key in keys if "first-app" in key], keys
    assert [key for key in keys if "username:ann" in key], keys


def test_a_study_link_is_limited_per_address_as_a_log_in_is(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    client = _app(tmp_path, migrated_sqlite, LOGIN_LIMIT="2 per minute").test_client()
    codes = [client.get("/study/no-such-token").status_code for _ in range(3)]
    assert codes == [404, 404, 429]


def test_the_limiter_skips_at_once_only_the_endpoints_it_does_not_limit(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    """flask-limiter's check before each request stops at once (a request filter) for
    every endpoint but the ones a limit wraps (the log-in and the study link), so each
    of those is still checked; a save's endpoint is skipped."""
    app = _app(tmp_path, migrated_sqlite)
    (limiter,) = app.extensions["limiter"]
    wrapped = {
        endpoint
        for endpoint, view in app.view_functions.items()
        # flask-limiter's mark on a view its limit wraps (it keeps the limiter there
        # through a proxy, so compared with ==, as flask-limiter does)
        if getattr(view, "__wrapper-limiter-instance", None) == limiter
    }
    assert wrapped == {"auth.login", "annotator.study"}
    for path, method in [("/login", "POST"), ("/study/token", "GET"), ("/annotate/1", "POST")]:
        with app.test_request_context(path, method=method):
            from flask import request

            skipped = any(check() for check in limiter._request_filters)
            assert skipped == (request.endpoint not in wrapped), path


@pytest.mark.parametrize(
    "setting",
    [
        "RATELIMIT_DEFAULT",
        "RATELIMIT_APPLICATION",
        "RATELIMIT_META",
        "RATELIMIT_IN_MEMORY_FALLBACK",
    ],
)
def test_a_limit_on_every_route_set_by_an_operator_is_still_enforced(
    tmp_path: Path, migrated_sqlite: Path, setting: str
) -> None:
    """With a flask-limiter setting that limits every route (an operator's config.py),
    no endpoint is skipped: the home page is limited too (a meta limit counts breaches
    of the others, a fallback limit counts while the storage is down)."""
    from annotate.factory import EVERY_ROUTE_LIMITS

    assert setting in EVERY_ROUTE_LIMITS
    app = _app(tmp_path, migrated_sqlite, **{setting: "2 per minute"})
    (limiter,) = app.extensions["limiter"]
    assert not limiter._request_filters
    if setting in ("RATELIMIT_DEFAULT", "RATELIMIT_APPLICATION"):
        client = app.test_client()
        assert [client.get("/").status_code for _ in range(3)] == [200, 200, 429]


def test_without_trusted_proxies_a_forwarded_address_is_ignored(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    app = _app(tmp_path, migrated_sqlite, LOGIN_LIMIT="2 per minute")
    client = app.test_client()
    assert _attempt(client, "a1", "x", **{"X-Forwarded-For": "10.0.0.1"}) == 200
    assert _attempt(client, "a2", "x", **{"X-Forwarded-For": "10.0.0.2"}) == 200
    # a forged header does not make a new client: the third attempt from 127.0.0.1
    assert _attempt(client, "a3", "x", **{"X-Forwarded-For": "10.0.0.3"}) == 429


def test_behind_a_proxy_the_limit_keys_on_the_forwarded_address(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEXSUB_PROXIES", "1")
    app = _app(tmp_path, migrated_sqlite, LOGIN_LIMIT="2 per minute")
    assert app.config["TRUSTED_PROXIES"] == 1
    client = app.test_client()
    assert _attempt(client, "a1", "x", **{"X-Forwarded-For": "10.0.0.1"}) == 200
    assert _attempt(client, "a2", "x", **{"X-Forwarded-For": "10.0.0.1"}) == 200
    assert _attempt(client, "a3", "x", **{"X-Forwarded-For": "10.0.0.1"}) == 429
    # another client behind the same proxy has a limit of its own
    assert _attempt(client, "a4", "x", **{"X-Forwarded-For": "10.0.0.2"}) == 200
    # only the last proxy's entry is believed: a client cannot prepend its own
    assert _attempt(client, "a5", "x", **{"X-Forwarded-For": "1.2.3.4, 10.0.0.1"}) == 429


def test_a_proxy_count_that_is_not_a_number_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEXSUB_INSTANCE", str(tmp_path))
    monkeypatch.setenv("LEXSUB_PROXIES", "yes")
    with pytest.raises(ValueError, match=r"LEXSUB_PROXIES='yes': must be the number"):
        create_app(TEST_CONFIG)


# -- live: two hosts, one PostgreSQL, one Redis ---------------------------------------

LIMIT = 4  # log-in attempts an hour per client address and per username, on the hosts


def _redis_or_skip() -> redis.Redis:
    """A client of the test Redis, or skip saying why."""
    client = redis.Redis.from_url(REDIS, socket_connect_timeout=3, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.skip(
            f"no Redis at {REDIS} ({error}); scripts/test.sh starts one "
            "(LEXSUB_TEST_REDIS_URL names another)"
        )
    return client


def _host(env: dict[str, str], folder: Path) -> Server:
    """An app host: its own instance folder (config.py: the log-in limit), no files
    shared with the other host; the database, secret key and limit storage from ``env``."""
    instance = folder / "instance"
    instance.mkdir(parents=True)
    (instance / "config.py").write_text(f'LOGIN_LIMIT = "{LIMIT} per hour"\n')
    return Server({**env, "LEXSUB_INSTANCE": str(instance)}, folder, workers=2)


def _login_form(browser: Browser) -> dict[str, str]:
    return browser.request("GET", "/login").form(having="username")


def _post_login(browser: Browser, form: dict[str, str], username: str, password: str) -> Page:
    return browser.request("POST", "/login", {**form, "username": username, "password": password})


def _logged_in(browser: Browser) -> bool:
    page = browser.request("GET", "/annotate")
    assert page.status in (200, 302), page.describe()
    return not page.target.startswith("/login")


def _logout_form(page: Page) -> dict[str, str]:
    for attributes, fields in page.forms:
        if attributes.get("action") == "/logout":
            return dict(fields)
    raise AssertionError(f"no log-out form: {page.describe()}")


def _on(port: int, browser: Browser) -> Browser:
    """The same browser (address and cookies) sent to another host, as a load balancer
    may send the next request."""
    other = Browser(port, browser.address)
    other.cookies = browser.cookies  # one cookie jar
    return other


if POSTGRES or not IN_CI:  # CI's SQLite run has no PostgreSQL; its database run has

    @pytest.mark.database
    def test_two_hosts(tmp_path: Path) -> None:
        if not POSTGRES:
            pytest.skip(
                "needs a PostgreSQL: LEXSUB_TEST_DATABASE_URL (scripts/test.sh sets it in "
                "its PostgreSQL run; scripts/postgres.sh gives a URL)"
            )
        if not live_server.gunicorn_available():
            pytest.skip("the hosts are gunicorn servers: pip install -r requirements-dev.txt")
        store = _redis_or_skip()
        prefix = f"lexsub-test-{secrets.token_hex(8)}"  # this run's keys, apart from others'
        env = live_server.prepare_database(POSTGRES)  # init-db, demo: alice, bob
        env.update(LEXSUB_LIMITER_STORAGE=REDIS, LEXSUB_LIMITER_PREFIX=prefix)
        env.pop("LEXSUB_INSTANCE", None)
        try:
            with ExitStack() as stack:
                a = stack.enter_context(_host(env, tmp_path / "a"))
                b = stack.enter_context(_host(env, tmp_path / "b"))
                assert a.port != b.port
                _the_limit_holds_across_hosts(a.port, b.port)
                keys = list(store.scan_iter(match=f"*{prefix}*"))
                assert keys, f"no key with {prefix} in Redis: the limit did not count there"
                _a_logout_holds_across_hosts(a.port, b.port)
        finally:
            for key in list(store.scan_iter(match=f"*{prefix}*")):
                store.delete(key)


def _the_limit_holds_across_hosts(a: int, b: int) -> None:
    """LIMIT wrong passwords for alice from one address, half on each host, each form
    fetched from the other host; then the limit holds on both hosts, per address and
    per username, and not for anyone else."""
    first = Browser(a, "127.0.2.1")
    on_b = _on(b, first)
    for attempt in range(LIMIT):
        to, form_from = (first, on_b) if attempt % 2 == 0 else (on_b, first)
        page = _post_login(to, _login_form(form_from), "alice", f"wrong{attempt}")
        assert page.status == 200 and WRONG in page.text, page.describe()
    for host in (first, on_b):  # the address is over the limit on both hosts
        page = _post_login(host, _login_form(host), "bob", "wrong")
        assert page.status == 429 and TOO_MANY in page.text, page.describe()
    # alice's name is over the limit from any address, on either host, right password too
    for port, address in ((a, "127.0.2.2"), (b, "127.0.2.3")):
        other = Browser(port, address)
        page = _post_login(other, _login_form(other), "alice", "demo-alice")
        assert page.status == 429 and TOO_MANY in page.text, page.describe()
    # someone else, from an address of their own, is not held back
    bob = Browser(b, "127.0.2.4")
    page = _post_login(bob, _login_form(bob), "bob", "wrong")
    assert page.status == 200 and WRONG in page.text, page.describe()


def _a_logout_holds_across_hosts(a: int, b: int) -> None:
    """bob logs in on A; the same cookie opens his pages on B; he logs out on B; the
    cookie he had on A (as a copy would keep it) is refused on A afterwards."""
    on_a = Browser(a, "127.0.2.5")
    page = _post_login(on_a, _login_form(on_a), "bob", "demo-bob")
    assert page.status == 302 and not page.target.startswith("/login"), page.describe()
    kept = dict(on_a.cookies)  # the session cookie as it was on A
    assert "session" in kept
    on_b = _on(b, on_a)
    assert _logged_in(on_a) and _logged_in(on_b)
    home = on_b.request("GET", "/instructions")
    assert home.status == 200 and re.search(r"<span>bob</span>", home.text), home.describe()
    page = on_b.request("POST", "/logout", _logout_form(home))
    assert page.status == 302 and page.target == "/login", page.describe()
    assert "session" not in on_b.cookies or on_b.cookies["session"] != kept["session"]
    again = Browser(a, "127.0.2.5")
    again.cookies = kept
    assert not _logged_in(again)  # the old session is refused on A
    assert not _logged_in(_on(b, again))  # and on B
