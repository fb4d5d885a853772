"""Regular expressions compiled when first used, not when their module is imported.

Compiling a pattern costs 20-90 µs. The drop-in scorer (``lexsub score``)
starts in about 20 ms, close to score.pl's time on the task's test set, and a run uses few
of the patterns its modules define (with the gold's reading cached, none of the gold
reader's): so the scorer's modules name their patterns with :func:`lazy`, and build the
rest with :func:`pattern`, and no pattern is compiled before it is needed.
"""

from __future__ import annotations

import re
from functools import cache

from scoring import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, AnyStr

_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "split", "sub", "subn")


@cache
def pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, compiled at the first call and kept."""
    return re.compile(source, flags)


class _Lazy:
    """Stands for ``re.compile(source, flags)``: the first attribute asked for compiles
    it and puts the pattern's methods on this object, so that a later call costs what a
    call of the compiled pattern's method costs."""

    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for what is not on the object yet
        if name.startswith("_"):
            raise AttributeError(name)
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            self._compiled = compiled = re.compile(self._source, self._flags)
            for method in _METHODS:
                setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags})"


def lazy(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """A module's named pattern, compiled when first used: ``LEXELT = lazy(r"…")``
    reads as ``LEXELT = re.compile(r"…")`` (its methods and attributes are the compiled
    pattern's), without the compilation at import."""
    return _Lazy(source, flags)  # type: ignore[return-value]  # a re.Pattern in all it does
