"""Crowd studies in a real browser: two studies side by side with one participant id,
and an overlap batch released after its time to a participant who was waiting."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest

pytest.importorskip(
    "playwright.sync_api",
    reason="browser tests need the playwright package (pip install -r requirements-dev.txt)",
)

from playwright.sync_api import Page, expect
from sqlalchemy import select

from tests.browser.conftest import Live
from tests.browser.test_study_browser import _log_in
from tests.conftest import OTHER_XML, SMALL_XML

PID = "5f1e2d3c4b5a69788796a5b4"


def _import(live: Live, data: bytes, name: str) -> tuple[int, list[int]]:
    """Import ``data`` as ``name``: its id and its sentence ids in order."""
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Instance
    from annotate.services.datasets import import_dataset

    with live.app.app_context():
        dataset = import_dataset(
            parse_lexsub_xml(data, f"{name}.xml"), name, f"{name}.xml", data
        ).dataset
        ids = list(
            db.session.scalars(
                select(Instance.id)
                .where(Instance.dataset_id == dataset.id)
                .order_by(Instance.position)
            )
        )
        return dataset.id, ids


def _open_study(
    boss: Page, live: Live, dataset_id: int, code: str, platform: str = "prolific"
) -> str:
    """Open the dataset's study link on its members page (participants of ``platform``,
    whose id format the link checks); the link."""
    boss.goto(f"{live.url}/organiser/datasets/{dataset_id}/members")
    boss.get_by_label("Completion code").fill(code)
    boss.get_by_label("Participants come from").select_option(platform)
    boss.get_by_role("button", name="Open a study link").click()
    return boss.locator("#study-link").inner_text()


def _start(page: Page, dataset_id: int) -> None:
    """Press Start on the onboarding page the study link opened."""
    expect(page).to_have_url(re.compile(rf".*/study/dataset/{dataset_id}/start$"))
    page.get_by_role("button", name="Start").click()


def _answer(page: Page, words: tuple[str, ...]) -> None:
    for word in words:
        page.get_by_label("Substitute 1", exact=True).fill(word)
        page.get_by_role("button", name="Save and next").click()


def test_two_studies_side_by_side_with_one_participant_id(
    live: Live, new_page: Callable[..., Page]
) -> None:
    a, ids_a = _import(live, SMALL_XML, "study-a")
    b, ids_b = _import(live, OTHER_XML, "study-b")
    live.user("boss", "organiser")
    boss = new_page()
    _log_in(boss, live, "boss")
    link_a = _open_study(boss, live, a, "CODE-A")
    link_b = _open_study(boss, live, b, "CODE-B")
    expect(boss.locator("#prolific-url")).to_have_text(
        link_b + "?PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}"
        "&SESSION_ID={{%SESSION_ID%}}"
    )

    # the participant in study A, and someone with B's link and the same id
    one, other = new_page(), new_page()
    one.goto(f"{link_a}?PROLIFIC_PID={PID}&STUDY_ID=a&SESSION_ID=s1")
    _start(one, a)
    expect(one).to_have_url(f"{live.url}/annotate/{ids_a[0]}")
    expect(one.get_by_role("banner")).to_contain_text(f"p{a}-{PID}")
    _answer(one, ("clever",))
    other.goto(f"{link_b}?PROLIFIC_PID={PID}&STUDY_ID=b&SESSION_ID=s2")
    _start(other, b)
    expect(other).to_have_url(f"{live.url}/annotate/{ids_b[0]}")
    expect(other.get_by_role("banner")).to_contain_text(f"p{b}-{PID}")
    # nothing of A opens for B's account: not its sentences, not its finished page
    other.goto(f"{live.url}/annotate/{ids_a[1]}")
    expect(other).to_have_url(f"{live.url}/annotate/{ids_b[0]}")
    response = other.goto(f"{live.url}/annotate/dataset/{a}/done")
    assert response is not None and response.status == 404
    other.goto(f"{live.url}/")
    expect(other.get_by_role("row")).to_have_count(1)
    expect(other.get_by_role("row")).to_contain_text("Study")  # never the dataset's name
    expect(other.get_by_role("row")).not_to_contain_text("study-b")

    # each finishes their own study and gets its code only
    other.goto(f"{live.url}/annotate/dataset/{b}")
    _answer(other, ("light", "bear", "tolerate"))
    expect(other).to_have_url(f"{live.url}/annotate/dataset/{b}/done")
    expect(other.locator("#completion-code")).to_have_text("CODE-B")
    one.goto(f"{live.url}/annotate/{ids_a[1]}")
    expect(one.get_by_label("Substitute 1", exact=True)).to_have_value("")
    _answer(one, ("light", "bear"))
    expect(one).to_have_url(f"{live.url}/annotate/dataset/{a}/done")
    expect(one.locator("#completion-code")).to_have_text("CODE-A")

    # study A closes: its link opens nothing, even with the id that was in it, and says so
    boss.goto(f"{live.url}/organiser/datasets/{a}/members")
    boss.get_by_role("button", name="Close the study link").click()
    response = other.goto(f"{link_a}?PROLIFIC_PID={PID}")
    assert response is not None and response.status == 410
    expect(other.locator("#study-closed")).to_contain_text("This study is closed")


def test_a_batch_released_after_its_time_goes_to_the_next_participant(
    live: Live, new_page: Callable[..., Page]
) -> None:
    from annotate.extensions import db
    from annotate.models import Assignment, User

    small, ids = _import(live, SMALL_XML, "crowd")
    live.user("boss", "organiser")
    boss = new_page()
    _log_in(boss, live, "boss")
    boss.goto(f"{live.url}/organiser/datasets/{small}/members")
    boss.get_by_label("Design", exact=True).select_option("overlap")
    boss.get_by_label("Annotators per sentence (k)").fill("1")
    boss.get_by_label("Sentences per annotator (m)").fill("100")
    boss.get_by_role("button", name="Save design").click()
    expect(boss.locator("#design")).to_have_text("overlap")
    link = _open_study(boss, live, small, "DONE-7", "other")
    boss.get_by_label("Release an idle batch after (minutes; empty: never)").fill("30")
    boss.get_by_label("Screen-out code (empty: none)").fill("OUT-7")
    boss.get_by_role("button", name="Save the study rules").click()
    expect(boss.get_by_text("Study rules saved.")).to_be_visible()

    # the first takes the only batch and saves nothing; the second finds the study full
    idle, waiting = new_page(), new_page()
    idle.goto(f"{link}?PROLIFIC_PID=idle")
    _start(idle, small)
    expect(idle).to_have_url(f"{live.url}/annotate/{ids[0]}")
    waiting.goto(f"{link}?PROLIFIC_PID=waiting")
    expect(waiting.locator("#participant-error")).to_contain_text("has 1 annotators already")
    expect(waiting.locator("#screenout-code")).to_have_count(0)

    # 31 minutes on (set back in the database): the batch goes to the one who waited
    with live.app.app_context():
        for row in db.session.scalars(
            select(Assignment)
            .join(User, User.id == Assignment.user_id)
            .where(User.username == f"p{small}-idle")
        ):
            row.assigned_at -= timedelta(minutes=31)
        db.session.commit()
    waiting.goto(f"{link}?PROLIFIC_PID=waiting")
    _start(waiting, small)
    expect(waiting).to_have_url(f"{live.url}/annotate/{ids[0]}")
    _answer(waiting, ("clever", "light", "bear"))
    expect(waiting.locator("#completion-code")).to_have_text("DONE-7")

    # the idle one saves at last: the study is full, and they get the screen-out code
    idle.get_by_label("Substitute 1", exact=True).fill("late")
    idle.get_by_role("button", name="Save and next").click()
    expect(idle.locator("#screenout-code")).to_have_text("OUT-7")
    expect(idle.locator("#completion-code")).to_have_count(0)
