"""SWORDS datasets (Lee et al. 2021, "Swords: A Benchmark for Lexical Substitution with
Improved Data Coverage and Quality", NAACL), release v1.1: one JSON object (gzipped as
``swords-v1.1_{dev,test}.json.gz``) with ``contexts``, ``targets``, ``substitutes`` (each
with its ``target_id`` and the ``substitute`` string) and ``substitute_labels``: for each
substitute id, the list of its raters' labels, ``TRUE``, ``FALSE`` or ``UNSURE``.

The reader keeps what agreement (:mod:`scoring.agreement.swords`) and evaluation
(:mod:`scoring.benchmark.swords`) need: each target's word, offset, PoS and context
(:class:`SwordsTarget`), the substitutes with their labels, and the file's
``substitutes_lemmatized``; with ``labels=ALL_LABELS`` it accepts SWORDS' implicit labels
(``TRUE_IMPLICIT``, ``FALSE_IMPLICIT``, which its conversions of SemEval-2007 and CoInCo
use for annotators' substitutes and pooled candidates). Every problem is a
:class:`~scoring.errors.FormatError` naming ``FILE:JSON.PATH`` (:func:`json_path`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.errors import FormatError, Problem
from scoring.files import parse_json
from scoring.files.bounded import read_text

LABELS = ("FALSE", "TRUE", "UNSURE")
"""The three-way categories, in column order."""
KEYS = ("contexts", "targets", "substitutes", "substitute_labels")
ALL_LABELS = (*LABELS, "TRUE_IMPLICIT", "FALSE_IMPLICIT")
"""Every label of SWORDS' ``Label`` enumeration."""
POS_NAMES = (
    "UNKNOWN", "ADJ", "ADV", "INTJ", "NOUN", "PROPN", "VERB", "ADP", "AUX", "CCONJ", "DET",
    "NUM", "PART", "PRON", "SCONJ", "PUNCT", "SYM", "X",
)  # fmt: skip
"""SWORDS' ``Pos`` names (Universal Dependencies v2 tags and UNKNOWN)."""


@dataclass(frozen=True, slots=True)
class SwordsTarget:
    """One target word in its context: ``context[offset:offset + len(target)]`` is the
    target (case aside); ``pos`` is a :data:`POS_NAMES` name or None."""

    id: str
    context_id: str
    context: str
    target: str
    offset: int
    pos: str | None
    legacy_id: str | None = None
    """``extra.legacy_id``: the item id of the task the target comes from (SWORDS'
    conversions of SemEval-2007 and ours, :mod:`scoring.benchmark.convert`)."""
    lexelt: str | None = None
    """``extra.lexelt_item``: that item's lexelt (``bright.a``)."""


@dataclass(frozen=True, slots=True)
class SwordsSubstitute:
    """One candidate substitute for one target in context, with its raters' labels."""

    id: str
    target_id: str
    substitute: str
    labels: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Swords:
    """A SWORDS release file: how many contexts and targets, the substitutes sorted by id,
    the targets sorted by id and whether the substitutes are lemmatised."""

    contexts: int
    targets: int
    substitutes: tuple[SwordsSubstitute, ...]
    target_list: tuple[SwordsTarget, ...] = ()
    substitutes_lemmatized: bool = True


def json_path(*keys: str) -> str:
    """A JSON path as the messages name it: ``$["targets"]["t:a"]["offset"]``."""
    return "$" + "".join(f"[{json.dumps(key, ensure_ascii=False)}]" for key in keys)


_Fault = tuple[str, str]
"""What is wrong and where: (the key at fault, empty for the object itself; the problem)."""


def _target(tid: str, obj: Any, contexts: Any) -> SwordsTarget | _Fault:
    """One target, or the key at fault and the problem with it."""
    if not isinstance(obj, dict):
        return "", f"{type(obj).__name__} is not an object"
    cid, word, offset, pos = (obj.get(key) for key in ("context_id", "target", "offset", "pos"))
    if not isinstance(cid, str) or cid not in contexts:
        return "context_id", f"{cid!r} is not a key of contexts"
    context = contexts[cid].get("context") if isinstance(contexts[cid], dict) else None
    if not isinstance(context, str) or not context:
        return "context_id", f"context {cid!r} has no non-empty 'context' string"
    if not isinstance(word, str) or not word.strip():
        return "target", f"{word!r} is not a non-empty string"
    if not isinstance(offset, int) or isinstance(offset, bool):
        return "offset", f"{offset!r} is not a whole number"
    found = context[max(offset, 0) : max(offset, 0) + len(word)]
    if found.lower() != word.lower() or offset < 0:
        return "offset", f"the context has {found!r} at {offset}, not the target {word!r}"
    if pos is not None and pos not in POS_NAMES:
        return "pos", f"{pos!r} is not null or one of {', '.join(POS_NAMES)}"
    given = obj.get("extra")
    extra: dict[str, Any] = given if isinstance(given, dict) else {}
    legacy, lexelt = extra.get("legacy_id"), extra.get("lexelt_item")
    legacy = str(legacy) if isinstance(legacy, int | str) and not isinstance(legacy, bool) else None
    lexelt = lexelt if isinstance(lexelt, str) else None
    return SwordsTarget(tid, cid, context, word, offset, pos, legacy, lexelt)


