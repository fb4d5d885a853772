"""The crowd checks in a real browser, at 1280 px and 375 px with axe-core clean: a
blocked finish that stands when the check answer is edited afterwards, the study page
that records both and offers "Leave out" beside the flagged participant (reached from
the dataset's home), and a closed study's link that says so with the platform's return
under the study's public title."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect

from tests.browser.conftest import Live
from tests.browser.test_a11y import PHONE, WIDE, axe_violations, page_width
from tests.browser.test_crowd_browser import _answer, _import, _open_study, _start
from tests.browser.test_study_browser import _log_in
from tests.conftest import SMALL_XML

_PROSE = """() => {
  const texts = [];
  for (const element of document.querySelectorAll('p, li, dd')) {
    if (element.closest('table, form, details, nav')) continue;
    if (element.parentElement && element.parentElement.closest('p, li, dd')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (getComputedStyle(element).visibility === 'hidden') continue;
    const text = element.innerText.trim();
    if (text) texts.push(text);
  }
  return texts;
}"""
_shared: Callable[[Page], int] | None
try:  # the shared measure, once it is there
    _shared = importlib.import_module("tests.browser.prose").visible_prose_words
except ImportError:  # the same measure, kept here until then
    _shared = None


def visible_prose_words(page: Page) -> int:
    """Words of the visible p, li and dd texts outside tables, forms, details and nav
    (each prose element once, through the outermost): tests/browser/prose.py's measure
    when it is there, the same one here until then."""
    if _shared is not None:
        return _shared(page)
    return sum(len(str(text).split()) for text in page.evaluate(_PROSE))


CARELESS = "5f1e2d3c4b5a69788796a5c0"
PROSE_LIMIT = 120


def _clean_at_both_widths(page: Page, url: str) -> None:
    """At 1280 px and at 375 px: no axe violation, nothing wider than the window."""
    for size in (WIDE, PHONE):
        page.set_viewport_size({"width": size["width"], "height": size["height"]})
        page.goto(url)
        assert axe_violations(page) == [], (url, size)
        width, inner = page_width(page)
        assert width <= inner, (url, size, width)


def _boss(live: Live, new_page: Callable[..., Page], dataset_id: int) -> Page:
    live.user("boss", "organiser")
    boss = new_page()
    _log_in(boss, live, "boss")
    boss.goto(f"{live.url}/organiser/datasets/{dataset_id}/study")
    boss.get_by_label("Check items").fill("1\tclever")
    boss.get_by_role("button", name="Save the check items").click()
    boss.get_by_label("Least check score (percent; empty: none)").fill("100")
    boss.get_by_label("Under it").select_option("block")
    boss.get_by_role("button", name="Save the thresholds").click()
    expect(boss.get_by_text("Quality thresholds saved.")).to_be_visible()
    return boss


def test_a_blocked_finish_stands_and_the_study_page_offers_to_leave_out(
    live: Live, new_page: Callable[..., Page]
) -> None:
    small, ids = _import(live, SMALL_XML, "internal-name-7")
    boss = _boss(live, new_page, small)
    link = _open_study(boss, live, small, "DONE-7")
    boss.goto(f"{live.url}/organiser/datasets/{small}/study")
    boss.get_by_label("Public title", exact=False).fill("Words in context")
    boss.get_by_role("button", name="Save what participants see").click()
    expect(boss.locator("#public-title")).to_have_text("Words in context")

    page = new_page()
    page.goto(f"{link}?PROLIFIC_PID={CARELESS}")
    _start(page, small)
    expect(page.locator("#dataset")).to_have_text("Words in context")
    _answer(page, ("dim", "light", "bear"))  # a junk answer on the check sentence
    expect(page).to_have_url(f"{live.url}/annotate/dataset/{small}/done")
    expect(page.locator("#checks-failed")).to_be_visible()
    expect(page.locator("#completion-code")).to_have_count(0)
    expect(page.get_by_role("heading", level=1)).to_have_text("Words in context: finished")
    # the check answer edited afterwards: still no completion code
    page.goto(f"{live.url}/annotate/{ids[0]}")
    page.get_by_label("Substitute 1", exact=True).fill("clever")
    page.get_by_role("button", name="Save and next").click()
    page.goto(f"{live.url}/annotate/dataset/{small}/done")
    expect(page.locator("#checks-failed")).to_be_visible()
    expect(page.locator("#completion-code")).to_have_count(0)
    assert "internal-name-7" not in page.locator("main").inner_text()

    # the dataset's home links the study page; it records the decision and the score now
    boss.goto(f"{live.url}/organiser/datasets/{small}")
    boss.locator("#study-page-link").click()
    expect(boss).to_have_url(f"{live.url}/organiser/datasets/{small}/study")
    row = boss.locator(f"#participant-{CARELESS}")
    expect(row.locator(".check-score")).to_have_text("1 / 1")
    expect(row.locator(".finish")).to_have_text("blocked (0 / 1 then) checks edited since")
    expect(boss.locator("#how-this-works")).not_to_have_attribute("open", re.compile(".*"))
    assert visible_prose_words(boss) <= PROSE_LIMIT
    _clean_at_both_widths(boss, f"{live.url}/organiser/datasets/{small}/study")
    boss.set_viewport_size({"width": WIDE["width"], "height": WIDE["height"]})
    row.get_by_role("button", name=f"Leave out {CARELESS}").click()
    expect(boss.locator("#left-out-count")).to_have_text("1")
    expect(boss.locator("#left-out")).to_have_text(CARELESS)
    expect(row.locator(".left-out")).to_have_text("left out")
    assert visible_prose_words(boss) <= PROSE_LIMIT
    _clean_at_both_widths(boss, f"{live.url}/organiser/datasets/{small}/study")
    _clean_at_both_widths(page, f"{live.url}/annotate/dataset/{small}/done")


def test_a_closed_study_says_so_with_the_return_under_the_public_title(
    live: Live, new_page: Callable[..., Page]
) -> None:
    small, _ = _import(live, SMALL_XML, "internal-name-9")
    boss = _boss(live, new_page, small)
    link = _open_study(boss, live, small, "DONE-9")
    boss.goto(f"{live.url}/organiser/datasets/{small}/study")
    boss.get_by_label("Public title", exact=False).fill("Words in context")
    boss.get_by_label("When the study is closed", exact=False).fill(
        "https://app.prolific.com/submissions/complete?cc=NOAVAIL"
    )
    boss.get_by_role("button", name="Save what participants see").click()
    boss.goto(f"{live.url}/organiser/datasets/{small}/members")
    boss.get_by_role("button", name="Close the study link").click()

    page = new_page()
    page.goto(f"{link}?PROLIFIC_PID={CARELESS}")
    expect(page.locator("#study-closed")).to_contain_text("This study is closed")
    expect(page.get_by_role("heading", level=1)).to_have_text("Words in context")
    expect(page.locator("#return-link")).to_have_attribute(
        "href", "https://app.prolific.com/submissions/complete?cc=NOAVAIL"
    )
    assert "internal-name-9" not in page.content()
    _clean_at_both_widths(page, f"{link}?PROLIFIC_PID={CARELESS}")
