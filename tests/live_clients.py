"""Simulated annotators for the live server of tests/live_server.py, and the count of
their answers in the database afterwards.

Each annotator is a small browser: its own cookies, its own loopback address (127.0.1.x,
so the log-in limit per address counts it alone), the CSRF token read from the page it
submits, redirects followed, and Save pressed again when a request fails at the
connection level or with a 5xx, as a person would. Every save types a substitute unique
in the run, so :func:`count_answers` can tell each save apart in the database and compare
what the clients were told was saved (the redirect to the next sentence) with what is
stored.
"""

from __future__ import annotations

import http.client
import re
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

HOST = "127.0.0.1"
PASSWORD = "password1"
ORGANISER = ("organiser", "organiser-of-the-tests")
"""The demo organiser, given this password by ``lexsub demo --organiser-password``
(tests/live_server.py): by itself the demo makes a random one."""


def client_address(index: int) -> str:
    """A loopback address of its own for annotator ``index`` (0-based): 127.0.1.1, …"""
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


@dataclass(frozen=True)
class Page:
    method: str
    path: str
    status: int
    location: str  # the Location header, '' when none
    text: str

    @property
    def target(self) -> str:
        """Where a redirect goes, as a path on this server (with its query)."""
        parts = urlsplit(self.location)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    @cached_property
    def forms(self) -> list[tuple[dict[str, str | None], dict[str, str]]]:
        """(attributes, fields) of every form in the page."""
        parser = _Forms()
        parser.feed(self.text)
        return parser.forms

    def form(self, form_id: str | None = None, having: str | None = None) -> dict[str, str]:
        """What a browser submits from the form with this id (or with a field of this
        name): hidden and text fields, ticked check boxes."""
        for attributes, fields in self.forms:
            if (form_id is None or attributes.get("id") == form_id) and (
                having is None or having in fields
            ):
                return dict(fields)
        raise LookupError(
            f"{self.method} {self.path}: no form {form_id or having!r} in "
            f"the page:\n{self.text[:1200]}"
        )

    def has_form(self, form_id: str) -> bool:
        return any(attributes.get("id") == form_id for attributes, _ in self.forms)

    def describe(self) -> str:
        tail = re.sub(r"\s+", " ", self.text[-400:])
        return f"{self.method} {self.path} → {self.status} {self.location!r} …{tail}"


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[dict[str, str | None], dict[str, str]]] = []
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form":
            self.forms.append((attributes, {}))
            self._inside = True
        elif tag == "input" and self._inside and attributes.get("name"):
            name = attributes["name"] or ""
            kind = (attributes.get("type") or "text").lower()
            if kind == "checkbox":
                if "checked" in attributes:
                    self.forms[-1][1][name] = attributes.get("value") or "on"
            elif kind not in ("submit", "button", "image", "file"):
                self.forms[-1][1][name] = attributes.get("value") or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._inside = False


class Browser:
    """HTTP/1.1 to the server from one loopback address, with a cookie jar; one
    connection a request (gunicorn's sync workers close it anyway); no redirects
    followed. A failure below HTTP raises ``OSError`` or ``http.client.HTTPException``."""

    def __init__(self, port: int, address: str, timeout: float = 20.0) -> None:
        self.port = port
        self.address = address
        self.timeout = timeout
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        form: Mapping[str, str] | None = None,
        files: Mapping[str, tuple[str, bytes]] | None = None,
    ) -> Page:
        """``form`` sent as a browser sends it; with ``files`` (field: (file name, bytes))
        as ``multipart/form-data``, the way a form with a file input is sent."""
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if files is not None:
            body, headers["Content-Type"] = _multipart(form or {}, files)
        elif form is not None:
            body = urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection(
            HOST, self.port, timeout=self.timeout, source_address=(self.address, 0)
        )
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            for header in response.headers.get_all("Set-Cookie") or []:
                self._keep(header)
            return Page(
                method,
                path,
                response.status,
                response.getheader("Location", ""),
                data.decode("utf-8", errors="replace"),
            )
        finally:
            connection.close()

    def _keep(self, header: str) -> None:
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(header)
        for name, morsel in cookie.items():
            if morsel["max-age"] == "0" or "1970" in morsel["expires"]:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = morsel.coded_value


