"""Every organiser and judge page of every dataset answers as it should, and every
organiser, judge and members route refuses everyone else.

The routes come from ``app.url_map`` (a new route is crawled without a change here), their
paths built through the routes' own converters, each argument filled from real objects
(:data:`FILL`): a route taking an argument with no object fails, naming the route. The
datasets are imported through every format the importer reads, plus one whose stored
lexelt and instance id break the gold's rules (as an older version imported them), each
with an answer. Each page must answer its exact status (200, the redirect it makes, or
409 for the broken dataset's compiled pages): a 404 fails.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.routing import Rule

from tests.conftest import SMALL_XML, assign, join, login, make_round, make_user, save
from tests.test_importer_formats import COINCO_BYTES, CSV, SEMEVAL, TSV, encoded, swords

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

FILES = {
    "small": ("small.xml", SMALL_XML),
    "coinco": ("ours.xml", COINCO_BYTES),
    "swords": ("ours.json", encoded(swords())),
    "csv": ("ours.csv", CSV.encode("utf-8")),
    "tsv": ("ours.tsv", TSV),
    "tsvgz": ("ours.tsv.gz", gzip.compress(TSV)),
    "semeval": ("haus.xml.gz", gzip.compress(SEMEVAL)),
    "old": ("old.tsv", b"id\tlexelt\tsentence\n1\tgehen.v\tWir <head>gehen</head>.\n"),
}
BROKEN_PAGES = ("answers", "problems", "lemmas", "gold", "agreement", "scores", "annotators/ann")


def import_all(app: Flask) -> dict[str, int]:
    """Every file of :data:`FILES` imported; dataset ``old`` then given the lexelt
    ``spazieren gehen.v`` and the id ``a;1`` in the database, as an older version that
    did not hold them to the gold's rules stored them; dataset ``csv`` a correction of
    ``glad`` to ``x;y``, which the compiler leaves out (listed on the problems page)."""
    from annotate.extensions import db
    from annotate.models import Instance, LemmaDecision, Lexelt
    from annotate.services.datasets import import_dataset
    from scoring.formats.importers.read import parse_source

    ids = {}
    with app.app_context():
        for name, (file_name, data) in FILES.items():
            result = parse_source(data, file_name)
            ids[name] = import_dataset(result, name, file_name, data).dataset.id
        lexelt = db.session.scalar(select(Lexelt).where(Lexelt.dataset_id == ids["old"]))
        instance = db.session.scalar(select(Instance).where(Instance.dataset_id == ids["old"]))
        assert lexelt is not None and instance is not None
        lexelt.item, lexelt.lemma, instance.xml_id = "spazieren gehen.v", "spazieren gehen", "a;1"
        db.session.add(  # a correction the lemma review once stored unchecked
            LemmaDecision(dataset_id=ids["csv"], surface="glad", action="correct", lemma="x;y")
        )
        db.session.commit()
    return ids


def answer_each(app: Flask, ids: dict[str, int]) -> None:
    """Annotator ``ann`` answers the first instance of every dataset."""
    from annotate.extensions import db
    from annotate.models import Instance

    make_user(app, "ann")
    client = app.test_client()
    login(client, "ann")
    for dataset_id in ids.values():
        assign(app, "ann", dataset_id)
        with app.app_context():
            first = db.session.scalars(
                select(Instance.id)
                .where(Instance.dataset_id == dataset_id)
                .order_by(Instance.position)
            ).first()
        assert first is not None
        assert save(client, first, {"sub1": "glad", "sub2": "cheerful"}) == 302


@dataclass
class World:
    """The real objects a route's arguments are filled from: every dataset (by name), the
    xml ids of each dataset's sentences, the annotator ``ann`` (who answered in every
    dataset), the judgement round ``jud`` judges and how many screens it has."""

    datasets: dict[str, int]
    xml_ids: dict[int, list[str]]
    annotator: int
    round_id: int
    screens: int


def world(app: Flask, ids: dict[str, int]) -> World:
    """The :class:`World` of the datasets ``ids``: makes the judge ``jud`` and a round."""
    from annotate.extensions import db
    from annotate.models import Instance, JudgementRound, User
    from annotate.services.rounds import screens

    make_user(app, "jud")
    round_id = make_round(app, "crawl", judge="jud")
    with app.app_context():
        xml_ids = {
            dataset_id: list(
                db.session.scalars(
                    select(Instance.xml_id)
                    .where(Instance.dataset_id == dataset_id)
                    .order_by(Instance.position)
                )
            )
            for dataset_id in ids.values()
        }
        annotator = db.session.scalar(select(User.id).where(User.username == "ann"))
        count = len(screens(db.get_or_404(JudgementRound, round_id)))
    assert annotator is not None and count >= 1
    return World(ids, xml_ids, annotator, round_id, count)


FILL: dict[str, Callable[[World, int], list[object]]] = {
    "dataset_id": lambda w, dataset_id: [dataset_id],
    "xml_id": lambda w, dataset_id: list(w.xml_ids[dataset_id]),
    "username": lambda w, dataset_id: ["ann"],
    "user_id": lambda w, dataset_id: [w.annotator],
    "round_id": lambda w, dataset_id: [w.round_id],
    "index": lambda w, dataset_id: list(range(1, w.screens + 1)),
}
"""Each argument a route of the organiser or a judge takes, and its values from real
objects (for the dataset crawled). A route with an argument missing here fails the
crawl with its name: add the argument here (and the object to :class:`World`)."""


def guarded(rule: Rule) -> bool:
    """Whether ``rule`` is an organiser's, a judge's or the members' route."""
    return rule.rule.startswith(("/organiser", "/judge")) or rule.endpoint.startswith("members.")


