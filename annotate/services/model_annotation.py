"""A language model answers a dataset's items as an annotator (``lexsub llm-annotate``,
the dataset's members page): the database side.

Each sentence goes to the model as ``lexsub generate llm`` sends it
(:class:`annotate.generate.llm.Run`: the same client, cache, retries and structured
output), with the annotation prompt (``prompts/annotation.jinja``: up to three
substitutes, ``name``, ``nil``, a multiword); each reply is read by the rule of a
person's answer (:func:`annotate.answers.model_answer`) and saved as a person's answer is
(:func:`annotate.services.responses.save_answer`, with its revision) by the account
``llm:MODEL``, or ``llm:MODEL#1`` … ``llm:MODEL#K`` for K samples (one account a
sample: each sample answers as one annotator). The accounts have the role ``model``: no
password opens them, and they are no dataset's members (so no study assigns them a
sentence).

A run replaces the model's answers in the dataset: an answer equal to the stored one is
left as it is (no new revision), a sentence the run did not answer loses the model's
earlier answer, and the answers of its annotators of another number of samples go. With
the cache, a second run makes no request and changes nothing. The provenance of the last
run (:class:`annotate.models.ModelAnnotation`) holds the model, the endpoint's host, the
parameters, the prompt's hash, the tokens and the failures: never the API key, which only
:data:`annotate.generate.client.KEY_VARIABLE` gives.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select

from annotate.answers import Answer, model_answer
from annotate.extensions import db
from annotate.generate.cache import ReplyCache, default_folder
from annotate.generate.client import Endpoint
from annotate.generate.items import Item
from annotate.generate.llm import CHUNK, Parameters, Run
from annotate.generate.prompt import FOLDER, load_prompt
from annotate.generate.replies import Lemmas, drop_target, lemminflect_lemmas
from annotate.gold.model_annotators import (
    MODEL_PREFIX,
    SAMPLE_MARK,
    is_model_annotator,
    model_annotators,
)
from annotate.models import (
    MODEL_ROLE,
    Dataset,
    Instance,
    Lexelt,
    ModelAnnotation,
    Response,
    User,
)
from annotate.models import now as utc_now
from annotate.services.responses import save_answer
from annotate.services.rules import MAX_USERNAME, ServiceError, check_text
from scoring.formats.language import language_name

ANNOTATION_PROMPT = FOLDER / "annotation.jinja"
"""The default prompt of a model annotator: the guidelines' choices, as JSON."""
MAX_SAMPLES = 20
"""The most samples (pseudo-annotators) of one model."""


@dataclass(frozen=True)
class Annotated:
    """What a run stored: the items answered (by at least one of the model's
    annotators), the answers saved, changed and left as they were, the candidates the
    rule left out, and the provenance stored."""

    model: str
    annotators: tuple[str, ...]
    items: int
    answered: int
    saved: int
    unchanged: int
    removed: int
    dropped: int
    provenance: dict[str, Any]


def check_model_name(model: str, samples: int) -> str:
    """``model`` when its annotator names fit an account name (at most
    :data:`MAX_USERNAME` characters, no control character, white space or ``#``) and
    ``samples`` is 1 to :data:`MAX_SAMPLES`; otherwise :class:`ServiceError` with the
    rule."""
    check_text(model, "model", MAX_USERNAME)
    if any(character.isspace() for character in model):
        raise ServiceError(f"model {model!r} holds white space")
    if SAMPLE_MARK in model:
        raise ServiceError(
            f"model {model!r} holds {SAMPLE_MARK!r}, which marks a sample's number in an "
            "annotator's name (llm:MODEL#2)"
        )
    if not 1 <= samples <= MAX_SAMPLES:
        raise ServiceError(f"samples {samples} is not in 1-{MAX_SAMPLES}")
    longest = max(model_annotators(model, samples), key=len)
    if len(longest) > MAX_USERNAME:
        raise ServiceError(
            f"model {model[:40]!r}… is too long: annotator names are at most "
            f"{MAX_USERNAME} characters ({longest[:20]}… has {len(longest)})"
        )
    return model


