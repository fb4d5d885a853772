"""``lexsub compile RESPONSES_FILE --out DIR`` or ``lexsub compile --dataset NAME --out
DIR``: compile a gold from responses, read from a file or from the app's database.

From a file, it reads the responses exported as JSON Lines (see
:mod:`scoring.formats.responses`), compiles them (:func:`annotate.gold.compile_responses`)
and writes ``gold``, ``mwgold``, ``annotators.jsonl`` and ``summary.json`` into DIR
(:mod:`annotate.gold.write`).

Options:

``--no-normalise``        keep substitutes as typed (no NFC, trimming, lower case ...)
``--no-lemmatise``        do not lemmatise
``--decisions FILE``      the organiser's lemma decisions (JSON, see annotate.gold.decisions)
``--t-rule annotators|responses``  T: two annotators with substitutes (default) or two
                          responses in H_i
``--only-t``              write only the items in T to ``gold``
``--exclude ANNOTATOR[=REASON]``  leave the annotator's responses out (repeatable); the
                          reason goes into ``summary.json``'s ``excluded``, and the
                          signature ends in ``|excluded:N``
``--include-models``      compile the answers of model annotators (``llm:MODEL``, see
                          ``lexsub llm-annotate``) too; by default they are left out
``--language CODE``       the study's language, ISO 639-1 (default ``en``): English keeps
                          LemmInflect and its rules; other languages simplemma and their
                          own rules (annotate.gold.languages), case folded when counting

``--dataset NAME``        compile the app's dataset instead of a file, with its stored lemma
                          decisions, language and exclusions (and ``--keep-checks``), on
                          the database ``--database-url`` or ``DATABASE_URL`` names

Exit status: 0 done, 1 bad input (every problem is printed as ``FILE:LINE: …``), 2 usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from annotate.gold.aggregate import T_RULES
from annotate.gold.compiler import CompileOptions, compile_responses
from annotate.gold.decisions import NO_DECISIONS, Decisions, read_decisions
from annotate.gold.lemmatisers import kept_as_typed
from annotate.gold.review import pending_changes
from annotate.gold.write import write_outputs
from scoring.command import FAILURES, ArgumentParser, describe, fail
from scoring.formats.exclusions import exclusion_argument
from scoring.formats.language import ALIASES
from scoring.formats.responses import iter_responses
from scoring.formats.sniff import file_mixup


def parser() -> argparse.ArgumentParser:
    result = ArgumentParser(
        prog="lexsub compile",
        command="lexsub-compile",
        description="Compile gold, mwgold, per-annotator responses and a summary from a "
        "responses file, or from a dataset of the app's database (--dataset).",
    )
    result.add_argument(
        "responses", metavar="RESPONSES_FILE", nargs="?", help="responses (JSON Lines)"
    )
    result.add_argument(
        "--dataset", metavar="NAME", help="compile this dataset of the app's database instead"
    )
    result.add_argument(
        "--database-url",
        metavar="URL",
        help="with --dataset: the database (default: DATABASE_URL, else the instance folder)",
    )
    result.add_argument(
        "--keep-checks",
        action="store_true",
        help="with --dataset: keep the attention-check sentences",
    )
    result.add_argument("--out", required=True, metavar="DIR", help="folder for the files")
    result.add_argument("--no-normalise", action="store_true", help="keep forms as typed")
    result.add_argument("--no-lemmatise", action="store_true", help="do not lemmatise")
    result.add_argument("--decisions", metavar="FILE", help="organiser lemma decisions (JSON)")
    result.add_argument(
        "--t-rule",
        choices=T_RULES,
        default="annotators",
        help="T: two annotators (default) or two responses",
    )
    result.add_argument("--only-t", action="store_true", help="write only items in T to gold")
    result.add_argument(
        "--language",
        type=language_code,
        default="en",
        metavar="CODE",
        help="the study's language, ISO 639-1 (default: en)",
    )
    result.add_argument(
        "--include-models",
        action="store_true",
        help="compile the answers of model annotators (llm:MODEL) too (left out by default)",
    )
    result.add_argument(
        "--exclude",
        action="append",
        default=[],
        type=exclusion_argument,
        metavar="ANNOTATOR[=REASON]",
        help="leave this annotator out, with a reason (repeatable)",
    )
    return result


def language_code(value: str) -> str:
    """An ISO 639-1 code (two letters, any case, given in lower case); else a usage error
    stating the rule."""
    code = value.strip().lower()
    code = ALIASES.get(code, code)  # MLSP-2024's fil: Filipino, read as Tagalog (tl)
    if len(code) != 2 or not code.isascii() or not code.isalpha():
        raise argparse.ArgumentTypeError(
            f"{value!r} is not an ISO 639-1 language code (two letters, such as en, de, it)"
        )
    return code


def _decisions(path: str | None) -> Decisions:
    """The decisions file, or none."""
    return read_decisions(path) if path else NO_DECISIONS


FILE_ONLY = ("decisions", "language")
"""Options of a responses file only: a dataset has its own decisions and language."""
DATASET_ONLY = ("database_url", "keep_checks")


def _from_dataset(args: argparse.Namespace) -> int:
    """``--dataset NAME``: the app's compile of a stored dataset (:mod:`annotate.cli`)."""
    from annotate.cli.app import run as run_app

    argv = ["compile", "--dataset", args.dataset, "--out", args.out, "--t-rule", args.t_rule]
    if args.database_url:
        argv += ["--database-url", args.database_url]
    flags = ("no_normalise", "no_lemmatise", "only_t", "keep_checks", "include_models")
    argv += [f"--{flag.replace('_', '-')}" for flag in flags if getattr(args, flag)]
    for exclusion in args.exclude:
        argv += ["--exclude", f"{exclusion.annotator}={exclusion.reason}"]
    return run_app(argv)


