"""Agreement of the SWORDS judgements (Lee et al. 2021, "Swords: A Benchmark for Lexical
Substitution with Improved Data Coverage and Quality", NAACL), release v1.1.

A SWORDS file (``swords-v1.1_{dev,test}.json.gz``, gzip of one JSON object) holds
``contexts``, ``targets``, ``substitutes`` (each with its ``target_id`` and the
``substitute`` string) and ``substitute_labels``: for each substitute id, the list of
its raters' labels, ``TRUE`` (a good substitute in this context), ``FALSE`` or ``UNSURE``.
A substitute has 3 or 10 labels: in v1.1 no 3-label substitute has a ``TRUE`` and
every 10-label one has at least one (as if 7 more labels were asked for exactly the
candidates that one of the first 3 raters accepted). The units of agreement are the
substitutes; the file does not say which rater gave which label, so the raters are
exchangeable and only per-unit label counts are used.

Two views of the labels:

* ``three_way``: the categories FALSE, TRUE, UNSURE as labelled;
* ``binary``: FALSE and TRUE, with UNSURE dropped as a missing value (the ``swords``
  library's own ``stats`` counts only TRUE and FALSE as informative labels), so a unit
  may have fewer raters than it had labels.

Figures (:func:`swords_agreement`), for the 3-label units, the 10-label units and all:

* Fleiss' kappa (Fleiss 1971) on the three-way counts; for a group with one number of
  raters this is ``fleiss_kappa``, for all units :func:`generalised_fleiss_kappa`;
* Krippendorff's alpha (nominal) from the value counts by ``krippendorff.alpha``, in
  both views (``alpha_from_counts`` is the closed form; equal to 1e-9 in the tests).

The reader also keeps what evaluation needs (:mod:`scoring.benchmark.swords`): each
target's word, offset, PoS and context (:class:`SwordsTarget`) and the file's
``substitutes_lemmatized``; with ``labels=ALL_LABELS`` it accepts SWORDS' implicit labels
(``TRUE_IMPLICIT``, ``FALSE_IMPLICIT``, which its conversions of SemEval-2007 and CoInCo
use for annotators' substitutes and pooled candidates).

The two stages matter when reading them: the 3-label units contain no TRUE at all, so
their agreement is about UNSURE against FALSE (and their binary alpha is undefined), and
the 10-label units were selected for having a TRUE.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from scoring.agreement import fleiss_kappa
from scoring.agreement.alpha import Counts, package_alpha
from scoring.files import parse_json, read_text
from scoring.formats import FormatError

LABELS = ("FALSE", "TRUE", "UNSURE")
"""The three-way categories, in column order."""
View = Literal["three_way", "binary"]
VIEWS: tuple[View, ...] = ("three_way", "binary")
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


Problem = tuple[str, str]
"""What is wrong and where: (the key at fault, empty for the object itself; the problem)."""


def _target(tid: str, obj: Any, contexts: Any) -> SwordsTarget | Problem:
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
) -> SwordsSubstitute | Problem:
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
    :class:`scoring.formats.FormatError`. ``labels``
    are the labels accepted (:data:`LABELS` for agreement, :data:`ALL_LABELS` to score)."""
    if not isinstance(data, dict):
        raise FormatError([f"{name}: {type(data).__name__} is not an object"])
    missing = [key for key in KEYS if not isinstance(data.get(key), dict)]
    if missing:
        raise FormatError(
            [
                f"{name}: {', '.join(missing)} missing or not an object (a "
                f"SWORDS file has {', '.join(KEYS)})"
            ]
        )
    substitutes, given = data["substitutes"], data["substitute_labels"]
    problems = [
        f"{name}:{json_path('substitute_labels', sid)}: no such substitute"
        for sid in sorted(set(given) - set(substitutes))
    ]
    targets: list[SwordsTarget] = []
    for tid in sorted(data["targets"]):
        target = _target(tid, data["targets"][tid], data["contexts"])
        if isinstance(target, tuple):
            key, problem = target
            problems.append(f"{name}:{json_path('targets', tid, *filter(None, [key]))}: {problem}")
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
            problems.append(f"{name}:{path}: {problem}")
        else:
            parsed.append(result)
    lemmatized = data.get("substitutes_lemmatized", True)
    if not isinstance(lemmatized, bool):
        problems.append(
            f"{name}:{json_path('substitutes_lemmatized')}: {lemmatized!r} is not true or false"
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


def label_counts(substitutes: Sequence[SwordsSubstitute], view: View = "three_way") -> Counts:
    """One row per substitute: its labels counted per category, columns FALSE, TRUE,
    UNSURE (``three_way``) or FALSE, TRUE with UNSURE dropped (``binary``)."""
    if view not in VIEWS:
        raise ValueError(f"view {view!r} is not one of {', '.join(VIEWS)}")
    columns = LABELS if view == "three_way" else LABELS[:2]
    return np.array(
        [[s.labels.count(c) for c in columns] for s in substitutes], dtype=np.int64
    ).reshape(-1, len(columns))


def generalised_fleiss_kappa(counts: Sequence[Sequence[int]] | Counts) -> float:
    """Fleiss' kappa when the number of raters n_i ≥ 2 differs between subjects, every
    subject weighing the same in both terms: P_i = Σ_j n_ij (n_ij - 1) / (n_i (n_i - 1)),
    P̄ = mean_i P_i, p_j = mean_i n_ij / n_i, P̄_e = Σ_j p_j²,
    kappa = (P̄ - P̄_e) / (1 - P̄_e). With one n for all subjects it is Fleiss (1971)
    exactly (``fleiss_kappa``). Pooling p_j over ratings instead (Σ_i n_ij / Σ_i n_i)
    would mix two weightings; on SWORDS it would give 0.563 where this gives 0.310 (dev).
    Subjects with fewer than two ratings are refused: drop them first."""
    table = np.asarray(counts, dtype=np.int64)
    if table.ndim != 2 or not len(table):
        raise ValueError("no subjects (kappa needs at least one)")
    if (table < 0).any():
        raise ValueError("a negative count (counts are of raters)")
    raters = table.sum(axis=1)
    if (raters < 2).any():
        first = int(np.argmax(raters < 2))
        raise ValueError(
            f"subject {first} has {int(raters[first])} ratings (each needs at least 2)"
        )
    within = (table * (table - 1)).sum(axis=1) / (raters * (raters - 1))
    agreement = math.fsum(within.tolist()) / len(table)
    shares = table / raters[:, np.newaxis]
    expected = math.fsum(math.fsum(column.tolist()) ** 2 for column in shares.T) / len(table) ** 2
    if expected == 1:
        raise ValueError("every rating is in one category (P_e = 1, kappa is undefined)")
    return (agreement - expected) / (1 - expected)


@dataclass(frozen=True, slots=True)
class SwordsAgreement:
    """The agreement figures of one group of units (None where undefined)."""

    raters: str
    """``3``, ``10`` or ``all``: the number of labels of the units in the group."""
    units: int
    labels: int
    fleiss_kappa: float | None
    """Three-way; Fleiss (1971) for one number of raters, the generalised form for all."""
    alpha_three_way: float | None
    alpha_binary: float | None
    """UNSURE dropped; units left with fewer than two labels drop out."""
    binary_units: int
    """Units with at least two TRUE or FALSE labels."""


def _or_none(function: Callable[[Counts], float], counts: Counts) -> float | None:
    """The figure, or None where it is undefined (the function's ValueError)."""
    try:
        return function(counts)
    except ValueError:
        return None


def _kappa(counts: Counts) -> float:
    """Fleiss (1971) when every unit has the same number of labels, else generalised."""
    if len(set(counts.sum(axis=1).tolist())) == 1:
        return fleiss_kappa(counts.tolist())
    return generalised_fleiss_kappa(counts)


def _agreement(raters: str, group: Sequence[SwordsSubstitute]) -> SwordsAgreement:
    three = label_counts(group, "three_way")
    binary = label_counts(group, "binary")
    return SwordsAgreement(
        raters,
        len(group),
        int(three.sum()),
        _or_none(_kappa, three),
        _or_none(package_alpha, three),
        _or_none(package_alpha, binary),
        int((binary.sum(axis=1) >= 2).sum()),
    )


def swords_agreement(data: Swords) -> tuple[SwordsAgreement, ...]:
    """:class:`SwordsAgreement` for the units with each number of labels (ascending),
    then for all units."""
    groups: dict[int, list[SwordsSubstitute]] = {}
    for substitute in data.substitutes:
        groups.setdefault(len(substitute.labels), []).append(substitute)
    rows = [_agreement(str(size), groups[size]) for size in sorted(groups)]
    return (*rows, _agreement("all", data.substitutes))
