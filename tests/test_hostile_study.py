"""Nothing an annotator types breaks a study. Hypothesis types arbitrary text
(any Unicode, the gold format's separators, control characters, reserved words, long
strings) into the real annotation form for several annotators; then every organiser page
and both downloads answer without a server error, the compiled gold parses under both
rule sets, the scorer's ``Total`` is what ``summary.json`` says, and the agreement command
reads the compiled ``annotators.jsonl``. Runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scoring.agreement.__main__ import main as agreement_main
from scoring.formats.gold import read_gold
from scoring.score.cli import run as score_run
from tests.conftest import assign, login, make_user, save

pytestmark = pytest.mark.database

HOSTILE = [
    "happy; glad",
    "smart, clever",
    "smart/clever",
    "pn",
    "PN",
    "name",
    "nil",
    "!!!",
    "quick :: rapid",
    "quick::",
    "a\x00b",
    "\x00",
    "glad\nhappy",
    "tab\there",
    "quick\u200b",
    "\u202equick",
    "\ufeff",
    "x",
    "bright",
    "x" * 61,
    "y" * 60,
    "a b c d e f g",
    "'",
    "-",
    "people's",
    "non-captive",
    "Gebäude",
    "e\u0301",
    "<script>alert(1)</script>",
    "{{ 7*7 }}",
    "%s",
    "\\",
    '"',
    ";",
    "::",
    "pn 2",
    "apnea",
    "glad ;",
    " ",
    "\u2028",
    "1,000",
    "24/7",
    "déjà vu",
    "\U0001f600",
]

# any character a browser can send (no lone surrogates: forms are UTF-8)
_ANY = st.characters(exclude_categories=["Cs"])
_TEXT = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(_ANY, max_size=70),
    st.text(st.sampled_from("ab ;:,/-'\x00\n.!"), max_size=12),
)
_FORM = st.fixed_dictionaries(
    {
        "sub1": _TEXT,
        "sub2": _TEXT | st.just(""),
        "sub3": st.just("") | _TEXT,
        "name": st.sampled_from(["", "", "", "on"]),
        "nil": st.sampled_from(["", "", "", "on"]),
        "mw": st.sampled_from(["", "", "on"]),
        "multiword": st.just("") | _TEXT,
        "used_dictionary": st.sampled_from(["", "on"]),
    }
)
ANNOTATORS = ("ann", "bob", "cat")


@pytest.fixture
def study(app: Flask, dataset: int) -> Iterator[tuple[Flask, dict[str, FlaskClient], int]]:
    """Three hostile annotators, two steady ones (so that T is never empty) and the
    organiser, all logged in."""
    from annotate.extensions import db
    from annotate.models import Instance

    clients = {}
    for name in (*ANNOTATORS, "dan", "eve"):
        make_user(app, name)
        assign(app, name, dataset)
        clients[name] = app.test_client()
        login(clients[name], name)
    make_user(app, "boss", "organiser")
    clients["boss"] = app.test_client()
    login(clients["boss"], "boss")
    with app.app_context():
        first = db.session.scalar(select(Instance.id).order_by(Instance.position).limit(1))
    assert first is not None
    for name in ("dan", "eve"):
        assert clients[name].post(f"/annotate/{first}", data={"sub1": "clever"}).status_code == 302
    yield app, clients, dataset


def _post(client: FlaskClient, instance_id: int, form: dict[str, str]) -> None:
    """Save through the form, confirming flagged values as an annotator would; a refused
    value gives the page again (200), never a server error."""
    assert save(client, instance_id, form) in (200, 302), form


def _score(system: Path, gold: Path, *extra: str) -> str:
    out, err = io.BytesIO(), io.StringIO()
    assert score_run([str(system), str(gold), *extra], out, err) == 0, err.getvalue()
    return out.getvalue().decode("utf-8")


def _total(output: str) -> int:
    found = re.search(r"^Total = (\d+)", output, re.MULTILINE)
    assert found, output
    return int(found.group(1))


def _organiser_pages(app: Flask, boss: FlaskClient, dataset: int) -> None:
    """Every GET page of the organiser's blueprints for this dataset, and each item."""
    from annotate.extensions import db
    from annotate.models import Instance, User

    with app.app_context():
        ids = list(db.session.scalars(select(Instance.xml_id)))
        user_id = db.session.scalar(select(User.id))
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith(("organiser.", "reports.")) or "GET" not in (
            rule.methods or ()
        ):
            continue
        values = {"dataset_id": dataset, "user_id": user_id, "username": "dan"}
        for xml_id in ids if "xml_id" in rule.arguments else [None]:
            url = rule.rule
            for name, value in {**values, "xml_id": xml_id}.items():
                url = (
                    url.replace(f"<id:{name}>", str(value))
                    .replace(f"<path:{name}>", str(value))
                    .replace(f"<item_id:{name}>", str(value))
                    .replace(f"<{name}>", str(value))
                )
            response = boss.get(url)
            assert response.status_code == 200, (url, response.status_code)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    forms=st.lists(
        st.tuples(st.sampled_from(ANNOTATORS), st.integers(0, 2), _FORM), min_size=1, max_size=5
    )
)
def test_anything_typed_leaves_every_page_download_and_command_working(
    study: tuple[Flask, dict[str, FlaskClient], int],
    forms: list[tuple[str, int, dict[str, str]]],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    from annotate.extensions import db
    from annotate.models import Instance

    app, clients, dataset = study
    with app.app_context():
        instances = list(db.session.scalars(select(Instance.id).order_by(Instance.position)))
    for name, index, form in forms:
        _post(clients[name], instances[index], form)
    boss = clients["boss"]
    _organiser_pages(app, boss, dataset)
    export = boss.get(f"/organiser/datasets/{dataset}/export")
    assert export.status_code == 200
    for line in export.get_data(as_text=True).splitlines():
        json.loads(line)
    download = boss.get(f"/organiser/datasets/{dataset}/gold")
    assert download.status_code == 200
    folder = tmp_path_factory.mktemp("gold")
    with zipfile.ZipFile(io.BytesIO(download.data)) as archive:
        archive.extractall(folder)
    gold_text = (folder / "gold").read_text(encoding="utf-8")
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    compat, fixed = read_gold(gold_text, "compat"), read_gold(gold_text, "fixed")
    assert (compat.total_items, fixed.total_items) == (
        summary["scorer"]["compat_items"],
        summary["scorer"]["fixed_items"],
    )
    system = folder / "system.best"
    system.write_text(
        "".join(f"{line.split(' :: ')[0]} :: clever\n" for line in gold_text.splitlines()),
        encoding="utf-8",
    )
    assert _total(_score(system, folder / "gold")) == summary["scorer"]["compat_items"]
    assert _total(_score(system, folder / "gold", "--fixed")) == summary["scorer"]["fixed_items"]
    # T as the compiler counts it (two responses, only the items in T) is the scorer's
    only_t = folder / "only_t"
    result = app.test_cli_runner().invoke(
        args=[
            "lexsub",
            "compile",
            "--dataset",
            "small",
            "--out",
            str(only_t),
            "--t-rule",
            "responses",
            "--only-t",
        ]
    )
    assert result.exit_code == 0, result.output
    in_t = json.loads((only_t / "summary.json").read_text(encoding="utf-8"))["in_t"]
    assert _total(_score(system, only_t / "gold", "--fixed")) == in_t
    assert summary["responses_left_out"] == len(summary["left_out"])
    with contextlib.redirect_stdout(io.StringIO()) as report:
        assert agreement_main([str(folder / "annotators.jsonl"), "--format", "json"]) == 0
    assert json.loads(report.getvalue())["all"]["T"] >= 1
    from annotate.models import SystemRun

    def stored() -> list[tuple[str, dict[str, float | None]]]:
        with app.app_context():
            rows = db.session.scalars(select(SystemRun).order_by(SystemRun.id))
            return [(row.file_name, dict(row.scores)) for row in rows]

    with app.app_context():
        digest = hashlib.sha256(system.read_bytes()).hexdigest()
        seen = db.session.scalar(select(SystemRun.id).where(SystemRun.sha256 == digest))
    before = stored()
    scores = boss.post(
        f"/organiser/datasets/{dataset}/scores",
        data={"systems": (io.BytesIO(system.read_bytes()), "system.best")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    page = scores.get_data(as_text=True)
    assert scores.status_code == 200 and "Leaderboard" in page and "Not scored" not in page
    after = stored()  # the upload is kept (the examples share one app: others came before)
    if seen is not None:  # an earlier example uploaded the same bytes: nothing stored
        assert "Not stored: system.best has the same bytes as system.best" in page
        assert len(after) == len(before)
        return
    assert len(after) == len(before) + 1 and after[-1][0] == "system.best"
    assert "best.R" in after[-1][1]
