"""A gold standard as a Hugging Face dataset folder: Parquet files and a dataset card that
``datasets.load_dataset(DIR)`` loads as they are, and that :func:`read_hub` reads back.

Layout (one split, ``test``: a gold standard is test data)::

    DIR/README.md                              the dataset card (YAML ``configs``, features)
    DIR/gold/test-00000-of-00001.parquet        one row per item
    DIR/annotations/test-00000-of-00001.parquet one row per answer (annotator, item)
    DIR/judgements/test-00000-of-00001.parquet  one row per label, where there are any

``gold``: ``id``, ``lexelt``, ``lemma``, ``pos``, ``sentence``, ``target_start`` and
``target_end`` (character offsets of the target in the sentence), ``substitutes`` (a list
of ``{substitute, count}`` as the gold file orders them), ``names`` (annotators who said
the target is part of a proper name, the gold's ``pn N``), ``mode`` (null when none) and
``in_t``. ``annotations``: ``annotator`` (a pseudonym: ``A1``, ``A2`` …, ``P1`` … for
crowd participants), ``lexelt``, ``id``, ``kind`` (``substitutes``, ``name``, ``nil``),
``substitutes`` (the set h_i, sorted) and ``multiword``. ``judgements``: ``round``,
``id``, ``candidate``, ``judge`` (a pseudonym), ``label`` and ``origin`` (the systems or
``gold`` that proposed the candidate).

pyarrow is needed to write and read the Parquet files (``pip install 'lexsub[hub]'``); it
is imported only when a folder is written or read (:func:`need_pyarrow`). Nothing here
touches Flask or the database.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from scoring.errors import FormatError, Problem
from scoring.formats.responses import Response
from scoring.types import ANSWER_KINDS

SPLIT = "test"
CONFIGS = ("gold", "annotations", "judgements")
INSTALL = "pip install 'lexsub[hub]'"
SHARD = f"{SPLIT}-00000-of-00001.parquet"

GOLD_FEATURES: tuple[tuple[str, Any], ...] = (
    ("id", "string"),
    ("lexelt", "string"),
    ("lemma", "string"),
    ("pos", "string"),
    ("sentence", "string"),
    ("target_start", "int32"),
    ("target_end", "int32"),
    ("substitutes", (("substitute", "string"), ("count", "int32"))),
    ("names", "int32"),
    ("mode", "string"),
    ("in_t", "bool"),
)
"""The columns of ``gold``: a name and its dtype, or for ``substitutes`` the fields of
the list's structs."""
ANNOTATION_FEATURES: tuple[tuple[str, Any], ...] = (
    ("annotator", "string"),
    ("lexelt", "string"),
    ("id", "string"),
    ("kind", "string"),
    ("substitutes", ["string"]),
    ("multiword", "string"),
)
JUDGEMENT_FEATURES: tuple[tuple[str, Any], ...] = (
    ("round", "string"),
    ("id", "string"),
    ("candidate", "string"),
    ("judge", "string"),
    ("label", "string"),
    ("origin", ["string"]),
)
FEATURES = {
    "gold": GOLD_FEATURES,
    "annotations": ANNOTATION_FEATURES,
    "judgements": JUDGEMENT_FEATURES,
}

TASK_CITATIONS = {
    "substitution": """@inproceedings{mccarthy-navigli-2007-semeval,
  title = "{S}em{E}val-2007 Task 10: {E}nglish Lexical Substitution Task",
  author = "McCarthy, Diana and Navigli, Roberto",
  booktitle = "Proceedings of the Fourth International Workshop on Semantic Evaluations",
  year = "2007",
  pages = "48--53"
}""",
    "simplification": """@inproceedings{saggion-etal-2022-findings,
  title = "Findings of the {TSAR}-2022 Shared Task on Multilingual Lexical Simplification",
  author = "Saggion, Horacio and {\\v{S}}tajner, Sanja and Ferr{\\'e}s, Daniel and
            Sheang, Kim Cheng and Shardlow, Matthew and North, Kai and Zampieri, Marcos",
  booktitle = "Proceedings of the Workshop on Text Simplification, Accessibility, and
               Readability (TSAR-2022)",
  year = "2022"
}""",
}
"""The task's citation (BibTeX) the card gives, by the dataset's task."""


