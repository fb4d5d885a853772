"""Who annotates what: dataset members, sentence assignments and study designs.

A dataset is seen and opened only by its members (organisers see every dataset). A
member with no sentence assignment in a dataset annotates all its sentences (design
``all``); in the ``overlap`` design each member is given a batch of whole words, about
``batch_size`` sentences, so that each sentence gets exactly ``per_sentence`` annotators.
Crowd participants arrive by the dataset's study link with a participant id
(:func:`participant`): an id names one account within one study only. They are made
members, and see the completion code when their sentences are all answered. An
unfinished overlap batch whose participant has saved nothing for the study's
``release_minutes`` goes back to the pool (:func:`release_expired`); a study admits at
most ``max_participants`` at once; a participant refused (:class:`StudyFull`) gets no
account, and one refused after starting (their batch was released) the screen-out code.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, Exists, and_, delete, exists, func, or_, select, update
from sqlalchemy.orm import aliased

from annotate.extensions import db
from annotate.models import (
    Assignment,
    CheckItem,
    Dataset,
    DatasetMember,
    IdValue,
    Instance,
    Lexelt,
    Response,
    User,
)
from annotate.models import now as utc_now
from annotate.services.accounts import create_user
from annotate.services.crowd import (
    PARTICIPANT_ID,
    PLATFORM_IDS,
    PLATFORMS,
    check_participant_id,
    public_name,
)
from annotate.services.rules import ServiceError, check_username, shown, storable

DESIGNS = ("all", "overlap")
PER_SENTENCE = (1, 1000)
"""The overlap design's range of annotators per sentence."""
BATCH_SIZE = (1, 100000)
"""The overlap design's range of sentences in a batch."""
RELEASE_MINUTES = (1, 7 * 24 * 60)
"""The range of minutes after which an idle participant's batch goes back to the pool."""
MAX_PARTICIPANTS = (1, 1000000)
"""The range of a study's cap on participants."""


def member_of(user_id: IdValue, dataset_id: IdValue) -> Exists:
    """SQL: the user is a member of the dataset (``dataset_id`` a value or a column)."""
    member = aliased(DatasetMember)
    return exists().where(member.dataset_id == dataset_id, member.user_id == user_id)


def open_member_of(user_id: IdValue, dataset_id: IdValue) -> ColumnElement[bool]:
    """SQL: the user is a member of the dataset and it is not archived (what opens its
    sentences to an annotator; an archived dataset keeps its members for when it is
    brought back)."""
    archived = aliased(Dataset)
    return and_(
        member_of(user_id, dataset_id),
        ~exists().where(archived.id == dataset_id, archived.archived_at.is_not(None)),
    )


def assigned_in(user_id: IdValue, dataset_id: IdValue) -> Exists:
    """SQL: the user was given some of the dataset's sentences (not all of them)."""
    given = aliased(Assignment)  # an alias: never correlated with a query's own table
    return exists().where(given.dataset_id == dataset_id, given.user_id == user_id)


def assigned_to(user_id: IdValue, instance_id: IdValue) -> Exists:
    """SQL: the sentence was given to the user."""
    given = aliased(Assignment)
    return exists().where(given.instance_id == instance_id, given.user_id == user_id)


def is_member(user: User, dataset: Dataset) -> bool:
    return bool(db.session.scalar(select(member_of(user.id, dataset.id))))


def members(dataset: Dataset) -> list[User]:
    """The annotators assigned to ``dataset``, by username."""
    return list(
        db.session.scalars(
            select(User)
            .join(DatasetMember, DatasetMember.user_id == User.id)
            .where(DatasetMember.dataset_id == dataset.id)
            .order_by(User.username)
        )
    )


