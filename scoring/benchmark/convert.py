"""Converters between lexsub's files and SWORDS' formats, so that one system output can be
scored on SWORDS (``lexsub benchmark swords``) and on the leaderboard
(``lexsub compare``, which reads ranked-candidates files, docs/ranking.md)::

    lexsub convert gold-to-swords GOLD --xml XML \
        [--negatives none|pooled] [-o OUT]
    lexsub convert swords-to-ranked RESULT --data DATASET [-o OUT]
    lexsub convert ranked-to-swords RANKED --data DATASET \
        [--lemmatized] [-o OUT]

``OUT`` (standard output by default) is gzipped when its name ends in ``.gz``.

``lexsub convert FILE --to hf`` (:mod:`annotate.convert`, which reads the file as the
importer does) writes a SWORDS, CoInCo, TSAR or MLSP gold in the Hugging Face layout.

**gold → SWORDS dataset** (:func:`gold_to_swords`). The task's XML gives each item's
sentence (the context), its ``<head>`` (the target) and its offset; the lexelt's PoS gives
the target's (n NOUN, v VERB, a ADJ, r ADV). Each gold entry (read as written,
:func:`scoring.formats.gold.read_gold_as_written`, whitespace made single; ``pn`` left out) becomes
a substitute with one ``TRUE_IMPLICIT`` label per annotator who gave it, as SWORDS'
own conversion of SemEval-2007 does (``swords/datasets.py``, ``semeval07``); entries
equal but for case are merged (SWORDS' substitute ids ignore case), their counts summed.
With ``--negatives pooled`` the substitutes given for the other items of the same lexelt
are added with one ``FALSE_IMPLICIT`` label (the pooled candidates of the ranking task).
Ids are SWORDS' checksums (``swords/__init__.py``: ``'c:'``, ``'t:'``, ``'s:'`` + the
SHA-1 of the sorted JSON of the context; of the context id, the lower-cased target, the
offset and the PoS; of the target id and the lower-cased substitute); each target keeps
``extra.legacy_id`` (the item id) and ``extra.lexelt_item``. Every line of the gold is
converted, also items outside T; a gold item with no sentence in the XML, or two items
with the same sentence, target and offset (one SWORDS target), is an error.

**SWORDS result ↔ ranked candidates** (:func:`ranking_lines`, :func:`swords_result`). A
target becomes the line ``LEXELT ID :::: SCORE SUBSTITUTE;…`` with the entries in the
result's order and scores unchanged: ``LEXELT ID`` are the target's ``legacy_id`` and
``lexelt_item`` when the dataset has them (a dataset made by ``gold-to-swords``), else
``word.pos`` (the target lower-cased, its PoS as n, v, a, r; other PoS as n, as SWORDS
lemmatises them) and the target id. Substitutes are made single-spaced and trimmed (a
ranked file cannot hold others); empty ones and ones with ``;`` are refused. Back, each
``ID`` is mapped to its target the same way; the result is written with
``substitutes_lemmatized`` as given (false unless ``--lemmatized``). Both directions
are exact: ``swords_result(ranking_lines(r, d), d) == r`` for a clean result ``r``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from scoring.benchmark.swords import SwordsResult, read_result_file, result_json
from scoring.benchmark.wordnet import NLTK_POS
from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.errors import FormatError
from scoring.files.bounded import read_text
from scoring.formats.gold import GoldLineAsWritten, read_gold_as_written
from scoring.formats.ranked import RankingLine, Scored, format_ranking_line, read_ranking
from scoring.formats.swords import ALL_LABELS, Swords, SwordsTarget, read_swords

POS_OF_TAG = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}
NEGATIVES = ("none", "pooled")


class Sentence(Protocol):
    """What the conversion needs of an item's sentence: its id and its context split
    around the target (``before + head + after``), as the task's XML reader gives it."""

    @property
    def id(self) -> str: ...

    @property
    def before(self) -> str: ...

    @property
    def head(self) -> str: ...

    @property
    def text(self) -> str: ...


# --- SWORDS' ids -------------------------------------------------------------------------


def _checksum(obj: Mapping[str, object]) -> str:
    """SWORDS' ``_dict_checksum``: SHA-1 of ``json.dumps(obj, sort_keys=True)``."""
    return hashlib.sha1(json.dumps(obj, sort_keys=True).encode("utf-8")).hexdigest()


