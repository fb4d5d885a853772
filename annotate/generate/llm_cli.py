"""``lexsub generate llm``: the options read (:func:`annotate.generate.cli.parser`), the run
made (:mod:`annotate.generate.llm`), one summary line printed; bad input (an unreachable
endpoint, an unknown model, a refused key, a file of the wrong kind, a broken prompt) one
line ``Error: …`` and status 1. The key is never printed."""

from __future__ import annotations

import argparse
import sqlite3
import sys

from scoring.command import FAILURES, describe, fail


def run_llm(args: argparse.Namespace) -> int:
    """Run ``lexsub generate llm``; the exit status."""
    from annotate.generate.cache import ReplyCache, default_folder
    from annotate.generate.client import Endpoint, EndpointError
    from annotate.generate.items import count_items, input_kind, iter_items
    from annotate.generate.llm import Parameters, Run, run_to_file
    from annotate.generate.progress import progress_bar
    from annotate.generate.prompt import PromptError, default_prompt, load_prompt
    from annotate.generate.replies import lemminflect_lemmas
    from scoring.formats.language import iso639_1, language_name

    try:
        language = iso639_1(args.language)
        endpoint = Endpoint.from_environment(args.base_url, timeout=args.timeout)
        count = count_items(args.data)  # every line checked before any request
        task = args.task or ("substitution" if input_kind(args.data) == "xml" else "simplification")
        prompt = load_prompt(args.prompt or default_prompt(task))
        temperature = args.temperature
        if temperature is None:
            temperature = 0.0 if args.samples == 1 else 0.8
        parameters = Parameters(
            args.model, args.samples, temperature, args.seed, args.max_tokens, task, language
        )
        cache = ReplyCache(args.cache or default_folder())
        unit = "items" if args.samples == 1 else "samples"
        run = Run(
            endpoint,
            parameters,
            prompt,
            cache,
            lemminflect_lemmas(),
            language_name(language),
            args.concurrency,
            progress_bar(count * args.samples, unit),
        )
        try:
            content = run_to_file(run, iter_items(args.data), args.format, args.out)
        finally:
            cache.close()
    except (EndpointError, PromptError) as error:
        return fail(str(error))
    except sqlite3.Error as error:
        return fail(f"the reply cache ({args.cache or default_folder()}) fails: {error}")
    except FAILURES as error:
        return fail(describe(error))
    except KeyboardInterrupt:
        return fail("interrupted: the replies so far are cached; run again to resume")
    tally = run.tally
    if tally.failed:
        failures = ", ".join(f"{why} {count}" for why, count in tally.failures.items() if count)
        print(
            f"Warning: {tally.failed} of {tally.items * args.samples} requests gave no "
            f"candidates ({failures}); they are asked again on the next run",
            file=sys.stderr,
        )
    print(
        f"llm: {tally.answered} of {tally.items} items answered, {args.format} file "
        f"{args.out} ({tally.requests} requests, {tally.cached} cached, "
        f"{content['tokens']['spent']} tokens spent, "
        f"{content['seconds']:.1f} s; provenance {args.out}.provenance.json)"
    )
    return 0
