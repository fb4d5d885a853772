"""A compiled gold (the files of :mod:`annotate.gold.write`) and its sentences as the
Hugging Face layout of :mod:`scoring.formats.hf`, and that layout back as an import and
its responses.

One builder for every source: ``lexsub export-hf --gold DIR`` reads the compiled folder,
``--dataset NAME`` compiles the dataset and hands over the same texts
(:func:`annotate.gold.write.output_texts`), so both give the same rows. Pure: no Flask,
no database; the annotators' pseudonyms are given (``names``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence

from scoring.agreement import agreement_row, masi_alpha
from scoring.errors import FormatError, Problem
from scoring.formats.annotators import Item, parse_annotators
from scoring.formats.gold import read_gold_as_written
from scoring.formats.hf import (
    HubAnswer,
    HubCard,
    HubDataset,
    item_of,
    pseudonymised,
)
from scoring.formats.instances import ImportResult, Lexelt, Row, group_lexelts

COMPILED = ("gold", "annotators.jsonl", "summary.json")
"""The files of a compiled folder the layout is built from."""


PSEUDONYM = re.compile(r"[AP][1-9][0-9]*")


def pseudonyms_given(annotators: Iterable[str]) -> bool:
    """Whether every name is a pseudonym already (``A1``, ``P3``: a gold compiled from a
    dataset of the app names its annotators so)."""
    return all(PSEUDONYM.fullmatch(name) for name in annotators)


def annotators_in(texts: Mapping[str, str], where: str = "<compiled>") -> list[str]:
    """The annotators of ``annotators.jsonl``, sorted by name."""
    items = parse_annotators(texts["annotators.jsonl"].splitlines(), f"{where}/annotators.jsonl")
    return sorted({answer.annotator for item in items for answer in item.responses})


def answers_of(items: Sequence[Item]) -> tuple[HubAnswer, ...]:
    """``annotators.jsonl``'s answers as rows, in its order (item, then annotator)."""
    return tuple(
        HubAnswer(
            answer.annotator,
            item.lexelt,
            item.instance,
            answer.kind,
            tuple(sorted(answer.substitutes)),
            answer.multiword,
        )
        for item in items
        for answer in item.responses
    )


def hub_from_compiled(
    lexelts: Sequence[Lexelt],
    texts: Mapping[str, str],
    card: HubCard,
    names: Mapping[str, str],
    where: str = "<compiled>",
) -> HubDataset:
    """The layout of a compiled gold: a ``gold`` row for every instance of ``lexelts``
    (its entries from ``gold``, its mode and whether it is in T from ``summary.json``),
    an ``annotations`` row for every line of ``annotators.jsonl`` with the annotator
    renamed by ``names``, and the card's PA, PA_m and MASI alpha computed on those
    answers and the signature from ``summary.json``. FormatError when the gold names an
    item that ``lexelts`` lacks."""
    summary = json.loads(texts["summary.json"])
    compiled = parse_annotators(texts["annotators.jsonl"].splitlines(), f"{where}/annotators.jsonl")
    lines = read_gold_as_written(texts["gold"].splitlines(), f"{where}/gold")
    entries = {(line.lexelt, line.instance): line for line in lines}
    modes = {(m["lexelt"], m["instance"]): m["mode"] for m in summary.get("modes", ())}
    out_of_t = {(m["lexelt"], m["instance"]) for m in summary.get("not_in_t", ())}
    answered = {(item.lexelt, item.instance) for item in compiled}
    known = {(lexelt.item, instance.id) for lexelt in lexelts for instance in lexelt.instances}
    missing = [line for key, line in entries.items() if key not in known]
    if missing:
        raise FormatError(
            [
                Problem(
                    f"{where}/gold",
                    line.line,
                    f"item {line.lexelt} {line.instance} has no sentence in the instances given",
                )
                for line in missing
            ]
        )
    items = []
    for lexelt in lexelts:
        for instance in lexelt.instances:
            key = (lexelt.item, instance.id)
            line = entries.get(key)
            written = [] if line is None else list(line.entries)
            if line is not None and line.names:
                written.append(("pn", line.names))
            items.append(
                item_of(
                    instance.id,
                    lexelt.item,
                    instance.before,
                    instance.head,
                    instance.after,
                    written,
                    in_t=key in answered and key not in out_of_t,
                    mode=modes.get(key),
                )
            )
    row = agreement_row(compiled)
    in_t = [item for item in compiled if item.in_t]
    alpha = masi_alpha(in_t) if len(in_t) > 1 else None
    full = HubCard(
        card.name,
        card.task,
        card.language,
        row.PA,
        row.PAm,
        alpha,
        summary.get("signature", ""),
        card.source,
        card.citation,
    )
    return HubDataset(full, tuple(items), pseudonymised(answers_of(compiled), names))


def hub_import(dataset: HubDataset, where: str) -> ImportResult:
    """The ``gold`` rows as an import (:mod:`scoring.formats.instances`): each row's
    sentence split at its target offsets, held to the import's rules (ids, items,
    lengths) by :func:`~scoring.formats.instances.group_lexelts`."""
    rows = [
        Row(
            item.id,
            item.lexelt,
            item.sentence[: item.target_start],
            item.head,
            item.sentence[item.target_end :],
            f"gold row {index}",
            0,
        )
        for index, item in enumerate(dataset.items, 1)
    ]
    return ImportResult(group_lexelts(rows, where), (), language=dataset.card.language)
