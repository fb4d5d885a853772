"""Logging in and out (flask-login), with attempts limited per client and per username.

Who is logged in is read by the user loader of :mod:`annotate.web.access`. A log-in
checks exactly one password hash whether or not the username exists.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from annotate.extensions import db
from annotate.models import User, check_no_password
from annotate.services.rules import MAX_USERNAME, UNSAFE
from annotate.web.access import landing

bp = Blueprint("auth", __name__)


def username_key() -> str:
    """The per-username key of the login limit (distinct from any client address)."""
    return "username:" + request.form.get("username", "").strip().casefold()[: MAX_USERNAME + 1]


def _find_user(username: str) -> User | None:
    """The account named ``username``; None for a name no account can have (too long, a
    NUL or control character: PostgreSQL refuses NUL in a query)."""
    if not username or len(username) > MAX_USERNAME or UNSAFE.search(username):
        return None
    return db.session.scalar(select(User).where(User.username == username))


def safe_next(target: str | None) -> str | None:
    """Only a path on this site: no scheme, no host, no '//' or backslash (open
    redirects), no control character (a line break cannot be put in a header)."""
    if not target or "\\" in target or UNSAFE.search(target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    return target


@bp.route("/login", methods=["GET", "POST"])  # limited per address and username (factory)
def login() -> str | Response:
    if current_user.is_authenticated:
        return redirect(url_for("annotator.home"))
    username, error = "", None
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        password = request.form.get("password", "")
        user = _find_user(username)
        if user is None:
            check_no_password(password)  # the time a known username takes
            error = gettext("Wrong username or password.")
        elif not user.check_password(password):
            error = gettext("Wrong username or password.")
        elif not user.active:
            error = gettext("This account is deactivated; ask an organiser.")
        else:
            login_user(user)
            target = safe_next(request.args.get("next"))
            return redirect(target or landing(user))
    # the message is on the form (role=alert, both fields aria-invalid and described by
    # it) and in the title, not a flash
    return render_template("auth/login.html", username=username, error=error)


@bp.post("/logout")
@login_required
def logout() -> Response:
    current_user.end_sessions()  # every session of the account, not only this one
    db.session.commit()
    logout_user()
    flash(gettext("You are logged out."), "info")
    return redirect(url_for("auth.login"))
