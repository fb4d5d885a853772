"""``lexsub generate wordnet --data INPUT --format best|oot|ranked|tsar --out FILE`` and
``lexsub generate llm --base-url URL --model NAME --data INPUT --format … --out FILE``: run a
system lexsub knows (the WordNet baseline, or a language model behind any OpenAI-compatible
endpoint, :mod:`annotate.generate.llm`) on the items of INPUT (the task's XML, or a
TSAR-2022 / MLSP-2024 file) and write its answers in a format ``lexsub score``, ``lexsub
compare`` and ``lexsub benchmark`` read unchanged.

Exit status: 0 done, 1 bad input or a missing package (one line ``Error: …``), 2 usage.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

from annotate.generate.items import FORMATS, format_answers, read_items, write_answers
from scoring.command import FAILURES, ArgumentParser, describe, fail


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
        "wordfreq stand in for WordNet 2.1 and the BNC). A provenance file is written beside "
        "the output (FILE.provenance.json).",
    )
    wordnet.add_argument(
        "--data", required=True, metavar="INPUT", help="the task's XML or a TSAR/MLSP file"
    )
    wordnet.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    wordnet.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    add_llm_parser(systems)
    return result


def add_llm_parser(systems: Any) -> None:
    """``lexsub generate llm``'s options."""
    from annotate.generate.client import KEY_VARIABLE
    from annotate.generate.prompt import TASKS

    llm = systems.add_parser(
        "llm",
        help="a language model behind an OpenAI-compatible endpoint",
        description="Ask a language model behind any OpenAI-compatible chat endpoint "
        "(Ollama, vLLM, llama.cpp's server, LM Studio, OpenAI) for each item's substitutes. "
        f"The API key, if the endpoint needs one, is read from {KEY_VARIABLE}. Replies are "
        "cached: a second run makes no request. A provenance file is written beside the "
        "output (FILE.provenance.json).",
    )
    llm.add_argument(
        "--base-url", required=True, metavar="URL", help="e.g. http://localhost:11434/v1"
    )
    llm.add_argument("--model", required=True, metavar="NAME", help="as the endpoint lists it")
    llm.add_argument(
        "--data", required=True, metavar="INPUT", help="the task's XML or a TSAR/MLSP file"
    )
    llm.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    llm.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    llm.add_argument(
        "--prompt",
        metavar="FILE",
        help="a Jinja template (variables: sentence, target, language); default: lexsub's "
        "substitution prompt for the task's XML, its simplification prompt for TSAR/MLSP",
    )
    llm.add_argument(
        "--task", choices=TASKS, help="which default prompt (default: from the input's kind)"
    )
    llm.add_argument(
        "--language", default="en", metavar="CODE", help="ISO 639-1 code (default: en)"
    )
    llm.add_argument(
        "--samples", type=positive, default=1, metavar="K", help="ask each item K times"
    )
    llm.add_argument(
        "--temperature",
        type=float,
        help="default 0 with one sample, 0.8 with several",
    )
    llm.add_argument("--seed", type=int, help="sent to the endpoint (seed + k for sample k)")
    llm.add_argument("--max-tokens", type=positive, default=256, metavar="N")
    llm.add_argument(
        "--concurrency", type=positive, default=8, metavar="N", help="requests in flight"
    )
    llm.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS", help="per request")
    llm.add_argument(
        "--cache", metavar="DIR", help="where replies are kept (default: the user's cache)"
    )


def positive(text: str) -> int:
    """A whole number of at least 1 (argparse's type)."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not at least 1")
    return value


def run(argv: Sequence[str]) -> int:
    """Run the command; returns the exit status."""
    args = parser().parse_args(argv)
    if args.system == "llm":
        from annotate.generate.llm_cli import run_llm

        return run_llm(args)
    started = time.perf_counter()
    from annotate.generate.llm import write_provenance
    from annotate.generate.wordnet import (
        MissingFrequencies,
        english_frequency,
        generate,
        provenance,
    )
    from scoring.benchmark.wordnet import WordNetMissing

    try:
        frequency = english_frequency()
        items = read_items(args.data)
        answers = generate(items, frequency)
        write_answers(args.out, format_answers(items, answers, args.format))
        answered = sum(1 for found in answers if found)
        seconds = time.perf_counter() - started
        write_provenance(
            args.out, provenance(args.data, args.format, len(items), answered, seconds)
        )
    except (MissingFrequencies, WordNetMissing) as error:
        return fail(str(error))
    except FAILURES as error:
        return fail(describe(error))
    print(
        f"wordnet: {answered} of {len(items)} items answered, {args.format} file {args.out} "
        f"({seconds:.1f} s; provenance {args.out}.provenance.json)"
    )
    return 0


def main() -> None:
    raise SystemExit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