def _multipart(
    form: Mapping[str, str], files: Mapping[str, tuple[str, bytes]]
) -> tuple[bytes, str]:
    """The body and content type of a ``multipart/form-data`` request (RFC 7578)."""
    boundary = f"lexsub-{uuid.uuid4().hex}"
    parts = []
    for name, value in form.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + value.encode()
            + b"\r\n"
        )
    for name, (filename, data) in files.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + data
            + b"\r\n"
        )
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def log_in(browser: Browser, username: str, password: str) -> None:
    """Through the real log-in page: GET it, POST the form with its CSRF token."""
    form = browser.request("GET", "/login").form(having="username")
    page = browser.request("POST", "/login", {**form, "username": username, "password": password})
    if page.status != 302 or page.target.startswith("/login"):  # lands where work is
        raise RuntimeError(f"log-in of {username} failed: {page.describe()}")


def create_annotators(
    port: int,
    usernames: Iterable[str],
    password: str = PASSWORD,
    dataset: str = "demo",
    batch: int = 10,
) -> None:
    """The demo organiser creates the accounts on the bulk accounts page, as in a browser,
    each a member of ``dataset`` (only members open it): ``batch`` accounts a form, so
    that hashing their passwords stays well within a worker's timeout on a busy machine."""
    organiser = Browser(port, HOST, timeout=60.0)
    log_in(organiser, *ORGANISER)
    names = list(usernames)
    for start in range(0, len(names), batch):
        part = names[start : start + batch]
        page = organiser.request("GET", "/organiser/users/bulk")
        demo = re.search(rf'<option value="(\d+)">{re.escape(dataset)}</option>', page.text)
        if demo is None:
            raise RuntimeError(
                f"no dataset {dataset!r} on the bulk accounts page: {page.describe()}"
            )
        form = {
            **page.form("bulk"),
            "dataset": demo.group(1),
            "usernames": "".join(f"{username} {password}\n" for username in part),
        }
        page = organiser.request("POST", "/organiser/users/bulk", form)
        if page.status != 200 or f"{len(part)} accounts created" not in page.text:
            raise RuntimeError(f"creating {part} failed: {page.describe()}")


# -- an annotator ----------------------------------------------------------------------


@dataclass
class Save:
    """One press of "Save and next" (repeated as often as it failed)."""

    username: str
    instance_id: int
    token: str  # the substitute typed: unique in the run, so the database shows each save
    attempts: int = 0
    acknowledged_at: float | None = None  # time.monotonic() of the success redirect
    seconds: float | None = None  # Save pressed (first time) → next sentence shown


FINISHED = r"/annotate/dataset/\d+/done"
"""Where the last sentence's save leads: the dataset's finished page."""


