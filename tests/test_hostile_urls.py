"""No input reaches a server error: NUL (which PostgreSQL refuses in text) and digits that
are not ASCII (``²``, ``①``, Arabic-Indic ``٣``, which Python's ``int()`` and
``str.isdigit()`` take) in every URL parameter and form field of every route, on SQLite and
on PostgreSQL; a logged path cannot forge log lines; 70,000 check items are looked up in
batches."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select

from annotate.services.rules import StorageRuleError, check_storable, log_text
from tests.conftest import login, make_round, make_user

pytestmark = pytest.mark.database

HOSTILE = ("a\x00b", "\x00", "²", "①", "٣", "12\x00")
"""Values the rules must refuse with a 4xx, never a 500."""

WEB = Path(__file__).resolve().parents[1] / "annotate" / "web"
_KEY = re.compile(
    r"request\.(?:args|form|files)\.(?:get|getlist)\(\s*\"([A-Za-z0-9_]+)\""
    r"|request\.(?:args|form)\[\"([A-Za-z0-9_]+)\"\]"
    r"|form_(?:number|id)\(\s*request\.(?:form|args),\s*\"([A-Za-z0-9_]+)\""
)


def parameter_names() -> list[str]:
    """Every query and form key the views read (read from their source, so a key added
    later is covered), and the comprehension answers ``q0``, ``q1``."""
    found = {"q0", "q1", "PROLIFIC_PID", "participant", "workerId"}
    for path in WEB.glob("*.py"):
        for match in _KEY.finditer(path.read_text(encoding="utf-8")):
            found.add(next(group for group in match.groups() if group))
    return sorted(found)


def test_the_parameter_list_is_read_from_the_views() -> None:
    names = parameter_names()
    for expected in ("page", "seed", "username", "reason", "checks", "sample", "problem"):
        assert expected in names
    assert len(names) > 30


def _urls(app: Flask, ids: dict[str, str]) -> list[tuple[str, str, str]]:
    """(endpoint, method, URL) of every route, its variables filled from ``ids``."""
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint in ("static", "auth.logout"):
            continue
        url = rule.rule
        for variable in rule.arguments:
            url = re.sub(rf"<(?:[a-z]+:)?{variable}>", ids.get(variable, "1"), url)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((rule.endpoint, method, url))
    return found


@pytest.fixture
def study(answered: Flask) -> tuple[Flask, str]:
    """The ``answered`` fixture's dataset with a study link, comprehension questions and a
    judgement round; its token."""
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.study import open_study

    make_round(answered, "round", judge="ann")
    with answered.app_context():
        small = db.get_or_404(Dataset, 1)
        small.comprehension = "Which is a substitute?\n* clever\n- table\n"
        return answered, open_study(small, "DONE-7")


def test_no_parameter_of_any_route_is_a_server_error(study: tuple[Flask, str]) -> None:
    app, token = study
    names = parameter_names()
    client = app.test_client()
    ids = {"token": token, "xml_id": "1", "username": "ann", "dataset_id": "1"}
    urls = _urls(app, ids)
    assert len(urls) > 40
    for value in HOSTILE:
        login(client, "boss")
        for endpoint, method, url in urls:
            data = dict.fromkeys(names, value)
            if method == "GET":
                response = client.get(url, query_string=data)
            else:
                response = client.open(url, method=method, data=data)
            assert response.status_code < 500, (endpoint, method, url, value)
    # nothing was stored with NUL, on either database
    from annotate.extensions import db
    from annotate.models import AnnotatorExclusion, CheckItem, User

    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(AnnotatorExclusion)) == 0
        assert db.session.scalar(select(func.count()).select_from(CheckItem)) == 0
        assert not [u for u in db.session.scalars(select(User.username)) if "\x00" in u]


@pytest.mark.parametrize("value", HOSTILE)
def test_url_parts_and_participant_ids(study: tuple[Flask, str], value: str) -> None:
    app, token = study
    client = app.test_client()  # nobody logged in
    for url in (f"/study/{value}", f"/study/{token}{value}", "/login"):
        assert client.get(url).status_code in (200, 400, 404), url
    response = client.get(f"/study/{token}", query_string={"PROLIFIC_PID": value})
    assert response.status_code < 500
    response = client.post("/login", data={"username": value, "password": value})
    assert response.status_code < 500


def test_nul_in_the_study_link_is_no_study(study: tuple[Flask, str]) -> None:
    app, token = study
    client = app.test_client()
    assert client.get("/study/a%00b").status_code == 404
    assert client.get(f"/study/{token}%00").status_code == 404


def test_a_participant_id_with_nul_is_refused(study: tuple[Flask, str]) -> None:
    app, token = study
    response = app.test_client().get(f"/study/{token}?PROLIFIC_PID=p%001")
    assert response.status_code == 400  # the study page says the id breaks its rule
    from annotate.extensions import db
    from annotate.models import User

    with app.app_context():
        assert db.session.scalar(select(User.id).where(User.participant_id.is_not(None))) is None


@pytest.mark.parametrize("digit", ["²", "①", "٣"])
def test_the_study_page_number_is_held_to_the_number_rule(
    study: tuple[Flask, str], digit: str
) -> None:
    app, _ = study
    client = app.test_client()
    login(client, "boss")
    response = client.get("/organiser/datasets/1/study", query_string={"page": digit})
    assert response.status_code == 400
    assert f"page &#39;{digit}&#39; is not a whole number from 1 to 999999" in (
        response.get_data(as_text=True)
    )
    assert client.get("/organiser/datasets/1/study?page=2").status_code == 200


@pytest.mark.parametrize("digit", ["²", "①", "٣"])
def test_the_comprehension_answers_are_held_to_the_number_rule(
    study: tuple[Flask, str], digit: str
) -> None:
    app, token = study
    client = app.test_client()
    assert client.get(f"/study/{token}?PROLIFIC_PID=p1").status_code == 302
    response = client.post("/study/dataset/1/start", data={"q0": digit})
    assert response.status_code == 400
    assert f"answer to question 1 &#39;{digit}&#39; is not a whole number from 0 to 999" in (
        response.get_data(as_text=True)
    )
    assert client.post("/study/dataset/1/start", data={"q0": "0"}).status_code == 302


def test_nul_in_an_exclusion_a_check_item_and_a_rows_file(study: tuple[Flask, str]) -> None:
    app, _ = study
    client = app.test_client()
    login(client, "boss")
    response = client.post(
        "/organiser/datasets/1/exclusions",
        data={"username": "b\x00ob", "reason": "a bot"},
        follow_redirects=True,
    )
    assert "Not changed: username &#39;b\\x00ob&#39; contains NUL (U+0000)" in (
        response.get_data(as_text=True)
    )
    response = client.post(
        "/organiser/datasets/1/study",
        data={"action": "checks", "checks": "1 clever\n3\x00 bear\n"},
        follow_redirects=True,
    )
    assert "the check items:2: the line &#39;3\\x00 bear&#39; contains NUL" in (
        response.get_data(as_text=True)
    )
    rows = (
        "sentence\ttarget\tcandidate\torigin\n"
        "The <head>bright</head> boy .\tbright\tcle\x00ver\thuman\n"
    )
    response = client.post(
        "/organiser/rounds",
        data={
            "action": "rows",
            "name": "nul",
            "rows": (__import__("io").BytesIO(rows.encode()), "rows.tsv"),
        },
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert response.status_code < 500
    assert "contains NUL (U+0000)" in response.get_data(as_text=True)
    from annotate.extensions import db
    from annotate.models import AnnotatorExclusion, CheckItem, JudgementRound

    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(AnnotatorExclusion)) == 0
        assert db.session.scalar(select(func.count()).select_from(CheckItem)) == 0
        assert (
            db.session.scalar(select(JudgementRound.id).where(JudgementRound.name == "nul")) is None
        )


def test_the_engine_refuses_nul_on_every_path(answered: Flask) -> None:
    """The last guard: a text with NUL that no service checked stops before the database
    (the same error on SQLite, which would keep it, as on PostgreSQL, which refuses it)."""
    from annotate.extensions import db
    from annotate.models import User

    with answered.app_context():
        with pytest.raises(StorageRuleError, match=r"contains NUL \(U\+0000\)"):
            db.session.scalar(select(User).where(User.username == "a\x00b"))
        db.session.rollback()
        assert db.session.scalar(select(User.id).where(User.username == "ann")) is not None


def test_the_storable_rule() -> None:
    assert check_storable("Gebäude ²", "x") == "Gebäude ²"
    with pytest.raises(StorageRuleError) as error:
        check_storable("a\x00b", "reason")
    assert str(error.value) == (
        "reason 'a\\x00b' contains NUL (U+0000), which the database cannot keep"
    )


def test_a_logged_path_writes_one_line(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    assert log_text("/study/x\nERROR forged\r\x00") == "/study/x\\nERROR forged\\r\\x00"

    def fail(rest: str) -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/fail/<rest>", "fail", fail)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR):
        response = app.test_client().get("/fail/x%0AERROR%20forged%20line")
    assert response.status_code == 500
    [record] = [r for r in caplog.records if "unexpected error" in r.getMessage()]
    assert record.getMessage() == "unexpected error on GET /fail/x\\nERROR forged line"


def test_70000_check_items_are_looked_up_in_batches(
    answered: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services import checks
    from annotate.services.rules import ServiceError

    text = "".join(f"x{number} clever\n" for number in range(70_000))
    with answered.app_context():
        small = db.get_or_404(Dataset, 1)
        lines = checks.parse_check_lines(text)
        assert len(lines) == 70_000
        with pytest.raises(ServiceError, match="sentence 'x0' is not in 'small'"):
            checks.set_checks(small, lines)
        db.session.rollback()
        # batches of two find every sentence of the small dataset as one query would
        monkeypatch.setattr(checks, "BATCH", 2)
        count = checks.set_checks(small, checks.parse_check_lines("1 clever\n3 bear\n2 smart\n"))
        assert count == 3
        assert [line.instance for line in checks.check_lines(small)] == ["1", "2", "3"]


def test_an_item_id_with_dot_segments_links_to_its_page(app: Flask) -> None:
    from annotate.services.datasets import import_dataset
    from scoring.formats.importers.read import parse_source
    from tests.conftest import assign, save

    data = (
        b"id\tlexelt\tsentence\n"
        b"../x\tbright.a\tThe <head>bright</head> boy .\n"
        b"~/.\tbright.a\tA <head>bright</head> girl .\n"
    )
    with app.app_context():
        dataset = import_dataset(parse_source(data, "dots.tsv"), "dots", "dots.tsv", data)
        ids = {i.xml_id: i.id for i in dataset.dataset.lexelts[0].instances}
        number = dataset.dataset.id
    make_user(app, "boss", "organiser")
    make_user(app, "ann")
    assign(app, "ann", number)
    annotator = app.test_client()
    login(annotator, "ann")
    assert save(annotator, ids["../x"], {"sub1": "clever"}) == 302
    client = app.test_client()
    login(client, "boss")
    html = client.get(f"/organiser/datasets/{number}/answers").get_data(as_text=True)
    assert f'href="/organiser/datasets/{number}/items/~../x"' in html
    page = client.get(f"/organiser/datasets/{number}/items/~../x")
    assert page.status_code == 200
    assert "clever" in page.get_data(as_text=True)
    assert client.get(f"/organiser/datasets/{number}/items/~~/~.").status_code == 200
    assert client.get(f"/organiser/datasets/{number}/items/~/.").status_code == 404


def test_a_save_into_a_dataset_deleted_meanwhile_gets_a_clear_page(
    answered: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The organiser deletes the dataset between the save's read of the sentence and its
    write: a 410 page that says so, not a 500."""
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services import datasets, responses
    from annotate.web import annotator as view

    real = responses.save_answer

    def deleted_first(*args: object, **kwargs: object) -> object:
        datasets.delete_dataset(db.get_or_404(Dataset, 1), "small", who="boss")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(view, "save_answer", deleted_first)
    client = answered.test_client()
    login(client, "ann")
    response = client.post("/annotate/1", data={"sub1": "glad"})
    assert response.status_code == 410
    assert "was deleted by an organiser while you were answering" in response.get_data(as_text=True)
    # afterwards the sentence is simply not there
    monkeypatch.setattr(view, "save_answer", real)
    assert client.post("/annotate/1", data={"sub1": "glad"}).status_code == 404


