"""Benchmark of the gold compiler: ``python -m annotate.compile`` on 1,000,000 responses.

What it measures
----------------
The whole command as an organiser runs it, interpreter start included: reading and
checking the JSON Lines, normalising, lemmatising with LemmInflect, aggregating and
writing ``gold``, ``mwgold``, ``annotators.jsonl`` and ``summary.json``. Wall time is the
best of ``--repeat`` runs; peak memory the child's largest maximum resident set size
(``os.wait4``). Targets: under 60 s and under 1 GB at 1,000,000 responses.

Input
-----
The real test gold (``../shared/data/semeval2007/test/gold``) split into five annotators'
responses (:func:`annotate.gold.split.split_gold`), repeated with new numeric ids until
there are ``--instances`` instances (default 200,000, so 1,000,000 responses), written
once into a temporary folder (or ``--out DIR``; ``bench/out`` is git-ignored). Every
line of the real gold has an entry, so the output must have one gold line per instance:
the benchmark checks it and fails (exit 1) otherwise, as it does when a target is missed.

German (``--language de``)
-------------------------
The same responses with every substitute and multiword made German: each distinct
(substitute, word) pair of the split gold is given, by a hash of the pair, one of the
German forms we wrote and checked by hand (``tests/data/lemmas_de.tsv``, typed and gold
forms of the word's part of speech, phrases for multiwords), written as it is, all small
or all capitals, so that the lemmatiser (simplemma), the German rules and the case
folding all have work; compiled with ``--language de``. Same targets.

How to run (from the repository root)
-------------------------------------
::

    .venv/bin/python -m bench.compile_bench
    .venv/bin/python -m bench.compile_bench --language de
    .venv/bin/python -m bench.compile_bench --instances 20000 --repeat 1   # quick
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

from annotate.gold.split import split_gold
from bench.lemmatiser_compare import read_forms
from scoring.formats.responses import Response, write_responses
from scoring.formats.text import read_lines

REPO = Path(__file__).resolve().parent.parent

GOLD = REPO.parent / "shared" / "data" / "semeval2007" / "test" / "gold"
TARGET_SECONDS = 60.0
TARGET_BYTES = 1 << 30


class German:
    """Deterministic German forms for the split gold's substitutes (see the docstring)."""

    def __init__(self) -> None:
        words: dict[str, list[str]] = {}
        phrases: list[str] = []
        for form in read_forms("de"):
            for text in (form.typed, form.gold):
                if " " in text:
                    phrases.append(text)
                else:
                    words.setdefault(form.pos, []).append(text)
        words["r"] = words["a"]  # adverbs: adjectives' forms (adverbs are not lemmatised)
        self.words = {pos: sorted(set(forms)) for pos, forms in words.items()}
        self.phrases = sorted(set(phrases))

    @staticmethod
    def _number(*parts: str) -> int:
        digest = hashlib.blake2b("\t".join(parts).encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def form(self, text: str, lexelt: str, phrase: bool = False) -> str:
        number = self._number(text, lexelt)
        pool = self.phrases if phrase else self.words[lexelt.rsplit(".", 1)[-1]]
        chosen = pool[number % len(pool)]
        variant = (number // len(pool)) % 4
        return chosen.lower() if variant == 1 else chosen.upper() if variant == 2 else chosen

    def response(self, response: Response) -> Response:
        lexelt = response.lexelt
        substitutes = tuple(dict.fromkeys(self.form(text, lexelt) for text in response.substitutes))
        multiword = response.multiword
        return replace(
            response,
            substitutes=substitutes,
            multiword=None if multiword is None else self.form(multiword, lexelt, phrase=True),
        )


def build(path: Path, instances: int, language: str = "en") -> None:
    """Write ``instances`` instances (5 responses each) cycled over the split test gold,
    ids 1..instances (``language`` de: made German)."""
    split = split_gold(read_lines(GOLD), str(GOLD))
    by_item: dict[str, list[Response]] = {}
    german = German() if language == "de" else None
    for response in split.responses:
        made = german.response(response) if german else response
        by_item.setdefault(response.instance, []).append(made)
    groups = list(by_item.values())

    def responses() -> Iterator[Response]:
        for number in range(instances):
            for response in groups[number % len(groups)]:
                yield replace(response, instance=str(number + 1))

    write_responses(path, responses())


def run_once(responses: Path, out: Path, extra: Sequence[str]) -> tuple[float, int, str]:
    """One run of the command: wall seconds, peak RSS in bytes, its summary line."""
    command = [sys.executable, "-m", "annotate.compile", str(responses), "--out", str(out), *extra]
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    assert child.stdout is not None and child.stderr is not None
    stdout, stderr = child.stdout.read().decode(), child.stderr.read().decode()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"compile failed ({child.returncode}): {stderr}")
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB else
    return wall, usage.ru_maxrss * scale, stdout.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else "")
    parser.add_argument("--instances", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="folder for the input and outputs")
    parser.add_argument("--no-lemmatise", action="store_true")
    parser.add_argument("--language", choices=("en", "de"), default="en")
    args = parser.parse_args(argv)
    if not GOLD.exists():
        print(f"needs {GOLD}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.out or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        responses = folder / "responses.jsonl"
        start = time.perf_counter()
        build(responses, args.instances, args.language)
        size = responses.stat().st_size
        print(
            f"input: {args.instances:,} instances x 5 = {args.instances * 5:,} responses, "
            f"{size / 1e6:.1f} MB, built in {time.perf_counter() - start:.1f} s"
        )
        extra = ["--no-lemmatise"] if args.no_lemmatise else []
        if args.language != "en":
            extra += ["--language", args.language]
        runs = [run_once(responses, folder / "compiled", extra) for _ in range(args.repeat)]
        wall = min(run[0] for run in runs)
        peak = max(run[1] for run in runs)
        lines = sum(1 for _ in (folder / "compiled" / "gold").open(encoding="utf-8"))
    print(
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} CPUs; language {args.language}; {runs[0][2]}"
    )
    print(
        f"gold lines written: {lines:,} ({'OK' if lines == args.instances else 'WRONG'}: "
        f"one per instance)"
    )
    print(
        f"wall time (best of {args.repeat}): {wall:.2f} s (target < {TARGET_SECONDS:.0f} s)"
        f" {'OK' if wall < TARGET_SECONDS else 'MISSED'}"
    )
    print(
        f"peak memory (max RSS): {peak / 2**20:.0f} MiB (target < 1 GiB) "
        f"{'OK' if peak < TARGET_BYTES else 'MISSED'}"
    )
    return 0 if wall < TARGET_SECONDS and peak < TARGET_BYTES and lines == args.instances else 1


if __name__ == "__main__":
    raise SystemExit(main())
