"""The organiser's dashboard, a dataset's home and its agreement page in a real browser, at
1280 px and 375 px: they show the study's state first (at most 120 words of visible prose,
the rest in a collapsed "How this works"), carry the dataset's navigation with the current
page marked, fit the screen and pass axe-core."""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect
from sqlalchemy import select

from tests.browser.conftest import Live
from tests.browser.prose import PROSE_LIMIT, visible_prose, visible_prose_words
from tests.browser.test_a11y import PHONE, WIDE, axe_violations, page_width

NAVIGATION = [
    "Home",
    "Members",
    "Study",
    "Answers",
    "Lemmas",
    "Gold",
    "Agreement",
    "Scores",
    "Settings",
]


def _study(live: Live) -> int:
    """The demo dataset (30 sentences, 6 words) answered whole by ann ('calm' every time)
    and bob ('calm' on the even sentences, 'quiet' on the odd): 30 items with two answers,
    PA (eq. 1) 15/30 = 50.0; an archived dataset beside it. Returns the demo's id."""
    from annotate.answers import Answer
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Dataset, Instance, User
    from annotate.services.datasets import import_dataset, set_archived
    from annotate.services.responses import save_answer

    live.user("boss", "organiser")
    live.user("ann", datasets=("demo",))
    live.user("bob", datasets=("demo",))
    with live.app.app_context():
        demo = db.session.scalars(select(Dataset).where(Dataset.name == "demo")).one()
        instances = list(
            db.session.scalars(
                select(Instance).where(Instance.dataset_id == demo.id).order_by(Instance.position)
            )
        )
        for name in ("ann", "bob"):
            user = db.session.scalars(select(User).where(User.username == name)).one()
            for index, instance in enumerate(instances):
                word = "quiet" if name == "bob" and index % 2 else "calm"
                save_answer(user, instance.id, Answer("substitutes", (word,), None, False))
        old = (
            b'<corpus lang="english"><lexelt item="old.n"><instance id="o1"><context>An '
            b"<head>old</head> one.</context></instance></lexelt></corpus>"
        )
        archived = import_dataset(parse_lexsub_xml(old, "old.xml"), "old", "old.xml", old)
        set_archived(archived.dataset, True)
        return demo.id


def _log_in(page: Page, live: Live) -> None:
    page.goto(live.url + "/login")
    page.get_by_label("Username", exact=True).fill("boss")
    page.get_by_label("Password", exact=True).fill("password1")
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def _shows_first(page: Page) -> list[str]:
    """What is wrong with the page as one that shows before it explains."""
    problems = axe_violations(page)
    words = visible_prose_words(page)
    if words > PROSE_LIMIT:
        problems.append(f"{words} words of visible prose: {visible_prose(page)}")
    width, inner = page_width(page)
    if width > inner:
        problems.append(f"the page is {width}px wide on a {inner}px screen")
    return problems


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "375px"])
def test_the_dashboard_home_and_agreement_show_the_state_first(
    live: Live, new_page: Callable[..., Page], viewport: dict[str, int]
) -> None:
    demo = _study(live)
    page = new_page(viewport=viewport)
    _log_in(page, live)

    page.goto(live.url + "/organiser/")
    assert _shows_first(page) == []
    row = page.locator(f"#dataset-{demo}")
    expect(row).to_contain_text("60 / 60")  # two members, 30 sentences each, all answered
    assert row.get_by_role("link").count() <= 3
    archived = page.locator("details#archived")
    expect(archived.get_by_role("link", name="old")).to_be_hidden()  # collapsed
    archived.locator("summary").click()
    expect(archived.get_by_role("link", name="old")).to_be_visible()
    page.get_by_role("link", name="demo", exact=True).click()

    assert page.url == f"{live.url}/organiser/datasets/{demo}"
    assert _shows_first(page) == []
    nav = page.get_by_role("navigation", name="Dataset demo")
    assert nav.get_by_role("link").all_inner_texts() == NAVIGATION
    expect(nav.get_by_role("link", name="Home")).to_have_attribute("aria-current", "page")
    assert nav.locator("[aria-current]").count() == 1
    expect(page.locator("#done")).to_have_text("60 / 60")
    expect(page.locator("#agreement-so-far")).to_contain_text("PA 50.0 (")
    expect(page.locator("#agreement-so-far")).to_contain_text("over 30 items")
    how = page.locator("details", has_text="How this works")
    expect(how.locator("p").first).to_be_hidden()
    how.locator("summary").click()
    expect(how.locator("p").first).to_be_visible()

    nav.get_by_role("link", name="Agreement").click()
    assert page.url == f"{live.url}/organiser/datasets/{demo}/agreement"
    assert _shows_first(page) == []
    nav = page.get_by_role("navigation", name="Dataset demo")
    expect(nav.get_by_role("link", name="Agreement")).to_have_attribute("aria-current", "page")
    assert nav.locator("[aria-current]").count() == 1

    nav.get_by_role("link", name="Settings").click()
    assert page.url == f"{live.url}/organiser/datasets/{demo}/settings"
    expect(page.get_by_role("button", name="Archive")).to_be_visible()
    assert axe_violations(page) == []
