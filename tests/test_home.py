"""A dataset's home page: what the study is, its state at a glance (progress, answers
today, agreement so far), what needs the organiser and the next step of its life; its
settings on their own page."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from annotate.extensions import db
from annotate.models import (
    CheckItem,
    Dataset,
    Instance,
    Response,
    Revision,
    SentenceView,
    User,
)
from annotate.services.home import ENOUGH_ITEMS, answer_counts, dataset_home
from tests.conftest import login, make_user

pytestmark = pytest.mark.database


def _text(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (tags dropped, spaces joined)."""
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</(td|dd|table|ol)>', html, re.DOTALL)
    assert found, element_id
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_the_home_shows_the_state_of_three_annotators(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    """ann, bob and cat answered sentences 1 and 3 of 3: 6 of 9 done, 6 answers today;
    two items have two answers (too few for agreement); 'tolerated' awaits review."""
    login(client, "boss")
    html = client.get(f"/organiser/datasets/{dataset}").get_data(as_text=True)
    assert _text(html, "task") == "substitution"
    assert _text(html, "language-now") == "en (English)"
    assert _text(html, "design") == "all: every member annotates every sentence"
    assert _text(html, "link-state") == "closed"
    assert _text(html, "done") == "6 / 9"
    assert _text(html, "answers-today") == "6 (of 6)"
    assert _text(html, "agreement-so-far") == (
        "too few answers yet (2 of 20 items with two answers) · Agreement"
    )
    people = re.findall(r"<tr><td><a [^>]+>(\w+)</a></td><td>(\d+ / \d+)</td>", html)
    assert people == [("ann", "2 / 3"), ("bob", "2 / 3"), ("cat", "2 / 3")]
    needs = dict(re.findall(r'<tr id="need-([\w-]+)"[^>]*><th[^>]*>.*?</th><td>(\d+)</td>', html))
    assert needs == {
        "speeders": "0",
        "under-checks": "0",
        "problems": "0",
        "lemmas": "1",
        "left-out": "0",
    }
    assert f'href="/organiser/datasets/{dataset}/lemmas">Forms awaiting lemma review' in html
    # imported, members, no guidelines yet: that is the next step
    assert re.search(r'id="next-step">Guidelines and onboarding</a>', html)
    ticked = re.findall(r'<li class="done">.*?<a [^>]+>([^<]+)</a>', html)
    assert ticked == ["Import", "Members and design", "Open the link"]
    # the navigation marks the home; the settings moved to their own page
    assert f'<a href="/organiser/datasets/{dataset}" aria-current="page">Home</a>' in html
    settings = client.get(f"/organiser/datasets/{dataset}/settings").get_data(as_text=True)
    assert f'href="/organiser/datasets/{dataset}/settings" aria-current="page">Settings' in settings
    assert 'name="action" value="rename"' in settings


def test_answers_today_count_from_midnight_utc(answered: Flask, dataset: int) -> None:
    with answered.app_context():
        data = db.get_or_404(Dataset, dataset)
        assert answer_counts(data) == (6, 6)
        assert answer_counts(data, datetime.now(UTC) + timedelta(days=1)) == (6, 0)


def test_the_next_steps_tick_as_the_study_goes_on(answered: Flask, dataset: int) -> None:
    from annotate.services.goldfiles import decide

    with answered.app_context():
        data = db.get_or_404(Dataset, dataset)
        data.guidelines = "Give a word that fits."
        db.session.commit()
        decide(data, "tolerated", "accept", None, None, "boss")
        home = dataset_home(data)
        done = [step.key for step in home.steps if step.done]
        assert done == ["import", "members", "guidelines", "link", "lemmas"]
        assert home.next_step is not None and home.next_step.key == "answers"
        assert home.flags == 0


def _words_dataset(app: Flask, lemmas: int, per_lemma: int) -> int:
    """A dataset of ``lemmas`` words (happy.a, ...) of ``per_lemma`` sentences each."""
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    words = []
    for w in range(lemmas):
        sentences = "".join(
            f'<instance id="w{w}s{s}"><context>A <head>word{w}</head> here.</context></instance>'
            for s in range(per_lemma)
        )
        words.append(f'<lexelt item="word{w}.n">{sentences}</lexelt>')
    xml = f'<?xml version="1.0" ?><corpus lang="english">{"".join(words)}</corpus>'.encode()
    with app.app_context():
        return import_dataset(
            parse_lexsub_xml(xml, "words.xml"), "words", "words.xml", xml
        ).dataset.id


def _answers(app: Flask, dataset_id: int, given: dict[str, list[list[str]]]) -> None:
    """Members answering the sentences in order: username → one substitute list each."""
    from annotate.services.study import assign

    with app.app_context():
        data = db.get_or_404(Dataset, dataset_id)
        ids = list(
            db.session.scalars(
                db.select(Instance.id)
                .where(Instance.dataset_id == dataset_id)
                .order_by(Instance.position)
            )
        )
        for username, answers in given.items():
            user = db.session.scalar(db.select(User).where(User.username == username))
            assert user is not None
            assign(user, data)
            for instance_id, substitutes in zip(ids, answers, strict=False):
                db.session.add(
                    Response(
                        user_id=user.id,
                        instance_id=instance_id,
                        kind="substitutes",
                        substitutes=substitutes,
                    )
                )
        db.session.commit()


BOB = [["cheerful"] if s < (2 if w < 2 else 3) else ["glad"] for w in range(4) for s in range(5)]
"""Bob's answers: 10 of 20 differ from ann's 'glad', some in every word."""


def test_agreement_appears_once_twenty_items_have_two_answers(app: Flask) -> None:
    """Two annotators on 4 words x 5 sentences: ann says 'glad' always, bob 'cheerful' on
    the first 2 sentences of words 0 and 1 and the first 3 of words 2 and 3, else 'glad'.
    PA (eq. 1) = (10 x 1 + 10 x 0) / 20 = 0.5; with one substitute each, MASI alpha is
    nominal alpha: n = 40 values (30 glad, 10 cheerful), D_o = 20/40,
    D_e = 2 x 30 x 10 / (40 x 39) = 600/1560, alpha = 1 - 1.3 = -0.3. With 19 items
    answered twice, too few."""
    make_user(app, "ann")
    make_user(app, "bob")
    dataset_id = _words_dataset(app, 4, 5)
    assert ENOUGH_ITEMS == 20
    _answers(app, dataset_id, {"ann": [["glad"]] * 20, "bob": BOB[:19]})
    with app.app_context():
        agreement = dataset_home(db.get_or_404(Dataset, dataset_id)).agreement
        assert (agreement.items, agreement.enough, agreement.pa) == (19, False, None)
    with app.app_context():
        bob = db.session.scalar(db.select(User.id).where(User.username == "bob"))
        last = db.session.scalar(
            db.select(Instance.id)
            .where(Instance.dataset_id == dataset_id)
            .order_by(Instance.position.desc())
        )
        db.session.add(
            Response(user_id=bob, instance_id=last, kind="substitutes", substitutes=BOB[19])
        )
        db.session.commit()
        home = dataset_home(db.get_or_404(Dataset, dataset_id))
    found = home.agreement
    assert (found.items, found.enough) == (20, True)
    assert found.pa == pytest.approx(0.5)
    assert found.alpha == pytest.approx(-0.3)
    assert found.pa_interval is not None and found.pa_interval[0] <= 0.5 <= found.pa_interval[1]
    assert found.alpha_interval is not None
    assert found.alpha_interval[0] <= -0.3 <= found.alpha_interval[1]
    assert (home.done, home.assigned) == (40, 40)


def test_the_agreement_so_far_is_the_agreement_page_s(app: Flask, client: FlaskClient) -> None:
    """The home's PA and MASI alpha are the figures of the agreement page's 'all' row."""
    make_user(app, "ann")
    make_user(app, "bob")
    make_user(app, "boss", "organiser")
    dataset_id = _words_dataset(app, 4, 5)
    _answers(app, dataset_id, {"ann": [["glad"]] * 20, "bob": BOB})
    login(client, "boss")
    home = client.get(f"/organiser/datasets/{dataset_id}").get_data(as_text=True)
    assert _text(home, "agreement-so-far").startswith("PA 50.0 (")
    assert " · alpha -0.300 (" in _text(home, "agreement-so-far")
    page = client.get(f"/organiser/datasets/{dataset_id}/agreement").get_data(as_text=True)
    row = re.search(r"<tr><td>all</td><td>20</td>\s*<td>50\.00 .*?</tr>", page, re.DOTALL)
    assert row, page
    masi = re.findall(
        r"<td>(-?[\d.]+) <small>\((-?[\d.]+)\N{EN DASH}(-?[\d.]+)\)</small></td>", row.group(0)
    )[-1]
    assert masi[0] == "-0.300"
    assert f"alpha -0.300 ({masi[1]}\N{EN DASH}{masi[2]}) over 20 items" in _text(
        home, "agreement-so-far"
    )


def test_participants_flagged_are_counted_over_the_whole_study(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    """p1 takes 2 s a sentence (under the 5 s threshold) and misses the check item; p2
    takes 10 s and matches it: one speeder, one under the check threshold."""
    from annotate.services.study import assign, open_study

    make_user(app, "boss", "organiser")
    base = datetime(2026, 11, 27, 8, 0, 0)
    with app.app_context():
        data = db.get_or_404(Dataset, dataset)
        open_study(data)
        data.speeder_seconds, data.check_threshold = 5, 50
        ids = {i.xml_id: i.id for i in db.session.scalars(db.select(Instance))}
        db.session.add(CheckItem(dataset_id=dataset, instance_id=ids["2"], accepted=["light"]))
        for name, seconds, check in (("p1", 2, "dark"), ("p2", 10, "light")):
            user = User(username=name, password_hash="x", study_id=dataset, participant_id=name)
            db.session.add(user)
            db.session.flush()
            assign(user, data)
            for offset, (xml_id, value) in enumerate((("1", "clever"), ("2", check))):
                at = base + timedelta(minutes=offset)
                db.session.add(SentenceView(user_id=user.id, instance_id=ids[xml_id], first_at=at))
                db.session.add(
                    Revision(
                        user_id=user.id,
                        instance_id=ids[xml_id],
                        kind="substitutes",
                        substitutes=[value],
                        saved_at=at + timedelta(seconds=seconds),
                    )
                )
                db.session.add(
                    Response(
                        user_id=user.id,
                        instance_id=ids[xml_id],
                        kind="substitutes",
                        substitutes=[value],
                    )
                )
        db.session.commit()
        home = dataset_home(db.get_or_404(Dataset, dataset))
    counts = {need.key: need.count for need in home.needs}
    assert (counts["speeders"], counts["under-checks"]) == (1, 1)
    assert (home.done, home.assigned) == (4, 6)
    login(client, "boss")
    html = client.get(f"/organiser/datasets/{dataset}").get_data(as_text=True)
    assert _text(html, "link-state") == "open"
    assert f'href="/organiser/datasets/{dataset}/study#participants-heading">Speeders</a>' in html


def test_a_dataset_that_cannot_be_compiled_still_has_its_home(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    """A lexelt stored with a space (as an older version stored it) breaks the gold's
    rules: the dashboard and the home still answer, the home names the problem."""
    from annotate.models import Lexelt

    with answered.app_context():
        lexelt = db.session.scalars(db.select(Lexelt).where(Lexelt.item == "bright.a")).one()
        lexelt.item = "bright thing.a"
        db.session.commit()
    login(client, "boss")
    assert client.get("/organiser/").status_code == 200
    response = client.get(f"/organiser/datasets/{dataset}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert _text(html, "agreement-so-far").startswith("not computed: dataset &#39;small&#39;")
    needs = dict(re.findall(r'<tr id="need-([\w-]+)"[^>]*><th[^>]*>.*?</th><td>(\d+)</td>', html))
    assert needs == {"speeders": "0", "under-checks": "0", "broken": "1"}
    assert _text(html, "done") == "6 / 9"


def test_a_complexity_study_s_agreement_is_the_alpha_of_its_ratings(app: Flask) -> None:
    """Two annotators give the same ratings (1 to 5 in turn) to 20 targets: interval alpha
    is 1 (no disagreement, some variation); with 19 rated twice, too few."""
    from annotate.services.datasets import import_dataset
    from scoring.formats.importers.read import parse_source

    rows = "".join(f"en_{i}\tenglish\tA word {i} here.\tword\t0.5\n" for i in range(20))
    data = rows.encode()
    make_user(app, "ann")
    make_user(app, "bob")
    with app.app_context():
        dataset = import_dataset(parse_source(data, "rated.tsv", "tsar"), "rated", "r", data)
        dataset_id = dataset.dataset.id
        assert dataset.dataset.task == "complexity"
    ratings = [[str(1 + i % 5)] for i in range(20)]
    with app.app_context():
        ids = list(db.session.scalars(db.select(Instance.id).order_by(Instance.position)))
        for name, given in (("ann", ratings), ("bob", ratings[:19])):
            user = db.session.scalars(db.select(User).where(User.username == name)).one()
            for instance_id, rating in zip(ids, given, strict=False):
                db.session.add(
                    Response(
                        user_id=user.id, instance_id=instance_id, kind="rating", substitutes=rating
                    )
                )
        db.session.commit()
        found = dataset_home(db.get_or_404(Dataset, dataset_id)).agreement
        assert (found.items, found.enough, found.alpha) == (19, False, None)
        bob = db.session.scalar(db.select(User.id).where(User.username == "bob"))
        db.session.add(Response(user_id=bob, instance_id=ids[19], kind="rating", substitutes=["5"]))
        db.session.commit()
        found = dataset_home(db.get_or_404(Dataset, dataset_id)).agreement
    assert (found.items, found.enough, found.pa) == (20, True, None)
    assert found.alpha == pytest.approx(1.0)