def dataset_items(dataset: Dataset) -> list[tuple[int, Item]]:
    """The dataset's sentences in annotation order, each with its instance's id, as a
    model is asked them."""
    rows = db.session.execute(
        select(Instance, Lexelt)
        .join(Lexelt, Instance.lexelt_id == Lexelt.id)
        .where(Instance.dataset_id == dataset.id)
        .order_by(Instance.position)
    )
    return [
        (
            instance.id,
            Item(
                lexelt.item,
                instance.xml_id,
                lexelt.lemma,
                lexelt.pos or None,
                instance.head,
                instance.before + instance.head + instance.after,
            ),
        )
        for instance, lexelt in rows
    ]


def model_account(name: str) -> User:
    """The account of the model annotator ``name`` (made the first time)."""
    user = db.session.scalar(select(User).where(User.username == name))
    if user is None:
        user = User(username=name, password_hash="", role=MODEL_ROLE)
        db.session.add(user)
        db.session.commit()
    elif user.role != MODEL_ROLE:  # a name with ':' is no person's (check_username)
        raise ServiceError(f"account {name!r} exists and is not a model annotator")
    return user


@dataclass(frozen=True)
class Stored:
    """A model's stored answer, as read before the run saves."""

    id: int
    kind: str
    substitutes: tuple[str, ...]
    multiword: str | None
    used_dictionary: bool

    def same(self, answer: Answer) -> bool:
        """Whether saving ``answer`` would store what is there already."""
        return (self.kind, self.substitutes, self.multiword, self.used_dictionary) == (
            answer.kind,
            tuple(answer.substitutes),
            answer.multiword,
            answer.used_dictionary,
        )


def _other_numbers(dataset: Dataset, model: str, kept: tuple[str, ...]) -> list[int]:
    """The accounts of ``model`` with answers in the dataset under another number of
    samples (``llm:MODEL`` when K > 1 now, ``llm:MODEL#k`` otherwise)."""
    base = f"{MODEL_PREFIX}{model}"
    rows = db.session.execute(
        select(User.id, User.username)
        .where(User.role == MODEL_ROLE)
        .where(
            (User.username == base) | User.username.startswith(base + SAMPLE_MARK, autoescape=True)
        )
    )
    return [
        user_id
        for user_id, name in rows
        if name not in kept
        and (
            name == base
            or (name.startswith(base + SAMPLE_MARK) and name[len(base) + 1 :].isdigit())
        )
    ]


