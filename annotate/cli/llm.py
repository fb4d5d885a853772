"""``lexsub llm-annotate``: a language model answers every sentence of a dataset as an
annotator (:mod:`annotate.services.model_annotation`), stored as ``llm:MODEL`` (with
``--samples K``, ``llm:MODEL#1`` … ``llm:MODEL#K``). Thin: parse, call, print one line;
errors end with one line ``Error: …`` (exit 1). The API key comes from
``LEXSUB_API_KEY`` only, as ``lexsub generate llm`` takes it, and is never printed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import click
from flask.cli import with_appcontext

from annotate.cli.common import dataset_called


@click.command("llm-annotate")
@click.option("--dataset", "name", required=True, help="The dataset whose sentences to answer.")
@click.option("--base-url", required=True, metavar="URL", help="e.g. http://localhost:11434/v1")
@click.option("--model", required=True, metavar="NAME", help="As the endpoint lists it.")
@click.option(
    "--samples",
    type=click.IntRange(1, 20),
    default=1,
    show_default=True,
    metavar="K",
    help="Ask each sentence K times: K annotators llm:MODEL#1 … llm:MODEL#K.",
)
@click.option(
    "--prompt",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A Jinja template (variables: sentence, target, language); default: lexsub's "
    "annotation prompt (up to three substitutes, name, nil, a multiword).",
)
@click.option("--temperature", type=float, help="Default 0 with one sample, 0.8 with several.")
@click.option("--seed", type=int, help="Sent to the endpoint (seed + k for sample k).")
@click.option("--max-tokens", type=click.IntRange(1), default=256, show_default=True)
@click.option(
    "--concurrency",
    type=click.IntRange(1),
    default=8,
    show_default=True,
    help="Requests in flight.",
)
@click.option(
    "--timeout", type=click.FloatRange(0, min_open=True), default=120.0, show_default=True
)
@click.option(
    "--cache",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where replies are kept (default: the user's cache).",
)
@with_appcontext
def llm_annotate_command(
    name: str,
    base_url: str,
    model: str,
    samples: int,
    prompt: Path | None,
    temperature: float | None,
    seed: int | None,
    max_tokens: int,
    concurrency: int,
    timeout: float,
    cache: Path | None,
) -> None:
    """Have a language model answer every sentence of the dataset through the rule of a
    person's answer (up to three substitutes, name or nil, a multiword), stored as the
    annotator llm:MODEL with its provenance; a new run replaces the model's answers (the
    cache makes it request nothing). Models are left out of the gold, the agreement,
    the methods paragraph and the Hub export unless --include-models is given there."""
    from annotate.generate.client import Endpoint, EndpointError
    from annotate.generate.llm import Parameters
    from annotate.generate.prompt import PromptError
    from annotate.services.model_annotation import annotate_dataset
    from annotate.services.rules import ServiceError

    dataset = dataset_called(name)
    if temperature is None:
        temperature = 0.0 if samples == 1 else 0.8
    try:
        endpoint = Endpoint.from_environment(base_url, timeout=timeout)
        parameters = Parameters(
            model, samples, temperature, seed, max_tokens, "annotation", dataset.language or "en"
        )
        done = annotate_dataset(dataset, endpoint, parameters, prompt, cache, concurrency)
    except (EndpointError, PromptError, ServiceError) as error:
        raise click.ClickException(str(error)) from error
    except sqlite3.Error as error:
        raise click.ClickException(f"the reply cache fails: {error}") from error
    tally = done.provenance
    failures = sum(tally["failures"].values())
    if failures:
        click.echo(
            f"Warning: {failures} of {done.items * samples} requests gave no answer; "
            "they are asked again on the next run",
            err=True,
        )
    click.echo(
        f"{', '.join(done.annotators)}: {done.answered} of {done.items} items answered in "
        f"dataset {name!r} ({done.saved} answers saved, {done.unchanged} unchanged, "
        f"{done.removed} removed; {tally['requests']} requests, {tally['cached']} cached, "
        f"{tally['tokens']['spent']} tokens spent)"
    )
