"""Save-and-next over HTTP on words of 10 and of 1,000 sentences: does the annotation
page's cost grow with the size of a word?

What it measures
----------------
Two SQLite databases, each with one dataset of the same 171 words: the sentences as they
are (SemEval-2007's test set, 1,710 sentences, ten a word) and each word's sentences
repeated ``--factor`` times within the word (default 100: 171,000 sentences, 1,000 a
word; copy k of sentence ``n`` is ``n-k``). Each is imported as ``lexsub import`` does
(in-process, with the instance limit raised as an operator may), one annotator is made a
member, and each is served by its own gunicorn (``wsgi:app``, ``--workers`` sync workers,
default 1) on 127.0.0.1. One client a server (:mod:`bench.raw_http`, as in
bench/load_bench.py) logs in on the log-in page and then does ``--saves`` save-and-next
by the page's script (``POST /annotate/<id>`` with ``Accept: application/json``, the
next sentence's page in the JSON answer), the two sizes in turn, save by save, so that
whatever else the machine does falls on both alike. A save-and-next's time runs from
pressing Save to the next sentence's page received. The first ``--warm-up`` saves of each
are not counted.

Printed: the median and mean save-and-next of each size, the ratio of the medians
(171,000 against 1,710), and what one sentence's page weighs on each: its bytes (``GET
/annotate/<id>``, the middle sentence of the first word) and the links of its "This word"
navigation.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.word_size_bench                 # 300 saves a size
    .venv/bin/python -m bench.word_size_bench --saves 500 --factor 100
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from bench import machine, raw_http
from bench.app_bench import machine_facts
from bench.load_bench import DEMO, SEMEVAL_TEST, Annotator, Lexsub
from tests import live_clients, live_server
from tests.live_clients import Save

USERNAME = "bench"
PASSWORD = "password1"
DATASET = "bench"
NAVIGATION = re.compile(r'<nav class="sentences"[^>]*>(.*?)</nav>', re.S)


def widened(sentences: Path, factor: int, folder: Path) -> Path:
    """``sentences`` with each word's sentences repeated ``factor`` times within the word
    (copy k of sentence ``n`` is ``n-k``), in the task's XML layout in ``folder``:
    as many words, ``factor`` times as many sentences a word."""
    from scoring.formats.importers.read import parse_source
    from scoring.formats.instances import Limits
    from scoring.formats.taskxml import format_lexsub_xml

    if factor == 1:
        return sentences
    parsed = parse_source(
        sentences.read_bytes(), str(sentences), limits=Limits(instances=10_000_000)
    )
    lexelts = [
        replace(
            lexelt,
            instances=tuple(
                replace(instance, id=f"{instance.id}-{k}") if k else instance
                for k in range(factor)
                for instance in lexelt.instances
            ),
        )
        for lexelt in parsed.lexelts
    ]
    path = folder / f"{sentences.stem}-words-x{factor}.xml"
    path.write_bytes(format_lexsub_xml(lexelts))
    return path


def make_database(url: str, sentences: Path) -> tuple[int, int, int]:
    """The schema, ``sentences`` imported as the dataset ``bench`` and the annotator
    ``bench`` made its member: the number of sentences and words, and the id of the
    first word's middle sentence (whose page is weighed)."""
    from flask_migrate import upgrade
    from sqlalchemy import func, select

    from annotate import create_app
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Instance
    from annotate.services.accounts import create_user
    from annotate.services.datasets import import_dataset
    from annotate.services.study import assign
    from scoring.formats.instances import Limits

    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        data = sentences.read_bytes()
        parsed = parse_lexsub_xml(data, sentences.name, limits=Limits(instances=10_000_000))
        dataset = import_dataset(parsed, DATASET, sentences.name, data).dataset
        assign(create_user(USERNAME, PASSWORD), dataset)
        first_word = db.session.scalar(
            select(Instance.lexelt_id)
            .where(Instance.dataset_id == dataset.id)
            .order_by(Instance.position)
            .limit(1)
        )
        of_word = db.session.scalar(
            select(func.count(Instance.id)).where(Instance.lexelt_id == first_word)
        )
        middle = db.session.scalar(
            select(Instance.id)
            .where(Instance.lexelt_id == first_word)
            .order_by(Instance.position)
            .offset((of_word or 1) // 2)
            .limit(1)
        )
        counts = (dataset.sentences, dataset.words, middle or 0)
        db.session.remove()
        db.engine.dispose()
    return counts


def log(message: str) -> None:
    print(f"[word_size_bench] {message}", file=sys.stderr, flush=True)


@dataclass
class Size:
    """One size: its server's port, its annotator and the page it weighs."""

    name: str
    port: int
    middle: int
    annotator: Annotator
    site: Lexsub
    page_bytes: int = 0
    links: int = 0


async def weigh(size: Size) -> None:
    """The bytes of the middle sentence's page and the links of its navigation."""
    response = await size.annotator.client.get(f"/annotate/{size.middle}")
    if response.status_code != 200:
        raise SystemExit(f"word_size_bench: {size.name}: the page answered {response.status_code}")
    size.page_bytes = len(response.text.encode())
    found = NAVIGATION.search(response.text)
    size.links = 0 if found is None else found.group(1).count("<a ")


async def drive(sizes: list[Size], saves: int, warm_up: int) -> None:
    for size in sizes:
        await size.site.log_in(size.annotator)
        await weigh(size)  # the annotator stays on its first sentence (log_in opened it)
    gc.collect()
    for number in range(saves + warm_up):
        for size in sizes:
            annotator = size.annotator
            save = Save(annotator.username, annotator.sentence, f"w{number}")
            pressed = time.perf_counter()
            if not await size.site.save_and_next(annotator, save):
                raise SystemExit(f"word_size_bench: {size.name}: {annotator.unexpected}")
            if number >= warm_up:
                annotator.cycles.append(time.perf_counter() - pressed)
    for size in sizes:
        await size.annotator.client.aclose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=300, help="timed saves a size (300)")
    parser.add_argument("--warm-up", type=int, default=20, help="untimed saves first (20)")
    parser.add_argument(
        "--factor", type=int, default=100, help="each word's sentences repeated (100)"
    )
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers a server (1)")
    parser.add_argument(
        "--sentences",
        type=Path,
        default=SEMEVAL_TEST if SEMEVAL_TEST.exists() else DEMO,
        help="the sentences (default SemEval-2007's test set)",
    )
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if options.saves < 1 or options.factor < 2 or options.warm_up < 0:
        parser.error("--saves at least 1, --factor at least 2, --warm-up at least 0")
    load_before = machine.load_average()
    with tempfile.TemporaryDirectory(prefix="word_size-") as scratch:
        folder = Path(scratch)
        made = []
        for factor in (1, options.factor):
            url = f"sqlite:///{folder / f'words-x{factor}.sqlite'}"
            log(f"importing x{factor}")
            counts = make_database(url, widened(options.sentences, factor, folder))
            made.append((url, counts))
        servers = []
        sizes = []
        try:
            for url, (sentences, words, middle) in made:
                run = folder / f"server-{sentences}"
                run.mkdir()
                env = live_server.server_environment(url)
                server = live_server.Server(env, run, workers=options.workers)
                servers.append(server)
                server.start()
                name = f"{sentences:,} sentences, {words} words"
                annotator = Annotator(
                    USERNAME, PASSWORD, raw_http.Client(live_clients.HOST, server.port)
                )
                order = live_server.instance_order(url, DATASET)[:1]
                sizes.append(Size(name, server.port, middle, annotator, Lexsub(order)))
            log(f"{options.saves} saves a size, in turn")
            asyncio.run(drive(sizes, options.saves, options.warm_up))
        finally:
            for server in servers:
                server.stop()
    print("word_size_bench: save-and-next by fetch over HTTP (gunicorn), one annotator a size")
    for name, value in machine_facts():
        print(f"  {name:<8} {value}")
    print(f"  load     1/5/15-min averages {load_before} before, {machine.load_average()} after")
    print(f"  sentences {options.sentences}, workers {options.workers}")
    print()
    print("| dataset | saves | ms p50 | ms mean | page bytes | navigation links |")
    print("|---|---|---|---|---|---|")
    for size in sizes:
        cycles = size.annotator.cycles
        print(
            f"| {size.name} | {len(cycles)} | {1000 * statistics.median(cycles):.2f} | "
            f"{1000 * statistics.fmean(cycles):.2f} | {size.page_bytes:,} | {size.links} |"
        )
    small, large = (statistics.median(size.annotator.cycles) for size in sizes)
    print()
    print(f"ratio of the medians, larger / smaller: {large / small:.2f}x (target at most 1.5x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
