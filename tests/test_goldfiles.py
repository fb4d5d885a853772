"""The compiler on the app's data: lemma review by command and page, stored
decisions winning over the lemmatiser, compile and download, and the end-to-end proof."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import answer, login, make_user, shared_path

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def test_lemmas_command_lists_and_decides(answered: Flask, tmp_path: Path) -> None:
    runner = answered.test_cli_runner()
    listing = runner.invoke(args=["lexsub", "lemmas", "--dataset", "small"]).output
    assert "tolerated → tolerate count: 2" in listing
    assert listing.endswith("1 lemma changes, 1 undecided\n")
    runner.invoke(args=["lexsub", "compile", "--dataset", "small", "--out", str(tmp_path / "a")])
    assert (tmp_path / "a" / "gold").read_text().splitlines() == [
        "bright.a 1 :: clever 2;smart 1;pn 1;",
        "stand.n.v 3 :: bear 2;tolerate 2;",
    ]
    result = runner.invoke(args=["lexsub", "lemmas", "--dataset", "small", "--reject", "tolerated"])
    assert result.output == "reject 'tolerated' for every word\n"
    result = runner.invoke(
        args=["lexsub", "compile", "--dataset", "small", "--out", str(tmp_path / "b")]
    )
    assert "compiled 6 responses of 3 annotators: 2 items, 2 in T" in result.output
    assert (tmp_path / "b" / "gold").read_text().splitlines()[1] == (
        "stand.n.v 3 :: bear 2;tolerated 2;"
    )
    assert '"reject"' in (tmp_path / "b" / "decisions.json").read_text()
    for name in ("mwgold", "annotators.jsonl", "summary.json"):
        assert (tmp_path / "b" / name).exists()


def test_review_page_and_gold_download(answered: Flask, client: FlaskClient) -> None:
    login(client, "boss")
    page = client.get("/organiser/datasets/1/lemmas").get_data(as_text=True)
    assert "<td>tolerated</td><td>tolerate</td>" in page and "undecided" in page
    client.post(
        "/organiser/datasets/1/lemmas",
        data={
            "surface": "tolerated",
            "action": "correct",
            "lemma": "put up with",
            "lexelt": "stand.n.v",
        },
    )
    page = client.get("/organiser/datasets/1/lemmas").get_data(as_text=True)
    assert "correct → put up with" in page
    archive = zipfile.ZipFile(io.BytesIO(client.get("/organiser/datasets/1/gold").data))
    assert sorted(archive.namelist()) == [
        "annotators.jsonl",
        "decisions.json",
        "gold",
        "mwgold",
        "summary.json",
    ]
    assert "stand.n.v 3 :: bear 2;put up with 2;" in archive.read("gold").decode()


def test_end_to_end_trial_through_the_app(app: Flask, tmp_path: Path) -> None:
    """The trial XML imported, five annotators enter the split trial gold
    through HTTP, the compile without normalisation or lemmatisation gives back the
    official gold, except where the web form collapses white space (item 211's
    'secretion  producing', pinned)."""
    from annotate.gold.split import split_gold
    from scoring.formats.gold import read_gold_as_written
    from scoring.formats.text import read_lines

    xml = shared_path("data", "semeval2007", "trial", "lexsub_trial.xml")
    gold_path = shared_path("data", "semeval2007", "trial", "gold.trial")
    runner = app.test_cli_runner()
    assert runner.invoke(args=["lexsub", "import", str(xml), "--dataset", "trial"]).exit_code == 0
    lines = read_lines(gold_path)
    split = split_gold(lines, str(gold_path))
    assert not split.problems
    forms: dict[str, dict[str, dict[str, str]]] = {}
    for response in split.responses:
        form = (
            {"name": "on"}
            if response.kind == "name"
            else {"nil": "on"}
            if (response.kind == "nil")
            else {f"sub{i}": s for i, s in enumerate(response.substitutes, 1)}
        )
        forms.setdefault(response.annotator, {})[response.instance] = form
    for annotator, answers in forms.items():
        make_user(app, annotator)
        answer(app, annotator, answers)
    out = tmp_path / "out"
    result = runner.invoke(
        args=[
            "lexsub",
            "compile",
            "--dataset",
            "trial",
            "--out",
            str(out),
            "--no-normalise",
            "--no-lemmatise",
        ]
    )
    assert result.exit_code == 0, result.output

    def mapping(items: list) -> dict[str, dict[str, int]]:  # type: ignore[type-arg]
        return {
            item.instance: {**dict(item.entries), **({"pn": item.names} if item.names else {})}
            for item in items
        }

    official = mapping(read_gold_as_written(lines))
    compiled = mapping(read_gold_as_written(read_lines(out / "gold")))
    differ = sorted(i for i in official if official[i] != compiled.get(i))
    assert differ == ["211"]
    assert official["211"]["secretion  producing"] == compiled["211"]["secretion producing"]
