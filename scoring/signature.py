"""The one signature builder: ``metric:NAME|key:value|…|version:X.Y.Z``, as sacrebleu
prints one. Every figure lexsub reports carries a signature built here, naming every
setting that fixes it; the version is the installed package's (:data:`scoring.__version__`).

>>> signature("best.R", ("rules", "compat"), ("t", T_RULE)).rsplit("|", 1)[0]
'metric:best.R|rules:compat|t:two+responses'
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import scoring

T_RULE = "two+responses"
"""How the scorer's T is chosen (McCarthy & Navigli 2007, 2.2.1): items with at least two non-pn
responses."""


def signature(metric: str, *settings: tuple[str, object]) -> str:
    """``metric:METRIC``, each ``key:value`` setting in the order given, then the version."""
    parts = [
        f"metric:{metric}",
        *(f"{key}:{value}" for key, value in settings),
        f"version:{scoring.__version__}",  # read when first needed (scoring/__init__.py)
    ]
    return "|".join(parts)


PROVENANCE_SUFFIX = ".provenance.json"
"""The provenance file a generated system file has beside it (``FILE.provenance.json``,
written by ``lexsub generate llm``)."""


def provenance_settings(system: str | os.PathLike[str] | None) -> tuple[tuple[str, object], ...]:
    """``(("provenance", FINGERPRINT),)`` when the system file has a provenance file beside
    it (its ``fingerprint``: the model, the endpoint, the parameters and the prompt that
    made it), ``("provenance", "unreadable")`` when that file is not one; nothing when
    there is none."""
    if system is None:
        return ()
    path = os.fspath(system) + PROVENANCE_SUFFIX
    if not os.path.isfile(path):
        return ()
    try:
        with open(path, encoding="utf-8") as file:
            found = json.load(file)["fingerprint"]
    except (OSError, ValueError, KeyError, TypeError):
        return (("provenance", "unreadable"),)
    return (("provenance", found if isinstance(found, str) and found else "unreadable"),)


def with_provenance(built: str, system: str | os.PathLike[str] | None) -> str:
    """A signature with the system file's provenance setting (:func:`provenance_settings`)
    put before its version; unchanged when the file has none.

    >>> with_provenance("metric:x|version:1", None)
    'metric:x|version:1'
    """
    extra = provenance_settings(system)
    if not extra:
        return built
    head, version = built.rsplit("|", 1)
    return "|".join([head, *(f"{key}:{value}" for key, value in extra), version])


def scorer_settings(rules: str) -> tuple[tuple[str, object], ...]:
    """The settings every measure of a system against a gold shares: the rules the gold
    and the answers are read under, and how T is chosen."""
    return (("rules", rules), ("t", T_RULE))


@dataclass(frozen=True)
class Settings:
    """What changes a number of the leaderboard, beyond the files: all of it goes into the
    signatures (:meth:`scoring.measures.quotient.Ratio.signature`)."""

    measures: tuple[str, ...] | None = None  # None: every measure that applies
    by_pos: bool = False
    significance: bool = False
    k: float = 1.0
    resamples: int = 1000
    trials: int = 1000
    seed: int = 12345
    confidence: float = 0.95
    analyses: bool = False
    workers: int = 1  # processes scoring the systems (the figures do not depend on it)
