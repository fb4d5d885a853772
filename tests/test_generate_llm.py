"""``lexsub generate llm`` against a real OpenAI-compatible HTTP server run in the test
(:mod:`tests.openai_server`): what the client sends (the schema, the key only in the
``Authorization`` header), the protocol's failure modes (429 with and without
``Retry-After``, 500, 503, a timeout, a body that is not JSON, a reply ignoring the schema,
a 401), the cache, samples, the target dropped, and the files read back by ``lexsub
score`` and ``lexsub benchmark`` with the provenance's fingerprint in their signatures."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from annotate.generate.cli import run
from annotate.generate.client import Endpoint, EndpointError, ServerError
from annotate.generate.items import CHUNK, count_items, iter_items, read_items
from annotate.generate.replies import SCHEMA, parse_reply, rank_samples
from scoring.errors import BoundError, FormatError
from tests.openai_server import FakeServer

BIN = Path(sys.executable).parent
KEY = "sk-test-0123456789abcdef"
XML = """<?xml version="1.0" ?>
<corpus lang="english">
<lexelt item="bright.a">
<instance id="1"><context>She is a very <head>bright</head> student.</context></instance>
<instance id="2"><context>The <head>bright</head> sun rose.</context></instance>
</lexelt>
<lexelt item="catch.v">
<instance id="3"><context>Half the class <head>caught</head> a cold.</context></instance>
</lexelt>
</corpus>
"""
GOLD = "bright.a 1 :: clever 3;smart 2;\nbright.a 2 :: shining 2;sunny 1;\ncatch.v 3 :: get 3;\n"


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as running:
        yield running


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "items.xml"
    path.write_text(XML, encoding="utf-8")
    return path


def _generate(server: FakeServer, data: Path, out: Path, *extra: str) -> int:
    argv = ["llm", "--base-url", server.url, "--model", "tiny", "--data", str(data)]
    argv += ["--out", str(out), "--cache", str(out.parent / "cache"), *extra]
    if "--format" not in extra:
        argv += ["--format", "best"]
    return run(argv)


def _endpoint(server: FakeServer, waits: list[float], **options: Any) -> Endpoint:
    return Endpoint(server.url, sleep=waits.append, **options)


BODY = {"model": "tiny", "messages": [{"role": "user", "content": "x"}]}


# --- what the client sends ---------------------------------------------------------------


def test_the_key_goes_in_the_header_only(
    tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key from LEXSUB_API_KEY: the Authorization header of every request, and nowhere
    else (request bodies, standard output and error, the output, provenance and cache)."""
    out = tmp_path / "run.best"
    with FakeServer(key=KEY) as server:
        env = {"LEXSUB_API_KEY": KEY, "PATH": str(BIN), "HOME": str(tmp_path)}
        argv = ["generate", "llm", "--base-url", server.url, "--model", "tiny"]
        argv += ["--data", str(data), "--format", "oot", "--out", str(out)]
        argv += ["--cache", str(tmp_path / "cache")]
        done = subprocess.run(
            [str(BIN / "lexsub"), *argv], capture_output=True, text=True, env=env, check=False
        )
        requests = list(server.requests)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"llm: 3 of 3 items answered, oot file {out} (3 requests")
    assert [r["path"] for r in requests] == ["/v1/models"] + ["/v1/chat/completions"] * 3
    for request in requests:
        assert request["headers"]["Authorization"] == f"Bearer {KEY}"
        assert KEY not in json.dumps(request["body"])
    chats = [r["body"] for r in requests[1:]]
    assert chats[0]["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "substitutes", "strict": True, "schema": SCHEMA},
    }
    assert chats[0]["model"] == "tiny" and chats[0]["temperature"] == 0.0
    assert "guided_json" not in chats[0]
    sent = sorted(chat["messages"][0]["content"] for chat in chats)  # threads: any order
    assert sum("Sentence: She is a very bright student." in message for message in sent) == 1
    assert KEY not in done.stdout + done.stderr
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert KEY.encode() not in path.read_bytes(), path


