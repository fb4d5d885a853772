"""Import of a SWORDS dataset file (Lee et al. 2021, "Swords: A Benchmark for Lexical
Substitution with Improved Data Coverage and Quality", NAACL; release v1.1).

The file is one JSON object (``swords-v1.1_dev.json.gz`` holds 370 targets, the test
file 762)::

    {"contexts": {"c:…": {"context": "Kim:\\n\\tI have completed the invoices …"}},
     "targets": {"t:…": {"context_id": "c:…", "target": "total", "offset": 105,
                         "pos": "NOUN", "extra": {"coinco_lemma": "total"}}},
     "substitutes": {…}, "substitute_labels": {…}}

The file is first read by :func:`scoring.agreement.swords.parse_swords`, the project's one
SWORDS reader (the four keys, every substitute and its labels), so a file that the
agreement command refuses is refused here too, with the same message. Then one instance
per target, in file order, with the target's id: the context with the target as the head
at its ``offset`` (the context's line breaks and tabs kept), the lexelt from the target's
lemma (``extra.coinco_lemma`` when present, else the target as it stands) and its PoS
(Universal tags: NOUN → n, VERB → v, ADJ → a, ADV → r; any other is refused). The
substitutes and labels are not imported: they are SWORDS' gold, not a study's input.
Every problem is ``FILE:PATH: problem`` with the JSON path (``$.targets["t:…"].offset``),
or ``FILE:LINE: problem`` for JSON that does not parse.
"""

from __future__ import annotations

import json
from typing import Any

from annotate.sources.model import ImportResult, Row, SourceError, group_lexelts
from scoring.agreement.swords import parse_swords
from scoring.io import FormatError

UNIVERSAL_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
"""Universal PoS tag → the task's PoS."""


def _path(*keys: str) -> str:
    return "$" + "".join(f"[{json.dumps(key, ensure_ascii=False)}]" for key in keys)


class _Bad(ValueError):
    """A target that breaks a rule: ``field`` is the key at fault (empty: the target)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field


def _target(tid: str, target: Any, contexts: dict[str, Any]) -> Row:
    """One target as a row; :class:`_Bad` naming the field and the rule otherwise."""
    if not isinstance(target, dict):
        raise _Bad("", f"{type(target).__name__} is not an object")
    context_id, word = target.get("context_id"), target.get("target")
    offset, tag = target.get("offset"), target.get("pos")
    if not isinstance(context_id, str) or not isinstance(contexts.get(context_id), dict):
        raise _Bad("context_id", f"{context_id!r} is not a key of contexts")
    context = contexts[context_id].get("context")
    if not isinstance(context, str):
        raise _Bad("context_id", f"context {context_id!r} has no context string")
    if not isinstance(word, str) or not word.strip():
        raise _Bad("target", f"{word!r} is not a non-empty string")
    if isinstance(offset, bool) or not isinstance(offset, int):
        raise _Bad("offset", f"{offset!r} is not a whole number")
    if context[offset : offset + len(word)] != word or offset < 0:
        found = context[max(offset, 0) : max(offset, 0) + len(word)]
        raise _Bad("offset", f"the context has {found!r} at {offset}, not the target {word!r}")
    if tag not in UNIVERSAL_POS:
        raise _Bad("pos", f"{tag!r} is not one of {', '.join(UNIVERSAL_POS)} (→ n, v, a, r)")
    extra = target.get("extra")
    lemma = extra.get("coinco_lemma") if isinstance(extra, dict) else None
    if lemma is not None and (not isinstance(lemma, str) or not lemma.strip()):
        raise _Bad("extra.coinco_lemma", f"{lemma!r} is not a non-empty string")
    end = offset + len(word)
    return Row(
        tid,
        f"{lemma or word}.{UNIVERSAL_POS[tag]}",
        context[:offset],
        word,
        context[end:],
        _path("targets", tid),
        0,
    )


def parse_swords_dataset(data: bytes, name: str = "<swords>") -> ImportResult:
    """The instances of a SWORDS JSON file (module docstring); SourceError naming the JSON
    path (or the line, for JSON that does not parse) and the rule."""
    try:
        decoded = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise SourceError(name, line, f"not UTF-8: {error.reason} (JSON is UTF-8)") from None
    except json.JSONDecodeError as error:
        raise SourceError(
            name, error.lineno, f"not JSON: {error.msg} (column {error.colno})"
        ) from None
    try:
        parse_swords(decoded, name)
    except FormatError as error:
        first = error.problems[0].removeprefix(f"{name}: ")
        more = len(error.problems) - 1
        raise SourceError(
            name, "", first + (f" (and {more} more problems)" if more else "")
        ) from None
    contexts, targets = decoded["contexts"], decoded["targets"]
    rows = []
    for tid, target in targets.items():
        try:
            rows.append(_target(tid, target, contexts))
        except _Bad as error:
            where = _path("targets", tid, *filter(None, error.field.split(".")))
            raise SourceError(name, where, str(error)) from None
    return ImportResult(group_lexelts(rows, name), (), "en")
