"""lexsub scoring: readers, the official SemEval-2007 measures and their command lines.

Pure logic: nothing here imports Flask or SQLAlchemy.

The library, one function per command (each command parses, calls it and prints what it
returns; texts in, or paths in the ``_files`` twin; docs/score-howto.md, "From Python"):

- ``lexsub score``: :func:`scoring.score.library.score` (texts) and
:func:`scoring.score.library.score_files`
  (paths) → :class:`scoring.score.ScoreResult` (score.pl's figures, the diagnosis, and
  ``render(format)``, the command's standard output);
- ``lexsub compare``: :func:`scoring.leaderboard.compare` and
  :func:`scoring.leaderboard.compare_files` → :class:`scoring.leaderboard.Leaderboard`;
- ``lexsub agreement``: :func:`scoring.agreement.report.agreement_report` and
  :func:`scoring.agreement.report.agreement_report_file` →
  :class:`scoring.agreement.report.AgreementReport`;
- ``lexsub benchmark``: :func:`scoring.benchmark.evaluate_benchmark` (and each benchmark
  module's ``evaluate_files``) → :class:`scoring.benchmark.Report`.

None of them reads or writes a file beyond its arguments (the gold cache is the command's).

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
