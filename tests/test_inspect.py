"""The organiser reads every answer: an item's answers and revisions,
an annotator's answers in order, and the filters for what the compiler leaves out or
changes."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import answer, login

pytestmark = pytest.mark.database


def _rows(html: str, table: str) -> list[str]:
    body = html.split(f'id="{table}"', 1)[1].split("</table>", 1)[0]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", row).split())
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)[1:]
    ]


def test_item_page_shows_answers_and_revisions_on_request(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    answer(answered, "ann", {"1": {"sub1": "brilliant", "sub2": "Clever "}})  # a change
    login(client, "boss")
    html = client.get(f"/organiser/datasets/{dataset}/items/1").get_data(as_text=True)
    rows = _rows(html, "answers")
    assert rows[0].startswith('A1 "brilliant" , "Clever"') and rows[0].endswith(" 2 normalised")
    assert rows[2].startswith("A3 Proper name")
    assert 'id="revisions"' not in html and "Show every revision" in html
    html = client.get(f"/organiser/datasets/{dataset}/items/1?revisions=on").get_data(as_text=True)
    revisions = _rows(html, "revisions")
    assert [row.split(" ")[0] for row in revisions] == ["A1", "A1", "A2", "A3"]
    assert '"clever"' in revisions[0] and '"brilliant"' in revisions[1]
    assert "/organiser/datasets/1/annotators/A1" in html


def test_annotator_page_lists_their_answers_in_order(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    login(client, "boss")
    html = client.get(f"/organiser/datasets/{dataset}/annotators/ann").get_data(as_text=True)
    rows = _rows(html, "answers")
    assert [row.split(" ")[:2] for row in rows] == [["bright.a", "1"], ["stand.n.v", "3"]]
    assert "Answers of A1: small" in html
    # linked by pseudonym (ann is A1: ann, bob, cat by their accounts' creation)
    by_pseudonym = client.get(f"/organiser/datasets/{dataset}/annotators/A1")
    assert "Answers of A1: small" in by_pseudonym.get_data(as_text=True)
    assert client.get(f"/organiser/datasets/{dataset}/annotators/nobody").status_code == 404
    assert client.get(f"/organiser/datasets/{dataset}/annotators/a%00b").status_code == 404


def test_filters_find_what_the_compiler_changes_or_leaves_out(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.models import Response, User

    with answered.app_context():  # an answer stored before the rules (or imported)
        cat = db.session.query(User).filter_by(username="cat").one()
        row = (
            db.session.query(Response)
            .filter_by(user_id=cat.id)
            .filter(Response.kind == "name")
            .one()
        )
        row.kind, row.substitutes = "substitutes", ["happy; glad"]
        db.session.commit()
    answer(answered, "bob", {"1": {"sub1": "Clever", "sub2": "smart"}})
    login(client, "boss")
    base = f"/organiser/datasets/{dataset}/answers"

    def shown(problem: str) -> list[str]:
        html = client.get(base, query_string={"problem": problem}).get_data(as_text=True)
        return (
            [" ".join(row.split(" ")[:3]) for row in _rows(html, "answers")]
            if ('id="answers"' in html)
            else []
        )

    assert len(shown("")) == 6
    assert shown("left-out") == ["bright.a 1 A3"]
    assert shown("normalised") == ["bright.a 1 A2"]  # Clever → clever
    assert shown("lemmatised") == ["stand.n.v 3 A1", "stand.n.v 3 A2"]  # tolerated
    assert shown("changed") == ["bright.a 1 A2", "stand.n.v 3 A1", "stand.n.v 3 A2"]
    assert len(shown("any")) == 4
    assert len(shown("nonsense")) == 6  # an unknown filter shows everything
    html = client.get(f"/organiser/datasets/{dataset}/problems").get_data(as_text=True)
    assert f"{base}?problem=left-out" in html


def test_problem_marks_are_pure() -> None:
    from datetime import UTC, datetime

    from annotate.gold import CompileOptions, Response, compile_responses
    from annotate.gold.lemmatisation import IDENTITY
    from annotate.services.inspect import StoredAnswer, problem_marks

    records = [
        Response("ann", "bright.a", "1", "substitutes", ("Clever",), None),
        Response("bob", "bright.a", "1", "substitutes", ("x",), None),
    ]
    compiled = compile_responses(records, CompileOptions(lemmatiser=IDENTITY))
    stamp = datetime.now(UTC)
    stored = [
        StoredAnswer(
            r.annotator, r.kind, r.substitutes, None, False, stamp, 1, r.lexelt, r.instance
        )
        for r in records
    ]
    assert problem_marks(compiled, stored) == {
        ("ann", "1"): ("normalised",),
        ("bob", "1"): ("flagged",),
    }
