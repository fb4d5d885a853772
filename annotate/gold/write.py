"""The compiled gold as files, byte-compatible with the task's.

``gold``      ``lexelt id :: sub count;sub count;`` (McCarthy & Navigli 2007, 2.2.1): count
              descending, ties by the substitute's code points; ``pn N;`` last (N annotators said
              the target is part of a proper name). Every item with a substitute or a
              name answer, or only the items in T (``only_t``).
``mwgold``    ``lexelt id :: multiword count;`` (2.2.4) for the items in MW.
``annotators.jsonl``  one object per (annotator, instance): annotator, lexelt, instance,
              kind, substitutes (the set, sorted), multiword; items in item order,
              annotators by name. The input of the agreement measures.
``summary.json``  counts, the annotators left out and why (``excluded``, only when some
              were), the items out of T and why, the modes, the multiword notes,
              every normalisation and lemma change, and the signature; for a language
              other than English also ``language``, ``lemmatiser`` and ``case_folded``.

Lines end in ``\\n``; files are UTF-8; the same compiled gold gives the same bytes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from annotate.gold.aggregate import CompiledItem
from annotate.gold.compiler import AnswerProblem, CompiledGold, LemmaChange, NormalisationChange
from annotate.gold.lemmatisers import kept_as_typed
from scoring.formats.annotators import annotator_lines as lines_of
from scoring.formats.gold import GoldEntry, GoldLine, format_gold_line, read_gold_pair

FILES = ("gold", "mwgold", "annotators.jsonl", "summary.json")


def gold_line(item: CompiledItem) -> str:
    """One gold line (the item must be listed: a substitute or a name answer), ``pn N``
    last (:func:`scoring.formats.gold.format_gold_line`)."""
    entries = [GoldEntry(substitute, count) for substitute, count in item.counts]
    if item.names:
        entries.append(GoldEntry("pn", item.names))
    return format_gold_line(GoldLine(item.lexelt, item.instance, tuple(entries)))


def gold_lines(gold: CompiledGold) -> Iterator[str]:
    for item in gold.items:
        if item.listed and (item.in_t or not gold.only_t):
            yield gold_line(item)


def mwgold_lines(gold: CompiledGold) -> Iterator[str]:
    for item in gold.items:
        if item.multiword is not None:
            multiword, count = item.multiword
            entry = (GoldEntry(multiword, count),)
            yield format_gold_line(GoldLine(item.lexelt, item.instance, entry))


def annotator_lines(gold: CompiledGold) -> Iterator[str]:
    """``annotators.jsonl`` lines (:func:`scoring.formats.annotators.annotator_lines`)."""
    return lines_of((item.lexelt, item.instance, item.answers) for item in gold.items)


def _normalisation(change: NormalisationChange) -> dict[str, Any]:
    return {
        "surface": change.surface,
        "normalised": change.normalised,
        "reasons": list(change.reasons),
        "count": change.count,
        "items": list(change.items),
    }


def _lemma(change: LemmaChange) -> dict[str, Any]:
    return {
        "surface": change.surface,
        "proposed": change.proposed,
        "result": change.result,
        "decision": change.decision,
        "count": change.count,
        "items": list(change.items),
        "lexelts": list(change.lexelts),
    }


def _problem(problem: AnswerProblem) -> dict[str, str]:
    return {
        "annotator": problem.annotator,
        "lexelt": problem.lexelt,
        "instance": problem.instance,
        "value": problem.value,
        "rule": problem.rule,
        "message": problem.message,
    }


SCORER_REASONS: tuple[tuple[str, Callable[[str], bool], str], ...] = (
    (
        "case",
        lambda key: key != key.lower(),
        "score.pl matches case-sensitively (--fixed folds case), so an answer earns credit"
        " only with the gold entry's capitals",
    ),
    (
        "ascii",
        lambda key: not key.isascii(),
        "score.pl's entry pattern knows only ASCII letters and keeps the part of an entry"
        " after its last other letter",
    ),
    ("one_character", lambda key: len(key.strip()) == 1, "score.pl drops one-character entries"),
    ("pn", lambda key: "pn" in key, "score.pl drops entries containing 'pn'"),
    (
        "hyphen",
        lambda key: "-" in key,
        "score.pl keeps a hyphenated mode as written (--fixed also accepts it with a space)",
    ),
    (
        "spaces",
        lambda key: key != key.strip() or "  " in key,
        "score.pl keeps trailing and doubled spaces",
    ),
)
"""Why score.pl's rules and ``--fixed`` may read a gold entry differently: a name, the
test on the entry, what the note says."""


def scorer_reasons(gold: CompiledGold, differ: Iterable[str]) -> list[str]:
    """The notes of :data:`SCORER_REASONS` that apply to this gold: those whose test holds
    for an entry of an item in ``differ`` (instance ids), each with how many such items
    and the first entry, in the order of :data:`SCORER_REASONS`."""
    ids = set(differ)
    found: dict[str, list[str]] = {}
    for item in gold.items:
        if item.instance not in ids:
            continue
        for name, applies, _ in SCORER_REASONS:
            hits = [key for key, _count in item.counts if applies(key)]
            if hits:
                found.setdefault(name, []).append(hits[0])
    return [
        f"{text} ({len(found[name])} item(s), such as {found[name][0]!r})"
        for name, _, text in SCORER_REASONS
        if name in found
    ]


def scorer_view(gold: CompiledGold) -> dict[str, Any]:
    """How ``lexsub score`` reads the gold file: |T| (its ``Total``) under
    score.pl's rules and under ``--fixed``, the items the two readings may score
    differently, and a note saying so when there are any, naming the reasons that apply
    to this gold (:func:`scorer_reasons`: case, letters outside ASCII, one-character
    entries, ``pn`` in an entry, hyphens, spaces)."""
    compat, fixed, differ = read_gold_pair(list(gold_lines(gold)), "gold")
    view: dict[str, Any] = {
        "compat_items": compat.total_items,
        "fixed_items": fixed.total_items,
        "differing_items": len(differ),
    }
    if differ:
        reasons = scorer_reasons(gold, differ) or ["the two readings of these lines differ"]
        view["note"] = (
            f"{len(differ)} item(s) of this gold may score differently with "
            "score.pl's rules (lexsub score) than with --fixed: "
            + "; ".join(reasons)
            + "; see docs/scoring.md"
        )
    return view


def summary(gold: CompiledGold) -> dict[str, Any]:
    """The summary as a JSON-ready dict (what ``summary.json`` holds)."""
    in_t = [item for item in gold.items if item.in_t]
    out = [item for item in gold.items if not item.in_t]
    listed = sum(1 for item in gold.items if item.listed and (item.in_t or not gold.only_t))
    reasons = Counter(item.reason for item in out)
    with_mode = [item for item in in_t if item.mode is not None]
    return {
        "signature": gold.signature.text,
        **_language(gold),
        "responses": gold.responses,
        **(
            {}
            if gold.check_items_left_out is None
            else {"check_items_left_out": gold.check_items_left_out}
        ),
        "annotators": list(gold.annotators),
        **_excluded(gold),
        "annotator_sets": annotator_sets(
            [[a.annotator for a in item.answers] for item in gold.items]
        ),
        "items": len(gold.items),
        "gold_lines": listed,
        "in_t": len(in_t),
        "out_of_t": len(out),
        "out_of_t_reasons": dict(sorted(reasons.items(), key=lambda pair: str(pair[0]))),
        "with_mode": len(with_mode),
        "in_mw": sum(1 for item in in_t if item.multiword is not None),
        "lemma_changes_applied": sum(1 for change in gold.lemma_changes if change.applied),
        "lemma_changes_pending": sum(1 for change in gold.lemma_changes if change.decision is None),
        "responses_lemmatised": sum(
            change.count for change in gold.lemma_changes if change.applied
        ),
        "not_in_t": [
            {"lexelt": item.lexelt, "instance": item.instance, "reason": item.reason}
            for item in out
        ],
        "modes": [
            {"lexelt": item.lexelt, "instance": item.instance, "mode": item.mode}
            for item in with_mode
        ],
        "multiword_notes": [
            {"lexelt": item.lexelt, "instance": item.instance, "note": item.multiword_note}
            for item in in_t
            if item.multiword_note is not None
        ],
        "normalisation_changes": [_normalisation(change) for change in gold.normalisations],
        "emptied_by_normalisation": [_normalisation(change) for change in gold.emptied],
        "lemma_changes": [_lemma(change) for change in gold.lemma_changes],
        "responses_left_out": len(gold.left_out),
        "left_out": [_problem(problem) for problem in gold.left_out],
        "flagged": [_problem(problem) for problem in gold.flagged],
        "scorer": scorer_view(gold),
    }


def _excluded(gold: CompiledGold) -> dict[str, Any]:
    """``excluded``: each annotator left out, the reason and the responses skipped; no key
    when nobody was (such summaries stay as they were)."""
    if not gold.excluded:
        return {}
    return {"excluded": [excluded.to_json() for excluded in gold.excluded]}


def _language(gold: CompiledGold) -> dict[str, Any]:
    """For a language other than English: the language, the lemmatiser (name, version,
    language; null when nothing was lemmatised) and the forms counted as one because they
    differ only in case. English summaries have none of these keys (they stay as they
    were; their lemmatiser is in the signature)."""
    if gold.language == "en":
        return {}
    lemmatiser = (
        dict(zip(("name", "version", "language"), gold.lemmatiser, strict=True))
        if gold.lemmatiser
        else None
    )
    kept = {} if gold.lemmatiser else {"forms_kept_as_typed": kept_as_typed(gold.language)}
    return {
        "language": gold.language,
        "lemmatiser": lemmatiser,
        **kept,
        "case_folded": [
            {"lexelt": fold.lexelt, "form": fold.form, "gold": fold.gold, "count": fold.count}
            for fold in gold.case_folds
        ],
    }


def annotator_sets(items: list[list[str]]) -> dict[str, Any]:
    """Whether the items were answered by different sets of annotators (an overlap or
    crowd design, or answers missing): ``differ``, how many distinct ``sets``, and the
    fewest and most annotators an item has."""
    sets = {frozenset(names) for names in items}
    sizes = [len(set(names)) for names in items] or [0]
    return {"differ": len(sets) > 1, "sets": len(sets), "fewest": min(sizes), "most": max(sizes)}


def summary_text(data: dict[str, Any]) -> str:
    """The summary as JSON: one key a line, and one entry a line in the lists (compact
    entries keep a million-item summary quick to write and easy to grep)."""
    parts = []
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            entries = ",\n".join("  " + json.dumps(entry, ensure_ascii=False) for entry in value)
            text = f"[\n{entries}\n ]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        parts.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _text(lines: Iterator[str]) -> str:
    return "".join(line + "\n" for line in lines)


def output_texts(gold: CompiledGold) -> dict[str, str]:
    """The text of each of :data:`FILES`, by name: what :func:`write_outputs` writes and
    the organiser's download zips."""
    return {
        "gold": _text(gold_lines(gold)),
        "mwgold": _text(mwgold_lines(gold)),
        "annotators.jsonl": _text(annotator_lines(gold)),
        "summary.json": summary_text(summary(gold)),
    }


def write_outputs(gold: CompiledGold, out: str | Path) -> dict[str, Path]:
    """Write :data:`FILES` into the folder ``out`` (created if needed); returns their paths."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {name: folder / name for name in FILES}
    for name, text in output_texts(gold).items():
        paths[name].write_text(text, encoding="utf-8", newline="\n")
    return paths
