"""The SWORDS judgements (Lee et al. 2021, release v1.1) as a finished round:
every substitute of a target is a candidate of the item named by the target's
id, each of its labels (TRUE, FALSE, UNSURE) a judgement, and its ``extra.sources`` its
origin: ``coinco`` (the CoInCo annotators' substitutes) becomes ``"human"``, any other
source (``roget``, the thesaurus) keeps its name, so Table 11's ``origA`` row is the
CoInCo substitutes and its ``sys`` row the thesaurus'.

The file says which labels a substitute got, not which rater gave them (raters are
exchangeable, :mod:`scoring.agreement.swords`), so the judges are named by position,
``r01`` to ``r10``: the figures over all judges (Fleiss' kappa, alpha, the verdicts and
tables) are meaningful, those of one judge or one pair of judges are not. The file is
read and checked by :func:`scoring.formats.swords.parse_swords`.

``python -m scoring.judgements.swords SWORDS_FILE --out FILE`` writes the round as a
judgements file for ``lexsub judgements FILE --labels swords``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.errors import FormatError
from scoring.formats.judgements import HUMAN, Judgement, judgement_line
from scoring.formats.swords import load_json, parse_swords

HUMAN_SOURCE = "coinco"


def origin_of(sources: Any, where: str) -> tuple[str, ...]:
    """``extra.sources`` as an origin (``coinco`` → ``human``), sorted."""
    if (
        not isinstance(sources, list)
        or not sources
        or not all(isinstance(s, str) and s for s in sources)
    ):
        raise FormatError([f"{where}: extra.sources {sources!r} is not a list of names"])
    return tuple(sorted({HUMAN if s == HUMAN_SOURCE else s for s in sources}))


def swords_judgements(data: Any, name: str = "<swords>") -> tuple[Judgement, ...]:
    """The judgements of a decoded SWORDS file, by target id, substitute and rater."""
    parsed = parse_swords(data, name)
    found: list[Judgement] = []
    for substitute in parsed.substitutes:
        extra = data["substitutes"][substitute.id].get("extra") or {}
        origin = origin_of(extra.get("sources"), f"{name}: substitutes {substitute.id}")
        found.extend(
            Judgement(substitute.target_id, substitute.substitute, f"r{rater:02d}", label, origin)
            for rater, label in enumerate(substitute.labels, 1)
        )
    return tuple(found)


def read_swords_judgements(path: str | Path) -> tuple[Judgement, ...]:
    """:func:`swords_judgements` of a file, gunzipped when its name ends in ``.gz``."""
    return swords_judgements(load_json(path), str(path))


def main(argv: Sequence[str] | None = None) -> int:
    parser = ArgumentParser(
        prog="python -m scoring.judgements.swords",
        description="Write the SWORDS judgements as a judgements file (JSON Lines).",
    )
    parser.add_argument("swords", metavar="SWORDS_FILE")
    parser.add_argument("--out", required=True, metavar="FILE")
    options = parser.parse_args(argv)
    try:
        judgements = read_swords_judgements(options.swords)
        with open(options.out, "w", encoding="utf-8") as handle:
            for judgement in judgements:
                handle.write(judgement_line(judgement) + "\n")
    except FAILURES as error:
        return fail(describe(error))
    print(f"wrote {len(judgements)} judgements to {options.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
