"""A real OpenAI-compatible HTTP server, in-process (``http.server`` on a thread), for the
tests and the benchmark of ``lexsub generate llm``: it answers ``GET /v1/models`` and
``POST /v1/chat/completions``, records every request (path, headers, body), and plays the
protocol's failure modes on demand (:attr:`FakeServer.script`).

A script is a list of actions taken by the next requests to ``/chat/completions``, one
each, then :attr:`FakeServer.default`:

* ``"ok"``: a JSON reply ``{"substitutes": [...]}`` from :attr:`FakeServer.answer`;
* ``"plain"``: the substitutes as a numbered list of text (a server ignoring the schema);
* ``"prose"``: text without a list; ``"notjson"``: a body that is not JSON at all;
* ``"429"``, ``"429-after"`` (with ``Retry-After: 1``), ``"500"``, ``"503"``, ``"401"``;
* ``"slow"``: a reply after :attr:`FakeServer.delay` seconds (past the client's timeout;
  :attr:`FakeServer.most_in_flight` counts how many were waiting at once).

``refuse_json_schema`` makes it answer ``response_format.type == "json_schema"`` with an
HTTP 500, as llama.cpp's Python server does.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeServer:
    """The server and what it saw; a context manager (started, then shut down)."""

    def __init__(self, models: tuple[str, ...] = ("tiny",), key: str | None = None) -> None:
        self.models = models
        self.key = key
        self.script: list[str] = []
        self.default = "ok"
        self.delay = 2.0
        self.refuse_json_schema = False
        self.answer: Callable[[dict[str, Any]], list[str]] = lambda body: [
            "bright",
            "clever",
            "smart",
        ]
        self.handling = 0.0
        """Seconds spent inside the handler of /chat/completions (reading to replying)."""
        self.in_flight = 0
        self.most_in_flight = 0
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.keep_requests = True
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
                data = body.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (its timeout): nothing to tell it

            def _authorised(self) -> bool:
                if server.key is None:
                    return True
                return self.headers.get("Authorization") == f"Bearer {server.key}"

            def do_GET(self) -> None:
                if server.keep_requests:
                    with server.lock:
                        server.requests.append(
                            {"path": self.path, "headers": dict(self.headers), "body": None}
                        )
                if not self._authorised():
                    self._send(401, '{"error": "invalid key"}')
                elif self.path == "/v1/models":
                    listed = [{"id": name, "object": "model"} for name in server.models]
                    self._send(200, json.dumps({"object": "list", "data": listed}))
                else:
                    self._send(404, '{"error": "not found"}')

            def do_POST(self) -> None:
                started = time.perf_counter()
                try:
                    self._post()
                finally:
                    spent = time.perf_counter() - started
                    with server.lock:
                        server.handling += spent

            def _post(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                body = json.loads(raw)
                with server.lock:
                    if server.keep_requests:
                        server.requests.append(
                            {"path": self.path, "headers": dict(self.headers), "body": body}
                        )
                    action = server.script.pop(0) if server.script else server.default
                if not self._authorised() or action == "401":
                    self._send(401, '{"error": "invalid key"}')
                    return
                kind = (body.get("response_format") or {}).get("type")
                if server.refuse_json_schema and kind == "json_schema":
                    self._send(500, '{"error": "Internal Server Error"}')
                    return
                if action in ("429", "500", "503"):
                    self._send(int(action), '{"error": "busy"}')
                    return
                if action == "429-after":
                    self._send(429, '{"error": "busy"}', {"Retry-After": "1"})
                    return
                if action == "notjson":
                    self._send(200, "<html>Bad gateway</html>")
                    return
                if action == "slow":
                    with server.lock:
                        server.in_flight += 1
                        server.most_in_flight = max(server.most_in_flight, server.in_flight)
                    time.sleep(server.delay)
                    with server.lock:
                        server.in_flight -= 1
                words = server.answer(body)
                if action == "plain":
                    content = "\n".join(f"{n}. {w}" for n, w in enumerate(words, 1))
                elif action == "prose":
                    content = "I am sorry, I cannot help with that request today."
                else:
                    content = json.dumps({"substitutes": words})
                reply = {
                    "id": "chatcmpl-1",
                    "object": "chat.completion",
                    "model": body.get("model"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                }
                self._send(200, json.dumps(reply))

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def chats(self) -> list[dict[str, Any]]:
        """The requests to ``/chat/completions`` so far."""
        with self.lock:
            return [r for r in self.requests if r["path"] == "/v1/chat/completions"]

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
