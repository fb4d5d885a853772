"""Who may open a page, in one place: the log-in (flask-login's ``login_required``, the
user loader), the organiser's pages, a judge's pages, and where a user lands after
logging in. Every blueprint takes these from here; none imports another blueprint.

The session cookie names the user's session token (``User.get_id``), not the id; the token
changes on logout, on a password reset and on (de)activation, and the loader only finds
active users by their current token, so each of these ends every session of the account.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar, cast

from flask import abort, url_for
from flask_login import current_user, login_required
from sqlalchemy import bindparam, select

from annotate.extensions import db, login_manager
from annotate.models import User
from annotate.services.responses import resume
from annotate.services.rounds import rounds_of
from annotate.services.rules import UNSAFE
from annotate.services.study import standings

__all__ = ["judge_required", "landing", "load_user", "login_required", "organiser_required"]

F = TypeVar("F", bound=Callable[..., Any])

login_manager.login_view = "auth.login"
login_manager.login_message = "Log in to continue."


BY_TOKEN = select(User).where(User.session_token == bindparam("token"), User.active.is_(True))
"""The user loader's one SELECT, built once (every request runs it; building it again
each time cost as much as a quarter of its execution)."""


@login_manager.user_loader
def load_user(token: str) -> User | None:
    """The active user whose current session token the cookie names (``User.get_id``)."""
    if not token or UNSAFE.search(token):
        return None
    return db.session.scalar(BY_TOKEN, {"token": token})


def organiser_required(view: F) -> F:
    """Logged in (else the log-in page) and an organiser (else 403)."""

    @wraps(view)
    @login_required
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_organiser:
            abort(403)
        return view(*args, **kwargs)

    return cast(F, wrapped)


def judge_required(view: F) -> F:
    """Logged in (else the log-in page, coming back here)."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_authenticated:
            return login_manager.unauthorized()
        return view(*args, **kwargs)

    return cast(F, wrapped)


def landing(user: User) -> str:
    """Where ``user`` goes after logging in: an organiser to the organiser dashboard; an
    annotator to the first unanswered sentence of their first unfinished dataset, else
    (every dataset finished, or none assigned) a judge of a round to their rounds
    (/judge), anyone else to their home page."""
    if user.is_organiser:
        return url_for("organiser.dashboard")
    for standing in standings(user):
        if not standing.finished:
            instance = resume(user, standing.dataset)
            if instance is not None:
                return url_for("annotator.item", instance_id=instance.id)
    if rounds_of(user):
        return url_for("judge.home")
    return url_for("annotator.home")
