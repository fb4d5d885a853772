"""Bounded reading (:mod:`scoring.files.bounded`): every upload and import is counted as it is
read and refused at the first bound it crosses, naming the file, the line where reading
stopped and the bound; nothing is stored then; problems are kept to the first 20 and a
count. The bounds are passed lower here so that the files stay small (the memory each
bound keeps a worker under is measured by bench/import_bounds_bench.py, not here)."""

from __future__ import annotations

import gzip
import html
import io
import json

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

import scoring.files.bounded
from annotate.extensions import db
from annotate.models import JudgementRound, SystemRun, User
from annotate.services.rules import ServiceError
from annotate.services.study import parse_user_lines
from scoring.benchmark.swords import read_result
from scoring.errors import BoundError, FormatError, Problems
from scoring.files.bounded import (
    Bounds,
    bounded_bytes,
    bounded_text,
    check_json_values,
    check_text,
    unpacked_chunks,
)
from scoring.formats.importers.read import parse_source
from scoring.formats.instances import Limits, SourceError
from scoring.judgements.rounds import parse_rows
from tests.conftest import login, make_user

LOOSE = 10**6


def refused(source: bytes | io.BytesIO, bounds: Bounds) -> str:
    with pytest.raises(BoundError) as caught:
        bounded_bytes(source, "f", bounds)
    return str(caught.value)


# --- the reader ---------------------------------------------------------------------------


def test_the_line_past_the_bound_is_named_and_the_rest_is_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scoring.files.bounded, "CHUNK", 1024)
    stream = io.BytesIO(b"a\n" * 100_000)  # 200,000 bytes
    assert refused(stream, Bounds(LOOSE, 600)) == (
        "f:601: more than 600 lines; at most 600 (lines) are read"
    )
    assert stream.tell() == 2048  # the second chunk holds line 601: nothing after it is read
    assert bounded_text(b"a\nb\nc", "f", Bounds(LOOSE, 3)) == "a\nb\nc"  # last line unbroken
    assert (
        refused(b"a\nb\nc\nd", Bounds(LOOSE, 3))
        == "f:4: more than 3 lines; at most 3 (lines) are read"
    )