def run(argv: Sequence[str]) -> int:
    """Run the command; returns the exit status."""
    command = parser()
    args = command.parse_args(argv)
    if (args.responses is None) == (args.dataset is None):
        command.error("give a RESPONSES_FILE or --dataset NAME (one of them)")
    if args.dataset is not None:
        given = [name for name in FILE_ONLY if getattr(args, name) not in (None, "en")]
        if given:
            command.error(f"--{given[0]} is for a responses file: a dataset has its own")
        return _from_dataset(args)
    given = [name for name in DATASET_ONLY if getattr(args, name)]
    if given:
        command.error(f"--{given[0].replace('_', '-')} goes with --dataset NAME")
    wrong = file_mixup(args.responses, "compile", ("responses",))
    if wrong:
        return fail(wrong)
    try:
        decisions = _decisions(args.decisions)
        options = CompileOptions(
            normalise=not args.no_normalise,
            lemmatise=not args.no_lemmatise,
            decisions=decisions,
            t_rule=args.t_rule,
            only_t=args.only_t,
            language=args.language,
            excluded=tuple(args.exclude),
            include_models=args.include_models,
        )
        gold = compile_responses(iter_responses(args.responses), options)
        absent = [excluded.annotator for excluded in gold.excluded if not excluded.responses]
        if absent:
            return fail(
                f"{args.responses}: no responses of {', '.join(map(repr, absent))} "
                "(--exclude names an annotator of the file); nothing written"
            )
        write_outputs(gold, args.out)
    except FAILURES as error:  # FormatError, DecisionError: they name file and line
        return fail(describe(error))
    in_t = gold.in_t
    applied = sum(1 for change in gold.lemma_changes if change.applied)
    print(
        f"{gold.responses} responses, {len(gold.annotators)} annotators, "
        f"{len(gold.items)} items: {len(in_t)} in T, "
        f"{sum(1 for item in in_t if item.mode is not None)} with a mode, "
        f"{sum(1 for item in in_t if item.multiword is not None)} in MW; "
        f"{len(gold.normalisations)} forms normalised, {applied} lemma changes applied "
        f"({len(pending_changes(gold))} not yet decided) → {args.out}"
    )
    if gold.language != "en":  # English's output stays as it was
        lemmatiser = gold.lemmatiser
        used = f"{lemmatiser[0]} {lemmatiser[1]}" if lemmatiser else kept_as_typed(gold.language)
        print(f"language {gold.language}: {used}")
    for excluded in gold.excluded:
        print(f"left out {excluded.annotator} ({excluded.responses} responses): {excluded.reason}")
    return 0


def main() -> None:
    raise SystemExit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
