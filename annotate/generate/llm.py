"""A language model as a lexical-substitution system: each item's sentence and target put
into a prompt (:mod:`annotate.generate.prompt`), sent to an OpenAI-compatible endpoint
(:mod:`annotate.generate.client`), the reply read as a list of candidates
(:mod:`annotate.generate.replies`) and kept in a cache (:mod:`annotate.generate.cache`).

Items go through in chunks of :data:`CHUNK`: a chunk's cached replies are read at once,
its other requests run on at most ``concurrency`` threads, and its answers are written
before the next chunk starts, so the run's memory stays the same whatever the number of
items (a TSAR file is read a chunk at a time too, :func:`items.iter_items`; the task's XML
is read whole) and an interrupted run keeps every reply it had. With ``samples`` K each
item is asked K times (seed, when given, ``seed + k`` for sample k); candidates are
ranked by how many samples gave them, then by the model's order (:func:`replies.rank_samples`).

A reply that holds no list is asked about once more (the model's reply and a reminder of
the format); after that, or when the server fails every retry, the item is left empty
and counted in :attr:`Tally.failures`, written to the provenance file.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

import scoring
from annotate.generate.cache import ReplyCache, cache_key
from annotate.generate.client import Endpoint, ServerError
from annotate.generate.items import Item, format_answers
from annotate.generate.prompt import Prompt
from annotate.generate.replies import SCHEMA, Lemmas, drop_target, parse_reply, rank_samples
from scoring.signature import PROVENANCE_SUFFIX

CHUNK = 1024
"""Items read, asked and written together."""
REMINDER = (
    'Answer with JSON only, in this form: {"substitutes": ["word", "word", ...]} '
    "(substitutes for the target word, best first)."
)
"""The second message of a re-ask."""


@dataclass(frozen=True)
class Parameters:
    """What the model is asked with: everything that fixes a reply beside the prompt."""

    model: str
    samples: int = 1
    temperature: float = 0.0
    seed: int | None = None
    max_tokens: int = 256
    task: str = "substitution"
    language: str = "en"

    def body(self, message: str, sample: int) -> dict[str, Any]:
        """The chat request of sample ``sample`` of ``message``."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": "user", "content": message}],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.seed is not None:
            body["seed"] = self.seed + sample
        return body


@dataclass
class Tally:
    """What a run did, for the summary line and the provenance file."""

    items: int = 0
    answered: int = 0
    requests: int = 0
    cached: int = 0
    reasked: int = 0
    plain: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = 0
    cached_completion_tokens: int = 0
    failures: dict[str, int] = field(default_factory=lambda: {"server": 0, "unreadable": 0})

    @property
    def failed(self) -> int:
        return sum(self.failures.values())


@dataclass
class Outcome:
    """One sample's result: its candidates (None: failed, and why)."""

    candidates: list[str] | None
    failure: str | None = None
    requests: int = 0
    reasked: bool = False
    plain: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0


def ask(endpoint: Endpoint, body: dict[str, Any]) -> Outcome:
    """One sample: the request, the reply read; one re-ask when it holds no list."""
    outcome = Outcome(None)
    messages = list(body["messages"])
    for attempt in range(2):
        try:
            reply = endpoint.chat({**body, "messages": messages}, SCHEMA)
        except ServerError:
            outcome.requests += 1
            outcome.failure = "server"
            return outcome
        outcome.requests += 1
        outcome.prompt_tokens += reply.prompt_tokens
        outcome.completion_tokens += reply.completion_tokens
        found = parse_reply(reply.content)
        if found is not None:
            outcome.candidates = found
            outcome.plain = not reply.content.lstrip().startswith("{")
            outcome.reasked = attempt == 1
            return outcome
        messages = [
            *messages,
            {"role": "assistant", "content": reply.content},
            {"role": "user", "content": REMINDER},
        ]
    outcome.failure = "unreadable"
    outcome.reasked = True
    return outcome


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


