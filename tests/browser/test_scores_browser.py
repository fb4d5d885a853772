"""The scores page and the lemma review in a real browser, at 1280 px and 375 px: the
ranking first and the rest collapsed (six stored systems fit in 2,400 px at 1280 px), at
most 120 words of visible prose, signatures copied by a button, an upload of a stored
system's bytes that stores nothing, Delete that asks first; the lemma review's "Accept all
proposed" and its irregular forms. axe-core finds no WCAG violation on any of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect

from tests.browser.conftest import Live
from tests.browser.prose import PROSE_LIMIT, visible_prose, visible_prose_words
from tests.browser.test_a11y import PHONE, WIDE, axe_violations, page_width

SYSTEMS = {
    "alpha.best": "spring.n d1 :: season\nspring.n d2 :: well\ncatch.v d6 :: grab\n",
    "beta.best": "spring.n d1 :: summer\nspring.n d2 :: source\ncatch.v d6 :: seize\n",
    "gamma.best": "spring.n d1 :: season\n",
    "delta.oot": "spring.n d1 ::: season;summer\nspring.n d2 ::: well;source\n",
    "epsilon.oot": "spring.n d2 ::: origin\ncatch.v d6 ::: grab;seize\n",
    "zeta.ranked": "spring.n d1 :::: 0.9 season;0.2 summer\nspring.n d2 :::: 0.5 well\n",
}
"""Six system files we wrote for the demo's answers below."""


def _answers(live: Live) -> None:
    """ann, bob and cat answer the demo's d1, d2, d6 and d21 (cat gives "fell" and bob
    "fall" for settle.v; "caught" is a form the lemmatiser changes)."""
    from sqlalchemy import select

    from annotate.answers import Answer
    from annotate.extensions import db
    from annotate.models import Instance, User
    from annotate.services.responses import save_answer

    given: dict[str, dict[str, tuple[str, ...]]] = {
        "ann": {"d1": ("season",), "d2": ("well", "source"), "d6": ("grab",), "d21": ("sink",)},
        "bob": {"d1": ("season", "summer"), "d2": ("source",), "d6": ("caught",), "d21": ("fall",)},
        "cat": {"d1": ("springtime",), "d2": ("well",), "d6": ("grab",), "d21": ("fell",)},
    }
    for name in given:
        live.user(name, datasets=("demo",))
    with live.app.app_context():
        ids = {row.xml_id: row.id for row in db.session.scalars(select(Instance))}
        for name, answers in given.items():
            user = db.session.scalars(select(User).where(User.username == name)).one()
            for xml_id, substitutes in answers.items():
                save_answer(user, ids[xml_id], Answer("substitutes", substitutes, None, False))


def _store_systems(live: Live) -> int:
    """The six systems stored as the page stores them; the demo dataset's id."""
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.goldfiles import compile_dataset
    from annotate.services.systems import store_system

    with live.app.app_context():
        demo = db.session.scalars(select(Dataset).where(Dataset.name == "demo")).one()
        compiled = compile_dataset(demo)
        for name, text in SYSTEMS.items():
            store_system(demo, name, text.encode(), "compat", "boss", compiled)
        return demo.id


def _system_count(live: Live) -> int:
    from annotate.extensions import db
    from annotate.models import SystemRun

    with live.app.app_context():
        return db.session.query(SystemRun).count()


def _log_in(page: Page, live: Live) -> None:
    page.goto(live.url + "/login")
    page.get_by_label("Username", exact=True).fill("boss")
    page.get_by_label("Password", exact=True).fill("password1")
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


