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
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from annotate.sources import detect_format, gunzip, parse_source
from scoring.agreement import agreement_row, masi_alpha
from scoring.formats import FormatError, Problem
from scoring.formats.annotators import Item, parse_annotators
from scoring.formats.coinco import read_coinco
from scoring.formats.gold import read_gold_as_written
from scoring.formats.hf import (
    TASK_CITATIONS,
    HubAnswer,
    HubCard,
    HubDataset,
    item_of,
    pseudonymised,
)
from scoring.formats.instances import ImportResult, Lexelt, Row, group_lexelts
from scoring.formats.swords import ALL_LABELS, parse_swords
from scoring.formats.text import universal_lines
from scoring.formats.tsar import parse_tsar
from scoring.terms import mode

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


# --- the field's gold standards in the same layout ------------------------------------------

CONVERTED = ("swords", "coinco", "tsar")
"""The formats ``lexsub convert FILE --to hf`` reads (MLSP's substitution files are
TSAR's format)."""


def _ordered(counts: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Entries as a gold file orders them: count descending, ties by code points."""
    return tuple(sorted(counts.items(), key=lambda pair: (-pair[1], pair[0])))


def _swords_entries(data: bytes, name: str) -> dict[str, tuple[tuple[str, int], ...]]:
    """SWORDS: each target's substitutes counted by their raters' ``TRUE`` labels (the
    implicit ones of its conversions included); substitutes nobody accepted left out."""
    swords = parse_swords(json.loads(data), name, ALL_LABELS)
    counts: dict[str, dict[str, int]] = {}
    for substitute in swords.substitutes:
        accepted = sum(label.startswith("TRUE") for label in substitute.labels)
        if accepted:
            forms = counts.setdefault(substitute.target_id, {})
            forms[substitute.substitute] = forms.get(substitute.substitute, 0) + accepted
    return {target: _ordered(forms) for target, forms in counts.items()}


def _coinco_entries(data: bytes, name: str) -> dict[str, tuple[tuple[str, int], ...]]:
    """CoInCo: each token's substitute lemmas and how many annotators gave them (``;``
    written ``,``, as the benchmark reads them)."""
    result = {}
    for target in read_coinco(data, name):
        forms: dict[str, int] = {}
        for substitute in target.substitutes:
            form = substitute.lemma.replace(";", ",")
            forms[form] = forms.get(form, 0) + substitute.freq
        result[target.id] = _ordered(forms)
    return result


def _tsar_entries(data: bytes, name: str) -> dict[int, tuple[tuple[str, int], ...]]:
    """TSAR and MLSP: each line's substitutes, a repeated one counted as often as it is
    given; by line number (the importer's instance ``line``)."""
    lines = parse_tsar(universal_lines(data.decode("utf-8")), name)
    return {number: _ordered(Counter(line.substitutes)) for number, line in enumerate(lines, 1)}


CITATIONS = {
    "swords": """@inproceedings{lee-etal-2021-swords,
  title = "Swords: A Benchmark for Lexical Substitution with Improved Data Coverage and
           Quality",
  author = "Lee, Mina and Donahue, Chris and Jia, Robin and Iyabor, Alexander and
            Liang, Percy",
  booktitle = "Proceedings of NAACL-HLT 2021",
  year = "2021"
}""",
    "coinco": """@inproceedings{kremer-etal-2014-substitutes,
  title = "What Substitutes Tell Us - Analysis of an ``All-Words'' Lexical Substitution
           Corpus",
  author = "Kremer, Gerhard and Erk, Katrin and Pad{\\'o}, Sebastian and Thater, Stefan",
  booktitle = "Proceedings of EACL 2014",
  year = "2014"
}""",
    "mlsp": """@inproceedings{shardlow-etal-2024-bea,
  title = "The {BEA} 2024 Shared Task on the Multilingual Lexical Simplification Pipeline",
  author = "Shardlow, Matthew and Alva-Manchego, Fernando and Batista-Navarro, Riza and
            Bott, Stefan and others",
  booktitle = "Proceedings of the 19th Workshop on Innovative Use of NLP for Building
               Educational Applications (BEA 2024)",
  year = "2024"
}""",
}
"""The citation of a converted gold by its format (``mlsp``: a TSAR-format file named
``multilex_…``, as MLSP-2024 names its files) (TSAR's and MLSP's: the task's,
:data:`scoring.formats.hf.TASK_CITATIONS`)."""


def converted_hub(data: bytes, name: str, format: str | None = None) -> HubDataset:
    """A SWORDS, CoInCo, TSAR or MLSP file (gzip-compressed or not) in the layout: the
    instances as ``lexsub import`` reads them (:func:`annotate.sources.parse_source`),
    each with the file's gold entries, its mode (the strictly most frequent) and in T
    when it has substitutes; no annotations (these files publish counts, not answers).
    FormatError for another format or a complexity file (ratings, not substitutes)."""
    unpacked = gunzip(data, name)
    found = format or detect_format(unpacked, name)
    if found not in CONVERTED:
        raise FormatError(
            [Problem(name, 0, f"a {found} file: --to hf converts {', '.join(CONVERTED)} files")]
        )
    result = parse_source(unpacked, name, found)
    if result.task == "complexity":
        raise FormatError(
            [Problem(name, 0, "a complexity file holds ratings, not substitutes: no gold")]
        )
    by_id: Mapping[str, tuple[tuple[str, int], ...]] = {}
    by_line: Mapping[int, tuple[tuple[str, int], ...]] = {}
    if found == "swords":
        by_id = _swords_entries(unpacked, name)
    elif found == "coinco":
        by_id = _coinco_entries(unpacked, name)
    else:
        by_line = _tsar_entries(unpacked, name)
    items = []
    for lexelt in result.lexelts:
        for instance in lexelt.instances:
            entries = by_id.get(instance.id) or by_line.get(instance.line) or ()
            items.append(
                item_of(
                    instance.id,
                    lexelt.item,
                    instance.before,
                    instance.head,
                    instance.after,
                    entries,
                    mode=mode(entries),
                )
            )
    card = HubCard(
        Path(name).name,
        result.task,
        result.language,
        source=f"converted from {Path(name).name} ({found})",
        citation=CITATIONS.get(
            "mlsp" if found == "tsar" and Path(name).name.startswith("multilex") else found,
            TASK_CITATIONS.get(result.task, ""),
        ),
    )
    return HubDataset(card, tuple(items))
