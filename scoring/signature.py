"""The one signature builder: ``metric:NAME|key:value|…|version:X.Y.Z``, as sacrebleu
prints one. Every figure lexsub reports carries a signature built here, naming every
setting that fixes it; the version is the installed package's (:data:`scoring.__version__`).

>>> signature("best.R", ("rules", "compat"), ("t", T_RULE)).rsplit("|", 1)[0]
'metric:best.R|rules:compat|t:two+responses'
"""

from __future__ import annotations

import json
import os
from typing import Any, NamedTuple

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
written by ``lexsub generate llm`` and ``lexsub generate wordnet``)."""

KEY_PARAMETERS = ("temperature", "samples", "seed", "max_tokens")
"""The parameters a provenance's summary names first, in this order (the rest follow,
sorted)."""


class Provenance(NamedTuple):
    """What a system file's provenance file says made it: the generator (``llm``,
    ``wordnet``), the model (a language model's name; ``WordNet 3.0`` for the baseline),
    the endpoint's host, the parameters (the model's name left out), the prompt's SHA-256
    and the ``fingerprint`` of them all. ``unreadable`` says why the file is not a
    provenance file (None when it is; the other fields are then empty).

    >>> Provenance("x.provenance.json", unreadable="not JSON").summary()
    'unreadable (x.provenance.json: not JSON)'
    """

    file: str
    generator: str = ""
    model: str = ""
    endpoint: str = ""
    parameters: tuple[tuple[str, object], ...] = ()
    prompt_sha256: str = ""
    fingerprint: str = ""
    unreadable: str | None = None

    def parameters_text(self) -> str:
        """``temperature=0.8, samples=5, seed=7, max_tokens=256``: the key parameters
        first, then the others (a seed not given is ``none``)."""
        return ", ".join(f"{key}={_value_text(value)}" for key, value in self.parameters)

    def summary(self) -> str:
        """One line: ``MODEL at HOST (GENERATOR); PARAMETERS; prompt SHA12; fingerprint
        FP``, each part only when the file gives it; ``unreadable (FILE: why)``."""
        if self.unreadable is not None:
            return f"unreadable ({self.file}: {self.unreadable})"
        head = self.model or "?"
        if self.endpoint:
            head += f" at {self.endpoint}"
        if self.generator:
            head += f" ({self.generator})"
        parts = [head]
        if self.parameters:
            parts.append(self.parameters_text())
        if self.prompt_sha256:
            parts.append(f"prompt {self.prompt_sha256[:12]}")
        parts.append(f"fingerprint {self.fingerprint}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """Its fields (``parameters`` an object); ``{"file", "unreadable"}`` for a file
        that is not a provenance file."""
        if self.unreadable is not None:
            return {"file": self.file, "unreadable": self.unreadable}
        return {
            "file": self.file,
            "generator": self.generator,
            "model": self.model,
            "endpoint": self.endpoint,
            "parameters": dict(self.parameters),
            "prompt_sha256": self.prompt_sha256,
            "fingerprint": self.fingerprint,
        }


def _value_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _text_field(body: dict[str, Any], key: str) -> str:
    """``body[key]``, a string, ``""`` when absent; ValueError when it is not a string."""
    value = body.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"{key} is not a string")
    return value


def parse_provenance(text: str, file: str) -> Provenance:
    """The provenance in ``text`` (the JSON of a provenance file named ``file``); an
    ``unreadable`` one, saying why, when it is not JSON, not an object, has no
    ``fingerprint`` or a field of the wrong type. Never raises."""
    try:
        body = json.loads(text)
    except ValueError as error:
        return Provenance(file, unreadable=f"not JSON ({error})")
    if not isinstance(body, dict):
        return Provenance(file, unreadable="not a JSON object")
    try:
        fingerprint = _text_field(body, "fingerprint")
        if not fingerprint:
            raise ValueError("no fingerprint")
        generator = _text_field(body, "generator") or _text_field(body, "system")
        found = body.get("parameters", {})
        if not isinstance(found, dict):
            raise ValueError("parameters is not an object")
        model = _text_field(body, "model") or str(found.get("model", ""))
        if not model and generator == "wordnet":
            model = f"WordNet {_text_field(body, 'wordnet')}".rstrip()
        given = {key: value for key, value in found.items() if key != "model"}
        for key, value in given.items():
            if isinstance(value, dict | list):
                raise ValueError(f"parameter {key} is not a single value")
        order = [k for k in KEY_PARAMETERS if k in given] + sorted(
            k for k in given if k not in KEY_PARAMETERS
        )
        return Provenance(
            file,
            generator=generator,
            model=model,
            endpoint=_text_field(body, "endpoint"),
            parameters=tuple((key, given[key]) for key in order),
            prompt_sha256=_text_field(body, "prompt_sha256"),
            fingerprint=fingerprint,
        )
    except ValueError as error:
        return Provenance(file, unreadable=str(error))


def read_provenance(system: str | os.PathLike[str] | None) -> Provenance | None:
    """The provenance file beside the system file ``system`` (``FILE.provenance.json``),
    read (:func:`parse_provenance`); None when there is none."""
    if system is None:
        return None
    path = os.fspath(system) + PROVENANCE_SUFFIX
    if not os.path.isfile(path):
        return None
    name = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except (OSError, UnicodeDecodeError) as error:
        return Provenance(name, unreadable=f"cannot be read ({error.__class__.__name__})")
    return parse_provenance(text, name)


def provenance_settings(system: str | os.PathLike[str] | None) -> tuple[tuple[str, object], ...]:
    """``(("provenance", FINGERPRINT),)`` when the system file has a provenance file beside
    it (its ``fingerprint``: the model, the endpoint, the parameters and the prompt that
    made it), ``("provenance", "unreadable")`` when that file is not one; nothing when
    there is none."""
    found = read_provenance(system)
    if found is None:
        return ()
    return (("provenance", "unreadable" if found.unreadable is not None else found.fingerprint),)


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


class Settings(NamedTuple):
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
