"""Datasets renamed, archived (hidden from annotators, kept) and deleted (only after
typing the name, in one transaction, every row of the dataset gone)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from annotate.extensions import db
from annotate.importer import parse_lexsub_xml
from annotate.models import (
    AnnotatorExclusion,
    Dataset,
    Instance,
    LemmaDecision,
    Response,
    Revision,
    SystemRun,
    User,
)
from annotate.services.datasets import import_dataset
from annotate.services.study import open_study, participant
from tests.conftest import OTHER_XML, assign, instance_ids, login, make_round, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def _import(app: Flask, data: bytes, name: str) -> int:
    with app.app_context():
        return import_dataset(
            parse_lexsub_xml(data, f"{name}.xml"), name, f"{name}.xml", data
        ).dataset.id


def _answer(app: Flask, username: str, dataset_id: int) -> None:
    """An answer and its revision by ``username`` to every sentence of the dataset."""
    with app.app_context():
        user = db.session.scalars(select(User).where(User.username == username)).one()
        for instance_id in db.session.scalars(
            select(Instance.id).where(Instance.dataset_id == dataset_id)
        ):
            db.session.add(
                Response(
                    user_id=user.id, instance_id=instance_id, kind="substitutes", substitutes=["x"]
                )
            )
            db.session.add(
                Revision(
                    user_id=user.id, instance_id=instance_id, kind="substitutes", substitutes=["x"]
                )
            )
        db.session.commit()


def _counts(app: Flask) -> dict[str, int]:
    """Rows in every table of the schema."""
    with app.app_context():
        return {
            table.name: db.session.scalar(select(func.count()).select_from(table)) or 0
            for table in db.metadata.sorted_tables
        }


def test_rename_keeps_everything_and_refuses_a_taken_name(
    app: Flask, organiser: FlaskClient, dataset: int
) -> None:
    _import(app, OTHER_XML, "other")
    url = f"/organiser/datasets/{dataset}/settings"
    page = organiser.post(url, data={"action": "rename", "name": "other"}, follow_redirects=True)
    assert "Not renamed: a dataset is named &#39;other&#39; already" in page.get_data(as_text=True)
    page = organiser.post(
        url, data={"action": "rename", "name": " lexsub-2007 "}, follow_redirects=True
    )
    assert "Dataset small is now named lexsub-2007." in page.get_data(as_text=True)
    with app.app_context():
        renamed = db.session.get(Dataset, dataset)
        assert renamed is not None and renamed.name == "lexsub-2007"
        assert renamed.sentences == 3 and renamed.source == "small.xml"
    page = organiser.post(url, data={"action": "rename", "name": "   "}, follow_redirects=True)
    assert "Not renamed" in page.get_data(as_text=True)


def test_archive_hides_the_dataset_from_annotators_and_unarchive_brings_it_back(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    make_user(app, "boss", "organiser")
    make_user(app, "ann")
    assign(app, "ann", dataset)
    first = instance_ids(app)[0]
    with app.app_context():
        token = open_study(db.get_or_404(Dataset, dataset))
    login(client, "boss")
    client.post(f"/organiser/datasets/{dataset}/settings", data={"action": "archive"})
    dashboard = client.get("/organiser/").get_data(as_text=True)
    assert "Archived datasets" in dashboard and f'/organiser/datasets/{dataset}">small' in dashboard
    assert client.get(f"/annotate/{first}").status_code == 200  # organisers still open it
    client.post("/logout")
    login(client, "ann")
    assert "small" not in client.get("/").get_data(as_text=True)
    assert client.get(f"/annotate/{first}").status_code == 404
    assert (
        client.post(
            f"/annotate/{first}", data={"kind": "substitutes", "substitutes": "clever"}
        ).status_code
        == 404
    )
    assert client.get(f"/annotate/dataset/{dataset}").status_code == 404
    client.post("/logout")
    closed = client.get(f"/study/{token}?PROLIFIC_PID=abc")  # closed, never a bare 404
    assert closed.status_code == 410 and "This study is closed" in closed.get_data(as_text=True)
    with app.app_context():  # kept: the participant was refused, the member stays
        assert (
            db.session.scalar(
                select(func.count()).select_from(User).where(User.study_id == dataset)
            )
            == 0
        )
    login(client, "boss")
    client.post(f"/organiser/datasets/{dataset}/settings", data={"action": "unarchive"})
    client.post("/logout")
    login(client, "ann")
    assert client.get(f"/annotate/{first}").status_code == 200


def test_delete_needs_the_typed_name_and_leaves_no_row_of_the_dataset(
    app: Flask, organiser: FlaskClient, dataset: int
) -> None:
    other = _import(app, OTHER_XML, "other")
    make_user(app, "ann")
    make_user(app, "both")
    assign(app, "both", other)
    _answer(app, "both", other)
    baseline = _counts(app)  # the other dataset and its annotator, nothing of 'small'

    assign(app, "ann", dataset)
    assign(app, "both", dataset)
    _answer(app, "ann", dataset)
    _answer(app, "both", dataset)
    with app.app_context():
        small = db.get_or_404(Dataset, dataset)
        open_study(small)
        only_here = participant(small, "p1")
        elsewhere = participant(small, "p2")
        db.session.add(LemmaDecision(dataset_id=dataset, surface="clever", action="accept"))
        db.session.add(
            AnnotatorExclusion(dataset_id=dataset, user_id=only_here.id, reason="speeder")
        )
        db.session.add(
            SystemRun(dataset_id=dataset, file_name="s.best", content="", sha256="0", kind="best")
        )
        db.session.commit()
        names = only_here.username, elsewhere.username
    _answer(app, names[0], dataset)
    assign(app, names[1], other)  # p2 is also a member of the other dataset: kept
    round_id = make_round(app, "from small")
    with app.app_context():
        from annotate.models import JudgementRound

        found = db.get_or_404(JudgementRound, round_id)
        found.dataset_id = dataset
        db.session.commit()
    before = _counts(app)

    page = organiser.get(f"/organiser/datasets/{dataset}/delete").get_data(as_text=True)
    assert (
        f"/organiser/datasets/{dataset}/export" in page
        and f"/organiser/datasets/{dataset}/gold" in page
    )
    assert "<td>responses</td><td>9</td>" in page  # ann, both and p1: 3 sentences each
    assert "<td>instances</td><td>3</td>" in page
    assert f"deleted with it (made by its study link, used nowhere else): {names[0]}." in page
    assert (
        f"Participant accounts kept (they have answers or judgements elsewhere): {names[1]}."
        in page
    )
    assert "1 in judgement_rounds" in page
    assert _counts(app) == before  # the preview changed nothing

    refused = organiser.post(
        f"/organiser/datasets/{dataset}/delete", data={"name": "smal"}, follow_redirects=True
    )
    assert (
        "Not deleted: type the dataset&#39;s name &#39;small&#39; to delete it"
        in refused.get_data(as_text=True)
    )
    assert _counts(app) == before

    done = organiser.post(
        f"/organiser/datasets/{dataset}/delete", data={"name": "small"}, follow_redirects=True
    )
    assert (
        "Dataset small deleted: 9 answers, 3 sentences, 1 participant accounts."
        in done.get_data(as_text=True)
    )
    after = _counts(app)
    # the baseline had small's own words and sentences (imported by the fixture); after
    # it came p2 (kept, with their membership of the other dataset) and the round (kept);
    # the deletion leaves its audit line
    changes = {
        "dataset_deletions": 1,
        "datasets": -1,
        "lexelts": -2,
        "instances": -3,
        "users": 1,
        "dataset_members": 1,
        "judgement_rounds": 1,
        "round_items": 1,
        "round_candidates": 2,
    }
    expected = {table: baseline[table] + changes.get(table, 0) for table in baseline}
    assert after == expected  # p2 stays in users; every other row of 'small' is gone
    with app.app_context():
        assert db.session.get(Dataset, dataset) is None
        kept = db.session.scalars(select(User).where(User.username == names[1])).one()
        assert kept.study_id is None
        assert db.get_or_404(JudgementRound, round_id).dataset_id is None


def test_the_commands_rename_archive_and_delete(app: Flask, dataset: int) -> None:
    runner = app.test_cli_runner()
    make_user(app, "ann")
    assign(app, "ann", dataset)
    _answer(app, "ann", dataset)

    def run(*args: str) -> tuple[int, str]:
        result = runner.invoke(args=["lexsub", "dataset", *args])
        return result.exit_code, result.output

    assert run("rename", "small", "lexsub-2007") == (
        0,
        "renamed dataset 'small' to 'lexsub-2007'\n",
    )
    assert run("rename", "small", "x") == (1, "Error: no dataset 'small'\n")
    assert run("archive", "lexsub-2007") == (0, "dataset 'lexsub-2007' archived\n")
    with app.app_context():
        found = db.session.get(Dataset, dataset)
        assert found is not None and found.archived_at is not None
    assert run("archive", "lexsub-2007", "--undo") == (0, "dataset 'lexsub-2007' unarchived\n")
    before = _counts(app)
    preview = (
        "  dataset_members: 1 rows\n"
        "  datasets: 1 rows\n"
        "  instances: 3 rows\n"
        "  lexelts: 2 rows\n"
        "  responses: 3 rows\n"
        "  revisions: 3 rows\n"
    )
    assert run("delete", "lexsub-2007") == (
        0,
        "would delete (confirm with --confirm 'lexsub-2007') dataset 'lexsub-2007':\n" + preview,
    )
    assert _counts(app) == before
    assert run("delete", "lexsub-2007", "--confirm", "small") == (
        1,
        "Error: type the dataset's name 'lexsub-2007' to delete it (typed 'small')\n",
    )
    assert run("delete", "lexsub-2007", "--confirm", "lexsub-2007") == (
        0,
        "deleted dataset 'lexsub-2007':\n" + preview,
    )
    after = _counts(app)
    assert {
        table: before[table] - after[table] for table in before if before[table] != after[table]
    } == {
        "dataset_deletions": -1,  # the audit line the deletion leaves
        "dataset_members": 1,
        "datasets": 1,
        "instances": 3,
        "lexelts": 2,
        "responses": 3,
        "revisions": 3,
    }