def sentences_of(
    user_id: IdValue,
    instance: type[Instance],
    dataset_id: IdValue,
    assigned_some: ColumnElement[bool] | None = None,
) -> ColumnElement[bool]:
    """The rule of whose sentences are whose, as a condition on ``instance`` (the
    :class:`Instance` table or an alias of it) that holds for this annotator's sentences
    of the dataset: all of them without assignments, else the assigned ones.
    ``assigned_some`` is :func:`assigned_in` as the query already has it (a column), if
    it does."""
    some = assigned_in(user_id, dataset_id) if assigned_some is None else assigned_some
    return and_(instance.dataset_id == dataset_id, or_(~some, assigned_to(user_id, instance.id)))


def sentence_filter(user: User, dataset: Dataset) -> ColumnElement[bool]:
    """A condition on :class:`Instance` that holds for this annotator's sentences of
    ``dataset`` (:func:`sentences_of`), in one SQL expression."""
    return sentences_of(user.id, Instance, dataset.id)


def opens(organiser: bool, member: bool, assigned_some: bool, assigned_this: bool) -> bool:
    """The rule of who opens a sentence: an organiser always; an annotator if they
    are a member of its dataset and it is one of their sentences (no assignment there,
    or this sentence assigned to them)."""
    return organiser or (member and (not assigned_some or assigned_this))


def sentence_count(user: User, dataset: Dataset) -> int:
    """How many sentences of ``dataset`` are this annotator's: all of them without
    instance assignments, else the assigned ones."""
    return (
        db.session.scalar(select(func.count(Instance.id)).where(sentence_filter(user, dataset)))
        or 0
    )


def answered_count(user: User, dataset: Dataset) -> int:
    """How many of this annotator's sentences of ``dataset`` have their answer."""
    return (
        db.session.scalar(
            select(func.count(Response.id))
            .join(Instance, Instance.id == Response.instance_id)
            .where(Response.user_id == user.id, sentence_filter(user, dataset))
        )
        or 0
    )


def answered_counts(dataset: Dataset) -> dict[int, int]:
    """user id → how many of their sentences of ``dataset`` have their answer, for every
    user with one: :func:`answered_count` for all of them in one grouped query (the
    organiser's pages; never the save path)."""
    rows = db.session.execute(
        select(Response.user_id, func.count(Response.id))
        .join(Instance, Instance.id == Response.instance_id)
        .where(sentences_of(Response.user_id, Instance, dataset.id))
        .group_by(Response.user_id)
    )
    return {user_id: count for user_id, count in rows}


def sentence_counts(dataset: Dataset, user_ids: list[int]) -> dict[int, int]:
    """user id → :func:`sentence_count` for each of ``user_ids``, in two queries: the
    sentences assigned to them, or every sentence of the dataset for one with none
    (:func:`sentences_of`'s rule)."""
    assigned = dict(
        db.session.execute(
            select(Assignment.user_id, func.count(Assignment.id))
            .where(Assignment.dataset_id == dataset.id, Assignment.user_id.in_(user_ids))
            .group_by(Assignment.user_id)
        ).all()
    )
    every = 0
    if any(user_id not in assigned for user_id in user_ids):
        every = (
            db.session.scalar(
                select(func.count(Instance.id)).where(Instance.dataset_id == dataset.id)
            )
            or 0
        )
    return {user_id: assigned.get(user_id, every) for user_id in user_ids}


def visible_datasets(user: User) -> list[Dataset]:
    """What ``user`` may open: every dataset for an organiser, the datasets they are a
    member of and that are not archived for an annotator (by id, the order they were
    imported in)."""
    query = select(Dataset).order_by(Dataset.id)
    if not user.is_organiser:
        query = query.join(DatasetMember, DatasetMember.dataset_id == Dataset.id).where(
            DatasetMember.user_id == user.id, Dataset.archived_at.is_(None)
        )
    return list(db.session.scalars(query))


def can_open(user: User, instance: Instance) -> bool:
    """Whether ``user`` may open the sentence (:func:`opens`); an annotator is no
    member of an archived dataset (:func:`open_member_of`)."""
    if user.is_organiser:
        return True
    row = db.session.execute(
        select(
            open_member_of(user.id, instance.dataset_id),
            assigned_in(user.id, instance.dataset_id),
            assigned_to(user.id, instance.id),
        )
    ).one()
    return opens(False, bool(row[0]), bool(row[1]), bool(row[2]))


