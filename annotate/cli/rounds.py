"""``lexsub round ...``: judgement rounds from the command line (thin:
parse, call :mod:`annotate.services.rounds`, print). Errors end with ``Error: …`` (exit 1)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import click
from flask.cli import AppGroup

from annotate.cli.common import read_file
from annotate.services.rounds import (
    LAYOUTS,
    assign_judge,
    candidate_origins,
    create_round,
    dataset_named,
    export_judgements,
    posthoc_source,
    posthoc_spec,
    round_by_name,
    unassign_judge,
    users_named,
)
from annotate.services.rules import ServiceError
from scoring.errors import FormatError
from scoring.formats.judgements import judgement_line
from scoring.formats.text import split_lines
from scoring.judgements.labels import LABEL_SETS, label_set
from scoring.judgements.report import render_text, report
from scoring.judgements.rounds import gold_items_from_file, parse_rows

round_group = AppGroup("round", help="Judgement rounds: create, assign judges, export, report.")


@round_group.command("create")
@click.argument("name")
@click.option("--dataset", "dataset_name", help="The dataset whose sentences (and gold) to use.")
@click.option(
    "--gold",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A gold file instead of the dataset's compiled gold.",
)
@click.option(
    "--mwgold",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The gold's mwgold file (who marked a multiword).",
)
@click.option(
    "--system",
    "systems",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A system's best file (repeatable).",
)
@click.option(
    "--candidates",
    "candidate_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A system's ranked, oot or TSAR file whose candidates join the gold's (repeatable; "
    "the source is named by the file's stem, the gold's substitutes 'gold').",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    help="With --candidates: each file's first N candidates of an item (default: all).",
)
@click.option("--sample", type=click.IntRange(min=1), help="How many items to sample.")
@click.option("--seed", type=click.IntRange(min=0), help="The sampling seed (printed).")
@click.option(
    "--rows",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A rows file (sentence, target, candidate) instead of a post hoc round.",
)
@click.option(
    "--labels",
    type=click.Choice(list(LABEL_SETS)),
    default=None,
    help="The label set (posthoc for a post hoc round).",
)
@click.option("--layout", type=click.Choice(LAYOUTS), default="sentence", show_default=True)
def create_command(
    name: str,
    dataset_name: str | None,
    gold: Path | None,
    mwgold: Path | None,
    systems: tuple[Path, ...],
    candidate_files: tuple[Path, ...],
    top: int | None,
    sample: int | None,
    seed: int | None,
    rows: Path | None,
    labels: str | None,
    layout: str,
) -> None:
    """Create round NAME: a post hoc round (--dataset, --system ... and/or --candidates ...,
    --sample, [--seed], [--gold [--mwgold]]) or a round from a rows file (--rows, --labels)."""
    try:
        if rows is not None:
            if systems or candidate_files or gold or sample or top:
                raise click.UsageError(
                    "--rows makes a round of its own: no --system, --candidates, --top, --gold "
                    "or --sample"
                )
            plan = parse_rows(split_lines(read_file(rows)), str(rows))
            dataset = dataset_named(dataset_name) if dataset_name else None
            made = create_round(
                plan, name, "rows", labels or "lexical-reference", layout, dataset, "cli", rows.name
            )
        else:
            if not dataset_name or not (systems or candidate_files) or not sample:
                raise click.UsageError(
                    "a post hoc round needs --dataset, --system or --candidates, and --sample"
                )
            if top is not None and not candidate_files:
                raise click.UsageError("--top cuts the files of --candidates: give one")
            dataset = dataset_named(dataset_name)
            chosen = seed if seed is not None else secrets.randbelow(2**31)
            items = None
            if gold is not None:
                items = gold_items_from_file(
                    split_lines(read_file(gold)),
                    str(gold),
                    split_lines(read_file(mwgold)) if mwgold else (),
                    str(mwgold),
                )
            plan = posthoc_spec(
                dataset,
                {path.name: read_file(path) for path in systems},
                sample,
                chosen,
                items,
                {str(path): read_file(path) for path in candidate_files},
                top,
            )
            source = posthoc_source(
                gold.name if gold else None,
                dataset.name,
                [path.name for path in systems],
                [path.name for path in candidate_files],
            )
            made = create_round(
                plan, name, "posthoc", labels or "posthoc", layout, dataset, "cli", source
            )
    except (ServiceError, FormatError) as error:
        raise click.ClickException(f"no round created: {error}") from error
    extra = (
        f" sampled from {plan.eligible} eligible items with seed {plan.seed}"
        if plan.seed is not None
        else ""
    )
    click.echo(
        f"created round {made.name!r} ({made.kind}, {made.label_set}, {made.layout}): "
        f"{len(plan.items)} items, {plan.candidates} candidates{extra}"
    )


@round_group.command("assign")
@click.argument("name")
@click.argument("usernames", nargs=-1, required=True)
@click.option("--remove", is_flag=True, help="Take the round away (labels stay).")
def assign_command(name: str, usernames: tuple[str, ...], remove: bool) -> None:
    """Make USERNAMES judges of round NAME (or --remove them)."""
    try:
        round_ = round_by_name(name)
        for user in users_named(usernames):
            changed = unassign_judge(user, round_) if remove else assign_judge(user, round_)
            verb = (
                ("removed from" if changed else "was not a judge of")
                if remove
                else ("assigned to" if changed else "already a judge of")
            )
            click.echo(f"{user.username} {verb} round {name!r}")
    except ServiceError as error:
        raise click.ClickException(str(error)) from error


@round_group.command("export")
@click.argument("name")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def export_command(name: str, out: Path) -> None:
    """Write every label of round NAME as JSON Lines (item, candidate, judge, label, origin)."""
    try:
        found = export_judgements(round_by_name(name))
    except ServiceError as error:
        raise click.ClickException(str(error)) from error
    try:
        with out.open("w", encoding="utf-8") as handle:
            for judgement in found:
                handle.write(judgement_line(judgement) + "\n")
    except OSError as error:
        raise click.ClickException(f"cannot write {out}: {error.strerror}") from error
    click.echo(f"wrote {len(found)} judgements to {out}")


@round_group.command("report")
@click.argument("name")
@click.option("--format", "form", type=click.Choice(["text", "json"]), default="text")
def report_command(name: str, form: str) -> None:
    """Verdicts, Tables 11 and 12, agreement and sources of round NAME (lexsub judgements)."""
    try:
        round_ = round_by_name(name)
        result = report(
            export_judgements(round_),
            label_set(round_.label_set),
            proposed=candidate_origins(round_),
        )
    except (ServiceError, ValueError) as error:
        raise click.ClickException(str(error)) from error
    if form == "json":
        click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        click.echo(render_text(result), nl=False)
