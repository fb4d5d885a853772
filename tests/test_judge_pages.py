"""The judges' pages as annotator pages: in the language of
the round's dataset (German, Italian; English otherwise, and for a round of no dataset),
the English texts as they were; the header's *Judging* link for a judge; a judge with no
unfinished dataset lands on /judge after logging in."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.i18n import LABEL_TITLES
from scoring.judgements.labels import LABEL_SETS
from tests.conftest import assign, login, make_user

pytestmark = pytest.mark.database

GERMAN = """<?xml version="1.0" encoding="utf-8"?>
<corpus lang="german">
  <lexelt item="Haus.n">
    <instance id="h1"><context>Die <head>Häuser</head> am Fluss sind alt.</context></instance>
  </lexelt>
</corpus>"""
ROWS = (
    "sentence\ttarget\tcandidate\titem\n"
    "Die <head>Häuser</head> am Fluss sind alt.\tHaus\tGebäude\th1\n"
    "Die <head>Häuser</head> am Fluss sind alt.\tHaus\tWohnungen\th1\n"
)
ENGLISH_ROWS = "sentence\ttarget\tcandidate\nA <head>bright</head> day.\tbright\tsunny\n"


def _round(app: Flask, name: str, rows: str, judges: tuple[str, ...], german: bool) -> int:
    """A lexical-reference round made through annotate.services.rounds (of the German dataset, or
    of no dataset), with ``judges`` assigned."""
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Dataset, User
    from annotate.services.datasets import import_dataset
    from annotate.services.rounds import assign_judge, create_round
    from scoring.judgements.rounds import parse_rows

    with app.app_context():
        dataset = None
        if german:
            dataset = db.session.scalar(select(Dataset).where(Dataset.name == "haus"))
            if dataset is None:
                data = GERMAN.encode("utf-8")
                dataset = import_dataset(
                    parse_lexsub_xml(data, "haus.xml"), "haus", "haus.xml", data
                ).dataset
                dataset.language = "de"
                db.session.commit()
        made = create_round(
            parse_rows(rows.splitlines(), "rows.tsv"),
            name,
            "rows",
            "lexical-reference",
            "sentence",
            dataset,
            "boss",
        )
        for judge in judges:
            user = db.session.scalars(select(User).where(User.username == judge)).one()
            assign_judge(user, made)
        return made.id


def _title(page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", page, re.S)
    assert found is not None
    return found.group(1)


def test_a_round_of_a_german_dataset_is_judged_in_german(app: Flask, client: FlaskClient) -> None:
    make_user(app, "jo")
    round_id = _round(app, "Haus Referenz", ROWS, ("jo",), german=True)
    login(client, "jo")
    page = client.get(f"/judge/{round_id}/1").get_data(as_text=True)
    assert '<html lang="de">' in page and "<body>" in page
    assert _title(page) == "Seite 1 von 1 · Runde Haus Referenz · lexsub"
    assert "<h1>Runde Haus Referenz: Seite 1 von 1</h1>" in page
    assert (
        '<p class="sentence" id="sentence" lang="de">Die <mark class="target"><b>Häuser</b>'
        "</mark> am Fluss sind alt.</p>"
    ) in page
    assert 'id="target-word">Zielwort: <span lang="de">Häuser</span></p>' in page
    for text in (
        "0 / 2 Kandidaten bewertet",
        'aria-label="Bewertete Kandidaten"',
        "Wie gut ersetzt jeder Kandidat das fett gedruckte Wort in diesem Satz?",
        '<legend lang="de"><span class="candidate-text">Gebäude</span></legend>',
        "Wahr: ein Wort <kbd>W</kbd>",
        "Wahr: eine Wendung <kbd>P</kbd>",
        "Wahr: der Kontext <kbd>C</kbd>",
        "Falsch <kbd>F</kbd>",
        '<button type="submit" id="save">Speichern und weiter</button>',
        "Tasten: W Wahr: ein Wort · P Wahr: eine Wendung",
        '<a href="/judge" id="judging-link">Bewerten</a>',
        '<button type="submit">Abmelden</button>',
    ):
        assert text in page, text
    assert "Save and next" not in page and "True: a word" not in page
    fields = re.findall(r'name="(c\d+)" value="false"', page)
    assert len(fields) == 2

    # one label of two: the error, in German, tied to the unlabelled candidate
    page = client.post(f"/judge/{round_id}/1", data={fields[0]: "false"}).get_data(as_text=True)
    assert _title(page) == "Fehler: Seite 1 von 1 · Runde Haus Referenz · lexsub"
    assert (
        '<p id="missing-labels">Bewerten Sie jeden Kandidaten: 1 ist noch nicht bewertet. '
        "Die anderen sind gespeichert.</p>"
    ) in page
    assert re.search(
        rf'id="candidate-{fields[1][1:]}" aria-invalid="true" '
        r'aria-describedby="missing-labels target-word"',
        page,
    )
    assert re.search(rf'id="candidate-{fields[0][1:]}" aria-describedby="target-word"', page)

    # both: saved (in German), and the round is finished
    response = client.post(
        f"/judge/{round_id}/1", data={fields[1]: "true-word"}, follow_redirects=True
    )
    page = response.get_data(as_text=True)
    assert '<p class="flash info" role="status">Gespeichert.</p>' in page
    assert _title(page) == "Runde Haus Referenz abgeschlossen · lexsub"
    assert "<h1>Runde Haus Referenz: abgeschlossen</h1>" in page
    assert "Sie haben jeden Kandidaten dieser Runde bewertet." in page
    page = client.get("/judge").get_data(as_text=True)
    assert "<h1>Bewerten</h1>" in page and "Haus Referenz</a>: 2 / 2 Kandidaten bewertet" in page


def test_the_italian_catalogue_is_used_for_an_italian_round(
    app: Flask, client: FlaskClient
) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset

    make_user(app, "jo")
    round_id = _round(app, "casa", ROWS, ("jo",), german=True)
    with app.app_context():
        db.session.scalars(select(Dataset)).one().language = "it"
        db.session.commit()
    login(client, "jo")
    page = client.get(f"/judge/{round_id}/1").get_data(as_text=True)
    assert '<html lang="it">' in page
    assert _title(page) == "Schermata 1 di 1 · sessione casa · lexsub"
    assert "Vero: una parola <kbd>W</kbd>" in page and "Falso <kbd>F</kbd>" in page
    assert "Salva e continua" in page and ">Valutazione</a>" in page


def test_english_rounds_keep_their_texts(app: Flask, client: FlaskClient) -> None:
    """A round of no dataset is English, even for a judge whose dataset is German; the
    judge's list of two rounds in two languages is English too."""
    make_user(app, "jo")
    english = _round(app, "bright", ENGLISH_ROWS, ("jo",), german=False)
    _round(app, "Haus Referenz", ROWS, ("jo",), german=True)
    login(client, "jo")
    page = client.get(f"/judge/{english}/1").get_data(as_text=True)
    assert '<html lang="en">' in page
    assert _title(page) == "Screen 1 of 1 · round bright · lexsub"
    assert 'id="sentence">A <mark class="target"><b>bright</b></mark> day.</p>' in page
    for text in (
        "<h1>Round bright: screen 1 of 1</h1>",
        "0 / 1 candidates labelled",
        "True: a word <kbd>W</kbd>",
        "How good is each candidate as a substitute for the word in bold, in this sentence?",
        '<button type="submit" id="save">Save and next</button>',
        '<a href="/judge" id="judging-link">Judging</a>',
    ):
        assert text in page, text
    page = client.get("/judge").get_data(as_text=True)
    assert '<html lang="en">' in page and "<h1>Judging</h1>" in page
    assert "Haus Referenz</a>: 0 / 2 candidates labelled" in page