@pytest.mark.parametrize("chunk", [4, 7, 1024])
def test_a_long_line_is_named_wherever_the_chunks_cut(
    monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    monkeypatch.setattr(scoring.files.bounded, "CHUNK", chunk)
    bounds = Bounds(LOOSE, 100, 10)
    for data, line in [
        (b"short\n" + b"x" * 11 + b"\nafter\n", 2),
        (b"a\nb\nc\n" + b"y" * 50, 4),  # the last line, without a line break
        (b"z" * 11, 1),
    ]:
        assert (
            refused(data, bounds) == f"f:{line}: the line has more than 10 bytes (the longest read)"
        )
    assert bounded_bytes(b"0123456789\n" * 3, "f", bounds) == b"0123456789\n" * 3  # at the bound


def test_a_gzip_bomb_is_unpacked_no_further_than_its_bound() -> None:
    bomb = gzip.compress(b"\0" * 20 * 2**20)  # 20 MiB of zeros, about 20 KB packed
    seen = 0
    with pytest.raises(BoundError) as caught:
        for chunk in unpacked_chunks(bomb, "bomb.gz", 3 * 2**20):
            seen += len(chunk)
    assert str(caught.value) == "bomb.gz: unpacks to more than 3 MiB (the most read)"
    assert seen == 3 * 2**20  # the chunk past the bound is never handed on
    assert refused(gzip.compress(b"ok\n")[:-4], Bounds(LOOSE, 10)).startswith(
        "f: not a complete gzip file: "
    )
    assert bounded_text(gzip.compress(b"ok\n"), "f", Bounds(LOOSE, 10)) == "ok\n"


def test_text_already_held_is_checked_against_the_same_bounds() -> None:
    check_text("a\nb\n", "s", Bounds(10, 2))
    with pytest.raises(BoundError, match=r"^s:3: more than 2 lines; at most 2 \(answers\)"):
        check_text("a\nb\nc", "s", Bounds(10, 2, unit="answers"))
    with pytest.raises(BoundError, match=r"^s: holds more than"):
        check_text("x" * 11, "s", Bounds(10, 2))


def test_json_values_are_counted_before_parsing() -> None:
    check_json_values('{"a": [1, 2]}', "r.json", 4)  # {, :, [, ,: four openers
    with pytest.raises(BoundError) as caught:
        check_json_values('{"a": [1,\n 2, 3]}', "r.json", 4)
    assert str(caught.value) == (
        "r.json:2: holds more than 4 JSON values (objects, arrays, members, items); "
        "at most that many are read"
    )


def test_problems_keep_the_first_20_and_count_the_rest() -> None:
    found = Problems()
    for line in range(1, 1001):
        found.add(f"f:{line}: bad")
    assert len(found) == 1000 and len(found.kept) == 20
    error = found.error()
    assert error.count == 1000
    assert str(error).splitlines() == [f"f:{n}: bad" for n in range(1, 21)] + [
        "… and 980 more problems"
    ]


# --- each reader ---------------------------------------------------------------------------


def test_a_tsar_import_stops_at_the_line_past_the_instances(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = gzip.compress(b"A bright day.\tbright\n" * 10_000)
    with pytest.raises(SourceError) as caught:
        parse_source(lines, "t_ls.tsv.gz", "tsar", limits=Limits(instances=50))
    assert str(caught.value) == (
        "t_ls.tsv.gz:51: more than 50 lines; at most 50 (one instance a line) are read"
    )
    blanks = gzip.compress(b"\n" * 5_000_000)  # 5 million empty lines, 5 KB packed
    with pytest.raises(SourceError, match=r"^t_ls.tsv.gz:101: more than 100 lines"):
        parse_source(blanks, "t_ls.tsv.gz", "tsar", limits=Limits(instances=100))
    result = parse_source(
        lines[:0] + b"A bright day.\tbright\n" * 50, "t_ls.tsv", "tsar", limits=Limits(instances=50)
    )
    assert result.n_instances == 50
    monkeypatch.setattr(scoring.files.bounded, "TSAR_FILE", Bounds(1000, 100_000, 1000))
    with pytest.raises(SourceError) as caught:
        parse_source(lines, "t_ls.tsv.gz", "tsar")
    assert str(caught.value) == "t_ls.tsv.gz: holds more than 1,000 bytes (the most read)"


def test_a_swords_dataset_is_read_whole_only_within_its_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dataset = json.dumps(
        {
            "contexts": {"c1": {"context": "A bright day ."}},
            "targets": {"t1": {"context_id": "c1", "target": "bright", "offset": 2, "pos": "ADJ"}},
            "substitutes": {},
            "substitute_labels": {},
        }
    ).encode()
    assert parse_source(gzip.compress(dataset), "s.json.gz").n_instances == 1
    monkeypatch.setattr(scoring.files.bounded, "SWORDS_BYTES", len(dataset) - 1)
    with pytest.raises(SourceError) as caught:
        parse_source(gzip.compress(dataset), "s.json.gz")
    assert (
        str(caught.value)
        == f"s.json.gz: holds more than {len(dataset) - 1:,} bytes (the most read)"
    )


def test_bulk_accounts_stop_at_the_account_past_1000() -> None:
    text = "# the list\n\n" + "".join(f"user{n}\n" for n in range(1, 2001))
    with pytest.raises(ServiceError) as caught:
        parse_user_lines(text, "users.txt")
    assert str(caught.value) == "users.txt:1003: more than 1000 accounts at once; at most 1000"
    assert len(parse_user_lines(text.split("user1001\n")[0], "users.txt")) == 1000


def test_a_rows_file_gives_20_problems_and_a_count() -> None:
    lines = ["sentence\ttarget\tcandidate", *(["only\ttwo"] * 5000)]
    with pytest.raises(FormatError) as caught:
        parse_rows(lines, "rows.tsv")
    assert caught.value.count == 5000
    assert len(caught.value.problems) == 20
    assert str(caught.value).splitlines() == [
        f"rows.tsv:{n}: 2 fields, the header names 3" for n in range(2, 22)
    ] + ["… and 4980 more problems"]


def test_a_swords_result_past_its_values_is_refused_before_parsing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scoring.files.bounded, "RESULT_JSON_VALUES", 10)
    result = json.dumps({"substitutes_lemmatized": True, "substitutes": {"t1": [["a", 1]] * 5}})
    with pytest.raises(BoundError) as caught:
        read_result(result, "r.json")
    assert str(caught.value) == (
        "r.json:1: holds more than 10 JSON values (objects, arrays, members, items); at most "
        "that many are read; 100 candidates for each of SWORDS' 1,132 test targets are 0.34 million"
    )


# --- the web: refused with the message, nothing stored -----------------------------------


@pytest.fixture
def boss(app: Flask, client: FlaskClient) -> FlaskClient:
    make_user(app, "boss", "organiser")
    login(client, "boss")
    return client


def _page(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


@pytest.mark.database
def test_bulk_accounts_past_their_bounds_create_nothing(app: Flask, boss: FlaskClient) -> None:
    def post(body: bytes) -> str:
        return _page(
            boss.post(
                "/organiser/users/bulk",
                data={"file": (io.BytesIO(body), "users.txt")},
                content_type="multipart/form-data",
            )
        )

    body = "".join(f"user{n}\n" for n in range(1, 1002)).encode()
    assert "No account created: users.txt:1001: more than 1000 accounts at once" in post(body)
    bomb = gzip.compress(b"x" * 2 * 2**20)  # one 2 MiB line, 2 KB packed
    assert (
        "No account created: users.txt:1: the line has more than 1,024 bytes (the longest read)"
    ) in post(bomb)
    blanks = gzip.compress(b"\n" * 3 * 2**20)  # 3 million blank lines, 3 KB packed
    assert (
        "No account created: users.txt:10001: more than 10,000 lines; at most 10,000 "
        "(accounts, comments and blank lines) are read"
    ) in post(blanks)
    comments = gzip.compress((b"#" + b"x" * 998 + b"\n") * 2000)  # 2 MB of comments
    assert "No account created: users.txt: unpacks to more than 1 MiB (the most read)" in post(
        comments
    )
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(User)) == 1  # boss only


@pytest.mark.database
def test_a_rows_file_past_its_bounds_makes_no_round(
    app: Flask, boss: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def post(body: bytes) -> str:
        return _page(
            boss.post(
                "/organiser/rounds",
                data={
                    "action": "rows",
                    "name": "lr",
                    "labels": "lexical-reference",
                    "rows": (io.BytesIO(body), "rows.tsv"),
                },
                content_type="multipart/form-data",
            )
        )

    page = post(b"sentence\ttarget\tcandidate\n" + b"only\ttwo\n" * 300)
    assert "rows.tsv:21: 2 fields, the header names 3" in page
    assert "rows.tsv:22:" not in page and "… and 280 more problems" in page
    import annotate.web.judge

    monkeypatch.setattr(annotate.web.judge, "ROWS_FILE", Bounds(LOOSE, 10, 1000, "rows"))
    good = b"sentence\ttarget\tcandidate\n" + b"A <t>bright</t> day.\tbright\tsunny\n" * 20
    assert "No round created: rows.tsv:11: more than 10 lines; at most 10 (rows) are read" in post(
        good
    )
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(JudgementRound)) == 0


@pytest.mark.database
def test_a_system_file_past_its_bounds_is_not_stored_and_a_stored_one_not_rescored(
    answered: Flask, client: FlaskClient, dataset: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import annotate.services.systems
    import annotate.web.reports
    from tests.test_systems import GOOD, upload

    login(client, "boss")
    monkeypatch.setattr(annotate.web.reports, "SYSTEM_FILE", Bounds(LOOSE, 3, 100, "answers"))
    page = html.unescape(upload(client, dataset, (GOOD * 2, "big.best")))
    assert "Not scored: big.best:4: more than 3 lines; at most 3 (answers) are read" in page
    with answered.app_context():
        assert db.session.scalar(select(func.count()).select_from(SystemRun)) == 0
    page = html.unescape(upload(client, dataset, (GOOD, "good.best")))
    assert "good.best stored and scored" in page
    with answered.app_context():
        before = db.session.scalars(select(SystemRun)).one().scores
    monkeypatch.setattr(annotate.services.systems, "SYSTEM_FILE", Bounds(LOOSE, 1, 100, "answers"))
    page = _page(
        client.post(f"/organiser/datasets/{dataset}/scores/rescore", follow_redirects=True)
    )
    assert (
        "Not re-scored (previous figures kept): good.best: good.best:2: more than 1 lines; "
        "at most 1 (answers) are read"
    ) in page
    with answered.app_context():
        assert db.session.scalars(select(SystemRun)).one().scores == before


# --- the worker gives its memory back ---------------------------------------------------------


def test_a_worker_holding_too_much_after_a_request_is_replaced() -> None:
    import logging
    import runpy
    from pathlib import Path
    from types import SimpleNamespace

    root = Path(__file__).resolve().parent.parent
    settings = runpy.run_path(str(root / "gunicorn.conf.py"))
    assert (settings["max_requests"], settings["max_requests_jitter"]) == (1000, 100)
    held = settings["resident_bytes"]()
    assert 10 * 2**20 < held < 2**40  # this process: read from /proc/self/statm
    worker = SimpleNamespace(alive=True, log=logging.getLogger("bench"))
    request = SimpleNamespace(method="POST", path="/organiser/datasets")
    settings["post_request"](worker, request, {}, None)
    assert worker.alive is (held <= settings["RECYCLE_RSS"])
    hook = settings["post_request"]
    hook.__globals__["RECYCLE_RSS"] = held // 2  # as if the request had left that much
    hook(worker, request, {}, None)
    assert worker.alive is False
    deploy = " ".join((root / "docs" / "deploy.md").read_text().split())
    assert "`max_requests` 1000 with a jitter of 100" in deploy
    assert f"{settings['RECYCLE_RSS'] // 2**20} MiB" in deploy
