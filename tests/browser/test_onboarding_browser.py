"""A crowd study's onboarding and quality checks in a real browser: the consent and a
comprehension check failed twice, ending in the screen-out code; an attention check passed
with an answer typed otherwise than the accepted one, seen by the organiser on the study's
own page with the participant's time per sentence."""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect

from tests.browser.conftest import Live
from tests.browser.test_crowd_browser import _answer, _import, _open_study
from tests.browser.test_study_browser import _log_in
from tests.conftest import SMALL_XML

QUESTIONS = """What do you type when no single word fits?
- a word that is close enough
* the phrase, in the phrase box

Which box is for a proper name?
* the Proper name tick
- the first substitute box"""


def _organiser(live: Live, new_page: Callable[..., Page], dataset_id: int) -> Page:
    """The organiser, on the study page, with the onboarding texts saved."""
    live.user("boss", "organiser")
    boss = new_page()
    _log_in(boss, live, "boss")
    boss.goto(f"{live.url}/organiser/datasets/{dataset_id}/members")
    boss.get_by_label("Screen-out code (empty: none)").fill("OUT-9")
    boss.get_by_role("button", name="Save the study rules").click()
    boss.get_by_role("link", name="study page").click()
    expect(boss).to_have_url(f"{live.url}/organiser/datasets/{dataset_id}/study")
    boss.get_by_label("Consent text (plain text; empty: none)").fill("I agree to take part.")
    boss.locator("#comprehension").fill(QUESTIONS)
    boss.get_by_role("button", name="Save the onboarding").click()
    expect(boss.get_by_text("Onboarding saved.")).to_be_visible()
    return boss


def test_a_comprehension_check_failed_twice_ends_in_the_screen_out_code(
    live: Live, new_page: Callable[..., Page]
) -> None:
    small, ids = _import(live, SMALL_XML, "crowd")
    boss = _organiser(live, new_page, small)
    link = _open_study(boss, live, small, "DONE-9", "other")

    page = new_page()
    page.goto(f"{link}?PROLIFIC_PID=hasty")
    expect(page).to_have_url(f"{live.url}/study/dataset/{small}/start")
    expect(page.locator("#consent")).to_have_text("I agree to take part.")
    for attempt in range(2):
        page.get_by_label("a word that is close enough").check()
        page.get_by_label("the Proper name tick").check()
        page.get_by_role("button", name="I agree: start").click()
        if attempt == 0:
            expect(page.locator("#comprehension-error")).to_contain_text("one more attempt")
    expect(page.locator("#screenout-code")).to_have_text("OUT-9")
    expect(page.get_by_role("radio")).to_have_count(0)
    # no sentence afterwards: by its address, or by the study link again
    page.goto(f"{live.url}/annotate/{ids[0]}")
    expect(page.locator("#screenout-code")).to_have_text("OUT-9")
    page.goto(f"{link}?PROLIFIC_PID=hasty")
    expect(page.locator("#screened-out")).to_be_visible()
    expect(page.locator("#completion-code")).to_have_count(0)
    boss.goto(f"{live.url}/organiser/datasets/{small}/study")
    expect(boss.locator("#participant-hasty")).to_contain_text("screened out")


def test_an_attention_check_matches_the_lemma_and_the_organiser_sees_the_score(
    live: Live, new_page: Callable[..., Page]
) -> None:
    small, ids = _import(live, SMALL_XML, "crowd")
    boss = _organiser(live, new_page, small)
    boss.get_by_label("Check items").fill("3\ttolerate; bear")
    boss.get_by_role("button", name="Save the check items").click()
    expect(boss.get_by_text("1 check items saved.")).to_be_visible()
    link = _open_study(boss, live, small, "DONE-9", "other")

    page = new_page()
    page.goto(f"{link}?participant=careful")
    page.get_by_label("the phrase, in the phrase box").check()
    page.get_by_label("the Proper name tick").check()
    page.get_by_role("button", name="I agree: start").click()
    expect(page).to_have_url(f"{live.url}/annotate/{ids[0]}")
    _answer(page, ("clever", "light", "Tolerates"))  # the check: 'tolerate', typed otherwise
    expect(page.locator("#completion-code")).to_have_text("DONE-9")

    boss.goto(f"{live.url}/organiser/datasets/{small}/study")
    row = boss.locator("#participant-careful")
    expect(row.locator(".check-score")).to_have_text("1 / 1")
    expect(row.locator(".median-time")).to_contain_text("(3 sentences)")
    expect(row).to_contain_text("3 / 3")