@pytest.fixture
def organiser(live: Live, new_page: Callable[..., Page]) -> Callable[[dict[str, int]], Page]:
    live.user("boss", "organiser")
    _answers(live)

    def open_page(viewport: dict[str, int], **options: Any) -> Page:
        page = new_page(viewport=viewport, **options)
        _log_in(page, live)
        return page

    return open_page


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "375px"])
def test_six_systems_the_ranking_first_and_the_rest_collapsed(
    live: Live,
    organiser: Callable[..., Page],
    viewport: dict[str, int],
    tmp_path: Any,
) -> None:
    demo = _store_systems(live)
    page = organiser(viewport, permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{live.url}/organiser/datasets/{demo}/scores")
    rows = page.locator("#ranking tr")
    expect(rows).to_have_count(7)  # the header and six systems
    expect(rows.nth(1)).to_contain_text("alpha.best")
    assert page.locator("details[open]").count() == 0
    height = page.evaluate("document.documentElement.scrollHeight")
    words = visible_prose_words(page)
    print(f"scores page at {viewport['width']} px: {height} px tall, {words} words of prose")
    assert words <= PROSE_LIMIT, visible_prose(page)
    if viewport is WIDE:
        assert height <= 2400, height
    width, inner = page_width(page)
    assert width <= inner, (width, inner)
    assert axe_violations(page) == []
    # the explanation: one visible sentence, the rest under "How this works"
    how = page.locator("details.how")
    expect(how.locator("summary")).to_have_text("How this works")
    # the gold's signature copied by its button
    signature = page.locator("#copy-current").get_attribute("data-copy")
    assert signature is not None and signature.startswith("lexsub-compile:1|")
    page.get_by_role("button", name="Copy its signature").click()
    expect(page.locator("#copy-status-copy-current")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == signature
    # the same bytes as a stored system: said so, nothing stored
    again = tmp_path / "again.best"
    again.write_text(SYSTEMS["beta.best"], encoding="utf-8")
    page.get_by_label("System files").set_input_files(again)
    page.get_by_role("button", name="Score", exact=True).click()
    expect(page.get_by_role("status").first).to_contain_text(
        "Not stored: again.best has the same bytes as beta.best"
    )
    assert _system_count(live) == 6
    # Delete asks first, on a page of its own
    page.get_by_role("button", name="Delete gamma.best").click()
    expect(page.get_by_role("heading", name="Delete gamma.best?")).to_be_visible()
    assert _system_count(live) == 6
    assert axe_violations(page) == []
    page.get_by_role("button", name="Delete gamma.best").click()
    expect(page.get_by_role("status").first).to_have_text("gamma.best deleted.")
    assert _system_count(live) == 5


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["1280px", "375px"])
def test_the_lemma_review_accepts_all_proposed_and_proposes_irregular_forms(
    live: Live, organiser: Callable[..., Page], viewport: dict[str, int]
) -> None:
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Dataset

    with live.app.app_context():
        demo = db.session.scalars(select(Dataset).where(Dataset.name == "demo")).one().id
    page = organiser(viewport)
    page.goto(f"{live.url}/organiser/datasets/{demo}/lemmas")
    irregular = page.locator("#irregular-table tr")
    expect(irregular).to_have_count(2)
    expect(irregular.nth(1)).to_contain_text("fell")
    expect(irregular.nth(1).locator("td").nth(2)).to_have_text("fall")
    assert visible_prose_words(page) <= PROSE_LIMIT, visible_prose(page)
    expect(page.locator("details.how summary")).to_have_text("How this works")
    assert axe_violations(page) == []
    width, inner = page_width(page)
    assert width <= inner, (width, inner)
    page.get_by_role("button", name="Accept all proposed").click()
    expect(page.get_by_role("status").first).to_have_text(
        "2 proposals accepted: caught → catch, fell → fall [settle.v]. Each is listed "
        "below: decide again to undo one."
    )
    expect(page.locator("#irregular-table")).to_have_count(0)
    assert axe_violations(page) == []
    # a correction of a form no answer holds is refused, naming it
    page.get_by_label("Form", exact=True).fill("fellen")
    page.get_by_label("Correct to").fill("fall")
    page.get_by_role("button", name="Add correction").click()
    expect(page.get_by_role("alert")).to_contain_text("no answer contains the form 'fellen'")
