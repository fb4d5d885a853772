"""A language model as an annotator (``lexsub llm-annotate``, the members page's form)
against the in-process OpenAI-compatible server (:mod:`tests.openai_server`) on the small
dataset of three people (:func:`tests.conftest.answered`): the replies read by the rule
of a person's answer, the annotator names, the provenance without the key, the model left
out of the gold unless asked for, and its agreement beside the people's, hand-computed.

The people's answers (by pseudonym): bright.a 1: A1 {clever}, A2 {clever, smart}, A3 a
name; stand.n.v 3: A1 {tolerate, bear}, A2 {tolerate}, A3 {bear}. The model answers
bright.a 1 ``smart, clever, intelligent, brainy`` (a fourth: left out), bright.a 2
``shining, shiny/glowing`` (two in one box: refused by the rule) and the multiword
``bright light``, stand.n.v 3 ``bear, endure``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, text

from annotate.extensions import db
from annotate.gold.model_annotators import compare_model, is_model_annotator, split_models
from annotate.models import Dataset, ModelAnnotation, Response, Revision, User
from annotate.services.home import answer_counts
from annotate.services.hub import dataset_hub
from tests.conftest import login
from tests.openai_server import FakeServer

pytestmark = pytest.mark.database

KEY = "sk-test-llmannot-0123456789"
REPLIES = {
    "pupil": ["smart", "clever", "intelligent", "brainy"],
    "light": ["shining", "shiny/glowing", "multiword: bright light"],
    "stand": ["bear", "endure"],
}


def _reply(body: dict[str, Any]) -> list[str]:
    message = body["messages"][0]["content"]
    sentence = message.split("Sentence:", 1)[1].split("\n", 1)[0]
    return next(words for cue, words in REPLIES.items() if cue in sentence)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeServer]:
    """The endpoint, serving the model ``m`` to the key :data:`KEY` only; the key in
    ``LEXSUB_API_KEY``, the user's cache in ``tmp_path``."""
    monkeypatch.setenv("LEXSUB_API_KEY", KEY)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    with FakeServer(models=("m",), key=KEY) as running:
        running.answer = _reply
        yield running


@pytest.fixture
def boss(answered: Flask) -> FlaskClient:
    """The organiser "boss" of :func:`tests.conftest.answered`, logged in."""
    client = answered.test_client()
    login(client, "boss")
    return client


def _cli(app: Flask, *args: str) -> Any:
    return app.test_cli_runner().invoke(args=["lexsub", *args])


def _annotate(app: Flask, server: FakeServer, cache: Path, *extra: str) -> Any:
    result = _cli(
        app,
        "llm-annotate",
        "--dataset",
        "small",
        "--base-url",
        server.url,
        "--model",
        "m",
        "--cache",
        str(cache),
        *extra,
    )
    assert result.exit_code == 0, result.output
    return result


def _stored(app: Flask) -> dict[tuple[str, str], tuple[str, list[str], str | None]]:
    """(annotator, xml id) → (kind, substitutes, multiword) of every model answer."""
    from annotate.models import Instance

    with app.app_context():
        rows = db.session.execute(
            select(User.username, Instance.xml_id, Response)
            .join(Response, Response.user_id == User.id)
            .join(Instance, Instance.id == Response.instance_id)
        )
        return {
            (name, xml_id): (row.kind, list(row.substitutes), row.multiword)
            for name, xml_id, row in rows
            if is_model_annotator(name)
        }


def _compile(app: Flask, out: Path, *extra: str) -> dict[str, bytes]:
    result = _cli(app, "compile", "--dataset", "small", "--out", str(out), *extra)
    assert result.exit_code == 0, result.output
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


