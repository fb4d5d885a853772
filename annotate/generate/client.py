"""A client for any OpenAI-compatible chat endpoint (Ollama, vLLM, llama.cpp's server, LM
Studio, OpenAI), on the standard library alone (``urllib.request``; the caller's threads
give the concurrency).

What it does for every request:

* the API key (``LEXSUB_API_KEY``) goes in the ``Authorization`` header and nowhere else:
  never in an error message, never in a log;
* 429 and 5xx replies are retried (:data:`RETRIES` times) after a jittered exponential
  backoff, or after the server's ``Retry-After`` when it sends one (capped at
  :data:`MAX_WAIT` seconds); a timeout or a dropped connection is retried the same way;
* structured output: the standard ``response_format`` JSON schema first; a server that
  refuses it (a 400, 422 or 500 to a request carrying it: llama.cpp's Python server answers
  ``"type": "json_schema"`` with an HTTP 500) is asked again at once with ``{"type":
  "json_object", "schema": …}``, then with no ``response_format`` at all (plain text); the
  first form a server takes is remembered for the endpoint, so the refusal costs one
  request per run, not one per item.

Errors a person must fix (an unreachable endpoint, a 401, an unknown model) are
:class:`EndpointError`, one line naming the endpoint's host, never the key.
"""

from __future__ import annotations

import email.utils
import json
import os
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

KEY_VARIABLE = "LEXSUB_API_KEY"
"""The environment variable holding the API key (none: no ``Authorization`` header)."""
RETRIES = 5
"""How many times a 429, a 5xx, a timeout or a dropped connection is retried."""
BASE_WAIT = 0.5
"""The first backoff in seconds; doubled at each retry, jittered (full jitter)."""
MAX_WAIT = 60.0
"""The longest wait, whatever ``Retry-After`` says."""
FORMS = ("json_schema", "json_object", "text")
"""The structured-output forms, tried in this order."""
REFUSALS = frozenset({400, 422, 500})
"""Statuses read as "this server does not take this response_format"."""


class EndpointError(RuntimeError):
    """A failure a person must fix (one line, without the key)."""


class ServerError(RuntimeError):
    """A request that failed after every retry (counted, the item left empty)."""


@dataclass
class Reply:
    """One chat completion: the message's text, its token counts, the form it was asked in."""

    content: str
    prompt_tokens: int
    completion_tokens: int
    form: str


