"""A dataset's agreement report and methods paragraph, as the pages and ``lexsub report``
give them: the gold compiled with the dataset's exclusions (:func:`compile_dataset`), its
``annotators.jsonl`` read back, and one call of :func:`scoring.agreement.report.report`.
The rendering is pure (:mod:`annotate.gold.methods`)."""

from __future__ import annotations

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold import CompiledGold
from annotate.gold.methods import CheckScore, StudyFigures, study_figures
from annotate.gold.write import annotator_lines
from annotate.models import Dataset, User
from annotate.services import checks
from annotate.services.exclusions import exclusions_of
from annotate.services.goldfiles import check_ids, compile_dataset
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


def study_methods(dataset: Dataset, seed: int = SEED) -> StudyFigures:
    """The figures of the methods paragraph: the gold as ``lexsub compile`` makes it with
    the default options, and the agreement report the agreement page shows; annotators
    by pseudonym (:mod:`annotate.services.pseudonyms`)."""
    names = pseudonyms_of(dataset)
    compiled = compile_dataset(dataset, names=names)
    return study_figures(
        dataset.name,
        compiled,
        dataset_agreement(dataset, compiled, seed),
        check_scores(dataset, names),
    )