def test_the_model_answers_through_the_rule_of_a_person(
    answered: Flask, server: FakeServer, tmp_path: Path
) -> None:
    result = _annotate(answered, server, tmp_path / "cache")
    assert result.output.startswith("llm:m: 3 of 3 items answered in dataset 'small'")
    assert "3 answers saved, 0 unchanged, 0 removed; 3 requests, 0 cached" in result.output
    assert _stored(answered) == {
        ("llm:m", "1"): ("substitutes", ["smart", "clever", "intelligent"], None),
        ("llm:m", "2"): ("substitutes", ["shining"], "bright light"),
        ("llm:m", "3"): ("substitutes", ["bear", "endure"], None),
    }
    # the annotation prompt went with the sentence, the key in the header only
    chats = server.chats()
    assert len(chats) == 3 and all("up to 3" in c["body"]["messages"][0]["content"] for c in chats)
    assert {c["headers"]["Authorization"] for c in chats} == {f"Bearer {KEY}"}
    with answered.app_context():
        user = db.session.scalar(select(User).where(User.username == "llm:m"))
        assert user is not None and user.role == "model" and not user.check_password("")
        row = db.session.scalar(select(ModelAnnotation))
        assert row is not None and row.model == "m" and row.annotators == ["llm:m"]
        assert row.answered == 3
        provenance = row.provenance
        assert provenance["endpoint"] == server.url.split("//")[1].split("/")[0]
        assert provenance["model"] == "m" and provenance["parameters"]["temperature"] == 0.0
        assert len(provenance["prompt_sha256"]) == 64 and provenance["prompt"].endswith(
            "annotation.jinja"
        )
        assert provenance["failures"] == {"server": 0, "unreadable": 0}
        assert provenance["requests"] == 3 and provenance["dropped_candidates"] == 2
        revisions = db.session.query(Revision).count()
    # a second run: every reply cached, nothing asked, nothing saved again
    before = len(server.requests)
    again = _annotate(answered, server, tmp_path / "cache")
    assert "0 answers saved, 3 unchanged, 0 removed; 0 requests, 3 cached" in again.output
    assert len(server.requests) == before
    with answered.app_context():
        assert db.session.query(Revision).count() == revisions
        assert db.session.query(ModelAnnotation).count() == 1
    # the key is nowhere: not in the output, the database, the provenance
    assert KEY not in result.output + again.output
    with answered.app_context():
        for table in db.metadata.sorted_tables:
            for row in db.session.execute(text(f"SELECT * FROM {table.name}")):
                assert KEY not in repr(tuple(row)), table.name


def test_samples_are_pseudo_annotators_replaced_by_a_new_run(
    answered: Flask, server: FakeServer, tmp_path: Path
) -> None:
    result = _annotate(answered, server, tmp_path / "cache", "--samples", "2", "--seed", "7")
    assert result.output.startswith("llm:m#1, llm:m#2: 3 of 3 items answered")
    stored = _stored(answered)
    assert sorted({name for name, _ in stored}) == ["llm:m#1", "llm:m#2"]
    assert stored[("llm:m#2", "1")] == ("substitutes", ["smart", "clever", "intelligent"], None)
    seeds = sorted(c["body"]["seed"] for c in server.chats())
    assert seeds == [7, 7, 7, 8, 8, 8]
    # one sample now: the two pseudo-annotators' answers go, llm:m's come
    single = _annotate(answered, server, tmp_path / "cache")
    assert "3 answers saved, 0 unchanged, 6 removed" in single.output
    assert sorted({name for name, _ in _stored(answered)}) == ["llm:m"]


def test_the_gold_leaves_the_model_out_unless_asked(
    answered: Flask, server: FakeServer, tmp_path: Path
) -> None:
    people = _compile(answered, tmp_path / "before")
    _annotate(answered, server, tmp_path / "cache")
    after = _compile(answered, tmp_path / "after")
    assert after == people  # every file, byte for byte: gold, annotators.jsonl, summary
    included = _compile(answered, tmp_path / "with", "--include-models")
    gold = included["gold"].decode()
    assert "bright.a 1 :: clever 3;smart 2;intelligent 1;" in gold
    assert b"llm:m" in included["annotators.jsonl"] and b"llm:m" not in people["annotators.jsonl"]
    summary = json.loads(included["summary.json"])
    assert summary["signature"].endswith("|models:1")
    # the file compile: the export holds the model, lexsub compile leaves it out
    exported = tmp_path / "responses.jsonl"
    assert _cli(answered, "export", "--dataset", "small", "--out", str(exported)).exit_code == 0
    from annotate.compile import run as compile_file

    assert compile_file([str(exported), "--out", str(tmp_path / "file")]) == 0
    assert (tmp_path / "file" / "gold").read_bytes() == people["gold"]
    assert compile_file([str(exported), "--out", str(tmp_path / "f2"), "--include-models"]) == 0
    assert (tmp_path / "f2" / "gold").read_bytes() == included["gold"]
    # the Hub export and the methods paragraph: people only, unless asked for
    with answered.app_context():
        dataset = db.session.scalar(select(Dataset).where(Dataset.name == "small"))
        assert dataset is not None
        assert dataset_hub(dataset).annotators == ("A1", "A2", "A3")
        assert dataset_hub(dataset, include_models=True).annotators == ("A1", "A2", "A3", "llm:m")
        # the dataset's home counts the people's answers: 2 each
        assert answer_counts(dataset)[0] == 6


