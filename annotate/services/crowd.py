"""What a crowd study shows and checks of its participants, apart from who annotates
what (:mod:`annotate.services.study`): the platform whose participant ids a study link
admits, the study's public title (participants never see the dataset's name), and a
closed study link, which says so with the platform's return instead of a bare 404."""

from __future__ import annotations

import re

from sqlalchemy import and_, or_, select

from annotate.extensions import db
from annotate.models import Dataset
from annotate.services.rules import ServiceError, shown, storable

PARTICIPANT_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
"""What a participant id (and a completion or screen-out code) may be at most."""
PLATFORM_IDS = {
    "prolific": (re.compile(r"[0-9a-fA-F]{24}"), "24 hexadecimal characters (a Prolific id)"),
    "mturk": (re.compile(r"A[A-Z0-9]{1,63}"), "'A' then capital letters and digits (an MTurk id)"),
    "other": (PARTICIPANT_ID, "1-64 letters, digits, '.', '_' or '-'"),
}
"""A study's platform → the format its participant ids have, and that format in words:
Prolific's ids are 24 hexadecimal characters, Mechanical Turk's worker ids an ``A`` and
capital letters and digits (its API's pattern ``^A[A-Z0-9]+$``); ``other``, ids the
organiser hands out, only :data:`PARTICIPANT_ID`."""
PLATFORMS = tuple(PLATFORM_IDS)


def check_participant_id(dataset: Dataset, participant_id: str) -> None:
    """:class:`ServiceError` unless ``participant_id`` has the format of the study's
    platform (:data:`PLATFORM_IDS`): what keeps made-up ids of another shape out."""
    pattern, rule = PLATFORM_IDS.get(dataset.platform, PLATFORM_IDS["other"])
    if not PARTICIPANT_ID.fullmatch(participant_id) or not pattern.fullmatch(participant_id):
        raise ServiceError(f"participant id {shown(participant_id)} must be {rule}")


def public_name(dataset: Dataset) -> str:
    """What a participant is told the study is called: its public title, else "Study"
    (never the dataset's internal name)."""
    return dataset.public_title or "Study"


def study_token_shape(token: str) -> bool:
    """Whether ``token`` could be a study link's token at all (1 to 64 characters the
    database stores): anything else names no study, without a query."""
    return bool(token) and len(token) <= 64 and storable(token)


def closed_study(token: str) -> Dataset | None:
    """The dataset whose study link carried ``token`` and is closed now (the link closed,
    or the dataset archived): its link shows "This study is closed"."""
    if not study_token_shape(token):
        return None
    dataset: Dataset | None = db.session.scalar(
        select(Dataset).where(
            or_(
                Dataset.closed_token == token,
                and_(Dataset.study_token == token, Dataset.archived_at.is_not(None)),
            )
        )
    )
    return dataset


TITLE_LENGTH = 200
RETURN_URL = re.compile(r"https://[^\s<>\"']{1,490}")
"""A closed study's return address: an https URL (Prolific's return link)."""


def set_public(
    dataset: Dataset, title: str, return_url: str | None, platform: str | None = None
) -> None:
    """What participants see: the study's public title (empty: "Study"; the dataset's
    name, an organiser's internal one, is never shown to them) and where a closed
    study's link sends them back (an https URL, e.g. Prolific's return link; None: the
    screen-out code, if any); ``platform`` (:data:`PLATFORMS`), if given, is whose
    participant ids the link admits."""
    if platform is not None and platform not in PLATFORM_IDS:
        raise ServiceError(f"platform {shown(platform)} is not one of {', '.join(PLATFORMS)}")
    title = " ".join(title.split())
    if len(title) > TITLE_LENGTH:
        raise ServiceError(
            f"a public title has at most {TITLE_LENGTH} characters, not {len(title)}"
        )
    if return_url is not None:
        return_url = return_url.strip()
        if not RETURN_URL.fullmatch(return_url):
            raise ServiceError(
                f"return URL {shown(return_url)} must be an https:// address of at most 500 "
                "characters"
            )
    dataset.public_title = title
    dataset.return_url = return_url or None
    if platform is not None:
        dataset.platform = platform
    db.session.commit()
