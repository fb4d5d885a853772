"""Every organiser page of every dataset answers without a server error: datasets imported
through every format the importer reads, and one whose stored lexelt and instance id break
the gold's rules (as an older version imported them), each with an answer."""

from __future__ import annotations

import gzip
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from tests.conftest import SMALL_XML, assign, login, make_user, save
from tests.test_importer_formats import COINCO_BYTES, CSV, SEMEVAL, TSV, encoded, swords

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL

FILES = {
    "small": ("small.xml", SMALL_XML),
    "coinco": ("ours.xml", COINCO_BYTES),
    "swords": ("ours.json", encoded(swords())),
    "csv": ("ours.csv", CSV.encode("utf-8")),
    "tsv": ("ours.tsv", TSV),
    "tsvgz": ("ours.tsv.gz", gzip.compress(TSV)),
    "semeval": ("haus.xml.gz", gzip.compress(SEMEVAL)),
    "old": ("old.tsv", b"id\tlexelt\tsentence\n1\tgehen.v\tWir <head>gehen</head>.\n"),
}
BROKEN_PAGES = ("answers", "problems", "lemmas", "gold", "agreement", "scores", "annotators/ann")


def import_all(app: Flask) -> dict[str, int]:
    """Every file of :data:`FILES` imported; dataset ``old`` then given the lexelt
    ``spazieren gehen.v`` and the id ``a;1`` in the database, as an older version that
    did not hold them to the gold's rules stored them; dataset ``csv`` a correction of
    ``glad`` to ``x;y``, which the compiler leaves out (listed on the problems page)."""
    from annotate.extensions import db
    from annotate.models import Instance, LemmaDecision, Lexelt
    from annotate.services.datasets import import_dataset
    from annotate.sources import parse_source

    ids = {}
    with app.app_context():
        for name, (file_name, data) in FILES.items():
            result = parse_source(data, file_name)
            ids[name] = import_dataset(result, name, file_name, data).dataset.id
        lexelt = db.session.scalar(select(Lexelt).where(Lexelt.dataset_id == ids["old"]))
        instance = db.session.scalar(select(Instance).where(Instance.dataset_id == ids["old"]))
        assert lexelt is not None and instance is not None
        lexelt.item, lexelt.lemma, instance.xml_id = "spazieren gehen.v", "spazieren gehen", "a;1"
        db.session.add(  # a correction the lemma review once stored unchecked
            LemmaDecision(dataset_id=ids["csv"], surface="glad", action="correct", lemma="x;y")
        )
        db.session.commit()
    return ids


def answer_each(app: Flask, ids: dict[str, int]) -> None:
    """Annotator ``ann`` answers the first instance of every dataset."""
    from annotate.extensions import db
    from annotate.models import Instance

    make_user(app, "ann")
    client = app.test_client()
    login(client, "ann")
    for dataset_id in ids.values():
        assign(app, "ann", dataset_id)
        with app.app_context():
            first = db.session.scalars(
                select(Instance.id)
                .where(Instance.dataset_id == dataset_id)
                .order_by(Instance.position)
            ).first()
        assert first is not None
        assert save(client, first, {"sub1": "glad", "sub2": "cheerful"}) == 302


def organiser_urls(app: Flask, dataset_id: int) -> list[str]:
    """Every GET page of the organiser about the dataset (one per sentence for the
    sentence page), each gold file, and the pages about no dataset in particular."""
    from annotate.extensions import db
    from annotate.models import Instance

    with app.app_context():
        xml_ids = list(
            db.session.scalars(select(Instance.xml_id).where(Instance.dataset_id == dataset_id))
        )
    urls = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/organiser") or "GET" not in (rule.methods or ()):
            continue
        if not rule.arguments <= {"dataset_id", "xml_id", "username"}:
            continue
        url = rule.rule.replace("<int:dataset_id>", str(dataset_id))
        url = url.replace("<username>", "ann")
        if "<path:xml_id>" in url:
            urls += [url.replace("<path:xml_id>", quote(xml_id, safe="")) for xml_id in xml_ids]
        else:
            urls.append(url)
    gold = f"/organiser/datasets/{dataset_id}/gold"
    urls += [f"{gold}?file={name}" for name in ("gold", "mwgold", "summary.json")]
    return urls


@pytest.fixture
def organiser(app: Flask) -> tuple[FlaskClient, dict[str, int]]:
    ids = import_all(app)
    answer_each(app, ids)
    make_user(app, "boss", "organiser")
    client = app.test_client()
    login(client, "boss")
    return client, ids


def test_no_organiser_page_of_any_dataset_fails(
    organiser: tuple[FlaskClient, dict[str, int]], app: Flask
) -> None:
    client, ids = organiser
    failed = []
    for name, dataset_id in ids.items():
        for url in organiser_urls(app, dataset_id):
            status = client.get(url).status_code
            if status >= 500:
                failed.append((name, url, status))
    assert failed == []


def test_a_stored_dataset_that_breaks_the_rules_shows_its_problem(
    organiser: tuple[FlaskClient, dict[str, int]],
) -> None:
    client, ids = organiser
    for page in BROKEN_PAGES:
        response = client.get(f"/organiser/datasets/{ids['old']}/{page}")
        text = response.get_data(as_text=True)
        assert response.status_code == 409, page
        assert "dataset &#39;old&#39; cannot be compiled" in text, page
        assert (
            "old:1: lexelt &#39;spazieren gehen.v&#39;: a lexelt holds no white space "
            "(the gold line separates &#39;LEXELT ID ::&#39; by spaces): write "
            "&#39;spazieren_gehen.v&#39;"
        ) in text, page
        assert (
            "old:1: instance &#39;a;1&#39;: an instance id holds no &#39;;&#39; (the gold "
            "line separates substitutes with &#39;;&#39;): write &#39;a_1&#39;"
        ) in text, page
    compile_page = client.get(f"/organiser/datasets/{ids['old']}/compile")
    assert compile_page.status_code == 200
    assert "Not compiled: dataset &#39;old&#39; cannot be compiled" in compile_page.get_data(
        as_text=True
    )
    for page in BROKEN_PAGES:  # the other datasets are unharmed
        assert client.get(f"/organiser/datasets/{ids['csv']}/{page}").status_code == 200
    problems = client.get(f"/organiser/datasets/{ids['csv']}/problems").get_data(as_text=True)
    assert "its gold form (lemma) one substitute per box" in problems


def test_compile_command_names_the_stored_problem(
    organiser: tuple[FlaskClient, dict[str, int]], app: Flask, tmp_path: object
) -> None:
    result = app.test_cli_runner().invoke(
        args=["lexsub", "compile", "--dataset", "old", "--out", str(tmp_path)]
    )
    assert result.exit_code == 1
    assert result.output.startswith(
        f"Error: dataset 'old' not compiled into {tmp_path}: dataset 'old' cannot be compiled"
    )
    assert "write 'spazieren_gehen.v'" in result.output and "write 'a_1'" in result.output
