"""A crowd study through the real app: onboarding (guidelines, consent, comprehension check
with two attempts), attention checks matched by the compiler's own form rule and left out of
the gold, time per sentence, and the study's own page of participants."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.extensions import db
from annotate.models import Dataset, Instance, Revision, SentenceView, User
from annotate.services.checks import check_scores
from annotate.services.goldfiles import gold_files
from annotate.services.participants import participant_page
from annotate.services.study import open_study
from tests.conftest import instance_ids, join, login, make_user, save

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

QUESTIONS = """# how to answer
What do you type when no single word fits?
- a word that is close enough
* the phrase, in the phrase box
- nothing

Which box is for a proper name?
* the Proper name tick
- the first substitute box
"""
RIGHT = {"q0": "1", "q1": "0"}
WRONG = {"q0": "0", "q1": "0"}


def _study(app: Flask, dataset: int, **fields: object) -> str:
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        for key, value in fields.items():
            setattr(small, key, value)
        small.screenout_code = "SCREEN-7"
        return open_study(small, "DONE-7")


def _user(app: Flask, participant_id: str) -> User:
    with app.app_context():
        user: User | None = db.session.scalar(
            select(User).where(User.participant_id == participant_id)
        )
        assert user is not None
        db.session.expunge(user)
        return user


@pytest.fixture
def boss(app: Flask) -> FlaskClient:
    make_user(app, "boss", "organiser")
    client = app.test_client()
    login(client, "boss")
    return client


# --- onboarding ---------------------------------------------------------------------------


def test_the_link_shows_guidelines_and_consent_and_no_sentence_before_start(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    token = _study(
        app, dataset, guidelines="Give words, not definitions.", consent="I agree to take part."
    )
    start = f"/study/dataset/{dataset}/start"
    response = client.get(f"/study/{token}?PROLIFIC_PID=p1")
    assert response.headers["Location"] == f"/annotate/dataset/{dataset}"
    assert client.get(response.headers["Location"]).headers["Location"] == start
    one, two, _ = instance_ids(app)
    # no sentence, by any address, and no save, before Start
    assert client.get(f"/annotate/{one}").headers["Location"] == start
    assert client.post(f"/annotate/{one}", data={"sub1": "clever"}).headers["Location"] == start
    page = client.get(start)
    html = page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"
    assert 'id="guidelines">Give words, not definitions.<' in html
    assert 'id="consent">I agree to take part.<' in html
    assert ">I agree: start</button>" in html and 'type="radio"' not in html
    assert _user(app, "p1").started_at is None
    before = datetime.now()
    assert client.post(start).headers["Location"] == f"/annotate/dataset/{dataset}"
    started = _user(app, "p1").started_at
    assert started is not None and before - timedelta(minutes=1) < started
    assert client.get(f"/annotate/dataset/{dataset}").headers["Location"] == f"/annotate/{one}"
    assert save(client, one, {"sub1": "clever"}) == 302
    # Start again changes nothing: the page sends them on
    assert client.get(start).headers["Location"] == f"/annotate/dataset/{dataset}"
    assert _user(app, "p1").started_at == started
    assert client.get(f"/annotate/dataset/{dataset}").headers["Location"] == f"/annotate/{two}"


def test_only_the_participants_own_study_has_an_onboarding_page(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    make_user(app, "ann")
    login(client, "ann")
    assert client.get(f"/study/dataset/{dataset}/start").status_code == 404
    other = app.test_client()
    token = _study(app, dataset)
    assert other.get(f"/study/{token}?PROLIFIC_PID=p1").status_code == 302
    assert other.get(f"/study/dataset/{dataset + 1}/start").status_code == 404


def test_two_failed_comprehension_attempts_screen_out_for_good(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset, comprehension=QUESTIONS)
    start = f"/study/dataset/{dataset}/start"
    assert client.get(f"/study/{token}?PROLIFIC_PID=p1").status_code == 302
    html = client.get(start).get_data(as_text=True)
    assert html.count('type="radio"') == 5 and "Which box is for a proper name?" in html
    first = client.post(start, data=WRONG)
    assert first.status_code == 422
    assert "one more attempt" in first.get_data(as_text=True)
    assert "SCREEN-7" not in first.get_data(as_text=True)
    assert _user(app, "p1").comprehension_failures == 1
    second = client.post(start, data={"q0": "1"})  # the second question unanswered
    html = second.get_data(as_text=True)
    assert second.status_code == 200 and 'id="screenout-code">SCREEN-7<' in html
    assert 'type="radio"' not in html and "DONE-7" not in html
    user = _user(app, "p1")
    assert (user.comprehension_failures, user.started_at) == (2, None)
    assert user.screened_out_at is not None
    # no sentence ever after: not by the link, the start page, a sentence or a save
    one = instance_ids(app)[0]
    assert client.post(start, data=RIGHT).status_code == 200
    assert client.get(f"/study/{token}?PROLIFIC_PID=p1").status_code == 302
    assert client.get(f"/annotate/dataset/{dataset}").headers["Location"] == start
    assert client.post(f"/annotate/{one}", data={"sub1": "x"}).headers["Location"] == start
    assert 'id="screenout-code">SCREEN-7<' in client.get(start).get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Revision.id)) is None
        assert _user(app, "p1").started_at is None
        assert db.get_or_404(Dataset, dataset).study_token == token


def test_a_right_second_attempt_starts(app: Flask, client: FlaskClient, dataset: int) -> None:
    token = _study(app, dataset, comprehension=QUESTIONS)
    start = f"/study/dataset/{dataset}/start"
    assert client.get(f"/study/{token}?participant=p2").status_code == 302
    assert client.post(start, data=WRONG).status_code == 422
    response = client.post(start, data=RIGHT)
    assert response.headers["Location"] == f"/annotate/dataset/{dataset}"
    user = _user(app, "p2")
    assert user.comprehension_failures == 1 and user.started_at is not None
    assert user.screened_out_at is None
    make_user(app, "boss", "organiser")
    boss = app.test_client()
    login(boss, "boss")
    html = boss.get(f"/organiser/datasets/{dataset}/study").get_data(as_text=True)
    assert "UTC (after 1 failed attempt)" in html


def test_the_study_page_checks_the_comprehension_format(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    page = f"/organiser/datasets/{dataset}/study"
    response = boss.post(
        page,
        data={"action": "onboarding", "consent": "Yes.", "comprehension": "Q?\n* a\n* b\n"},
        follow_redirects=True,
    )
    html = response.get_data(as_text=True)
    assert "line 1: question &#39;Q?&#39; marks 2 options correct with &#39;*&#39;" in html
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        assert (small.consent, small.comprehension) == ("", "")
    boss.post(page, data={"action": "onboarding", "consent": "Yes.", "comprehension": QUESTIONS})
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        assert (small.consent, small.comprehension) == ("Yes.", QUESTIONS.strip())


# --- attention checks -----------------------------------------------------------------------


def _checks(boss: FlaskClient, dataset: int, text: str) -> str:
    response = boss.post(
        f"/organiser/datasets/{dataset}/study",
        data={"action": "checks", "checks": text},
        follow_redirects=True,
    )
    return response.get_data(as_text=True)


def test_a_check_answer_matches_after_normalisation_and_lemmatisation(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    assert "2 check items saved." in _checks(boss, dataset, "1\tclever; smart\n3 tolerate\n")
    one, two, three = instance_ids(app)
    answers = {
        # typed otherwise, the same gold forms: 'Clever' is normalised, 'tolerates' lemmatised
        "good": ({"sub1": "Clever"}, {"sub1": "tolerates"}),
        # string equality would match 'smart' only; 'tolerance' is another lemma
        "half": ({"sub1": "smart", "sub2": "brainy"}, {"sub1": "tolerance"}),
        "none": ({"sub1": "shiny"}, {"name": "on"}),
    }
    for name, (first, third) in answers.items():
        client = app.test_client()
        assert join(client, f"/study/{token}?PROLIFIC_PID={name}") == 302
        assert save(client, one, first) == 302
        assert save(client, two, {"sub1": "luminous"}) == 302
        assert save(client, three, third) == 302
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        scores = check_scores(small)
        ids = {u.participant_id: u.id for u in db.session.scalars(select(User))}
    assert {name: (scores[ids[name]].matched, scores[ids[name]].answered) for name in answers} == {
        "good": (2, 2),
        "half": (1, 2),
        "none": (0, 2),
    }
    # the scores on the study page, the one under the threshold flagged
    boss.post(
        f"/organiser/datasets/{dataset}/study",
        data={"action": "quality", "check_threshold": "60", "check_action": "warn"},
    )
    html = boss.get(f"/organiser/datasets/{dataset}/study").get_data(as_text=True)
    rows = {
        name: re.search(rf'id="participant-{name}">(.*?)</tr>', html, re.S).group(1)  # type: ignore[union-attr]
        for name in answers
    }
    assert ">2 / 2<" in rows["good"] and "under threshold" not in rows["good"]
    assert '1 / 2 <strong class="flag">under threshold' in rows["half"]
    assert '0 / 2 <strong class="flag">under threshold' in rows["none"]


def test_a_blocking_threshold_withholds_the_completion_code(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    _checks(boss, dataset, "1 clever\n")
    boss.post(
        f"/organiser/datasets/{dataset}/study",
        data={"action": "quality", "check_threshold": "100", "check_action": "block"},
    )
    one, two, three = instance_ids(app)
    pages = {}
    for name, answer in (("careful", "clever"), ("careless", "dim")):
        client = app.test_client()
        assert join(client, f"/study/{token}?PROLIFIC_PID={name}") == 302
        for instance_id, sub in ((one, answer), (two, "light"), (three, "bear")):
            assert save(client, instance_id, {"sub1": sub}) == 302
        pages[name] = client.get(f"/annotate/dataset/{dataset}/done").get_data(as_text=True)
    assert 'id="completion-code">DONE-7<' in pages["careful"]
    assert "DONE-7" not in pages["careless"] and 'id="checks-failed"' in pages["careless"]
    assert 'id="screenout-code">SCREEN-7<' in pages["careless"]


def test_check_items_refused_whole_with_the_line_and_the_rule(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    _checks(boss, dataset, "1 clever\n")
    for text, message in (
        ("1 clever\n99 x\n", "sentence &#39;99&#39; is not in &#39;small&#39;"),
        ("1 clever\n2\n", "the check items:2: &#39;2&#39; has no accepted substitute"),
        ("1 pn\n", "&#39;pn&#39; is refused by the substitute rules"),
        ("1 a\n1 b\n", "the check items:2: sentence &#39;1&#39; is listed twice"),
    ):
        assert message in _checks(boss, dataset, text), text
    with app.app_context():
        from annotate.services.checks import check_lines

        lines = check_lines(db.get_or_404(Dataset, dataset))
    assert [(line.instance, line.accepted) for line in lines] == [("1", ("clever",))]


def test_check_items_stay_out_of_the_gold_unless_kept(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    one, two, three = instance_ids(app)
    for name in ("a", "b"):
        client = app.test_client()
        assert join(client, f"/study/{token}?PROLIFIC_PID={name}") == 302
        for instance_id, sub in ((one, "clever"), (two, "light"), (three, "bear")):
            assert save(client, instance_id, {"sub1": sub}) == 302
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        before = gold_files(small)
    assert "check_items_left_out" not in before["summary.json"].decode()
    _checks(boss, dataset, "1 clever\n")
    with app.app_context():
        from annotate.gold import CompileOptions

        small = db.get_or_404(Dataset, dataset)
        left = gold_files(small)
        kept = gold_files(small, CompileOptions(keep_checks=True))
    assert left["gold"].decode() == "bright.a 2 :: light 2;\nstand.n.v 3 :: bear 2;\n"
    assert json.loads(left["summary.json"])["check_items_left_out"] == 1
    assert json.loads(left["summary.json"])["items"] == 2
    assert kept["gold"] == before["gold"]
    assert json.loads(kept["summary.json"])["check_items_left_out"] == 0
    # the compile page and its command line say the same
    html = boss.get(f"/organiser/datasets/{dataset}/compile?keep_checks=on").get_data(as_text=True)
    assert "--keep-checks" in html
    download = boss.get(f"/organiser/datasets/{dataset}/gold?file=gold")
    assert download.data == left["gold"]
    # the agreement too: each annotator's items are 2 without the check sentence, 3 with it
    agreement = f"/organiser/datasets/{dataset}/agreement"
    html = boss.get(agreement).get_data(as_text=True)
    assert "1 attention-check sentences are left out" in html
    # participants by pseudonym (P1, P2), not their platform ids
    assert re.findall(r"<tr><td>P\d+</td>.*?<td>(\d+)</td></tr>", html, re.S)[:2] == ["2", "2"]
    html = boss.get(agreement + "?keep_checks=on").get_data(as_text=True)
    assert "The attention-check sentences are kept" in html
    assert re.findall(r"<tr><td>P\d+</td>.*?<td>(\d+)</td></tr>", html, re.S)[:2] == ["3", "3"]


# --- time per sentence, the study's own page --------------------------------------------------


def test_time_per_sentence_from_first_view_to_first_save(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    one, two, three = instance_ids(app)
    client = app.test_client()
    assert join(client, f"/study/{token}?PROLIFIC_PID=fast") == 302
    for instance_id in (one, two, three):
        assert client.get(f"/annotate/{instance_id}").status_code == 200
        assert save(client, instance_id, {"sub1": "word"}) == 302
    client.get(f"/annotate/{one}")  # a second view and save change nothing
    assert save(client, one, {"sub1": "again"}) == 302
    # set the times by hand: 4 s, 10 s and 1 s on the three sentences
    base = datetime(2026, 11, 27, 8, 0, 0)
    with app.app_context():
        user_id = db.session.scalar(select(User.id).where(User.participant_id == "fast"))
        views = {v.instance_id: v for v in db.session.scalars(select(SentenceView))}
        assert sorted(views) == [one, two, three]
        saves = list(db.session.scalars(select(Revision).order_by(Revision.id)))
        assert [r.instance_id for r in saves] == [one, two, three, one]
        for offset, (instance_id, seconds) in enumerate(((one, 4), (two, 10), (three, 1))):
            views[instance_id].first_at = base + timedelta(minutes=offset)
            saves[offset].saved_at = base + timedelta(minutes=offset, seconds=seconds)
        saves[3].saved_at = base + timedelta(hours=1)
        db.session.commit()
        found = participant_page(db.get_or_404(Dataset, dataset))
    row = found.rows[0]
    assert (row.user.id, row.median_seconds, row.timed, row.speeder) == (user_id, 4.0, 3, False)
    boss.post(
        f"/organiser/datasets/{dataset}/study",
        data={"action": "quality", "check_action": "warn", "speeder_seconds": "5"},
    )
    html = boss.get(f"/organiser/datasets/{dataset}/study").get_data(as_text=True)
    assert '4.0 s (3 sentences) <strong class="flag">speeder</strong>' in html


def test_an_organisers_annotator_is_not_timed(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    from tests.conftest import assign

    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    assert client.get(f"/annotate/{instance_ids(app)[0]}").status_code == 200
    with app.app_context():
        assert db.session.scalar(select(SentenceView.id)) is None


def test_participants_are_listed_on_their_study_page_only(
    app: Flask, boss: FlaskClient, dataset: int
) -> None:
    token = _study(app, dataset)
    make_user(app, "ann")
    for name in ("p1", "p2", "p3"):
        assert app.test_client().get(f"/study/{token}?PROLIFIC_PID={name}").status_code == 302
    members = boss.get(f"/organiser/datasets/{dataset}/members").get_data(as_text=True)
    # names as the pages show them (a bare "p1" can occur in the page's CSRF token)
    assert ">ann</label>" in members and ">p1</label>" not in members
    from tests.conftest import make_round

    judges = boss.get(f"/organiser/rounds/{make_round(app)}").get_data(as_text=True)
    assert ">ann</label>" in judges and ">p1</label>" not in judges
    assert f'href="/organiser/datasets/{dataset}/study" id="study-page"' in members
    # saving the members (ann ticked) leaves the participants their membership
    boss.post(f"/organiser/datasets/{dataset}/members", data={"action": "members", "user": []})
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        first = participant_page(small, 1, per_page=2)
        second = participant_page(small, 2, per_page=2)
        beyond = participant_page(small, 9, per_page=2)
    assert [r.user.participant_id for r in first.rows] == ["p1", "p2"]
    assert [r.user.participant_id for r in second.rows] == ["p3"]
    assert (first.pages, first.count, beyond.page) == (2, 3, 2)
    assert all(r.member for r in (*first.rows, *second.rows))
    html = boss.get(f"/organiser/datasets/{dataset}/study").get_data(as_text=True)
    assert 'id="participant-count">3<' in html
    assert all(f'id="participant-{name}"' in html for name in ("p1", "p2", "p3"))
    assert "not yet" in html  # none pressed Start
    assert boss.get(f"/organiser/datasets/{dataset}/study?page=x").status_code == 400
    annotator = app.test_client()
    login(annotator, "ann")
    assert annotator.get(f"/organiser/datasets/{dataset}/study").status_code == 403


def test_the_checks_command_sets_and_lists(app: Flask, dataset: int, tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = app.test_cli_runner()
    path = tmp_path / "checks.tsv"
    path.write_text("# sentence, accepted\n1\tclever; smart\n", encoding="utf-8")
    result = runner.invoke(args=["lexsub", "checks", "--dataset", "small", str(path)])
    assert (result.exit_code, result.output) == (0, "1 check items in small\n"), result.exception
    result = runner.invoke(args=["lexsub", "checks", "--dataset", "small"])
    assert (result.exit_code, result.output) == (0, "1\tclever; smart\n")
    path.write_text("7 x\n", encoding="utf-8")
    result = runner.invoke(args=["lexsub", "checks", "--dataset", "small", str(path)])
    assert result.exit_code == 1
    assert f"no check item saved: {path}: sentence '7' is not in 'small'" in result.output
    with app.app_context():
        assert db.session.scalar(select(Instance.id).where(Instance.xml_id == "1")) is not None


def test_the_study_page_pages_its_participants(app: Flask, boss: FlaskClient, dataset: int) -> None:
    from annotate.services.participants import PER_PAGE
    from annotate.services.study import participant

    _study(app, dataset)
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        for number in range(PER_PAGE + 1):
            participant(small, f"p{number:03d}")
    page = f"/organiser/datasets/{dataset}/study"
    first = boss.get(page).get_data(as_text=True)
    assert first.count('<tr id="participant-') == PER_PAGE == 50
    assert "Page 1 of 2." in first and 'rel="next"' in first and 'rel="prev"' not in first
    assert 'id="participant-p049"' in first and 'id="participant-p050"' not in first
    second = boss.get(page + "?page=2").get_data(as_text=True)
    assert second.count('<tr id="participant-') == 1 and 'id="participant-p050"' in second
    assert "Page 2 of 2." in second and 'rel="prev"' in second and 'rel="next"' not in second
