"""A language model as an annotator: its name, the one rule that keeps it out of what
people's answers make, and its agreement set beside theirs.

A model that answers a dataset's items (``lexsub llm-annotate``) is stored as the
annotator ``llm:MODEL`` (with K samples, ``llm:MODEL#1`` … ``llm:MODEL#K``). A person's
username never holds a ``:`` (:func:`annotate.services.rules.check_username`; a crowd
participant's is ``p<dataset>-<id>``), so :func:`is_model_annotator` tells the two apart
by the name alone. Every compile calls it (:class:`~annotate.gold.compiler.CompileOptions`'s
``include_models``, off by default), so a model is in no gold, agreement, methods
paragraph or Hub export unless asked for.

Beside the people (:func:`compare_model`), with the measures of :mod:`scoring.agreement`:

* the model's PA against the human gold: over the items of T (non-empty answers from two
  people at least) that the model answered with substitutes, the mean Jaccard overlap of
  its answer with each person's, then the mean over those items: equation 1 of McCarthy
  & Navigli (2009), section 2.2.2, restricted to the pairs holding the model
  (:func:`scoring.agreement.annotator_agreement`, the people's own per-annotator figure);
* its PA_m: over the items of T_m (the people's mode, :func:`scoring.agreement.item_mode`)
  that it answered, 1/|h_i| when its answer holds the mode, else 0
  (:func:`scoring.agreement.mode_credit`), the term of equation 2, averaged;
* leaving each person out in turn: over the items where that person, the model and at
  least one other person gave substitutes, the person's PA against the rest and the
  model's PA against the same rest, on the same items; the model "agrees with the rest as
  well as" the people whose figure it reaches.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.agreement import annotator_agreement, item_mode, mode_credit
from scoring.formats.annotators import Item
from scoring.types import Answer

MODEL_PREFIX = "llm:"
"""How a model annotator's name starts."""
SAMPLE_MARK = "#"
"""What separates a model's name from a sample's number (``llm:MODEL#2``)."""
TIE = 1e-12
"""Two means of the same fractions summed in another order may differ in the last bit:
a model's PA this close below a person's counts as equal."""


def is_model_annotator(name: str) -> bool:
    """Whether the annotator ``name`` is a language model (``llm:…``), not a person: the
    one test every compile, exclusion and pseudonym applies.

    >>> is_model_annotator("llm:qwen2.5:7b#2"), is_model_annotator("A1")
    (True, False)
    """
    return name.startswith(MODEL_PREFIX)


def model_annotator(model: str, sample: int | None = None) -> str:
    """The annotator name of ``model`` (sample ``sample`` of K, numbered from 1, when the
    model answers several times).

    >>> model_annotator("m"), model_annotator("m", 2)
    ('llm:m', 'llm:m#2')
    """
    name = f"{MODEL_PREFIX}{model}"
    return name if sample is None else f"{name}{SAMPLE_MARK}{sample}"


def model_annotators(model: str, samples: int) -> tuple[str, ...]:
    """The annotator names of ``model`` asked ``samples`` times: one name for one sample,
    else one a sample.

    >>> model_annotators("m", 1), model_annotators("m", 2)
    (('llm:m',), ('llm:m#1', 'llm:m#2'))
    """
    if samples == 1:
        return (model_annotator(model),)
    return tuple(model_annotator(model, k) for k in range(1, samples + 1))


def split_models(items: Iterable[Item]) -> tuple[tuple[Item, ...], tuple[str, ...]]:
    """The items with the people's answers only, and the model annotators found (sorted)."""
    people: list[Item] = []
    models: set[str] = set()
    for item in items:
        models.update(r.annotator for r in item.responses if is_model_annotator(r.annotator))
        kept = tuple(r for r in item.responses if not is_model_annotator(r.annotator))
        people.append(Item(item.lexelt, item.instance, kept))
    return tuple(people), tuple(sorted(models))


@dataclass(frozen=True, slots=True)
class PersonComparison:
    """One person left out: their PA against the rest and the model's against the same
    rest, over the same ``items`` (None when there are none)."""

    person: str
    items: int
    person_PA: float | None
    model_PA: float | None

    @property
    def model_as_well(self) -> bool:
        """Whether the model agrees with the rest at least as well as this person (a tie
        within rounding, :data:`TIE`, counts as as well)."""
        return (
            self.person_PA is not None
            and self.model_PA is not None
            and self.model_PA >= self.person_PA - TIE
        )


