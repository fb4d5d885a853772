"""Accounts: creating one (the organiser's Accounts page, ``lexsub users create``, the
bulk accounts of a study)."""

from __future__ import annotations

from sqlalchemy import select

from annotate.extensions import db
from annotate.models import User
from annotate.services.rules import ServiceError, check_username, shown


def create_user(username: str, password: str, role: str = "annotator") -> User:
    if role not in ("annotator", "organiser"):
        raise ServiceError(f"role {shown(role)} is not annotator or organiser")
    check_username(username)
    if len(password) < 8:
        raise ServiceError("a password has at least 8 characters")
    if db.session.scalar(select(User).where(User.username == username)):
        raise ServiceError(f"user {username!r} exists already")
    user = User(username=username, role=role)
    user.set_password(password)
    db.session.add(user)
    db.session.commit()
    return user
