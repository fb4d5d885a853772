"""Importing every format into the database: ``lexsub import`` (--format, --language),
the organiser's import page, the dataset page's language, nothing stored from a file
that is refused, and the annotator's page showing what was imported."""

from __future__ import annotations

import gzip
import json
import os
import re
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.conftest import assign, login, make_user, shared_path
from tests.test_importer_formats import COINCO_BYTES, CSV, SEMEVAL, TSV, encoded, swords

pytestmark = pytest.mark.database  # these run on SQLite and on PostgreSQL


def counts(app: Flask) -> tuple[int, int, int]:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance, Lexelt

    with app.app_context():
        return tuple(  # type: ignore[return-value]
            db.session.scalar(select(func.count(model.id))) or 0
            for model in (Dataset, Lexelt, Instance)
        )


def language_of(app: Flask, name: str) -> str:
    from annotate.extensions import db
    from annotate.models import Dataset

    with app.app_context():
        dataset = db.session.scalar(select(Dataset).where(Dataset.name == name))
        assert dataset is not None
        return str(dataset.language)


def run(app: Flask, *args: str) -> tuple[int, str]:
    result = app.test_cli_runner().invoke(args=["lexsub", "import", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("file_name", "data", "instances", "words", "language"),
    [
        ("ours.xml", COINCO_BYTES, 6, 5, "en"),
        ("ours.json", encoded(swords()), 3, 3, "en"),
        ("ours.csv", CSV.encode("utf-8"), 5, 3, "en"),
        ("ours.tsv", TSV, 1, 1, "en"),
        ("ours.tsv.gz", gzip.compress(TSV), 1, 1, "en"),
        ("haus.xml.gz", gzip.compress(SEMEVAL), 1, 1, "de"),
    ],
)
def test_command_imports_every_format(
    app: Flask,
    tmp_path: Path,
    file_name: str,
    data: bytes,
    instances: int,
    words: int,
    language: str,
) -> None:
    path = tmp_path / file_name
    path.write_bytes(data)
    status, output = run(app, str(path), "--dataset", "d")
    assert status == 0, output
    last = output.splitlines()[-1]
    assert last.startswith(f"imported {instances} instances in {words} words as dataset 'd' (")
    assert counts(app) == (1, words, instances)
    assert language_of(app, "d") == language
    status, output = run(app, str(path), "--dataset", "d")
    assert output.splitlines()[-1].startswith(f"already imported, unchanged: {instances} ")


def test_command_prints_notes_and_the_language(app: Flask, tmp_path: Path) -> None:
    path = tmp_path / "ours.xml"
    path.write_bytes(COINCO_BYTES)
    status, output = run(app, str(path), "--dataset", "c", "--language", "EN")
    assert status == 0
    assert output.splitlines()[:2] == [
        f'{path}: left out 1 tokens that CoInCo\'s annotators marked problematic="yes"',
        "language en (English)",
    ]


def test_language_option_wins_over_the_corpus_lang(app: Flask, tmp_path: Path) -> None:
    path = tmp_path / "haus.xml"
    path.write_bytes(SEMEVAL)
    assert run(app, str(path), "--dataset", "h", "--language", "it")[0] == 0
    assert language_of(app, "h") == "it"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        (
            "--language",
            "german",
            "Invalid value for '--language': language 'german' is not an ISO 639-1 code "
            "(two letters, such as en, de, it); German is 'de'",
        ),
        ("--format", "xml", "Invalid value for '--format': 'xml' is not one of 'semeval', "),
    ],
)
def test_bad_option_is_usage(
    app: Flask, tmp_path: Path, option: str, value: str, message: str
) -> None:
    path = tmp_path / "t.tsv"
    path.write_bytes(TSV)
    status, output = run(app, str(path), "--dataset", "t", option, value)
    assert status == 2 and message in output
    assert counts(app) == (0, 0, 0)


def test_format_option_is_used(app: Flask, tmp_path: Path) -> None:
    path = tmp_path / "t.tsv"
    path.write_bytes(TSV)
    status, output = run(app, str(path), "--dataset", "t", "--format", "csv")
    assert status == 1
    assert output.startswith(f"Error: nothing imported: {path}:1: the header ")


@pytest.mark.parametrize(
    ("file_name", "data", "where", "problem"),
    [
        (
            "bad.xml",
            COINCO_BYTES.replace(b'wordform="felt"', b'wordform="fell"'),
            ":50: ",
            "token '21' 'fell' is not found in its <targetsentence>",
        ),
        (
            "bad.json",
            encoded(swords()).replace(b'"offset": 36', b'"offset": 35'),
            ':$["targets"]["t:a"]["offset"]: ',
            "the context has ' look' at 35, not the target 'looks'",
        ),
        (
            "bad.csv.gz",
            gzip.compress(CSV.encode("utf-8").replace(b"spazieren_gehen.v", b"gehen")),
            ":6: ",
            "lexelt item 'gehen' is not lemma.pos",
        ),
        ("bad.gz", gzip.compress(TSV)[:20], ": ", "not a complete gzip file"),
    ],
)
def test_command_refuses_a_bad_file_whole(
    app: Flask, tmp_path: Path, file_name: str, data: bytes, where: str, problem: str
) -> None:
    path = tmp_path / file_name
    path.write_bytes(data)
    status, output = run(app, str(path), "--dataset", "bad")
    assert status == 1
    assert output.startswith(f"Error: nothing imported: {path}{where}{problem}")
    assert counts(app) == (0, 0, 0)