@dataclass(frozen=True, slots=True)
class ModelComparison:
    """A model beside the people: PA and PA_m against the human gold (None when it
    answered no item of T, or of T_m, with substitutes) and the leave-one-out rows."""

    model: str
    PA: float | None
    PAm: float | None
    items: int
    """Items of T the model answered with substitutes."""
    mode_items: int
    """Items of T_m the model answered with substitutes."""
    people: tuple[PersonComparison, ...]

    @property
    def compared(self) -> int:
        """People with a leave-one-out figure (M of "as well as N of M people")."""
        return sum(1 for row in self.people if row.items)

    @property
    def as_well_as(self) -> int:
        """People whose agreement with the rest the model reaches (N)."""
        return sum(1 for row in self.people if row.model_as_well)

    @property
    def summary(self) -> str:
        """``model agrees with the rest as well as N of M people``."""
        return (
            f"{self.model} agrees with the rest as well as {self.as_well_as} of "
            f"{self.compared} people"
        )


def _answer_of(item: Item, annotator: str) -> Answer | None:
    return next((r for r in item.responses if r.annotator == annotator), None)


def _with(item: Item, answer: Answer) -> Item:
    """``item`` with ``answer`` added (responses kept sorted by annotator)."""
    responses = tuple(sorted((*item.responses, answer), key=lambda r: r.annotator))
    return Item(item.lexelt, item.instance, responses)


def _pa_of(items: Sequence[Item], annotator: str) -> float | None:
    """Equation 1 restricted to the pairs holding ``annotator`` (None over no item)."""
    if not items:
        return None
    return annotator_agreement(items)[annotator].with_others


def compare_model(people: Sequence[Item], answers: Iterable[Item], model: str) -> ModelComparison:
    """``model`` beside the people: ``people`` are the items with the people's answers
    only (:func:`split_models`), ``answers`` items holding the model's answers (any
    other answer in them is ignored).

    >>> from scoring.types import Answer as A
    >>> def item(*answers):
    ...     return Item("w.n", "1", tuple(A(n, "substitutes", frozenset(s)) for n, s in answers))
    >>> found = compare_model(
    ...     [item(("A1", {"a", "b"}), ("A2", {"a"}))], [item(("llm:m", {"a"}))], "llm:m"
    ... )
    >>> found.PA, found.PAm, found.summary
    (0.75, 1.0, 'llm:m agrees with the rest as well as 2 of 2 people')
    """
    given: dict[tuple[str, str], Answer] = {}
    for item in answers:
        answer = _answer_of(item, model)
        if answer is not None and answer.substitutes:
            given[(item.lexelt, item.instance)] = answer
    in_t = [
        _with(item, given[(item.lexelt, item.instance)])
        for item in people
        if item.in_t and (item.lexelt, item.instance) in given
    ]
    credits = []
    for item in people:
        answer = given.get((item.lexelt, item.instance))
        if answer is None or not item.in_t:
            continue
        mode = item_mode(item)
        if mode is not None:
            credits.append(mode_credit(answer.substitutes, mode))
    pam = math.fsum(credits) / len(credits) if credits else None
    persons = sorted({r.annotator for item in people for r in item.responses})
    rows = tuple(_left_out(people, given, person, model) for person in persons)
    return ModelComparison(model, _pa_of(in_t, model), pam, len(in_t), len(credits), rows)


def _left_out(
    people: Sequence[Item], given: dict[tuple[str, str], Answer], person: str, model: str
) -> PersonComparison:
    """The person's PA against the rest and the model's against the same rest, over the
    items where the person, the model and another person gave substitutes."""
    with_person: list[Item] = []
    with_model: list[Item] = []
    for item in people:
        own = _answer_of(item, person)
        answer = given.get((item.lexelt, item.instance))
        rest = item.without(person)
        if own is None or not own.substitutes or answer is None or not rest.answers:
            continue
        with_person.append(_with(rest, own))
        with_model.append(_with(rest, answer))
    return PersonComparison(
        person, len(with_person), _pa_of(with_person, person), _pa_of(with_model, model)
    )


def compare_models(items: Iterable[Item]) -> tuple[ModelComparison, ...]:
    """Every model annotator among ``items``' answers beside the people who answered them
    (the people's answers as the items hold them)."""
    listed = tuple(items)
    people, models = split_models(listed)
    return tuple(compare_model(people, listed, model) for model in models)
