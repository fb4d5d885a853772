"""Simplification and complexity studies through the real app: a TSAR-layout and an
MLSP-layout file we wrote imported with ``lexsub import --format tsar``, the annotator's
page worded for the task, answers saved, and ``lexsub compile`` giving TSAR's gold layout
and MLSP's complexity layout line by line, with the ratings' alpha hand-computed."""

from __future__ import annotations

import json
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
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    study(app, tmp_path, "rated", RATED, ("ann", "bea"))
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
