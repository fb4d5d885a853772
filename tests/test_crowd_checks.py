"""The attention checks that decide a participant's pay, through the real app: the
decision taken at finishing stands (editing a check answer afterwards changes the score
shown, never the code), every overlap batch includes the check sentences, a flagged
participant can be left out from the study page, a closed link says so with the
platform's return, and participants see the public title, never the dataset's name."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.extensions import db
from annotate.models import Assignment, Dataset, Instance, User
from annotate.services.exclusions import exclusions_of
from annotate.services.study import close_study, open_study, set_design
from tests.conftest import WORDS_XML, instance_ids, join, login, make_user, save

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

CAREFUL = "60a1b2c3d4e5f6a7b8c9d0e1"
CARELESS = "60a1b2c3d4e5f6a7b8c9d0e2"


@pytest.fixture
def boss(app: Flask) -> FlaskClient:
    make_user(app, "boss", "organiser")
    client = app.test_client()
    login(client, "boss")
    return client


def _study(app: Flask, dataset: int, **fields: object) -> str:
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        for key, value in fields.items():
            setattr(small, key, value)
        small.screenout_code = "SCREEN-7"
        return open_study(small, "DONE-7", "prolific")


def _blocking(boss: FlaskClient, dataset: int, checks: str = "1 clever\n") -> None:
    url = f"/organiser/datasets/{dataset}/study"
    assert boss.post(url, data={"action": "checks", "checks": checks}).status_code == 302
    boss.post(url, data={"action": "quality", "check_threshold": "100", "check_action": "block"})


def _done(client: FlaskClient, dataset: int) -> str:
    return client.get(f"/annotate/dataset/{dataset}/done").get_data(as_text=True)


def _row(page: str, participant_id: str) -> str:
    start = page.index(f'<tr id="participant-{participant_id}">')
    return page[start : page.index("</tr>", start)]


def test_a_blocked_finish_stands_when_the_check_answer_is_edited_afterwards(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    _blocking(boss, dataset)
    one, two, three = instance_ids(app)
    client = app.test_client()
    assert join(client, f"/study/{token}?PROLIFIC_PID={CARELESS}") == 302
    for instance_id, sub in ((one, "dim"), (two, "light"), (three, "bear")):
        assert save(client, instance_id, {"sub1": sub}) == 302
    # the last save decided, before the finished page was ever asked for
    with app.app_context():
        user = db.session.scalar(select(User).where(User.participant_id == CARELESS))
        assert user is not None
        assert (user.finish_decision, user.finish_matched, user.finish_answered) == (
            "blocked",
            0,
            1,
        )
    page = _done(client, dataset)
    assert 'id="screenout-code">SCREEN-7<' in page and "DONE-7" not in page
    # the check answer edited into the accepted one: the code does not change
    assert save(client, one, {"sub1": "clever"}) == 302
    page = _done(client, dataset)
    assert "DONE-7" not in page and 'id="checks-failed"' in page
    # the study page records both: the decision then and the score now
    row = _row(boss.get(f"/organiser/datasets/{dataset}/study").get_data(as_text=True), CARELESS)
    assert '<td class="check-score">1 / 1</td>' in row
    assert "blocked</strong> (0 / 1 then)" in row and "checks edited since" in row
    assert "Leave out" in row


def test_a_completed_finish_stands_too_and_shows_no_flag(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    _blocking(boss, dataset)
    one, two, three = instance_ids(app)
    client = app.test_client()
    assert join(client, f"/study/{token}?PROLIFIC_PID={CAREFUL}") == 302
    for instance_id, sub in ((one, "clever"), (two, "light"), (three, "bear")):
        assert save(client, instance_id, {"sub1": sub}) == 302
    assert 'id="completion-code">DONE-7<' in _done(client, dataset)
    row = _row(boss.get(f"/organiser/datasets/{dataset}/study").get_data(as_text=True), CAREFUL)
    assert "completion code (1 / 1 then)" in row and "Leave out" not in row


def test_every_overlap_batch_includes_the_check_sentences(app: Flask, boss: FlaskClient) -> None:
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    with app.app_context():
        words = import_dataset(
            parse_lexsub_xml(WORDS_XML, "words.xml"), "words", "words.xml", WORDS_XML
        ).dataset
        set_design(words, "overlap", 1, 2)
        words.screenout_code = "SCREEN-7"
        token = open_study(words, "DONE-7", "prolific")
        dataset = words.id
        xml = {x: i for x, i in db.session.execute(select(Instance.xml_id, Instance.id))}
    # a check on a sentence of the first word; a participant is in already
    first = app.test_client()
    assert join(first, f"/study/{token}?PROLIFIC_PID={CAREFUL}") == 302
    _blocking(boss, dataset, "c1 x\n")
    second = app.test_client()
    assert join(second, f"/study/{token}?PROLIFIC_PID={CARELESS}") == 302
    with app.app_context():
        batches = {
            participant_id: sorted(
                db.session.scalars(
                    select(Instance.xml_id)
                    .join(Assignment, Assignment.instance_id == Instance.id)
                    .join(User, User.id == Assignment.user_id)
                    .where(User.participant_id == participant_id)
                )
            )
            for participant_id in (CAREFUL, CARELESS)
        }
    # batches of 2 sentences cut from whole words without the check c1 (a1 a2 a3 | b1 c2 |
    # d1 d2), per_sentence 1: two different batches, each with the check sentence added
    assert batches[CAREFUL] == ["a1", "a2", "a3", "c1"]
    assert batches[CARELESS] == ["b1", "c1", "c2"]
    assert xml["c1"]
    # a batch's finish with a junk check is blocked: no completion code
    for xml_id in batches[CARELESS]:
        assert save(second, xml[xml_id], {"sub1": "junk"}) == 302
    page = _done(second, dataset)
    assert "DONE-7" not in page and 'id="screenout-code">SCREEN-7<' in page


def test_leave_out_from_the_study_page_and_the_dataset_home_links_it(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    _blocking(boss, dataset)
    one, two, three = instance_ids(app)
    client = app.test_client()
    assert join(client, f"/study/{token}?PROLIFIC_PID={CARELESS}") == 302
    for instance_id, sub in ((one, "dim"), (two, "light"), (three, "bear")):
        assert save(client, instance_id, {"sub1": sub}) == 302
    url = f"/organiser/datasets/{dataset}/study"
    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.participant_id == CARELESS))
    assert boss.post(url, data={"action": "leave-out", "user": str(user_id)}).status_code == 302
    page = boss.get(url).get_data(as_text=True)
    assert (
        f'<span id="left-out-count">1</span> left out: <span id="left-out">{CARELESS}</span>'
        in (page)
    )
    assert "left out" in _row(page, CARELESS) and "Take back" in _row(page, CARELESS)
    with app.app_context():
        left = exclusions_of(db.get_or_404(Dataset, dataset))
    assert [(e.annotator, e.reason) for e in left] == [
        (f"p{dataset}-{CARELESS}", "flagged on the study page (check score or speed)")
    ]
    # an account of no study of this dataset is refused, naming it
    make_user(app, "ann")
    with app.app_context():
        other = db.session.scalar(select(User.id).where(User.username == "ann"))
    boss.post(url, data={"action": "leave-out", "user": str(other)})
    assert f"no participant {other} in this study" in boss.get(url).get_data(as_text=True)
    home = boss.get(f"/organiser/datasets/{dataset}").get_data(as_text=True)
    assert f'href="/organiser/datasets/{dataset}/study"' in home


def test_a_closed_study_says_so_with_the_return_and_the_public_title(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    url = f"/organiser/datasets/{dataset}/study"
    boss.post(
        url,
        data={"action": "public", "public_title": "Words in context", "platform": "prolific"},
    )
    client = app.test_client()
    response = client.get(f"/study/{token}?PROLIFIC_PID={CAREFUL}")
    assert response.status_code == 302
    page = client.get(response.headers["Location"], follow_redirects=True).get_data(as_text=True)
    assert "<h1>Words in context</h1>" in page and "small" not in page.split("<main")[1]
    with app.app_context():
        close_study(db.get_or_404(Dataset, dataset))
    closed = app.test_client().get(f"/study/{token}?PROLIFIC_PID={CARELESS}")
    assert closed.status_code == 410
    text = closed.get_data(as_text=True)
    assert "This study is closed" in text and 'id="screenout-code">SCREEN-7<' in text
    assert "small" not in text
    boss.post(
        url,
        data={
            "action": "public",
            "public_title": "Words in context",
            "platform": "prolific",
            "return_url": "https://app.prolific.com/submissions/complete?cc=RETURN1",
        },
    )
    text = app.test_client().get(f"/study/{token}").get_data(as_text=True)
    assert 'href="https://app.prolific.com/submissions/complete?cc=RETURN1"' in text
    assert "SCREEN-7" not in text
    # a return address that is not https is refused, naming the rule
    boss.post(url, data={"action": "public", "public_title": "", "return_url": "javascript:x"})
    assert "must be an https:// address" in boss.get(url).get_data(as_text=True)
    # an archived study's link says so too; opening again opens the same link
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        assert open_study(small) == token
        small.archived_at = small.created_at
        db.session.commit()
    assert app.test_client().get(f"/study/{token}").status_code == 410
    assert app.test_client().get("/study/no-such-token").status_code == 404


def test_ids_of_the_wrong_platform_format_are_refused(app: Flask, dataset: int) -> None:
    token = _study(app, dataset)
    for made_up in ("p1", "60a1b2c3d4e5f6a7b8c9d0e", "60a1b2c3d4e5f6a7b8c9d0zz"):
        response = app.test_client().get(f"/study/{token}?PROLIFIC_PID={made_up}")
        assert response.status_code == 400, made_up
        assert "must be 24 hexadecimal characters (a Prolific id)" in response.get_data(
            as_text=True
        )
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        small.platform = "mturk"
        db.session.commit()
    assert app.test_client().get(f"/study/{token}?workerId=A1B2C3D4E5F6G7").status_code == 302
    assert app.test_client().get(f"/study/{token}?workerId=a1b2c3").status_code == 400
    with app.app_context():
        assert db.session.scalar(select(User.participant_id).where(User.study_id == dataset)) == (
            "A1B2C3D4E5F6G7"
        )