def test_a_double_submitted_import_and_two_renames_to_one_name(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name check passes for both (the other has not committed yet); the database's
    unique name decides, and the loser gets a clear answer."""
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services import datasets
    from annotate.services.rules import ServiceError
    from scoring.formats.importers.read import parse_source
    from tests.conftest import SMALL_XML

    with app.app_context():
        first = datasets.import_dataset(
            parse_source(SMALL_XML, "s.xml"), "pilot", "s.xml", SMALL_XML
        )
        other = datasets.import_dataset(
            parse_source(SMALL_XML, "s.xml"), "other", "s.xml", SMALL_XML
        )
        real = datasets.named
        calls: list[str] = []

        def late(name: str) -> object:
            calls.append(name)
            return None if len(calls) == 1 else real(name)  # the first check: not yet

        monkeypatch.setattr(datasets, "named", late)
        again = datasets.import_dataset(
            parse_source(SMALL_XML, "s.xml"), "pilot", "s.xml", SMALL_XML
        )
        assert (again.created, again.dataset.id) == (False, first.dataset.id)
        calls.clear()
        changed = SMALL_XML.replace(b"bright", b"brite")
        with pytest.raises(ServiceError, match="dataset 'pilot' exists already with another file"):
            datasets.import_dataset(parse_source(changed, "t.xml"), "pilot", "t.xml", changed)
        calls.clear()
        with pytest.raises(ServiceError, match="a dataset is named 'pilot' already"):
            datasets.rename_dataset(db.session.merge(other.dataset), "pilot")
        assert sorted(db.session.scalars(select(Dataset.name))) == ["other", "pilot"]
