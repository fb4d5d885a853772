"""The load benchmark's HTTP client (bench/raw_http.py) against a server of canned
answers on a loopback port: what it sends, the bodies it reads (by length, chunked, to
the end), cookies set and deleted, redirects, and the kept-alive connection."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from bench import raw_http


async def serve(
    answers: list[bytes], seen: list[bytes], connections: list[int], close_after: int = 99
) -> tuple[asyncio.Server, int]:
    """A server giving ``answers`` in turn, keeping each request (head and body) in
    ``seen`` and counting the connections; it closes a connection after ``close_after``
    requests on it, or after an answer that says ``Connection: close``."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        for _ in range(close_after):
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            seen.append(head + await reader.readexactly(length))
            answer = answers.pop(0)
            writer.write(answer)
            await writer.drain()
            if b"Connection: close" in answer:
                break
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def test_a_form_post_and_its_answer_by_length_with_a_cookie() -> None:
    seen: list[bytes] = []
    connections: list[int] = []

    async def test() -> None:
        server, port = await serve(
            [
                b"HTTP/1.1 200 OK\r\nContent-Length: 11\r\nSet-Cookie: session=abc; Path=/;"
                b" HttpOnly\r\nContent-Type: text/plain\r\n\r\nhello world",
                b'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n'
                b"3\r\n 1}\r\n0\r\n\r\n",
            ],
            seen,
            connections,
        )
        client = raw_http.Client("127.0.0.1", port)
        first = await client.post("/login", data={"username": "ann", "password": "a b&c"})
        assert (first.status_code, first.text, first.path, first.method) == (
            200,
            "hello world",
            "/login",
            "POST",
        )
        assert first.headers["content-type"] == "text/plain"
        assert client.cookies == {"session": "abc"}
        second = await client.get("/next", headers={"Accept": "application/json"})
        assert second.json() == {"a": 1}
        await client.aclose()
        server.close()

    run(test)
    body = b"username=ann&password=a+b%26c"
    host = f"Host: 127.0.0.1:{port_of(seen)}\r\n".encode()
    assert seen == [
        b"POST /login HTTP/1.1\r\n" + host + b"Content-Type: application/x-www-form-urlencoded"
        b"\r\nContent-Length: 29\r\n\r\n" + body,
        b"GET /next HTTP/1.1\r\n" + host + b"Cookie: session=abc\r\n"
        b"Accept: application/json\r\n\r\n",
    ]
    assert len(connections) == 1  # kept alive: both on one connection


def port_of(seen: list[bytes]) -> str:
    return seen[0].split(b"Host: 127.0.0.1:")[1].split(b"\r\n")[0].decode()


def test_json_bodies_redirects_followed_and_a_deleted_cookie() -> None:
    seen: list[bytes] = []
    connections: list[int] = []

    async def test() -> None:
        server, port = await serve(
            [
                b"HTTP/1.1 302 FOUND\r\nLocation: http://127.0.0.1/annotate/7?x=1\r\n"
                b"Set-Cookie: flash=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/\r\n"
                b"Content-Length: 0\r\n\r\n",
                b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nthe page, to the end",
            ],
            seen,
            connections,
        )
        client = raw_http.Client("127.0.0.1", port)
        client.cookies["flash"] = "old"
        page = await client.request(
            "POST", f"http://127.0.0.1:{port}/save", json={"k": [1, "é"]}, follow_redirects=True
        )
        assert (page.status_code, page.path, page.method, page.text) == (
            200,
            "/annotate/7?x=1",
            "GET",
            "the page, to the end",
        )
        assert client.cookies == {}
        await client.aclose()
        server.close()

    run(test)
    assert seen[0].startswith(b"POST /save HTTP/1.1\r\n")
    assert seen[0].endswith(b'\r\n\r\n{"k": [1, "\\u00e9"]}')
    assert b"Content-Type: application/json\r\nContent-Length: 20\r\n" in seen[0]
    assert seen[1].startswith(b"GET /annotate/7?x=1 HTTP/1.1\r\n")


def test_a_connection_the_server_closed_is_opened_again_and_failures_are_transport_errors() -> None:
    seen: list[bytes] = []
    connections: list[int] = []

    async def test() -> None:
        ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        server, port = await serve([ok, ok], seen, connections, close_after=1)
        client = raw_http.Client("127.0.0.1", port)
        assert (await client.get("/a")).text == "ok"
        await asyncio.sleep(0.05)  # the server has closed it meanwhile
        assert (await client.get("/b")).text == "ok"
        server.close()
        await server.wait_closed()
        await client.aclose()
        with pytest.raises(raw_http.TransportError):
            await client.get("/c")

    run(test)
    assert len(connections) == 2
    assert [request.split(b" ")[1] for request in seen] == [b"/a", b"/b"]
