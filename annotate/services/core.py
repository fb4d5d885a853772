"""Core statements (plain rows, no ORM entities) run in the session's transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import CursorResult, Executable

from annotate.extensions import db


def execute(statement: Executable, parameters: Mapping[str, Any]) -> CursorResult[*tuple[Any, ...]]:
    """Run ``statement`` on the session's connection, in its transaction, as Core runs
    it: its rows are plain values, so the session's own ``execute`` (its ORM execution
    layer: the statement's plugin, the events, the bind looked up again) adds only CPU,
    a third of the page's read and of a save's statements. What the session has pending is
    flushed first, as its ``execute`` would before an ORM statement."""
    session = db.session()
    session.flush()
    return session.connection().execute(statement, parameters)
