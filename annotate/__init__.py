"""lexsub's web side: the Flask app factory (annotation app, organiser pages)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, render_template

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration from defaults, ``instance/config.py``, the environment
    (``SECRET_KEY``, ``DATABASE_URL``) and ``test_config``, in that order."""
    app = Flask(__name__, instance_path=str(ROOT / "instance"),
                template_folder=str(ROOT / "templates"), instance_relative_config=True)
    app.config.from_mapping(
        SECRET_KEY="dev-only-change-me",
        DATABASE_URL=f"sqlite:///{Path(app.instance_path) / 'lexsub.sqlite'}",
    )
    app.config.from_pyfile("config.py", silent=True)
    for key in ("SECRET_KEY", "DATABASE_URL"):
        if os.environ.get(key):
            app.config[key] = os.environ[key]
    if test_config:
        app.config.update(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    @app.get("/")
    def home() -> str:
        return render_template("home.html")

    return app
