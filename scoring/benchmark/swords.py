"""SWORDS (Lee et al. 2021, "Swords: A Benchmark for Lexical Substitution with Improved
Data Coverage and Quality", NAACL) scored as its own code scores it: ``evaluate`` in
``swords/eval.py`` of p-lambda/swords, GAP by Melamud's ``generalized_average_precision.py``
(orenmel/lexsub, the file SWORDS downloads), lemmas by NLTK's WordNet lemmatiser.

Command::

    lexsub benchmark swords SYSTEM --data DATASET [--format text|json]

``DATASET`` is a SWORDS dataset JSON (``swords-v1.1_test.json.gz``; read by
:func:`scoring.formats.swords.read_swords`), ``SYSTEM`` a SWORDS result JSON
(``.gz`` allowed)::

    {"substitutes_lemmatized": false,
     "substitutes": {"t:…": [["substitute", 0.93], ["other", 0.5], …], …}}

An entry may also be a bare string, scored ``-i`` for the i-th entry (0-based), as
SWORDS' ``LexSubResult`` does. The flag ``substitutes_lemmatized`` is read and kept but,
as in SWORDS, changes nothing: every substitute is lemmatised.

Library::

    dataset = read_swords(path, ALL_LABELS)
    result = read_result(text, "system.json")       # or read_result_file(path)
    scores = evaluate_swords(dataset, result)        # SwordsScores: metrics + notes
    scores.metrics["strict_a_f@10"]                  # or metrics(dataset, result)

Preprocessing (``preprocess_dataset_for_evaluation``, ``preprocess_result_for_evaluation``):

- every substitute and every target is lemmatised with the target's PoS (VERB → v, NOUN →
  n, ADJ → a, ADV → r, anything else → n), then lower-cased and stripped;
- a substitute whose lemma equals the target's lemma is dropped (data and system);
- data: substitutes of one target with the same lemma are merged, their labels pooled;
  ``UNSURE`` labels are dropped and a substitute left with no label is dropped; a
  target left with no substitute is not evaluated;
- system: entries are sorted by score (highest first, ties in the order given), and of
  entries with the same lemma the first (the highest score) is kept.

Metrics (``evaluate``), as percentages, in SWORDS' order: for each of ``lenient_a``,
``lenient_c``, ``strict_a``, ``strict_c`` the keys ``f@10``, ``fs@10``, ``p@10``,
``r@10``, ``rs@10``; then ``strict_c_p@1``, ``gap``, ``gap_rat``. Each is a registered
measure, ``swords.NAME`` (:mod:`scoring.measures.swords.family`: one row of pooled
counts and GAP a target, every figure a function of the column sums).

- A substitute's score is its share of TRUE labels (TRUE and TRUE_IMPLICIT among the
  labels left): *conceivable* (``c``) when it is ≥ 0.1, *acceptable* (``a``) when it is
  ≥ 0.5 + 1e-4 (so exactly half is not acceptable: SWORDS' code adds 1e-4).
- *strict*: the system's list as it is; *lenient*: only the system's substitutes that are
  among the target's (lemmatised, labelled) data substitutes, whatever their score.
- The list is cut at k = 10 after that filter. Counts are pooled over the targets:
  P = hits / Σ returned, R = hits / Σ min(|gold|, k), RS = hits / Σ |gold|, F and FS the
  harmonic means of P with R and with RS. A target the system leaves out counts with an
  empty list; a target with no acceptable (or conceivable) substitute adds to P's
  denominator only.
- ``gap``: Melamud's GAP (:func:`scoring.measures.ranking.items.gap`, the same sums in the same
order)
  with each substitute weighted by its number of TRUE labels, averaged over the targets
  (numpy's mean); ``gap_rat`` the same with the share of TRUE labels. A target whose
  substitutes have no TRUE label scores -1 (Melamud's value when the ideal denominator is
  0), and SWORDS averages that -1 in.

Where SWORDS' code stops with an exception, this module reports instead and says so in
the notes: a ratio whose denominator is 0 (no substitute returned, or P = R = 0 for F) is
0. Not reported: SWORDS' legacy ``best_*`` and ``oot_*`` figures (they run score.pl from
the SemEval-2007 bundle, which SWORDS' evaluation skips when that file is absent; use
``lexsub score`` on converted files), and a target without a PoS, which SWORDS
tags with NLTK's tagger: such a target is refused.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from scoring.benchmark import Report
from scoring.errors import FormatError, Problems
from scoring.files import finite_number, parse_json, shown_value
from scoring.formats.ranked import Scored
from scoring.formats.swords import ALL_LABELS, Swords, load_json, read_swords
from scoring.measures.revised.items import Frequencies, Number
from scoring.measures.swords.family import COLUMNS, METRICS, SETTINGS, K, TargetGold, row
from scoring.registry import figure
from scoring.signature import signature

DESCRIPTION = "SWORDS (Lee et al. 2021): lenient/strict P, R, F@10, P@1, GAP, as swords/eval.py"
CONCEIVABLE = 0.1
ACCEPTABLE = 0.5 + 1e-4
"""SWORDS' thresholds on the share of TRUE labels (``create_comparison_lists``)."""
POSITIVE = ("TRUE", "TRUE_IMPLICIT")
UNSURE = "UNSURE"

