"""The organiser side of a study in a real browser: finding an answer on its item page
and its revisions, compiling with --only-t on the page (the same bytes as the command),
and a leaderboard that keeps two uploaded systems, ranked, after a reload."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect
from sqlalchemy import select

from tests.browser.conftest import PASSWORD, Live

if TYPE_CHECKING:
    from annotate.models import Dataset

ANSWERS = {
    "ann": [("calm",), ("quiet", "still"), ("peaceful",)],
    "bob": [("calm", "quiet"), ("still",)],
}


def save_answers(live: Live) -> list[tuple[str, str]]:
    """The organiser "boss"; ann and bob, members of the demo dataset, answer its first
    sentences (ann three, bob two: the third is out of T); ann first saved "serene" for
    the first sentence, then changed it. Returns (lexelt, instance) of the sentences."""
    from annotate.answers import Answer
    from annotate.extensions import db
    from annotate.models import Dataset, Instance, User
    from annotate.services.responses import save_answer
    from annotate.services.study import assign

    live.user("boss", "organiser")
    for name in ANSWERS:
        live.user(name)
    with live.app.app_context():
        dataset = db.session.scalar(select(Dataset).where(Dataset.name == "demo"))
        assert dataset is not None
        instances = list(
            db.session.scalars(
                select(Instance)
                .where(Instance.dataset_id == dataset.id)
                .order_by(Instance.position)
                .limit(3)
            )
        )
        for name, given in ANSWERS.items():
            user = db.session.scalar(select(User).where(User.username == name))
            assert user is not None
            assign(user, dataset)
            if name == "ann":
                save_answer(user, instances[0].id, Answer("substitutes", ("serene",), None, False))
            for instance, substitutes in zip(instances, given, strict=False):
                save_answer(user, instance.id, Answer("substitutes", substitutes, None, False))
        return [(instance.lexelt.item, instance.xml_id) for instance in instances]


def db_dataset(live: Live, name: str) -> Dataset:
    """The dataset called ``name`` (inside the app's context)."""
    from annotate.extensions import db
    from annotate.models import Dataset

    found: Dataset | None = db.session.scalar(select(Dataset).where(Dataset.name == name))
    assert found is not None, name
    return found


def log_in(page: Page, live: Live, username: str) -> None:
    page.goto(f"{live.url}/login")
    page.get_by_label("Username", exact=True).fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def dashboard_link(page: Page, live: Live, name: str) -> None:
    """From the dashboard to the demo's home, then its page ``name`` in the dataset's
    navigation."""
    page.goto(f"{live.url}/organiser/")
    page.get_by_role("link", name="demo", exact=True).click()
    nav = page.get_by_role("navigation", name="Dataset demo")
    nav.get_by_role("link", name=name, exact=True).click()


def test_organiser_finds_an_answer_compiles_and_keeps_a_leaderboard(
    live: Live, page: Page, tmp_path: Path
) -> None:
    items = save_answers(live)
    (lexelt, first), (_, second), _third = items
    from annotate.services.pseudonyms import pseudonyms_of

    with live.app.app_context():  # the report pages name annotators by pseudonym
        ann = pseudonyms_of(db_dataset(live, "demo"))("ann")
    assert ann.startswith("A")
    log_in(page, live, "boss")

    # the answers page, filtered to an annotator, leads to the item and its revisions
    dashboard_link(page, live, "Answers")
    expect(page.get_by_role("heading", name="Answers: demo")).to_be_visible()
    page.get_by_role("link", name=ann, exact=True).first.click()
    expect(page.get_by_role("heading", name=f"Answers of {ann}: demo")).to_be_visible()
    page.get_by_role("link", name=f"{lexelt} {first}", exact=True).click()
    expect(page.get_by_role("heading", name=f"{lexelt} {first} · demo")).to_be_visible()
    row = page.locator("#answers tr").filter(has=page.get_by_role("link", name=ann, exact=True))
    expect(row).to_contain_text('"calm"')
    expect(row.get_by_role("cell").nth(5)).to_have_text("2")  # two saves
    page.get_by_role("link", name="Show every revision").click()
    revisions = page.locator("#revisions tr").filter(
        has=page.get_by_role("cell", name=ann, exact=True)
    )
    expect(revisions).to_have_count(2)
    expect(revisions.nth(0)).to_contain_text('"serene"')
    expect(revisions.nth(1)).to_contain_text('"calm"')

    # compile with --only-t on the page: the summary, then the command's bytes
    dashboard_link(page, live, "Gold")
    page.get_by_label("Only the items in T in gold (--only-t)").check()
    page.get_by_role("button", name="Compile").click()
    expect(page.locator("#command")).to_have_text(
        "lexsub compile --dataset demo --out DIR --only-t"
    )
    summary = page.locator("#summary")
    expect(
        summary.get_by_role("row", name="In T", exact=False).first.get_by_role("cell")
    ).to_have_text("2")
    expect(
        summary.get_by_role("row").filter(has_text="Out of T").get_by_role("cell")
    ).to_contain_text("1")
    result = live.app.test_cli_runner().invoke(
        args=["lexsub", "compile", "--dataset", "demo", "--out", str(tmp_path / "cli"), "--only-t"]
    )
    assert result.exit_code == 0, result.output
    with page.expect_download() as gold_file:
        page.get_by_role("link", name="gold", exact=True).click()
    assert gold_file.value.suggested_filename == "demo.gold"
    downloaded = Path(gold_file.value.path()).read_bytes()
    assert downloaded == (tmp_path / "cli" / "gold").read_bytes()
    assert len(downloaded.splitlines()) == 2  # only T
    with page.expect_download() as archive_file:
        page.get_by_role("link", name="Download gold (zip)").click()
    archive = zipfile.ZipFile(io.BytesIO(Path(archive_file.value.path()).read_bytes()))
    for name in archive.namelist():
        assert archive.read(name) == (tmp_path / "cli" / name).read_bytes(), name

    # two systems uploaded, ranked by best.R, still there after a reload
    good = tmp_path / "good.best"
    good.write_text(f"{lexelt} {first} :: calm\n{lexelt} {second} :: still\n", encoding="utf-8")
    weak = tmp_path / "weak.best"
    weak.write_text(f"{lexelt} {first} :: serene\n", encoding="utf-8")
    dashboard_link(page, live, "Scores")
    page.get_by_label("System files").set_input_files([weak, good])
    page.get_by_role("button", name="Score").click()
    expect(page.get_by_role("status").first).to_contain_text("stored and scored")
    page.reload()
    table = page.locator("#ranking")
    expect(table.locator("caption")).to_have_text("best files ranked by best.R")
    expect(table.locator("tr").nth(1)).to_contain_text("good.best")
    expect(table.locator("tr").nth(2)).to_contain_text("weak.best")
    expect(table.locator("tr").nth(2)).to_contain_text("1 / 2 (50.0%)")
    expect(page.locator("section.system", has_text="weak.best")).to_contain_text(
        "answers 1 of the 2 items in T"
    )
