"""A TSAR-format simplification study end to end in a real browser: the organiser imports
the file on the import page, an annotator gives a simpler word, the study compiles to
TSAR's gold layout, and a system is scored against it with TSAR's scorer."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect

from tests.browser.conftest import Live
from tests.browser.test_browser import log_in

TSAR = "An arduous climb began at dawn.\tarduous\thard\thard\tdifficult\n"


def test_a_tsar_study_from_import_to_score(
    live: Live, new_page: Callable[..., Page], tmp_path: Path
) -> None:
    live.user("org", "organiser")
    upload = tmp_path / "climb_en_test_gold.tsv"
    upload.write_text(TSAR, encoding="utf-8")
    org = new_page()
    log_in(org, live, "org")
    org.goto(f"{live.url}/organiser/datasets")
    org.get_by_label("XML file (the task's format)").set_input_files(upload)
    org.get_by_label("Format", exact=True).select_option("tsar")
    org.get_by_label("Dataset name").fill("climb")
    org.get_by_role("button", name="Import").click()
    status = org.get_by_role("status")
    expect(status).to_contain_text("Imported 1 sentences as climb; 0 repairs.")
    expect(status).to_contain_text("every word is filed as WORD.n")

    live.user("ann", datasets=("climb",))
    ann = new_page()
    log_in(ann, live, "ann")
    ann.goto(f"{live.url}/annotate")
    expect(ann.get_by_text("Give up to three simpler words or phrases")).to_be_visible()
    ann.get_by_label("Simpler word 1", exact=True).fill("hard")
    ann.get_by_role("button", name="Save and next").click()
    expect(ann.get_by_role("heading", name="climb: finished")).to_be_visible()

    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Dataset

    with live.app.app_context():
        dataset_id = db.session.scalar(select(Dataset.id).where(Dataset.name == "climb"))
    gold = org.request.get(f"{live.url}/organiser/datasets/{dataset_id}/gold?file=tsar_gold.tsv")
    assert gold.text() == "An arduous climb began at dawn.\tarduous\thard\n"

    system = tmp_path / "mine.tsv"
    system.write_text("An arduous climb began at dawn.\tarduous\tdifficult\thard\n", "utf-8")
    org.goto(f"{live.url}/organiser/datasets/{dataset_id}/scores")
    org.get_by_label("System file", exact=True).set_input_files(system)
    org.get_by_role("button", name="Score with TSAR-2022").click()
    figures = org.locator("#benchmark-figures")
    # the study's gold is 'hard' alone: the system's first is wrong, its second right
    expect(
        figures.get_by_role("row", name="MAP@1/Potential@1/Precision@1 0.000000")
    ).to_be_visible()
    expect(figures.get_by_role("row", name="Potential@3 1.000000")).to_be_visible()
    org.get_by_label("The imported file's gold").check()
    org.get_by_label("System file", exact=True).set_input_files(system)
    org.get_by_role("button", name="Score with TSAR-2022").click()
    # the file's gold has 'difficult' too: the first is right
    expect(
        figures.get_by_role("row", name="MAP@1/Potential@1/Precision@1 1.000000")
    ).to_be_visible()


RATED = (
    "en_1\tenglish\tAn arduous climb began at dawn.\tarduous\t0.5\n"
    "en_2\tenglish\tThe summit was reached by noon.\tsummit\t0.25\n"
)


def test_a_complexity_study_is_rated_with_the_keyboard(
    live: Live, new_page: Callable[..., Page], tmp_path: Path
) -> None:
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Response, User
    from annotate.services.datasets import import_dataset
    from scoring.formats.importers.read import parse_source

    with live.app.app_context():
        data = RATED.encode()
        import_dataset(parse_source(data, "rated.tsv", "tsar"), "rated", "rated.tsv", data)
    live.user("ann", datasets=("rated",))
    page = new_page()
    log_in(page, live, "ann")
    page.goto(f"{live.url}/annotate")
    group = page.get_by_role("group", name="How difficult is the bold word in this sentence?")
    expect(group).to_be_visible()
    expect(page.get_by_role("radio", name="1 · very easy")).to_be_focused()
    page.get_by_role("button", name="Save and next").click()  # nothing chosen: refused
    expect(page.get_by_role("alert")).to_contain_text("Choose how difficult the word is")
    page.get_by_role("radio", name="4 · difficult", exact=True).check()
    page.get_by_role("button", name="Save and next").click()
    # the next sentence arrives (saved by the page's script), its first rating focused
    expect(page.locator("#sentence")).to_contain_text("The summit was reached by noon.")
    expect(page.get_by_role("radio", name="1 · very easy")).to_be_focused()
    page.keyboard.press("ArrowRight")  # a radio group moves with the arrows
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="rated: finished")).to_be_visible()
    with live.app.app_context():
        saved = db.session.execute(
            select(Response.kind, Response.substitutes)
            .join(User, User.id == Response.user_id)
            .where(User.username == "ann")
            .order_by(Response.instance_id)
        ).all()
    assert [tuple(row) for row in saved] == [("rating", ["4"]), ("rating", ["2"])]
