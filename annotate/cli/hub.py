"""``lexsub export-hf``: a dataset (``--dataset NAME``) or a compiled folder (``--gold
DIR`` with the sentences of ``--xml FILE``) as a folder that ``datasets.load_dataset``
loads (the layout of :mod:`scoring.formats.hf`). Thin: parse, call, print; errors end
with one line ``Error: …`` (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask.cli import with_appcontext

from annotate.cli.common import dataset_called
from annotate.gold.hub import COMPILED, annotators_in, hub_from_compiled, pseudonyms_given
from annotate.services.pseudonyms import assign
from scoring.errors import TextError
from scoring.files.bounded import read_text
from scoring.formats.hf import (
    TASK_CITATIONS,
    HubCard,
    HubDataset,
    NeedsPyarrow,
    need_pyarrow,
    write_hub,
)
from scoring.formats.importers.read import read_source
from scoring.formats.instances import SourceError


def compiled_hub(gold: Path, xml: Path) -> HubDataset:
    """The compiled folder ``gold`` and the sentences of ``xml`` (any format ``lexsub
    import`` reads) in the layout; annotators named by pseudonym (kept when they are
    pseudonyms already, else ``A1``, ``A2`` … in the order of their names)."""
    texts: dict[str, str] = {}
    for name in COMPILED:
        try:
            texts[name] = read_text(gold / name)
        except OSError as error:
            raise click.ClickException(
                f"cannot read {gold / name}: {error.strerror} (--gold names the folder "
                "`lexsub compile` wrote)"
            ) from error
        except TextError as error:
            raise click.ClickException(str(error)) from error
    try:
        source = read_source(xml)
    except OSError as error:
        raise click.ClickException(f"cannot read {xml}: {error.strerror}") from error
    except SourceError as error:
        raise click.ClickException(str(error)) from error
    annotators = annotators_in(texts, str(gold))
    names = (
        {name: name for name in annotators}
        if pseudonyms_given(annotators)
        else assign((name, False) for name in annotators).names
    )
    language = json.loads(texts["summary.json"]).get("language") or source.language
    card = HubCard(
        gold.resolve().name,
        source.task,
        language,
        source=f"compiled gold {gold.name}, sentences from {xml.name}",
        citation=TASK_CITATIONS.get(source.task, ""),
    )
    return hub_from_compiled(source.lexelts, texts, card, names, str(gold))


@click.command("export-hf")
@click.option("--dataset", "name", help="The dataset to export (compiled as it stands).")
@click.option(
    "--gold",
    type=click.Path(file_okay=False, path_type=Path),
    help="A folder `lexsub compile` wrote, instead of a dataset (needs --xml).",
)
@click.option(
    "--xml",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --gold: the sentences (the task's XML or any file `lexsub import` reads).",
)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True)
@click.option(
    "--include-models",
    is_flag=True,
    help="With --dataset: export the answers of model annotators (llm:MODEL) too "
    "(left out by default).",
)
@with_appcontext
def export_hf_command(
    name: str | None, gold: Path | None, xml: Path | None, out: Path, include_models: bool
) -> None:
    """Write the gold, the answers (annotators by pseudonym) and a dataset card as a
    folder that the `datasets` library loads as it is: datasets.load_dataset(OUT)
    (docs/formats.md)."""
    if (name is None) == (gold is None):
        raise click.UsageError("give --dataset NAME or --gold DIR (one of them)")
    if gold is not None and xml is None:
        raise click.UsageError("--gold DIR needs --xml FILE: a compiled folder holds no sentences")
    if name is not None and xml is not None:
        raise click.UsageError("--xml goes with --gold DIR: a dataset has its sentences")
    if gold is not None and include_models:
        raise click.UsageError(
            "--include-models goes with --dataset: a compiled folder is as compiled"
        )
    try:
        need_pyarrow()
    except NeedsPyarrow as error:
        raise click.ClickException(str(error)) from error
    if name is not None:
        from annotate.services.hub import dataset_hub

        hub = dataset_hub(dataset_called(name), include_models)
    else:
        assert gold is not None and xml is not None
        hub = compiled_hub(gold, xml)
    try:
        write_hub(hub, out)
    except OSError as error:
        raise click.ClickException(f"cannot write {out}: {error.strerror}") from error
    configs = "gold, annotations" + (", judgements" if hub.judgements else "")
    click.echo(
        f"wrote {len(hub.items)} items, {len(hub.answers)} answers of "
        f"{len(hub.annotators)} annotators ({configs}) and README.md to {out}"
    )
