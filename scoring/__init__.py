"""lexsub scoring: readers, the official SemEval-2007 measures and their command lines.

Pure logic: nothing here imports Flask or SQLAlchemy.

``__version__`` is the installed distribution's version (``pyproject.toml`` is the one
place it is written); every signature carries it. It is read when first asked for
(PEP 562), so that a command that prints no signature, such as ``python -m
scoring.score.cli``, does not pay for ``importlib.metadata`` at start-up.
"""

from __future__ import annotations

TYPE_CHECKING = False
"""``typing.TYPE_CHECKING`` without importing :mod:`typing` (mypy reads any name
``TYPE_CHECKING`` as true): the modules the drop-in scorer loads import their typing names
under ``if TYPE_CHECKING:``, so that its start-up does without ``typing`` (13 M
instructions)."""


def __getattr__(name: str) -> str:
    if name != "__version__":
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("lexsub")
    except PackageNotFoundError as error:  # pragma: no cover - a checkout used without install
        raise ImportError(
            "lexsub is not installed: run `pip install -e .` in the checkout (or "
            "`pip install lexsub`) so that its version can be read"
        ) from error
    globals()["__version__"] = found
    return found
