"""``lexsub benchmark mlsp PREDICTIONS --data GOLD``: MLSP-2024 (Shardlow et al. 2024) as
its published results were produced: by the organisers' notebooks (``LS Results.ipynb``
and ``LCP Results.ipynb`` in ``MLSP2024/MLSP_Data``, ``Scripts/``), not by the
``ls_evaluate.py`` the task ships (that one is :mod:`scoring.benchmark.tsar`).

Lexical simplification (the ``*_ls.tsv`` files, ``SENTENCE<TAB>WORD<TAB>SUBSTITUTE…``):
the notebook carries ``tsar_eval.py``'s evaluator, so the figures are TSAR's
(:mod:`scoring.benchmark.tsar`, its code), with the notebook's three differences:

- an item's key is its sentence and its word, each with every double quote removed and
  white space stripped at both ends, joined by ``__``: a word written without the gold's
  trailing space (the Catalan and Spanish trial files end nearly every word with one),
  or a sentence CSV-quoted with its quotes doubled, names the same item;
- the complex word stays in the gold (``flagUseComplexWordsInGoldAnnotations = True``);
- the complex word is dropped from a prediction line only when a substitute equals the
  word exactly as that line writes it (trailing space included), as the notebook drops it.

Lexical complexity (the ``*_lcp.tsv`` files, ``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>
VALUE``): ``lcp_evaluate.py``'s figures (:mod:`scoring.benchmark.lcp`, its code) on the
gold's ids less the four the notebook drops from the gold and the predictions alike
(:data:`DROPPED_IDS`).

Which task a gold is: ``--task``, or by default the gold's layout (every line five
tab-separated columns ending in a number: complexity; otherwise simplification).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from scoring.benchmark import Report, lcp, tsar
from scoring.errors import FormatError
from scoring.formats.lcp import LcpLine, parse_lcp, read_lcp
from scoring.formats.text import read_universal_lines
from scoring.formats.tsar import TsarLine, parse_tsar, read_tsar
from scoring.signature import signature

DESCRIPTION = (
    "MLSP-2024 as the organisers' notebooks scored it: TSAR's figures on the notebook's "
    "keys (quotes removed, white space stripped), or LCP's without the ids it drops"
)

Task = Literal["auto", "ls", "lcp"]

LS_METRICS = (
    "Accuracy@1@top_gold_1",
    "Accuracy@2@top_gold_1",
    "Accuracy@3@top_gold_1",
    "MAP@1/Potential@1/Precision@1",
    "Potential@3",
    "Potential@5",
    "Potential@10",
    "MAP@3",
    "MAP@5",
    "MAP@10",
)
"""TSAR's figures in the order the notebook prints its results row."""

DROPPED_IDS = ("fr_150", "fr_513", "pt_600", "pt_579")
"""The ids ``LCP Results.ipynb`` removes from the gold and the predictions before scoring."""


@dataclass(frozen=True)
class MlspScores:
    """The figures (fractions, unfloored; LS in the notebook's order) and the notes."""

    metrics: dict[str, float]
    notes: tuple[str, ...]


def notebook_key(line: TsarLine) -> str:
    """The notebook's key of an item: sentence and word with every ``"`` removed and white
    space stripped at both ends, joined by ``__``.

    >>> notebook_key(TsarLine('"Hi," he said.', "said ", (), ""))
    'Hi, he said.__said'
    """
    sentence = line.sentence.replace('"', "").strip()
    return sentence + "__" + line.word.replace('"', "").strip()