@dataclass(frozen=True, slots=True)
class HubItem:
    """One row of ``gold``: an item, its sentence and where the target is, its gold."""

    id: str
    lexelt: str
    lemma: str
    pos: str
    sentence: str
    target_start: int
    target_end: int
    substitutes: tuple[tuple[str, int], ...] = ()
    names: int = 0
    mode: str | None = None
    in_t: bool = False

    @property
    def head(self) -> str:
        """The target as it stands in the sentence."""
        return self.sentence[self.target_start : self.target_end]


@dataclass(frozen=True, slots=True)
class HubAnswer:
    """One row of ``annotations``: one annotator's answer to one item."""

    annotator: str
    lexelt: str
    id: str
    kind: str
    substitutes: tuple[str, ...] = ()
    multiword: str | None = None


@dataclass(frozen=True, slots=True)
class HubJudgement:
    """One row of ``judgements``: a judge's label of a candidate of an item in a
    judgement round (the judgements file's record, :mod:`scoring.formats.judgements`,
    with its round), the judge by pseudonym."""

    round: str
    id: str
    candidate: str
    judge: str
    label: str
    origin: tuple[str, ...] = ()


@dataclass(frozen=True)
class HubCard:
    """What the dataset card says beyond the rows: the name, the task and language, the
    agreement figures (None when not known), the compiler's signature, where the data
    came from and the task's citation."""

    name: str
    task: str = "substitution"
    language: str = "en"
    pa: float | None = None
    pam: float | None = None
    alpha: float | None = None
    signature: str = ""
    source: str = ""
    citation: str = ""


@dataclass(frozen=True)
class HubDataset:
    """A gold standard in the layout of this module."""

    card: HubCard
    items: tuple[HubItem, ...]
    answers: tuple[HubAnswer, ...] = ()
    judgements: tuple[HubJudgement, ...] = field(default=())

    @property
    def annotators(self) -> tuple[str, ...]:
        """The pseudonyms of the annotators with an answer, in pseudonym order."""
        return tuple(sorted({answer.annotator for answer in self.answers}, key=pseudonym_key))


def pseudonym_key(name: str) -> tuple[str, int, str]:
    """``A2`` before ``A10``: the letters, then the number, then the name."""
    found = re.fullmatch(r"([A-Za-z]*)([0-9]+)", name)
    return (found.group(1), int(found.group(2)), name) if found else (name, 0, name)


class NeedsPyarrow(RuntimeError):
    """pyarrow is not installed: the message says how to install it."""


def need_pyarrow() -> ModuleType:
    """``pyarrow.parquet``, or :class:`NeedsPyarrow` saying how to install it."""
    try:
        return importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise NeedsPyarrow(f"writing and reading Parquet files needs pyarrow: {INSTALL}") from None


# --- writing ------------------------------------------------------------------------------


def _rows(dataset: HubDataset, config: str) -> list[dict[str, Any]]:
    if config == "gold":
        return [
            {
                "id": item.id,
                "lexelt": item.lexelt,
                "lemma": item.lemma,
                "pos": item.pos,
                "sentence": item.sentence,
                "target_start": item.target_start,
                "target_end": item.target_end,
                "substitutes": [
                    {"substitute": sub, "count": count} for sub, count in item.substitutes
                ],
                "names": item.names,
                "mode": item.mode,
                "in_t": item.in_t,
            }
            for item in dataset.items
        ]
    if config == "annotations":
        return [
            {
                "annotator": a.annotator,
                "lexelt": a.lexelt,
                "id": a.id,
                "kind": a.kind,
                "substitutes": list(a.substitutes),
                "multiword": a.multiword,
            }
            for a in dataset.answers
        ]
    return [
        {
            "round": j.round,
            "id": j.id,
            "candidate": j.candidate,
            "judge": j.judge,
            "label": j.label,
            "origin": list(j.origin),
        }
        for j in dataset.judgements
    ]


