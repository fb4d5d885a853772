"""WCAG 2.2 AA in a real browser: axe-core over every page of
``app.url_map`` an annotator or an organiser can open, at 1280 px and 375 px, with no
violation; the target word named to assistive technology; invalid fields marked and tied
to their messages; sentence links big enough and saying which is current and answered;
a box that says when it reaches its limit; no page wider than a 375 px phone.

axe-core is the copy bundled with axe-playwright-python (axe 4.12), run with the WCAG 2.0,
2.1 and 2.2 A and AA tags.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect
from sqlalchemy import select

from tests.browser.conftest import PASSWORD, Live

axe_playwright = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="the accessibility tests need axe-playwright-python (pip install -r "
    "requirements-dev.txt)",
)

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
PUBLIC = "Demo study"
"""The demo study's public title: the participants' pages name it."""
WIDE = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 812}

NOT_PAGES = {
    "static": "style sheet and scripts",
    "organiser.export": "a JSON Lines download",
    "organiser.gold": "a zip or gold-file download",
    "judge.export": "a JSON Lines download (the round's labels)",
}
"""GET routes that answer with a file, not a page."""

GERMAN = b"""<?xml version="1.0" encoding="utf-8"?>
<corpus lang="german">
  <lexelt item="Haus.n">
    <instance id="h1"><context>Die alten <head>H\xc3\xa4user</head> am Fluss werden
      bald renoviert.</context></instance>
  </lexelt>
</corpus>
"""
"""A German study we wrote: its pages are German (html lang="de")."""

LONG = "x" * 58 + "-y"  # a long value with no space: tables must scroll, not the page

POSTHOC_GOLD = (
    "spring.n d1 :: season 3;springtime 2;summer 1;\n"
    "spring.n d2 :: source 2;well 1;fountain 1;origin 1;\n"
)
POSTHOC_SYSTEM = "spring.n d1 :: season;autumn\nspring.n d2 :: geyser;well\n"
"""A post hoc round of the demo's first two sentences we wrote: 9 candidates."""

REFERENZ_ROWS = (
    "sentence\ttarget\tcandidate\titem\n"
    "Die alten <head>H\u00e4user</head> am Fluss werden bald renoviert.\tHaus\tGeb\u00e4ude\th1\n"
    "Die alten <head>H\u00e4user</head> am Fluss werden bald renoviert.\tHaus\tWohnungen\th1\n"
)
"""A lexical-reference round of the German study, one candidate a screen."""

QUESTION = "Which box is for a proper name?\n* the Proper name tick\n- the first substitute box"
"""The demo study's comprehension check: one question."""


@dataclass
class Study:
    """The live server with a study in every state a page can show."""

    live: Live
    demo: int
    german: int
    token: str
    first: int  # ids of demo sentences d1, d2
    second: int
    german_first: int
    posthoc: int  # judgement rounds: the demo's post hoc round, the German one
    referenz: int
    scores: Path  # a model's scores of the post hoc round's candidates
    bad_scores: Path
    rated: int  # a complexity study (a 1-5 rating) and its first sentence
    rated_first: int
    simple_first: int  # the first sentence of a simplification study

    def url(self, path: str) -> str:
        return self.live.url + path


def _study(live: Live, tmp: Path) -> Study:
    from annotate.answers import Answer
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Dataset, Instance, User
    from annotate.services.datasets import import_dataset
    from annotate.services.responses import save_answer
    from annotate.services.study import open_study, participant, set_study_rules, unassign

    live.user("boss", "organiser")
    live.user("ann", datasets=("demo",))
    live.user("bob", datasets=("demo",))
    live.user("jo")  # a judge only: no dataset
    live.user("kim")
    with live.app.app_context():
        german = import_dataset(
            parse_lexsub_xml(GERMAN, "haus.xml"), "haus", "haus.xml", GERMAN
        ).dataset
        german.language = "de"
        db.session.commit()
        german_id = german.id
    with live.app.app_context():
        from annotate.services.study import assign

        assign(db.session.scalars(select(User).where(User.username == "ann")).one(), german)
        demo = db.session.scalars(select(Dataset).where(Dataset.name == "demo")).one()
        token = open_study(demo, "DONE-42")
        # the study full: "gone" started and was let go, "here" holds the only place
        set_study_rules(demo, 30, 1, "OUT-7")
        demo.consent = "I agree to take part."
        demo.comprehension = QUESTION
        demo.public_title = PUBLIC  # what participants see, never the name "demo"
        unassign(participant(demo, "gone"), demo)
        participant(demo, "here")
        instances = list(
            db.session.scalars(
                select(Instance).where(Instance.dataset_id == demo.id).order_by(Instance.position)
            )
        )
        given = {
            "ann": [("seasons",), ("source", "well"), ("coil",), (LONG,)],
            "bob": [("seasons", "springtime"), ("well",), ("happy; glad",)],
        }
        for name, answers in given.items():
            user = db.session.scalars(select(User).where(User.username == name)).one()
            for instance, substitutes in zip(instances[1:], answers, strict=False):
                save_answer(user, instance.id, Answer("substitutes", substitutes, None, False))
        german_first = db.session.scalars(
            select(Instance).where(Instance.dataset_id == german_id)
        ).one()
        ann = db.session.scalars(select(User).where(User.username == "ann")).one()
        save_answer(ann, german_first.id, Answer("substitutes", ("Gebäude",), None, False))
        posthoc, referenz, scores = _rounds(demo, db.session.get(Dataset, german_id))
        study = Study(
            live,
            demo.id,
            german_id,
            token,
            instances[0].id,
            instances[1].id,
            german_first.id,
            posthoc,
            referenz,
            tmp / "model.jsonl",
            tmp / "broken.jsonl",
            *_task_studies(ann),
        )
    system = tmp / "mine.best"
    system.write_text("spring.n d2 :: season\nspring.n d3 :: source\n", encoding="utf-8")
    study.scores.write_text(scores, encoding="utf-8")
    study.bad_scores.write_text('{"item": "d1", "score": 1}\n', encoding="utf-8")
    return study