Lemmatizer = Callable[[str, str | None], str]
"""``(word, SWORDS PoS name or None) -> lemma``."""


@dataclass(frozen=True, slots=True)
class SwordsResult:
    """A system's output in SWORDS' result format: each target's entries as given (a
    bare-string entry already scored ``-i``)."""

    substitutes_lemmatized: bool
    substitutes: Mapping[str, tuple[Scored, ...]]


@dataclass(frozen=True, slots=True)
class SwordsScores:
    """SWORDS' figures (percentages, in its order) and what the preprocessing did."""

    metrics: dict[str, float]
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        return {**self.metrics, "notes": list(self.notes)}


# --- the result file ---------------------------------------------------------------------


def _entry(entry: Any, place: int, where: str) -> Scored | str:
    if isinstance(entry, str):
        return Scored(entry, float(-place))
    if not isinstance(entry, list) or len(entry) != 2:
        return f"{where}: {entry!r} is not [substitute, score] or a substitute string"
    text, score = entry
    if not isinstance(text, str):
        return f"{where}: substitute {text!r} is not a string"
    if isinstance(score, bool) or not isinstance(score, int | float):
        return f"{where}: score {score!r} of {text!r} is not a number"
    number = finite_number(score)
    if number is None:
        return (
            f"{where}: score {shown_value(score)} of {text!r} is not finite (scores order "
            "substitutes)"
        )
    return Scored(text, number)


def parse_result(data: Any, name: str = "<result>") -> SwordsResult:
    """A :class:`SwordsResult` from decoded JSON; every problem in one
    :class:`~scoring.errors.FormatError` as ``NAME: JSON path: problem (rule)``."""
    if not isinstance(data, dict) or not isinstance(data.get("substitutes"), dict):
        raise FormatError(
            [
                f"{name}: not a SWORDS result (an object with 'substitutes': "
                "{target_id: [[substitute, score], …]} and 'substitutes_lemmatized')"
            ]
        )
    lemmatized = data.get("substitutes_lemmatized", False)
    problems = Problems()  # the first 20 kept, the rest counted
    if not isinstance(lemmatized, bool):
        problems.add(f"{name}: substitutes_lemmatized {lemmatized!r} is not true or false")
    substitutes: dict[str, tuple[Scored, ...]] = {}
    for tid, entries in data["substitutes"].items():
        if not isinstance(entries, list):
            problems.add(f"{name}: substitutes.{tid}: {type(entries).__name__} is not a list")
            continue
        parsed = [_entry(e, i, f"{name}: substitutes.{tid}[{i}]") for i, e in enumerate(entries)]
        problems.extend(p for p in parsed if isinstance(p, str))
        substitutes[tid] = tuple(p for p in parsed if isinstance(p, Scored))
    if problems:
        raise problems.error()
    return SwordsResult(bool(lemmatized), substitutes)


