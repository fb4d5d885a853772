"""``lexsub benchmark tsar PREDICTIONS --data GOLD``: lexical simplification as the
TSAR-2022 shared task (Saggion et al. 2022) scores it, with its ``tsar_eval.py``, which
MLSP-2024 (Shardlow et al. 2024) ships as ``ls_evaluate.py`` for its ``*_ls.tsv`` files
(its published results came from the organisers' notebook, which keys items otherwise:
:mod:`scoring.benchmark.mlsp`).

Both files are ``SENTENCE<TAB>WORD<TAB>SUBSTITUTE…`` (:mod:`scoring.formats.tsar`);
an item is its ``SENTENCE__WORD`` key. The script's conventions, each kept:

- strings match exactly (``--matching fixed``: through the one normaliser instead,
  :func:`scoring.terms.normalise`, gold, word and predictions alike; keys that coincide
  are one gold substitute with the counts summed, one prediction at its first place);
- the complex word is dropped from the gold (unless ``--gold-word keep``, MLSP-2024's
  setting ``flagUseComplexWordsInGoldAnnotations = True``) and from the predictions,
  and a repeated prediction is dropped;
- a key given twice keeps its last line (gold and predictions);
- every figure averages over the prediction file's items (its distinct keys): a gold
  item with no prediction line counts nowhere, an empty prediction line counts as 0;
- ``Potential@K``: the share of items with a gold substitute among the first K
  predictions (``MAP@1/Potential@1/Precision@1`` is ``Potential@1``);
- ``MAP@K``: the sum, over the first K predictions that are gold, of the precision at
  their rank, divided by K (not by the gold's size nor by the hits);
- ``Accuracy@N@top_gold_1``: the share of items with one of the first N predictions
  among the gold's most frequent substitutes (all of them when tied).

Where the script stops with an exception lexsub gives a defined figure and a note:
a gold item with no substitute but the word itself (``IndexError``; the item scores 0),
an empty prediction line whose word has trailing white space (the script strips it and
finds no gold key, ``KeyError``; the item scores 0), a key with ``__`` in it that does
not split in two (``ValueError``; scored as any other item). A prediction line for an
item the gold does not have, or an empty prediction file, is refused (the script stops
too, and there is no figure to give).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, get_args

from scoring.benchmark import Report
from scoring.errors import FormatError
from scoring.formats.tsar import TsarLine, read_tsar
from scoring.signature import signature
from scoring.terms import normalise

DESCRIPTION = (
    "TSAR-2022 / MLSP-2024 lexical simplification: MAP@K, Potential@K and "
    "Accuracy@N@top_gold_1 as tsar_eval.py computes them"
)

Matching = Literal["raw", "fixed"]

MAP_K = (3, 5, 10)
POTENTIAL_K = (1, 3, 5, 10)
ACCURACY_N = (1, 2, 3)

METRICS = (
    "MAP@1/Potential@1/Precision@1",
    "MAP@3",
    "MAP@5",
    "MAP@10",
    "Potential@3",
    "Potential@5",
    "Potential@10",
    "Accuracy@1@top_gold_1",
    "Accuracy@2@top_gold_1",
    "Accuracy@3@top_gold_1",
)
"""The figures in the order ``tsar_eval.py`` prints them, under its names."""

FLOOR = 10000
"""The script prints each figure floored to 4 decimals."""


@dataclass(frozen=True, slots=True)
class GoldItem:
    """One gold item: its substitutes with their counts (in the order they first come)
    and where it was read."""

    counts: Mapping[str, int]
    location: str

    @property
    def top(self) -> tuple[str, ...]:
        """The most frequent substitutes (all of them when tied); none for an empty gold."""
        best = max(self.counts.values(), default=0)
        return tuple(key for key, count in self.counts.items() if count == best)


@dataclass(frozen=True, slots=True)
class Prediction:
    """One item's predictions, filtered as the script filters them, and its line."""

    key: str
    labels: tuple[str, ...]
    location: str


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One item's sufficient statistics: whether each first-N hits the top gold, whether
    each first-K hits the gold, and each AP@K divided by K."""

    accuracy: tuple[bool, ...]
    potential: tuple[bool, ...]
    map_terms: tuple[float, ...]


@dataclass(frozen=True)
class TsarScores:
    """The figures (fractions, unfloored), one row per item in the prediction file's
    order, and what the reader should know."""

    metrics: dict[str, float]
    rows: tuple[ItemRow, ...]
    notes: tuple[str, ...]


def key_form(term: str, matching: Matching) -> str:
    """A substitute, the word or a prediction as it is compared."""
    return term if matching == "raw" else normalise(term)


Keying = Callable[[TsarLine], str]
"""How a line names its item (``tsar_eval.py``: :attr:`TsarLine.key`)."""


def script_key(line: TsarLine) -> str:
    """``tsar_eval.py``'s key: ``SENTENCE__WORD`` as the line gives them."""
    return line.key


