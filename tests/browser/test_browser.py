"""lexsub in a real browser: an annotator's word-by-word flow, validation, the organiser's
import / progress / export, and a phone-sized screen (fixtures in conftest.py here).

Controls are found by their visible labels, as a person (or a screen reader) finds them;
every scenario then checks the database the live server wrote.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Locator, Page, expect
from sqlalchemy import func, select

from annotate.importer import parse_lexsub_xml
from tests.browser.conftest import DEMO, PASSWORD, Live
from tests.conftest import SMALL_XML

DEMO_XML = parse_lexsub_xml(DEMO.read_bytes(), str(DEMO))
WORDS = len(DEMO_XML.lexelts)
TOTAL = sum(len(lexelt.instances) for lexelt in DEMO_XML.lexelts)
SENTENCES = {instance.id: instance for lexelt in DEMO_XML.lexelts for instance in lexelt.instances}
EXPORT_KEYS = {
    "annotator",
    "lexelt",
    "instance",
    "kind",
    "substitutes",
    "multiword",
    "used_dictionary",
    "updated_at",
}
PHONE = {"width": 390, "height": 844}


# --- helpers: what a person does and sees -------------------------------------------------


def log_in(page: Page, live: Live, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{live.url}/login")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    # an annotator lands on their first unanswered sentence, an organiser on the
    # dashboard (tests/browser/test_study_browser.py); these tests start at home
    page.goto(f"{live.url}/")


def substitute(page: Page, number: int) -> Locator:
    return page.get_by_label(f"Substitute {number}", exact=True)


def box(page: Page, label: str) -> Locator:
    return page.get_by_label(label, exact=True)


def save(page: Page) -> None:
    page.get_by_role("button", name="Save and next").click()


def progress(
    word: int, sentence: int, done: int, sentences: int = 5, words: int = WORDS, total: int = TOTAL
) -> str:
    return f"Word {word} of {words} · sentence {sentence} of {sentences} · {done} / {total} done"


def instance_ids(live: Live, dataset: str = "demo") -> dict[str, int]:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance

    with live.app.app_context():
        return dict(
            db.session.execute(
                select(Instance.xml_id, Instance.id)
                .join(Dataset, Instance.dataset_id == Dataset.id)
                .where(Dataset.name == dataset)
            ).all()
        )


def expect_at(page: Page, live: Live, ids: dict[str, int], xml_id: str, text: str) -> None:
    """On the page of demo sentence ``xml_id``: its URL, its sentence (target in bold) and
    the progress line ``text``."""
    expect(page).to_have_url(f"{live.url}/annotate/{ids[xml_id]}")
    sentence = SENTENCES[xml_id]
    shown = page.locator("#sentence")
    expect(shown).to_have_text(sentence.before + sentence.head + sentence.after)
    expect(shown.locator("b")).to_have_text(sentence.head)
    expect(page.get_by_text(text, exact=True)).to_be_visible()


def no_horizontal_scroll(page: Page) -> tuple[int, int]:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return int(scroll), int(inner)


# --- scenarios ------------------------------------------------------------------------------


def test_annotator_annotates_goes_back_resumes_and_uses_the_keyboard(
    live: Live, page: Page
) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance, Lexelt, Response, Revision
    from annotate.services.responses import dictionary_flags

    user_id = live.user("ann", datasets=("demo",))
    ids = instance_ids(live)
    log_in(page, live, "ann")
    row = page.get_by_role("row").filter(has_text="demo")
    expect(row).to_contain_text(f"0 / {TOTAL} done")
    row.get_by_role("link", name="Continue").click()

    # word 1 (spring.n): substitutes, proper name, nil, a multiword
    expect_at(page, live, ids, "d1", progress(1, 1, 0))
    expect(page.get_by_role("link", name="Previous")).to_have_count(0)
    substitute(page, 1).fill("season")
    substitute(page, 2).fill("springtime")
    box(page, "Used a dictionary or thesaurus for this word").check()
    save(page)

    expect_at(page, live, ids, "d2", progress(1, 2, 1))
    expect(box(page, "Used a dictionary or thesaurus for this word")).to_be_checked()
    expect(substitute(page, 1)).to_have_value("")
    box(page, "Proper name").check()
    save(page)

    expect_at(page, live, ids, "d3", progress(1, 3, 2))
    substitute(page, 1).fill("coil")
    save(page)

    expect_at(page, live, ids, "d4", progress(1, 4, 3))
    box(page, "No substitute (nil)").check()
    save(page)

    expect_at(page, live, ids, "d5", progress(1, 5, 4))
    substitute(page, 1).fill("coil")
    box(page, "Part of a multiword").check()
    box(page, "Multiword").fill("main spring")
    save(page)

    # word 2 starts; the dictionary flag belongs to word 1 only
    expect_at(page, live, ids, "d6", progress(2, 1, 5))
    expect(box(page, "Used a dictionary or thesaurus for this word")).not_to_be_checked()

    # back to the last sentence of word 1: the saved answer is shown; change it
    page.get_by_role("link", name="Previous").click()
    expect_at(page, live, ids, "d5", progress(1, 5, 5))
    expect(substitute(page, 1)).to_have_value("coil")
    expect(substitute(page, 2)).to_have_value("")
    expect(box(page, "Part of a multiword")).to_be_checked()
    expect(box(page, "Multiword")).to_have_value("main spring")
    expect(box(page, "Proper name")).not_to_be_checked()
    expect(box(page, "No substitute (nil)")).not_to_be_checked()
    expect(box(page, "Used a dictionary or thesaurus for this word")).to_be_checked()
    substitute(page, 1).fill("mainspring")
    substitute(page, 2).fill("coil")
    save(page)
    expect_at(page, live, ids, "d6", progress(2, 1, 5))
    page.get_by_role("link", name="Previous").click()
    expect_at(page, live, ids, "d5", progress(1, 5, 5))
    expect(substitute(page, 1)).to_have_value("mainspring")
    expect(substitute(page, 2)).to_have_value("coil")
    expect(box(page, "Multiword")).to_have_value("main spring")
    expect(
        page.get_by_role("navigation", name="Sentences of this word").get_by_role("link")
    ).to_have_text([f"{n}✓ (answered)" for n in range(1, 6)])  # ✓ and, in text, answered
    # earlier answers of the word are shown too
    page.get_by_role("navigation", name="Sentences of this word").get_by_role(
        "link", name="2 (answered)"
    ).click()
    expect_at(page, live, ids, "d2", progress(1, 2, 5))
    expect(box(page, "Proper name")).to_be_checked()
    page.get_by_role("navigation", name="Sentences of this word").get_by_role(
        "link", name="4 (answered)"
    ).click()
    expect(box(page, "No substitute (nil)")).to_be_checked()

    # log out, log in again: resume at the first unanswered sentence
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("status")).to_have_text("You are logged out.")
    expect(page).to_have_url(f"{live.url}/login")
    page.goto(f"{live.url}/annotate/{ids['d1']}")
    expect(page).to_have_url(re.compile(r"/login\?next="))  # no longer logged in
    log_in(page, live, "ann")
    row = page.get_by_role("row").filter(has_text="demo")
    expect(row).to_contain_text(f"5 / {TOTAL} done")
    row.get_by_role("link", name="Continue").click()
    expect_at(page, live, ids, "d6", progress(2, 1, 5))
    page.goto(f"{live.url}/annotate")
    expect_at(page, live, ids, "d6", progress(2, 1, 5))

    # word 2 (catch.v) by keyboard alone: Substitute 1 has the focus, Enter saves
    typed = {"d6": "grabbed", "d7": "make", "d8": "hear", "d9": "got", "d10": "nabbed"}
    for sentence, (xml_id, word) in enumerate(typed.items(), 1):
        expect_at(page, live, ids, xml_id, progress(2, sentence, 4 + sentence))
        expect(substitute(page, 1)).to_be_focused()
        page.keyboard.type(word)
        page.keyboard.press("Enter")
    expect_at(page, live, ids, "d11", progress(3, 1, 10))

    with live.app.app_context():
        current = {
            xml_id: (kind, substitutes, multiword, saves)
            for xml_id, kind, substitutes, multiword, saves in db.session.execute(
                select(
                    Instance.xml_id,
                    Response.kind,
                    Response.substitutes,
                    Response.multiword,
                    Response.saves,
                )
                .join(Instance, Response.instance_id == Instance.id)
                .where(Response.user_id == user_id)
            )
        }
        history = [
            tuple(row)
            for row in db.session.execute(
                select(
                    Instance.xml_id,
                    Revision.kind,
                    Revision.substitutes,
                    Revision.multiword,
                    Revision.used_dictionary,
                )
                .join(Instance, Revision.instance_id == Instance.id)
                .where(Revision.user_id == user_id)
                .order_by(Revision.id)
            )
        ]
        demo = db.session.execute(select(Dataset).where(Dataset.name == "demo")).scalar_one()
        items = dict(db.session.execute(select(Lexelt.id, Lexelt.item)).all())
        flags = {
            items[lexelt]: used
            for (_, lexelt), used in dictionary_flags(demo.id, user_id=user_id).items()
        }
    assert current == {
        "d1": ("substitutes", ["season", "springtime"], None, 1),
        "d2": ("name", [], None, 1),
        "d3": ("substitutes", ["coil"], None, 1),
        "d4": ("nil", [], None, 1),
        "d5": ("substitutes", ["mainspring", "coil"], "main spring", 2),
        **{xml_id: ("substitutes", [word], None, 1) for xml_id, word in typed.items()},
    }
    assert history == [
        ("d1", "substitutes", ["season", "springtime"], None, True),
        ("d2", "name", [], None, True),
        ("d3", "substitutes", ["coil"], None, True),
        ("d4", "nil", [], None, True),
        ("d5", "substitutes", ["coil"], "main spring", True),
        ("d5", "substitutes", ["mainspring", "coil"], "main spring", True),
        *[(xml_id, "substitutes", [word], None, False) for xml_id, word in typed.items()],
    ]
    assert flags == {"spring.n": True, "catch.v": False}


def test_validation_error_keeps_the_typed_input(live: Live, page: Page) -> None:
    from annotate.extensions import db
    from annotate.models import Response, Revision

    user_id = live.user("val", datasets=("demo",))
    ids = instance_ids(live)
    log_in(page, live, "val")
    page.goto(f"{live.url}/annotate")
    expect_at(page, live, ids, "d1", progress(1, 1, 0))

    substitute(page, 1).fill("season")
    box(page, "Part of a multiword").check()
    save(page)
    alert = page.get_by_role("alert")
    expect(alert).to_have_text("You ticked 'Part of a multiword': type the multiword.")
    expect_at(page, live, ids, "d1", progress(1, 1, 0))
    expect(substitute(page, 1)).to_have_value("season")
    expect(box(page, "Part of a multiword")).to_be_checked()

    # two problems at once: both are listed, everything typed stays
    box(page, "Part of a multiword").uncheck()
    box(page, "Multiword").fill("spring days")
    box(page, "Proper name").check()
    save(page)
    expect(alert.get_by_role("listitem")).to_have_text(
        [
            "Give substitutes, or tick 'Proper name' or 'No substitute (nil)', not both.",
            "Tick 'Part of a multiword' for the multiword you typed, or clear it.",
        ]
    )
    expect(substitute(page, 1)).to_have_value("season")
    expect(box(page, "Multiword")).to_have_value("spring days")
    expect(box(page, "Proper name")).to_be_checked()
    expect(box(page, "Part of a multiword")).not_to_be_checked()
    with live.app.app_context():
        assert db.session.scalar(select(Response).where(Response.user_id == user_id)) is None

    box(page, "Proper name").uncheck()
    box(page, "Part of a multiword").check()
    save(page)
    expect_at(page, live, ids, "d2", progress(1, 2, 1))
    expect(page.get_by_role("alert")).to_have_count(0)

    # CSRF is on: the same logged-in browser posting without the form's token is refused
    refused = page.request.post(f"{live.url}/annotate/{ids['d2']}", form={"sub1": "well"})
    assert refused.status == 400
    with live.app.app_context():
        saved = list(
            db.session.execute(
                select(Response.kind, Response.substitutes, Response.multiword).where(
                    Response.user_id == user_id
                )
            )
        )
        revisions = db.session.scalars(select(Revision.id).where(Revision.user_id == user_id)).all()
    assert [tuple(row) for row in saved] == [("substitutes", ["season"], "spring days")]
    assert len(revisions) == 1


def test_save_and_next_swaps_in_the_next_sentence_and_works_without_javascript(
    live: Live, page: Page, new_page: Callable[..., Page]
) -> None:
    """The page saves with fetch and swaps in the next sentence: no page load, the next
    sentence's address, title and progress, the focus in Substitute 1, "Saved." and the
    new sentence said in the live region, the shortcuts and Back working, nothing for axe
    to find; with JavaScript off the form saves as a plain POST and a redirect."""
    from annotate.extensions import db
    from annotate.models import Instance, Response, Revision, User
    from tests.browser.test_a11y import axe_violations

    live.user("fet", datasets=("demo",))
    live.user("nojs", datasets=("demo",))
    ids = instance_ids(live)
    log_in(page, live, "fet")
    page.goto(f"{live.url}/annotate/{ids['d1']}")
    page.evaluate("window.loadedOnce = true")  # gone if the page is loaded again
    substitute(page, 1).fill("season")
    box(page, "Used a dictionary or thesaurus for this word").check()
    save(page)

    expect_at(page, live, ids, "d2", progress(1, 2, 1))
    assert page.evaluate("window.loadedOnce") is True  # swapped, not loaded
    expect(page).to_have_title("Sentence 2 of word 1 · demo · lexsub")
    expect(substitute(page, 1)).to_be_focused()
    expect(substitute(page, 1)).to_have_value("")
    status = page.get_by_role("status").filter(has_text="Saved.")
    expect(status).to_have_text(f"Saved. Sentence 2 of word 1: {SENTENCES['d2'].head}")
    expect(box(page, "Used a dictionary or thesaurus for this word")).to_be_checked()
    expect(page.get_by_role("link", name="Previous")).to_have_attribute(
        "href", f"/annotate/{ids['d1']}"
    )
    assert axe_violations(page) == []

    page.keyboard.press("Alt+P")  # the shortcut works on the swapped form
    expect(box(page, "Proper name")).to_be_checked()
    page.keyboard.press("Enter")
    expect_at(page, live, ids, "d3", progress(1, 3, 2))
    assert page.evaluate("window.loadedOnce") is True
    expect(status).to_have_text(f"Saved. Sentence 3 of word 1: {SENTENCES['d3'].head}")

    page.go_back()  # the address of the sentence before, loaded as a page
    expect_at(page, live, ids, "d2", progress(1, 2, 2))
    expect(box(page, "Proper name")).to_be_checked()

    # JavaScript off: the same form, a POST and a redirect to the next sentence's page
    plain = new_page(java_script_enabled=False)
    log_in(plain, live, "nojs")
    plain.goto(f"{live.url}/annotate/{ids['d1']}")
    substitute(plain, 1).fill("springtime")
    save(plain)
    expect_at(plain, live, ids, "d2", progress(1, 2, 1))
    expect(plain.get_by_role("status").filter(has_text="Saved.")).to_have_text("Saved.")

    with live.app.app_context():
        stored = {
            (name, xml_id, kind, tuple(substitutes), used, saves)
            for name, xml_id, kind, substitutes, used, saves in db.session.execute(
                select(
                    User.username,
                    Instance.xml_id,
                    Response.kind,
                    Response.substitutes,
                    Response.used_dictionary,
                    Response.saves,
                )
                .join(User, Response.user_id == User.id)
                .join(Instance, Response.instance_id == Instance.id)
            )
        }
        revisions = db.session.scalar(select(func.count(Revision.id)))
    assert stored == {
        ("fet", "d1", "substitutes", ("season",), True, 1),
        ("fet", "d2", "name", (), True, 1),  # the tick held for the word
        ("nojs", "d1", "substitutes", ("springtime",), False, 1),
    }
    assert revisions == 3


def test_organiser_imports_watches_progress_and_exports(
    live: Live, new_page: Callable[..., Page], tmp_path: Path
) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset

    live.user("org", "organiser")
    live.user("ann", datasets=("demo",))
    upload = tmp_path / "small.xml"
    upload.write_bytes(SMALL_XML)

    org = new_page()
    log_in(org, live, "org")
    org.get_by_role("link", name="Organiser").click()
    expect(org.get_by_role("heading", name="Organiser")).to_be_visible()
    org.get_by_role("link", name="Datasets and import").click()
    org.get_by_label("XML file (the task's format)").set_input_files(upload)
    org.get_by_label("Dataset name").fill("small")
    org.get_by_role("button", name="Import").click()
    expect(org.get_by_role("status")).to_have_text("Imported 3 sentences as small; 0 repairs.")
    expect(org.get_by_role("listitem").filter(has_text="small (small.xml)")).to_be_visible()

    # the organiser makes ann a member of small on its members page
    with live.app.app_context():
        small = db.session.execute(select(Dataset).where(Dataset.name == "small")).scalar_one()
    org.goto(f"{live.url}/organiser/datasets/{small.id}/members")
    org.get_by_label("ann", exact=True).check()
    org.get_by_role("button", name="Save members").click()
    expect(org.get_by_role("status")).to_have_text("1 annotators assigned, 0 removed.")

    # an annotator, in another browser context, answers two of the three sentences
    ann = new_page()
    log_in(ann, live, "ann")
    row = ann.get_by_role("row").filter(has_text="small")
    expect(row).to_contain_text("0 / 3 done")
    row.get_by_role("link", name="Continue").click()
    expect(ann.locator("#sentence")).to_have_text("The bright pupil & her friend.")
    substitute(ann, 1).fill("clever")
    save(ann)
    expect(ann.locator("#sentence")).to_have_text("A bright light <here>.")
    box(ann, "No substitute (nil)").check()
    box(ann, "Used a dictionary or thesaurus for this word").check()
    save(ann)
    expect(
        ann.get_by_text(progress(2, 1, 2, sentences=1, words=2, total=3), exact=True)
    ).to_be_visible()

    # the organiser sees the progress per annotator and per word
    org.get_by_role("link", name="Organiser").click()
    org.get_by_role("link", name="demo", exact=True).click()
    demo = org.locator("#people")
    expect(demo.get_by_role("row").filter(has_text="ann").get_by_role("cell")).to_contain_text(
        ["ann", f"0 / {TOTAL}", "0%", "never"]
    )
    org.get_by_role("link", name="Organiser").click()
    org.get_by_role("link", name="small", exact=True).click()
    table = org.locator("#people")
    expect(table.get_by_role("row").filter(has_text="ann").get_by_role("cell")).to_contain_text(
        ["ann", "2 / 3", "67%"]
    )
    org.get_by_role("link", name="Progress per word").click()
    expect(org.get_by_role("heading", name="Progress: small")).to_be_visible()
    for item, cells in (
        ("bright.a", ["bright.a", "2", "2"]),
        ("stand.n.v", ["stand.n.v", "1", "0"]),
    ):
        expect(org.get_by_role("row").filter(has_text=item).get_by_role("cell")).to_have_text(cells)
    org.go_back()

    with org.expect_download() as info:
        org.get_by_role("link", name="Export responses (JSON Lines)").click()
    download = info.value
    assert download.suggested_filename == "small.responses.jsonl"
    text = Path(download.path()).read_text(encoding="utf-8")
    assert text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]
    assert all(set(record) == EXPORT_KEYS for record in records)
    for record in records:
        assert datetime.fromisoformat(record.pop("updated_at"))
    assert records == [
        {
            "annotator": "ann",
            "lexelt": "bright.a",
            "instance": "1",
            "kind": "substitutes",
            "substitutes": ["clever"],
            "multiword": None,
            "used_dictionary": True,
        },
        {
            "annotator": "ann",
            "lexelt": "bright.a",
            "instance": "2",
            "kind": "nil",
            "substitutes": [],
            "multiword": None,
            "used_dictionary": True,
        },
    ]


def test_phone_screen_shows_sentence_and_button_without_sideways_scrolling(
    live: Live, new_page: Callable[..., Page]
) -> None:
    live.user("phone", datasets=("demo",))
    ids = instance_ids(live)
    page = new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    log_in(page, live, "phone")
    width, inner = no_horizontal_scroll(page)
    assert inner == PHONE["width"] and width <= PHONE["width"], "home page scrolls sideways"

    # the longest sentence of the first words, with every control
    page.goto(f"{live.url}/annotate/{ids['d10']}")
    expect_at(page, live, ids, "d10", progress(2, 5, 0))
    button = page.get_by_role("button", name="Save and next")
    expect(page.locator("#sentence")).to_be_visible()
    expect(button).to_be_visible()
    width, inner = no_horizontal_scroll(page)
    assert inner == PHONE["width"] and width <= PHONE["width"], (
        f"annotation page is {width}px wide on a {inner}px screen"
    )
    for control in (
        page.locator("#sentence"),
        button,
        substitute(page, 1),
        box(page, "Multiword"),
        box(page, "Used a dictionary or thesaurus for this word"),
    ):
        where = control.bounding_box()
        assert where is not None
        assert where["x"] >= 0 and where["x"] + where["width"] <= PHONE["width"], where
    where = button.bounding_box()
    assert where is not None and where["y"] + where["height"] <= PHONE["height"], (
        f"Save and next is below the first screen: {where}"
    )
    page.screenshot(path="/tmp/lexsub-phone.png", full_page=True)

    # an error message does not widen the page either
    substitute(page, 1).fill("nabbed")
    substitute(page, 2).fill("Nabbed")
    save(page)
    expect(page.get_by_role("alert")).to_contain_text("'Nabbed' is given twice.")
    width, _ = no_horizontal_scroll(page)
    assert width <= PHONE["width"], f"page with an error is {width}px wide"


def save_demo_answers(live: Live, answers: dict[str, list[tuple[str, ...]]]) -> list[str]:
    """The organiser "boss" and each annotator of ``answers``, whose substitutes are saved
    (through the service, not the browser) for the demo's first sentences in order;
    returns those sentences' item ids (``lexelt instance``)."""
    from annotate.answers import Answer
    from annotate.extensions import db
    from annotate.models import Dataset, Instance, User
    from annotate.services.responses import save_answer

    live.user("boss", "organiser")
    for name in answers:
        live.user(name, datasets=("demo",))
    size = max(len(given) for given in answers.values())
    with live.app.app_context():
        dataset = db.session.scalar(select(Dataset).where(Dataset.name == "demo"))
        assert dataset is not None
        instances = list(
            db.session.scalars(
                select(Instance)
                .where(Instance.dataset_id == dataset.id)
                .order_by(Instance.position)
                .limit(size)
            )
        )
        for name, given in answers.items():
            user = db.session.scalar(select(User).where(User.username == name))
            assert user is not None
            for instance, substitutes in zip(instances, given, strict=False):
                save_answer(user, instance.id, Answer("substitutes", substitutes, None, False))
        return [f"{instance.lexelt.item} {instance.xml_id}" for instance in instances]