def read_result(text: str, name: str = "<result>") -> SwordsResult:
    """:func:`parse_result` on the JSON text of a result file; refused before it is
    parsed when it may hold more than :data:`~scoring.files.bounded.RESULT_JSON_VALUES` values."""
    from scoring.files.bounded import RESULT_JSON_VALUES, check_json_values

    check_json_values(
        text,
        name,
        RESULT_JSON_VALUES,
        "; 100 candidates for each of SWORDS' 1,132 test targets are 0.34 million",
    )
    try:
        data = parse_json(text)
    except json.JSONDecodeError as error:
        raise FormatError(
            [f"{name}: {error.msg} at line {error.lineno} (a SWORDS result is one JSON object)"]
        ) from error
    return parse_result(data, name)


def read_result_file(path: str | Path) -> SwordsResult:
    """:func:`parse_result` on a file, gunzipped when its name ends in ``.gz``."""
    return parse_result(load_json(path, "a SWORDS result is one JSON object"), str(path))


def result_json(result: SwordsResult) -> dict[str, Any]:
    """The JSON object of a result (entries as ``[substitute, score]``)."""
    return {
        "substitutes_lemmatized": result.substitutes_lemmatized,
        "substitutes": {
            tid: [[item.candidate, item.score] for item in items]
            for tid, items in result.substitutes.items()
        },
    }


# --- preprocessing -----------------------------------------------------------------------


def _lemma(lemmatizer: Lemmatizer, word: str, pos: str | None, tid: str) -> str:
    if pos is None:
        raise ValueError(
            f"target {tid} has no pos (SWORDS then tags the context with NLTK's tagger, "
            "which this tool does not do: give every target a pos)"
        )
    return lemmatizer(word, pos).lower().strip()


@dataclass(frozen=True, slots=True)
class Prepared:
    """The data after SWORDS' preprocessing: target id → lemma → labels (UNSURE dropped,
    never empty), targets and lemmas in first-seen order."""

    labels: dict[str, dict[str, list[str]]]
    notes: tuple[str, ...]


def prepare_dataset(dataset: Swords, lemmatizer: Lemmatizer) -> Prepared:
    """``preprocess_dataset_for_evaluation``: lemmatise, drop the target's own lemma,
    merge equal lemmas (labels pooled), drop UNSURE labels and unlabelled substitutes."""
    targets = {target.id: target for target in dataset.target_list}
    pooled: dict[str, dict[str, list[str]]] = {}
    changed = merged = redundant = 0
    for sub in dataset.substitutes:
        target = targets[sub.target_id]
        lemma = _lemma(lemmatizer, sub.substitute, target.pos, target.id)
        if lemma == _lemma(lemmatizer, target.target, target.pos, target.id):
            redundant += 1
            continue
        changed += lemma != sub.substitute
        lemmas = pooled.setdefault(target.id, {})
        merged += lemma in lemmas
        lemmas.setdefault(lemma, []).extend(sub.labels)
    labels: dict[str, dict[str, list[str]]] = {}
    unsure = 0
    for tid, lemmas in pooled.items():
        for lemma, given in lemmas.items():
            kept = [label for label in given if label != UNSURE]
            if kept:
                labels.setdefault(tid, {})[lemma] = kept
            else:
                unsure += 1
    notes = (
        f"data: {len(dataset.substitutes)} substitutes, {changed} changed by lemmatising, "
        f"{merged} merged with an equal lemma, {redundant} equal to the target's lemma "
        f"(dropped), {unsure} with only UNSURE labels (dropped); {len(labels)} of "
        f"{len(targets)} targets evaluated",
    )
    return Prepared(labels, notes)


