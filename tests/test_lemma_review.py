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