RATED = b"en_1\tenglish\tAn arduous climb began at dawn.\tarduous\t0.5\n"
SIMPLE = b"An arduous climb began at dawn.\tarduous\n"


def _task_studies(annotator: Any) -> tuple[int, int, int]:
    """A complexity and a simplification study of one sentence we wrote, imported as
    ``lexsub import --format tsar`` imports them, ``annotator`` a member of both: the
    complexity study's id and the first sentence of each."""
    from annotate.services.datasets import import_dataset
    from annotate.services.study import assign
    from scoring.formats.importers.read import parse_source

    ids = []
    for name, data in (("rated", RATED), ("simple", SIMPLE)):
        dataset = import_dataset(parse_source(data, f"{name}.tsv", "tsar"), name, name, data)
        assign(annotator, dataset.dataset)
        ids += [dataset.dataset.id, dataset.dataset.lexelts[0].instances[0].id]
    return ids[0], ids[1], ids[3]


def _no_rating(study: Study) -> Visit:
    """The complexity page sent with no rating chosen: it comes back with the error."""

    def run(page: Page) -> None:
        _open(page, study.url(f"/annotate/{study.rated_first}"))
        page.get_by_role("button", name="Save and next").click()
        expect(page.get_by_role("alert")).to_be_visible()

    return run


def _benchmark_result(study: Study) -> Visit:
    """The complexity study's system scored by MLSP's scorer against the file's gold."""

    def run(page: Page) -> None:
        system = study.scores.parent / "mine_lcp.tsv"
        system.write_text("en_1\t0.4\n", encoding="utf-8")
        _open(page, study.url(f"/organiser/datasets/{study.rated}/scores"))
        page.get_by_label("System file").set_input_files(system)
        page.get_by_label("The imported file's gold").check()
        page.get_by_role("button", name="Score with MLSP-2024 LCP").click()
        expect(page.locator("#benchmark-text")).to_be_visible()

    return run


def _rounds(demo: Any, german: Any) -> tuple[int, int, str]:
    """Two judgement rounds built through the rounds service, as the organiser's page
    builds them: a post hoc round of the demo (judges ann, mid-way; jo and kim, done) and
    a lexical-reference round of the German study (judge jo, nothing labelled); and a
    model's scores of the post hoc candidates (JSON Lines)."""
    import json

    from annotate.extensions import db
    from annotate.models import User
    from annotate.services.rounds import (
        assign_judge,
        create_round,
        posthoc_spec,
        save_labels,
        screens,
    )
    from scoring.judgements.rounds import gold_items_from_file, parse_rows

    gold = gold_items_from_file(POSTHOC_GOLD.splitlines(), "gold.txt")
    plan = posthoc_spec(demo, {"sys.best": POSTHOC_SYSTEM}, 2, 7, gold)
    posthoc = create_round(plan, "demo post hoc", "posthoc", "posthoc", "sentence", demo, "boss")
    referenz = create_round(
        parse_rows(REFERENZ_ROWS.splitlines(), "haus.tsv"),
        "Haus Referenz",
        "rows",
        "lexical-reference",
        "candidate",
        german,
        "boss",
        "haus.tsv",
    )
    users = {u.username: u for u in db.session.scalars(select(User))}
    for name in ("ann", "jo", "kim"):
        assign_judge(users[name], posthoc)
    assign_judge(users["jo"], referenz)
    candidates = [c for screen in screens(posthoc) for c in screen.candidates]
    assert len(candidates) == 9, [c.text for c in candidates]
    labels = ("good", "reasonable", "bad")
    save_labels(users["ann"], posthoc, {candidates[0].id: "good"})  # mid-way
    for shift, name in enumerate(("jo", "kim")):
        save_labels(
            users[name],
            posthoc,
            {c.id: labels[(i + shift * (i % 2)) % 3] for i, c in enumerate(candidates)},
        )
    items = {
        c.round_item_id: screen.item.item for screen in screens(posthoc) for c in screen.candidates
    }
    scores = "".join(
        json.dumps({"item": items[c.round_item_id], "candidate": c.text, "score": 1 - i / 10})
        + "\n"
        for i, c in enumerate(candidates)
    )
    return posthoc.id, referenz.id, scores


