"""The score.pl drop-in: ``lexsub score`` (:mod:`scoring.score.cli`) and, as a library,
:func:`score` (a system's text against a gold's text) and :func:`score_files` (two
paths), which return a :class:`ScoreResult` (:mod:`scoring.score.library`). They are
imported when first asked for (PEP 562), so that ``python -m scoring.score`` and the
modules beside them start without them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoring.score.library import ScoreResult, died_here, score, score_files

__all__ = ["ScoreResult", "died_here", "score", "score_files"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module 'scoring.score' has no attribute {name!r}")
    from scoring.score import library

    return getattr(library, name)
