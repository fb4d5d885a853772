"""A post hoc round in a real browser: the organiser builds it from the trial
gold and the context2vec outputs on the rounds page, assigns three judges, who label
every candidate with the keyboard alone (G, R, B, then Enter), and reads Tables 11 and
12 on the report page, which equal the library's report of what the judges typed."""

from __future__ import annotations

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect
from sqlalchemy import select

from scoring.formats.judgements import Judgement
from scoring.judgements.labels import POSTHOC
from scoring.judgements.report import report
from tests.browser.conftest import PASSWORD, Live
from tests.conftest import shared_path

KEYS = ("g", "r", "b")
LABEL = {"g": "good", "r": "reasonable", "b": "bad"}


def _log_in(page: Page, live: Live, username: str) -> None:
    page.goto(f"{live.url}/login")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password", exact=True).press("Enter")
    page.wait_for_url(lambda url: "/login" not in url)


def _trial(live: Live) -> None:
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    path = shared_path("data", "semeval2007", "trial", "lexsub_trial.xml")
    data = path.read_bytes()
    with live.app.app_context():
        import_dataset(parse_lexsub_xml(data, str(path)), "trial", path.name, data)


def _origins(live: Live) -> dict[tuple[str, str], tuple[str, ...]]:
    from annotate.extensions import db
    from annotate.models import RoundCandidate, RoundItem

    with live.app.app_context():
        rows = db.session.execute(
            select(RoundItem.item, RoundCandidate.text, RoundCandidate.origin).join(
                RoundItem, RoundItem.id == RoundCandidate.round_item_id
            )
        ).all()
        return {(item, text): tuple(origin) for item, text, origin in rows}


def test_three_judges_judge_a_post_hoc_round_by_keyboard(live: Live, page: Page) -> None:
    gold = shared_path("data", "semeval2007", "trial", "gold.trial")
    system = shared_path("data", "systems", "context2vec", "test.generated.best")
    _trial(live)
    live.user("boss", "organiser")
    judges = ("judge1", "judge2", "judge3")
    for name in judges:
        live.user(name)

    # the organiser builds the round: trial gold, context2vec's best answers, 3 items
    _log_in(page, live, "boss")
    page.goto(f"{live.url}/organiser/rounds")
    expect(page).to_have_title("Judgement rounds · lexsub")
    form = page.locator("#posthoc")
    form.get_by_label("Round name").fill("trial post hoc")
    form.get_by_label("Dataset", exact=False).first.select_option(label="trial")
    form.get_by_label("Gold file (optional)", exact=True).set_input_files(str(gold))
    form.get_by_label("System files for the best task").set_input_files(str(system))
    form.get_by_label("Sample size (items)").fill("3")
    form.get_by_label("Seed").fill("2007")
    form.get_by_role("button", name="Create post hoc round").click()
    expect(page.get_by_role("heading", name="Round trial post hoc")).to_be_visible()
    expect(page.locator("#seed")).to_have_text("2007")
    for name in judges:
        page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Save judges").click()
    expect(page.get_by_role("status")).to_have_text("3 judges assigned, 0 removed.")
    round_url = page.url
    round_id = round_url.rsplit("/", 1)[1]

    # each judge labels every candidate with the keyboard alone, on a 375 px wide screen
    page.set_viewport_size({"width": 375, "height": 800})
    typed: list[Judgement] = []
    origins = _origins(live)
    for number, judge in enumerate(judges):
        page.get_by_role("button", name="Log out").click()
        _log_in(page, live, judge)
        page.goto(f"{live.url}/judge")
        page.get_by_role("link", name="trial post hoc").focus()
        page.keyboard.press("Enter")
        for screen in range(1, 4):
            expect(page).to_have_url(f"{live.url}/judge/{round_id}/{screen}")
            expect(page).to_have_title(f"Screen {screen} of 3 · round trial post hoc · lexsub")
            item = page.locator("#judgements").get_attribute("data-item") or ""
            texts = page.locator(".candidate-text").all_inner_texts()
            assert len(texts) >= 3
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
            for index, text in enumerate(texts):
                key = KEYS[(index + number + screen) % 3]
                page.keyboard.press(key)
                typed.append(Judgement(item, text, judge, LABEL[key], origins[(item, text)]))
            expect(page.locator("#save")).to_be_focused()
            page.keyboard.press("Enter")
        expect(page.get_by_role("heading", name="Round trial post hoc: finished")).to_be_visible()

    # the organiser reads Tables 11 and 12
    page.get_by_role("button", name="Log out").click()
    _log_in(page, live, "boss")
    page.goto(f"{round_url}/report")
    expected = report(typed, POSTHOC)
    for table, rows in (("#table11", expected.table11), ("#table12", expected.table12)):
        for name, row in rows.items():
            cells = page.locator(f"{table} tr").filter(
                has=page.get_by_role("rowheader", name=name.replace("_", " "), exact=True)
            )
            values = [str(row.total)] + [
                "-" if row.percent[label] is None else f"{row.percent[label]:.2f}"
                for label in POSTHOC.labels
            ]
            expect(cells.locator("td")).to_have_text(values)
    assert expected.table11["sys"].total > 0 and expected.table11["origA"].total > 0
    expect(page.locator("#kappa")).to_have_text(f"{expected.fleiss_kappa:.3f}")
    expect(page.locator("svg.chart")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