@dataclass(frozen=True)
class Standing:
    """An annotator's progress on one dataset."""

    dataset: Dataset
    done: int
    total: int

    @property
    def finished(self) -> bool:
        return self.done >= self.total


def standings(user: User) -> list[Standing]:
    """Progress on every dataset ``user`` may open, in order."""
    return [
        Standing(dataset, answered_count(user, dataset), sentence_count(user, dataset))
        for dataset in visible_datasets(user)
    ]


def assign(user: User, dataset: Dataset) -> bool:
    """Make ``user`` a member of ``dataset`` (False: they were already). In the overlap
    design the new member is given the next batch (:func:`give_batch`); with every
    sentence covered already, :class:`ServiceError` and nothing changes."""
    if user.is_organiser:
        raise ServiceError(f"{user.username} is an organiser: only annotators are assigned")
    if is_member(user, dataset):
        return False
    if dataset.design == "overlap":
        release_expired(dataset)
    db.session.add(DatasetMember(dataset_id=dataset.id, user_id=user.id))
    db.session.flush()
    if dataset.design == "overlap" and not give_batch(user, dataset):
        db.session.rollback()
        raise ServiceError(
            f"every sentence of {dataset.name!r} has {dataset.per_sentence} annotators already"
        )
    db.session.commit()
    return True


def unassign(user: User, dataset: Dataset) -> bool:
    """End ``user``'s membership of ``dataset`` and their sentence assignments in it
    (False: they were not a member). Their answers stay."""
    if not is_member(user, dataset):
        return False
    db.session.execute(
        delete(DatasetMember).where(
            DatasetMember.dataset_id == dataset.id, DatasetMember.user_id == user.id
        )
    )
    db.session.execute(
        delete(Assignment).where(Assignment.dataset_id == dataset.id, Assignment.user_id == user.id)
    )
    db.session.commit()
    return True


def _check_ids(dataset: Dataset) -> list[int]:
    """The dataset's attention-check sentences (instance ids, in order)."""
    return list(
        db.session.scalars(
            select(CheckItem.instance_id)
            .where(CheckItem.dataset_id == dataset.id)
            .order_by(CheckItem.instance_id)
        )
    )


def batches(dataset: Dataset, size: int) -> list[list[int]]:
    """The sentences of ``dataset`` (instance ids, in order) but its attention-check ones
    cut into batches of whole words: a batch takes words until it has at least ``size``
    sentences (a word with more sentences than ``size`` is a batch of its own), so a
    word's sentences stay together. The check sentences are in every batch
    (:func:`give_batch`), outside this cut and the overlap's count."""
    if size < 1:
        raise ServiceError(f"a batch size is at least 1, not {size}")
    rows = db.session.execute(
        select(Instance.id, Instance.lexelt_id)
        .join(Lexelt, Lexelt.id == Instance.lexelt_id)
        .where(Instance.dataset_id == dataset.id, Instance.id.not_in(_check_ids(dataset)))
        .order_by(Lexelt.position, Instance.position)
    ).all()
    words: list[list[int]] = []
    for instance_id, lexelt_id in rows:
        if not words or words[-1][0] != lexelt_id:
            words.append([lexelt_id])
        words[-1].append(instance_id)
    result: list[list[int]] = []
    current: list[int] = []
    for word in words:
        current.extend(word[1:])
        if len(current) >= size:
            result.append(current)
            current = []
    if current:
        result.append(current)
    return result


def _lock(dataset: Dataset) -> None:
    """Lock the dataset's row until the transaction ends, so that what is read after it
    (a count, a free batch, an account) stays true until the commit: PostgreSQL's
    ``SELECT … FOR UPDATE``; on SQLite, whose ``FOR UPDATE`` is nothing, a write to the row
    first (an ``UPDATE`` that changes nothing), which opens the transaction holding the
    database's one write lock, as ``BEGIN IMMEDIATE`` would (another writer waits for the
    commit, up to the busy timeout). Read before it, a value may be stale: read it again."""
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(
            update(Dataset).where(Dataset.id == dataset.id).values(id=Dataset.id),
            execution_options={"synchronize_session": False},
        )
    else:
        db.session.execute(select(Dataset.id).where(Dataset.id == dataset.id).with_for_update())