def test_organiser_reviews_a_lemma_in_the_browser(live: Live, page: Page) -> None:
    """The lemma review works in a browser; the decision wins in the download."""
    import io
    import zipfile

    save_demo_answers(live, {"ann": [("seasons",)], "bob": [("seasons",)]})
    log_in(page, live, "boss")
    page.goto(f"{live.url}/organiser/")
    page.get_by_role("link", name="demo", exact=True).click()
    page.get_by_role("navigation", name="Dataset demo").get_by_role("link", name="Lemmas").click()
    row = page.locator("tr", has_text="seasons").first  # the changes, then every form
    expect(row).to_contain_text("season")
    expect(row).to_contain_text("undecided")
    row.get_by_label("Decision on seasons").select_option("reject")
    row.get_by_role("button", name="Decide").click()
    expect(page.get_by_role("status")).to_contain_text("Decision on 'seasons' stored.")
    expect(page.locator("tr", has_text="seasons").first).to_contain_text("reject → seasons")
    page.get_by_role("navigation", name="Dataset demo").get_by_role("link", name="Gold").click()
    with page.expect_download() as info:
        page.get_by_role("link", name="Download gold (zip)").first.click()
    archive = zipfile.ZipFile(io.BytesIO(Path(info.value.path()).read_bytes()))
    first_line = archive.read("gold").decode().splitlines()[0]
    assert first_line.endswith(":: seasons 2;"), first_line


