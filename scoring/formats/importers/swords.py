"""Import of a SWORDS dataset file (Lee et al. 2021, "Swords: A Benchmark for Lexical
Substitution with Improved Data Coverage and Quality", NAACL; release v1.1).

The file is one JSON object (``swords-v1.1_dev.json.gz`` holds 370 targets, the test
file 762)::

    {"contexts": {"c:…": {"context": "Kim:\\n\\tI have completed the invoices …"}},
     "targets": {"t:…": {"context_id": "c:…", "target": "total", "offset": 105,
                         "pos": "NOUN", "extra": {"coinco_lemma": "total"}}},
     "substitutes": {…}, "substitute_labels": {…}}

The file is first read by :func:`scoring.formats.swords.parse_swords`, the project's one
SWORDS reader (the four keys, every target at its offset, every substitute and its
labels), so a file that the agreement and benchmark commands refuse is refused here too,
with the same message. Then one instance
per target, in file order, with the target's id: the context with the target as the head
at its ``offset`` (the context's line breaks and tabs kept), the lexelt from the target's
lemma (``extra.coinco_lemma`` when present, else the target as it stands; the words of a
lemma of several joined with ``_``) and its PoS
(Universal tags: NOUN → n, VERB → v, ADJ → a, ADV → r; any other is refused). The
substitutes and labels are not imported: they are SWORDS' gold, not a study's input.
Every problem is ``FILE:PATH: problem`` with the JSON path (``$.targets["t:…"].offset``),
or ``FILE:LINE: problem`` for JSON that does not parse.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from scoring.errors import FormatError
from scoring.files import bounded
from scoring.files.bounded import check_json_values
from scoring.formats.hf import GoldEntries, ordered_entries
from scoring.formats.instances import LIMITS, ImportResult, Limits, Row, SourceError, group_lexelts
from scoring.formats.keys import joined
from scoring.formats.swords import ALL_LABELS, SwordsTarget, json_path, parse_swords

UNIVERSAL_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
"""Universal PoS tag → the task's PoS."""


def _row(target: SwordsTarget, raw: dict[str, Any], name: str) -> Row:
    """One target, read and checked by the SWORDS reader, as a row: the PoS must be one
    of the task's four and ``extra.coinco_lemma``, when present, a non-empty string."""
    if target.pos not in UNIVERSAL_POS:
        raise SourceError(
            name,
            json_path("targets", target.id, "pos"),
            f"{target.pos!r} is not one of {', '.join(UNIVERSAL_POS)} (\u2192 n, v, a, r)",
        )
    extra = raw.get("extra")
    lemma = extra.get("coinco_lemma") if isinstance(extra, dict) else None
    if lemma is not None and (not isinstance(lemma, str) or not lemma.strip()):
        raise SourceError(
            name,
            json_path("targets", target.id, "extra", "coinco_lemma"),
            f"{lemma!r} is not a non-empty string",
        )
    start, end = target.offset, target.offset + len(target.target)
    context = target.context
    return Row(
        target.id,
        f"{joined(lemma or target.target)}.{UNIVERSAL_POS[target.pos]}",
        context[:start],
        context[start:end],
        context[end:],
        json_path("targets", target.id),
        0,
    )


def parse_swords_dataset(
    data: bytes, name: str = "<swords>", limits: Limits = LIMITS
) -> ImportResult:
    """The instances of a SWORDS JSON file (module docstring); SourceError naming the JSON
    path (or the line, for JSON that does not parse, holds more values than
    ``limits.json_values`` or nests deeper than :data:`MAX_DEPTH`) and the rule."""
    check_json_size(data, name, limits.json_values)
    try:
        decoded = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SourceError(name, line, f"not UTF-8: {error.reason} (JSON is UTF-8)") from None
    except json.JSONDecodeError as error:
        raise SourceError(
            name, error.lineno, f"not JSON: {error.msg} (column {error.colno})"
        ) from None
    except RecursionError:
        raise too_deep(data, name) from None
    try:
        dataset = parse_swords(decoded, name)
    except FormatError as error:
        first = error.located[0]
        more = len(error.problems) - 1
        raise SourceError(
            name, first.where, first.problem + (f" (and {more} more problems)" if more else "")
        ) from None
    targets = {target.id: target for target in dataset.target_list}
    rows = [_row(targets[tid], raw, name) for tid, raw in decoded["targets"].items()]
    return ImportResult(group_lexelts(rows, name, limits), (), "en")


def import_stream(
    stream: Iterable[bytes], data: bytes, name: str, language: str | None, limits: Limits
) -> ImportResult:
    """The reader of the ``swords`` row of :data:`scoring.formats.registry.FORMATS`: JSON is
    read whole, so its unpacked bytes are bounded lower
    (:data:`scoring.files.bounded.SWORDS_BYTES`), then :func:`parse_swords_dataset`."""
    most = min(limits.unpacked, bounded.SWORDS_BYTES)
    chunks = bounded.counted_chunks(stream, name, bounded.Bounds(most, most, most, "JSON"))
    return parse_swords_dataset(b"".join(chunks), name, limits)


def gold_entries(data: bytes, name: str) -> GoldEntries:
    """The gold reader of the ``swords`` row: each target's substitutes counted by their
    raters' ``TRUE`` labels (the implicit ones of its conversions included), by target id;
    substitutes nobody accepted left out."""
    swords = parse_swords(json.loads(data), name, ALL_LABELS)
    counts: dict[str, dict[str, int]] = {}
    for substitute in swords.substitutes:
        accepted = sum(label.startswith("TRUE") for label in substitute.labels)
        if accepted:
            forms = counts.setdefault(substitute.target_id, {})
            forms[substitute.substitute] = forms.get(substitute.substitute, 0) + accepted
    return {target: ordered_entries(forms) for target, forms in counts.items()}


def check_json_size(data: bytes, name: str, most: int) -> None:
    """SourceError when the JSON ``data`` may hold more than ``most`` values
    (:func:`scoring.files.bounded.check_json_values`, the one count of every JSON upload)."""
    check_json_values(data, name, most)


MAX_DEPTH = 100
"""The deepest nesting read (a SWORDS file nests 5 deep)."""
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)


def too_deep(data: bytes, name: str) -> SourceError:
    """The error for JSON nested past the JSON reader's reach: the line where it first
    nests deeper than :data:`MAX_DEPTH`."""
    depth = 0
    at = len(data)
    for token in _TOKENS.finditer(data):
        if token.group() in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                at = token.start()
                break
        elif token.group() in (b"]", b"}"):
            depth -= 1
    return SourceError(
        name,
        data.count(b"\n", 0, at) + 1,
        f"JSON nested more than {MAX_DEPTH} deep (arrays and objects inside each other); "
        "a SWORDS file nests 5 deep",
    )