def annotate_dataset(
    dataset: Dataset,
    endpoint: Endpoint,
    parameters: Parameters,
    prompt_path: str | Path | None = None,
    cache_folder: str | Path | None = None,
    concurrency: int = 8,
    lemmas: Lemmas | None = None,
    progress: Callable[[int], None] = lambda done: None,
) -> Annotated:
    """Ask the model of ``parameters`` every sentence of ``dataset`` (``parameters.samples``
    times each) and store its answers as ``llm:MODEL`` (``llm:MODEL#k``), replacing the
    model's earlier ones (module docstring). :class:`ServiceError` for a model name no
    account can hold or a complexity study (ratings, not substitutes);
    :class:`annotate.generate.client.EndpointError` and
    :class:`annotate.generate.prompt.PromptError` as ``lexsub generate llm`` raises them."""
    if dataset.task == "complexity":
        raise ServiceError(
            f"dataset {dataset.name!r} is a complexity study: a model annotator gives "
            "substitutes, not ratings"
        )
    model = check_model_name(parameters.model, parameters.samples)
    names = model_annotators(model, parameters.samples)
    prompt = load_prompt(prompt_path or ANNOTATION_PROMPT)
    items = dataset_items(dataset)
    started = time.perf_counter()
    lemmas = lemmas or lemminflect_lemmas()
    cache = ReplyCache(cache_folder or default_folder())
    run = Run(
        endpoint,
        parameters,
        prompt,
        cache,
        lemmas,
        language_name(dataset.language or "en"),
        concurrency,
        progress,
    )
    results: list[tuple[int, Item, list[list[str] | None]]] = []
    try:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            iterator = iter(items)
            while chunk := list(islice(iterator, CHUNK)):
                found = run.samples([item for _, item in chunk], pool)
                results.extend(
                    (instance, item, samples)
                    for (instance, item), samples in zip(chunk, found, strict=True)
                )
    finally:
        cache.close()
    users = [model_account(name) for name in names]
    user_ids = [user.id for user in users]
    current = {
        (user_id, instance_id): Stored(row_id, kind, tuple(substitutes), multiword, flag)
        for row_id, user_id, instance_id, kind, substitutes, multiword, flag in db.session.execute(
            select(
                Response.id,
                Response.user_id,
                Response.instance_id,
                Response.kind,
                Response.substitutes,
                Response.multiword,
                Response.used_dictionary,
            )
            .join(Instance, Response.instance_id == Instance.id)
            .where(Instance.dataset_id == dataset.id, Response.user_id.in_(user_ids))
        )
    }
    answered_items = saved = unchanged = dropped = 0
    answered: set[tuple[int, int]] = set()
    for instance_id, item, samples in results:
        targets = (item.lemma, item.word)
        any_answer = False
        for user, sample in zip(users, samples, strict=True):
            if sample is None:
                continue  # the request failed: counted in the provenance's failures
            read = model_answer(drop_target(sample, item.word, item.lemma, lemmas), targets)
            dropped += len(read.dropped)
            if read.answer is None:
                continue
            any_answer = True
            answered.add((user.id, instance_id))
            stored = current.get((user.id, instance_id))
            if stored is not None and stored.same(read.answer):
                unchanged += 1
                continue
            save_answer(user, instance_id, read.answer)
            saved += 1
        answered_items += any_answer
    stale = [row.id for key, row in current.items() if key not in answered]
    others = _other_numbers(dataset, model, names)
    removed = len(stale)
    if stale:
        db.session.execute(delete(Response).where(Response.id.in_(stale)))
    if others:
        gone = db.session.execute(
            delete(Response)
            .where(Response.user_id.in_(others))
            .where(
                Response.instance_id.in_(
                    select(Instance.id).where(Instance.dataset_id == dataset.id)
                )
            )
        )
        removed += int(getattr(gone, "rowcount", 0) or 0)
    run.tally.items = len(results)
    run.tally.answered = answered_items
    provenance = run.provenance(time.perf_counter() - started)
    provenance |= {
        "system": "llm-annotator",
        "dataset": dataset.name,
        "annotators": list(names),
        "stored": {"saved": saved, "unchanged": unchanged, "removed": removed},
        "dropped_candidates": dropped,
    }
    _store_provenance(dataset, model, names, answered_items, provenance)
    return Annotated(
        model, names, len(results), answered_items, saved, unchanged, removed, dropped, provenance
    )


def _store_provenance(
    dataset: Dataset, model: str, names: tuple[str, ...], answered: int, provenance: dict[str, Any]
) -> None:
    row = db.session.scalar(
        select(ModelAnnotation).where(
            ModelAnnotation.dataset_id == dataset.id, ModelAnnotation.model == model
        )
    )
    if row is None:
        row = ModelAnnotation(dataset_id=dataset.id, model=model)
        db.session.add(row)
    row.annotators = list(names)
    row.answered = answered
    row.provenance = provenance
    row.updated_at = utc_now()
    db.session.commit()


def model_annotations(dataset: Dataset) -> list[ModelAnnotation]:
    """The models that answered the dataset, by model name, with their provenance."""
    return list(
        db.session.scalars(
            select(ModelAnnotation)
            .where(ModelAnnotation.dataset_id == dataset.id)
            .order_by(ModelAnnotation.model)
        )
    )


def has_model_answers(dataset: Dataset) -> bool:
    """Whether a model annotator answered a sentence of the dataset."""
    names = db.session.scalars(
        select(User.username)
        .join(Response, Response.user_id == User.id)
        .join(Instance, Response.instance_id == Instance.id)
        .where(Instance.dataset_id == dataset.id, User.role == MODEL_ROLE)
        .limit(1)
    )
    return any(is_model_annotator(name) for name in names)
