"""Systems built from a SWORDS dataset's own substitutes, for the parity tests of
:mod:`scoring.benchmark.swords` against SWORDS' ``evaluate`` (tests/test_benchmark_swords.py
holds the figures SWORDS' code printed for each on the real dev and test data).

Each builder takes the decoded dataset JSON and returns a SWORDS result JSON object.
``python -m tests.swords_systems DATASET OUT_DIR`` writes all of them (how the reference
run got its inputs).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Result = dict[str, Any]


def _by_target(data: dict[str, Any]) -> dict[str, list[tuple[str, str, list[str]]]]:
    """target id → its (substitute id, substitute, labels), targets and substitutes by id."""
    table: dict[str, list[tuple[str, str, list[str]]]] = {
        tid: [] for tid in sorted(data["targets"])
    }
    for sid in sorted(data["substitutes"]):
        sub = data["substitutes"][sid]
        table[sub["target_id"]].append((sid, sub["substitute"], data["substitute_labels"][sid]))
    return table


def _share(labels: list[str]) -> float:
    return labels.count("TRUE") / len(labels)


def labelled(data: dict[str, Any]) -> Result:
    """Every data substitute scored by its share of TRUE labels (UNSURE counted in the
    denominator): a near-oracle with many ties."""
    return {
        "substitutes_lemmatized": True,
        "substitutes": {
            tid: [[sub, _share(labels)] for _, sub, labels in subs]
            for tid, subs in _by_target(data).items()
        },
    }


def shuffled(data: dict[str, Any]) -> Result:
    """The same substitutes in an order shuffled with seed 2021, scores rounded to one
    decimal (ties broken by that order)."""
    rng = random.Random(2021)
    out: dict[str, list[list[Any]]] = {}
    for tid, subs in _by_target(data).items():
        entries = [[sub, round(_share(labels), 1)] for _, sub, labels in subs]
        rng.shuffle(entries)
        out[tid] = entries
    return {"substitutes_lemmatized": True, "substitutes": out}


def coinco_only(data: dict[str, Any]) -> Result:
    """Only the substitutes that came from CoInCo, as bare strings in alphabetical order
    (SWORDS scores the i-th -i); targets with none are left out (the system abstains)."""
    out: dict[str, list[str]] = {}
    for tid, subs in _by_target(data).items():
        words = sorted(
            sub
            for sid, sub, _ in subs
            if "coinco" in data["substitutes"][sid].get("extra", {}).get("sources", [])
        )
        if words:
            out[tid] = words
    return {"substitutes_lemmatized": True, "substitutes": out}


_ENDINGS = {"NOUN": ("s", "es"), "VERB": ("s", "ed", "ing"), "ADJ": ("er", ""), "ADV": ("",)}


def inflected(data: dict[str, Any]) -> Result:
    """Not lemmatised: the substitutes with a TRUE label, best first, inflected by the
    target's PoS (plural nouns, verbs in -s/-ed/-ing, adjectives in -er), the first also
    capitalised and padded with spaces, the target's own word on top, a non-word at score
    1.5; every seventh target left out."""
    out: dict[str, list[list[Any]]] = {}
    for number, (tid, subs) in enumerate(_by_target(data).items()):
        if number % 7 == 3:
            continue
        target = data["targets"][tid]
        endings = _ENDINGS.get(target["pos"], ("",))
        good = sorted(
            ((labels.count("TRUE"), sub) for _, sub, labels in subs if "TRUE" in labels),
            key=lambda pair: (-pair[0], pair[1]),
        )
        entries: list[list[Any]] = [[target["target"], 99.0], ["zzyzx", 1.5]]
        for place, (count, sub) in enumerate(good):
            entries.append([sub + endings[place % len(endings)], float(count)])
        if good:
            entries.append([f" {good[0][1].capitalize()} ", float(good[0][0]) - 0.5])
            entries.append([good[0][1], 0.0])
        out[tid] = entries
    return {"substitutes_lemmatized": False, "substitutes": out}


def implicit_counts(data: dict[str, Any]) -> Result:
    """For a dataset made by ``gold-to-swords``: every substitute scored by its number of
    TRUE_IMPLICIT labels (the annotators who gave it), in substitute-id order."""
    out: dict[str, list[list[Any]]] = {}
    for sid in sorted(data["substitutes"]):
        sub = data["substitutes"][sid]
        count = data["substitute_labels"][sid].count("TRUE_IMPLICIT")
        out.setdefault(sub["target_id"], []).append([sub["substitute"], count])
    return {"substitutes_lemmatized": False, "substitutes": out}


SYSTEMS: dict[str, Callable[[dict[str, Any]], Result]] = {
    "labelled": labelled,
    "shuffled": shuffled,
    "coinco_only": coinco_only,
    "inflected": inflected,
}


def main(argv: list[str]) -> int:
    import gzip

    dataset, out = Path(argv[0]), Path(argv[1])
    with gzip.open(dataset, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    out.mkdir(parents=True, exist_ok=True)
    split = dataset.name.split("_")[-1].split(".")[0]
    for name, build in SYSTEMS.items():
        (out / f"{split}_{name}.json").write_text(json.dumps(build(data)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
