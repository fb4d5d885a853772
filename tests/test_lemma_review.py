"""The lemma review corrects any form: not only the changes the
lemmatiser proposes, and it shows where each form occurs."""

from __future__ import annotations

import io
import re
import zipfile

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
