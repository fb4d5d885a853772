"""Leaving an annotator out of a dataset (:mod:`annotate.services.exclusions`): ``lexsub
compile --exclude``, ``lexsub exclude`` kept for every compile and page, removed and
deactivated members left out with their reason, and the pages (compile, agreement with
its leave-one-out forms, scores). The ``answered`` fixture's gold, compiled without
lemmatising, by hand:

everyone    bright.a 1 :: clever 2;smart 1;pn 1;   (ann, bob clever; bob smart; cat a name)
            stand.n.v 3 :: bear 2;tolerated 2;     (ann, cat bear; ann, bob tolerated)
bob out     bright.a 1 :: clever 1;pn 1;
            stand.n.v 3 :: bear 2;tolerated 1;

What leaves the app (the gold files, the report pages) names the annotators by pseudonym:
ann, bob and cat are A1, A2 and A3, by their accounts' creation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask

from tests.conftest import login

EVERYONE = "bright.a 1 :: clever 2;smart 1;pn 1;\nstand.n.v 3 :: bear 2;tolerated 2;\n"
WITHOUT_BOB = "bright.a 1 :: clever 1;pn 1;\nstand.n.v 3 :: bear 2;tolerated 1;\n"

pytestmark = pytest.mark.database


def _compile(app: Flask, out: Path, *extra: str) -> tuple[str, dict[str, object], str]:
    """``lexsub compile --no-lemmatise`` into ``out``: gold, summary and the output."""
    command = ["lexsub", "compile", "--dataset", "small", "--out", str(out), "--no-lemmatise"]
    result = app.test_cli_runner().invoke(args=[*command, *extra])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return (out / "gold").read_text(encoding="utf-8"), summary, result.output


def test_compile_exclude_for_one_run(answered: Flask, tmp_path: Path) -> None:
    gold, summary, _ = _compile(answered, tmp_path / "all")
    assert gold == EVERYONE
    assert "excluded" not in summary
    gold, summary, output = _compile(
        answered, tmp_path / "bob", "--exclude", "bob=answered another sentence"
    )
    assert gold == WITHOUT_BOB
    assert summary["excluded"] == [
        {"annotator": "A2", "reason": "answered another sentence", "responses": 2}
    ]
    assert str(summary["signature"]).endswith("|excluded:1")
    assert "left out A2 (2 responses): answered another sentence" in output
    # for this run only: the next compile has everyone
    assert _compile(answered, tmp_path / "again")[0] == EVERYONE


def test_compile_refuses_an_annotator_without_answers(answered: Flask, tmp_path: Path) -> None:
    out = str(tmp_path / "x")
    result = answered.test_cli_runner().invoke(
        args=["lexsub", "compile", "--dataset", "small", "--out", out, "--exclude", "dan"]
    )
    assert result.exit_code == 1
    assert "dataset 'small' has no answers of 'dan'" in result.output
    assert not (tmp_path / "x").exists()


def test_stored_exclusion_is_kept_and_taken_back(answered: Flask, tmp_path: Path) -> None:
    runner = answered.test_cli_runner()
    result = runner.invoke(args=["lexsub", "exclude", "--dataset", "small", "bob"])
    assert result.exit_code == 2
    assert "give --reason" in result.output
    result = runner.invoke(
        args=["lexsub", "exclude", "--dataset", "small", "bob", "--reason", "a bot"]
    )
    assert result.exit_code == 0, result.output
    assert result.output == "bob left out of dataset 'small': a bot\n"
    gold, summary, _ = _compile(answered, tmp_path / "a")
    assert gold == WITHOUT_BOB
    assert summary["excluded"] == [{"annotator": "A2", "reason": "a bot", "responses": 2}]
    listing = runner.invoke(args=["lexsub", "exclude", "--dataset", "small"])
    assert listing.stdout.startswith("bob\ta bot (by cli, ")
    result = runner.invoke(args=["lexsub", "exclude", "--dataset", "small", "bob", "--undo"])
    assert result.output == "bob taken back into dataset 'small'\n"
    assert _compile(answered, tmp_path / "b")[0] == EVERYONE


def test_removed_and_deactivated_members_are_left_out(answered: Flask, tmp_path: Path) -> None:
    runner = answered.test_cli_runner()
    assert runner.invoke(args=["lexsub", "assign", "bob", "--dataset", "small", "--remove"])
    gold, summary, _ = _compile(answered, tmp_path / "a")
    assert gold == WITHOUT_BOB
    assert summary["excluded"] == [{"annotator": "A2", "reason": "removed", "responses": 2}]
    runner.invoke(args=["lexsub", "assign", "bob", "--dataset", "small"])
    assert _compile(answered, tmp_path / "b")[0] == EVERYONE

    from annotate.extensions import db
    from annotate.models import User

    with answered.app_context():
        user = db.session.query(User).filter_by(username="cat").one()
        user.set_active(False)
        db.session.commit()
    gold, summary, _ = _compile(answered, tmp_path / "c")
    # without cat: bright.a 1 clever 2 (ann, bob), smart 1; stand.n.v 3 tolerated 2, bear 1
    assert gold == "bright.a 1 :: clever 2;smart 1;\nstand.n.v 3 :: tolerated 2;bear 1;\n"
    assert summary["excluded"] == [{"annotator": "A3", "reason": "deactivated", "responses": 2}]


def test_pages_leave_out_and_agree_with_the_download(answered: Flask) -> None:
    client = answered.test_client()
    login(client, "boss")
    dataset = 1
    page = client.get(f"/organiser/datasets/{dataset}/agreement").get_data(as_text=True)
    assert 'id="leave-one-out"' in page
    assert "Leave A2 out</button>" in page
    assert ">bob<" not in page and '"bob"' not in page
    response = client.post(
        f"/organiser/datasets/{dataset}/exclusions",
        data={"pseudonym": "A2", "reason": "a bot", "back": "agreement"},
    )
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/organiser/datasets/{dataset}/agreement")
    page = client.get(f"/organiser/datasets/{dataset}/agreement").get_data(as_text=True)
    assert "A2 is left out: a bot" in page
    assert "|excluded:1|" in page  # the agreement signature
    assert "Left out of these figures" in page and "A2 (a bot, 2 responses)." in page
    assert "Leave A2 out</button>" not in page  # bob's answers are no longer in the report
    gold = client.get(f"/organiser/datasets/{dataset}/gold?file=gold&no_lemmatise=on")
    assert gold.get_data(as_text=True) == WITHOUT_BOB
    summary = client.get(f"/organiser/datasets/{dataset}/gold?file=summary.json").get_json()
    assert summary["excluded"] == [{"annotator": "A2", "reason": "a bot", "responses": 2}]
    page = client.get(f"/organiser/datasets/{dataset}/compile").get_data(as_text=True)
    assert "A2 (2 responses): a bot" in page
    assert "Take bob back</button>" in page
    assert "bob (a bot)" in client.get(f"/organiser/datasets/{dataset}/scores").get_data(
        as_text=True
    )
    response = client.post(
        f"/organiser/datasets/{dataset}/exclusions", data={"username": "bob", "undo": "on"}
    )
    assert response.headers["Location"].endswith(f"/organiser/datasets/{dataset}/compile")
    gold = client.get(f"/organiser/datasets/{dataset}/gold?file=gold&no_lemmatise=on")
    assert gold.get_data(as_text=True) == EVERYONE


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"username": "bob", "reason": " "}, "give the reason"),
        ({"username": "boss", "reason": "x"}, "boss is an organiser"),
        ({"username": "nobody", "reason": "x"}, "no user &#39;nobody&#39;"),
        ({"username": "bob", "reason": "a\nb"}, "contains U+000A"),
    ],
)
def test_exclusion_form_refuses(answered: Flask, form: dict[str, str], message: str) -> None:
    client = answered.test_client()
    login(client, "boss")
    page = client.post("/organiser/datasets/1/exclusions", data=form, follow_redirects=True)
    assert message in page.get_data(as_text=True)
    assert "Take bob back" not in page.get_data(as_text=True)


def test_answers_pages_mark_the_answers_left_out(answered: Flask) -> None:
    answered.test_cli_runner().invoke(
        args=["lexsub", "exclude", "--dataset", "small", "cat", "--reason", "a bot"]
    )
    client = answered.test_client()
    login(client, "boss")
    page = client.get("/organiser/datasets/1/answers?problem=excluded").get_data(as_text=True)
    assert page.count('class="mark mark-excluded"') == 2  # cat's two answers, no one else's
    ann = client.get("/organiser/datasets/1/annotators/ann?problem=excluded")
    assert "mark-excluded" not in ann.get_data(as_text=True)
