"""The database: accounts, datasets and their instances, responses with their history.

Every save of an answer updates the current :class:`Response` of (annotator, instance)
and appends a :class:`Revision`, in one transaction (nothing is lost). The
dictionary tick of a word is the one of the annotator's latest save in that word
(:func:`annotate.services.responses.word_flag`): each response keeps the tick it was saved with.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from functools import cache
from typing import Any

from flask_login import UserMixin
from sqlalchemy import JSON, ColumnElement, ForeignKey, Index, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, QueryableAttribute, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from annotate.extensions import db
from annotate.importer import MAX_HEAD, MAX_INSTANCE_ID, MAX_ITEM
from scoring.signature import PROVENANCE_SUFFIX, Provenance, parse_provenance

ROLES = ("annotator", "organiser")
MODEL_ROLE = "model"
"""The role of a model annotator's account (``llm:MODEL``,
:mod:`annotate.services.model_annotation`): not one of :data:`ROLES`, which people are
given; nobody logs in as it."""
TASKS = ("substitution", "simplification", "complexity")
"""What a dataset's annotators do: give substitutes (McCarthy & Navigli 2007), give
simpler substitutes (Saggion et al. 2022), or rate the target's complexity from 1 to 5
(Shardlow et al. 2024)."""
KINDS = ("substitutes", "name", "nil")

IdValue = int | ColumnElement[int] | QueryableAttribute[int]
"""An id in SQL: a value, or a column (of an aliased table, a CTE) in a larger query."""


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """``moment`` with its zone: every time is stored in UTC, and SQLite gives it back
    without its offset (PostgreSQL with it), so a time read back without one is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def shown_time(moment: datetime | None, format: str = "%Y-%m-%d %H:%M") -> str:
    """``moment`` as the pages show a time: in UTC, which they say (``2026-12-02 04:36
    UTC``); '' for no time. The templates' ``when`` filter."""
    if moment is None:
        return ""
    return f"{aware(moment).astimezone(UTC).strftime(format)} UTC"


def new_session_token() -> str:
    """A fresh random session token (43 characters, 256 bits)."""
    return secrets.token_urlsafe(32)


@cache
def _dummy_hash() -> str:
    """A hash made as every password's is, of a password nobody knows."""
    return generate_password_hash(secrets.token_urlsafe(16))


def check_no_password(password: str) -> bool:
    """Spend the time of one password check, for a log-in whose user is unknown, so
    that the answer's timing does not tell which usernames exist. Always False."""
    check_password_hash(_dummy_hash(), password)
    return False


