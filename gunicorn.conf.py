"""gunicorn's settings for lexsub: gunicorn reads this file from the directory it starts in
(``.venv/bin/gunicorn -w 4 -b 127.0.0.1:8000 wsgi:app`` in the repository, docs/deploy.md).

Each worker is warmed once it has loaded the app and before it takes a request
(:func:`annotate.warmup.warm`), so no annotator's save pays for compiling the page and
its SQL. A configuration file of your own (``-c FILE``) replaces this one: copy the hook.
"""

from typing import Any


def post_worker_init(worker: Any) -> None:
    from annotate.warmup import warm

    warm(worker.wsgi)
