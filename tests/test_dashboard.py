"""The organiser's dashboard: per dataset, each member's progress
against their own sentences, with percentages and last activity, and a link to every
page of the dataset."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import SMALL_XML, answer, login, make_user

pytestmark = pytest.mark.database


def test_progress_counts_each_member_s_own_sentences(answered: Flask, dataset: int) -> None:
    from annotate.extensions import db
    from annotate.models import Assignment, Dataset, Instance, User
    from annotate.services.datasets import progress_by_annotator
    from annotate.services.study import assign

    make_user(answered, "dan")
    make_user(answered, "eve")
    with answered.app_context():
        data = db.get_or_404(Dataset, dataset)
        dan = db.session.query(User).filter_by(username="dan").one()
        assign(dan, data)
        first = db.session.query(Instance).filter_by(xml_id="1").one()
        db.session.add(Assignment(dataset_id=data.id, user_id=dan.id, instance_id=first.id))
        db.session.commit()
    answer(answered, "dan", {"1": {"sub1": "smart"}})
    with answered.app_context():
        data = db.get_or_404(Dataset, dataset)
        rows = {row.annotator: row for row in progress_by_annotator(data)}
        assert sorted(rows) == ["ann", "bob", "cat", "dan"]  # eve is no member
        assert (rows["ann"].done, rows["ann"].total) == (2, 3)
        assert (rows["dan"].done, rows["dan"].total, rows["dan"].percent) == (1, 1, 100.0)
        assert rows["ann"].last_activity is not None


def test_dashboard_links_every_page_and_shows_percentages(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    with answered.app_context():  # a second dataset with nobody assigned
        other = SMALL_XML.replace(b"bright.a", b"dark.a")
        import_dataset(parse_lexsub_xml(other, "other.xml"), "other", "other.xml", other)
    login(client, "boss")
    html = client.get("/organiser/").get_data(as_text=True)
    section = html.split("<h2>small</h2>", 1)[1].split("<h2>", 1)[0]
    for page in (
        "members",
        "progress",
        "answers",
        "problems",
        "lemmas",
        "compile",
        "gold",
        "agreement",
        "scores",
        "export",
    ):
        assert f'href="/organiser/datasets/{dataset}/{page}"' in section, page
    assert f'href="/organiser/datasets/{dataset}"' in section  # name, archive, delete
    assert 'href="/organiser/users/bulk"' in html
    assert 'href="/organiser/rounds">Judgement rounds</a>' in html
    rows = [
        " ".join(re.sub(r"<[^>]+>", " ", row).split())
        for row in re.findall(r"<tr>(.*?)</tr>", section, re.DOTALL)[1:]
    ]
    assert rows[0].startswith("ann 2 / 3 67%") and rows[2].startswith("cat 2 / 3 67%")
    assert "No annotator assigned yet." in html.split("<h2>other</h2>", 1)[1]
