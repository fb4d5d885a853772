"""A dataset of the app as a Hugging Face dataset folder and back (the layout is
:mod:`scoring.formats.hf`, built by :mod:`annotate.gold.hub`): the database side only.

Export compiles the dataset as ``lexsub compile --dataset`` does and names its annotators
by pseudonym (:func:`~annotate.services.pseudonyms.pseudonyms_of`). Import stores the
``gold`` rows as the dataset's sentences and each ``annotations`` row as the answer of an
account ``hDATASET-PSEUDONYM`` (no password: nobody logs in as it), so that compiling
the imported dataset gives the gold it was exported from.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold import CompileOptions
from annotate.gold.hub import hub_from_compiled, hub_import
from annotate.gold.write import output_texts
from annotate.models import Dataset, Instance, JudgementRound, Response, User
from annotate.models import Lexelt as LexeltRow
from annotate.services.datasets import Imported, delete_dataset, import_dataset
from annotate.services.goldfiles import compile_dataset
from annotate.services.pseudonyms import pseudonyms_of
from annotate.services.rounds import export_judgements
from annotate.services.rules import ServiceError
from annotate.services.study import assign
from scoring.formats.hf import TASK_CITATIONS, HubCard, HubDataset, HubJudgement, read_hub
from scoring.formats.instances import Instance as SourceInstance
from scoring.formats.instances import Lexelt, nfc


def dataset_lexelts(dataset: Dataset) -> tuple[Lexelt, ...]:
    """The dataset's words and sentences as an import gives them, in dataset order."""
    rows = db.session.execute(
        select(LexeltRow, Instance)
        .join(Instance, Instance.lexelt_id == LexeltRow.id)
        .where(Instance.dataset_id == dataset.id)
        .order_by(LexeltRow.position, Instance.position)
    )
    words: dict[int, tuple[LexeltRow, list[SourceInstance]]] = {}
    for lexelt, instance in rows:
        words.setdefault(lexelt.id, (lexelt, []))[1].append(
            SourceInstance(
                instance.xml_id, lexelt.item, instance.before, instance.head, instance.after, 0
            )
        )
    return tuple(
        Lexelt(row.item, row.lemma, row.pos, tuple(instances)) for row, instances in words.values()
    )


def dataset_hub(dataset: Dataset, include_models: bool = False) -> HubDataset:
    """The dataset in the Hugging Face layout: its compiled gold, its sentences, its
    answers by pseudonym (a model annotator's, ``llm:MODEL``, only with
    ``include_models``)."""
    texts = output_texts(compile_dataset(dataset, CompileOptions(include_models=include_models)))
    card = HubCard(
        dataset.name,
        dataset.task,
        dataset.language or "en",
        source=f"lexsub dataset {dataset.name!r} ({dataset.source})",
        citation=TASK_CITATIONS.get(dataset.task, ""),
    )
    names = pseudonyms_of(dataset).names
    hub = hub_from_compiled(dataset_lexelts(dataset), texts, card, names, dataset.name)
    return replace(hub, judgements=dataset_judgements(dataset, names))


def dataset_judgements(dataset: Dataset, names: Mapping[str, str]) -> tuple[HubJudgement, ...]:
    """The labels of the dataset's judgement rounds (by round name), each judge by
    pseudonym: the dataset's (``names``), or for a judge the dataset does not otherwise
    know ``J1``, ``J2`` … in the order of their names."""
    rounds = db.session.scalars(
        select(JudgementRound)
        .where(JudgementRound.dataset_id == dataset.id)
        .order_by(JudgementRound.name)
    )
    labels = [(round_.name, label) for round_ in rounds for label in export_judgements(round_)]
    others = sorted({label.judge for _, label in labels} - set(names))
    judges = {**names, **{name: f"J{number}" for number, name in enumerate(others, 1)}}
    return tuple(
        HubJudgement(
            name, label.item, label.candidate, judges[label.judge], label.label, label.origin
        )
        for name, label in labels
    )


def folder_digest(folder: Path) -> bytes:
    """The bytes that identify a folder's import: the SHA-256 of each Parquet file and
    the card, by path."""
    parts = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and (path.suffix == ".parquet" or path.name == "README.md"):
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            parts.append(f"{path.relative_to(folder).as_posix()} {digest}\n")
    return "".join(parts).encode()


def import_hub(folder: Path, name: str, language: str | None = None) -> Imported:
    """Import the folder as dataset ``name`` with its answers. The same folder again
    changes nothing; another under the same name is refused (:func:`import_dataset`)."""
    hub = read_hub(folder)
    result = hub_import(hub, str(folder))
    if language is not None:
        result = replace(result, language=language)
    rows = {(nfc(item.lexelt), nfc(item.id)) for item in hub.items}
    seen: set[tuple[str, str, str]] = set()
    for index, answer in enumerate(hub.answers, 1):
        key = (nfc(answer.lexelt), nfc(answer.id))
        where = f"{folder}/annotations row {index}"
        if key not in rows:
            raise ServiceError(f"{where}: item {answer.lexelt} {answer.id} has no gold row")
        if (answer.annotator, *key) in seen:
            raise ServiceError(
                f"{where}: {answer.annotator} answers item {answer.lexelt} {answer.id} "
                "a second time (one answer per annotator and item)"
            )
        seen.add((answer.annotator, *key))
    imported = import_dataset(result, name, folder.name or "hf", folder_digest(folder))
    if not imported.created:
        return imported
    dataset = imported.dataset
    ids = {
        (lexelt, xml_id): id_
        for id_, xml_id, lexelt in db.session.execute(
            select(Instance.id, Instance.xml_id, LexeltRow.item)
            .join(LexeltRow, Instance.lexelt_id == LexeltRow.id)
            .where(Instance.dataset_id == dataset.id)
        )
    }
    try:
        _store_answers(dataset, hub, ids)
    except Exception:  # nothing imported: the dataset goes with its answers or not at all
        db.session.rollback()
        delete_dataset(dataset, dataset.name)
        raise
    return imported


def _store_answers(dataset: Dataset, hub: HubDataset, ids: Mapping[tuple[str, str], int]) -> None:
    """Each answer as the response of the account ``hN-PSEUDONYM`` (made, no password,
    a member of the dataset; one left by a deleted dataset of the same id is reused)."""
    users: dict[str, int] = {}
    for answer in hub.answers:
        if answer.annotator not in users:
            username = f"h{dataset.id}-{answer.annotator}"[:80]
            user = db.session.scalar(select(User).where(User.username == username))
            if user is None:
                user = User(username=username, role="annotator", password_hash="")
                db.session.add(user)
                db.session.flush()
            assign(user, dataset)  # a member: the answers of a non-member are left out
            users[answer.annotator] = user.id
        db.session.add(
            Response(
                user_id=users[answer.annotator],
                instance_id=ids[(nfc(answer.lexelt), nfc(answer.id))],
                kind=answer.kind,
                substitutes=list(answer.substitutes),
                multiword=answer.multiword,
            )
        )
    db.session.commit()