def _arrow_type(pa: Any, dtype: Any) -> Any:
    if isinstance(dtype, list):
        return pa.list_(_arrow_type(pa, dtype[0]))
    if isinstance(dtype, tuple):
        return pa.list_(pa.struct([(name, _arrow_type(pa, sub)) for name, sub in dtype]))
    return {"string": pa.string(), "int32": pa.int32(), "bool": pa.bool_()}[dtype]


def configs_of(dataset: HubDataset) -> tuple[str, ...]:
    """The configs the folder has: ``gold`` and ``annotations`` always, ``judgements``
    when there are verdicts."""
    return CONFIGS if dataset.judgements else CONFIGS[:2]


def write_hub(dataset: HubDataset, out: str | Path) -> list[Path]:
    """Write the folder ``out`` (created if needed): a Parquet file per config and the
    card (:func:`card_text`); returns the paths written."""
    parquet = need_pyarrow()
    pa = importlib.import_module("pyarrow")
    folder = Path(out)
    written = []
    for config in configs_of(dataset):
        schema = pa.schema([(name, _arrow_type(pa, dtype)) for name, dtype in FEATURES[config]])
        table = pa.Table.from_pylist(_rows(dataset, config), schema=schema)
        path = folder / config / SHARD
        path.parent.mkdir(parents=True, exist_ok=True)
        parquet.write_table(table, path)
        written.append(path)
    card = folder / "README.md"
    card.write_text(card_text(dataset), encoding="utf-8", newline="\n")
    return [*written, card]


def _feature_yaml(name: str, dtype: Any, indent: str) -> list[str]:
    if isinstance(dtype, list):
        return [f"{indent}- name: {name}", f"{indent}  sequence: {dtype[0]}"]
    if isinstance(dtype, tuple):
        lines = [f"{indent}- name: {name}", f"{indent}  list:"]
        for sub, subtype in dtype:
            lines += [f"{indent}  - name: {sub}", f"{indent}    dtype: {subtype}"]
        return lines
    return [f"{indent}- name: {name}", f"{indent}  dtype: {dtype}"]


def _figure(value: float | None) -> str:
    return "not computed" if value is None else f"{value:.4f}"


def card_text(dataset: HubDataset) -> str:
    """The dataset card: YAML front matter (``configs`` with their data files, the
    features, ``language``, ``license`` for the organiser to fill in,
    ``pretty_name``) and a body with the task, the counts, PA, PA_m and alpha, the
    signature, the licence to fill in and the task's citation."""
    card = dataset.card
    configs = configs_of(dataset)
    yaml = ["---", "configs:"]
    for config in configs:
        yaml += [
            f"- config_name: {config}",
            "  data_files:",
            f"  - split: {SPLIT}",
            f"    path: {config}/{SPLIT}-*.parquet",
        ]
        if config == "gold":
            yaml.append("  default: true")
    yaml.append("dataset_info:")
    for config in configs:
        yaml += [f"- config_name: {config}", "  features:"]
        for name, dtype in FEATURES[config]:
            yaml += _feature_yaml(name, dtype, "  ")
    yaml += [
        "language:",
        f"- {card.language}",
        "license: unknown  # the organiser fills in the data's licence (e.g. cc-by-4.0)",
        f"pretty_name: {json.dumps(card.name, ensure_ascii=False)}",
        "task_categories:",
        "- text-generation" if card.task != "complexity" else "- text-classification",
        "tags:",
        "- lexical-substitution",
        f"- {card.task}",
        "---",
    ]
    in_t = sum(1 for item in dataset.items if item.in_t)
    body = [
        "",
        f"# {card.name}",
        "",
        f"A lexical {card.task} gold standard in the layout of lexsub: "
        "`datasets.load_dataset(DIR)` loads the gold (one row per item), "
        '`load_dataset(DIR, "annotations")` one row per answer'
        + (', `load_dataset(DIR, "judgements")` one row per verdict' if dataset.judgements else "")
        + ".",
        "",
        f"- Task: {card.task}",
        f"- Language: {card.language}",
        f"- Items: {len(dataset.items)} ({in_t} in T: answered with substitutes by two "
        "annotators or more)",
        f"- Annotators: {len(dataset.annotators)} (named by pseudonym: A1, A2 …; "
        "P1 … for crowd participants)",
        f"- Answers: {len(dataset.answers)}",
        *(
            [f"- Judgements: {len(dataset.judgements)} labels (judges by pseudonym)"]
            if dataset.judgements
            else []
        ),
        f"- PA: {_figure(card.pa)}; PA_m: {_figure(card.pam)}; "
        f"alpha (MASI): {_figure(card.alpha)} (McCarthy & Navigli 2009; Passonneau 2006)",
        f"- Signature: `{card.signature or 'none'}`",
    ]
    if card.source:
        body.append(f"- Source: {card.source}")
    body += [
        "- Licence: to be filled in by the organiser (the `license` field above)",
        "",
        "## Citation",
        "",
        "```bibtex",
        card.citation or TASK_CITATIONS.get(card.task, TASK_CITATIONS["substitution"]),
        "```",
        "",
    ]
    return "\n".join(yaml + body)