def prepare_result(
    result: SwordsResult, dataset: Swords, lemmatizer: Lemmatizer
) -> tuple[dict[str, list[Scored]], str]:
    """``preprocess_result_for_evaluation``: each target's entries sorted by score (ties
    in the order given), lemmatised, the target's own lemma dropped, each lemma once with
    its highest score; and a note of what changed."""
    targets = {target.id: target for target in dataset.target_list}
    unknown = sorted(set(result.substitutes) - set(targets))
    if unknown:
        shown = ", ".join(unknown[:5]) + (
            f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        )
        raise ValueError(f"result targets {shown} are not targets of the dataset")
    prepared: dict[str, list[Scored]] = {}
    total = changed = merged = redundant = 0
    for tid, entries in result.substitutes.items():
        target = targets[tid]
        own = _lemma(lemmatizer, target.target, target.pos, tid)
        best: dict[str, float] = {}
        for entry in sorted(entries, key=lambda item: -item.score):
            lemma = _lemma(lemmatizer, entry.candidate, target.pos, tid)
            total += 1
            if lemma == own:
                redundant += 1
                continue
            changed += lemma != entry.candidate
            merged += lemma in best
            if lemma not in best or entry.score > best[lemma]:
                best[lemma] = entry.score
        prepared[tid] = sorted((Scored(s, v) for s, v in best.items()), key=lambda x: -x.score)
    note = (
        f"system: {total} substitutes for {len(result.substitutes)} targets, {changed} "
        f"changed by lemmatising, {merged} merged with an equal lemma (highest score kept), "
        f"{redundant} equal to the target's lemma (dropped)"
    )
    return prepared, note


# --- the metrics -------------------------------------------------------------------------


_DIVISIONS = (
    *(f"{prefix}_{name}@{K}" for prefix, _, _ in SETTINGS for name in ("p", "r", "rs", "f", "fs")),
    "strict_c_p@1",
    "gap",
    "gap_rat",
)
"""The figures in the order SWORDS' code divides for them (the order of the notes)."""


def _positives(labels: Sequence[str]) -> int:
    return sum(label in POSITIVE for label in labels)


def _weights(lemmas: Mapping[str, list[str]], weight: Callable[[list[str]], float]) -> Frequencies:
    counts: dict[str, Number] = {lemma: weight(labels) for lemma, labels in lemmas.items()}
    return Frequencies(counts, math.fsum(counts.values()), max(counts.values()))


def target_gold(lemmas: Mapping[str, list[str]]) -> TargetGold:
    """One prepared target as SWORDS' measures read it (``create_comparison_lists``): a
    substitute is acceptable when its share of TRUE labels is >= 0.5 + 1e-4, conceivable
    when it is >= 0.1; GAP weighs it by its TRUE labels, or by their share."""
    shares = {lemma: _positives(labels) / len(labels) for lemma, labels in lemmas.items()}
    return TargetGold(
        frozenset(lemmas),
        frozenset(lemma for lemma, share in shares.items() if share >= ACCEPTABLE),
        frozenset(lemma for lemma, share in shares.items() if share >= CONCEIVABLE),
        _weights(lemmas, lambda labels: float(_positives(labels))),
        _weights(lemmas, lambda labels: _positives(labels) / len(labels)),
    )