def test_an_unauthorised_key_is_one_line_without_the_key(
    tmp_path: Path, data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LEXSUB_API_KEY", "sk-wrong-key")
    with FakeServer(key=KEY) as server:
        assert _generate(server, data, tmp_path / "out.best") == 1
        host = server.url.split("/")[2]
    err = capsys.readouterr().err
    assert err == (
        f"Error: the endpoint {host} refused the API key (HTTP 401): "
        "set LEXSUB_API_KEY to a valid key\n"
    )
    assert not (tmp_path / "out.best").exists()


# --- bad input: one line ---------------------------------------------------------------


def test_an_unknown_model_names_the_models(
    server: FakeServer, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["llm", "--base-url", server.url, "--model", "huge", "--data", str(data)]
    argv += ["--format", "best", "--out", str(tmp_path / "o"), "--cache", str(tmp_path / "c")]
    assert run(argv) == 1
    host = server.url.split("/")[2]
    assert capsys.readouterr().err == (
        f"Error: the endpoint {host} has no model 'huge' (it has: tiny)\n"
    )
    assert server.chats() == []


def test_an_unreachable_endpoint(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    argv = ["llm", "--base-url", f"http://127.0.0.1:{port}", "--model", "m"]
    argv += ["--data", str(data), "--format", "best", "--out", str(tmp_path / "o")]
    assert run([*argv, "--cache", str(tmp_path / "c")]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: the endpoint 127.0.0.1:{port} cannot be reached (")
    assert err.endswith("is the server running and --base-url right?\n")
    assert err.count("\n") == 1


def test_a_file_of_the_wrong_kind(
    server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold"
    gold.write_text(GOLD, encoding="utf-8")
    assert _generate(server, gold, tmp_path / "o") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: {gold}:1: ") and err.count("\n") == 1
    assert server.requests == []


def test_a_broken_prompt_template(
    server: FakeServer, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prompt = tmp_path / "p.jinja"
    prompt.write_text("Replace {{ target } in {{ sentence }}", encoding="utf-8")
    assert _generate(server, data, tmp_path / "o", "--prompt", str(prompt)) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"Error: {prompt}, line 1: not a Jinja template (")
    prompt.write_text("Replace {{ targte }}", encoding="utf-8")
    assert _generate(server, data, tmp_path / "o", "--prompt", str(prompt)) == 1
    assert capsys.readouterr().err == (
        f"Error: {prompt}: the template fails: 'targte' is undefined\n"
    )


def test_without_jinja2_one_line_names_the_extra(
    server: FakeServer,
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)  # import jinja2 raises ImportError
    assert _generate(server, data, tmp_path / "o") == 1
    assert capsys.readouterr().err == (
        "Error: lexsub generate llm reads its prompt with Jinja2: "
        "pip install 'lexsub[models]' (or pip install jinja2)\n"
    )


# --- the protocol's failure modes ------------------------------------------------------


def test_429_with_retry_after_waits_what_the_server_says(server: FakeServer) -> None:
    waits: list[float] = []
    server.script = ["429-after", "429-after", "ok"]
    reply = _endpoint(server, waits).chat(BODY, SCHEMA)
    assert waits == [1.0, 1.0]
    assert json.loads(reply.content) == {"substitutes": ["bright", "clever", "smart"]}


def test_429_without_retry_after_backs_off_with_jitter(server: FakeServer) -> None:
    waits: list[float] = []
    server.script = ["429", "429", "429", "ok"]
    endpoint = _endpoint(server, waits)
    endpoint.chat(BODY, SCHEMA)
    assert len(waits) == 3 and endpoint.retried == 3
    # full jitter: uniform in [0, 0.5·2^attempt]
    assert 0 <= waits[0] <= 0.5 and 0 <= waits[1] <= 1.0 and 0 <= waits[2] <= 2.0


def test_503_is_retried_until_the_retries_run_out(server: FakeServer) -> None:
    waits: list[float] = []
    server.default = "503"
    with pytest.raises(ServerError, match="HTTP 503"):
        _endpoint(server, waits, retries=2).chat(BODY, SCHEMA)
    assert len(waits) == 2 and len(server.chats()) == 3


def test_a_500_to_json_schema_lowers_the_form_once_for_the_endpoint(server: FakeServer) -> None:
    """llama.cpp's Python server answers "type": "json_schema" with an HTTP 500: the next
    request carries {"type": "json_object", "schema": …}, and so do all later ones."""
    server.refuse_json_schema = True
    waits: list[float] = []
    endpoint = _endpoint(server, waits)
    for _ in range(3):
        endpoint.chat(BODY, SCHEMA)
    forms = [r["body"].get("response_format", {}) for r in server.chats()]
    assert [form["type"] for form in forms] == ["json_schema"] + ["json_object"] * 3
    assert forms[1] == {"type": "json_object", "schema": SCHEMA}
    assert endpoint.form == "json_object" and waits == []


def test_a_server_refusing_both_forms_gets_plain_text(server: FakeServer) -> None:
    server.script = ["500", "500", "plain"]
    endpoint = _endpoint(server, [])
    reply = endpoint.chat(BODY, SCHEMA)
    assert "response_format" not in server.chats()[2]["body"]
    assert endpoint.form == "text" and reply.form == "text"
    assert parse_reply(reply.content) == ["bright", "clever", "smart"]


def test_a_500_to_a_plain_request_is_retried(server: FakeServer) -> None:
    waits: list[float] = []
    endpoint = _endpoint(server, waits)
    endpoint.form = "text"
    server.script = ["500", "ok"]
    endpoint.chat(BODY, SCHEMA)
    assert len(waits) == 1 and endpoint.form == "text"


def test_a_timeout_is_retried(server: FakeServer) -> None:
    server.delay = 1.0
    server.script = ["slow", "ok"]
    waits: list[float] = []
    endpoint = _endpoint(server, waits, timeout=0.2)
    reply = endpoint.chat(BODY, SCHEMA)
    assert len(waits) == 1 and reply.prompt_tokens == 10


def test_a_body_that_is_not_json_leaves_the_item_empty_with_a_warning(
    server: FakeServer, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.script = ["notjson"]
    out = tmp_path / "o.best"
    assert _generate(server, data, out, "--concurrency", "1") == 0
    captured = capsys.readouterr()
    assert captured.err == (
        "Warning: 1 of 3 requests gave no candidates (server 1); "
        "they are asked again on the next run\n"
    )
    # the target is never its own substitute: bright.a's first candidate is clever
    assert out.read_text() == "bright.a 2 :: clever\ncatch.v 3 :: bright\n"
    provenance = json.loads(Path(f"{out}.provenance.json").read_text())
    assert provenance["failures"] == {"server": 1, "unreadable": 0}
    assert provenance["answered"] == 2
    # the failed item is asked again, the others come from the cache
    assert _generate(server, data, out, "--concurrency", "1") == 0
    assert len(server.chats()) == 4
    assert out.read_text().startswith("bright.a 1 :: clever\n")


def test_a_reply_ignoring_the_schema_is_read_as_a_list(
    server: FakeServer, data: Path, tmp_path: Path
) -> None:
    server.default = "plain"
    out = tmp_path / "o.oot"
    assert _generate(server, data, out, "--format", "oot") == 0
    assert out.read_text().splitlines()[2] == "catch.v 3 ::: bright;clever;smart"
    assert json.loads(Path(f"{out}.provenance.json").read_text())["plain_replies"] == 3


def test_a_reply_without_a_list_is_asked_once_more_then_counted(
    server: FakeServer, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server.script = ["prose", "ok", "prose", "prose"]
    out = tmp_path / "o.best"
    assert _generate(server, data, out, "--concurrency", "1") == 0
    chats = server.chats()
    assert len(chats) == 5
    reask = chats[1]["body"]["messages"]
    assert [m["role"] for m in reask] == ["user", "assistant", "user"]
    assert reask[2]["content"].startswith("Answer with JSON only")
    assert out.read_text() == "bright.a 1 :: clever\ncatch.v 3 :: bright\n"
    assert "(unreadable 1)" in capsys.readouterr().err
    provenance = json.loads(Path(f"{out}.provenance.json").read_text())
    assert provenance["reasked"] == 2 and provenance["failures"]["unreadable"] == 1


# --- the run -----------------------------------------------------------------------------


def test_a_second_run_makes_no_request(
    server: FakeServer, data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "o.best"
    assert _generate(server, data, out) == 0
    first = out.read_text()
    before = len(server.requests)
    assert _generate(server, data, out) == 0
    assert len(server.requests) == before  # not even /v1/models
    assert out.read_text() == first
    printed = capsys.readouterr().out.splitlines()
    assert "(0 requests, 3 cached, 0 tokens spent" in printed[1]
    provenance = json.loads(Path(f"{out}.provenance.json").read_text())
    assert provenance["tokens"] == {"prompt": 30, "completion": 15, "spent": 0}
    # another temperature is another question
    assert _generate(server, data, out, "--temperature", "0.5") == 0
    assert len(server.chats()) == 6


def test_at_most_concurrency_requests_in_flight(
    server: FakeServer, data: Path, tmp_path: Path
) -> None:
    server.default = "slow"
    server.delay = 0.3
    assert _generate(server, data, tmp_path / "o", "--concurrency", "2") == 0
    assert server.most_in_flight == 2


def test_samples_are_ranked_by_votes_then_order(
    server: FakeServer, data: Path, tmp_path: Path
) -> None:
    lists = {1: ["clever", "smart", "brilliant"], 2: ["smart", "clever"], 3: ["smart", "keen"]}
    server.answer = lambda body: lists[body["seed"]]
    out = tmp_path / "o.oot"
    argv = ["--format", "oot", "--samples", "3", "--seed", "1"]
    assert _generate(server, data, out, *argv) == 0
    # smart 3 votes, clever 2, then brilliant (place 2) and keen (place 1): keen first
    assert out.read_text().splitlines()[0] == "bright.a 1 ::: smart;clever;keen;brilliant"
    seeds = sorted(r["body"]["seed"] for r in server.chats())
    assert seeds == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    assert {r["body"]["temperature"] for r in server.chats()} == {0.8}


def test_the_target_and_its_inflections_are_dropped(
    server: FakeServer, data: Path, tmp_path: Path
) -> None:
    server.answer = lambda body: ["catches", "Caught", "grab", "catch", "catching", "get"]
    out = tmp_path / "o.oot"
    assert _generate(server, data, out, "--format", "oot") == 0
    assert out.read_text().splitlines()[2] == "catch.v 3 ::: grab;get"


def test_rank_samples_and_parse_reply_by_hand() -> None:
    assert rank_samples([["a", "b"], ["B", "c"]]) == ["b", "a", "c"]
    assert parse_reply('["x", "y"]') == ["x", "y"]
    assert parse_reply('{"words": ["x", "y"]}') == ["x", "y"]
    assert parse_reply('```json\n{"substitutes": ["x"]}\n```') == ["x"]
    assert parse_reply("clever, smart; bright") == ["clever", "smart", "bright"]
    assert parse_reply("- clever\n- a very long phrase that is a sentence\n* smart") == [
        "clever",
        "smart",
    ]
    assert parse_reply('{"substitutes": "clever"}') is None
    assert parse_reply("I cannot help with this request, sorry about that.") is None


def test_the_cache_is_one_sqlite_file(server: FakeServer, data: Path, tmp_path: Path) -> None:
    assert _generate(server, data, tmp_path / "o") == 0
    with sqlite3.connect(tmp_path / "cache" / "replies.sqlite3") as db:
        rows = db.execute("SELECT value FROM reply").fetchall()
    assert len(rows) == 3
    assert json.loads(rows[0][0]) == {
        "candidates": ["bright", "clever", "smart"],
        "prompt_tokens": 10,
        "completion_tokens": 5,
    }


def test_a_tsar_file_is_read_a_chunk_at_a_time_as_read_items_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "items.tsv"
    lines = ["\ufeffS 0 w.\tw"] + [f"S {n} w.\tw\tx" for n in range(1, CHUNK + 10)]
    path.write_bytes("\r\n".join(lines[:500]).encode() + b"\r" + "\n".join(lines[500:]).encode())
    assert count_items(path) == CHUNK + 10
    assert list(iter_items(path)) == list(read_items(path))
    lines[CHUNK + 3] = "no tab here"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=f"items.tsv:{CHUNK + 4}: 'no tab here' has no tab"):
        count_items(path)
    path.write_text(" \n\n", encoding="utf-8")
    with pytest.raises(FormatError, match="the file is empty"):
        count_items(path)


def test_a_tsar_file_past_the_reading_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "items.tsv"
    path.write_text("S.\tw\n" + "x" * 40 + "\tw\n", encoding="utf-8")
    monkeypatch.setenv("LEXSUB_MAX_LINE_BYTES", "30")
    with pytest.raises(BoundError, match=r"items.tsv:2: the line has more than 30 bytes"):
        count_items(path)
    monkeypatch.setenv("LEXSUB_MAX_LINE_BYTES", "100")
    assert count_items(path) == 2
    monkeypatch.setenv("LEXSUB_MAX_FILE_BYTES", "20")
    with pytest.raises(BoundError, match=r"items.tsv: holds more than 20 bytes"):
        count_items(path)


def test_the_endpoint_url_must_be_http() -> None:
    with pytest.raises(EndpointError, match="is not an http"):
        Endpoint("localhost:11434")
    assert Endpoint("http://h:1/").base_url == "http://h:1/v1"
    assert Endpoint("https://api.example.org/v1/").base_url == "https://api.example.org/v1"


# --- read back by the scorer and the benchmark, the fingerprint in the signature ---------


def test_score_reads_the_file_and_signs_it_with_the_provenance(
    server: FakeServer, data: Path, tmp_path: Path
) -> None:
    server.answer = lambda body: (
        ["sunny", "shining"] if "sun rose" in body["messages"][0]["content"] else ["clever"]
    )
    out = tmp_path / "llm.best"
    assert _generate(server, data, out) == 0
    assert out.read_text() == "bright.a 1 :: clever\nbright.a 2 :: sunny\ncatch.v 3 :: clever\n"
    gold = tmp_path / "gold"
    gold.write_text(GOLD, encoding="utf-8")
    fingerprint = json.loads(Path(f"{out}.provenance.json").read_text())["fingerprint"]
    assert len(fingerprint) == 16
    done = subprocess.run(
        [str(BIN / "lexsub"), "score", str(out), str(gold), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    scores = json.loads(done.stdout)
    # clever 3 of 5; sunny 1 of 3; catch.v 3 wrong: (3/5 + 1/3 + 0) / 3
    assert scores["recall"] == pytest.approx((3 / 5 + 1 / 3) / 3)
    assert f"|provenance:{fingerprint}|version:" in scores["signature"]
    Path(f"{out}.provenance.json").unlink()
    done = subprocess.run(
        [str(BIN / "lexsub"), "score", str(out), str(gold), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "provenance" not in json.loads(done.stdout)["signature"]


def test_a_tsar_file_is_answered_and_benchmarked(
    server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tsar = tmp_path / "items.tsv"
    tsar.write_text(
        "The cat was very intelligent.\tintelligent\tsmart\tclever\n"
        "A compulsory test.\tcompulsory\trequired\tmandatory\n",
        encoding="utf-8",
    )
    server.answer = lambda body: (
        ["clever", "bright"]
        if "intelligent" in body["messages"][0]["content"]
        else ["obligatory", "required"]
    )
    out = tmp_path / "llm.tsv"
    assert _generate(server, tsar, out, "--format", "tsar") == 0
    assert server.chats()[0]["body"]["messages"][0]["content"].startswith(
        "You are helping with lexical simplification in English."
    )
    assert out.read_text() == (
        "The cat was very intelligent.\tintelligent\tclever\tbright\n"
        "A compulsory test.\tcompulsory\tobligatory\trequired\n"
    )
    capsys.readouterr()
    from scoring.benchmark.cli import main

    assert main(["tsar", str(out), "--data", str(tsar), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # clever is gold, obligatory is not: MAP@1 1/2; both items have a gold word in 3
    assert report["MAP@1/Potential@1/Precision@1"] == 0.5
    assert report["Potential@3"] == 1.0
    fingerprint = json.loads(Path(f"{out}.provenance.json").read_text())["fingerprint"]
    assert f"|provenance:{fingerprint}|version:" in report["signature"]
