"""Logging in and out (flask-login), with attempts limited per client."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from annotate.extensions import db, limiter, login_manager
from annotate.models import User

bp = Blueprint("auth", __name__)
login_manager.login_view = "auth.login"
login_manager.login_message = "Log in to continue."


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    return db.session.get(User, int(user_id))


def safe_next(target: str | None) -> str | None:
    """Only a path on this site: no scheme, no host, no '//' (open redirects)."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    return target


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(lambda: str(current_app.config["LOGIN_LIMIT"]), methods=["POST"])
def login() -> str | Response:
    if current_user.is_authenticated:
        return redirect(url_for("annotator.home"))
    username = ""
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        user = db.session.scalar(select(User).where(User.username == username))
        if user is None or not user.check_password(request.form.get("password", "")):
            flash("Wrong username or password.", "error")
        elif not user.active:
            flash("This account is deactivated; ask an organiser.", "error")
        else:
            login_user(user)
            target = safe_next(request.args.get("next"))
            return redirect(target or url_for("annotator.home"))
    return render_template("auth/login.html", username=username)


@bp.post("/logout")
@login_required
def logout() -> Response:
    logout_user()
    flash("You are logged out.", "info")
    return redirect(url_for("auth.login"))
