"""The windowed "This word" navigation in a real browser, at 1280 px and 375 px: the
word's first and last sentences and those around the one shown, a jump field that goes
to a sentence by its number with the keyboard alone, a wrong number said by the field;
axe-core finds no WCAG 2.2 AA violation and nothing is wider than the screen."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect
from sqlalchemy import select

from tests.browser.conftest import PASSWORD, Live
from tests.browser.test_a11y import PHONE, WIDE, axe_violations, page_width
from tests.test_word_window import words_xml

LABEL = "Go to sentence (1 to 1000)"


@pytest.fixture
def big(live: Live) -> list[int]:
    """A dataset of the words small (30 sentences) and big (1,000), ann its member: the
    ids of big's sentences in order."""
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Instance, Lexelt
    from annotate.services.datasets import import_dataset

    data = words_xml({"small": 30, "big": 1000})
    with live.app.app_context():
        import_dataset(parse_lexsub_xml(data, "words.xml"), "words", "words.xml", data)
        ids = list(
            db.session.scalars(
                select(Instance.id)
                .join(Lexelt, Lexelt.id == Instance.lexelt_id)
                .where(Lexelt.lemma == "big")
                .order_by(Instance.position)
            )
        )
    live.user("ann", datasets=("words",))
    return ids


def _annotator(live: Live, new_page: Callable[..., Page], viewport: dict[str, int]) -> Page:
    options = {"is_mobile": True, "has_touch": True} if viewport is PHONE else {}
    page = new_page(viewport=viewport, **options)
    page.goto(f"{live.url}/login")
    page.get_by_label("Username", exact=True).fill("ann")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    return page


def _numbers(page: Page) -> list[str]:
    return page.evaluate(  # type: ignore[no-any-return]
        "Array.from(document.querySelectorAll('nav.sentences a')).map(a => a.textContent)"
    )


def _fits_and_passes_axe(page: Page) -> None:
    assert axe_violations(page) == []
    width, inner = page_width(page)
    assert width <= inner, (width, inner)


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "375px"])
def test_the_window_first_last_and_the_jump_field_by_keyboard(
    live: Live, big: list[int], new_page: Callable[..., Page], viewport: dict[str, int]
) -> None:
    page = _annotator(live, new_page, viewport)
    page.goto(f"{live.url}/annotate/{big[499]}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sentence 500 of word 2: big")
    nav = page.get_by_role("navigation", name="Sentences of this word")
    links = nav.get_by_role("link")
    expect(links).to_have_count(13)
    assert _numbers(page) == ["1", *map(str, range(495, 506)), "1000"]
    expect(links.nth(6)).to_have_attribute("aria-current", "page")
    expect(links.nth(6)).to_have_accessible_name("500")
    for index in range(13):
        where = links.nth(index).bounding_box()
        assert where is not None and where["width"] >= 24 and where["height"] >= 24, where
    _fits_and_passes_axe(page)

    # the keyboard alone: from the last link, Tab reaches the field, then its button
    links.nth(12).focus()
    page.keyboard.press("Tab")
    field = page.get_by_label(LABEL, exact=True)
    expect(field).to_be_focused()
    page.keyboard.type("777")
    page.keyboard.press("Tab")
    expect(nav.get_by_role("button", name="Go", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live.url}/annotate/{big[776]}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sentence 777 of word 2: big")
    assert _numbers(page) == ["1", *map(str, range(772, 783)), "1000"]

    # the last by its number (Enter in the field), then the first by its link
    page.get_by_label(LABEL, exact=True).fill("1000")
    page.get_by_label(LABEL, exact=True).press("Enter")
    expect(page).to_have_url(f"{live.url}/annotate/{big[999]}")
    assert _numbers(page) == ["1", "995", "996", "997", "998", "999", "1000"]
    page.get_by_role("navigation", name="Sentences of this word").get_by_role(
        "link", name="1", exact=True
    ).click()
    expect(page).to_have_url(f"{live.url}/annotate/{big[0]}")
    assert _numbers(page) == ["1", "2", "3", "4", "5", "6", "1000"]


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "375px"])
def test_a_wrong_number_is_said_by_the_field(
    live: Live, big: list[int], new_page: Callable[..., Page], viewport: dict[str, int]
) -> None:
    page = _annotator(live, new_page, viewport)
    page.goto(f"{live.url}/annotate/{big[9]}")
    field = page.get_by_label(LABEL, exact=True)
    field.fill("1001")
    field.press("Enter")
    message = "Sentence number “1001” is not a whole number from 1 to 1000."
    expect(page.get_by_role("alert")).to_have_text(message)
    field = page.get_by_label(LABEL, exact=True)
    expect(field).to_be_focused()  # the field to correct, its message read out
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(message)
    expect(field).to_have_value("1001")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sentence 10 of word 2: big")
    _fits_and_passes_axe(page)
    # corrected, it goes
    field.fill("12")
    field.press("Enter")
    expect(page).to_have_url(f"{live.url}/annotate/{big[11]}")
    expect(page.get_by_role("alert")).to_have_count(0)


def test_after_a_save_by_the_script_the_window_moves_and_the_field_works(
    live: Live, big: list[int], new_page: Callable[..., Page]
) -> None:
    page = _annotator(live, new_page, WIDE)
    page.goto(f"{live.url}/annotate/{big[499]}")
    page.get_by_label("Substitute 1", exact=True).fill("large")
    page.get_by_role("button", name="Save and next").click()
    expect(page).to_have_url(f"{live.url}/annotate/{big[500]}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Sentence 501 of word 2: big")
    shown = ["1", *(str(n) for n in range(496, 507)), "1000"]
    shown[5] = "500✓ (answered)"  # saved a moment ago: its link says so
    assert _numbers(page) == shown
    answered = page.get_by_role("navigation", name="Sentences of this word").get_by_role(
        "link", name=re.compile(r"^500 \(answered\)$")
    )
    expect(answered).to_have_count(1)
    page.get_by_label(LABEL, exact=True).fill("3")
    page.get_by_label(LABEL, exact=True).press("Enter")
    expect(page).to_have_url(f"{live.url}/annotate/{big[2]}")