# --- reading ------------------------------------------------------------------------------


def _table(folder: Path, config: str) -> list[dict[str, Any]] | None:
    """The rows of a config's Parquet files (None when the config has none)."""
    files = sorted((folder / config).glob("*.parquet"))
    if not files:
        return None
    parquet = need_pyarrow()
    rows: list[dict[str, Any]] = []
    for path in files:
        rows.extend(parquet.read_table(path).to_pylist())
    return rows


def _problem(folder: Path, config: str, index: int, message: str) -> FormatError:
    return FormatError([Problem(f"{folder}/{config}", index, message)])


def _text(row: Mapping[str, Any], key: str, where: tuple[Path, str, int]) -> str:
    value = row.get(key)
    if not isinstance(value, str):
        raise _problem(*where, f"{key} must be a string, not {type(value).__name__}")
    return value


def _gold_item(row: Mapping[str, Any], where: tuple[Path, str, int]) -> HubItem:
    sentence = _text(row, "sentence", where)
    start, end = row.get("target_start"), row.get("target_end")
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(sentence)):
        raise _problem(
            *where,
            f"target offsets {start}-{end} must lie within the sentence "
            f"(0 to {len(sentence)}) and enclose the target",
        )
    entries = tuple(
        (str(entry["substitute"]), int(entry["count"])) for entry in row.get("substitutes") or ()
    )
    mode = row.get("mode")
    return HubItem(
        _text(row, "id", where),
        _text(row, "lexelt", where),
        str(row.get("lemma") or ""),
        str(row.get("pos") or ""),
        sentence,
        start,
        end,
        entries,
        int(row.get("names") or 0),
        mode if isinstance(mode, str) else None,
        bool(row.get("in_t")),
    )


def _answer(row: Mapping[str, Any], where: tuple[Path, str, int]) -> HubAnswer:
    kind = _text(row, "kind", where)
    if kind not in ANSWER_KINDS:
        raise _problem(*where, f"kind {kind!r} is not one of {', '.join(ANSWER_KINDS)}")
    multiword = row.get("multiword")
    return HubAnswer(
        _text(row, "annotator", where),
        _text(row, "lexelt", where),
        _text(row, "id", where),
        kind,
        tuple(str(value) for value in row.get("substitutes") or ()),
        multiword if isinstance(multiword, str) else None,
    )


_LANGUAGE = re.compile(r"^language:\s*\n-\s*([A-Za-z-]+)", re.MULTILINE)
_NAME = re.compile(r"^pretty_name:\s*(.+)$", re.MULTILINE)