# The model beside the people, by hand (Jaccard: shared over union; McCarthy & Navigli 2009,
# eq. 1):
# T = {bright.a 1, stand.n.v 3}. bright.a 1: M {smart, clever, intelligent} vs A1 {clever}
# 1/3, vs A2 {clever, smart} 2/3: 1/2. stand.n.v 3: M {bear, endure} vs A1 {tolerate, bear}
# 1/3, vs A2 {tolerate} 0, vs A3 {bear} 1/2: 5/18. PA = (1/2 + 5/18) / 2 = 7/18.
# T_m = {bright.a 1} (mode clever; stand.n.v 3 ties tolerate 2, bear 2): PA_m = 1/3.
# Without A1 (items 1 and 3): A1 {clever} vs A2 1/2; {tolerate, bear} vs A2 1/2, A3 1/2:
# 1/2 → 1/2; M 2/3 and (0 + 1/2)/2 → 11/24 < 1/2. Without A2: A2 1/2 and (1/2 + 0)/2 → 3/8;
# M 1/3 and (1/3 + 1/2)/2 = 5/12 → 3/8: as well. Without A3 (item 3 only: A3 gave a name
# for item 1): A3 {bear} (1/2 + 0)/2 = 1/4; M (1/3 + 0)/2 = 1/6 < 1/4. As well as 1 of 3.
PA = 7 / 18
PAM = 1 / 3
ROWS = [("A1", 2, 1 / 2, 11 / 24), ("A2", 2, 3 / 8, 3 / 8), ("A3", 1, 1 / 4, 1 / 6)]


def test_the_model_beside_the_people(
    answered: Flask, server: FakeServer, tmp_path: Path, boss: FlaskClient
) -> None:
    before = _cli(answered, "report", "--dataset", "small").stdout
    _annotate(answered, server, tmp_path / "cache")
    from annotate.services.methods import model_comparisons

    with answered.app_context():
        dataset = db.session.scalar(select(Dataset).where(Dataset.name == "small"))
        assert dataset is not None
        (found,) = model_comparisons(dataset)
    assert found.model == "llm:m"
    assert (found.PA, found.PAm) == pytest.approx((PA, PAM))
    assert (found.items, found.mode_items) == (2, 1)
    assert [(r.person, r.items) for r in found.people] == [(p, n) for p, n, _, _ in ROWS]
    figures = [figure for r in found.people for figure in (r.person_PA, r.model_PA)]
    assert figures == pytest.approx([figure for *_, a, b in ROWS for figure in (a, b)])
    assert [r.model_as_well for r in found.people] == [False, True, False]
    assert found.summary == "llm:m agrees with the rest as well as 1 of 3 people"
    # lexsub report: the paragraph as it was (people only), the models after it
    report = _cli(answered, "report", "--dataset", "small").stdout
    assert report.startswith(before)
    assert "llm:m: PA 38.89, PAm 33.33 against the human gold (2 items of T, 1 of T_m)." in report
    assert "| A1 | 2 | 50.00 | 45.83 |" in report and "| A3 | 1 | 25.00 | 16.67 |" in report
    assert report.rstrip().endswith("llm:m agrees with the rest as well as 1 of 3 people.")
    included = _cli(answered, "report", "--dataset", "small", "--include-models").stdout
    assert "four annotators" in included.lower() and "four annotators" not in before.lower()
    # the agreement page: the same figures, in a table of their own
    with answered.app_context():
        dataset_id = db.session.scalar(select(Dataset.id).where(Dataset.name == "small"))
    page = boss.get(f"/organiser/datasets/{dataset_id}/agreement").get_data(as_text=True)
    assert '<h2 id="models">Models beside the annotators</h2>' in page
    assert "PA 38.89 (2 items of T)" in page
    assert "llm:m agrees with the rest as well as 1 of 3 people." in page
    people = page.split('<h2 id="models">')[0]
    assert "llm:m" not in people  # not in the figures, the per-annotator table, the signature


