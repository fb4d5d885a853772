"""Simplification and complexity studies through the real app: a TSAR-layout and an
MLSP-layout file we wrote imported with ``lexsub import --format tsar``, the annotator's
page worded for the task, answers saved, and ``lexsub compile`` giving TSAR's gold layout
and MLSP's complexity layout line by line, with the ratings' alpha hand-computed."""

from __future__ import annotations

import json
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import assign, instance_ids, login, make_user

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

SIMPLE = (
    "The prototype was shown.\tprototype\n"
    "They were compelled to leave.\tcompelled\tforced\n"
    "An arduous climb began.\tarduous\n"
)
RATED = (
    "en_1\tenglish\tThe prototype was shown.\tprototype\t0.5\n"
    "en_2\tenglish\tThey were compelled to leave.\tcompelled\t0.25\n"
    "en_3\tenglish\tAn arduous climb began.\tarduous\t0.75\n"
)


def study(app: Flask, tmp_path: Path, name: str, text: str, annotators: tuple[str, ...]) -> int:
    """The file imported as dataset ``name``, its annotators made members; its id."""
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Dataset

    path = tmp_path / f"{name}_en_test.tsv"
    path.write_text(text, encoding="utf-8")
    result = app.test_cli_runner().invoke(
        args=["lexsub", "import", str(path), "--dataset", name, "--format", "tsar"]
    )
    assert result.exit_code == 0, result.output
    with app.app_context():
        dataset_id = db.session.scalar(select(Dataset.id).where(Dataset.name == name))
    assert dataset_id is not None
    for annotator in annotators:
        make_user(app, annotator)
        assign(app, annotator, dataset_id)
    return dataset_id


def answer(client: FlaskClient, instance: int, **form: str) -> None:
    response = client.post(f"/annotate/{instance}", data=form)
    assert response.status_code == 302, response.data


