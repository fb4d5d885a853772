"""The lemma review corrects any form: not only the changes the
lemmatiser proposes, and it shows where each form occurs."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import login

pytestmark = pytest.mark.database


def test_form_uses_lists_every_form_with_its_items_and_gold_form() -> None:
    from annotate.gold import (
        IDENTITY,
        CompileOptions,
        Decision,
        Decisions,
        Response,
        compile_responses,
    )
    from annotate.gold.review import FormUse, form_uses

    records = [
        Response("ann", "film.n", "1", "substitutes", ("Movies",), None),
        Response("bob", "film.n", "2", "substitutes", ("movies", "movie"), None),
        Response("cat", "film.n", "10", "substitutes", ("movies",), None),
    ]
    keeps = IDENTITY  # a lemmatiser that keeps every form, as LemmInflect keeps 'movies'
    plain = compile_responses(records, CompileOptions(lemmatiser=keeps))
    assert form_uses(records, plain) == (
        FormUse("movie", "film.n", 1, ("2",), "movie"),
        FormUse("movies", "film.n", 3, ("1", "2", "10"), "movies"),
    )
    decided = compile_responses(
        records,
        CompileOptions(
            lemmatiser=keeps, decisions=Decisions((Decision("movies", "correct", "movie"),))
        ),
    )
    assert form_uses(records, decided)[1].gold == "movie"
    assert decided.counts()["2"] == {"movie": 1}


def test_a_form_the_lemmatiser_keeps_is_corrected_on_the_page(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    login(client, "boss")
    page = client.get(f"/organiser/datasets/{dataset}/lemmas").get_data(as_text=True)
    rows = [
        " ".join(re.sub(r"<[^>]+>", " ", row).split())
        for row in re.findall(r"<tr>(.*?)</tr>", page.split('id="forms-table"')[1], re.DOTALL)
    ]
    assert "clever bright.a clever 2 1" in rows  # kept by the lemmatiser
    assert "tolerated stand.n.v tolerate 2 3" in rows
    assert '<option value="clever">' in page and "<option>stand.n.v</option>" in page
    page = client.post(
        f"/organiser/datasets/{dataset}/lemmas",
        data={
            "surface": "clever",
            "action": "correct",
            "lemma": "intelligent",
            "lexelt": "bright.a",
        },
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "Decision on &#39;clever&#39; stored." in page
    assert "correct → intelligent" in page  # now listed among the changes
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/organiser/datasets/{dataset}/gold").data))
    assert "bright.a 1 :: intelligent 2;smart 1;pn 1;" in archive.read("gold").decode()


REFUSED_CORRECTIONS = [
    ("x;y", "lemma 'x;y': one substitute per box (a list was typed: give each substitute in a "
     "box of its own)"),
    ("pn", "lemma 'pn': 'pn' is reserved: the gold format uses it for proper-name answers "
     "(tick 'Proper name' instead)"),
    ("a::b", "lemma 'a::b': contains '::' (the gold format puts '::' between the item and its "
     "substitutes)"),
    ("g" * 200, f"lemma {'g' * 40!r}…: is too long: 200 characters (at most 60)"),
    ("x\u037ey", "lemma 'x\u037ey': one substitute per box (a list was typed: give each "
     "substitute in a box of its own)"),
]  # fmt: skip


def _gold(client: FlaskClient, dataset: int) -> str:
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/organiser/datasets/{dataset}/gold").data))
    return archive.read("gold").decode()


@pytest.mark.parametrize(("lemma", "message"), REFUSED_CORRECTIONS)
def test_a_correction_the_gold_cannot_hold_is_refused_on_the_page(
    answered: Flask, client: FlaskClient, dataset: int, lemma: str, message: str
) -> None:
    from markupsafe import escape

    login(client, "boss")
    before = _gold(client, dataset)
    page = client.post(
        f"/organiser/datasets/{dataset}/lemmas",
        data={"surface": "clever", "action": "correct", "lemma": lemma},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert str(escape(message)) in page
    assert "stored." not in page
    assert _gold(client, dataset) == before  # nothing stored, nothing left out
    assert "bright.a 1 :: clever 2;smart 1;pn 1;" in before


@pytest.mark.parametrize(("lemma", "message"), REFUSED_CORRECTIONS)
def test_a_correction_the_gold_cannot_hold_is_refused_by_the_command(
    answered: Flask, client: FlaskClient, dataset: int, lemma: str, message: str
) -> None:
    result = answered.test_cli_runner().invoke(
        args=["lexsub", "lemmas", "--dataset", "small", "--correct", "clever", lemma]
    )
    assert (result.exit_code, result.output) == (1, f"Error: {message}\n")
    login(client, "boss")
    assert "bright.a 1 :: clever 2;smart 1;pn 1;" in _gold(client, dataset)


def test_a_correction_is_stored_as_the_rule_cleans_it(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    result = answered.test_cli_runner().invoke(
        args=["lexsub", "lemmas", "--dataset", "small", "--correct", "clever", " bri\u200bght "]
    )
    assert result.exit_code == 0, result.output
    login(client, "boss")
    assert "bright.a 1 :: bright 2;smart 1;pn 1;" in _gold(client, dataset)


def test_a_decisions_file_with_such_a_correction_is_refused(tmp_path: Path) -> None:
    from annotate.gold import DecisionError, read_decisions

    path = tmp_path / "decisions.json"
    path.write_text(
        '{"decisions": [{"surface": "glad", "action": "correct", "lemma": "x;y"}]}',
        encoding="utf-8",
    )
    with pytest.raises(DecisionError) as error:
        read_decisions(path)
    assert str(error.value) == (
        f"{path}: decisions[0]: lemma 'x;y': one substitute per box (a list was typed: give "
        "each substitute in a box of its own)"
    )


def test_a_decision_for_a_lexelt_the_gold_cannot_hold_is_refused(
    answered: Flask, dataset: int
) -> None:
    command = ["lexsub", "lemmas", "--dataset", "small", "--reject", "clever"]
    result = answered.test_cli_runner().invoke(args=[*command, "--lexelt", "bright a.a"])
    assert (result.exit_code, result.output) == (
        1,
        "Error: lexelt 'bright a.a': a lexelt holds no white space (the gold line separates "
        "'LEXELT ID ::' by spaces): write 'bright_a.a'\n",
    )


def test_an_irregular_form_another_answer_explains_is_proposed() -> None:
    from annotate.gold import Decision, Decisions
    from annotate.gold.lemmatisation import IDENTITY, lemminflect_lemmatiser
    from annotate.gold.review import FormUse, IrregularForm, irregular_forms

    uses = (
        FormUse("fall", "drop.v", 2, ("1", "2"), "fall"),
        FormUse("fallen", "drop.v", 1, ("3",), "fall"),
        FormUse("fell", "drop.v", 1, ("2",), "fell"),
        FormUse("fall", "autumn.n", 1, ("5",), "fall"),
        FormUse("fell", "autumn.n", 1, ("5",), "fell"),  # not an inflection of the noun
    )
    lemminflect = lemminflect_lemmatiser()
    assert irregular_forms(uses, Decisions(), lemminflect) == (
        IrregularForm("fell", "drop.v", "fall", 1, ("2",)),
    )
    kept = Decisions((Decision("fell", "reject", None, "drop.v"),))
    assert irregular_forms(uses, kept, lemminflect) == ()  # decided: no longer proposed
    assert irregular_forms(uses, Decisions(), IDENTITY) == ()  # no inflections known


def test_accept_all_proposed_in_one_action_each_listed_and_reversible(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from tests.conftest import answer, make_user

    make_user(answered, "dan")
    make_user(answered, "eve")
    answer(answered, "dan", {"3": {"sub1": "fell"}})
    answer(answered, "eve", {"3": {"sub1": "fall"}})
    login(client, "boss")
    page = client.get(f"/organiser/datasets/{dataset}/lemmas").get_data(as_text=True)
    irregular = page.split('id="irregular-table"', 1)[1].split("</table>", 1)[0]
    rows = [
        " ".join(re.sub(r"<[^>]+>", " ", row).split())
        for row in re.findall(r"<tr>(.*?)</tr>", irregular, re.DOTALL)
    ]
    assert rows[1:] == ["fell stand.n.v fall 1 3 Accept Keep"]
    assert "2 proposals undecided." in page
    assert "stand.n.v 3 :: bear 2;tolerate 2;fall 1;fell 1;" in _gold(client, dataset)
    page = client.post(
        f"/organiser/datasets/{dataset}/lemmas",
        data={"action": "accept-all"},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert (
        "2 proposals accepted: tolerated → tolerate, fell → fall [stand.n.v]. Each is "
        "listed below: decide again to undo one."
    ) in page
    assert 'id="irregular-table"' not in page and ">Accept all proposed</button>" not in page
    changes = " ".join(re.sub(r"<[^>]+>", " ", page.split('id="changes"')[1]).split())
    assert "tolerated tolerate accept → tolerate 2" in changes
    assert "fell fell correct → fall 1" in changes
    assert "stand.n.v 3 :: bear 2;fall 2;tolerate 2;" in _gold(client, dataset)
    # each is reversible: fell kept as typed again
    client.post(
        f"/organiser/datasets/{dataset}/lemmas",
        data={"surface": "fell", "action": "reject", "lexelt": "stand.n.v"},
    )
    assert "stand.n.v 3 :: bear 2;tolerate 2;fall 1;fell 1;" in _gold(client, dataset)


def test_a_correction_of_a_form_no_answer_contains_is_refused(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.models import LemmaDecision

    login(client, "boss")
    for surface, lexelt, where in (("cleverr", "", ""), ("clever", "stand.n.v", " for stand.n.v")):
        page = client.post(
            f"/organiser/datasets/{dataset}/lemmas",
            data={"surface": surface, "action": "correct", "lemma": "smart", "lexelt": lexelt},
            follow_redirects=True,
        ).get_data(as_text=True)
        assert (
            f"no answer contains the form &#39;{surface}&#39;{where}: a correction names a "
            "form of the responses as the list of every form shows it (after normalisation)"
        ) in page
        assert "stored." not in page
    with answered.app_context():
        assert db.session.query(LemmaDecision).count() == 0
