"""gunicorn's settings for lexsub: gunicorn reads this file from the directory it starts in
(``.venv/bin/gunicorn -w 4 -b 127.0.0.1:8000 wsgi:app`` in the repository, docs/deploy.md).

Each worker is warmed once it has loaded the app and before it takes a request
(:func:`annotate.warmup.warm`), so no annotator's save pays for compiling the page and
its SQL. A configuration file of your own (``-c FILE``) replaces this one: copy the hooks,
the timeout and the recycling.

A worker that has not answered within ``timeout`` seconds is killed. The slowest request
is an import on the organiser's page: the largest files the 64 MiB upload limit and the
import's bounds admit take at most 38 s on a busy 2-core machine (bench/RESULTS.md, "Import
bounds"), so the timeout is 300 s, not gunicorn's 30, and no import is ever killed.

Memory: every upload is read within its bounds (:mod:`scoring.files.bounded`), so no request
takes a worker past 520 MiB (bench/upload_bounds_bench.py). Python does not give all of
what a large request held back to the system, so a worker that holds more than
``RECYCLE_RSS`` bytes once a request is answered finishes and is replaced by a fresh one
(:func:`post_request`), and every worker is replaced after ``max_requests`` requests (with
a jitter, so that the workers are not all replaced at once).
"""

from typing import Any

timeout = 300
max_requests = 1000
max_requests_jitter = 100
RECYCLE_RSS = 320 * 2**20
"""A worker holding more than this once a request is answered is replaced (a fresh worker
holds about 130 MiB)."""


def post_worker_init(worker: Any) -> None:
    from annotate.warmup import warm

    warm(worker.wsgi)


def resident_bytes() -> int:
    """The memory this process holds now (its resident set, from /proc/self/statm), or 0
    where the system does not say."""
    import os

    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """Replace a worker that holds more than :data:`RECYCLE_RSS` bytes after a request
    (gunicorn lets it finish, then starts a fresh one), as ``max_requests`` does."""
    held = resident_bytes()
    if held > RECYCLE_RSS:
        worker.log.info(
            "worker holds %d MiB after %s %s: replaced by a fresh one",
            held // 2**20,
            getattr(req, "method", ""),
            getattr(req, "path", ""),
        )
        worker.alive = False
