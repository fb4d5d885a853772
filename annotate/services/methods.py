"""A dataset's agreement report and methods paragraph, as the pages and ``lexsub report``
give them: the gold compiled with the dataset's exclusions (:func:`compile_dataset`), its
``annotators.jsonl`` read back, and one call of :func:`scoring.agreement.report.report`.
The rendering is pure (:mod:`annotate.gold.methods`).

Model annotators (``llm:…``) are in none of these figures unless asked for
(``include_models``); :func:`model_comparisons` sets them beside the people."""

from __future__ import annotations

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold import CompiledGold, CompileOptions
from annotate.gold.methods import CheckScore, StudyFigures, study_figures
from annotate.gold.model_annotators import ModelComparison, compare_models
from annotate.gold.write import annotator_lines
from annotate.models import Dataset, User
from annotate.services import checks
from annotate.services.exclusions import exclusions_of
from annotate.services.goldfiles import check_ids, compile_dataset
from annotate.services.model_annotation import has_model_answers
from annotate.services.pseudonyms import Pseudonyms, pseudonyms_of
from scoring.agreement.report import AgreementReport, report
from scoring.formats.annotators import parse_annotators

SEED = 12345
"""The resampling's seed when none is given (the agreement page's default)."""


def dataset_agreement(
    dataset: Dataset, compiled: CompiledGold, seed: int = SEED, leave_out: bool = False
) -> AgreementReport:
    """The agreement report of the compiled gold, with bootstrap intervals over lemmas
    (``seed``) and the leave-one-out rows when asked; it lists the annotators the compile
    left out, and its signature counts them."""
    lines = list(annotator_lines(compiled))
    items = parse_annotators(lines, f"{dataset.name} annotators") if lines else ()
    return report(
        items,
        leave_out=leave_out,
        with_intervals=True,
        seed=seed,
        excluded=compiled.excluded,
    )


def check_scores(dataset: Dataset, names: Pseudonyms) -> tuple[CheckScore, ...] | None:
    """Each crowd participant's attention-check score, by username (answers matched
    through the compiler's own forms: :func:`annotate.services.checks.check_scores`): the
    accounts the study's link made, less those left out of the gold (:func:`exclusions_of`),
    as the paragraph's other figures are, each named by pseudonym (``names``); None while
    the dataset has no check items."""
    if not check_ids(dataset):
        return None
    left_out = {exclusion.annotator for exclusion in exclusions_of(dataset)}
    rows = db.session.execute(select(User.id, User.username).where(User.study_id == dataset.id))
    usernames = {user_id: name for user_id, name in rows if name not in left_out}
    scores = checks.check_scores(dataset, list(usernames))
    return tuple(
        sorted(
            (
                CheckScore(names(usernames[user_id]), score.matched, score.answered)
                for user_id, score in scores.items()
            ),
            key=lambda score: score.annotator,
        )
    )


def study_methods(dataset: Dataset, seed: int = SEED, include_models: bool = False) -> StudyFigures:
    """The figures of the methods paragraph: the gold as ``lexsub compile`` makes it with
    the default options (with the model annotators' answers when ``include_models``), and
    the agreement report the agreement page shows; annotators by pseudonym
    (:mod:`annotate.services.pseudonyms`)."""
    names = pseudonyms_of(dataset)
    compiled = compile_dataset(dataset, CompileOptions(include_models=include_models), names=names)
    return study_figures(
        dataset.name,
        compiled,
        dataset_agreement(dataset, compiled, seed),
        check_scores(dataset, names),
    )


def model_comparisons(dataset: Dataset, keep_checks: bool = False) -> tuple[ModelComparison, ...]:
    """Each model annotator of the dataset beside the people
    (:func:`annotate.gold.model_annotators.compare_models`): the dataset compiled with the
    models' answers (the people's as the gold has them), annotators by pseudonym; none
    when no model answered."""
    if not has_model_answers(dataset):
        return ()
    names = pseudonyms_of(dataset)
    options = CompileOptions(keep_checks=keep_checks, include_models=True)
    compiled = compile_dataset(dataset, options, names=names)
    lines = list(annotator_lines(compiled))
    return compare_models(parse_annotators(lines, f"{dataset.name} annotators") if lines else ())