def test_organiser_reads_agreement_and_scores_a_system(
    live: Live, page: Page, tmp_path: Path
) -> None:
    """The agreement page with its charts and the scores page with an
    uploaded system, reached from the organiser's dashboard."""
    first, _second = save_demo_answers(
        live, {"ann": [("calm",), ("quiet", "still")], "bob": [("calm", "quiet"), ("still",)]}
    )
    system = f"{first} :: calm\n"
    log_in(page, live, "boss")
    page.goto(f"{live.url}/organiser/")
    page.get_by_role("link", name="demo", exact=True).click()
    nav = page.get_by_role("navigation", name="Dataset demo")
    nav.get_by_role("link", name="Agreement").click()
    expect(page.get_by_role("heading", name="Agreement: demo")).to_be_visible()
    # PA: (1/2 + 1/2) / 2 = 50.00 over the two items of T
    expect(page.locator("tr", has_text="all").first).to_contain_text("50.00")
    expect(page.locator("svg.chart").first).to_be_visible()
    nav.get_by_role("link", name="Scores").click()
    upload = tmp_path / "mine.best"
    upload.write_text(system, encoding="utf-8")
    page.get_by_label("System files").set_input_files(upload)
    page.get_by_role("button", name="Score").click()
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    expect(page.get_by_role("heading", name="mine.best")).to_be_visible()
    expect(page.locator("tr", has_text="best_1.R")).to_contain_text("50.00")
