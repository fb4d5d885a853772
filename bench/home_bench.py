"""Benchmark of a dataset's home and the dashboard's row of it (:mod:`annotate.services.home`).

What it measures
----------------
The time of :func:`dataset_home` (progress in grouped queries, answers today, one compile
of the gold, the participants flagged, the agreement so far with its bootstrap intervals)
and of :func:`dataset_row` (the same without the agreement), best of ``--repeat`` runs
after one warm-up, on a SQLite file. Both run on the organiser's request only: nothing
here is in the annotators' save path, which this benchmark does not touch.

Input
-----
``--words`` words of 10 sentences each (default 200: 2,000 sentences), ``--annotators``
members (default 3) each answering every sentence with two substitutes drawn from six
(seed 1), so every item is in T and the agreement is computed.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.home_bench
    .venv/bin/python -m bench.home_bench --words 50 --repeat 1   # quick
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.machine import load_average, machine_facts

POOL = ("glad", "happy", "cheerful", "content", "joyful", "merry")


def _xml(words: int, sentences: int) -> bytes:
    lexelts = "".join(
        f'<lexelt item="w{w}.n">'
        + "".join(
            f'<instance id="w{w}s{s}"><context>A <head>w{w}</head> here.</context></instance>'
            for s in range(sentences)
        )
        + "</lexelt>"
        for w in range(words)
    )
    return f'<?xml version="1.0" ?><corpus lang="english">{lexelts}</corpus>'.encode()


def _best(run: Callable[[], object], repeat: int) -> float:
    run()  # warm-up: the lemmatiser and the queries' first compile
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--words", type=int, default=200)
    parser.add_argument("--annotators", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from flask_migrate import upgrade

    from annotate import create_app
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Instance, Response
    from annotate.services.accounts import create_user
    from annotate.services.datasets import import_dataset
    from annotate.services.home import dataset_home, dataset_row
    from annotate.services.study import assign

    folder = Path(tempfile.mkdtemp(prefix="home-bench-"))
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'db.sqlite'}",
        }
    )
    xml = _xml(args.words, 10)
    chosen = random.Random(1)
    with app.app_context():
        upgrade()
        dataset = import_dataset(parse_lexsub_xml(xml, "bench.xml"), "bench", "bench.xml", xml)
        data = dataset.dataset
        ids = list(db.session.scalars(db.select(Instance.id).order_by(Instance.position)))
        for number in range(args.annotators):
            user = create_user(f"a{number}", "password1")
            assign(user, data)
            for instance_id in ids:
                db.session.add(
                    Response(
                        user_id=user.id,
                        instance_id=instance_id,
                        kind="substitutes",
                        substitutes=chosen.sample(POOL, 2),
                    )
                )
        db.session.commit()
        for name, value in machine_facts():
            print(f"{name}: {value}")
        print(f"load average: {load_average()}")
        answers = len(ids) * args.annotators
        print(f"{len(ids)} sentences, {args.annotators} annotators, {answers} answers")
        print(f"dataset_row:  {_best(lambda: dataset_row(data), args.repeat):.2f} s")
        print(f"dataset_home: {_best(lambda: dataset_home(data), args.repeat):.2f} s")


if __name__ == "__main__":
    main()