@pytest.fixture
def study(live: Live, tmp_path: Path) -> Study:
    return _study(live, tmp_path)


def log_in(page: Page, study: Study, username: str) -> None:
    page.goto(study.url("/login"))
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def axe_violations(page: Page) -> list[str]:
    """Every axe violation on the page, one line each: rule, impact, the elements."""
    results: Any = axe_playwright.Axe().run(page, options=AXE_OPTIONS)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"])
        for v in results.response["violations"]
    ]


def page_width(page: Page) -> tuple[int, int]:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return int(scroll), int(inner)


# --- the pages: every GET route, in each state it can show --------------------------------


Visit = Callable[[Page], None]


def _open(page: Page, url: str, status: int = 200) -> None:
    response = page.goto(url)
    assert response is not None and response.status == status, (url, response and response.status)


def _post_item(values: dict[str, str]) -> Callable[[Study], Visit]:
    """The annotation page after a save that comes back (an error, a question)."""

    def visit(study: Study) -> Visit:
        def run(page: Page) -> None:
            _open(page, study.url(f"/annotate/{study.first}"))
            for label, value in values.items():
                box = page.get_by_label(label, exact=True)
                if value == "tick":
                    box.check()
                else:
                    box.fill(value)
            page.get_by_role("button", name="Save and next").click()
            expect(page.get_by_role("alert")).to_be_visible()

        return run

    return visit


def _failed_login(study: Study) -> Visit:
    def run(page: Page) -> None:
        _open(page, study.url("/login"))
        page.get_by_label("Username", exact=True).fill("nobody")
        page.get_by_label("Password", exact=True).fill("wrong-password")
        page.get_by_role("button", name="Log in", exact=True).click()
        expect(page.get_by_role("alert")).to_be_visible()

    return run


def _path(make: Callable[[Study], str]) -> Callable[[Study], Visit]:
    return lambda study: lambda page: _open(page, study.url(make(study)))


def _labels_missing(study: Study) -> Visit:
    """The judging screen sent with a candidate left without a label."""

    def run(page: Page) -> None:
        _open(page, study.url(f"/judge/{study.posthoc}/1"))
        page.get_by_role("button", name="Save and next").click()
        expect(page.get_by_role("alert")).to_contain_text("Label every candidate")

    return run


def _ranked(file: Callable[[Study], Path], shown: str) -> Callable[[Study], Visit]:
    """The round's report after a scores file is sent: the models and their curves, or
    the file's problem."""

    def visit(study: Study) -> Visit:
        def run(page: Page) -> None:
            _open(page, study.url(f"/organiser/rounds/{study.posthoc}/report"))
            page.get_by_label("Scores files").set_input_files(file(study))
            page.get_by_role("button", name="Rank the models").click()
            expect(page.locator(shown)).to_be_visible()

        return run

    return visit


def _onboarding(failures: int) -> Callable[[Study], Visit]:
    """The demo study's onboarding page as participant "here" (the visitor, logged in by
    the link) sees it, after ``failures`` more wrong answers to its question."""

    def visit(study: Study) -> Visit:
        def run(page: Page) -> None:
            _open(page, study.url(f"/study/{study.token}?participant=here"))
            for _ in range(failures):
                page.get_by_label("the first substitute box").check()
                page.get_by_role("button", name="I agree: start").click()
            expect(page.locator("#consent, #screened-out").first).to_be_visible()

        return run

    return visit


