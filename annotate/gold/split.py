"""Split a gold file back into plausible annotators' responses (for tests and benchmarks).

The task published counts, not responses. This rebuilds one set of responses that gives
those counts back: ``n`` annotators (five, as in the task), each giving at most
``max_substitutes`` (three), a substitute at most once; ``pn N`` becomes N annotators
answering ``name``; an annotator with nothing else answers ``nil``.

Entries whose forms are equal under ``key`` (normalisation by default: ``garden`` and
``garden `` with a trailing space) count as one substitute for the at-most-once rule, so
they go to different annotators and normalising adds their counts, as it would have for
the task. Round robin over the substitute-giving annotators, the entries laid out by
count (descending) and key, gives every annotator at most ceil(total / m) substitutes and
the copies of one key to different annotators; so an item can be split exactly when no
key is given more than m times and the total is at most ``max_substitutes`` * m (m = n - N).
Items that cannot are reported, not split. The start of the round robin turns by one
annotator from item to item, so that the load is shared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.files.bounded import read_text
from scoring.formats.gold import GoldLineAsWritten, read_gold_as_written
from scoring.formats.responses import Response, write_responses
from scoring.formats.text import split_lines
from scoring.substitute import normalise
from scoring.types import AnswerKind

ANNOTATORS = ("h1", "h2", "h3", "h4", "h5")
STAMP = "2007-01-01T00:00:00+00:00"


@dataclass(frozen=True, slots=True)
class SplitProblem:
    """An item that cannot be split under the rules, and why."""

    lexelt: str
    instance: str
    line: int
    reason: str


@dataclass(frozen=True)
class Split:
    responses: tuple[Response, ...]
    problems: tuple[SplitProblem, ...]


def _problem(
    item: GoldLineAsWritten, groups: Mapping[str, int], givers: int, most: int, annotators: int
) -> str | None:
    if item.names > annotators:
        return f"pn {item.names}: more name answers than {annotators} annotators"
    for form, count in groups.items():
        if count > givers:
            return f"{form!r} given {count} times; only {givers} annotators answer with substitutes"
    total = sum(groups.values())
    if total > most * givers:
        return f"{total} substitutes; {givers} annotators give at most {most} each"
    return None


def split_item(
    item: GoldLineAsWritten,
    annotators: Sequence[str],
    turn: int,
    max_substitutes: int = 3,
    key: Callable[[str], str] = normalise,
    multiwords: Sequence[tuple[str, int]] = (),
) -> tuple[Response, ...] | str:
    """The responses of one item, or why it cannot be split."""
    keyed = [
        (key(substitute) or substitute, substitute, count) for substitute, count in item.entries
    ]
    groups: dict[str, int] = {}
    for form, _, count in keyed:
        groups[form] = groups.get(form, 0) + count
    turned = [*annotators[turn:], *annotators[:turn]]
    givers = turned[: len(turned) - item.names]
    problem = _problem(item, groups, len(givers), max_substitutes, len(annotators))
    if problem is None and sum(count for _, count in multiwords) > len(annotators):
        problem = "more multiword answers than annotators (one each)"
    if problem is not None:
        return problem
    keyed.sort(key=lambda entry: (-groups[entry[0]], entry[0], entry[1]))
    given: dict[str, list[str]] = {name: [] for name in annotators}
    laid_out = [substitute for _, substitute, count in keyed for _ in range(count)]
    for position, substitute in enumerate(laid_out):
        given[givers[position % len(givers)]].append(substitute)
    said: dict[str, str] = {}
    queue = [multiword for multiword, count in multiwords for _ in range(count)]
    for name, multiword in zip(turned, queue, strict=False):
        said[name] = multiword
    named = set(turned[len(givers) :])
    responses = []
    for name in annotators:
        kind: AnswerKind = "name" if name in named else "substitutes" if given[name] else "nil"
        responses.append(
            Response(
                name,
                item.lexelt,
                item.instance,
                kind,
                tuple(given[name]),
                said.get(name),
                False,
                STAMP,
            )
        )
    return tuple(responses)


def split_gold(
    lines: Sequence[str],
    name: str = "<gold>",
    annotators: Sequence[str] = ANNOTATORS,
    max_substitutes: int = 3,
    key: Callable[[str], str] = normalise,
    multiwords: Mapping[str, Sequence[tuple[str, int]]] | None = None,
) -> Split:
    """Split every line of a gold file (see the module's docstring); ``multiwords`` maps
    an instance id to its multiwords and how many annotators gave each (an mwgold file)."""
    responses: list[Response] = []
    problems: list[SplitProblem] = []
    for number, item in enumerate(read_gold_as_written(lines, name)):
        split = split_item(
            item,
            annotators,
            number % len(annotators),
            max_substitutes,
            key,
            (multiwords or {}).get(item.instance, ()),
        )
        if isinstance(split, str):
            problems.append(SplitProblem(item.lexelt, item.instance, item.line, split))
        else:
            responses.extend(split)
    return Split(tuple(responses), tuple(problems))


def read_multiwords(path: str | Path) -> dict[str, tuple[tuple[str, int], ...]]:
    """An mwgold file as instance id → multiwords and counts."""
    lines = split_lines(read_text(path))
    return {item.instance: item.entries for item in read_gold_as_written(lines, str(path))}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m annotate.gold.split GOLD OUT.jsonl [--mwgold FILE]``"""
    parser = ArgumentParser(
        prog="python -m annotate.gold.split",
        description="Split a gold file into 5 annotators' responses (JSON Lines).",
    )
    parser.add_argument("gold")
    parser.add_argument("out")
    parser.add_argument("--mwgold")
    args = parser.parse_args(argv)
    try:
        multiwords = read_multiwords(args.mwgold) if args.mwgold else None
        split = split_gold(split_lines(read_text(args.gold)), args.gold, multiwords=multiwords)
    except FAILURES as error:
        return fail(describe(error))
    for problem in split.problems:
        print(f"{args.gold}:{problem.line}: {problem.lexelt} {problem.instance}: {problem.reason}")
    count = write_responses(args.out, split.responses)
    print(f"{count} responses written to {args.out}; {len(split.problems)} items not split")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
