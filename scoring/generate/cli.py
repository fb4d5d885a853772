"""``lexsub generate wordnet --data INPUT --format best|oot|ranked|tsar --out FILE``: run a
system lexsub knows on the items of INPUT (the task's XML, or a TSAR-2022 / MLSP-2024
file) and write its answers in a format ``lexsub score``, ``lexsub compare`` and ``lexsub
benchmark`` read unchanged.

Exit status: 0 done, 1 bad input or a missing package (one line ``Error: …``), 2 usage.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.generate.items import FORMATS, format_answers, read_items, write_answers


def parser() -> ArgumentParser:
    result = ArgumentParser(
        prog="lexsub generate",
        command="lexsub-generate",
        description="Run a system lexsub knows and write its answers.",
    )
    systems = result.add_subparsers(dest="system", required=True, metavar="SYSTEM")
    wordnet = systems.add_parser(
        "wordnet",
        help="the WordNet baseline of McCarthy & Navigli (2009)",
        description="The WordNet baseline of McCarthy & Navigli (2009, section 2.5): the "
        "synonyms of the first synset, then of its hypernyms or similar adjectives, then of "
        "all synsets, then of their hypernyms, each ranked by frequency (WordNet 3.0 and "
        "wordfreq stand in for WordNet 2.1 and the BNC).",
    )
    wordnet.add_argument(
        "--data", required=True, metavar="INPUT", help="the task's XML or a TSAR/MLSP file"
    )
    wordnet.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    wordnet.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    return result


def run(argv: Sequence[str]) -> int:
    """Run the command; returns the exit status."""
    args = parser().parse_args(argv)
    started = time.perf_counter()
    from scoring.benchmark.wordnet import WordNetMissing
    from scoring.generate.wordnet import MissingFrequencies, english_frequency, generate

    try:
        frequency = english_frequency()
        items = read_items(args.data)
        answers = generate(items, frequency)
        write_answers(args.out, format_answers(items, answers, args.format))
    except (MissingFrequencies, WordNetMissing) as error:
        return fail(str(error))
    except FAILURES as error:
        return fail(describe(error))
    answered = sum(1 for found in answers if found)
    print(
        f"wordnet: {answered} of {len(items)} items answered, {args.format} file {args.out} "
        f"({time.perf_counter() - started:.1f} s)"
    )
    return 0


def main() -> None:
    raise SystemExit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
