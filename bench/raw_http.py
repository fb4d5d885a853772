"""A small HTTP/1.1 client on asyncio's streams, for the load benchmark's simulated
annotators (:mod:`bench.load_bench`).

Each annotator stands for a person with a browser of their own, whose HTTP costs no
one else anything. The clients share the benchmark's machine with the servers, so every
millisecond of a client's own CPU is a millisecond the servers lose and, since one event
loop drives them all, a delay added to the cycles it measures: with httpx (its request
and cookie machinery, http.cookiejar, anyio) the clients took 6.3-6.9 ms of CPU a save,
more than half of lexsub's own. This client does what the simulated pages need and no
more: ``GET`` and ``POST`` (a form, or JSON), a cookie jar of name and value (no domains,
paths or expiry beyond a cookie being deleted), redirects followed when asked, bodies by
``Content-Length``, chunked or to the end, and one kept-alive connection a client, used
again within :data:`KEEP_ALIVE` seconds of its last answer unless the server closed it.

Only the standard library; nothing here is used by lexsub itself.
"""

from __future__ import annotations

import asyncio
import json as json_module
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

KEEP_ALIVE = 1.0
"""Seconds an idle connection is kept for the client's next request (as httpx's
``keepalive_expiry`` was set before)."""

REDIRECTS = 10
"""Redirects followed at most."""


class TransportError(Exception):
    """The connection failed, or the answer was not HTTP (httpx's ``TransportError``)."""


@dataclass(frozen=True)
class Response:
    """An answer: its status, headers (names in lower case; ``set-cookie`` each kept in
    :attr:`cookies_set`), text, and the request's method and path."""

    method: str
    path: str
    status_code: int
    headers: Mapping[str, str]
    text: str
    cookies_set: tuple[str, ...] = ()

    def json(self) -> Any:
        return json_module.loads(self.text)


@dataclass
class Client:
    """One annotator's browser: its cookies and its connection to ``host:port``, from
    ``local_address`` when given (each annotator its own loopback address)."""

    host: str
    port: int
    local_address: str | None = None
    timeout: float = 60.0
    cookies: dict[str, str] = field(default_factory=dict)
    _streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    _idle_since: float = 0.0

    async def get(self, path: str, **options: Any) -> Response:
        return await self.request("GET", path, **options)

    async def post(self, path: str, **options: Any) -> Response:
        return await self.request("POST", path, **options)

    async def request(
        self,
        method: str,
        path: str,
        *,
        data: Mapping[str, str] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        follow_redirects: bool = False,
    ) -> Response:
        """Send one request to ``path`` (or to a whole URL's path: a ``Location`` as it
        came) and, with ``follow_redirects``, GET each ``Location`` it is sent to; raises
        :class:`TransportError` when the connection fails."""
        path = _path_of(path)
        response = await self._exchange(
            method, path, self._message(method, path, data, json, headers)
        )
        for _ in range(REDIRECTS):
            if not follow_redirects or response.status_code not in (301, 302, 303, 307, 308):
                break
            path = _path_of(response.headers["location"])
            response = await self._exchange("GET", path, self._message("GET", path))
        return response

    async def aclose(self) -> None:
        self._drop()

    def _message(
        self,
        method: str,
        path: str,
        data: Mapping[str, str] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> bytes:
        """The request's bytes: its head (with the cookies) and its body."""
        body = b""
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if data is not None:
            body = urlencode(data).encode()
            lines.append("Content-Type: application/x-www-form-urlencoded")
        elif json is not None:
            body = json_module.dumps(json).encode()
            lines.append("Content-Type: application/json")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines.extend(f"{name}: {value}" for name, value in (headers or {}).items())
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body

    async def _exchange(self, method: str, path: str, message: bytes) -> Response:
        try:
            return await asyncio.wait_for(self._send(method, path, message), self.timeout)
        except TimeoutError as error:  # (an OSError)
            self._drop()
            raise TransportError(f"no answer within {self.timeout} s") from error
        except (OSError, EOFError, ValueError, asyncio.IncompleteReadError) as error:
            self._drop()
            raise TransportError(f"{type(error).__name__}: {error}") from error

    async def _send(self, method: str, path: str, message: bytes) -> Response:
        reused = self._streams is not None and time.monotonic() - self._idle_since < KEEP_ALIVE
        if not reused:
            self._drop()
            self._streams = await asyncio.open_connection(
                self.host,
                self.port,
                local_addr=(self.local_address, 0) if self.local_address else None,
            )
        reader, writer = self._streams  # type: ignore[misc]
        try:
            writer.write(message)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
        except (OSError, asyncio.IncompleteReadError):
            if not reused:
                raise
            self._drop()  # the server closed the idle connection: once more, anew
            return await self._send(method, path, message)
        status, headers, cookies = _head(head)
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = await _chunked(reader)
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        else:
            body = await reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self._drop()
        else:
            self._idle_since = time.monotonic()
        for cookie in cookies:
            self._keep(cookie)
        return Response(method, path, status, headers, body.decode("utf-8", "replace"), cookies)

    def _keep(self, header: str) -> None:
        """Keep (or delete) the cookie a ``Set-Cookie`` header sets."""
        pair, _, attributes = header.partition(";")
        name, _, value = pair.strip().partition("=")
        lowered = attributes.lower().replace(" ", "")
        if "max-age=0" in lowered or "expires=thu,01jan1970" in lowered or not value:
            self.cookies.pop(name, None)
        else:
            self.cookies[name] = value

    def _drop(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


def _head(head: bytes) -> tuple[int, dict[str, str], tuple[str, ...]]:
    """The status, headers and ``Set-Cookie`` values of an answer's head."""
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    version, _, rest = status_line.partition(" ")
    if not version.startswith("HTTP/"):
        raise ValueError(f"not an HTTP answer: {status_line[:80]!r}")
    headers: dict[str, str] = {}
    cookies = []
    for line in header_lines:
        if not line:
            continue
        name, _, value = line.partition(":")
        name = name.strip().lower()
        value = value.strip()
        if name == "set-cookie":
            cookies.append(value)
        headers[name] = value
    return int(rest.split(" ", 1)[0]), headers, tuple(cookies)


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")  # no trailers are sent to these clients
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)


def _path_of(location: str) -> str:
    """The path (and query) of a ``Location``, absolute or not."""
    parts = urlsplit(location)
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