@dataclass
class Annotator:
    """One simulated annotator: logs in, then saves and moves on through the demo's
    sentences (and round again), each save with a unique substitute."""

    port: int
    username: str
    address: str
    order: list[int]  # sentence ids in the order the app gives them
    password: str = PASSWORD
    retry_pause: float = 0.1  # seconds before Save is pressed again
    patience: float = 30.0  # seconds of pressing again before giving up on a request
    saves: list[Save] = field(default_factory=list)
    connection_errors: int = 0  # requests that failed below HTTP (reset, refused, timeout)
    server_errors: int = 0  # 5xx answers
    failures: list[tuple[float, str]] = field(default_factory=list)  # (monotonic, what)
    unexpected: list[str] = field(default_factory=list)  # anything else a person would see
    crash: BaseException | None = None

    def __post_init__(self) -> None:
        self.browser = Browser(self.port, self.address)
        self._next = {
            instance: (f"/annotate/{following}" if following else FINISHED)
            for instance, following in zip(self.order, [*self.order[1:], None], strict=True)
        }

    def log_in(self) -> None:
        log_in(self.browser, self.username, self.password)

    def run(self, stop: threading.Event, limit: int | None = None) -> None:
        """Save and move on until ``stop`` is set or after ``limit`` saves. Never raises:
        a crash is kept in ``crash``."""
        try:
            self._run(stop, limit)
        except BaseException as error:  # reported by the caller
            self.crash = error

    def _run(self, stop: threading.Event, limit: int | None) -> None:
        page = self._open("/annotate")
        while page is not None and not stop.is_set() and (limit is None or len(self.saves) < limit):
            instance_id = int(page.path.rsplit("/", 1)[1])
            save = Save(self.username, instance_id, f"{self.username}-{len(self.saves) + 1}")
            self.saves.append(save)
            form = {**page.form("answer"), "sub1": save.token, "sub2": "", "sub3": ""}
            pressed = time.monotonic()
            answer = self._fetch("POST", page.path, form, save)
            if answer is None:
                return
            if answer.status != 302 or not re.fullmatch(self._next[instance_id], answer.target):
                self.unexpected.append(f"save {save.token}: {answer.describe()}")
                return
            save.acknowledged_at = time.monotonic()
            page = self._open(answer.target)
            save.seconds = time.monotonic() - pressed

    def _open(self, path: str) -> Page | None:
        """GET a sentence's page, following redirects; past the last sentence (the "all
        done" page) back to the first one."""
        seen = []
        for _ in range(5):
            page = self._fetch("GET", path, None)
            if page is None:
                return None
            seen.append(page.describe())
            if page.status in (301, 302, 303):
                path = page.target
            elif page.status == 200 and page.has_form("answer"):
                return page
            elif page.status == 200 and (path == "/annotate" or re.fullmatch(FINISHED, path)):
                path = f"/annotate/{self.order[0]}"
            else:
                break
        self.unexpected.append("no sentence page: " + " | ".join(seen))
        return None

    def _fetch(
        self, method: str, path: str, form: Mapping[str, str] | None, save: Save | None = None
    ) -> Page | None:
        """One request, made again after a pause while it fails at the connection level
        or with a 5xx, for up to ``patience`` seconds (then None)."""
        until = time.monotonic() + self.patience
        while True:
            if save is not None:
                save.attempts += 1
            try:
                page = self.browser.request(method, path, form)
            except (OSError, http.client.HTTPException) as error:
                self.connection_errors += 1
                self.failures.append(
                    (time.monotonic(), f"{method} {path}: {type(error).__name__}: {error}")
                )
            else:
                if page.status < 500:
                    return page
                self.server_errors += 1
                self.failures.append((time.monotonic(), page.describe()))
            if time.monotonic() + self.retry_pause > until:
                return None
            time.sleep(self.retry_pause)


# -- counting --------------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    """What the clients were told against what the database (or another store) holds."""

    acknowledged: int  # saves answered as saved (the redirect to the next sentence)
    unacknowledged: int  # saves that never got it (the client gave up)
    in_history: int  # acknowledged saves found among their sentence's revisions
    pairs: int  # (annotator, sentence) pairs with an acknowledged save
    current: int  # … whose current answer is the last acknowledged save (or a later try)
    revisions: int  # revisions of these annotators
    repeated: int  # revisions of a save stored twice: its first try committed but the
    #                answer never arrived, and Save was pressed again
    lost: tuple[str, ...]  # every acknowledged save missing or overwritten, described
    anomalies: tuple[str, ...]  # anything else inconsistent (a revision nobody sent, a
    #                             saves counter that disagrees with the history)

    def summary(self) -> str:
        return (
            f"{self.acknowledged} saves acknowledged ({self.unacknowledged} not), "
            f"{self.in_history}/{self.acknowledged} in the revision history, "
            f"{self.current}/{self.pairs} (annotator, sentence) answers current; "
            f"{self.revisions} revisions, {self.repeated} stored twice by a repeated "
            f"Save; lost {len(self.lost)}, anomalies {len(self.anomalies)}"
        )


Pair = tuple[str, int]
"""(username, sentence id): where an annotator's answers to one sentence are kept."""