def filled(w: World, rule: Rule, dataset_id: int) -> list[dict[str, object]]:
    """Every combination of real values for the arguments of ``rule`` (on the dataset
    ``dataset_id``); an argument :data:`FILL` does not know fails, naming the route."""
    unknown = sorted(rule.arguments - FILL.keys())
    if unknown:
        pytest.fail(
            f"route {rule.endpoint} ({rule.rule}) takes {', '.join(unknown)}: no object "
            "to fill it with; add it to FILL in tests/test_dataset_crawl.py"
        )
    names = sorted(rule.arguments)
    choices = [FILL[name](w, dataset_id) for name in names]
    return [dict(zip(names, values, strict=True)) for values in product(*choices)]


def url(app: Flask, rule: Rule, values: dict[str, object], method: str) -> str:
    """The path of ``rule`` with ``values``, built through its converters (as url_for)."""
    adapter = app.url_map.bind("localhost")
    return adapter.build(rule.endpoint, values, method=method)


def crawl_urls(app: Flask, w: World) -> list[tuple[str, str, str]]:
    """(dataset name, endpoint, URL) of every GET route of the organiser and of a judge:
    the routes about a dataset once for each dataset (the sentence page once for each
    sentence), the others once (on the first dataset); plus each gold file."""
    urls = []
    for rule in app.url_map.iter_rules():
        if not guarded(rule) or "GET" not in (rule.methods or ()):
            continue
        for name, dataset_id in w.datasets.items():
            for values in filled(w, rule, dataset_id):
                urls.append((name, rule.endpoint, url(app, rule, values, "GET")))
            if "dataset_id" not in rule.arguments:
                break
    for name, dataset_id in w.datasets.items():
        gold = f"/organiser/datasets/{dataset_id}/gold"
        urls += [
            (name, "organiser.gold", f"{gold}?file={file}")
            for file in ("gold", "mwgold", "summary.json")
        ]
    return urls


BROKEN = {
    "reports.answers",
    "reports.problems",
    "reports.agreement",
    "reports.methods",
    "reports.scores",
    "reports.annotator",
    "reports.item",
    "organiser.lemmas",
    "organiser.gold",
}
"""The pages that compile the dataset, so answer 409 (with the rule the stored dataset
breaks) on dataset ``old``."""


def expected(w: World, name: str, endpoint: str) -> tuple[int, str | None]:
    """The status (and for a redirect the Location) the crawled page must answer with."""
    if endpoint == "judge.start":  # resume: the first screen not labelled
        return 302, f"/judge/{w.round_id}/1"
    if name == "old" and endpoint in BROKEN:
        return 409, None
    return 200, None


@pytest.fixture
def crawled(app: Flask, organiser: FlaskClient) -> dict[str, int]:
    """Every file of :data:`FILES` imported (:func:`import_all`), each answered by
    ``ann``; the datasets' ids by name (the organiser is ``organiser``)."""
    ids = import_all(app)
    answer_each(app, ids)
    return ids


def test_every_organiser_and_judge_page_of_every_dataset_answers(
    crawled: dict[str, int], organiser: FlaskClient, app: Flask
) -> None:
    w = world(app, crawled)
    judge = app.test_client()
    login(judge, "jud")
    urls = crawl_urls(app, w)
    wrong = []
    for name, endpoint, path in urls:
        response = (judge if path.startswith("/judge") else organiser).get(path)
        got = (response.status_code, response.headers.get("Location"))
        if got != expected(w, name, endpoint):
            wrong.append((name, endpoint, path, got))
    assert wrong == []
    # every GET route was crawled, for every dataset when it is about one
    rules = [r for r in app.url_map.iter_rules() if guarded(r) and "GET" in (r.methods or ())]
    assert {endpoint for _, endpoint, _ in urls} == {rule.endpoint for rule in rules}
    assert len(rules) >= 26
    for rule in rules:
        names = {name for name, endpoint, _ in urls if endpoint == rule.endpoint}
        assert names == (set(w.datasets) if "dataset_id" in rule.arguments else {"small"})
    sentences = sum(len(ids) for ids in w.xml_ids.values())
    assert sum(1 for _, endpoint, _ in urls if endpoint == "reports.item") == sentences