def gold_items(
    lines: Sequence[TsarLine],
    *,
    keep_word: bool = False,
    matching: Matching = "raw",
    keyed: Keying = script_key,
) -> dict[str, GoldItem]:
    """Each key's gold (the last line of a key wins), as the script counts it."""
    gold: dict[str, GoldItem] = {}
    for line in lines:
        word = key_form(line.word, matching)
        counts: dict[str, int] = {}
        for substitute in line.substitutes:
            key = key_form(substitute, matching)
            if (keep_word or key != word) and (matching == "raw" or key):
                counts[key] = counts.get(key, 0) + 1
        gold[keyed(line)] = GoldItem(counts, line.location)
    return gold


def predictions(
    lines: Sequence[TsarLine], matching: Matching = "raw", keyed: Keying = script_key
) -> dict[str, Prediction]:
    """Each key's predictions without the word (as the line writes it) and without
    repeats; a key keeps the place of its first line and the labels of its last."""
    result: dict[str, Prediction] = {}
    for line in lines:
        word = key_form(line.word, matching)
        labels: list[str] = []
        for label in (key_form(item, matching) for item in line.substitutes):
            if label not in labels and label != word and (matching == "raw" or label):
                labels.append(label)
        key = keyed(line)
        result[key] = Prediction(key, tuple(labels), line.location)
    return result


def average_precision_over_k(relevant: Sequence[bool], k: int) -> float:
    """The script's ``MAP_at_K``: the precision at each rank (of the first ``k``) holding
    a gold substitute, summed and divided by ``k``.

    >>> average_precision_over_k([True, False, True], 3)  # (1/1 + 2/3) / 3
    0.5555555555555555
    """
    found = 0
    total = 0.0
    for rank, hit in enumerate(relevant[:k], 1):
        if hit:
            found += 1
            total += found / rank
    return total / k


def item_row(labels: Sequence[str], gold: GoldItem) -> ItemRow:
    """The statistics of one item."""
    counts = gold.counts
    top = set(gold.top)
    relevant = [label in counts for label in labels]
    return ItemRow(
        accuracy=tuple(any(label in top for label in labels[:n]) for n in ACCURACY_N),
        potential=tuple(any(relevant[:k]) for k in POTENTIAL_K),
        map_terms=tuple(average_precision_over_k(relevant, k) for k in MAP_K),
    )


def corpus_metrics(rows: Sequence[ItemRow]) -> dict[str, float]:
    """The figures from the rows, summed in the file's order as the script sums them."""
    total = len(rows)
    potential = [sum(row.potential[i] for row in rows) / total for i in range(len(POTENTIAL_K))]
    accuracy = [sum(row.accuracy[i] for row in rows) / total for i in range(len(ACCURACY_N))]
    maps = []
    for i in range(len(MAP_K)):
        accumulated = 0.0
        for row in rows:
            accumulated += row.map_terms[i]
        maps.append(accumulated / total)
    values = [potential[0], *maps, *potential[1:], *accuracy]
    return dict(zip(METRICS, values, strict=True))


def _restored(line: TsarLine, gold: Mapping[str, GoldItem]) -> TsarLine | None:
    """An empty prediction line whose word lost its trailing white space to the script's
    strip, with the gold's word restored; None when no gold item has such a word."""
    if line.substitutes or line.key in gold:
        return None
    for key in gold:
        sentence, _, word = key.partition("__")
        if sentence == line.sentence and word != line.word and word.rstrip() == line.word:
            return TsarLine(line.sentence, word, (), line.location)
    return None