def give_batch(user: User, dataset: Dataset) -> bool:
    """Assign ``user`` the first batch (of :func:`batches`) with the fewest annotators,
    fewer than ``per_sentence``, and every attention-check sentence (they sit outside the
    count); False when every batch has them all. Not committed.
    The dataset's row is locked first (:func:`_lock`), so that two arrivals at once do not
    both take the last free batch."""
    _lock(dataset)
    per_sentence = dataset.per_sentence or 1
    counts = dict(
        db.session.execute(  # a check sentence is in every batch: counted in none
            select(Assignment.instance_id, func.count(Assignment.id))
            .where(Assignment.dataset_id == dataset.id)
            .group_by(Assignment.instance_id)
        ).all()
    )
    candidates = [
        (max((counts.get(i, 0) for i in batch), default=0), index, batch)
        for index, batch in enumerate(batches(dataset, dataset.batch_size or 1))
    ]
    open_batches = [row for row in candidates if row[0] < per_sentence]
    if not open_batches:
        return False
    _, _, batch = min(open_batches, key=lambda row: (row[0], row[1]))
    db.session.add_all(
        Assignment(dataset_id=dataset.id, user_id=user.id, instance_id=i)
        for i in [*batch, *_check_ids(dataset)]
    )
    db.session.flush()
    return True


def set_design(
    dataset: Dataset, design: str, per_sentence: int | None, batch_size: int | None
) -> None:
    """Choose the design of ``dataset``: ``all``, or ``overlap`` with ``per_sentence``
    annotators per sentence and batches of ``batch_size`` sentences. Refused once any
    sentence is assigned (the batches would move under the annotators)."""
    if design not in DESIGNS:
        raise ServiceError(f"design {shown(design)} is not one of {', '.join(DESIGNS)}")
    if design == "overlap":
        if per_sentence is None or not PER_SENTENCE[0] <= per_sentence <= PER_SENTENCE[1]:
            raise ServiceError(
                f"the overlap design needs {PER_SENTENCE[0]}-{PER_SENTENCE[1]} annotators "
                "per sentence"
            )
        if batch_size is None or not BATCH_SIZE[0] <= batch_size <= BATCH_SIZE[1]:
            raise ServiceError(
                f"the overlap design needs a batch of {BATCH_SIZE[0]}-{BATCH_SIZE[1]} sentences"
            )
    else:
        per_sentence = batch_size = None
    changed = (design, per_sentence, batch_size) != (
        dataset.design,
        dataset.per_sentence,
        dataset.batch_size,
    )
    if changed and db.session.scalar(select(exists().where(Assignment.dataset_id == dataset.id))):
        raise ServiceError(
            f"sentences of {dataset.name!r} are assigned already: the design cannot change"
        )
    dataset.design, dataset.per_sentence, dataset.batch_size = design, per_sentence, batch_size
    db.session.commit()


def open_study(
    dataset: Dataset, completion_code: str | None = None, platform: str | None = None
) -> str:
    """Give ``dataset`` a study link token (kept if it has one; the closed link's again
    after :func:`close_study`) and a completion code (``completion_code`` if given, e.g.
    the one Prolific shows, else a random one); ``platform`` (:data:`PLATFORMS`), if
    given, is whose participant ids the link admits."""
    if completion_code is not None:
        completion_code = _code(completion_code, "completion code")
    if platform is not None:
        if platform not in PLATFORM_IDS:
            raise ServiceError(f"platform {shown(platform)} is not one of {', '.join(PLATFORMS)}")
        dataset.platform = platform
    if not dataset.study_token:
        dataset.study_token = dataset.closed_token or secrets.token_urlsafe(16)
        dataset.closed_token = None
    if completion_code or not dataset.completion_code:
        dataset.completion_code = completion_code or secrets.token_hex(4).upper()
    db.session.commit()
    return dataset.study_token