# endpoint -> (who, name of the state, how to get there, the dataset the page is about)
PAGES: list[tuple[str, str, str, Callable[[Study], Visit], str | None]] = [
    ("auth.login", "visitor", "log in", _path(lambda s: "/login"), None),
    ("auth.login", "visitor", "failed log-in", _failed_login, None),
    ("annotator.home", "visitor", "welcome", _path(lambda s: "/"), None),
    ("annotator.instructions", "visitor", "instructions", _path(lambda s: "/instructions"), None),
    ("annotator.study", "visitor", "study link", _path(lambda s: f"/study/{s.token}"), PUBLIC),
    (
        "annotator.study",
        "visitor",
        "study link, bad id",
        lambda s: lambda page: _open(page, s.url(f"/study/{s.token}?participant=a%20b"), 400),
        PUBLIC,
    ),
    (
        "annotator.study",
        "visitor",
        "study full, screen-out code",
        lambda s: lambda page: _open(page, s.url(f"/study/{s.token}?participant=gone"), 409),
        PUBLIC,
    ),
    (
        "members.study_page",
        "boss",
        "study page",
        _path(lambda s: f"/organiser/datasets/{s.demo}/study"),
        "demo",
    ),
    # last of the visitor's pages: the link logs the visitor in as participant "here"
    ("onboarding.onboarding", "visitor", "onboarding", _onboarding(0), PUBLIC),
    ("onboarding.onboarding", "visitor", "comprehension failed once", _onboarding(1), PUBLIC),
    ("onboarding.onboarding", "visitor", "screened out", _onboarding(1), PUBLIC),
    ("annotator.home", "ann", "your work", _path(lambda s: "/"), None),
    ("annotator.instructions", "ann", "instructions", _path(lambda s: "/instructions"), None),
    ("annotator.start", "ann", "first unanswered", _path(lambda s: "/annotate"), "demo"),
    (
        "annotator.dataset_start",
        "ann",
        "dataset start",
        _path(lambda s: f"/annotate/dataset/{s.demo}"),
        "demo",
    ),
    ("annotator.item", "ann", "sentence", _path(lambda s: f"/annotate/{s.second}"), "demo"),
    (
        "annotator.item",
        "ann",
        "errors",
        _post_item({"Substitute 1": "happy; glad", "Part of a multiword": "tick"}),
        "demo",
    ),
    ("annotator.item", "ann", "question", _post_item({"Substitute 1": "nil"}), "demo"),
    (
        "annotator.item",
        "ann",
        "complexity rating",
        _path(lambda s: f"/annotate/{s.rated_first}"),
        "rated",
    ),
    ("annotator.item", "ann", "no rating chosen", _no_rating, "rated"),
    (
        "annotator.item",
        "ann",
        "simplification",
        _path(lambda s: f"/annotate/{s.simple_first}"),
        "simple",
    ),
    (
        "annotator.item",
        "ann",
        "German sentence",
        _path(lambda s: f"/annotate/{s.german_first}"),
        "haus",
    ),
    (
        "annotator.finished",
        "ann",
        "finished",
        _path(lambda s: f"/annotate/dataset/{s.german}/done"),
        "haus",
    ),
    ("organiser.dashboard", "boss", "dashboard", _path(lambda s: "/organiser/"), None),
    ("organiser.datasets", "boss", "datasets", _path(lambda s: "/organiser/datasets"), None),
    ("organiser.users", "boss", "accounts", _path(lambda s: "/organiser/users"), None),
    ("members.bulk_users", "boss", "bulk", _path(lambda s: "/organiser/users/bulk"), None),
    (
        "members.dataset_members",
        "boss",
        "members",
        _path(lambda s: f"/organiser/datasets/{s.demo}/members"),
        "demo",
    ),
    (
        "organiser.progress",
        "boss",
        "progress",
        _path(lambda s: f"/organiser/datasets/{s.demo}/progress"),
        "demo",
    ),
    (
        "organiser.lemmas",
        "boss",
        "lemma review",
        _path(lambda s: f"/organiser/datasets/{s.demo}/lemmas"),
        "demo",
    ),
    (
        "organiser.compile_gold",
        "boss",
        "compile",
        _path(lambda s: f"/organiser/datasets/{s.demo}/compile"),
        "demo",
    ),
    (
        "reports.answers",
        "boss",
        "answers",
        _path(lambda s: f"/organiser/datasets/{s.demo}/answers"),
        "demo",
    ),
    (
        "reports.annotator",
        "boss",
        "one annotator's answers",
        _path(lambda s: f"/organiser/datasets/{s.demo}/annotators/ann"),
        "demo",
    ),
    (
        "reports.item",
        "boss",
        "item",
        _path(lambda s: f"/organiser/datasets/{s.demo}/items/d4?revisions=on"),
        "demo",
    ),
    (
        "reports.problems",
        "boss",
        "problems",
        _path(lambda s: f"/organiser/datasets/{s.demo}/problems"),
        "demo",
    ),
    (
        "reports.agreement",
        "boss",
        "agreement",
        _path(lambda s: f"/organiser/datasets/{s.demo}/agreement"),
        "demo",
    ),
    (
        "reports.methods",
        "boss",
        "methods paragraph",
        _path(lambda s: f"/organiser/datasets/{s.demo}/methods"),
        "demo",
    ),
    (
        "reports.scores",
        "boss",
        "scores with a system and significance",
        _path(lambda s: f"/organiser/datasets/{s.demo}/scores?significance=on&rules=compat"),
        "demo",
    ),
    (
        "organiser.dataset",
        "boss",
        "dataset's home",
        _path(lambda s: f"/organiser/datasets/{s.demo}"),
        "demo",
    ),
    (
        "reports.scores",
        "boss",
        "complexity study's scores",
        _path(lambda s: f"/organiser/datasets/{s.rated}/scores"),
        "rated",
    ),
    ("reports.scores", "boss", "complexity system scored", _benchmark_result, "rated"),
    (
        "reports.agreement",
        "boss",
        "complexity study, no alpha yet",
        _path(lambda s: f"/organiser/datasets/{s.rated}/agreement"),
        "rated",
    ),
    (
        "organiser.dataset",
        "boss",
        "German dataset",
        _path(lambda s: f"/organiser/datasets/{s.german}"),
        "haus",
    ),
    (
        "organiser.settings",
        "boss",
        "settings",
        _path(lambda s: f"/organiser/datasets/{s.demo}/settings"),
        "demo",
    ),
    (
        "organiser.settings",
        "boss",
        "German dataset's settings",
        _path(lambda s: f"/organiser/datasets/{s.german}/settings"),
        "haus",
    ),
    (
        "organiser.delete",
        "boss",
        "what deleting would remove",
        _path(lambda s: f"/organiser/datasets/{s.demo}/delete"),
        "demo",
    ),
    # judgement rounds: the organiser's pages
    ("judge.rounds", "boss", "rounds and forms", _path(lambda s: "/organiser/rounds"), None),
    (
        "judge.round_page",
        "boss",
        "judges and progress",
        _path(lambda s: f"/organiser/rounds/{s.posthoc}"),
        "demo post hoc",
    ),
    (
        "judge.round_page",
        "boss",
        "German round, nothing labelled",
        _path(lambda s: f"/organiser/rounds/{s.referenz}"),
        "Haus Referenz",
    ),
    (
        "judge.report_page",
        "boss",
        "Tables 11 and 12, agreement",
        _path(lambda s: f"/organiser/rounds/{s.posthoc}/report"),
        "demo post hoc",
    ),
    (
        "judge.report_page",
        "boss",
        "a model ranked, its curves",
        _ranked(lambda s: s.scores, "#models"),
        "demo post hoc",
    ),
    (
        "judge.report_page",
        "boss",
        "a scores file refused",
        _ranked(lambda s: s.bad_scores, "#errors"),
        "demo post hoc",
    ),
    (
        "judge.report_page",
        "boss",
        "no label yet",
        _path(lambda s: f"/organiser/rounds/{s.referenz}/report"),
        "Haus Referenz",
    ),
    # judgement rounds: the judges' pages
    ("judge.home", "ann", "a round", _path(lambda s: "/judge"), None),
    ("judge.home", "bob", "no round", _path(lambda s: "/judge"), None),
    ("judge.home", "jo", "rounds in two languages", _path(lambda s: "/judge"), None),
    ("judge.start", "ann", "resume", _path(lambda s: f"/judge/{s.posthoc}"), "demo post hoc"),
    (
        "judge.screen",
        "ann",
        "mid-way",
        _path(lambda s: f"/judge/{s.posthoc}/1"),
        "demo post hoc",
    ),
    ("judge.screen", "ann", "labels missing", _labels_missing, "demo post hoc"),
    (
        "judge.screen",
        "ann",
        "last screen",
        _path(lambda s: f"/judge/{s.posthoc}/2"),
        "demo post hoc",
    ),
    (
        "judge.finished",
        "ann",
        "not finished",
        _path(lambda s: f"/judge/{s.posthoc}/done"),
        "demo post hoc",
    ),
    ("judge.start", "jo", "all labelled", _path(lambda s: f"/judge/{s.posthoc}"), "demo post hoc"),
    (
        "judge.finished",
        "jo",
        "finished",
        _path(lambda s: f"/judge/{s.posthoc}/done"),
        "demo post hoc",
    ),
    (
        "judge.screen",
        "jo",
        "German, one candidate a screen",
        _path(lambda s: f"/judge/{s.referenz}/1"),
        "Haus Referenz",
    ),
    (
        "judge.finished",
        "jo",
        "German, not finished",
        _path(lambda s: f"/judge/{s.referenz}/done"),
        "Haus Referenz",
    ),
]