def read_hub(folder: str | Path) -> HubDataset:
    """The folder written by :func:`write_hub` (or laid out the same way): its rows, and
    from the card the language (``en`` when it names none) and the name. FormatError
    naming the config and row when a row breaks the layout's rules."""
    path = Path(folder)
    gold = _table(path, "gold")
    if gold is None:
        raise _problem(path, "gold", 0, "no Parquet file: the gold config is missing")
    items = tuple(_gold_item(row, (path, "gold", index)) for index, row in enumerate(gold, 1))
    answers = tuple(
        _answer(row, (path, "annotations", index))
        for index, row in enumerate(_table(path, "annotations") or (), 1)
    )
    judgements = tuple(
        HubJudgement(
            str(row.get("round") or ""),
            str(row.get("id") or ""),
            str(row.get("candidate") or ""),
            str(row.get("judge") or ""),
            str(row.get("label") or ""),
            tuple(str(value) for value in row.get("origin") or ()),
        )
        for row in _table(path, "judgements") or ()
    )
    card = path / "README.md"
    text = card.read_text(encoding="utf-8") if card.exists() else ""
    language = _LANGUAGE.search(text)
    name = _NAME.search(text)
    shown = name.group(1).strip() if name else path.name
    with contextlib.suppress(ValueError):
        shown = json.loads(shown)
    return HubDataset(
        HubCard(str(shown), language=language.group(1).lower() if language else "en"),
        items,
        answers,
        judgements,
    )


def responses_of(dataset: HubDataset, where: str = "<hub>") -> list[Response]:
    """The answers as the compiler's responses (annotator: the pseudonym)."""
    return [
        Response(
            answer.annotator,
            answer.lexelt,
            answer.id,
            answer.kind,  # type: ignore[arg-type]  # checked by read_hub
            answer.substitutes,
            answer.multiword,
            where=f"{where}:{index}",
        )
        for index, answer in enumerate(dataset.answers, 1)
    ]


# --- building from other layouts ------------------------------------------------------------

GoldEntries = Mapping[str | int, tuple[tuple[str, int], ...]]
"""What a format's gold reader gives (the ``gold`` of a row of
:data:`scoring.formats.registry.FORMATS`): each instance's gold entries (form, count), by
instance id, or by line number for a format whose instances are its lines."""


def ordered_entries(counts: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Entries as a gold file orders them: count descending, ties by code points.

    >>> ordered_entries({"b": 1, "a": 1, "c": 2})
    (('c', 2), ('a', 1), ('b', 1))
    """
    return tuple(sorted(counts.items(), key=lambda pair: (-pair[1], pair[0])))


def item_of(
    id_: str,
    lexelt: str,
    before: str,
    head: str,
    after: str,
    entries: Sequence[tuple[str, int]] = (),
    in_t: bool | None = None,
    mode: str | None = None,
) -> HubItem:
    """A gold row from a context split around its target and the gold's entries (``pn``
    counted as ``names``); ``in_t`` defaults to "has substitutes"."""
    lemma, _, pos = lexelt.rpartition(".")
    lemma = lemma.split(".")[0]
    substitutes = tuple((sub, count) for sub, count in entries if sub != "pn")
    names = sum(count for sub, count in entries if sub == "pn")
    return HubItem(
        id_,
        lexelt,
        lemma,
        pos,
        before + head + after,
        len(before),
        len(before) + len(head),
        substitutes,
        names,
        mode,
        bool(substitutes) if in_t is None else in_t,
    )


def pseudonymised(answers: Iterable[HubAnswer], names: Mapping[str, str]) -> tuple[HubAnswer, ...]:
    """The answers with each annotator renamed by ``names`` (name → pseudonym); a name
    it lacks is kept."""
    return tuple(
        HubAnswer(
            names.get(a.annotator, a.annotator), a.lexelt, a.id, a.kind, a.substitutes, a.multiword
        )
        for a in answers
    )