def compile_into(app: Flask, name: str, out: Path) -> str:
    result = app.test_cli_runner().invoke(
        args=["lexsub", "compile", "--dataset", name, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_a_simplification_study_asks_for_simpler_words_and_compiles_to_tsar(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    study(app, tmp_path, "simple", SIMPLE, ("ann", "bea"))
    first, second, third = instance_ids(app)
    login(client, "ann")
    page = client.get(f"/annotate/{first}").get_data(as_text=True)
    assert "Give up to three simpler words or phrases that could replace the bold word" in page
    assert '<label for="sub1">Simpler word 1</label>' in page
    assert "Substitute 1" not in page
    answer(client, first, sub1="model", sub2="example")
    answer(client, second, sub1="forced")
    answer(client, third, nil="on")
    instructions = client.get("/instructions").get_data(as_text=True)
    assert "Simplification studies" in instructions
    assert "Complexity studies" not in instructions
    client.post("/logout")
    login(client, "bea")
    answer(client, first, sub1="example")
    answer(client, second, sub1="made", sub2="forced")
    output = compile_into(app, "simple", tmp_path / "out")
    assert "TSAR's gold layout" in output
    gold = (tmp_path / "out" / "tsar_gold.tsv").read_text(encoding="utf-8")
    assert gold.splitlines() == [
        "The prototype was shown.\tprototype\texample\texample\tmodel",
        "They were compelled to leave.\tcompelled\tforced\tforced\tmade",
    ]
    assert (tmp_path / "out" / "gold").exists()  # the substitution gold is there too


def test_a_complexity_study_rates_one_to_five_and_compiles_to_mlsp(
    app: Flask, client: FlaskClient, tmp_path: Path, organiser: FlaskClient
) -> None:
    dataset_id = study(app, tmp_path, "rated", RATED, ("ann", "bea"))
    first, second, third = instance_ids(app)
    login(client, "ann")
    page = client.get(f"/annotate/{first}").get_data(as_text=True)
    assert "<legend>How difficult is the bold word in this sentence?</legend>" in page
    for value, label in [
        (1, "very easy"),
        (3, "neither easy nor difficult"),
        (5, "very difficult"),
    ]:
        assert f'value="{value}"' in page
        assert f"> {value} · {label}</label>" in page
    assert 'id="sub1"' not in page
    refused = client.post(f"/annotate/{first}", data={"rating": "7"})
    assert refused.status_code == 200
    assert "Choose how difficult the word is, from 1 to 5." in refused.get_data(as_text=True)
    for instance, rating in zip((first, second, third), ("1", "3", "4"), strict=True):
        answer(client, instance, rating=rating)
    again = client.get(f"/annotate/{second}").get_data(as_text=True)
    assert 'value="3" checked' in again  # the saved rating comes back
    client.post("/logout")
    login(client, "bea")
    for instance, rating in zip((first, second, third), ("2", "3", "5"), strict=True):
        answer(client, instance, rating=rating)
    output = compile_into(app, "rated", tmp_path / "out")
    # units (1, 2), (3, 3), (4, 5): interval 1 - 5 * 4 / 120, ordinal 1 - 5 * 4 / 204
    assert "ordinal alpha 0.9020, interval alpha 0.8333" in output
    gold = (tmp_path / "out" / "lcp_gold.tsv").read_text(encoding="utf-8")
    assert gold.splitlines() == [
        "en_1\tenglish\tThe prototype was shown.\tprototype\t0.125",
        "en_2\tenglish\tThey were compelled to leave.\tcompelled\t0.5",
        "en_3\tenglish\tAn arduous climb began.\tarduous\t0.875",
    ]
    agreement = json.loads((tmp_path / "out" / "agreement.json").read_text(encoding="utf-8"))
    assert agreement["alpha"]["interval"] == pytest.approx(5 / 6, abs=1e-12)
    assert agreement["alpha"]["ordinal"] == pytest.approx(46 / 51, abs=1e-12)
    assert (agreement["units"], agreement["pairable"], agreement["seed"]) == (3, 3, 12345)
    assert not (tmp_path / "out" / "gold").exists()
    page = organiser.get(f"/organiser/datasets/{dataset_id}/agreement").get_data(as_text=True)
    assert "3 of 3 rated targets have two ratings or more" in page
    assert "<tr><td>ordinal</td><td>0.902</td>" in page  # 46 / 51
    assert "<tr><td>interval</td><td>0.833</td>" in page  # 5 / 6


def test_a_substitution_study_keeps_its_wording(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    page = client.get(f"/annotate/{instance_ids(app)[0]}").get_data(as_text=True)
    assert '<label for="sub1">Substitute 1</label>' in page
    assert "simpler" not in page
    assert "<legend>" not in page


def score(client: FlaskClient, dataset_id: int, system: bytes, against: str) -> str:
    response = client.post(
        f"/organiser/datasets/{dataset_id}/scores/benchmark",
        data={"system": (BytesIO(system), "mine.tsv"), "against": against},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200, response.data
    return response.get_data(as_text=True)


def test_a_simplification_system_is_scored_by_tsar_against_either_gold(
    app: Flask, client: FlaskClient, tmp_path: Path, organiser: FlaskClient
) -> None:
    dataset_id = study(app, tmp_path, "simple", SIMPLE, ("ann",))
    first, second, _ = instance_ids(app)
    login(client, "ann")
    answer(client, first, sub1="model")
    answer(client, second, sub1="made")
    page = organiser.get(f"/organiser/datasets/{dataset_id}/scores").get_data(as_text=True)
    assert "Score with TSAR-2022 (tsar_eval.py)" in page
    system = (
        b"The prototype was shown.\tprototype\tmodel\texample\n"
        b"They were compelled to leave.\tcompelled\tforced\tmade\n"
    )
    # the study's gold: item 1's top gold 'model' first (AP@1 1), item 2's 'made' second
    own = score(organiser, dataset_id, system, "study")
    assert "mine.tsv against the study&#39;s gold as compiled now" in own
    assert "<td>MAP@1/Potential@1/Precision@1</td><td>0.500000</td>" in own
    assert "<td>Potential@3</td><td>1.000000</td>" in own
    # the imported file's gold has only item 2 ('forced', the system's first): MAP@1 1
    imported = score(
        organiser, dataset_id, b"They were compelled to leave.\tcompelled\tforced\n", "reference"
    )
    assert "against the imported file&#39;s gold" in imported
    assert "<td>MAP@1/Potential@1/Precision@1</td><td>1.000000</td>" in imported
    assert "MAP@1/Potential@1/Precision@1 = 1.0" in imported


def test_a_complexity_system_is_scored_by_lcp_against_the_ratings(
    app: Flask, client: FlaskClient, tmp_path: Path, organiser: FlaskClient
) -> None:
    dataset_id = study(app, tmp_path, "rated", RATED, ("ann",))
    for instance, rating in zip(instance_ids(app), ("1", "3", "5"), strict=True):
        login(client, "ann")
        answer(client, instance, rating=rating)
    page = organiser.get(f"/organiser/datasets/{dataset_id}/scores").get_data(as_text=True)
    assert "Score with MLSP-2024 LCP (lcp_evaluate.py)" in page
    assert "Leaderboard" not in page
    # gold 0, 0.5, 1; predictions 0.1, 0.5, 0.9: errors 0.1, 0, 0.1
    result = score(organiser, dataset_id, b"en_1\t0.1\nen_2\t0.5\nen_3\t0.9\n", "study")
    assert "<td>pearson</td><td>1.000000</td>" in result
    assert "<td>mae</td><td>0.066667</td>" in result
    # against the file's gold (0.5, 0.25, 0.75): ranks (2, 1, 3) and (1, 2, 3), 1 - 6 * 2 / 24
    result = score(organiser, dataset_id, b"en_1\t0.1\nen_2\t0.5\nen_3\t0.9\n", "reference")
    assert "<td>spearman</td><td>0.500000</td>" in result


def test_a_system_missing_a_gold_id_is_refused_with_the_rule(
    app: Flask, client: FlaskClient, tmp_path: Path, organiser: FlaskClient
) -> None:
    dataset_id = study(app, tmp_path, "rated", RATED, ())
    response = organiser.post(
        f"/organiser/datasets/{dataset_id}/scores/benchmark",
        data={
            "system": (BytesIO(b"en_1\t0.1\n"), "mine.tsv"),
            "against": "reference",
        },
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "mine.tsv: no prediction for 2 gold ids: en_2, en_3" in response.get_data(as_text=True)


def test_the_organisers_pages_open_on_a_rated_study(
    app: Flask, client: FlaskClient, tmp_path: Path, organiser: FlaskClient
) -> None:
    dataset_id = study(app, tmp_path, "rated", RATED, ("ann",))
    login(client, "ann")
    answer(client, instance_ids(app)[0], rating="2")
    facts = organiser.get(f"/organiser/datasets/{dataset_id}/settings").get_data(as_text=True)
    assert (
        '<dd id="task">complexity: a 1-5 rating of the word (compiles to the MLSP-2024 layout); '
        "the gold of the imported file is kept as the reference</dd>"
    ) in facts
    agreement = organiser.get(f"/organiser/datasets/{dataset_id}/agreement").get_data(as_text=True)
    assert "No alpha yet: no target has two ratings (alpha needs pairable values)." in agreement
    pages = (
        "",
        "/settings",
        "/progress",
        "/compile",
        "/agreement",
        "/answers",
        "/problems",
        "/lemmas",
    )
    for page in (*pages, "/methods", "/members"):
        response = organiser.get(f"/organiser/datasets/{dataset_id}{page}")
        assert response.status_code == 200, (page, response.status_code)
    download = organiser.get(f"/organiser/datasets/{dataset_id}/gold?file=lcp_gold.tsv")
    assert download.get_data(as_text=True) == (
        "en_1\tenglish\tThe prototype was shown.\tprototype\t0.25\n"
    )


def test_any_format_imports_as_a_study_of_the_task_given(app: Flask, tmp_path: Path) -> None:
    from tests.test_importer_formats import TSV

    path = tmp_path / "ours.tsv"
    path.write_bytes(TSV)
    result = app.test_cli_runner().invoke(
        args=["lexsub", "import", str(path), "--dataset", "ours", "--task", "complexity"]
    )
    assert result.exit_code == 0, result.output
    assert "task complexity" in result.output
    refused = app.test_cli_runner().invoke(
        args=["lexsub", "import", str(path), "--dataset", "x", "--task", "rating"]
    )
    assert refused.exit_code == 2
    assert "'rating' is not one of 'substitution', 'simplification', 'complexity'" in (
        refused.output
    )