USERS = ("visitor", "ann", "bob", "jo", "boss")
"""Who opens the pages: no one; annotators (ann also judges a round, bob only annotates,
jo only judges); the organiser."""


def test_every_page_route_is_checked(live: Live) -> None:
    """Every GET route of the app is a page below (or a download): a new page is checked
    by axe as soon as it is added here, and cannot be forgotten."""
    routes = {
        rule.endpoint for rule in live.app.url_map.iter_rules() if "GET" in (rule.methods or ())
    }
    checked = {endpoint for endpoint, *_ in PAGES}
    assert routes - set(NOT_PAGES) - checked == set(), "add these pages to PAGES"
    assert checked <= routes


def _upload_system(page: Page, study: Study, tmp: Path) -> None:
    _open(page, study.url(f"/organiser/datasets/{study.demo}/scores"))
    system = tmp / "mine.best"
    page.get_by_label("System files").set_input_files(system)
    page.get_by_role("button", name="Score").click()
    expect(page.get_by_role("heading", name="mine.best")).to_be_visible()


@pytest.fixture
def role_pages(
    study: Study, new_page: Callable[..., Page]
) -> Iterator[Callable[[dict[str, int]], dict[str, Page]]]:
    def make(viewport: dict[str, int]) -> dict[str, Page]:
        pages = {who: new_page(viewport=viewport) for who in USERS}
        for who in USERS[1:]:
            log_in(pages[who], study, who)
        return pages

    yield make


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "375px"])
def test_every_page_has_no_wcag_violation_and_fits_the_screen(
    study: Study,
    role_pages: Callable[[dict[str, int]], dict[str, Page]],
    tmp_path: Path,
    viewport: dict[str, int],
) -> None:
    pages = role_pages(viewport)
    _upload_system(pages["boss"], study, tmp_path)
    found: dict[str, list[str]] = {}
    scrolled: dict[str, int] = {}
    for endpoint, who, state, visit, dataset in PAGES:
        page = pages[who]
        visit(study)(page)
        name = f"{endpoint} ({who}, {state}) {page.url}"
        problems = axe_violations(page)
        title = page.title()
        if dataset is not None and dataset not in title:
            problems.append(f"title {title!r} does not name the dataset {dataset!r}")
        if not re.search(r"\S+ · .*lexsub$", title):
            problems.append(f"title {title!r} does not name the page")
        if page.locator("h1").count() != 1:
            problems.append(f"{page.locator('h1').count()} h1 headings, not one")
        width, inner = page_width(page)
        if width > inner:
            problems.append(f"the page is {width}px wide on a {inner}px screen")
        scrolled[name] = _scrolling_tables(page, problems)
        if problems:
            found[name] = problems
    assert found == {}, "\n".join(f"{name}:\n  " + "\n  ".join(p) for name, p in found.items())
    # on a phone the wide tables scroll inside their own container (which takes the focus)
    wide = {name.split(" (")[0] for name, count in scrolled.items() if count}
    if viewport is PHONE:
        assert {"organiser.lemmas", "reports.answers", "reports.scores"} <= wide, wide


