"""A study in a real browser: two datasets, an annotator
assigned to one only, login landing on the first unanswered sentence, the finished page,
the keyboard shortcuts, and a crowd participant's link and completion code."""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect
from sqlalchemy import select

from tests.browser.conftest import PASSWORD, Live
from tests.conftest import SMALL_XML


def _small(live: Live) -> tuple[int, list[int]]:
    """Import SMALL_XML as 'small'; its id and its sentence ids in order."""
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Instance
    from annotate.services.datasets import import_dataset

    with live.app.app_context():
        dataset = import_dataset(
            parse_lexsub_xml(SMALL_XML, "small.xml"), "small", "small.xml", SMALL_XML
        ).dataset
        ids = list(
            db.session.scalars(
                select(Instance.id)
                .where(Instance.dataset_id == dataset.id)
                .order_by(Instance.position)
            )
        )
        return dataset.id, ids


def _demo_first(live: Live) -> int:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance

    with live.app.app_context():
        demo = db.session.execute(select(Dataset).where(Dataset.name == "demo")).scalar_one()
        return int(
            db.session.scalar(
                select(Instance.id)
                .where(Instance.dataset_id == demo.id)
                .order_by(Instance.position)
                .limit(1)
            )
            or 0
        )


def _log_in(page: Page, live: Live, username: str) -> None:
    page.goto(f"{live.url}/login")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()


def test_an_annotator_works_in_their_dataset_only_and_finishes_it(live: Live, page: Page) -> None:
    small, ids = _small(live)
    live.user("ann", datasets=("small",))
    live.user("boss", "organiser")

    # login lands on the first unanswered sentence, which names its dataset
    _log_in(page, live, "ann")
    expect(page).to_have_url(f"{live.url}/annotate/{ids[0]}")
    expect(page.locator("#dataset")).to_have_text("Dataset small")
    expect(page.locator("#progress")).to_have_text("Word 1 of 2 · sentence 1 of 2 · 0 / 3 done")
    expect(page.get_by_role("progressbar", name="Sentences done")).to_be_visible()

    # the other dataset is not theirs: its sentences are a 404
    response = page.goto(f"{live.url}/annotate/{_demo_first(live)}")
    assert response is not None and response.status == 404
    page.goto(f"{live.url}/")
    expect(page.get_by_role("row")).to_have_count(1)
    expect(page.get_by_role("row")).to_contain_text("small")

    # answer the first sentence; "Saved." confirms; log out and in: the second one
    page.goto(f"{live.url}/annotate/{ids[0]}")
    page.get_by_label("Substitute 1", exact=True).fill("clever")
    page.get_by_role("button", name="Save and next").click()
    expect(page).to_have_url(f"{live.url}/annotate/{ids[1]}")
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    page.get_by_role("button", name="Log out").click()
    _log_in(page, live, "ann")
    expect(page).to_have_url(f"{live.url}/annotate/{ids[1]}")

    # keyboard shortcuts: Alt+N ticks No substitute (nil), Alt+M the multiword box
    page.get_by_label("Substitute 1", exact=True).focus()
    page.keyboard.press("Alt+N")
    expect(page.get_by_label("No substitute (nil)")).to_be_checked()
    page.keyboard.press("Alt+N")
    expect(page.get_by_label("No substitute (nil)")).not_to_be_checked()
    page.keyboard.press("Alt+P")
    expect(page.get_by_label("Proper name")).to_be_checked()
    page.keyboard.press("Alt+M")
    expect(page.get_by_label("Part of a multiword")).to_be_checked()
    expect(page.get_by_label("Multiword", exact=True)).to_be_focused()
    page.keyboard.press("Alt+M")
    page.get_by_role("button", name="Save and next").click()

    # the last sentence: the dataset's finished page, not another dataset
    expect(page).to_have_url(f"{live.url}/annotate/{ids[2]}")
    page.get_by_label("Substitute 1", exact=True).fill("bear")
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live.url}/annotate/dataset/{small}/done")
    expect(page.get_by_role("heading", name="small: finished")).to_be_visible()
    expect(page.locator("#nothing-left")).to_be_visible()

    # the instructions list the shortcuts
    page.get_by_role("link", name="Instructions").click()
    expect(page.get_by_role("heading", name="Keyboard shortcuts")).to_be_visible()

    # an organiser lands on the dashboard
    page.get_by_role("button", name="Log out").click()
    _log_in(page, live, "boss")
    expect(page).to_have_url(f"{live.url}/organiser/")


def test_a_crowd_participant_arrives_by_link_and_leaves_with_the_code(
    live: Live, page: Page, new_page: Callable[..., Page]
) -> None:
    small, ids = _small(live)
    live.user("boss", "organiser")
    boss = new_page()
    _log_in(boss, live, "boss")
    boss.goto(f"{live.url}/organiser/datasets/{small}/members")
    boss.get_by_label("Shown to the members on the instructions page").fill(
        "Think of a teacher reading it."
    )
    boss.get_by_role("button", name="Save guidelines").click()
    boss.get_by_label("Completion code").fill("C0MPLETE")
    boss.get_by_role("button", name="Open a study link").click()
    link = boss.locator("#study-link").inner_text()

    page.goto(link + "?PROLIFIC_PID=5f1e2d3c4b5a69788796a5b4")
    # the onboarding page first: the guidelines, then Start
    expect(page).to_have_url(f"{live.url}/study/dataset/{small}/start")
    expect(page.locator("#guidelines")).to_have_text("Think of a teacher reading it.")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(f"{live.url}/annotate/{ids[0]}")
    expect(page.get_by_role("banner")).to_contain_text(f"p{small}-5f1e2d3c4b5a69788796a5b4")
    for word in ("clever", "light", "bear"):
        page.get_by_label("Substitute 1", exact=True).fill(word)
        page.get_by_role("button", name="Save and next").click()
    expect(page).to_have_url(f"{live.url}/annotate/dataset/{small}/done")
    expect(page.locator("#completion-code")).to_have_text("C0MPLETE")
    page.get_by_role("link", name="Instructions").click()
    expect(page.get_by_text("Think of a teacher reading it.")).to_be_visible()
