"""Benchmark of ``lexsub generate llm``: lexsub's own cost per request, and a run of
100,000 items replayed from the reply cache.

What it measures
----------------
1. **Overhead per request.** ``--requests`` items (default 2,000) asked of the in-process
   OpenAI-compatible server of the tests (:mod:`tests.openai_server`, answering at once),
   one request in flight, cache empty, through :func:`annotate.generate.llm.run_to_file`
   as the command runs it. lexsub's overhead is the wall time per request less the time
   the server spent in its handler: the prompt rendered, the request built and sent over
   loopback HTTP (a new connection each, as ``urllib`` does), the reply read and checked,
   the target dropped, the reply stored in the cache, the line written. The server runs
   in the same process, so its threads compete for the interpreter: a conservative
   figure. Target: under 5 ms.

2. **100,000 items from the cache.** A TSAR file of ``--items`` distinct items (default
   100,000) whose replies are put into a fresh cache first (the keys
   :meth:`annotate.generate.llm.Run._key` gives, the command's own); then the whole command
   ``lexsub generate llm … --format tsar`` is run as a child process, interpreter start and
   LemmInflect's loading included, against an endpoint that must not be asked (the server
   fails the bench if it gets a request). Wall time and the child's peak resident set
   (``os.wait4``) at a tenth, a half and all of the items show whether memory grows with
   the items (the TSAR file is read a chunk at a time); the pipeline's own peak
   (``tracemalloc``, in-process, the items read beforehand) is shown too. Target: under
   20 s, memory flat.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.llm_bench
    .venv/bin/python -m bench.llm_bench --requests 300 --items 10000   # quick
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from annotate.generate.cache import ReplyCache
from annotate.generate.client import Endpoint
from annotate.generate.items import Item, read_items
from annotate.generate.llm import Parameters, Run, run_to_file
from annotate.generate.prompt import default_prompt, load_prompt
from annotate.generate.replies import lemminflect_lemmas
from bench.machine import load_average, machine_facts
from tests.openai_server import FakeServer

WORDS = ("bright", "quick", "large", "calm", "heavy", "sharp", "clear", "plain")


def write_items(path: Path, count: int) -> None:
    """A TSAR file of ``count`` distinct items (the number makes each sentence unique)."""
    with path.open("w", encoding="utf-8", newline="\n") as file:
        for n in range(count):
            word = WORDS[n % len(WORDS)]
            file.write(f"Sentence {n} has a {word} word in it.\t{word}\n")


def make_run(url: str, cache: ReplyCache, concurrency: int = 1) -> Run:
    parameters = Parameters("tiny", task="simplification")
    prompt = load_prompt(default_prompt("simplification"))
    return Run(
        Endpoint(url), parameters, prompt, cache, lemminflect_lemmas(), "English", concurrency
    )


def overhead(requests: int, folder: Path) -> None:
    data = folder / "overhead.tsv"
    write_items(data, requests)
    items = read_items(data)
    with FakeServer() as server:
        server.keep_requests = False
        run = make_run(server.url, ReplyCache(folder / "cache-overhead"))
        run_to_file(run, items[:50], "tsar", str(folder / "warm.tsv"))  # warm up
        server.handling = 0.0
        started = time.perf_counter()
        run_to_file(run, items[50:], "tsar", str(folder / "overhead.out.tsv"))
        wall = time.perf_counter() - started
        handling = server.handling
        asked = run.tally.requests - 50
    print(f"overhead: {asked} requests, one in flight, cache empty")
    print(f"  wall per request             {1000 * wall / asked:8.3f} ms")
    print(f"  server handler per request   {1000 * handling / asked:8.3f} ms")
    print(f"  lexsub overhead per request  {1000 * (wall - handling) / asked:8.3f} ms")


def fill(path: Path, url: str, cache_folder: Path) -> tuple[Item, ...]:
    """The items of ``path``, their replies put into the cache under the command's keys."""
    items = read_items(path)
    cache = ReplyCache(cache_folder)
    run = make_run(url, cache)
    reply = {"candidates": ["smart", "clever", "vivid"], "prompt_tokens": 60}
    for item in items:
        message = run.prompt.render(item, run.language_name, run.parameters.language)
        cache.put(run._key(item, message, 0), {**reply, "completion_tokens": 9})
    cache.close()
    return items


def replay_child(data: Path, url: str, cache_folder: Path, out: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of the command replaying ``data`` from the cache."""
    lexsub = Path(sys.executable).parent / "lexsub"
    argv = [str(lexsub), "generate", "llm", "--base-url", url, "--model", "tiny"]
    argv += ["--data", str(data), "--format", "tsar", "--out", str(out)]
    argv += ["--cache", str(cache_folder), "--task", "simplification"]
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    assert child.stdout is not None and child.stderr is not None
    printed = child.stdout.read().decode() + child.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0 or "(0 requests" not in printed:
        raise SystemExit(f"the replay failed or asked the server: {printed}")
    return wall, usage.ru_maxrss / 1024


def replay(count: int, folder: Path) -> str:
    """The command replaying a tenth, a half and all of ``count`` items. The caches are
    filled by a child (``--fill``), so that this process stays small: a child's peak
    resident set (``ru_maxrss``) counts its parent's at the fork."""
    with FakeServer() as server:
        server.default = "401"  # any request to /chat/completions is a failure
        sizes = sorted({max(1, count // 10), max(1, count // 2), count})
        for size in sizes:
            data = folder / f"replay-{size}.tsv"
            write_items(data, size)
            cache_folder = folder / f"cache-{size}"
            started = time.perf_counter()
            filling = [sys.executable, "-m", "bench.llm_bench", "--fill", str(data)]
            subprocess.run([*filling, str(cache_folder), server.url], check=True)
            filled = time.perf_counter() - started
            wall, rss = replay_child(data, server.url, cache_folder, folder / f"out-{size}.tsv")
            print(
                f"replay {size:>7} items: {wall:6.2f} s wall, peak RSS {rss:6.1f} MiB "
                f"(cache filled in {filled:.1f} s, not timed)"
            )
        return server.url


def pipeline_memory(count: int, folder: Path, url: str) -> None:
    """The run's own peak Python memory (``tracemalloc``) over a tenth, a half and all of
    the items read beforehand (the caches :func:`replay` filled)."""
    data = folder / f"replay-{count}.tsv"
    for size in sorted({max(1, count // 10), max(1, count // 2), count}):
        items = read_items(data)[:size]
        cache = ReplyCache(folder / f"cache-{count}")
        run = make_run(url, cache)  # the endpoint the caches were filled for (not asked)
        tracemalloc.start()
        with open(os.devnull, "w", encoding="utf-8") as discard:
            run.write(items, "tsar", discard)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        cache.close()
        print(f"pipeline peak (tracemalloc), {size:>7} items: {peak / 2**20:6.2f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--fill", nargs=3, metavar=("DATA", "CACHE", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill:
        fill(Path(args.fill[0]), args.fill[2], Path(args.fill[1]))
        return
    for name, value in machine_facts():
        print(f"{name}: {value}")
    print(f"load: {load_average()}")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        url = replay(args.items, folder)  # first, while this process is small
        overhead(args.requests, folder)
        pipeline_memory(args.items, folder, url)
    print(f"load after: {load_average()}")


if __name__ == "__main__":
    main()