def test_every_label_title_is_a_msgid() -> None:
    titles = {title for labels in LABEL_SETS.values() for title in labels.titles}
    assert titles == set(LABEL_TITLES)


def test_a_judge_finds_the_judging(app: Flask, client: FlaskClient, dataset: int) -> None:
    """Judging link for judges only; a judge with nothing left to annotate lands on
    /judge, one with an unfinished dataset on its sentence, as before."""
    make_user(app, "boss", "organiser")
    for name in ("jo", "ann", "bob"):
        make_user(app, name)
    assign(app, "ann", dataset)
    assign(app, "bob", dataset)
    _round(app, "bright", ENGLISH_ROWS, ("jo", "ann"), german=False)
    response = client.post("/login", data={"username": "jo", "password": "password1"})
    assert response.headers["Location"] == "/judge"
    home = client.get("/").get_data(as_text=True)
    assert '<a href="/judge" id="judging-link">Judging</a>' in home
    for name, where in (("ann", "/annotate/"), ("bob", "/annotate/"), ("boss", "/organiser/")):
        other = app.test_client()
        response = other.post("/login", data={"username": name, "password": "password1"})
        assert response.headers["Location"].startswith(where), (name, response.headers)
        page = other.get("/").get_data(as_text=True)
        assert ('id="judging-link"' in page) is (name == "ann"), name