def count_answers(database_url: str, saves: Iterable[Save]) -> Count:
    """Check every save against the database (see :class:`Count`)."""
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from annotate.models import Response, Revision, User
    from annotate.settings import database_url as driver_url

    made = list(saves)
    names = sorted({save.username for save in made})
    engine = create_engine(driver_url(database_url))
    try:
        with Session(engine) as session:
            usernames = {
                user_id: username
                for username, user_id in session.execute(
                    select(User.username, User.id).where(User.username.in_(names))
                )
            }
            history: dict[Pair, Counter[str]] = defaultdict(Counter)
            for user_id, instance_id, substitutes in session.execute(
                select(Revision.user_id, Revision.instance_id, Revision.substitutes).where(
                    Revision.user_id.in_(list(usernames))
                )
            ):
                history[usernames[user_id], instance_id][substitutes[0] if substitutes else ""] += 1
            current = {
                (usernames[user_id], instance_id): (substitutes[0] if substitutes else "", saved)
                for user_id, instance_id, substitutes, saved in session.execute(
                    select(
                        Response.user_id, Response.instance_id, Response.substitutes, Response.saves
                    ).where(Response.user_id.in_(list(usernames)))
                )
            }
    finally:
        engine.dispose()
    return compare_saves(made, history, current)


def compare_saves(
    saves: Iterable[Save],
    history: Mapping[Pair, Counter[str]],
    current: Mapping[Pair, tuple[str, int | None]],
) -> Count:
    """What the clients were told against what a store holds (see :class:`Count`):
    ``history`` counts the stored revisions of each pair by the substitute they carry,
    ``current`` gives each pair's current answer and the store's count of its saves (None
    when the store keeps no such count). Any store can be read into these two."""
    by_pair: dict[Pair, list[Save]] = defaultdict(list)
    for save in saves:
        by_pair[save.username, save.instance_id].append(save)
    lost: list[str] = []
    anomalies: list[str] = []
    acknowledged = unacknowledged = in_history = pairs = up_to_date = 0
    for (username, instance_id), made in sorted(by_pair.items()):
        key = (username, instance_id)
        stored = history.get(key, Counter())
        sent = {save.token for save in made}
        for save in made:
            if save.acknowledged_at is None:
                unacknowledged += 1
                continue
            acknowledged += 1
            if stored[save.token]:
                in_history += 1
            else:
                lost.append(
                    f"{username} sentence {instance_id}: acknowledged save "
                    f"{save.token} is not in the revision history"
                )
        for token in sorted(set(stored) - sent):
            anomalies.append(
                f"{username} sentence {instance_id}: revision {token!r} that no client sent"
            )
        done = [i for i, save in enumerate(made) if save.acknowledged_at is not None]
        answer, counter = current.get(key, (None, None))
        if counter is not None and counter != sum(stored.values()):
            anomalies.append(
                f"{username} sentence {instance_id}: saves = {counter} but "
                f"{sum(stored.values())} revisions"
            )
        if not done:
            continue
        pairs += 1
        allowed = {save.token for save in made[done[-1] :]}  # the last acknowledged or later
        if answer in allowed:
            up_to_date += 1
        else:
            lost.append(
                f"{username} sentence {instance_id}: current answer {answer!r}, "
                f"the last acknowledged save was {made[done[-1]].token}"
            )
    repeated = sum(count - 1 for counts in history.values() for count in counts.values())
    revisions = sum(sum(counts.values()) for counts in history.values())
    return Count(
        acknowledged,
        unacknowledged,
        in_history,
        pairs,
        up_to_date,
        revisions,
        repeated,
        tuple(lost),
        tuple(anomalies),
    )


def percentile(values: list[float], percent: float) -> float:
    """Nearest-rank percentile of ``values`` (not empty)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * percent // 100))
    return ordered[int(rank) - 1]


def at_once(calls: list[Callable[[], Page]]) -> list[Page | BaseException]:
    """Run ``calls`` in threads released together (a barrier): each one's page, or the
    error it raised, in the order of ``calls``."""
    barrier = threading.Barrier(len(calls))
    results: list[Page | BaseException] = [RuntimeError("not run")] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = calls[index]()
        except BaseException as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results