def context_id(context: str) -> str:
    """``LexSubDataset.context_id``: the context is case-sensitive."""
    return "c:" + _checksum({"context": context})


def target_id(context: str, target: str, offset: int, pos: str | None) -> str:
    """``LexSubDataset.target_id``: the target lower-cased."""
    return "t:" + _checksum(
        {"context_id": context, "target": target.lower(), "offset": offset, "pos": pos}
    )


def substitute_id(target: str, substitute: str) -> str:
    """``LexSubDataset.substitute_id``: the substitute lower-cased."""
    return "s:" + _checksum({"target_id": target, "substitute": substitute.lower()})


# --- gold → SWORDS dataset ---------------------------------------------------------------


def _merged(entries: Iterable[tuple[str, int]]) -> dict[str, tuple[str, int]]:
    """lower-cased substitute → (first form written, summed count), whitespace single."""
    merged: dict[str, tuple[str, int]] = {}
    for written, count in entries:
        text = " ".join(written.split())
        form, total = merged.get(text.lower(), (text, 0))
        merged[text.lower()] = (form, total + count)
    return merged


def gold_to_swords(
    gold: Sequence[GoldLineAsWritten],
    instances: Iterable[Sentence],
    negatives: str = "none",
    name: str = "<gold>",
) -> dict[str, Any]:
    """The SWORDS dataset JSON of a gold file and the task's sentences (see the module
    docstring). Raises ValueError naming the gold line for an item without a sentence, a
    repeated target, or an unknown ``negatives``."""
    if negatives not in NEGATIVES:
        raise ValueError(f"negatives {negatives!r} is not one of {', '.join(NEGATIVES)}")
    sentences = {instance.id: instance for instance in instances}
    contexts: dict[str, Any] = {}
    targets: dict[str, Any] = {}
    substitutes: dict[str, Any] = {}
    labels: dict[str, list[str]] = {}
    pools: dict[str, dict[str, str]] = {}
    for line in gold:
        for key, (form, _) in _merged(line.entries).items():
            pools.setdefault(line.lexelt, {}).setdefault(key, form)
    seen: dict[str, str] = {}
    for line in gold:
        instance = sentences.get(line.instance)
        if instance is None:
            raise ValueError(f"{name}:{line.line}: item {line.instance} has no sentence in the XML")
        text, offset = instance.text, len(instance.before)
        pos = POS_OF_TAG[line.lexelt.rsplit(".", 1)[-1]]
        cid, tid = context_id(text), target_id(context_id(text), instance.head, offset, pos)
        if tid in seen:
            raise ValueError(
                f"{name}:{line.line}: item {line.instance} is item {seen[tid]}'s target "
                "(same sentence, word and offset: one SWORDS target)"
            )
        seen[tid] = line.instance
        contexts[cid] = {"context": text}
        targets[tid] = {
            "context_id": cid,
            "target": instance.head,
            "offset": offset,
            "pos": pos,
            "extra": {"legacy_id": line.instance, "lexelt_item": line.lexelt},
        }
        given = _merged(line.entries)
        for form, count in given.values():
            if count > 0:
                sid = substitute_id(tid, form)
                substitutes[sid] = {"target_id": tid, "substitute": form}
                labels[sid] = ["TRUE_IMPLICIT"] * count
        if negatives == "pooled":
            for key, form in pools[line.lexelt].items():
                if key not in given:
                    sid = substitute_id(tid, form)
                    substitutes[sid] = {"target_id": tid, "substitute": form}
                    labels[sid] = ["FALSE_IMPLICIT"]
    return {
        "contexts": contexts,
        "targets": targets,
        "substitutes": substitutes,
        "substitutes_lemmatized": False,
        "substitute_labels": labels,
    }


# --- SWORDS result ↔ ranked candidates ---------------------------------------------------


def _head(target: SwordsTarget) -> tuple[str, str]:
    """``(LEXELT, ID)`` of a target's ranking line."""
    if target.legacy_id is not None and target.lexelt is not None:
        return target.lexelt, target.legacy_id
    return f"{target.target.lower()}.{NLTK_POS.get(target.pos or '', 'n')}", target.id