def response_format(form: str, schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``response_format`` of ``form`` (:data:`FORMS`) for ``schema``; None for text."""
    if form == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "substitutes", "strict": True, "schema": dict(schema)},
        }
    if form == "json_object":
        return {"type": "json_object", "schema": dict(schema)}
    return None


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date); None when
    absent or unreadable.

    >>> retry_after("3")
    3.0
    >>> retry_after("soon") is None
    True
    """
    if not value:
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def backoff(attempt: int, rng: random.Random) -> float:
    """The jittered wait before retry ``attempt`` (0 first): uniform in [0, base·2^attempt]."""
    return rng.uniform(0, min(MAX_WAIT, BASE_WAIT * 2**attempt))


@dataclass
class Endpoint:
    """An OpenAI-compatible endpoint: ``base_url`` ends in ``/v1`` (or is the server's root,
    ``/v1`` then added), ``key`` from :data:`KEY_VARIABLE`."""

    base_url: str
    key: str | None = None
    timeout: float = 120.0
    retries: int = RETRIES
    sleep: Callable[[float], None] = time.sleep
    form: str = FORMS[0]
    """The structured-output form this endpoint takes (lowered on a refusal)."""
    retried: int = 0
    """How many retries this run made (429, 5xx, timeouts)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _rng: random.Random = field(default_factory=random.Random, repr=False)

    def __post_init__(self) -> None:
        url = self.base_url.rstrip("/")
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise EndpointError(
                f"--base-url {self.base_url!r} is not an http(s) URL "
                "(e.g. http://localhost:11434/v1)"
            )
        if not parts.path.endswith("/v1"):
            url += "/v1"
        self.base_url = url

    @classmethod
    def from_environment(cls, base_url: str, **options: Any) -> Endpoint:
        """The endpoint with the key of :data:`KEY_VARIABLE` (none when unset or empty)."""
        return cls(base_url, key=os.environ.get(KEY_VARIABLE) or None, **options)

    @property
    def host(self) -> str:
        """The endpoint's host and port (what a provenance file names: no path, no key)."""
        return urllib.parse.urlsplit(self.base_url).netloc

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        return headers

    def _once(self, path: str, body: Mapping[str, Any] | None) -> tuple[int, str, str | None]:
        """One request: (status, body text, Retry-After); EndpointError when unreachable."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base_url + path,
            data=data,
            headers=self._headers(),
            method="GET" if body is None else "POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.read().decode("utf-8", "replace"), None
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace") if error.fp else ""
            return error.code, text, error.headers.get("Retry-After")
        except urllib.error.URLError as error:
            if isinstance(error.reason, (TimeoutError, socket.timeout)):
                return 0, "timed out", None
            if isinstance(error.reason, ConnectionResetError):
                return 0, "connection reset", None
            raise EndpointError(
                f"the endpoint {self.host} cannot be reached ({error.reason}): is the server "
                "running and --base-url right?"
            ) from None
        except TimeoutError:
            return 0, "timed out", None
        except (ConnectionError, http_client_errors()) as error:
            return 0, type(error).__name__, None

    def request(self, path: str, body: Mapping[str, Any] | None = None) -> tuple[int, str]:
        """Status and text of ``path``, retried on 429, 5xx and timeouts (not on a 500 when
        ``body`` carries a response_format: the caller reads that as a refusal first);
        EndpointError on a 401 or 403."""
        refusable = body is not None and "response_format" in body
        attempt = 0
        while True:
            status, text, after = self._once(path, body)
            if status in (401, 403):
                raise EndpointError(
                    f"the endpoint {self.host} refused the API key (HTTP {status}): "
                    f"set {KEY_VARIABLE} to a valid key"
                )
            transient = status == 0 or status == 429 or status >= 500
            if refusable and status in REFUSALS:
                transient = False
            if not transient or attempt >= self.retries:
                return status, text
            wait = retry_after(after)
            with self._lock:
                self.retried += 1
                jitter = backoff(attempt, self._rng)
            self.sleep(min(MAX_WAIT, jitter if wait is None else wait))
            attempt += 1

    def models(self) -> list[str]:
        """The ids ``/v1/models`` lists; EndpointError when the endpoint cannot list them."""
        status, text = self.request("/models")
        if status != 200:
            raise EndpointError(
                f"the endpoint {self.host} did not list its models (HTTP {status} from "
                f"{self.base_url}/models): is --base-url an OpenAI-compatible endpoint?"
            )
        try:
            listed = json.loads(text)["data"]
            return [str(model["id"]) for model in listed]
        except (ValueError, KeyError, TypeError):
            raise EndpointError(
                f"the endpoint {self.host} answered /models with something that is not "
                "an OpenAI model list: is --base-url an OpenAI-compatible endpoint?"
            ) from None

    def check_model(self, model: str) -> None:
        """EndpointError naming the models the endpoint has when ``model`` is not one."""
        known = self.models()
        if model not in known:
            shown = ", ".join(known[:20]) + (" …" if len(known) > 20 else "")
            raise EndpointError(
                f"the endpoint {self.host} has no model {model!r} (it has: {shown or 'none'})"
            )

    def chat(self, body: Mapping[str, Any], schema: Mapping[str, Any]) -> Reply:
        """A chat completion of ``body`` with structured output in this endpoint's form,
        lowering the form on a refusal; ServerError after every retry failed."""
        while True:
            form = self.form
            asked = dict(body)
            chosen = response_format(form, schema)
            if chosen is not None:
                asked["response_format"] = chosen
            status, text = self.request("/chat/completions", asked)
            if status in REFUSALS and chosen is not None:
                with self._lock:
                    if self.form == form:  # another thread may have lowered it already
                        self.form = FORMS[FORMS.index(form) + 1]
                continue
            if status != 200:
                raise ServerError(f"HTTP {status or 'failure'}: {text[:200]}")
            return _reply(text, form)


def http_client_errors() -> type[Exception]:
    """``http.client``'s base error (a malformed or cut-off reply)."""
    import http.client

    return http.client.HTTPException


def _reply(text: str, form: str) -> Reply:
    """The message text and token counts of a chat completion's body; ServerError when
    the body is not one (a proxy's HTML page, a cut-off reply)."""
    try:
        body = json.loads(text)
        content = body["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise ServerError(f"not a chat completion: {text[:200]!r}") from None
    usage = body.get("usage") or {}
    return Reply(
        content if isinstance(content, str) else "",
        int(usage.get("prompt_tokens") or 0),
        int(usage.get("completion_tokens") or 0),
        form,
    )