def evaluate_swords(
    dataset: Swords, result: SwordsResult, lemmatizer: Lemmatizer | None = None
) -> SwordsScores:
    """Every figure of SWORDS' ``evaluate(dataset, result)`` (``allow_abstain=False``, with
    preprocessing): each target's row of the SWORDS measures
    (:func:`scoring.measures.swords.family.row`), the columns summed over the targets,
    and each figure read through the registry (:data:`scoring.registry.MEASURES`), in
    percent. ``lemmatizer`` defaults to NLTK's WordNet lemmatiser as SWORDS calls it
    (:func:`scoring.benchmark.wordnet.lemmatize`); tests pass another to check the
    arithmetic alone. Raises ValueError for a result target that is not in the dataset,
    a target with no PoS, or no target to evaluate."""
    if lemmatizer is None:
        from scoring.benchmark.wordnet import lemmatize

        lemmatizer = lemmatize
    data = prepare_dataset(dataset, lemmatizer)
    if not data.labels:
        raise ValueError("no target of the dataset has a labelled substitute to evaluate")
    system, system_note = prepare_result(result, dataset, lemmatizer)
    rows = [row(target_gold(lemmas), system.get(tid, ())) for tid, lemmas in data.labels.items()]
    # each column summed alone by numpy, so that GAP's sum is numpy's mean's, to the bit
    columns = np.array(rows, dtype=np.float64).T.copy()
    sums = dict(zip(COLUMNS, (float(total) for total in columns.sum(axis=1)), strict=True))
    metrics: dict[str, float] = {}
    undefined: set[str] = set()
    for name in METRICS:
        value = figure(f"swords.{name}", sums)
        if value is None:
            undefined.add(name)
        metrics[name] = 0.0 if value is None else value * 100
    notes = [*data.notes, system_note]
    if undefined:
        notes.append(
            f"{', '.join(name for name in _DIVISIONS if name in undefined)}: denominator 0, "
            "reported as 0 (SWORDS' code raises ZeroDivisionError here)"
        )
    no_true = int(np.count_nonzero(columns[COLUMNS.index("gap")] == -1.0))
    if no_true:
        notes.append(
            f"{no_true} targets have no TRUE label: each scores -1 in gap and gap_rat, "
            "averaged in as SWORDS does"
        )
    return SwordsScores(metrics, tuple(notes))


def metrics(dataset: Swords, result: SwordsResult) -> dict[str, float]:
    """:func:`evaluate_swords`'s figures alone."""
    return evaluate_swords(dataset, result).metrics


# --- the command -------------------------------------------------------------------------


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "SYSTEM is a SWORDS result JSON, DATASET a SWORDS dataset JSON (either may be "
        "gzipped). Needs WordNet 3.0 (apt-get install wordnet-base wordnet-sense-index)."
    )


def lemmatiser_name() -> str:
    """``nltk3.5-morphy+nltk-VERSION+wordnet-VERSION``: NLTK 3.5's lemmatiser run on the
    installed NLTK's WordNet reader (for the signature)."""
    import nltk

    from scoring.benchmark.wordnet import nltk_data_root

    nltk_data_root()
    from nltk.corpus import wordnet

    return f"nltk3.5-morphy+nltk-{nltk.__version__}+wordnet-{wordnet.get_version()}"


def swords_settings(data: str) -> tuple[tuple[str, object], ...]:
    """Every setting that fixes SWORDS' figures on the dataset file named ``data`` (what
    :func:`swords_signature` signs)."""
    return (
        ("data", data),
        ("lemmatiser", lemmatiser_name()),
        ("k", K),
        ("acceptable", ">=0.5001"),
        ("conceivable", ">=0.1"),
        ("abstain", "no"),
    )


def swords_signature(data: str) -> str:
    """The signature of all of SWORDS' figures on the dataset file named ``data``."""
    return signature("swords", *swords_settings(data))


def evaluate_files(system: str | Path, data: str | Path) -> Report:
    """``lexsub benchmark swords SYSTEM --data DATA``: the SWORDS result at ``system``
    scored against the SWORDS dataset at ``data`` (either JSON may be gzipped), with the
    signature of every setting that fixes the figures."""
    dataset = read_swords(data, ALL_LABELS)
    result = read_result_file(system)
    scores = evaluate_swords(dataset, result)
    return Report("swords", scores.metrics, swords_signature(Path(data).name), scores.notes)


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files`."""
    return evaluate_files(args.system, args.data)