def score(
    gold_lines: Sequence[TsarLine],
    prediction_lines: Sequence[TsarLine],
    *,
    keep_word: bool = False,
    matching: Matching = "raw",
    prediction_name: str = "<predictions>",
) -> TsarScores:
    """Every figure of ``tsar_eval.py``. :class:`scoring.errors.FormatError` for an empty
    prediction file or a prediction line whose item is not in the gold (``FILE:LINE``)."""
    if not prediction_lines:
        raise FormatError([f"{prediction_name}: no prediction line (nothing to average over)"])
    gold = gold_items(gold_lines, keep_word=keep_word, matching=matching)
    notes: list[str] = []
    lines: list[TsarLine] = []
    for line in prediction_lines:
        restored = _restored(line, gold)
        if restored is not None:
            notes.append(
                f"{line.location}: an empty line whose word {restored.word!r} has trailing "
                "white space: tsar_eval.py strips it and stops here (KeyError); lexsub "
                "scores the item 0"
            )
        lines.append(restored or line)
    rows, found = scored_rows(gold, predictions(lines, matching))
    return TsarScores(corpus_metrics(rows), rows, (*notes, *found))


def scored_rows(
    gold: Mapping[str, GoldItem],
    predicted: Mapping[str, Prediction],
    script: str = "tsar_eval.py",
    gold_is: str = "no substitute but the word itself",
) -> tuple[tuple[ItemRow, ...], tuple[str, ...]]:
    """Each predicted item's row (in the prediction file's order) and the notes on where
    ``script`` would stop; :class:`scoring.errors.FormatError` naming ``FILE:LINE`` for
    each prediction whose key no gold item has. ``gold_is`` says what an empty gold
    item holds."""
    rows: list[ItemRow] = []
    notes: list[str] = []
    problems: list[str] = []
    for key, prediction in predicted.items():
        item = gold.get(key)
        if item is None:
            sentence, _, word = key.partition("__")
            problems.append(
                f"{prediction.location}: no gold item has sentence {sentence[:60]!r} and "
                f"word {word!r} (each prediction line names a gold item)"
            )
            continue
        if prediction.labels and not item.counts:
            notes.append(
                f"{prediction.location}: the gold item ({item.location}) has {gold_is}: "
                f"{script} stops here (IndexError); lexsub scores it 0"
            )
        if len(key.split("__")) != 2:
            notes.append(
                f"{prediction.location}: '__' in the sentence or word: {script} stops "
                "here (ValueError); lexsub scores the item as any other"
            )
        rows.append(item_row(prediction.labels, item))
    if problems:
        raise FormatError(problems)
    return tuple(rows), tuple(notes)


def floored(value: float) -> float:
    """A figure as the script prints it: floored to 4 decimals."""
    return math.floor(value * FLOOR) / FLOOR


def text_of(metrics: Mapping[str, float]) -> str:
    """The results as ``tsar_eval.py`` prints them (its groups and blank lines), floored."""
    groups = (METRICS[:1], METRICS[1:4], METRICS[4:7], METRICS[7:])
    blocks = ["\n".join(f"{name} = {floored(metrics[name])}" for name in group) for group in groups]
    return "\n\n".join(blocks) + "\n\n"


def tsar_signature(matching: Matching, keep_word: bool) -> str:
    return signature(
        "tsar",
        ("matching", matching),
        ("gold-word", "keep" if keep_word else "drop"),
        ("items", "prediction-lines"),
        ("map", "sum-over-k"),
    )


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--matching",
        choices=get_args(Matching),
        default="raw",
        help="raw: exact strings, as tsar_eval.py compares them (default); fixed: gold, "
        "word and predictions through the one normaliser",
    )
    parser.add_argument(
        "--gold-word",
        choices=("drop", "keep"),
        default="drop",
        help="drop the complex word from the gold (TSAR-2022, default) or keep it "
        "(MLSP-2024's flagUseComplexWordsInGoldAnnotations = True)",
    )


def evaluate_files(
    system: str | Path,
    data: str | Path,
    *,
    matching: Matching = "raw",
    gold_word: Literal["drop", "keep"] = "drop",
) -> Report:
    """``lexsub benchmark tsar SYSTEM --data GOLD [--matching M] [--gold-word W]``: the
    predictions at ``system`` against the TSAR gold at ``data``, as ``tsar_eval.py``
    scores them."""
    keep_word = gold_word == "keep"
    scores = score(
        read_tsar(data),
        read_tsar(system),
        keep_word=keep_word,
        matching=matching,
        prediction_name=str(system),
    )
    return Report(
        "tsar",
        scores.metrics,
        tsar_signature(matching, keep_word),
        scores.notes,
        text=text_of(scores.metrics),
    )


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files` with its options."""
    return evaluate_files(args.system, args.data, matching=args.matching, gold_word=args.gold_word)
