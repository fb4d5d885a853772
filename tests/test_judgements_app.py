"""Judgement rounds in the app: building a post hoc round (pure:
sampling, candidates; and through the organiser's page), rows files, judges, the
judging screen (labels, resume, revisions, a session that ended), the export in the
judgements format, the report page and the ``lexsub round`` commands."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scoring.errors import FormatError
from scoring.formats.judgements import parse_judgements
from scoring.judgements.rounds import GoldItem, Sentence, parse_rows, posthoc_round
from tests.conftest import login, make_user

# --- pure: sampling and rows ------------------------------------------------------------------

GOLD = (
    GoldItem("1", "w.n", ("glad", "happy", "merry", "cheerful person"), 0, 0),  # eligible
    GoldItem("2", "w.n", ("glad", "happy"), 0, 0),  # two single words only
    GoldItem("3", "w.n", ("a", "b", "c"), 1, 0),  # a name answer
    GoldItem("4", "w.n", ("a", "b", "c"), 0, 2),  # a multiword for two annotators
    GoldItem("5", "v.v", ("x", "y", "Z "), 0, 1),  # eligible
    GoldItem("6", "v.v", ("Run-down", "tired", "weary"), 0, 0),  # eligible
)
SYSTEMS = {"s1": {"1": ["Happy", "joyful"], "6": ["run down"]}, "s2": {"1": ["joyful"], "5": ["y"]}}
SENTENCES = {str(i): Sentence("a ", "word", f" {i}") for i in range(1, 7)}


def test_posthoc_sampling_follows_the_papers_rule() -> None:
    plan = posthoc_round(GOLD, SYSTEMS, SENTENCES, 3, 1)
    assert [item.id for item in plan.items] == ["1", "5", "6"]
    assert plan.eligible == 3 and plan.seed == 1 and plan.systems == ("s1", "s2")
    first = {c.text: c.origin for c in plan.items[0].candidates}
    assert first == {
        "glad": ("human",),
        "happy": ("human", "s1"),  # normalised: Happy
        "merry": ("human",),
        "cheerful person": ("human",),
        "joyful": ("s1", "s2"),
    }
    assert {c.text: c.origin for c in plan.items[1].candidates} == {
        "x": ("human",),
        "y": ("human", "s2"),
        "z": ("human",),
    }
    assert {c.text: c.origin for c in plan.items[2].candidates}["run-down"] == ("human", "s1")
    again = posthoc_round(GOLD, SYSTEMS, SENTENCES, 3, 1)
    assert again == plan  # a seed gives the same round, order of candidates included
    orders = {
        tuple(c.text for c in posthoc_round(GOLD, SYSTEMS, SENTENCES, 3, seed).items[0].candidates)
        for seed in range(20)
    }
    assert len(orders) > 1  # the order is random
    assert [i.id for i in posthoc_round(GOLD, SYSTEMS, SENTENCES, 2, 3).items] in (
        ["1", "5"],
        ["1", "6"],
        ["5", "6"],
    )
    with pytest.raises(ValueError, match="sample size 4 but only 3 of 6 items qualify"):
        posthoc_round(GOLD, SYSTEMS, SENTENCES, 4, 1)


def test_rows_files() -> None:
    plan = parse_rows(
        [
            "sentence\ttarget\tcandidate\torigin",
            "The <head>bright</head> boy .\tbright\tclever\thuman",
            "The <head>bright</head> boy .\tbright\tshiny\tsysA, sysB",
            "He sold the house.\tsell\tpurchase\t",
        ],
        "r.tsv",
    )
    assert [item.id for item in plan.items] == ["1", "2"]
    assert plan.items[0].sentence == Sentence("The ", "bright", " boy .")
    assert [(c.text, c.origin) for c in plan.items[0].candidates] == [
        ("clever", ("human",)),
        ("shiny", ("sysA", "sysB")),
    ]
    assert plan.items[1].sentence == Sentence("He sold the house.", "", "")
    assert plan.items[1].word == "sell"
    with pytest.raises(FormatError, match=r"r.tsv:1: header"):
        parse_rows(["sentence\tcandidate"], "r.tsv")
    with pytest.raises(FormatError, match=r"r.tsv:2: 2 fields, the header names 3"):
        parse_rows(["sentence\ttarget\tcandidate", "a\tb"], "r.tsv")


# --- the app ----------------------------------------------------------------------------------

GOLD_FILE = (
    "bright.a 1 :: clever 2;smart 1;intelligent 1;\n"
    "bright.a 2 :: shining 2;luminous 1;vivid 1;\n"
    "stand.n.v 3 :: bear 2;tolerate 1;\n"
)
SYSTEM_FILE = "bright.a 1 :: clever;brainy\nbright.a 2 :: dark\nstand.n.v 3 :: endure\n"


def _create(client: FlaskClient, dataset: int, name: str = "ph") -> int:
    response = client.post(
        "/organiser/rounds",
        data={
            "action": "posthoc",
            "name": name,
            "dataset": str(dataset),
            "sample": "2",
            "seed": "5",
            "labels": "posthoc",
            "layout": "sentence",
            "gold": (io.BytesIO(GOLD_FILE.encode()), "gold.txt"),
            "systems": (io.BytesIO(SYSTEM_FILE.encode()), "sys.best"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


@pytest.fixture
def posthoc(app: Flask, client: FlaskClient, dataset: int) -> int:
    make_user(app, "boss", "organiser")
    for name in ("j1", "j2", "j3", "other"):
        make_user(app, name)
    login(client, "boss")
    round_id = _create(client, dataset)
    from annotate.extensions import db
    from annotate.models import User

    with app.app_context():
        ids = {u.username: u.id for u in db.session.scalars(select(User))}
    response = client.post(
        f"/organiser/rounds/{round_id}", data={"user": [str(ids[j]) for j in ("j1", "j2", "j3")]}
    )
    assert response.status_code == 302
    return round_id


def _candidates(client: FlaskClient, url: str) -> dict[str, str]:
    """field name → candidate text on a judging screen."""
    page = client.get(url).get_data(as_text=True)
    pattern = (
        r'<span class="candidate-text">([^<]*)</span></legend>\s*'
        r'<label><input type="radio" name="(c\d+)"'
    )
    return {name: text for text, name in re.findall(pattern, page)}


LABELS = {  # judge → candidate → label
    "j1": {
        "clever": "good",
        "smart": "good",
        "intelligent": "reasonable",
        "brainy": "bad",
        "shining": "good",
        "luminous": "reasonable",
        "vivid": "bad",
        "dark": "bad",
    },
    "j2": {
        "clever": "good",
        "smart": "reasonable",
        "intelligent": "reasonable",
        "brainy": "reasonable",
        "shining": "good",
        "luminous": "good",
        "vivid": "bad",
        "dark": "bad",
    },
    "j3": {
        "clever": "good",
        "smart": "bad",
        "intelligent": "good",
        "brainy": "bad",
        "shining": "reasonable",
        "luminous": "bad",
        "vivid": "reasonable",
        "dark": "bad",
    },
}


def _judge_all(app: Flask, round_id: int, judge: str) -> None:
    client = app.test_client()
    login(client, judge)
    for screen in (1, 2):
        fields = _candidates(client, f"/judge/{round_id}/{screen}")
        data = {name: LABELS[judge][text] for name, text in fields.items()}
        response = client.post(f"/judge/{round_id}/{screen}", data=data)
        assert response.status_code == 302


def test_organiser_pages_refuse_annotators(app: Flask, posthoc: int) -> None:
    client = app.test_client()
    login(client, "j1")
    for url in (
        "/organiser/rounds",
        f"/organiser/rounds/{posthoc}",
        f"/organiser/rounds/{posthoc}/report",
        f"/organiser/rounds/{posthoc}/export",
    ):
        assert client.get(url).status_code == 403, url
    other = app.test_client()
    login(other, "other")  # not a judge of the round
    assert other.get(f"/judge/{posthoc}").status_code == 404
    assert other.get(f"/judge/{posthoc}/1").status_code == 404


def test_a_post_hoc_round_judged_and_reported(
    app: Flask, client: FlaskClient, posthoc: int
) -> None:
    round_page = client.get(f"/organiser/rounds/{posthoc}").get_data(as_text=True)
    assert 'sampled from 2 eligible items with seed <strong id="seed">5</strong>' in round_page
    judge = app.test_client()
    login(judge, "j1")
    assert judge.get(f"/judge/{posthoc}").headers["Location"].endswith(f"/judge/{posthoc}/1")
    fields = _candidates(judge, f"/judge/{posthoc}/1")
    assert sorted(fields.values()) == ["brainy", "clever", "intelligent", "smart"]
    # a screen sent with one label: it is saved, the others are asked for
    first = sorted(fields)[0]
    page = judge.post(f"/judge/{posthoc}/1", data={first: "good"})
    assert page.status_code == 200 and "3 have no label yet" in page.get_data(as_text=True)
    assert judge.get(f"/judge/{posthoc}").headers["Location"].endswith("/1")  # resume
    _judge_all(app, posthoc, "j1")  # relabels screen 1 and labels screen 2
    assert judge.get(f"/judge/{posthoc}").headers["Location"].endswith("/done")
    for name in ("j2", "j3"):
        _judge_all(app, posthoc, name)
    from annotate.extensions import db
    from annotate.models import CandidateLabel, LabelRevision

    with app.app_context():
        assert db.session.scalar(select(func.count(CandidateLabel.id))) == 24
        assert db.session.scalar(select(func.count(LabelRevision.id))) == 25  # one relabel
    exported = client.get(f"/organiser/rounds/{posthoc}/export").get_data(as_text=True)
    judgements = parse_judgements(exported.splitlines())
    assert len(judgements) == 24
    origins = {j.candidate: j.origin for j in judgements}
    assert origins["clever"] == ("human", "sys.best") and origins["dark"] == ("sys.best",)
    # verdicts: clever good, smart reasonable (g r b), intelligent reasonable, brainy bad,
    # shining good, luminous reasonable, vivid bad, dark bad
    # sys = clever, brainy, dark: good 1, bad 2; origA = the six human ones: good 2,
    # reasonable 3, bad 1
    report = client.get(f"/organiser/rounds/{posthoc}/report").get_data(as_text=True)
    assert re.search(
        r"<th scope=\"row\">sys</th><td>3</td><td>33.33</td><td>0.00</td><td>66.67</td>", report
    )
    assert re.search(
        r"<th scope=\"row\">origA</th><td>6</td><td>33.33</td><td>50.00</td><td>16.67</td>", report
    )
    assert re.search(r"<th scope=\"row\">both</th><td>1</td><td>100.00</td>", report)
    assert "<svg" in report and 'Fleiss\' kappa <strong id="kappa">' in report
    # judges by pseudonym (j1, j2, j3 by their accounts' creation), not their usernames
    assert "3 judges\n(A1, A2, A3)." in report
    assert not re.search(r">j[123]<|\bj[123]\b", report)
    # verdict colours that mean something: good and reasonable blue (darker for good),
    # bad vermillion (Okabe & Ito's colour-blind safe palette), never bad in green
    for label, colour in (("good", "#0072b2"), ("reasonable", "#56b4e9"), ("bad", "#d55e00")):
        assert re.search(rf'fill="{colour}"/><text [^>]*>{label}</text>', report), label
    assert "#4e9a06" not in report
    assert "<caption>Table 11 of McCarthy &amp; Navigli (2009): verdicts on" in report


def test_labels_sent_after_the_session_ended_are_kept(app: Flask, posthoc: int) -> None:
    judge = app.test_client()
    login(judge, "j1")
    fields = _candidates(judge, f"/judge/{posthoc}/1")
    judge.post("/logout")
    data = {name: "bad" for name in fields}
    response = judge.post(f"/judge/{posthoc}/1", data=data)
    assert "/login" in response.headers["Location"]
    login(judge, "j1")
    page = judge.get(f"/judge/{posthoc}/1").get_data(as_text=True)
    assert "not saved yet" in page
    assert page.count('value="bad" data-key="b" checked') == len(fields)


def test_the_round_commands(app: Flask, dataset: int, tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text(GOLD_FILE, "utf-8")
    system = tmp_path / "sys.best"
    system.write_text(SYSTEM_FILE, "utf-8")
    make_user(app, "j1")
    runner = app.test_cli_runner()
    result = runner.invoke(
        args=[
            "lexsub",
            "round",
            "create",
            "cli-round",
            "--dataset",
            "small",
            "--gold",
            str(gold),
            "--system",
            str(system),
            "--sample",
            "2",
            "--seed",
            "9",
        ]
    )
    assert result.exit_code == 0, result.output
    assert result.output == (
        "created round 'cli-round' (posthoc, posthoc, sentence): 2 items, 8 candidates "
        "sampled from 2 eligible items with seed 9\n"
    )
    result = runner.invoke(args=["lexsub", "round", "assign", "cli-round", "j1"])
    assert result.output == "j1 assigned to round 'cli-round'\n"
    out = tmp_path / "out.jsonl"
    result = runner.invoke(args=["lexsub", "round", "export", "cli-round", "--out", str(out)])
    assert result.output == f"wrote 0 judgements to {out}\n"
    result = runner.invoke(
        args=[
            "lexsub",
            "round",
            "create",
            "bad",
            "--dataset",
            "small",
            "--gold",
            str(gold),
            "--system",
            str(system),
            "--sample",
            "3",
        ]
    )
    assert result.exit_code == 1
    assert "sample size 3 but only 2 of 3 items qualify" in result.output
    rows = tmp_path / "rows.tsv"
    rows.write_text(
        "sentence\ttarget\tcandidate\nA <head>bright</head> day\tbright\tsunny\n", "utf-8"
    )
    result = runner.invoke(args=["lexsub", "round", "create", "lr", "--rows", str(rows)])
    assert result.output == (
        "created round 'lr' (rows, lexical-reference, sentence): 1 items, 1 candidates\n"
    )
    result = runner.invoke(args=["lexsub", "round", "report", "lr"])
    assert result.exit_code == 1 and "no judgements" in result.output


def test_a_lexical_reference_round_ranks_models_on_the_report_page(
    app: Flask, client: FlaskClient
) -> None:
    make_user(app, "boss", "organiser")
    for name in ("a", "b"):
        make_user(app, name)
    login(client, "boss")
    rows = "sentence\ttarget\tcandidate\titem\n" + "".join(
        f"Text {i}.\tw\tw\t{i}\n" for i in range(6)
    )
    response = client.post(
        "/organiser/rounds",
        data={
            "action": "rows",
            "name": "lr",
            "labels": "lexical-reference",
            "layout": "candidate",
            "rows": (io.BytesIO(rows.encode()), "rows.tsv"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    round_id = int(response.headers["Location"].rsplit("/", 1)[1])
    runner = app.test_cli_runner()
    assert runner.invoke(args=["lexsub", "round", "assign", "lr", "a", "b"]).exit_code == 0
    labels = ["true-word", "false", "true-phrase", "true-word", "false", "false"]
    for name in ("a", "b"):
        judge = app.test_client()
        login(judge, name)
        for screen, label in enumerate(labels, 1):
            (field,) = _candidates(judge, f"/judge/{round_id}/{screen}")
            assert judge.post(f"/judge/{round_id}/{screen}", data={field: label}).status_code == 302
    scores = "".join(
        json.dumps({"item": str(i), "candidate": "w", "score": s, "model": "m"}) + "\n"
        for i, s in enumerate([0.9, 0.8, 0.8, 0.5, 0.5, 0.1])
    )
    page = client.post(
        f"/organiser/rounds/{round_id}/report",
        data={"scores": (io.BytesIO(scores.encode()), "m.jsonl")},
        content_type="multipart/form-data",
    ).get_data(as_text=True)
    # AP = 34/45 = 0.7556 and AUC = 7/9 = 0.7778 (tests/test_judgements.py, by hand)
    assert '<th scope="row">m</th><td>0.7556</td><td>0.7778</td>' in page
    assert page.count("<svg") == 3  # the tables' chart, recall-precision, ROC
    assert 'Fleiss\' kappa <strong id="kappa">1.000</strong>' in page
