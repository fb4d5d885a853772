"""The settings the app reads: one table (:data:`annotate.settings.SETTINGS`), the factory's
defaults and the environment read through it, and docs/deploy.md listing exactly its names
and defaults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from annotate import create_app
from annotate.settings import SETTINGS, defaults, from_environment
from scoring.formats.instances import LIMITS

ROOT = Path(__file__).resolve().parent.parent
FLASK_OWN = {"PROPAGATE_EXCEPTIONS"}
"""Read by the app, set only by Flask itself (and the tests): not the app's settings."""


def _cell(text: str) -> str:
    return text.strip().strip("`")


def documented() -> set[tuple[str, str, str]]:
    """(config keys, environment variable, default) of each row of docs/deploy.md's table."""
    page = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    section = page.split("## Settings", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]
    found = set()
    for row in rows:
        keys, env, default = row.split(" | ")[:3]
        names = ", ".join(_cell(key) for key in keys.lstrip("| ").split(","))
        found.add((names, _cell(env), _cell(default)))
    return found


def declared() -> set[tuple[str, str, str]]:
    return {(", ".join(s.keys) or "—", s.env or "—", s.default_text) for s in SETTINGS}


def test_the_deploy_page_documents_exactly_the_settings_with_their_defaults() -> None:
    assert len(declared()) == len(SETTINGS) == 18
    assert documented() == declared()


def test_the_table_holds_each_name_once() -> None:
    keys = [key for s in SETTINGS for key in s.keys]
    envs = [s.env for s in SETTINGS if s.env]
    assert len(keys) == len(set(keys)) and len(envs) == len(set(envs))


def _read_in_code() -> tuple[set[str], set[str]]:
    """The ``app.config`` keys and environment variables the app's code reads."""
    config: set[str] = set()
    environ: set[str] = set()
    for path in sorted((ROOT / "annotate").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        config |= set(re.findall(r"config(?:\.get|\.setdefault)?[\[(]\"([A-Z_]+)\"", text))
        environ |= set(re.findall(r"environ(?:\.get)?[\[(]\"([A-Z_]+)\"", text))
        environ |= set(re.findall(r"env_flag\(\"([A-Z_]+)\"", text))
    return config, environ


def test_every_setting_the_code_reads_is_in_the_table() -> None:
    config, environ = _read_in_code()
    assert {"SECRET_KEY", "IMPORT_LIMITS", "LOGIN_LIMIT", "TRUSTED_PROXIES"} <= config
    assert config - FLASK_OWN <= {key for s in SETTINGS for key in s.keys}
    assert environ <= {s.env for s in SETTINGS}


def test_the_defaults_are_the_table_s(tmp_path: Path) -> None:
    values = defaults(tmp_path)
    assert values["LOGIN_LIMIT"] == "20 per minute"
    assert values["MAX_CONTENT_LENGTH"] == 67108864
    assert values["IMPORT_LIMITS"] is LIMITS
    assert values["WTF_CSRF_TIME_LIMIT"] is None
    assert values["TRUSTED_PROXIES"] == 0
    assert values["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'lexsub.sqlite'}"
    assert "SECRET_KEY" not in values and "SQLALCHEMY_ENGINE_OPTIONS" not in values


def test_the_app_starts_from_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for setting in SETTINGS:
        if setting.env:
            monkeypatch.delenv(setting.env, raising=False)
    monkeypatch.setenv("LEXSUB_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True})
    for setting in SETTINGS:
        for key in setting.keys:
            if not setting.computed:
                assert app.config[key] == setting.default, key
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {"connect_args": {"timeout": 30}}
    assert app.config["SECRET_KEY"] == (tmp_path / "secret_key").read_text()


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, {}),
        ({"LEXSUB_PROXIES": "2", "LEXSUB_LIMITER_PREFIX": ""}, {"TRUSTED_PROXIES": 2}),
        (
            {"LEXSUB_SECURE_COOKIES": " Yes "},
            {"SESSION_COOKIE_SECURE": True, "REMEMBER_COOKIE_SECURE": True},
        ),
        ({"LEXSUB_SECURE_COOKIES": "off"}, {}),
        (
            {"DATABASE_URL": "postgres://u@h/db", "SECRET_KEY": "k"},
            {"SQLALCHEMY_DATABASE_URI": "postgres://u@h/db", "SECRET_KEY": "k"},
        ),
        ({"LEXSUB_INSTANCE": "/srv/x", "HOME": "/root"}, {}),
    ],
)
def test_the_environment_sets_what_the_table_says(
    environ: dict[str, str], expected: dict[str, object]
) -> None:
    assert from_environment(environ) == expected


def test_a_bad_value_names_the_variable_and_the_rule() -> None:
    with pytest.raises(ValueError, match=r"^LEXSUB_PROXIES='-1': must be the number"):
        from_environment({"LEXSUB_PROXIES": "-1"})