# --- organiser pages people can read: the page's width, whole words, charts ------------------

BROKEN_WORDS = """(() => {
    const found = [];
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent.trim();
      if (!text || /[\\s-]/.test(text) || !node.parentElement.closest('td, th')) { continue; }
      const range = document.createRange();
      range.selectNodeContents(node);
      const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
      if (tops.size > 1) { found.push(text); }
    }
    return found;
  })()"""
"""The words alone in a text of a table cell that the browser broke over two lines (a
word with a hyphen may break after it, as text does)."""

LAST_COLUMN = """Array.from(document.querySelectorAll('table')).map(t => {
    const cells = t.querySelectorAll('tr:first-child > :last-child');
    const last = cells[cells.length - 1].getBoundingClientRect();
    const box = t.closest('.table-scroll').getBoundingClientRect();
    return [t.id || t.className, last.right <= box.right + 0.5 && last.right <= innerWidth];
  })"""
"""Each table, and whether its last column is in sight without scrolling."""

AXIS_LABELS = """Array.from(document.querySelectorAll('svg.chart text')).map(t => {
    const scale = t.ownerSVGElement.getScreenCTM().a;
    return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * scale];
  })"""
"""Each chart text and the size it is drawn at on the screen (px)."""


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "375px"])
def test_organiser_tables_use_the_width_and_charts_stay_readable(
    study: Study,
    role_pages: Callable[[dict[str, int]], dict[str, Page]],
    tmp_path: Path,
    viewport: dict[str, int],
) -> None:
    page = role_pages(viewport)["boss"]
    _upload_system(page, study, tmp_path)
    for path in ("answers", "scores", "agreement"):
        _open(page, study.url(f"/organiser/datasets/{study.demo}/{path}"))
        width, inner = page_width(page)
        assert width <= inner, (path, width, inner)
        assert page.evaluate(BROKEN_WORDS) == [], path  # no word broken mid-word
        if viewport is WIDE:  # every column in sight, the leaderboard's Delete too
            assert all(seen for _, seen in page.evaluate(LAST_COLUMN)), (
                path,
                page.evaluate(LAST_COLUMN),
            )
    if viewport is WIDE:
        _open(page, study.url(f"/organiser/datasets/{study.demo}/scores"))
        delete = page.get_by_role("button", name="Delete mine.best")
        box = delete.bounding_box()
        assert box is not None and box["x"] + box["width"] <= WIDE["width"]
        assert delete.evaluate(
            "b => { const s = b.closest('.table-scroll'); return s.scrollWidth <= s.clientWidth; }"
        )
    for path in (
        f"/organiser/datasets/{study.demo}/agreement",
        f"/organiser/rounds/{study.posthoc}/report",
    ):
        _open(page, study.url(path))
        sizes = page.evaluate(AXIS_LABELS)
        assert sizes, path
        small = [(text, round(size, 2)) for text, size in sizes if size < 10.95]
        assert small == [], (path, small)  # at least 11 px on the screen