def close_study(dataset: Dataset) -> None:
    """The study link stops admitting (participants already in keep their sentences); it
    says "This study is closed" from now on (:func:`closed_study`)."""
    if dataset.study_token:
        dataset.closed_token = dataset.study_token
    dataset.study_token = None
    db.session.commit()


def study_dataset(token: str) -> Dataset | None:
    """The dataset whose study link carries ``token``, unless it is archived."""
    if not token or len(token) > 64 or not storable(token):
        return None
    dataset: Dataset | None = db.session.scalar(
        select(Dataset).where(Dataset.study_token == token, Dataset.archived_at.is_(None))
    )
    return dataset


class StudyFull(ServiceError):
    """A study refuses a participant: every batch has its annotators, or the study has
    its cap of participants. ``started``: the participant had an account already (their
    batch was released), so the study's screen-out code is theirs."""

    def __init__(self, message: str, started: bool) -> None:
        super().__init__(message)
        self.started = started


def _naive_utc(moment: datetime) -> datetime:
    """``moment`` as the database keeps times: UTC, without a time zone."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def release_expired(dataset: Dataset, now: datetime | None = None) -> list[int]:
    """Send back to the pool the unfinished batches of ``dataset``'s participants (accounts
    of its study) who have saved nothing for ``release_minutes``, counted from their last
    save in the batch or, with none, from when it was given: their membership and
    assignments end (:func:`unassign`, not committed); their answers stay. In the design
    ``all``, a participant who has saved nothing since being admitted that long ago stops
    being a member (:func:`_release_idle_members`). Annotators the organiser assigned
    keep their batches. The ids of the released accounts, in order."""
    if not dataset.release_minutes:
        return []
    cutoff = _naive_utc(now or utc_now()) - timedelta(minutes=dataset.release_minutes)
    if dataset.design != "overlap":
        return _release_idle_members(dataset, cutoff)
    rows = db.session.execute(
        select(
            Assignment.user_id,
            func.count(Assignment.id),
            func.count(Response.id),
            func.max(Assignment.assigned_at),
            func.max(Response.updated_at),
        )
        .join(User, User.id == Assignment.user_id)
        .outerjoin(
            Response,
            and_(
                Response.user_id == Assignment.user_id,
                Response.instance_id == Assignment.instance_id,
            ),
        )
        .where(Assignment.dataset_id == dataset.id, User.study_id == dataset.id)
        .group_by(Assignment.user_id)
        .order_by(Assignment.user_id)
    ).all()
    idle = [
        user_id
        for user_id, given, answered, assigned_at, saved_at in rows
        if answered < given and _naive_utc(max(filter(None, (assigned_at, saved_at)))) < cutoff
    ]
    if idle:
        for table in (DatasetMember, Assignment):
            db.session.execute(
                delete(table).where(table.dataset_id == dataset.id, table.user_id.in_(idle))
            )
        db.session.flush()
    return idle


def _release_idle_members(dataset: Dataset, cutoff: datetime) -> list[int]:
    """Design ``all``: the study's participants admitted before ``cutoff`` who have saved
    nothing in the dataset stop being members (their place under the cap is free again;
    not committed). Their ids, in order."""
    saved = aliased(Response)
    sentence = aliased(Instance)
    idle = list(
        db.session.scalars(
            select(DatasetMember.user_id)
            .join(User, User.id == DatasetMember.user_id)
            .where(
                DatasetMember.dataset_id == dataset.id,
                User.study_id == dataset.id,
                DatasetMember.added_at < cutoff,
                ~exists().where(
                    saved.user_id == DatasetMember.user_id,
                    saved.instance_id == sentence.id,
                    sentence.dataset_id == dataset.id,
                ),
            )
            .order_by(DatasetMember.user_id)
        )
    )
    if idle:
        db.session.execute(
            delete(DatasetMember).where(
                DatasetMember.dataset_id == dataset.id, DatasetMember.user_id.in_(idle)
            )
        )
        db.session.flush()
    return idle


def study_participants(dataset: Dataset) -> int:
    """How many accounts of ``dataset``'s study are its members now (released ones are
    not): what its cap counts."""
    return (
        db.session.scalar(
            select(func.count(User.id)).where(
                User.study_id == dataset.id, member_of(User.id, dataset.id)
            )
        )
        or 0
    )


def _account(dataset: Dataset, participant_id: str) -> User | None:
    user: User | None = db.session.scalar(
        select(User)
        .where(User.study_id == dataset.id, User.participant_id == participant_id)
        .execution_options(populate_existing=True)
    )
    return user


def has_account(dataset: Dataset, participant_id: str) -> bool:
    """Whether ``participant_id`` has an account in ``dataset``'s study already."""
    return bool(
        db.session.scalar(
            select(
                exists().where(User.study_id == dataset.id, User.participant_id == participant_id)
            )
        )
    )


