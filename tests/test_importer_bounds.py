"""What an import may hold: a context's length, the number of instances, the unpacked
size and a JSON file's values and depth (:class:`scoring.formats.importers.Limits`), each refusal
naming the file, the line (or JSON path) and the rule; files are parsed a chunk at a
time, so a gzip bomb is never inflated whole; UTF-16 JSON and tables are refused."""

from __future__ import annotations

import gzip
import json
import re
import runpy
import tracemalloc
import zlib
from io import BytesIO
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.formats.importers.coinco import locate_tokens
from scoring.formats.importers.read import parse_source
from scoring.formats.instances import LIMITS, Limits, SourceError
from tests.conftest import login, make_user

TSV = b"id\tlexelt\tsentence\n1\tbright.a\ta <head>bright</head> boy\n"


def refused(data: bytes, name: str, limits: Limits = LIMITS, **options: str) -> str:
    with pytest.raises(SourceError) as caught:
        parse_source(data, name, limits=limits, **options)
    return str(caught.value)


def table(*sentences: str) -> bytes:
    rows = [f"{n}\tbright.a\t{s}" for n, s in enumerate(sentences, 1)]
    return ("id\tlexelt\tsentence\n" + "\n".join(rows) + "\n").encode()


def xml(*contexts: str) -> bytes:
    instances = "".join(
        f'<instance id="{n}">\n<context>{c}</context>\n</instance>\n'
        for n, c in enumerate(contexts, 1)
    )
    corpus = f'<corpus lang="english">\n<lexelt item="bright.a">\n{instances}</lexelt>\n</corpus>\n'
    return corpus.encode()


def swords(n: int) -> bytes:
    contexts = {f"c:{i}": {"context": "a bright boy"} for i in range(n)}
    targets = {
        f"t:{i}": {"context_id": f"c:{i}", "target": "bright", "offset": 2, "pos": "ADJ"}
        for i in range(n)
    }
    document = {
        "contexts": contexts,
        "targets": targets,
        "substitutes": {},
        "substitute_labels": {},
    }
    return json.dumps(document, indent=1).encode()


def test_the_limits_are_those_documented() -> None:
    assert (LIMITS.context, LIMITS.instances, LIMITS.unpacked) == (10_000, 100_000, 64 * 2**20)
    assert LIMITS.json_values == 3_000_000


def test_a_context_at_the_limit_imports_one_past_it_is_refused_with_its_line() -> None:
    fits = "a <head>bright</head> " + "x" * 11  # 20 characters without the markup
    assert parse_source(table(fits), "t.tsv", limits=Limits(context=20)).n_instances == 1
    assert refused(table(fits, fits + "y"), "t.tsv", Limits(context=20)) == (
        "t.tsv:3: the context of instance '2' has more than 20 characters; at most 20"
    )
    message = refused(xml(fits, "a <head>bright</head> " + "x" * 12), "t.xml", Limits(context=20))
    assert message == (
        "t.xml:7: the context of instance '2' has more than 20 characters; at most 20"
    )


def test_more_instances_than_the_limit_are_refused_at_the_first_too_many() -> None:
    three = ["a <head>bright</head> boy"] * 3
    assert parse_source(table(*three), "t.tsv", limits=Limits(instances=3)).n_instances == 3
    expected = (
        "more than 2 instances; at most 2 are imported (split the file into several datasets)"
    )
    assert refused(table(*three), "t.tsv", Limits(instances=2)) == f"t.tsv:4: {expected}"
    assert refused(xml(*three), "t.xml", Limits(instances=2)) == f"t.xml:9: {expected}"
    message = refused(swords(3), "s.json", Limits(instances=2))
    assert message == f's.json:$["targets"]["t:2"]: {expected}'
    assert parse_source(swords(3), "s.json", limits=Limits(instances=3)).n_instances == 3


def test_a_plain_file_past_the_unpacked_size_is_refused() -> None:
    assert refused(TSV, "t.tsv", Limits(unpacked=len(TSV) - 1)) == (
        f"t.tsv: holds more than {len(TSV) - 1:,} bytes (the most read)"
    )
    assert parse_source(TSV, "t.tsv", limits=Limits(unpacked=len(TSV))).n_instances == 1