def test_the_compare_needs_no_database() -> None:
    """The same comparison, pure, on items written by hand (the model's answer for an
    item outside T counts nowhere)."""
    from scoring.formats.annotators import Item
    from scoring.types import Answer

    def item(instance: str, *answers: tuple[str, set[str]]) -> Item:
        kind = {True: "substitutes", False: "nil"}
        return Item(
            "w.n",
            instance,
            tuple(Answer(n, kind[bool(s)], frozenset(s)) for n, s in sorted(answers)),  # type: ignore[arg-type]
        )

    items = [
        item("1", ("A1", {"a"}), ("A2", {"a", "b"}), ("llm:x", {"b"})),
        item("2", ("A1", {"c"}), ("llm:x", {"c"})),
    ]
    people, models = split_models(items)
    assert models == ("llm:x",)
    found = compare_model(people, items, "llm:x")
    # item 1 only in T: {b} vs {a} 0, vs {a, b} 1/2 → 1/4; mode a: {b} has it not → 0
    assert (found.PA, found.PAm, found.items) == (0.25, 0.0, 1)
    # without A1: A1 {a} vs A2 1/2, the model {b} vs A2 1/2 (item 2: nobody else) → as well
    # without A2: A2 {a, b} vs A1 1/2, the model {b} vs A1 0 → not
    assert [(r.person, r.items, r.person_PA, r.model_PA) for r in found.people] == [
        ("A1", 1, 0.5, 0.5),
        ("A2", 1, 0.5, 0.0),
    ]
    assert found.summary == "llm:x agrees with the rest as well as 1 of 2 people"


def test_the_members_page_form(answered: Flask, server: FakeServer, boss: FlaskClient) -> None:
    with answered.app_context():
        dataset_id = db.session.scalar(select(Dataset.id).where(Dataset.name == "small"))
    url = f"/organiser/datasets/{dataset_id}/members"
    page = boss.get(url).get_data(as_text=True)
    assert '<form method="post" id="llm-annotate">' in page
    form = page.split('id="llm-annotate">')[1].split("</form>")[0]
    assert 'name="base_url"' in form and 'name="model"' in form and 'name="samples"' in form
    # no field asks for an API key (the CSRF token's random value is left out: it may
    # hold the letters k, e, y)
    fields = re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token"', form)
    assert "key" not in fields.lower()
    response = boss.post(
        url, data={"action": "llm-annotate", "base_url": server.url, "model": "m", "samples": "2"}
    )
    assert response.status_code == 302
    page = boss.get(url).get_data(as_text=True)
    assert "llm:m#1, llm:m#2: 3 of 3 items answered (6 answers saved, 0 unchanged, 0 removed)." in (
        page
    )
    assert "<td>llm:m#1, llm:m#2</td><td>3 of 3</td>" in page
    assert KEY not in page
    assert sorted({name for name, _ in _stored(answered)}) == ["llm:m#1", "llm:m#2"]
    # the model is no member: the members' list does not offer it
    assert 'id="user-' in page and ">llm:m" not in page.split('id="members"')[1].split("</form>")[0]
    # an unknown model: the endpoint's error, flashed, nothing stored
    boss.post(url, data={"action": "llm-annotate", "base_url": server.url, "model": "zz"})
    page = boss.get(url).get_data(as_text=True)
    assert "has no model &#39;zz&#39; (it has: m)" in page


@pytest.mark.parametrize(
    ("model", "samples", "rule"),
    [
        ("m#1", 1, "holds '#', which marks a sample's number"),
        ("two words", 1, "holds white space"),
        ("m", 21, "samples 21 is not in 1-20"),
        ("x" * 75, 2, "is too long: annotator names are at most 80 characters"),
    ],
)
def test_a_model_name_no_account_can_hold_is_refused(
    answered: Flask, server: FakeServer, tmp_path: Path, model: str, samples: int, rule: str
) -> None:
    result = _cli(
        answered,
        "llm-annotate",
        "--dataset",
        "small",
        "--base-url",
        server.url,
        "--model",
        model,
        "--cache",
        str(tmp_path / "cache"),
        *(["--samples", str(samples)] if samples <= 20 else []),
    )
    if samples > 20:  # the command line's own range
        from annotate.services.model_annotation import check_model_name
        from annotate.services.rules import ServiceError

        with pytest.raises(ServiceError, match=rule):
            check_model_name(model, samples)
        return
    assert result.exit_code == 1 and rule in result.output
    assert server.chats() == [] and _stored(answered) == {}