def participant(dataset: Dataset, participant_id: str, now: datetime | None = None) -> User:
    """The account of crowd participant ``participant_id`` in ``dataset``'s study, a
    member of it: found, or, on the first visit, created without a password (username
    ``p<dataset id>-<participant id>``) and, in the overlap design, given a batch (expired
    batches released first, :func:`release_expired`). A participant whose batch was
    released gets a new one if one is free; one screened out by the comprehension check
    (:mod:`annotate.services.onboarding`) is returned as they are, never admitted again.
    :class:`StudyFull` when every batch has its annotators or the study has
    ``max_participants``: then nothing is created (the releases stay).
    :class:`ServiceError` for an id without the format of the study's platform
    (:func:`check_participant_id`).

    Admission holds the study's row (:func:`_lock`) from before the account is looked up
    to the commit, on SQLite as on PostgreSQL: arrivals at once are admitted one after the
    other, so the cap holds, and one id arriving twice at once (a double click, two tabs)
    finds the account the first made, with its batch."""
    check_participant_id(dataset, participant_id)
    user = _account(dataset, participant_id)
    if user is not None and (is_member(user, dataset) or user.screened_out_at is not None):
        return user  # a participant screened out is never admitted again (onboarding)
    db.session.commit()  # what was read before the lock is read again under it
    _lock(dataset)
    user = _account(dataset, participant_id)
    if user is not None and (is_member(user, dataset) or user.screened_out_at is not None):
        db.session.commit()  # admitted by an arrival just before this one
        return user
    started = user is not None
    release_expired(dataset, now)
    cap = dataset.max_participants
    if cap is not None and study_participants(dataset) >= cap:
        db.session.commit()  # the releases stay
        raise StudyFull(f"the study {public_name(dataset)!r} has its {cap} participants", started)
    if user is None:
        username = f"p{dataset.id}-{participant_id}"
        if db.session.scalar(select(User).where(User.username == username)) is not None:
            db.session.rollback()
            raise ServiceError(f"user {username!r} exists already")
        user = User(
            username=username,
            role="annotator",
            password_hash="",
            participant_id=participant_id,
            study_id=dataset.id,
        )
        db.session.add(user)
        db.session.flush()  # committed with its membership, or not at all
    try:
        assign(user, dataset)
    except ServiceError as error:  # assign rolled back: no account, no membership
        raise StudyFull(
            f"every sentence of {public_name(dataset)!r} has {dataset.per_sentence} "
            "annotators already",
            started,
        ) from error
    return user


