"""lexsub scoring: readers, the official SemEval-2007 measures and their command lines.

Pure logic: nothing here imports Flask or SQLAlchemy.

``__version__`` is the installed distribution's version (``pyproject.toml`` is the one
place it is written); every signature carries it. It is read when first asked for
(PEP 562).
"""

from __future__ import annotations


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