class User(UserMixin, db.Model):  # type: ignore[name-defined,misc]
    """An account. Its session cookie carries ``session_token``, not the id (flask-login's
    alternative id): a new token, on logout, on a password change and on
    (de)activation, ends every session of the account at once."""

    __tablename__ = "users"
    # a participant id names one account within one study only
    __table_args__ = (UniqueConstraint("study_id", "participant_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    role: Mapped[str] = mapped_column(String(16), default="annotator")
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    session_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_session_token)
    # A crowd participant (Prolific, Mechanical Turk) arrives by a study link with this
    # id and has no password: only the link of ``study_id`` (the dataset whose study made
    # the account) logs them in (annotate.services.study). The same id in another study is
    # another account.
    participant_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    study_id: Mapped[int | None] = mapped_column(
        ForeignKey("datasets.id"), nullable=True, index=True
    )
    # Onboarding (annotate.services.onboarding): when the participant pressed Start (and so
    # agreed to the consent text, if the study has one); how many comprehension attempts
    # they failed; when they were screened out (two failures: no sentences ever after).
    started_at: Mapped[datetime | None] = mapped_column(nullable=True)
    comprehension_failures: Mapped[int] = mapped_column(default=0, server_default="0")
    screened_out_at: Mapped[datetime | None] = mapped_column(nullable=True)
    # Finishing (annotate.services.finishing): when the participant's sentences were first
    # all answered, what that decided (``completed``: the completion code; ``blocked``:
    # the check score was under a threshold that blocks) and the check score then
    # (matched of answered). The decision stands: later edits change the score shown
    # beside it, never the code.
    finished_at: Mapped[datetime | None] = mapped_column(nullable=True)
    finish_decision: Mapped[str | None] = mapped_column(String(16), nullable=True)
    finish_matched: Mapped[int | None] = mapped_column(nullable=True)
    finish_answered: Mapped[int | None] = mapped_column(nullable=True)

    def get_id(self) -> str:  # what flask-login keeps in the session cookie
        return self.session_token

    def end_sessions(self) -> None:
        """Every session of this account ends: its cookies name the old token."""
        self.session_token = new_session_token()

    def set_password(self, password: str) -> None:
        """Set a new password; the sessions opened with the old one end."""
        self.password_hash = generate_password_hash(password)
        self.end_sessions()

    def set_active(self, active: bool) -> None:
        """Activate or deactivate the account; either way its sessions end."""
        self.active = active
        self.end_sessions()

    def check_password(self, password: str) -> bool:
        if not self.password_hash:  # a participant: no password opens the account
            return check_no_password(password)
        return check_password_hash(self.password_hash, password)

    @property
    def is_active(self) -> bool:  # flask-login refuses inactive accounts
        return self.active

    @property
    def is_organiser(self) -> bool:
        return self.role == "organiser"


class Dataset(db.Model):  # type: ignore[name-defined,misc]
    __tablename__ = "datasets"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    source: Mapped[str] = mapped_column(String(255), default="")
    source_sha256: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(default=now)
    # When the organiser archived it (none: in use). An archived dataset is kept whole
    # but hidden from annotators: not listed, not opened, its study link closed
    # (annotate.services.study); organisers still see it and can unarchive it.
    archived_at: Mapped[datetime | None] = mapped_column(nullable=True)
    # The study design (annotate.services.study): ``all`` (every member annotates every sentence)
    # or ``overlap`` (each sentence gets ``per_sentence`` annotators, each annotator a
    # batch of about ``batch_size`` sentences, a word's sentences together).
    guidelines: Mapped[str] = mapped_column(Text, default="")
    design: Mapped[str] = mapped_column(String(16), default="all")
    per_sentence: Mapped[int | None] = mapped_column(nullable=True)
    batch_size: Mapped[int | None] = mapped_column(nullable=True)
    study_token: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    completion_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # The crowd study's rules (annotate.services.study): the code shown to a participant refused
    # after starting (none: no code); the minutes after which an unfinished overlap batch
    # whose participant saved nothing goes back to the pool (none: never); the most
    # participants at once (none: no cap).
    screenout_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    release_minutes: Mapped[int | None] = mapped_column(
        nullable=True, default=30, server_default="30"
    )
    max_participants: Mapped[int | None] = mapped_column(nullable=True)
    # Onboarding and quality (annotate.services.onboarding, annotate.services.checks): the
    # consent text shown before Start (empty: none); the comprehension questions
    # (annotate.comprehension's format; empty: none); the share of check items a
    # participant must match (percent; none: no threshold) and what falling below does
    # (``warn``: flagged to the organiser; ``block``: no completion code); the seconds per
    # sentence under which a participant's median flags them as a speeder (none: never).
    consent: Mapped[str] = mapped_column(Text, default="", server_default="")
    comprehension: Mapped[str] = mapped_column(Text, default="", server_default="")
    check_threshold: Mapped[int | None] = mapped_column(nullable=True)
    check_action: Mapped[str] = mapped_column(String(8), default="warn", server_default="warn")
    speeder_seconds: Mapped[int | None] = mapped_column(nullable=True)
    # What participants see (annotate.services.study): the study's public title (empty:
    # "Study", never the dataset's internal name); the platform whose id format a
    # participant id must have (``prolific``, ``mturk``, ``other``: any id); where a
    # closed study's link sends a participant back (a Prolific return URL; none: the
    # screen-out code, if any).
    public_title: Mapped[str] = mapped_column(String(200), default="", server_default="")
    platform: Mapped[str] = mapped_column(String(16), default="other", server_default="other")
    return_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    # The token of the study link while it is closed: the link then says "This study is
    # closed" (never a bare 404), and opening the study again opens the same link.
    closed_token: Mapped[str | None] = mapped_column(String(64), unique=True, nullable=True)
    # The study's language, an ISO 639-1 code: it picks the lemmatiser, the
    # annotator pages' catalogue and their ``lang`` attribute.
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    # The annotators' task (:data:`TASKS`), and the imported file's own gold when it
    # carries one (TSAR's or MLSP's substitutes or complexities, the file's text).
    task: Mapped[str] = mapped_column(
        String(16), default="substitution", server_default="substitution"
    )
    reference: Mapped[str] = mapped_column(Text, default="", server_default="")
    # Its figures, fixed at import (:func:`annotate.services.datasets.import_dataset`), so that no
    # page counts them over the whole dataset: its sentences, and its words that have one.
    sentences: Mapped[int] = mapped_column(default=0, server_default="0")
    words: Mapped[int] = mapped_column(default=0, server_default="0")
    lexelts: Mapped[list[Lexelt]] = relationship(
        back_populates="dataset", order_by="Lexelt.position"
    )


class DatasetMember(db.Model):  # type: ignore[name-defined,misc]
    """An annotator assigned to a dataset: only members see and open it."""

    __tablename__ = "dataset_members"
    __table_args__ = (UniqueConstraint("dataset_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    added_at: Mapped[datetime] = mapped_column(default=now)


class Assignment(db.Model):  # type: ignore[name-defined,misc]
    """A sentence given to a member (overlap and crowd designs). A member with no
    assignment in a dataset annotates all of its sentences."""

    __tablename__ = "assignments"
    __table_args__ = (UniqueConstraint("user_id", "instance_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    instance_id: Mapped[int] = mapped_column(ForeignKey("instances.id"), index=True)
    assigned_at: Mapped[datetime] = mapped_column(default=now)


class CheckItem(db.Model):  # type: ignore[name-defined,misc]
    """A sentence the organiser made an attention check (a gold item): the substitutes it
    accepts, matched after the compiler's normalisation and lemmatisation. Left out of
    the gold and the agreement by default (annotate.services.goldfiles)."""

    __tablename__ = "check_items"
    __table_args__ = (UniqueConstraint("instance_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    instance_id: Mapped[int] = mapped_column(ForeignKey("instances.id"))
    accepted: Mapped[list[str]] = mapped_column(JSON, default=list)


class SentenceView(db.Model):  # type: ignore[name-defined,misc]
    """When a crowd participant first saw a sentence: with their first save of it
    (the first :class:`Revision`), their time on the sentence."""

    __tablename__ = "sentence_views"
    __table_args__ = (UniqueConstraint("user_id", "instance_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    instance_id: Mapped[int] = mapped_column(ForeignKey("instances.id"))
    first_at: Mapped[datetime] = mapped_column(default=now)


class Lexelt(db.Model):  # type: ignore[name-defined,misc]
    """A target word (``bright.a``, ``stand.n.v``): its sentences are annotated together."""

    __tablename__ = "lexelts"
    __table_args__ = (UniqueConstraint("dataset_id", "item"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    item: Mapped[str] = mapped_column(String(MAX_ITEM))
    lemma: Mapped[str] = mapped_column(String(MAX_ITEM))
    pos: Mapped[str] = mapped_column(String(1))
    position: Mapped[int] = mapped_column()
    # k of "word k of n": how many of the dataset's words with a sentence come up to this
    # one, itself included (fixed at import with the dataset's figures)
    word_index: Mapped[int] = mapped_column(default=0, server_default="0")
    dataset: Mapped[Dataset] = relationship(back_populates="lexelts")
    instances: Mapped[list[Instance]] = relationship(
        back_populates="lexelt", order_by="Instance.position"
    )


class Instance(db.Model):  # type: ignore[name-defined,misc]
    """One sentence: the context around the target (``head``), in file order."""

    __tablename__ = "instances"
    __table_args__ = (
        UniqueConstraint("dataset_id", "xml_id"),
        # an annotator's next sentence: the first of theirs after a position in a dataset
        Index("ix_instances_dataset_id_position", "dataset_id", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    lexelt_id: Mapped[int] = mapped_column(ForeignKey("lexelts.id"), index=True)
    xml_id: Mapped[str] = mapped_column(String(MAX_INSTANCE_ID))
    position: Mapped[int] = mapped_column(index=True)
    before: Mapped[str] = mapped_column(Text)
    head: Mapped[str] = mapped_column(String(MAX_HEAD))
    after: Mapped[str] = mapped_column(Text)
    lexelt: Mapped[Lexelt] = relationship(back_populates="instances")


class Response(db.Model):  # type: ignore[name-defined,misc]
    """The current answer of one annotator for one instance."""

    __tablename__ = "responses"
    __table_args__ = (UniqueConstraint("user_id", "instance_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    instance_id: Mapped[int] = mapped_column(ForeignKey("instances.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    substitutes: Mapped[list[str]] = mapped_column(JSON, default=list)
    multiword: Mapped[str | None] = mapped_column(String(255), nullable=True)
    # the tick sent with this answer's latest save; the word's is its latest save's
    used_dictionary: Mapped[bool] = mapped_column(default=False, server_default=false())
    updated_at: Mapped[datetime] = mapped_column(default=now)
    saves: Mapped[int] = mapped_column(default=1)


class Revision(db.Model):  # type: ignore[name-defined,misc]
    """Append-only history: one row for every save, never updated or deleted."""

    __tablename__ = "revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    instance_id: Mapped[int] = mapped_column(ForeignKey("instances.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    substitutes: Mapped[list[str]] = mapped_column(JSON, default=list)
    multiword: Mapped[str | None] = mapped_column(String(255), nullable=True)
    used_dictionary: Mapped[bool] = mapped_column(default=False)
    saved_at: Mapped[datetime] = mapped_column(default=now)


class LemmaDecision(db.Model):  # type: ignore[name-defined,misc]
    """An organiser's decision on a lemma change the compiler proposes: ``accept``,
    ``reject`` or ``correct`` (to ``lemma``), for every word or for one ``lexelt``."""

    __tablename__ = "lemma_decisions"
    __table_args__ = (UniqueConstraint("dataset_id", "surface", "lexelt"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    surface: Mapped[str] = mapped_column(String(255))
    action: Mapped[str] = mapped_column(String(8))
    lemma: Mapped[str | None] = mapped_column(String(255), nullable=True)
    lexelt: Mapped[str] = mapped_column(String(120), default="")  # '' = every word
    decided_by: Mapped[str] = mapped_column(String(80), default="")
    decided_at: Mapped[datetime] = mapped_column(default=now)


class AnnotatorExclusion(db.Model):  # type: ignore[name-defined,misc]
    """An annotator left out of a dataset's gold, agreement and scores, with the reason;
    their answers stay (:mod:`annotate.services.exclusions`)."""

    __tablename__ = "annotator_exclusions"
    __table_args__ = (UniqueConstraint("dataset_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    reason: Mapped[str] = mapped_column(String(255))
    excluded_by: Mapped[str] = mapped_column(String(80), default="")
    excluded_at: Mapped[datetime] = mapped_column(default=now)


class SystemRun(db.Model):  # type: ignore[name-defined,misc]
    """A system file uploaded to a dataset's leaderboard: the file as
    uploaded, who and when, the rules it is scored under, and its last scoring: the
    figures, coverage, warnings, score.pl's output and diagnosis, and the signature and
    SHA-256 of the gold it was scored against; the text of its provenance file when one
    was uploaded with it (:meth:`made`)."""

    __tablename__ = "system_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    file_name: Mapped[str] = mapped_column(String(255))
    content: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))  # best, oot or ranked
    rules: Mapped[str] = mapped_column(String(8), default="compat")  # or fixed
    uploaded_by: Mapped[str] = mapped_column(String(80), default="")
    uploaded_at: Mapped[datetime] = mapped_column(default=now)
    scored_at: Mapped[datetime] = mapped_column(default=now)
    gold_signature: Mapped[str] = mapped_column(Text, default="")
    gold_sha256: Mapped[str] = mapped_column(String(64), default="")
    answered: Mapped[int] = mapped_column(default=0)  # items of T with an answer
    gold_items: Mapped[int] = mapped_column(default=0)  # items in T
    scores: Mapped[dict[str, float | None]] = mapped_column(JSON, default=dict)
    warnings: Mapped[list[str]] = mapped_column(JSON, default=list)
    diagnosis: Mapped[list[str]] = mapped_column(JSON, default=list)
    scorer_output: Mapped[str] = mapped_column(Text, default="")
    provenance: Mapped[str | None] = mapped_column(Text, nullable=True, default=None)

    def made(self) -> Provenance | None:
        """What its provenance file says made it (the model, the parameters), read as
        ``lexsub compare`` reads one; None when none was uploaded with it."""
        if self.provenance is None:
            return None
        return parse_provenance(self.provenance, self.file_name + PROVENANCE_SUFFIX)


class ModelAnnotation(db.Model):  # type: ignore[name-defined,misc]
    """A language model that answered a dataset as an annotator (``lexsub llm-annotate``,
    :mod:`annotate.services.model_annotation`): its annotator names (``llm:MODEL``, or
    ``llm:MODEL#1`` … with several samples), how many items it answered, and the
    provenance of its last run: the endpoint's host, the parameters, the prompt's hash,
    tokens and failures (never the API key). A new run of the same model replaces it."""

    __tablename__ = "model_annotations"
    __table_args__ = (UniqueConstraint("dataset_id", "model"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id"), index=True)
    model: Mapped[str] = mapped_column(String(80))
    annotators: Mapped[list[str]] = mapped_column(JSON, default=list)
    answered: Mapped[int] = mapped_column(default=0)
    provenance: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(default=now)


# --- judgement rounds (the post hoc study, lexical reference) ---------------------------


class JudgementRound(db.Model):  # type: ignore[name-defined,misc]
    """A judgement study: items (a sentence and its candidates) that judges label with
    one label set (:mod:`scoring.judgements.labels`). ``kind`` is ``posthoc`` (sampled
    from a gold and system files with ``seed``; ``eligible`` items qualified) or ``rows``
    (from a rows file); ``layout`` is ``sentence`` (all candidates of a sentence on one
    screen, the default, as the paper's judges saw them) or ``candidate`` (one a screen)."""

    __tablename__ = "judgement_rounds"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    label_set: Mapped[str] = mapped_column(String(32))
    layout: Mapped[str] = mapped_column(String(16), default="sentence")
    dataset_id: Mapped[int | None] = mapped_column(ForeignKey("datasets.id"), nullable=True)
    seed: Mapped[int | None] = mapped_column(nullable=True)
    eligible: Mapped[int | None] = mapped_column(nullable=True)
    systems: Mapped[list[str]] = mapped_column(JSON, default=list)
    source: Mapped[str] = mapped_column(Text, default="")
    created_by: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(default=now)


class RoundItem(db.Model):  # type: ignore[name-defined,misc]
    """One item of a round: its id (``lexelt``-free gold id, or the rows file's), the
    target word and the sentence around the target."""

    __tablename__ = "round_items"
    __table_args__ = (UniqueConstraint("round_id", "item"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("judgement_rounds.id"), index=True)
    position: Mapped[int] = mapped_column()
    item: Mapped[str] = mapped_column(String(255))
    word: Mapped[str] = mapped_column(String(255), default="")
    before: Mapped[str] = mapped_column(Text)
    target: Mapped[str] = mapped_column(String(255))
    after: Mapped[str] = mapped_column(Text)


class RoundCandidate(db.Model):  # type: ignore[name-defined,misc]
    """One candidate of an item, in the (random) order judges see; ``origin`` is hidden
    from them."""

    __tablename__ = "round_candidates"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("judgement_rounds.id"), index=True)
    round_item_id: Mapped[int] = mapped_column(ForeignKey("round_items.id"), index=True)
    position: Mapped[int] = mapped_column()
    text: Mapped[str] = mapped_column(String(255))
    origin: Mapped[list[str]] = mapped_column(JSON, default=list)


class RoundJudge(db.Model):  # type: ignore[name-defined,misc]
    """A judge assigned to a round: only they open its screens."""

    __tablename__ = "round_judges"
    __table_args__ = (UniqueConstraint("round_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("judgement_rounds.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    added_at: Mapped[datetime] = mapped_column(default=now)


class CandidateLabel(db.Model):  # type: ignore[name-defined,misc]
    """A judge's current label of a candidate; every save also appends a
    :class:`LabelRevision`, in one transaction (nothing is lost)."""

    __tablename__ = "candidate_labels"
    __table_args__ = (UniqueConstraint("user_id", "candidate_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    candidate_id: Mapped[int] = mapped_column(ForeignKey("round_candidates.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    label: Mapped[str] = mapped_column(String(32))
    updated_at: Mapped[datetime] = mapped_column(default=now)
    saves: Mapped[int] = mapped_column(default=1)


class LabelRevision(db.Model):  # type: ignore[name-defined,misc]
    """Append-only history of labels: one row per save, never updated or deleted."""

    __tablename__ = "label_revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    candidate_id: Mapped[int] = mapped_column(ForeignKey("round_candidates.id"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    label: Mapped[str] = mapped_column(String(32))
    saved_at: Mapped[datetime] = mapped_column(default=now)


class DatasetDeletion(db.Model):  # type: ignore[name-defined,misc]
    """A deleted dataset, kept as an audit line: its name, who deleted it and when, and how
    much went with it (:func:`annotate.services.datasets.delete_dataset`). Any organiser
    may delete any dataset; the organisers' dashboard lists the latest deletions."""

    __tablename__ = "dataset_deletions"

    id: Mapped[int] = mapped_column(primary_key=True)
    dataset_name: Mapped[str] = mapped_column(String(120))
    deleted_by: Mapped[str] = mapped_column(String(80))
    deleted_at: Mapped[datetime] = mapped_column(default=now, index=True)
    answers: Mapped[int] = mapped_column(default=0)
    sentences: Mapped[int] = mapped_column(default=0)
    accounts: Mapped[int] = mapped_column(default=0)