def ranking_lines(result: SwordsResult, dataset: Swords) -> tuple[RankingLine, ...]:
    """The result's targets as ranked-candidates lines (see the module docstring)."""
    targets = {target.id: target for target in dataset.target_list}
    lines: list[RankingLine] = []
    problems: list[str] = []
    for tid, entries in result.substitutes.items():
        if tid not in targets:
            problems.append(f"result target {tid} is not a target of the dataset")
            continue
        scored: list[Scored] = []
        for place, entry in enumerate(entries):
            text = " ".join(entry.candidate.split())
            if not text or ";" in text:
                problems.append(
                    f"substitutes.{tid}[{place}]: {entry.candidate!r} cannot be a ranked "
                    "candidate (non-empty, no ';')"
                )
            scored.append(Scored(text, entry.score))
        lexelt, item = _head(targets[tid])
        lines.append(RankingLine(lexelt, item, tuple(scored)))
    if problems:
        raise FormatError(problems)
    return tuple(lines)


def swords_result(
    lines: Iterable[RankingLine], dataset: Swords, lemmatized: bool = False
) -> SwordsResult:
    """A SWORDS result of ranked-candidates lines, each ``ID`` mapped to its target."""
    by_item = {_head(target)[1]: target.id for target in dataset.target_list}
    substitutes: dict[str, tuple[Scored, ...]] = {}
    problems: list[str] = []
    for line in lines:
        tid = by_item.get(line.id)
        if tid is None:
            problems.append(f"line {line.line}: id {line.id} is not a target of the dataset")
            continue
        substitutes[tid] = line.candidates
    if problems:
        raise FormatError(problems)
    return SwordsResult(lemmatized, substitutes)


# --- the command -------------------------------------------------------------------------


def _read_instances(path: str) -> Iterable[Sentence]:
    from scoring.formats.taskxml import read_lexsub_xml

    return read_lexsub_xml(path).instances


def _write(text: str, out: str | None, stdout: TextIO) -> None:
    if out is None:
        stdout.write(text)
    elif out.endswith(".gz"):
        with gzip.open(out, "wt", encoding="utf-8") as handle:
            handle.write(text)
    else:
        Path(out).write_text(text, encoding="utf-8")


def parse_arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = ArgumentParser(
        prog="lexsub convert",
        description="Convert between lexsub's files and SWORDS' dataset and result JSON; "
        "or (lexsub convert FILE --to hf --out DIR [--format swords|coinco|tsar]) a SWORDS, "
        "CoInCo, TSAR or MLSP gold to the Hugging Face layout of lexsub export-hf.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    gold = commands.add_parser("gold-to-swords", help="gold file + task XML → SWORDS dataset")
    gold.add_argument("gold", metavar="GOLD")
    gold.add_argument("--xml", required=True, help="the task's XML (the sentences)")
    gold.add_argument("--negatives", choices=NEGATIVES, default="none")
    ranked = commands.add_parser("swords-to-ranked", help="SWORDS result → ranked candidates")
    ranked.add_argument("result", metavar="RESULT")
    back = commands.add_parser("ranked-to-swords", help="ranked candidates → SWORDS result")
    back.add_argument("ranked", metavar="RANKED")
    back.add_argument("--lemmatized", action="store_true", help="substitutes_lemmatized: true")
    for sub in (ranked, back):
        sub.add_argument("--data", required=True, metavar="DATASET", help="SWORDS dataset")
    for sub in (gold, ranked, back):
        sub.add_argument("-o", "--output", metavar="OUT", help="file to write (default stdout)")
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> str:
    """The converted file's text."""
    if args.command == "gold-to-swords":
        lines = read_gold_as_written(read_text(args.gold, perl=True).splitlines(), args.gold)
        data = gold_to_swords(lines, _read_instances(args.xml), args.negatives, args.gold)
        return json.dumps(data, ensure_ascii=False) + "\n"
    dataset = read_swords(args.data, ALL_LABELS)
    if args.command == "swords-to-ranked":
        converted = ranking_lines(read_result_file(args.result), dataset)
        return "".join(format_ranking_line(line) + "\n" for line in converted)
    result = swords_result(read_ranking(args.ranked), dataset, args.lemmatized)
    return json.dumps(result_json(result), ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    args = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        text = run(args)
        _write(text, args.output, stdout or sys.stdout)
    except FAILURES as error:
        return fail(describe(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())
