"""What a model's reply means: its candidates, validated, and several samples' candidates
ranked into one list.

A reply is read in this order (:func:`parse_reply`):

1. the JSON object the schema asks for, ``{"substitutes": ["…", …]}``;
2. a server that ignores the schema may send a JSON list, or a JSON object with one list
   under another key, or plain text: a numbered or bulleted list, one candidate a line, or
   candidates separated by commas or semicolons;
3. nothing of that (an empty reply, prose without a list): None, and the caller asks once
   more.

Each candidate is cleaned (:func:`clean`): white space collapsed, quotes, list marks and
final punctuation removed; a candidate that a scored file cannot hold (a ``;``, a tab) or
longer than :data:`MAX_WORDS` words is dropped. The target word and its inflections are
never substitutes (:func:`drop_target`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"substitutes": {"type": "array", "items": {"type": "string"}}},
    "required": ["substitutes"],
    "additionalProperties": False,
}
"""The JSON schema of a reply, sent as the standard ``response_format``."""
MAX_WORDS = 4
"""The longest candidate kept, in words (a longer one is a sentence, not a substitute)."""
_MARK = re.compile(r"^\s*(?:[-*•]+|\(?\d+[.):]|[a-z][.)])\s+", re.IGNORECASE)
_STRIP = " \t\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb.,!?:*"


def clean(text: str) -> str | None:
    """A candidate as written to a file, or None when it cannot be one.

    >>> clean(' 1. "Bright." ')
    'Bright'
    >>> clean("a; b") is None
    True
    """
    found = _MARK.sub("", text)
    found = " ".join(found.split()).strip(_STRIP)
    if not found or ";" in found or len(found.split()) > MAX_WORDS:
        return None
    return found


def _from_json(value: Any) -> list[str] | None:
    if isinstance(value, dict):
        if isinstance(value.get("substitutes"), list):
            value = value["substitutes"]
        else:
            lists = [item for item in value.values() if isinstance(item, list)]
            if len(lists) != 1:
                return None
            value = lists[0]
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return list(value)
    return None


def _from_text(text: str) -> list[str] | None:
    """The pieces of a plain-text list: its lines, or the comma- or semicolon-separated
    parts of its one line; None when a one-line reply has a piece too long to be a
    candidate (prose) or when no line could be one."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) == 1:
        lines = re.split(r"[,;]", lines[0])
        if any(clean(piece) is None for piece in lines):
            return None
    if not any(clean(line) is not None for line in lines):
        return None
    return lines


def parse_reply(content: str) -> list[str] | None:
    """The candidates of a reply, in the model's order, cleaned and without repeats
    (case-insensitive, the first kept); None when the reply holds no list at all.

    >>> parse_reply('{"substitutes": ["smart", "clever", "Smart"]}')
    ['smart', 'clever']
    >>> parse_reply("1. smart\\n2. clever")
    ['smart', 'clever']
    >>> parse_reply("") is None
    True
    """
    text = content.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1)
    raw: list[str] | None
    try:
        raw = _from_json(json.loads(text))
    except ValueError:
        raw = None if text.startswith(("{", "[")) else _from_text(text)
    if raw is None:
        return None
    seen: set[str] = set()
    result = []
    for item in raw:
        found = clean(item)
        if found is not None and found.lower() not in seen:
            seen.add(found.lower())
            result.append(found)
    return result


def rank_samples(samples: Sequence[Sequence[str]]) -> list[str]:
    """One ranking of several samples' candidates: by how many samples gave a candidate
    (most first), then by its mean place in those samples (the model's order), then by its
    first appearance. One sample: its own order.

    >>> rank_samples([["a", "b", "c"], ["b", "c"], ["c", "b", "d"]])
    ['b', 'c', 'a', 'd']
    """
    if len(samples) == 1:
        return list(samples[0])  # its own order (its repeats were dropped when read)
    counts: dict[str, int] = {}
    places: dict[str, float] = {}
    first: dict[str, int] = {}
    for sample in samples:
        for place, candidate in enumerate(sample):
            key = candidate.lower()
            if key not in first:
                first[key] = len(first)
                places[key] = 0.0
                counts[key] = 0
            counts[key] += 1
            places[key] += place
    spelled: dict[str, str] = {}
    for sample in samples:
        for candidate in sample:
            spelled.setdefault(candidate.lower(), candidate)
    order = sorted(first, key=lambda key: (-counts[key], places[key] / counts[key], first[key]))
    return [spelled[key] for key in order]


Lemmas = Callable[[str], frozenset[str]]
"""A word's lemmas under every part of speech (lower case), the word itself among them."""


def drop_target(candidates: Iterable[str], word: str, lemma: str, lemmas: Lemmas) -> list[str]:
    """``candidates`` without the target: its form as written, its lemma, and any word
    that shares a lemma with it (its inflections: *bright*, *brighter*; *run*, *ran*).

    >>> table = {"ran": {"ran", "run"}, "running": {"running", "run"}}
    >>> drop_target(["ran", "sprint"], "running", "run", lambda w: frozenset(table.get(w, {w})))
    ['sprint']
    """
    target = lemmas(word.strip().lower()) | lemmas(lemma.strip().lower())
    target |= {word.strip().lower(), lemma.strip().lower()}
    return [c for c in candidates if not (lemmas(c.lower()) & target)]


def lemminflect_lemmas() -> Lemmas:
    """A word's lemmas by LemmInflect's dictionary (every part of speech it knows: the
    project's lemmatiser, :func:`annotate.gold.lemmatisation.lemminflect_lemmatiser`), the
    word itself among them; a phrase is its own only lemma."""
    from functools import lru_cache

    from annotate.gold.lemmatisation import UPOS, lemminflect_lemmatiser

    lemmatiser = lemminflect_lemmatiser()
    tags = tuple(UPOS.values())

    @lru_cache(maxsize=65536)
    def lemmas(word: str) -> frozenset[str]:
        if " " in word:
            return frozenset({word})
        found = {lemma.lower() for tag in tags for lemma in lemmatiser.candidates(word, tag)}
        return frozenset(found | {word})

    return lemmas