@dataclass
class Run:
    """A run of one model on a set of items."""

    endpoint: Endpoint
    parameters: Parameters
    prompt: Prompt
    cache: ReplyCache
    lemmas: Lemmas
    language_name: str = "English"
    concurrency: int = 8
    progress: Callable[[int], None] = lambda done: None
    """Called with the samples done so far (cached or asked)."""
    tally: Tally = field(default_factory=Tally)
    _checked: bool = False
    _done: int = 0

    def _step(self) -> None:
        self._done += 1
        self.progress(self._done)

    def _key(self, item: Item, message: str, sample: int) -> str:
        body = self.parameters.body(message, sample)
        return cache_key(
            {
                "endpoint": self.endpoint.base_url,
                "model": self.parameters.model,
                "prompt": self.prompt.sha256,
                "item": [item.lexelt, item.id],
                "request": body,
                "sample": sample,
            }
        )

    def answers(self, items: Sequence[Item], pool: ThreadPoolExecutor) -> list[list[str]]:
        """Each item's ranked candidates, the target dropped (empty when every sample
        failed)."""
        answers = []
        for item, found in zip(items, self.samples(items, pool), strict=True):
            given = [sample for sample in found if sample is not None]
            ranked = drop_target(rank_samples(given), item.word, item.lemma, self.lemmas)
            answers.append(ranked)
            self.tally.items += 1
            self.tally.answered += bool(ranked)
        return answers

    def samples(
        self, items: Sequence[Item], pool: ThreadPoolExecutor
    ) -> list[list[list[str] | None]]:
        """Each item's samples, in order: a sample's candidates as the model gave them
        (None when it failed: the server, or no list after the re-ask), cached ones read,
        the others asked on ``pool``."""
        samples = self.parameters.samples
        results: list[list[list[str] | None]] = [[None] * samples for _ in items]
        pending: list[tuple[int, int, str, Future[Outcome]]] = []
        asked: list[tuple[int, int, str, str]] = []
        for index, item in enumerate(items):
            message = self.prompt.render(item, self.language_name, self.parameters.language)
            for sample in range(samples):
                asked.append((index, sample, message, self._key(item, message, sample)))
        stored = self.cache.get_many([key for *_, key in asked])
        for index, sample, message, key in asked:
            hit = stored.get(key)
            if hit is not None:
                self.tally.cached += 1
                self.tally.cached_prompt_tokens += int(hit.get("prompt_tokens", 0))
                self.tally.cached_completion_tokens += int(hit.get("completion_tokens", 0))
                results[index][sample] = list(hit["candidates"])
                self._step()
                continue
            if not self._checked:
                self.endpoint.check_model(self.parameters.model)
                self._checked = True
            body = self.parameters.body(message, sample)
            pending.append((index, sample, key, pool.submit(ask, self.endpoint, body)))
        try:
            for index, sample, key, future in pending:
                outcome = future.result()
                self._count(outcome)
                self._step()
                if outcome.candidates is not None:
                    results[index][sample] = outcome.candidates
                    self.cache.put(
                        key,
                        {
                            "candidates": outcome.candidates,
                            "prompt_tokens": outcome.prompt_tokens,
                            "completion_tokens": outcome.completion_tokens,
                        },
                    )
        finally:
            for *_, future in pending:
                future.cancel()
        return results

    def _count(self, outcome: Outcome) -> None:
        tally = self.tally
        tally.requests += outcome.requests
        tally.prompt_tokens += outcome.prompt_tokens
        tally.completion_tokens += outcome.completion_tokens
        tally.reasked += outcome.reasked
        tally.plain += outcome.plain
        if outcome.failure is not None:
            tally.failures[outcome.failure] += 1

    def write(self, items: Iterable[Item], format: str, out: TextIO) -> None:
        """Answer ``items`` a chunk at a time, writing each chunk's lines to ``out``."""
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            for chunk in _chunks(items, CHUNK):
                out.write(format_answers(chunk, self.answers(chunk, pool), format))
                out.flush()

    def provenance(self, seconds: float) -> dict[str, Any]:
        """The provenance file's content (:func:`fingerprint` of what fixes the replies)."""
        fixed = {
            "model": self.parameters.model,
            "endpoint": self.endpoint.host,
            "parameters": asdict(self.parameters),
            "prompt_sha256": self.prompt.sha256,
        }
        tally = self.tally
        return {
            "system": "llm",
            **fixed,
            "prompt": self.prompt.name,
            "response_format": self.endpoint.form,
            "items": tally.items,
            "answered": tally.answered,
            "requests": tally.requests,
            "cached": tally.cached,
            "retries": self.endpoint.retried,
            "reasked": tally.reasked,
            "plain_replies": tally.plain,
            "tokens": {
                "prompt": tally.prompt_tokens + tally.cached_prompt_tokens,
                "completion": tally.completion_tokens + tally.cached_completion_tokens,
                "spent": tally.prompt_tokens + tally.completion_tokens,
            },
            "seconds": round(seconds, 3),
            "failures": tally.failures,
            "lexsub": scoring.__version__,
            "fingerprint": fingerprint(fixed),
        }


def fingerprint(fixed: dict[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of what fixes a run's replies (the model,
    the endpoint's host, the parameters, the prompt's hash): two runs with the same
    fingerprint asked the same questions of the same model."""
    return cache_key(fixed)[:16]


def provenance_path(out: str | os.PathLike[str]) -> Path:
    """The provenance file beside a system file: ``FILE.provenance.json``."""
    return Path(os.fspath(out) + PROVENANCE_SUFFIX)


def write_provenance(out: str | os.PathLike[str], content: dict[str, Any]) -> Path:
    """Write the provenance file beside ``out``; its path."""
    path = provenance_path(out)
    path.write_text(json.dumps(content, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def run_to_file(run: Run, items: Iterable[Item], format: str, out: str) -> dict[str, Any]:
    """Answer ``items`` into ``out`` (written to ``OUT.part``, renamed when complete) and
    write the provenance file beside it; the provenance."""
    started = time.perf_counter()
    part = Path(out + ".part")
    try:
        with part.open("w", encoding="utf-8", newline="\n") as file:
            run.write(items, format, file)
        part.replace(out)
    finally:
        part.unlink(missing_ok=True)
    content = run.provenance(time.perf_counter() - started)
    write_provenance(out, content)
    return content
