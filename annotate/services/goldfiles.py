"""The gold compiler run on a dataset in the database: its responses, the organiser's
lemma decisions, and the files. The compiling itself is pure
(:mod:`annotate.gold`); this module only reads and writes the database."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy import select

from annotate.extensions import db
from annotate.gold import (
    CompiledGold,
    CompileOptions,
    Decision,
    DecisionError,
    Decisions,
    LemmaChange,
    compile_responses,
    write_decisions,
    write_outputs,
)
from annotate.gold.compiler import lemmatiser_of
from annotate.gold.decisions import check_correction, decisions_text
from annotate.gold.review import (
    FormUse,
    IrregularForm,
    form_uses,
    irregular_forms,
    missing_form,
    pending_changes,
    response_forms,
)
from annotate.gold.write import output_texts
from annotate.importer import MAX_ITEM
from annotate.models import CheckItem, Dataset, Instance, LemmaDecision
from annotate.services.datasets import export_records
from annotate.services.exclusions import exclusions_of
from annotate.services.pseudonyms import Pseudonyms, pseudonyms_of
from annotate.services.rules import ServiceError, check_text
from annotate.services.taskgold import task_files
from scoring.errors import FormatError
from scoring.formats.exclusions import Exclusion, merge
from scoring.formats.keys import InvalidKey, check_lexelt
from scoring.formats.responses import Response, parse_response

MAX_SURFACE = 255  # LemmaDecision.surface and .lemma


def decisions_of(dataset: Dataset) -> Decisions:
    rows = db.session.scalars(
        select(LemmaDecision)
        .where(LemmaDecision.dataset_id == dataset.id)
        .order_by(LemmaDecision.id)
    )
    return Decisions(
        tuple(
            Decision(
                row.surface,
                row.action,  # type: ignore[arg-type]
                row.lemma,
                row.lexelt or None,
            )
            for row in rows
        )
    )


def decide(
    dataset: Dataset, surface: str, action: str, lemma: str | None, lexelt: str | None, who: str
) -> LemmaDecision:
    """Record (or replace) the decision on ``surface`` for every word or one lexelt.
    ``surface`` and ``lemma`` (at most 255 characters) and ``lexelt`` (120) are refused
    with :class:`ServiceError` when too long or holding a control character, and a
    correction's ``lemma`` when the rule of an answer refuses it (it is stored as that
    rule cleans it: :func:`~annotate.gold.decisions.check_correction`)."""
    if action not in ("accept", "reject", "correct"):
        raise ServiceError(f"action {action[:40]!r} is not accept, reject or correct")
    check_text(surface, "surface", MAX_SURFACE)
    if lexelt is not None:
        check_text(lexelt, "lexelt", MAX_ITEM)
        try:
            check_lexelt(lexelt)
        except InvalidKey as error:
            raise ServiceError(f"lexelt {error.message}") from None
    if action == "correct" and not (lemma or "").strip():
        raise ServiceError("a correction needs the lemma to use")
    if action == "correct" and lemma is not None:
        check_text(lemma.strip(), "lemma", MAX_SURFACE)
        try:
            lemma = check_correction(lemma)
        except DecisionError as error:
            raise ServiceError(str(error)) from None
        language = dataset.language or "en"
        forms = response_forms(dataset_records(dataset), language)
        missing = missing_form(surface, lexelt, forms, language)
        if missing is not None:
            raise ServiceError(missing)
    row = _store(dataset, surface, action, lemma, lexelt, who)
    db.session.commit()
    return row


def _store(
    dataset: Dataset, surface: str, action: str, lemma: str | None, lexelt: str | None, who: str
) -> LemmaDecision:
    """Add or replace the stored decision on ``surface`` (checked by the caller)."""
    row = db.session.scalar(
        select(LemmaDecision).where(
            LemmaDecision.dataset_id == dataset.id,
            LemmaDecision.surface == surface,
            LemmaDecision.lexelt == (lexelt or ""),
        )
    )
    if row is None:
        row = LemmaDecision(dataset_id=dataset.id, surface=surface, lexelt=lexelt or "")
        db.session.add(row)
    row.action = action
    row.lemma = lemma.strip() if action == "correct" and lemma else None
    row.decided_by = who
    return row


def accept_all(dataset: Dataset, who: str) -> list[str]:
    """Accept every proposal no decision covers yet, in one action: each pending change
    of the lemmatiser (a global 'accept') and each irregular form another answer's lemma
    explains (a correction to that lemma for its word). Each is then a stored decision the
    review lists and that can be decided again. What was accepted, ``surface → lemma``
    (``[lexelt]`` for a word's own), in order."""
    review = lemma_review_of(dataset)
    done: list[str] = []
    pending: dict[str, str] = {}
    for change in pending_changes(review.gold):
        pending.setdefault(change.surface, change.proposed)
    for surface, proposed in sorted(pending.items()):
        _store(dataset, surface, "accept", None, None, who)
        done.append(f"{surface} → {proposed}")
    for form in review.irregular:
        _store(dataset, form.surface, "correct", form.lemma, form.lexelt, who)
        done.append(f"{form.surface} → {form.lemma} [{form.lexelt}]")
    db.session.commit()
    return done


class BrokenDataset(ServiceError):
    """Stored responses the compiler's reader refuses: a lexelt or instance id that an
    older version imported without the gold's rules (:mod:`scoring.formats.keys`). The pages
    that compile the dataset show the message (409) instead of failing."""


def check_ids(dataset: Dataset) -> set[str]:
    """The ids of the dataset's attention-check sentences (:mod:`annotate.services.checks`)."""
    return set(
        db.session.scalars(
            select(Instance.xml_id)
            .join(CheckItem, CheckItem.instance_id == Instance.id)
            .where(CheckItem.dataset_id == dataset.id)
        )
    )


def dataset_records(dataset: Dataset, keep_checks: bool = False) -> list[Response]:
    """The dataset's current responses as the compiler reads them, its attention-check
    sentences' left out unless ``keep_checks`` (and a complexity study's ratings, which are
    not substitutes: they compile by :mod:`annotate.services.taskgold`);
    :class:`BrokenDataset` naming every response (``DATASET:N``), its value and the rule
    when some break one."""
    checks = set() if keep_checks else check_ids(dataset)
    try:
        return [
            parse_response(record, f"{dataset.name}:{index}")
            for index, record in enumerate(export_records(dataset), 1)
            if record["instance"] not in checks and record["kind"] != "rating"
        ]
    except FormatError as error:
        raise BrokenDataset(
            f"dataset {dataset.name!r} cannot be compiled: it holds what an older version "
            f"imported without the gold's rules for a lexelt and an instance id. {error}"
        ) from None


def compile_dataset(
    dataset: Dataset,
    options: CompileOptions | None = None,
    records: list[Response] | None = None,
    names: Pseudonyms | None = None,
) -> CompiledGold:
    """Compile the dataset's current responses (or ``records`` read from them) with its
    stored decisions, in its language (``Dataset.language``: the lemmatiser and rules),
    leaving out ``options.excluded`` and the dataset's exclusions
    (:func:`~annotate.services.exclusions.exclusions_of`: stored, removed, deactivated).
    Its attention-check sentences are left out unless ``options.keep_checks``; the gold
    says how many (:attr:`CompiledGold.check_items_left_out`). Model annotators
    (``llm:…``) are compiled only with ``options.include_models``. With ``names`` every
    annotator is named by pseudonym (:mod:`annotate.services.pseudonyms`): the gold as it
    may leave the app."""
    base = options or CompileOptions()
    if records is None:
        records = dataset_records(dataset, base.keep_checks)
    excluded = merge(base.excluded, exclusions_of(dataset))
    if names is not None:
        records = [replace(record, annotator=names(record.annotator)) for record in records]
        excluded = merge(Exclusion(names(row.annotator), row.reason) for row in excluded)
    checks = len(check_ids(dataset))
    gold = compile_responses(
        records,
        CompileOptions(
            normalise=base.normalise,
            lemmatise=base.lemmatise,
            lemmatiser=base.lemmatiser,
            decisions=decisions_of(dataset),
            t_rule=base.t_rule,
            only_t=base.only_t,
            language=dataset.language or "en",
            excluded=excluded,
            keep_checks=base.keep_checks,
            include_models=base.include_models,
        ),
    )
    if not checks:
        return gold
    return replace(gold, check_items_left_out=0 if base.keep_checks else checks)


def write_dataset_gold(
    dataset: Dataset, out: Path, options: CompileOptions | None = None
) -> CompiledGold:
    """The compiler's files in ``out`` plus ``decisions.json``, so a compile can be redone
    with ``lexsub compile … --decisions out/decisions.json``; a
    simplification study's ``tsar_gold.tsv`` too (:func:`write_task_files`)."""
    gold = compile_dataset(dataset, options, names=pseudonyms_of(dataset))
    write_outputs(gold, out)
    write_decisions(out / "decisions.json", decisions_of(dataset))
    write_task_files(dataset, out)
    return gold


def write_task_files(dataset: Dataset, out: Path) -> dict[str, str]:
    """The study's gold in its benchmark's layout
    (:func:`annotate.services.taskgold.task_files`) written into ``out``."""
    files = task_files(dataset)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8", newline="")
    return files


def gold_files(dataset: Dataset, options: CompileOptions | None = None) -> dict[str, bytes]:
    """The files ``lexsub compile --dataset NAME --out DIR`` writes with ``options``
    (gold, mwgold, annotators.jsonl, summary.json, decisions.json), name → bytes, sorted
    by name: the same texts are written there, so they are the same bytes. Annotators are
    named by pseudonym (:func:`~annotate.services.pseudonyms.pseudonyms_of`). A complexity
    study's are its ratings' files only (``lcp_gold.tsv``, ``agreement.json``), a
    simplification study's add ``tsar_gold.tsv``."""
    texts = task_files(dataset)
    if dataset.task != "complexity":
        texts |= output_texts(compile_dataset(dataset, options, names=pseudonyms_of(dataset)))
        texts["decisions.json"] = decisions_text(decisions_of(dataset))
    return {name: texts[name].encode("utf-8") for name in sorted(texts)}


ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every member of the zip is dated the same, so the same files give the same zip."""


def gold_zip(dataset: Dataset, options: CompileOptions | None = None) -> bytes:
    """The same files as a zip archive, for the organiser's download; the same files
    always give the same archive."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in gold_files(dataset, options).items():
            member = zipfile.ZipInfo(name, ZIP_TIME)
            member.compress_type = zipfile.ZIP_DEFLATED
            member.external_attr = 0o644 << 16
            archive.writestr(member, data)
    return buffer.getvalue()


def proposed_changes(dataset: Dataset) -> tuple[LemmaChange, ...]:
    """Every lemma change the compiler proposes or has decided, for the review."""
    return compile_dataset(dataset).lemma_changes


@dataclass(frozen=True)
class LemmaReview:
    """The lemma review of a dataset: its compiled gold, the lemma changes proposed or
    decided, the irregular forms another answer's lemma explains (proposed as
    corrections), and every form of the responses with where it occurs and its gold form
    (to correct any of them)."""

    gold: CompiledGold
    changes: tuple[LemmaChange, ...]
    irregular: tuple[IrregularForm, ...]
    forms: tuple[FormUse, ...]

    @property
    def proposals(self) -> int:
        """How many proposals no decision covers yet (what 'accept all' would accept):
        the surfaces of the pending changes and the irregular forms."""
        return len({change.surface for change in pending_changes(self.gold)}) + len(self.irregular)


def lemma_review_of(dataset: Dataset) -> LemmaReview:
    """The review's lists (:class:`LemmaReview`), from one compile of the dataset."""
    records = dataset_records(dataset)
    gold = compile_dataset(dataset, records=records)
    uses = form_uses(records, gold)
    lemmatiser = lemmatiser_of(CompileOptions(language=dataset.language or "en"))
    irregular = irregular_forms(uses, decisions_of(dataset), lemmatiser)
    return LemmaReview(gold, gold.lemma_changes, irregular, uses)
