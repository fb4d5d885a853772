"""gunicorn's settings for lexsub: gunicorn reads this file from the directory it starts in
(``.venv/bin/gunicorn -w 4 -b 127.0.0.1:8000 wsgi:app`` in the repository, docs/deploy.md).

Each worker is warmed once it has loaded the app and before it takes a request
(:func:`annotate.warmup.warm`), so no annotator's save pays for compiling the page and
its SQL. A configuration file of your own (``-c FILE``) replaces this one: copy the hook
and the timeout.

A worker that has not answered within ``timeout`` seconds is killed. The slowest request
is an import on the organiser's page: the largest files the 64 MiB upload limit and the
import's bounds admit take at most 38 s on a busy 2-core machine (bench/RESULTS.md, "Import
bounds"), so the timeout is 300 s, not gunicorn's 30, and no import is ever killed.
"""

from typing import Any

timeout = 300


def post_worker_init(worker: Any) -> None:
    from annotate.warmup import warm

    warm(worker.wsgi)