@pytest.mark.shared_data
@pytest.mark.parametrize(
    ("parts", "instances", "words"),
    [
        (("coinco", "coinco.xml.gz"), 15415, 4253),
        (("swords", "swords-v1.1_dev.json.gz"), 370, 280),
        (("swords", "swords-v1.1_test.json.gz"), 762, 522),
    ],
)
def test_real_releases_through_the_command(
    app: Flask, parts: tuple[str, str], instances: int, words: int
) -> None:
    path = shared_path("data", *parts)
    status, output = run(app, str(path), "--dataset", "real")
    assert status == 0, output
    assert output.splitlines()[-1].startswith(
        f"imported {instances} instances in {words} words as dataset 'real' ("
    )
    assert counts(app) == (1, words, instances)


# --- the organiser's pages -----------------------------------------------------------------


def upload(client: FlaskClient, data: bytes, file_name: str, **fields: str) -> str:
    return client.post(
        "/organiser/datasets",
        data={"name": "up", **fields, "file": (BytesIO(data), file_name)},
        content_type="multipart/form-data",
    ).get_data(as_text=True)


def test_import_page_takes_every_format_and_the_language(
    app: Flask, organiser: FlaskClient
) -> None:
    page = upload(organiser, gzip.compress(CSV.encode("utf-8")), "t.csv.gz", language="de")
    assert "Imported 5 sentences as up; 0 repairs.</p>" in page
    assert "up</a> (t.csv.gz) · language de</li>" in page
    assert language_of(app, "up") == "de"
    page = upload(organiser, COINCO_BYTES, "c.xml", name="c", format="coinco")
    assert "Imported 6 sentences as c; 0 repairs.</p>" in page
    assert "c</a> (c.xml) · language en</li>" in page
    assert "<li>left out 1 tokens that CoInCo&#39;s annotators marked" in page
    assert counts(app) == (2, 8, 11)


@pytest.mark.parametrize(
    ("data", "fields", "message"),
    [
        (TSV, {"language": "deutsch"}, "Nothing imported: language &#39;deutsch&#39; is not an"),
        (TSV, {"format": "xml"}, "Nothing imported: format &#39;xml&#39; is not one of"),
        (TSV + b"1\ta.n\t<head>b</head>\n", {}, "Nothing imported: t.tsv:3: duplicate instance"),
    ],
)
def test_import_page_refuses_whole(
    app: Flask, organiser: FlaskClient, data: bytes, fields: dict[str, str], message: str
) -> None:
    assert message in upload(organiser, data, "t.tsv", **fields)
    assert counts(app) == (0, 0, 0)


def test_dataset_page_shows_and_edits_the_language(app: Flask, organiser: FlaskClient) -> None:
    upload(organiser, SEMEVAL, "haus.xml")
    with app.app_context():
        from annotate.extensions import db
        from annotate.models import Dataset

        dataset_id = db.session.scalars(select(Dataset.id)).one()
    page = organiser.get(f"/organiser/datasets/{dataset_id}/settings").get_data(as_text=True)
    assert '<dd id="language-now">de (German)</dd>' in page
    assert "<dd>1 sentences in 1 words</dd>" in page
    page = organiser.post(
        f"/organiser/datasets/{dataset_id}/settings", data={"language": "IT"}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Language of up set to it (Italian)." in page
    assert '<dd id="language-now">it (Italian)</dd>' in page
    page = organiser.post(
        f"/organiser/datasets/{dataset_id}/settings",
        data={"language": "italian"},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert (
        "Language not changed: language &#39;italian&#39; is not an ISO 639-1 code (two "
        "letters, such as en, de, it); Italian is &#39;it&#39;"
    ) in page
    assert language_of(app, "up") == "it"
    listing = organiser.get("/organiser/datasets").get_data(as_text=True)
    assert (
        f'<a href="/organiser/datasets/{dataset_id}">up</a> (haus.xml) · language it</li>'
        in listing
    )


def test_annotator_sees_the_context_with_its_line_breaks(app: Flask, client: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance

    path_data = json.dumps(swords()).encode()
    make_user(app, "boss", "organiser")
    login(client, "boss")
    upload(client, path_data, "s.json", name="s")
    client.post("/logout")
    with app.app_context():
        dataset_id = db.session.scalars(select(Dataset.id)).one()
        instance = db.session.scalars(select(Instance).where(Instance.xml_id == "t:a")).one()
        instance_id = instance.id
    make_user(app, "ann")
    assign(app, "ann", dataset_id)
    login(client, "ann")
    page = client.get(f"/annotate/{instance_id}").get_data(as_text=True)
    sentence = re.search(r'<p class="sentence"[^>]*>(.*?)</p>', page, re.S)
    assert sentence is not None
    assert sentence.group(1).startswith("Dear Ann:\n\tThe report is ready.\n\tIt <")
    assert re.search(r">looks(?:</\w+>)+ bright\.$", sentence.group(1))


if os.environ.get("LEXSUB_TEST_DATABASE_URL"):  # the database run: PostgreSQL

    def test_an_import_leaves_postgresql_planner_statistics(app: Flask, tmp_path: Path) -> None:
        """On PostgreSQL the import analyses the tables it filled, so that the save path's
        one SELECT is not planned for empty tables until autovacuum comes
        (bench/RESULTS.md)."""
        from sqlalchemy import text

        from annotate.extensions import db

        path = tmp_path / "ours.csv"
        path.write_text(CSV, encoding="utf-8")
        code, output = run(app, str(path), "--dataset", "ours")
        assert code == 0, output
        with app.app_context():
            assert db.engine.dialect.name == "postgresql"
            analysed = set(
                db.session.scalars(
                    text(
                        "SELECT relname FROM pg_stat_user_tables WHERE relname IN "
                        "('instances', 'lexelts') AND last_analyze IS NOT NULL"
                    )
                )
            )
        assert analysed == {"instances", "lexelts"}