def test_a_stored_dataset_that_breaks_the_rules_shows_its_problem(
    crawled: dict[str, int], organiser: FlaskClient
) -> None:
    client, ids = organiser, crawled
    for page in BROKEN_PAGES:
        response = client.get(f"/organiser/datasets/{ids['old']}/{page}")
        text = response.get_data(as_text=True)
        assert response.status_code == 409, page
        assert "dataset &#39;old&#39; cannot be compiled" in text, page
        assert (
            "old:1: lexelt &#39;spazieren gehen.v&#39;: a lexelt holds no white space "
            "(the gold line separates &#39;LEXELT ID ::&#39; by spaces): write "
            "&#39;spazieren_gehen.v&#39;"
        ) in text, page
        assert (
            "old:1: instance &#39;a;1&#39;: an instance id holds no &#39;;&#39; (the gold "
            "line separates substitutes with &#39;;&#39;): write &#39;a_1&#39;"
        ) in text, page
    compile_page = client.get(f"/organiser/datasets/{ids['old']}/compile")
    assert compile_page.status_code == 200
    assert "Not compiled: dataset &#39;old&#39; cannot be compiled" in compile_page.get_data(
        as_text=True
    )
    for page in BROKEN_PAGES:  # the other datasets are unharmed
        assert client.get(f"/organiser/datasets/{ids['csv']}/{page}").status_code == 200
    problems = client.get(f"/organiser/datasets/{ids['csv']}/problems").get_data(as_text=True)
    assert "its gold form (lemma) one substitute per box" in problems


def test_compile_command_names_the_stored_problem(
    crawled: dict[str, int], app: Flask, tmp_path: object
) -> None:
    result = app.test_cli_runner().invoke(
        args=["lexsub", "compile", "--dataset", "old", "--out", str(tmp_path)]
    )
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: dataset 'old' not compiled into {tmp_path}: dataset 'old' cannot be compiled"
    )
    assert "write 'spazieren_gehen.v'" in result.output and "write 'a_1'" in result.output


def login_redirect(path: str) -> str:
    """Where flask-login sends a visitor who is not logged in: the log-in page, with the
    page asked for as ``next``."""
    return "/login?next=" + quote(path, safe="")


def refusal(rule: Rule, method: str, path: str, actor: str) -> tuple[int, str | None]:
    """What the app answers ``actor`` (not an organiser, judging no round) on a guarded
    route: anonymous visitors are sent to log in; an organiser's page is forbidden (403);
    a round's page is not found (404: a round is only shown to its judges), and the
    judge's home page opens with no round on it."""
    if actor == "anonymous" and rule.endpoint == "judge.screen" and method == "POST":
        return 302, "/login?next=" + path  # the labels sent are kept for after the log-in
    if actor == "anonymous":
        return 302, login_redirect(path)
    if not rule.rule.startswith("/judge"):
        return 403, None
    if rule.endpoint == "judge.home":
        return 200, None
    return 404, None


@pytest.fixture
def outsiders(app: Flask, dataset: int) -> dict[str, FlaskClient]:
    """A client each for the annotator ``ann`` (a member of the dataset), a crowd
    participant who joined its study by the link, and an anonymous visitor."""
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.study import open_study

    make_user(app, "ann")
    assign(app, "ann", dataset)
    annotator = app.test_client()
    login(annotator, "ann")
    with app.app_context():
        token = open_study(db.get_or_404(Dataset, dataset), "CODE-1")
        db.session.commit()
    participant = app.test_client()
    assert join(participant, f"/study/{token}?PROLIFIC_PID=p1") == 302
    return {"annotator": annotator, "participant": participant, "anonymous": app.test_client()}


def test_every_guarded_route_refuses_annotators_participants_and_visitors(
    app: Flask, dataset: int, outsiders: dict[str, FlaskClient]
) -> None:
    w = world(app, {"small": dataset})
    wrong, tried = [], 0
    for rule in app.url_map.iter_rules():
        if not guarded(rule):
            continue
        values = filled(w, rule, dataset)[0]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            path = url(app, rule, values, method)
            for actor, client in outsiders.items():
                response = client.open(path, method=method)
                got = (response.status_code, response.headers.get("Location"))
                if got != refusal(rule, method, path, actor):
                    wrong.append((actor, method, rule.endpoint, path, got))
                elif got[0] == 200:  # the judge's home page, with no round on it
                    assert "crawl" not in response.get_data(as_text=True)
                tried += 1
    assert wrong == []
    assert tried >= 3 * 40
    judge = app.test_client()  # the round's own judge sees it where the others see none
    login(judge, "jud")
    assert "crawl" in judge.get("/judge").get_data(as_text=True)