def bomb(before: bytes, megabytes: int, after: bytes) -> bytes:
    """A gzip file of ``before``, ``megabytes`` MiB of ``x`` and ``after``, compressed
    without ever holding the middle."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [packer.compress(before)]
    block = b"x" * 2**20
    parts += [packer.compress(block) for _ in range(megabytes)]
    parts += [packer.compress(after), packer.flush()]
    return b"".join(parts)


@pytest.mark.parametrize(
    ("name", "before", "after", "line"),
    [
        (
            "one.xml.gz",
            b'<corpus>\n<lexelt item="a.n">\n<instance id="1">\n<context><head>a</head> ',
            b"</context></instance></lexelt></corpus>\n",
            4,
        ),
        ("one.tsv.gz", b"id\tlexelt\tsentence\n1\ta.n\t<head>a</head> ", b"\n", 2),
    ],
)
def test_a_gzip_bomb_of_one_sentence_is_refused_without_inflating_it(
    name: str, before: bytes, after: bytes, line: int
) -> None:
    data = bomb(before, 250, after)
    assert len(data) < 400_000
    tracemalloc.start()
    try:
        with pytest.raises(SourceError) as caught:
            parse_source(data, name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.line == line
    assert peak < 40 * 2**20  # the 250 MiB were never held
    if name.endswith(".xml.gz"):
        assert "has more than 10,000 characters; at most 10,000" in str(caught.value)


def test_nested_json_is_refused_with_its_line_not_a_recursion_error() -> None:
    data = b"[" * 200_000 + b"]" * 200_000
    assert refused(data, "deep.json") == (
        "deep.json:1: JSON nested more than 100 deep (arrays and objects inside each "
        "other); a SWORDS file nests 5 deep"
    )
    lines = b'{"a":\n' * 3000 + b"1" + b"}" * 3000
    assert refused(lines, "deep.json").startswith("deep.json:101: JSON nested more than 100")


def test_json_with_more_values_than_the_limit_is_refused_with_its_line() -> None:
    data = swords(2)
    values = sum(data.count(char) for char in b"[{,:")
    assert parse_source(data, "s.json", limits=Limits(json_values=values)).n_instances == 2
    message = refused(data, "s.json", Limits(json_values=values - 1))
    line = data.count(b"\n", 0, data.rfind(b":")) + 1
    assert message == (
        f"s.json:{line}: holds more than {values - 1:,} JSON "
        "values (objects, arrays, members, items); at most that many are read"
    )


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
@pytest.mark.parametrize(
    "text", [TSV.decode(), TSV.decode().replace("\t", ","), swords(1).decode()]
)
def test_utf16_json_and_tables_are_refused_naming_the_encoding(encoding: str, text: str) -> None:
    wide = encoding.upper()
    assert refused(text.encode(encoding), "f") == (
        f"f:1: the file is {wide}; only XML may be: JSON, TSV and CSV are read as UTF-8 "
        "(save the file as UTF-8)"
    )


def test_utf16_xml_and_a_utf8_byte_order_mark_still_import() -> None:
    contexts = ["a <head>bright</head> boy"]
    text = xml(*contexts).decode()
    assert parse_source(text.encode("utf-16"), "w.xml").n_instances == 1
    for data in (TSV, swords(1), xml(*contexts)):
        plain = parse_source(data, "f")
        assert parse_source(b"\xef\xbb\xbf" + data, "f") == plain
        assert parse_source(gzip.compress(b"\xef\xbb\xbf" + data), "f") == plain


def test_tables_read_in_chunks_keep_their_lines_and_line_ends() -> None:
    data = (
        b'id,lexelt,sentence\r\n1,bright.a,"a <head>bright</head>\r\nboy"\r'
        b"2,bright.a,<head>a</head>\n"
    )
    whole = parse_source(data, "t.csv")
    assert [(i.after, i.line) for i in whole.instances] == [("\r\nboy", 2), ("", 4)]
    packed = gzip.compress(data)
    assert parse_source(packed, "t.csv") == whole


@pytest.fixture
def limited(app: Flask) -> Flask:
    app.config["IMPORT_LIMITS"] = Limits(context=20, instances=2, unpacked=4096)
    return app


@pytest.mark.database
def test_the_import_page_refuses_past_the_limits_and_a_deep_json(
    limited: Flask, client: FlaskClient
) -> None:
    make_user(limited, "boss", "organiser")
    login(client, "boss")

    def upload(data: bytes, name: str) -> str:
        return client.post(
            "/organiser/datasets",
            data={"name": "x", "file": (BytesIO(data), name)},
            content_type="multipart/form-data",
        ).get_data(as_text=True)

    page = upload(table("a <head>bright</head> boy and more"), "long.tsv")
    assert (
        "Nothing imported: long.tsv:2: the context of instance &#39;1&#39; has more than 20" in page
    )
    page = upload(b"[" * 2000 + b"]" * 2000, "deep.json")
    assert "Nothing imported: deep.json:1: JSON nested more than 100 deep" in page
    assert "Nothing imported: big.tsv: holds more than" in upload(TSV + b"\n" * 5000, "big.tsv")


@pytest.mark.database
def test_the_import_command_refuses_a_file_past_the_size_before_reading_it(
    limited: Flask, tmp_path: Path
) -> None:
    path = tmp_path / "big.tsv"
    path.write_bytes(TSV + b"\n" * 5000)
    result = limited.test_cli_runner().invoke(
        args=["lexsub", "import", str(path), "--dataset", "x"]
    )
    assert result.exit_code == 1
    assert result.output == (
        f"Error: nothing imported: {path}: holds more than 4,096 bytes (the most read)\n"
    )
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 2000 + b"]" * 2000)
    result = limited.test_cli_runner().invoke(
        args=["lexsub", "import", str(deep), "--dataset", "x"]
    )
    assert (result.exit_code, result.output.splitlines()[-1][:60]) == (
        1,
        f"Error: nothing imported: {deep}:1: JSON nested more than 100 deep"[:60],
    )


def coinco(sentence: str, post: str = "") -> bytes:
    return (
        "<document>\n<sent MASCfile='f' MASCsentID='s-1'>\n<precontext>Before.</precontext>\n"
        f"<targetsentence>{sentence}</targetsentence>\n<postcontext>{post}</postcontext>\n"
        '<tokens>\n<token id="7" wordform="bright" lemma="bright" posMASC="JJ"/>\n'
        "</tokens>\n</sent>\n</document>\n"
    ).encode()


def test_a_coinco_sentence_past_the_limit_is_refused_at_its_first_annotated_token() -> None:
    sentence = "A bright boy ."  # the context: "Before.\nA bright boy ." (22 characters)
    assert parse_source(coinco(sentence), "c.xml", limits=Limits(context=22)).n_instances == 1
    assert refused(coinco(sentence), "c.xml", Limits(context=21)) == (
        "c.xml:7: the context of instance '7' has more than 21 characters; at most 21"
    )
    assert parse_source(coinco(sentence, "x"), "c.xml", limits=Limits(context=24)).n_instances == 1


def test_the_limits_and_the_worker_timeout_are_stated_where_the_docs_say() -> None:
    root = Path(__file__).resolve().parent.parent
    settings = runpy.run_path(str(root / "gunicorn.conf.py"))
    assert settings["timeout"] == 300
    readme = " ".join((root / "docs" / "import.md").read_text().split())  # the import's page
    deploy = " ".join((root / "docs" / "deploy.md").read_text().split())
    for text in (readme, deploy):
        assert f"{LIMITS.instances:,}" in text and f"{LIMITS.context:,} characters" in text
        assert f"{LIMITS.unpacked // 2**20} MiB" in text and "300 s" in text
    assert "worker timeout of **300 s** that `gunicorn.conf.py` sets" in deploy
    assert f"at most {LIMITS.json_values:,} values" in readme


@pytest.mark.database
@pytest.mark.parametrize("batch", [2, 3, 5000])
def test_instances_stored_in_batches_keep_their_order_and_positions(
    app: Flask, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Instance
    from annotate.services.datasets import import_dataset

    monkeypatch.setattr("annotate.services.datasets.INSERT_BATCH", batch)
    data = b"id\tlexelt\tsentence\n" + b"".join(
        f"{n}\t{w}.a\tan <head>{w}</head> {n}\n".encode()
        for n, w in enumerate(["bright", "dark", "bright", "dark", "bright"], 1)
    )
    with app.app_context():
        imported = import_dataset(parse_source(data, "t.tsv"), "batched", "t.tsv", data)
        stored = db.session.execute(
            select(Instance.position, Instance.xml_id, Instance.after).order_by(Instance.id)
        ).all()
    assert imported.instances == 5
    assert [tuple(row) for row in stored] == [
        (0, "1", " 1"),
        (1, "3", " 3"),
        (2, "5", " 5"),
        (3, "2", " 2"),
        (4, "4", " 4"),
    ]


HOSTILE = [
    ("deep.json", b"[" * 200_000 + b"]" * 200_000, "deep.json:1: JSON nested more than 100 deep"),
    ("wide.tsv", TSV.decode().encode("utf-16"), "wide.tsv:1: the file is UTF-16; only XML may be"),
    ("wide.json", swords(1).decode().encode("utf-16"), "wide.json:1: the file is UTF-16;"),
]


@pytest.mark.database
@pytest.mark.parametrize(("name", "data", "message"), HOSTILE)
def test_hostile_files_are_refused_by_the_page_and_the_command_without_a_traceback(
    app: Flask, client: FlaskClient, tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    make_user(app, "boss", "organiser")
    login(client, "boss")
    response = client.post(
        "/organiser/datasets",
        data={"name": "x", "file": (BytesIO(data), name)},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200
    assert f"Nothing imported: {message}" in response.get_data(as_text=True)
    path = tmp_path / name
    path.write_bytes(data)
    result = app.test_cli_runner().invoke(args=["lexsub", "import", str(path), "--dataset", "x"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.startswith(f"Error: nothing imported: {tmp_path}/{message}")


def located_by_pattern(text: str, words: list[str]) -> list[tuple[int, int] | None]:
    """:func:`locate_tokens` as it was written first, a pattern compiled for each token:
    the oracle of the faster one."""
    spans: list[tuple[int, int] | None] = []
    position = 0
    previous: tuple[int, int] | None = None
    for word in words:
        span: tuple[int, int] | None = None
        start = text.find(word, position) if word else -1
        if start >= 0 and not any(char.isalnum() for char in text[position:start]):
            span = (start, start + len(word))
        elif previous is not None and word:
            start = text.find(word, previous[0] + 1)
            if 0 <= start < previous[1] <= start + len(word):
                span = (start, start + len(word))
        if span is None and word:
            whole = re.compile(r"(?<!\w)" + re.escape(word) + r"(?!\w)").search(text, position)
            if whole is not None:
                span = whole.span()
        if span is not None:
            previous, position = span, span[1]
        spans.append(span)
    return spans


TOKEN_TEXT = st.text(alphabet="ab_ -,.é1\u2019", max_size=30)


@settings(max_examples=400, deadline=None)
@given(TOKEN_TEXT, st.lists(st.text(alphabet="ab_ -,.é1\u2019", max_size=4), max_size=12))
def test_tokens_are_placed_as_the_pattern_per_token_placed_them(
    text: str, words: list[str]
) -> None:
    assert locate_tokens(text, words) == located_by_pattern(text, words)


def test_the_same_misplaced_token_again_is_not_searched_for_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A token placed nowhere leaves the search where it was, so the same token after it
    fails the same way: 5,000 of them cost one search of the sentence, not 5,000."""
    from scoring.formats.importers import coinco as module

    calls: list[str] = []
    whole_word = module._whole_word

    def counted(text: str, word: str, start: int) -> tuple[int, int] | None:
        calls.append(word)
        return whole_word(text, word, start)

    monkeypatch.setattr(module, "_whole_word", counted)
    text = "xorx " * 1900
    assert locate_tokens(text, ["or"] * 5000 + ["xorx"]) == [None] * 5000 + [(0, 4)]
    assert calls == ["or"]
