"""The field's gold standards (SWORDS, CoInCo, TSAR-2022, MLSP-2024) in the Hugging Face
layout of ``lexsub export-hf`` (:mod:`scoring.formats.hf`), so that one loader reads them
all: each instance as ``lexsub import`` reads it
(:func:`scoring.formats.importers.read.parse_source`), with the counts the file gives (the gold
reader of its row of :data:`scoring.formats.registry.FORMATS`). Pure: no Flask, no
database.
"""

from __future__ import annotations

from pathlib import Path

from scoring.errors import FormatError, Problem
from scoring.formats.hf import TASK_CITATIONS, HubCard, HubDataset, item_of
from scoring.formats.importers.read import detect_format, gunzip, parse_source
from scoring.formats.registry import FORMATS, format_named
from scoring.terms import mode

CONVERTED = tuple(row.name for row in FORMATS if row.gold is not None)
"""The formats ``lexsub convert FILE --to hf`` reads: the rows of the table of formats
with a gold reader (MLSP's substitution files are TSAR's format)."""


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
    instances as ``lexsub import`` reads them (:func:`scoring.formats.importers.read.parse_source`),
    each with the file's gold entries, its mode (the strictly most frequent) and in T
    when it has substitutes; no annotations (these files publish counts, not answers).
    FormatError for another format or a complexity file (ratings, not substitutes)."""
    unpacked = gunzip(data, name)
    row = format_named(format or detect_format(unpacked, name))
    found = row.name
    if row.gold is None:
        raise FormatError(
            [Problem(name, 0, f"a {found} file: --to hf converts {', '.join(CONVERTED)} files")]
        )
    result = parse_source(unpacked, name, found)
    if result.task == "complexity":
        raise FormatError(
            [Problem(name, 0, "a complexity file holds ratings, not substitutes: no gold")]
        )
    entries_of = row.gold(unpacked, name)
    items = []
    for lexelt in result.lexelts:
        for instance in lexelt.instances:
            entries = entries_of.get(instance.id) or entries_of.get(instance.line) or ()
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
