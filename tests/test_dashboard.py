"""The organiser's dashboard: one row per dataset (task, language, progress, what needs
the organiser, last activity) linking to its home, the archived ones collapsed; and the
progress of each member against their own sentences."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import OTHER_XML, SMALL_XML, answer, login, make_user

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


def test_dashboard_lists_each_dataset_in_one_row(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Dataset
    from annotate.services.datasets import import_dataset, set_archived

    with answered.app_context():  # a second dataset with nobody assigned, and an archived one
        other = SMALL_XML.replace(b"bright.a", b"dark.a")
        second = import_dataset(parse_lexsub_xml(other, "other.xml"), "other", "other.xml", other)
        old = OTHER_XML.replace(b"bright.a", b"old.a")
        third = import_dataset(parse_lexsub_xml(old, "old.xml"), "old", "old.xml", old)
        set_archived(db.get_or_404(Dataset, third.dataset.id), True)
        ids = (second.dataset.id, third.dataset.id)
    login(client, "boss")
    html = client.get("/organiser/").get_data(as_text=True)
    rows = {
        name: row
        for name, row in re.findall(
            r'<tr id="dataset-\d+"><td><a href="[^"]+">([^<]+)</a>(.*?)</tr>', html, re.DOTALL
        )
    }
    assert sorted(rows) == ["other", "small"]  # the archived one is not a row
    text = {name: " ".join(re.sub(r"<[^>]+>", " ", row).split()) for name, row in rows.items()}
    # ann, bob and cat each answered 2 of the 3 sentences; one lemma change ('tolerated')
    # awaits review; 'never' saved in the other dataset
    assert text["small"].startswith("substitution en 6 / 9 1 ")
    assert text["other"] == "substitution en 0 / 0 0 never"
    for name, row in rows.items():  # the name and at most two more links a row
        assert row.count("<a ") <= 2, name
    assert f'href="/organiser/datasets/{dataset}">small</a>' in html
    archived = html.split('<details id="archived">', 1)[1].split("</details>", 1)[0]
    assert "<summary>Archived datasets (1)</summary>" in archived
    assert f'href="/organiser/datasets/{ids[1]}">old</a>' in archived
    assert 'href="/organiser/users/bulk"' in html
    assert 'href="/organiser/rounds">Judgement rounds</a>' in html
