"""``lexsub benchmark coinco SYSTEM --data coinco.xml[.gz]``: CoInCo (Kremer et
al. 2014) in the candidate-ranking setting (GAP over each target's pooled gold
candidates) and the generation setting (LexSubGen's P@k, R@k and F1@k for k = 1, 3, 10):
:mod:`scoring.benchmark.candidates`.

The items are CoInCo's target tokens read by :func:`scoring.formats.coinco.read_coinco`, turned
into gold items as Melamud's converter (``orenmel/lexsub``,
``jcs/evaluation/lst/coinco2lst_converter.py``) turns them into the task's gold format,
the form LexSubGen's CoInCo files have: only tokens with ``problematic="no"``; the
substitutes sorted by (freq, lemma) in decreasing order; a ``;`` inside a lemma written
``,``. A system line names the item ``LEMMA.POS ID`` with the target's lemma (spaces
as ``_``; the word form where the lemma makes no lexelt), POS from the first letter of
``posMASC`` (N → n, V → v, J → a, R → r) and the token's ``id``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Unpack

from scoring.benchmark import Report
from scoring.benchmark.candidates import (
    BenchmarkItem,
    CandidateOptions,
    add_options,
    evaluate_items,
    option_keywords,
)
from scoring.formats.coinco import CoincoTarget, read_coinco
from scoring.formats.keys import joined
from scoring.types import LEXELT

DESCRIPTION = (
    "CoInCo: GAP over the pooled candidates (Melamud's or LexSubGen's convention) or "
    "P@k, R@k, F1@k (k = 1, 3, 10) of generated substitutes (LexSubGen's)"
)

MASC_POS = {"N": "n", "V": "v", "J": "a", "R": "r"}
"""The first letter of a MASC (Penn) tag → the task's PoS letter."""


def lexelt_of(target: CoincoTarget, name: str = "<coinco>") -> str:
    """``LEMMA.POS`` of a target (spaces in the lemma as ``_``); where that is not a
    lexelt (one target, id 14925, has the lemma ``.``) the word form stands for the
    lemma."""
    pos = MASC_POS.get(target.pos_masc[:1])
    if pos is None:
        raise ValueError(
            f"{name}: token {target.id}: posMASC {target.pos_masc!r} does not start with "
            f"one of {', '.join(MASC_POS)} (noun, verb, adjective, adverb)"
        )
    for word in (target.lemma, target.token.wordform):
        lexelt = joined(word) + "." + pos
        if LEXELT.fullmatch(lexelt):
            return lexelt
    raise ValueError(
        f"{name}: token {target.id}: neither lemma {target.lemma!r} nor word form "
        f"{target.token.wordform!r} makes a lexelt LEMMA.POS"
    )


def coinco_items(
    targets: Sequence[CoincoTarget], name: str = "<coinco>"
) -> tuple[BenchmarkItem, ...]:
    """The benchmark's items: the unproblematic targets, gold entries in the converter's
    order."""
    items = []
    for target in targets:
        if target.problematic:
            continue
        ranked = sorted(
            ((sub.freq, sub.lemma.replace(";", ",")) for sub in target.substitutes), reverse=True
        )
        entries = tuple((lemma, freq) for freq, lemma in ranked)
        items.append(
            BenchmarkItem(lexelt_of(target, name), target.id, entries, f"{name}: token {target.id}")
        )
    return tuple(items)


def configure(parser: argparse.ArgumentParser) -> None:
    add_options(parser)


def evaluate_files(
    system: str | Path, data: str | Path, **options: Unpack[CandidateOptions]
) -> Report:
    """``lexsub benchmark coinco SYSTEM --data DATA``: the system file at ``system`` scored
    on the data at ``data`` (CoInCo's XML, gzipped or not); the keywords are the command's options
    (:func:`scoring.benchmark.candidates.add_options`)."""
    items = coinco_items(read_coinco(data), str(data))
    return evaluate_items(
        "coinco",
        items,
        "coinco-xml",
        system,
        **options,
    )


def evaluate(args: argparse.Namespace) -> Report:
    """The command: :func:`evaluate_files` with its options."""
    return evaluate_files(args.system, args.data, **option_keywords(args))