def _substitute(
    sid: str, obj: Any, labels: Any, targets: Any, allowed: Sequence[str]
) -> SwordsSubstitute | _Fault:
    """One substitute, or the key at fault and the problem with it (``labels``: the
    problem is in ``substitute_labels``)."""
    if not isinstance(obj, dict):
        return "", f"{type(obj).__name__} is not an object"
    target, text = obj.get("target_id"), obj.get("substitute")
    if not isinstance(target, str) or target not in targets:
        return "target_id", f"{target!r} is not a key of targets"
    if not isinstance(text, str) or not text:
        return "substitute", f"{text!r} is not a non-empty string"
    if not isinstance(labels, list) or not labels:
        return "labels", f"{labels!r} is not a non-empty list (every substitute is labelled)"
    unknown = sorted({str(x) for x in labels if x not in allowed})
    if unknown:
        return "labels", f"label {', '.join(unknown)} is not one of {', '.join(allowed)}"
    return SwordsSubstitute(sid, target, text, tuple(labels))


def parse_swords(data: Any, name: str = "<swords>", labels: Sequence[str] = LABELS) -> Swords:
    """A :class:`Swords` from the decoded JSON object; every problem is reported as
    ``NAME:PATH: problem (rule)``, PATH a JSON path (:func:`json_path`), in one
    :class:`scoring.errors.FormatError`. ``labels``
    are the labels accepted (:data:`LABELS` for agreement, :data:`ALL_LABELS` to score)."""
    if not isinstance(data, dict):
        raise FormatError([Problem(name, "", f"{type(data).__name__} is not an object")])
    missing = [key for key in KEYS if not isinstance(data.get(key), dict)]
    if missing:
        raise FormatError(
            [
                Problem(
                    name,
                    "",
                    f"{', '.join(missing)} missing or not an object (a "
                    f"SWORDS file has {', '.join(KEYS)})",
                )
            ]
        )
    substitutes, given = data["substitutes"], data["substitute_labels"]
    problems = [
        Problem(name, json_path("substitute_labels", sid), "no such substitute")
        for sid in sorted(set(given) - set(substitutes))
    ]
    targets: list[SwordsTarget] = []
    for tid in sorted(data["targets"]):
        target = _target(tid, data["targets"][tid], data["contexts"])
        if isinstance(target, tuple):
            key, problem = target
            problems.append(Problem(name, json_path("targets", tid, *filter(None, [key])), problem))
        else:
            targets.append(target)
    parsed: list[SwordsSubstitute] = []
    for sid in sorted(substitutes):
        result = _substitute(sid, substitutes[sid], given.get(sid), data["targets"], labels)
        if isinstance(result, tuple):
            key, problem = result
            path = (
                json_path("substitute_labels", sid)
                if key == "labels"
                else json_path("substitutes", sid, *filter(None, [key]))
            )
            problems.append(Problem(name, path, problem))
        else:
            parsed.append(result)
    lemmatized = data.get("substitutes_lemmatized", True)
    if not isinstance(lemmatized, bool):
        problems.append(
            Problem(
                name, json_path("substitutes_lemmatized"), f"{lemmatized!r} is not true or false"
            )
        )
    if problems:
        raise FormatError(problems)
    return Swords(
        len(data["contexts"]),
        len(data["targets"]),
        tuple(parsed),
        tuple(targets),
        bool(lemmatized),
    )


def load_json(path: str | Path, rule: str = "a SWORDS file is one JSON object") -> Any:
    """The decoded JSON of a file, gunzipped when its name ends in ``.gz``; a
    :class:`FormatError` naming the file, the line and ``rule`` when it is not JSON."""
    path = Path(path)
    try:
        return parse_json(read_text(path))
    except json.JSONDecodeError as error:
        raise FormatError([f"{path}: {error.msg} at line {error.lineno} ({rule})"]) from None


def read_swords(path: str | Path, labels: Sequence[str] = LABELS) -> Swords:
    """:func:`parse_swords` on a file, gunzipped when its name ends in ``.gz``."""
    return parse_swords(load_json(path), str(path), labels)