def score_ls(
    gold_lines: Sequence[TsarLine],
    prediction_lines: Sequence[TsarLine],
    prediction_name: str = "<predictions>",
) -> MlspScores:
    """TSAR's figures as ``LS Results.ipynb`` computes them. :class:`FormatError` for an
    empty prediction file or a prediction whose key no gold item has (the notebook stops
    with ``ZeroDivisionError`` or ``KeyError`` and prints ``could not parse``)."""
    if not prediction_lines:
        raise FormatError([f"{prediction_name}: no prediction line (nothing to average over)"])
    gold = tsar.gold_items(gold_lines, keep_word=True, keyed=notebook_key)
    predicted = tsar.predictions(prediction_lines, keyed=notebook_key)
    rows, notes = tsar.scored_rows(gold, predicted, "the notebook", "no substitute")
    metrics = tsar.corpus_metrics(rows)
    return MlspScores({name: metrics[name] for name in LS_METRICS}, notes)


def score_lcp(
    gold_lines: Sequence[LcpLine],
    prediction_lines: Sequence[LcpLine],
    prediction_name: str = "<predictions>",
) -> MlspScores:
    """``lcp_evaluate.py``'s figures without :data:`DROPPED_IDS`, as ``LCP Results.ipynb``
    computes them; refusals as :func:`scoring.benchmark.lcp.score`."""
    dropped = sorted({line.id for line in gold_lines if line.id in DROPPED_IDS})
    scores = lcp.score(
        [line for line in gold_lines if line.id not in DROPPED_IDS],
        [line for line in prediction_lines if line.id not in DROPPED_IDS],
        prediction_name,
    )
    notes = scores.notes
    if dropped:
        notes = (f"gold ids dropped as the notebook drops them: {', '.join(dropped)}", *notes)
    return MlspScores(scores.metrics, notes)


def task_of(lines: Sequence[str]) -> Literal["ls", "lcp"]:
    """``lcp`` when every non-blank line is five tab-separated columns ending in a number
    (``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>VALUE``), else ``ls``."""
    filled = [line for line in lines if line.strip()]
    for line in filled:
        fields = line.split("\t")
        try:
            value = float(fields[-1])
        except ValueError:
            return "ls"
        if len(fields) != 5 or not math.isfinite(value):
            return "ls"
    return "lcp" if filled else "ls"


def text_of(metrics: Mapping[str, float], *, floor: bool) -> str:
    """The figures as the notebook prints them (``%f``; the LS figures floored to 4
    decimals first, as it floors them), one ``NAME = VALUE`` line each in its order."""
    return "".join(
        f"{name} = {tsar.floored(value) if floor else value:f}\n" for name, value in metrics.items()
    )


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--task",
        choices=get_args(Task),
        default="auto",
        help="ls: lexical simplification (*_ls.tsv); lcp: lexical complexity (*_lcp.tsv); "
        "auto: from the gold's layout (default)",
    )


def evaluate_files(system: str | Path, data: str | Path, *, task: Task = "auto") -> Report:
    """``lexsub benchmark mlsp SYSTEM --data GOLD [--task T]``: the predictions at
    ``system`` against the MLSP gold at ``data``, lexical simplification or lexical
    complexity (``auto``: told by the gold's layout), as MLSP-2024's code scores them."""
    gold_text = read_universal_lines(data)
    chosen = task_of(gold_text) if task == "auto" else task
    if chosen == "lcp":
        scores = score_lcp(parse_lcp(gold_text, str(data)), read_lcp(system), str(system))
        settings: tuple[tuple[str, object], ...] = (
            ("task", "lcp"),
            ("items", "gold-ids"),
            ("dropped", ",".join(DROPPED_IDS)),
            ("ranks", "average"),
        )
    else:
        scores = score_ls(parse_tsar(gold_text, str(data)), read_tsar(system), str(system))
        settings = (
            ("task", "ls"),
            ("keys", "unquoted-stripped"),
            ("gold-word", "keep"),
            ("items", "prediction-lines"),
            ("map", "sum-over-k"),
        )
    return Report(
        "mlsp",
        scores.metrics,
        signature("mlsp", *settings),
        scores.notes,
        text=text_of(scores.metrics, floor=chosen == "ls"),
    )


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files` with its options."""
    return evaluate_files(args.system, args.data, task=args.task)