def _scrolling_tables(page: Page, problems: list[str]) -> int:
    """How many tables scroll sideways inside their container; each must be a
    .table-scroll that the keyboard can reach (tabindex 0), else a line in ``problems``."""
    rows = page.evaluate(
        """Array.from(document.querySelectorAll('table')).map(t => {
             const box = t.closest('.table-scroll');
             return [t.id || t.className || 'a table', box !== null,
                     box ? box.scrollWidth > box.clientWidth : false,
                     box ? box.getAttribute('tabindex') : null];
           })"""
    )
    problems.extend(
        f"table {name} outside .table-scroll" for name, inside, _, _ in rows if not inside
    )
    problems.extend(
        f"table {name} scrolls but its container is not focusable"
        for name, _, scrolls, focus in rows
        if scrolls and focus != "0"
    )
    return sum(1 for _, _, scrolls, _ in rows if scrolls)


# --- the annotation page, as a screen reader and a phone meet it ----------------------------


def _annotator(study: Study, new_page: Callable[..., Page], **options: Any) -> Page:
    page = new_page(**options)
    log_in(page, study, "ann")
    return page


def test_the_target_word_is_in_every_box_and_tick_description(
    study: Study, new_page: Callable[..., Page]
) -> None:
    page = _annotator(study, new_page)
    _open(page, study.url(f"/annotate/{study.first}"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Sentence 1 of word 1: spring")
    target = page.locator("#sentence mark")
    expect(target).to_have_text("spring")
    for label in (
        "Substitute 1",
        "Substitute 2",
        "Substitute 3",
        "Multiword",
        "Proper name",
        "No substitute (nil)",
        "Part of a multiword",
        "Used a dictionary or thesaurus for this word",
    ):
        control = page.get_by_label(label, exact=True)
        expect(control).to_have_accessible_name(label)  # the labels stay as they are
        expect(control).to_have_accessible_description(re.compile(r"Target word: spring\b"))
    # the German study: the word as it stands in its sentence, in German
    _open(page, study.url(f"/annotate/{study.german_first}"))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#sentence")).to_have_attribute("lang", "de")
    expect(page.get_by_label("Ersatzwort 1", exact=True)).to_have_accessible_description(
        "Zielwort: Häuser"
    )


def test_an_invalid_save_marks_each_field_and_announces_the_message(
    study: Study, new_page: Callable[..., Page]
) -> None:
    page = _annotator(study, new_page)
    _open(page, study.url(f"/annotate/{study.first}"))
    page.get_by_label("Substitute 1", exact=True).fill("happy; glad")
    page.get_by_label("Substitute 2", exact=True).fill("season")
    page.get_by_label("Part of a multiword", exact=True).check()
    page.get_by_role("button", name="Save and next").click()

    expect(page).to_have_title("Error: Sentence 1 of word 1 · demo · lexsub")
    first = "Substitute 1 ('happy; glad'): one substitute per box"
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(first)
    expect(alert).to_contain_text("You ticked 'Part of a multiword': type the multiword.")
    sub1 = page.get_by_label("Substitute 1", exact=True)
    expect(sub1).to_have_attribute("aria-invalid", "true")
    expect(sub1).to_have_accessible_description(re.compile(re.escape(first)))
    expect(sub1).to_be_focused()  # the first offending field: its message is read out
    multiword = page.get_by_label("Multiword", exact=True)
    expect(multiword).to_have_attribute("aria-invalid", "true")
    expect(multiword).to_have_accessible_description(re.compile("type the multiword"))
    for fine in ("Substitute 2", "Substitute 3", "Proper name"):
        expect(page.get_by_label(fine, exact=True)).not_to_have_attribute("aria-invalid", "true")

    # nothing given at all: Substitute 1 is the field to fill
    page.get_by_label("Substitute 1", exact=True).fill("")
    page.get_by_label("Substitute 2", exact=True).fill("")
    page.get_by_label("Part of a multiword", exact=True).uncheck()
    page.get_by_role("button", name="Save and next").click()
    expect(sub1).to_have_attribute("aria-invalid", "true")
    expect(sub1).to_have_accessible_description(re.compile("Give at least one substitute"))


def test_the_login_form_marks_its_fields_after_a_failed_log_in(
    study: Study, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    _open(page, study.url("/login"))
    expect(page).to_have_title("Log in · lexsub")
    page.get_by_label("Username", exact=True).fill("ann")
    page.get_by_label("Password", exact=True).fill("not-her-password")
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page).to_have_title("Error: Log in · lexsub")
    expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
    for label in ("Username", "Password"):
        field = page.get_by_label(label, exact=True)
        expect(field).to_have_attribute("aria-invalid", "true")
        expect(field).to_have_accessible_description("Wrong username or password.")
    expect(page.get_by_label("Username", exact=True)).to_have_value("ann")


def test_sentence_links_are_big_current_and_say_answered(
    study: Study, new_page: Callable[..., Page]
) -> None:
    page = _annotator(study, new_page, viewport=PHONE, is_mobile=True, has_touch=True)
    _open(page, study.url(f"/annotate/{study.first}"))
    page.get_by_label("Substitute 1", exact=True).fill("season")
    page.get_by_role("button", name="Save and next").click()
    expect(page).to_have_url(study.url(f"/annotate/{study.second}"))
    links = page.get_by_role("navigation", name="Sentences of this word").get_by_role("link")
    expect(links).to_have_count(5)
    # ann answered d1 here and d2-d5 through the service: every link says so in text
    expect(links.nth(0)).to_have_accessible_name("1 (answered)")
    expect(links.nth(1)).to_have_accessible_name("2 (answered)")
    expect(links.nth(1)).to_have_attribute("aria-current", "page")
    for index in (0, 2, 3, 4):
        expect(links.nth(index)).not_to_have_attribute("aria-current", re.compile(".*"))
    for index in range(5):
        where = links.nth(index).bounding_box()
        assert where is not None and where["width"] >= 24 and where["height"] >= 24, where
    ids = page.evaluate(
        "Array.from(document.querySelectorAll('nav.sentences a')).map(a => a.textContent)"
    )
    assert ids == [
        "1✓ (answered)",
        "2✓ (answered)",
        "3✓ (answered)",
        "4✓ (answered)",
        "5✓ (answered)",
    ]


def test_a_box_at_its_limit_says_so_and_keeps_what_was_typed(
    study: Study, new_page: Callable[..., Page]
) -> None:
    page = _annotator(study, new_page)
    _open(page, study.url(f"/annotate/{study.first}"))
    box = page.get_by_label("Substitute 1", exact=True)
    note = page.locator("#limit-sub1")
    box.fill("a" * 59)
    expect(note).to_have_text("")
    box.press("b")  # typed to the limit: said, not cut
    expect(box).to_have_value("a" * 59 + "b")
    expect(note).to_have_text("60 characters: the limit of this box.")
    expect(note).to_have_attribute("aria-live", "polite")
    expect(box).to_have_accessible_description(re.compile("the limit of this box"))
    box.press("c")  # one more is kept, and the note says what to do
    expect(box).to_have_value("a" * 59 + "bc")
    expect(note).to_have_text("61 characters: at most 60, please shorten it.")
    pasted = "b" * 70
    box.fill(pasted)
    expect(box).to_have_value(pasted)
    expect(note).to_have_text("70 characters: at most 60, please shorten it.")
    page.get_by_role("button", name="Save and next").click()
    expect(page.get_by_role("alert")).to_contain_text("is too long: 70 characters (at most 60)")
    expect(box).to_have_value(pasted)
    expect(box).to_have_attribute("aria-invalid", "true")
    # the Multiword box too
    multiword = page.get_by_label("Multiword", exact=True)
    multiword.fill("m" * 60)
    expect(page.locator("#limit-multiword")).to_have_text("60 characters: the limit of this box.")


def test_the_organiser_boxes_say_their_limit_too(
    study: Study, new_page: Callable[..., Page]
) -> None:
    page = new_page()
    log_in(page, study, "boss")
    _open(page, study.url(f"/organiser/datasets/{study.demo}/members"))
    code = page.get_by_label(re.compile("^Completion code"))
    code.fill("c" * 65)
    expect(code).to_have_value("c" * 65)  # kept whole, not cut at 64
    expect(page.locator("#limit-completion_code")).to_have_text(
        "65 characters: at most 64, please shorten it."
    )
    expect(code).to_have_accessible_description(re.compile("at most 64"))
