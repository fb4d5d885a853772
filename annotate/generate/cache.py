"""The replies of a model, kept on disk so that a second run makes no request and an
interrupted run resumes where it stopped.

One SQLite file (``DIR/replies.sqlite3``): a reply is stored under the SHA-256 of
everything that fixes it (:func:`cache_key`: the endpoint, the model, the prompt as sent,
the parameters, the sample's number), committed as soon as it arrives. Only good replies
are stored: a failed item is asked again on the next run. The default folder is the
user's cache folder (``$XDG_CACHE_HOME/lexsub/llm``, ``~/.cache/lexsub/llm``;
``%LOCALAPPDATA%\\lexsub\\llm`` on Windows).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from scoring.files import user_cache

FILE = "replies.sqlite3"


def default_folder() -> Path:
    """The user's cache folder for lexsub's model replies."""
    return Path(user_cache("llm"))


def cache_key(parts: Mapping[str, Any]) -> str:
    """The SHA-256 of ``parts`` as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class ReplyCache:
    """A key → reply store shared by the worker threads (one connection, one lock)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        path = Path(folder)
        path.mkdir(parents=True, exist_ok=True)
        self.path = path / FILE
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS reply (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
        )

    def get(self, key: str) -> dict[str, Any] | None:
        """The stored reply of ``key`` (None when absent)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM reply WHERE key = ?", (key,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def get_many(self, keys: list[str]) -> dict[str, dict[str, Any]]:
        """The stored replies of ``keys`` that are present (one query per 500 keys: a
        chunk of items is looked up at once)."""
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            with self._lock:
                rows = self._db.execute(
                    f"SELECT key, value FROM reply WHERE key IN ({marks})", part
                ).fetchall()
            found.update((key, dict(json.loads(value))) for key, value in rows)
        return found

    def put(self, key: str, value: Mapping[str, Any]) -> None:
        """Store a reply at once (an interrupted run keeps it)."""
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO reply VALUES (?, ?)", (key, text))

    def close(self) -> None:
        with self._lock:
            self._db.close()