def set_study_rules(
    dataset: Dataset,
    release_minutes: int | None,
    max_participants: int | None,
    screenout_code: str | None,
) -> None:
    """The crowd study's rules: the minutes after which an idle participant's overlap
    batch goes back to the pool (None: never), the cap on participants (None: none) and
    the screen-out code (None: none)."""
    if release_minutes is not None and not (
        RELEASE_MINUTES[0] <= release_minutes <= RELEASE_MINUTES[1]
    ):
        raise ServiceError(
            f"a batch is released after {RELEASE_MINUTES[0]}-{RELEASE_MINUTES[1]} minutes, "
            f"not {release_minutes}"
        )
    if max_participants is not None and not (
        MAX_PARTICIPANTS[0] <= max_participants <= MAX_PARTICIPANTS[1]
    ):
        raise ServiceError(
            f"a study admits {MAX_PARTICIPANTS[0]}-{MAX_PARTICIPANTS[1]} participants, "
            f"not {max_participants}"
        )
    if screenout_code is not None:
        screenout_code = _code(screenout_code, "screen-out code")
    dataset.release_minutes = release_minutes
    dataset.max_participants = max_participants
    dataset.screenout_code = screenout_code
    db.session.commit()


def _code(code: str, name: str) -> str:
    """A completion or screen-out code, checked: 1-64 letters, digits, '.', '_' or '-'."""
    code = code.strip()
    if not PARTICIPANT_ID.fullmatch(code):
        raise ServiceError(f"{name} {shown(code)} must be 1-64 letters, digits, '.', '_' or '-'")
    return code


def completed(user: User, dataset: Dataset) -> bool:
    """Whether ``user`` is a participant of ``dataset``'s study whose sentences there are
    all answered (and there are some): the completion code is theirs."""
    if user.study_id != dataset.id or not is_member(user, dataset):
        return False
    total = sentence_count(user, dataset)
    return total > 0 and answered_count(user, dataset) >= total


@dataclass(frozen=True)
class NewAccount:
    """An account made by :func:`create_users`, with its password (shown once)."""

    username: str
    password: str
    generated: bool


MAX_BULK = 1000


def parse_user_lines(text: str, source: str = "the list") -> list[tuple[str, str | None]]:
    """(username, password or None) for each line of ``text``: a username, optionally
    followed by white space (a tab, spaces or a comma) and a password. Blank lines and
    lines starting with '#' are skipped; a line with more, or an account past
    :data:`MAX_BULK`, is an error naming it (reading stops there)."""
    rows: list[tuple[str, str | None]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if len(rows) == MAX_BULK:  # stop here: the rest is not read
            raise ServiceError(
                f"{source}:{number}: more than {MAX_BULK} accounts at once; at most {MAX_BULK}"
            )
        parts = re.split(r"[\s,]+", line)
        if len(parts) > 2:
            raise ServiceError(
                f"{source}:{number}: {shown(line)} has more than a username and a password"
            )
        rows.append((parts[0], parts[1] if len(parts) == 2 else None))
    return rows


def create_users(
    rows: list[tuple[str, str | None]], dataset: Dataset | None = None
) -> list[NewAccount]:
    """Create an annotator account for each (username, password) row, a password of 16
    random characters where none is given, and assign each to ``dataset`` if given.
    All or nothing: a username that is invalid, repeated or taken, or a password under 8
    characters, is a :class:`ServiceError` naming it, before any account is made."""
    if len(rows) > MAX_BULK:
        raise ServiceError(f"{len(rows)} accounts at once; at most {MAX_BULK}")
    seen: set[str] = set()
    for username, password in rows:
        check_username(username)
        if username in seen:
            raise ServiceError(f"username {username!r} is in the list twice")
        seen.add(username)
        if password is not None and len(password) < 8:
            raise ServiceError(f"the password of {username!r} has fewer than 8 characters")
    taken = sorted(db.session.scalars(select(User.username).where(User.username.in_(seen))))
    if taken:
        raise ServiceError(
            f"user {taken[0]!r} exists already"
            + (f" (and {len(taken) - 1} more)" if len(taken) > 1 else "")
        )
    created = []
    for username, password in rows:
        generated = password is None
        password = password or secrets.token_urlsafe(12)
        user = create_user(username, password)
        if dataset is not None:
            assign(user, dataset)
        created.append(NewAccount(username, password, generated))
    return created
