"""scoring.formats.importers: CoInCo XML, SWORDS JSON, TSV and CSV, gzip, the format told from the
content, the dataset's language and NFC names, on small files we write, on the real
CoInCo and SWORDS releases, and on malformed input."""

from __future__ import annotations

import gzip
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from scoring.formats.importers.coinco import locate_tokens
from scoring.formats.importers.read import detect_format, parse_source, read_source
from scoring.formats.instances import ImportResult, Instance, Limits, Repair, SourceError
from scoring.formats.language import declared_language, iso639_1
from tests.conftest import shared_path


def refused(data: bytes, name: str = "in", **options: Any) -> SourceError:
    with pytest.raises(SourceError) as caught:
        parse_source(data, name, **options)
    return caught.value


def rows(result: ImportResult) -> list[tuple[str, str, str, str, str, int]]:
    return [(i.id, i.lexelt, i.before, i.head, i.after, i.line) for i in result.instances]


# --- CoInCo ------------------------------------------------------------------------------

COINCO = """<?xml version="1.0"?>
<document>
  <sent MASCfile="ours.txt" MASCsentID="s-r0" >
    <precontext>
    The lamp was old.
    </precontext>
    <targetsentence>
    It gave a bright light, didn\u2019t it?
    </targetsentence>
    <postcontext>
    We sat by it.
    </postcontext>
    <tokens>
      <token id="XXX" wordform="It" lemma="it" posMASC="XXX" posTT="PP" />
      <token id="10" wordform="gave" lemma="give" posMASC="VBD" posTT="VVD" problematic="no" >
        <substitutions>
          <subst lemma="emit" pos="VV" freq="2" />
        </substitutions>
      </token>
      <token id="XXX" wordform="a" lemma="a" posMASC="XXX" posTT="DT" />
      <token id="11" wordform="bright" lemma="bright" posMASC="JJ" posTT="JJ" problematic="no" >
        <substitutions>
          <subst lemma="shining" pos="JJ" freq="1" />
        </substitutions>
      </token>
      <token id="12" wordform="light" lemma="light" posMASC="NN" posTT="NN" problematic="yes" >
        <substitutions>
          <subst lemma="glow" pos="NN" freq="1" />
        </substitutions>
      </token>
      <token id="XXX" wordform="," lemma="," posMASC="XXX" posTT="," />
      <token id="13" wordform="didn" lemma="do" posMASC="VBD" posTT="VVD" problematic="no" />
      <token id="XXX" wordform="n\u2019t" lemma="not" posMASC="XXX" posTT="RB" />
      <token id="XXX" wordform="it" lemma="it" posMASC="XXX" posTT="PP" />
      <token id="XXX" wordform="?" lemma="?" posMASC="XXX" posTT="SENT" />
    </tokens>
  </sent>
  <sent MASCfile="ours.txt" MASCsentID="s-r1" >
    <precontext>
    </precontext>
    <targetsentence>
    Brightly-lit rooms felt bright.
    </targetsentence>
    <postcontext>
    </postcontext>
    <tokens>
      <token id="20" wordform="Brightly" lemma="brightly" posMASC="RB" problematic="no" />
      <token id="XXX" wordform="lit" lemma="light" posMASC="XXX" posTT="VVN" />
      <token id="XXX" wordform="rooms" lemma="room" posMASC="XXX" posTT="NNS" />
      <token id="21" wordform="felt" lemma="feel" posMASC="VBD" posTT="VVD" problematic="no" />
      <token id="22" wordform="bright" lemma="bright" posMASC="JJR" posTT="JJ" problematic="no" />
      <token id="XXX" wordform="." lemma="." posMASC="XXX" posTT="SENT" />
    </tokens>
  </sent>
</document>
"""
COINCO_BYTES = COINCO.encode("utf-8")
SENTENCE = "It gave a bright light, didn\u2019t it?"


def test_coinco_one_instance_per_annotated_token() -> None:
    result = parse_source(COINCO_BYTES, "ours.xml")
    assert [(lexelt.item, lexelt.lemma, lexelt.pos) for lexelt in result.lexelts] == [
        ("give.v", "give", "v"),
        ("bright.a", "bright", "a"),
        ("do.v", "do", "v"),
        ("brightly.r", "brightly", "r"),
        ("feel.v", "feel", "v"),
    ]
    assert rows(result) == [
        ("10", "give.v", "The lamp was old.\nIt ", "gave", SENTENCE[7:] + "\nWe sat by it.", 15),
        ("11", "bright.a", "The lamp was old.\n" + SENTENCE[:10], "bright", SENTENCE[16:]
         + "\nWe sat by it.", 21),
        ("22", "bright.a", "Brightly-lit rooms felt ", "bright", ".", 51),
        ("13", "do.v", "The lamp was old.\n" + SENTENCE[:24], "didn", "\u2019t it?\nWe sat by it.",
         32),
        ("20", "brightly.r", "", "Brightly", "-lit rooms felt bright.", 47),
        ("21", "feel.v", "Brightly-lit rooms ", "felt", " bright.", 50),
    ]  # fmt: skip
    assert result.notes == ('left out 1 tokens that CoInCo\'s annotators marked problematic="yes"',)
    assert (result.repairs, result.language) == ((), "en")


def test_coinco_token_positions() -> None:
    text = "Visit example.com/syndicate for more, she hadn\u2019t said."
    words = ["Visit", "example", ".", "com/syndicate", "syndicate", "more", ",", "she"]
    words += ["hadn", "n\u2019t", "said", "."]
    spans = locate_tokens(text, words)
    assert [text[a:b] for a, b in (span or (0, 0) for span in spans)] == [
        "Visit",
        "example",
        ".",
        "com/syndicate",
        "syndicate",  # inside the token before it
        "more",  # 'for' has no token
        ",",
        "she",
        "hadn",
        "n\u2019t",  # overlaps 'hadn'
        "said",
        ".",
    ]
    assert locate_tokens("a b", ["a", "zebra", "b"]) == [(0, 1), None, (2, 3)]


def test_coinco_lemma_that_is_no_word_takes_the_wordform() -> None:
    data = COINCO_BYTES.replace(b'lemma="feel"', b'lemma="."')
    result = parse_source(data, "ours.xml")
    assert result.repairs == (
        Repair("21", 50, "lemma '.' is not a word; the lexelt takes the wordform 'felt'"),
    )
    assert "felt.v" in [lexelt.item for lexelt in result.lexelts]


@pytest.mark.parametrize(
    ("old", "new", "where", "problem"),
    [
        (
            b'posMASC="VBD" posTT="VVD" problematic="no" >',
            b'posMASC="CD" posTT="CD" problematic="no" >',
            15,
            "token '10': posMASC 'CD' is not a noun, verb, adjective or adverb tag "
            "(NN* \u2192 n, VB* \u2192 v, JJ* \u2192 a, RB* \u2192 r)",
        ),
        (
            b'wordform="felt"',
            b'wordform="fell"',
            50,
            "token '21' 'fell' is not found in its <targetsentence> (the tokens are the "
            "sentence's words, in order)",
        ),
        (b'id="22"', b'id="10"', 51, "duplicate instance id '10' (first at line 15); ids must "
         "be unique in the file"),
        (b"<targetsentence>\n    Brightly", b"<tokensentence>\n    Brightly", 41,
         "unexpected element <tokensentence> in <sent>; expected <precontext>, "
         "<targetsentence>, <postcontext>, <tokens>"),
        (b'<token id="20" wordform="Brightly" lemma="brightly"', b'<token id="20" lemma="x"', 47,
         "<token> has no wordform attribute"),
        (b"    We sat by it.\n    </postcontext>", b"    We sat by it.\n    </precontext>", 12,
         "not well-formed XML: mismatched tag (column 7)"),
        (b"<document>", b"<corpus>", 2, "the root element must be <document> (CoInCo), not "
         "<corpus>"),
    ],
)  # fmt: skip
def test_coinco_malformed_is_refused_at_its_line(
    old: bytes, new: bytes, where: int, problem: str
) -> None:
    assert old in COINCO_BYTES
    error = refused(COINCO_BYTES.replace(old, new, 1), "ours.xml", format="coinco")
    assert str(error) == f"ours.xml:{where}: {problem}"


def test_coinco_without_a_target_sentence_and_with_entities() -> None:
    start, end = COINCO.index("<targetsentence>"), COINCO.index("<postcontext>")
    error = refused(COINCO[:start].encode() + COINCO[end:].encode(), "c.xml")
    assert str(error) == "c.xml:3: <sent> has no <targetsentence>"
    bomb = b'<?xml version="1.0"?>\n<!DOCTYPE document [<!ENTITY a "aaaa">]>\n<document/>'
    assert refused(bomb, "c.xml", format="coinco").problem.startswith("forbidden XML construct")


@pytest.mark.shared_data
def test_real_coinco_release() -> None:
    result = read_source(shared_path("data", "coinco", "coinco.xml.gz"))
    assert result.n_instances == 15415 and len(result.lexelts) == 4253
    assert result.notes == (
        'left out 214 tokens that CoInCo\'s annotators marked problematic="yes"',
    )
    # Four tokens of the release carry punctuation as their lemma.
    assert [(r.instance_id, r.line, r.what.split(";")[0]) for r in result.repairs] == [
        ("13251", 195580, "lemma ',' is not a word"),
        ("14925", 219195, "lemma '.' is not a word"),
        ("15647", 229918, "lemma ',' is not a word"),
        ("15699", 230661, "lemma ',' is not a word"),
    ]
    assert {lexelt.pos for lexelt in result.lexelts} == {"n", "v", "a", "r"}
    first = result.instances[0]
    assert (first.id, first.lexelt, first.before, first.head) == ("4", "mission.n", "A ", "mission")
    assert first.after.startswith(" to end a war\nAUSTIN, Texas -- Tom Karnes")
    assert len({i.id for i in result.instances}) == 15415
    assert sum(len(i.text.split("\n")) == 3 for i in result.instances) > 14000


# --- SWORDS ------------------------------------------------------------------------------

CONTEXT_1 = "Dear Ann:\n\tThe report is ready.\n\tIt looks bright."
CONTEXT_2 = "Prices rose sharply."


def swords(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "contexts": {"c:1": {"context": CONTEXT_1, "extra": {}}, "c:2": {"context": CONTEXT_2}},
        "targets": {
            "t:b": {
                "context_id": "c:1",
                "target": "report",
                "offset": 15,
                "pos": "NOUN",
                "extra": {"coinco_lemma": "report"},
            },
            "t:a": {"context_id": "c:1", "target": "looks", "offset": 36, "pos": "VERB"},
            "t:c": {"context_id": "c:2", "target": "sharply", "offset": 12, "pos": "ADV"},
        },
        "substitutes": {"s:1": {"target_id": "t:b", "substitute": "paper"}},
        "substitute_labels": {"s:1": ["TRUE", "FALSE", "UNSURE"]},
    }
    data.update(changes)
    return data


def encoded(data: Any) -> bytes:
    return json.dumps(data, indent=1).encode("utf-8")


def test_swords_one_instance_per_target_at_its_offset() -> None:
    result = parse_source(encoded(swords()), "s.json")
    assert rows(result) == [
        ("t:b", "report.n", "Dear Ann:\n\tThe ", "report", " is ready.\n\tIt looks bright.", 0),
        ("t:a", "looks.v", "Dear Ann:\n\tThe report is ready.\n\tIt ", "looks", " bright.", 0),
        ("t:c", "sharply.r", "Prices rose ", "sharply", ".", 0),
    ]
    assert (result.repairs, result.notes, result.language) == ((), (), "en")


@pytest.mark.parametrize(
    ("target", "where", "problem"),
    [
        ({"offset": 16}, '$["targets"]["t:a"]["offset"]',
         "the context has 'eport' at 16, not the target 'looks'"),
        ({"offset": "15"}, '$["targets"]["t:a"]["offset"]', "'15' is not a whole number"),
        ({"pos": "PROPN"}, '$["targets"]["t:a"]["pos"]',
         "'PROPN' is not one of NOUN, VERB, ADJ, ADV (\u2192 n, v, a, r)"),
        ({"context_id": "c:9"}, '$["targets"]["t:a"]["context_id"]',
         "'c:9' is not a key of contexts"),
        ({"extra": {"coinco_lemma": "U.S."}}, '$["targets"]["t:a"]',
         "lexelt item 'U.S..v' is not lemma.pos or lemma.pos.pos with pos one of n, v, a, r"),
    ],
)  # fmt: skip
def test_swords_bad_target_is_refused_with_its_path(
    target: dict[str, Any], where: str, problem: str
) -> None:
    data = swords()
    data["targets"]["t:a"] = {**data["targets"]["t:a"], **target}
    if "offset" not in target:
        data["targets"]["t:a"]["offset"] = 15
        data["targets"]["t:a"]["target"] = "report"
    else:
        data["targets"]["t:a"]["target"] = "looks"
    assert str(refused(encoded(data), "s.json")) == f"s.json:{where}: {problem}"


def test_swords_file_rules_come_from_the_agreement_reader() -> None:
    # scoring.formats.swords.parse_swords is the one SWORDS reader: its messages.
    error = refused(encoded(swords(substitute_labels={"s:1": ["MAYBE"]})), "s.json")
    assert (
        str(error)
        == 's.json:$["substitute_labels"]["s:1"]: label MAYBE is not one of FALSE, TRUE, UNSURE'
    )
    error = refused(encoded({"contexts": {}, "targets": {}}), "s.json")
    assert str(error) == (
        "s.json: substitutes, substitute_labels missing or not an object (a SWORDS file "
        "has contexts, targets, substitutes, substitute_labels)"
    )
    error = refused(encoded(swords(targets={}, substitutes={}, substitute_labels={})), "s.json")
    assert str(error) == "s.json: no instances: the file holds no target to annotate"


def test_swords_broken_json_names_its_line() -> None:
    data = encoded(swords()).replace(b'"pos": "VERB"', b'"pos": VERB', 1)
    error = refused(data, "s.json")
    line = data[: data.index(b"VERB")].count(b"\n") + 1
    assert str(error) == f"s.json:{line}: not JSON: Expecting value (column 11)"


@pytest.mark.shared_data
@pytest.mark.parametrize(("part", "targets", "words"), [("dev", 370, 280), ("test", 762, 522)])
def test_real_swords_release(part: str, targets: int, words: int) -> None:
    path = shared_path("data", "swords", f"swords-v1.1_{part}.json.gz")
    result = read_source(path)
    assert (result.n_instances, len(result.lexelts)) == (targets, words)
    raw = json.loads(gzip.decompress(path.read_bytes()))
    for instance in result.instances:
        target = raw["targets"][instance.id]
        assert instance.text == raw["contexts"][target["context_id"]]["context"]
        assert len(instance.before) == target["offset"] and instance.head == target["target"]
        assert instance.lexelt.rsplit(".", 1)[0] == target["extra"]["coinco_lemma"]
    with_breaks = sum("\n" in instance.text for instance in result.instances)
    assert with_breaks == {"dev": 257, "test": 684}[part]


# --- TSV and CSV -------------------------------------------------------------------------

CSV = (
    "\ufeffID,source,Lexelt,Sentence\r\n"
    '1,web,bright.a,"He was <head>bright</head>, ""they"" said."\r\n'
    '2,web,bright.a,"A <head>brighter</head> light\r\non two lines"\r\n'
    "\r\n"
    "3,book,spazieren_gehen.v,Wir <head>gehen</head> im Park spazieren.\r\n"
    "4,book,Geba\u0308ude.n,Das <head>Geba\u0308ude</head> ist alt.\r\n"
    "5,book,Geb\u00e4ude.n,Zwei <head>Geb\u00e4ude</head> & mehr.\r\n"
)


def test_csv_with_quotes_line_breaks_multiwords_and_nfc() -> None:
    result = parse_source(CSV.encode("utf-8"), "t.csv")
    assert [(lexelt.item, lexelt.lemma, len(lexelt.instances)) for lexelt in result.lexelts] == [
        ("bright.a", "bright", 2),
        ("spazieren_gehen.v", "spazieren_gehen", 1),
        ("Geb\u00e4ude.n", "Geb\u00e4ude", 2),  # the decomposed and the composed: one word
    ]
    assert rows(result)[:2] == [
        ("1", "bright.a", "He was ", "bright", ', "they" said.', 2),
        ("2", "bright.a", "A ", "brighter", " light\r\non two lines", 3),
    ]
    assert rows(result)[-1] == ("5", "Geb\u00e4ude.n", "Zwei ", "Geb\u00e4ude", " & mehr.", 8)
    assert result.lexelts[2].instances[0].head == "Geba\u0308ude"  # contexts as written


def test_tsv_is_the_same_table_with_tabs() -> None:
    tsv = "id\tlexelt\tsentence\n" + "x1\tbright.a\tA <head>bright</head>, sunny day\n"
    result = parse_source(tsv.encode(), "t.tsv")
    assert rows(result) == [("x1", "bright.a", "A ", "bright", ", sunny day", 2)]
    assert parse_source(tsv.encode(), "t.txt", format="tsv") == result


@pytest.mark.parametrize(
    ("table", "where", "problem"),
    [
        ("id,word,sentence\n1,a.n,<head>a</head>\n", 1,
         "the header 'id, word, sentence' has no column lexelt (a CSV table names id, lexelt "
         "and sentence)"),
        ("id,lexelt,sentence,id\n", 1, "the header names the column 'id' twice"),
        ('id,lexelt,sentence\n1,a.n,"two\nlines <head>a</head>"\n2,a.n\n', 4,
         "the row has 2 fields, the header 3 (fields are separated by commas; one holding the "
         "separator, a quote or a line break is in double quotes)"),
        ("id,lexelt,sentence\n1,a.n,no head here\n", 2,
         "instance '1': the sentence has 0 <head>\u2026</head>; exactly one marks the target"),
        ("id,lexelt,sentence\n1,a.n,<head>a</head> <head>b</head>\n", 2,
         "instance '1': the sentence has 2 <head>\u2026</head>; exactly one marks the target"),
        ("id,lexelt,sentence\n1,a.n,<head>a</head> </head>\n", 2,
         "instance '1': a <head> or </head> without its partner in the sentence"),
        ("id,lexelt,sentence\n1,a.n,<head> </head>\n", 2, "instance '1' has an empty target"),
        ("id,lexelt,sentence\n1,a.x,<head>a</head>\n", 2,
         "lexelt item 'a.x' is not lemma.pos or lemma.pos.pos with pos one of n, v, a, r"),
        ("id,lexelt,sentence\n1,a.n,<head>a</head>\n1,b.n,<head>b</head>\n", 3,
         "duplicate instance id '1' (first at line 2); ids must be unique in the file"),
        ("id,lexelt,sentence\n1 2,a.n,<head>a</head>\n", 2,
         "instance id '1 2' must be non-empty and contain no white space"),
        ('id,lexelt,sentence\n1,a.n,"<head>a</head>\n', 2,
         "not CSV: unexpected end of data"),
        ('id,lexelt,sentence\n1,a.n,<head>a</head> "x" y\n2,a.n,"a"b\n', 3,
         "not CSV: ',' expected after '\"'"),
        ("id,lexelt,sentence\n1,a.n,<head>a\x00</head>\n", 2,
         "the context of instance '1' holds U+0000, a control character that no context may "
         "hold (the characters of XML 1.0 only)"),
        ("id,lexelt,sentence\n", "", "no instances: the file holds no target to annotate"),
    ],
)  # fmt: skip
def test_bad_table_is_refused_at_its_line(table: str, where: int | str, problem: str) -> None:
    error = refused(table.encode("utf-8"), "t.csv")
    assert str(error) == (f"t.csv:{where}: {problem}" if where != "" else f"t.csv: {problem}")


def test_table_that_is_not_utf8_names_the_line() -> None:
    error = refused(b"id,lexelt,sentence\n1,cafe.n,un <head>caf\xe9</head>\n", "t.csv")
    assert str(error) == (
        "t.csv:2: byte 0xE9 is not UTF-8 (invalid continuation byte); save the table as UTF-8"
    )


# --- gzip and the format told from the content --------------------------------------------

SEMEVAL = (
    b'<?xml version="1.0"?>\n<!DOCTYPE corpus SYSTEM "lexsub.dtd">\n<corpus lang="german">\n'
    b'<lexelt item="Haus.n"><instance id="h1"><context>Ein <head>Haus</head>.</context>'
    b"</instance></lexelt>\n</corpus>\n"
)
TSV = b"id\tlexelt\tsentence\n1\ta.n\t<head>a</head>\n"


@pytest.mark.parametrize(
    ("data", "format"),
    [
        (SEMEVAL, "semeval"),
        (b"<!-- x -->\n<corpus>", "semeval"),
        (b"<html>", "semeval"),  # its parser names the wrong root
        (COINCO_BYTES, "coinco"),
        (b'\xef\xbb\xbf<?xml version="1.0"?>\n<!DOCTYPE document>\n<document>', "coinco"),
        (b' \n{"contexts": {}}', "swords"),
        (b"[1]", "swords"),
        (TSV, "tsv"),
        (b"id,lexelt,sentence\r\n", "csv"),
        ("\ufeffid,lexelt,sentence".encode(), "csv"),
    ],
)
def test_format_is_told_from_the_content(data: bytes, format: str) -> None:
    assert detect_format(data, "f") == format


def test_unknown_content_is_refused_with_the_formats() -> None:
    assert str(refused(b"hello\nworld\n", "f.txt")) == (
        "f.txt:1: cannot tell the format: not XML (starting with <), not JSON (starting with "
        "{), not a TSV or CSV header naming id, lexelt and sentence; give the format "
        "(semeval, coinco, swords, tsv, csv, tsar)"
    )


@pytest.mark.parametrize(
    "data", [SEMEVAL, COINCO_BYTES, encoded(swords()), TSV, CSV.encode("utf-8")]
)
def test_every_format_reads_the_same_gzip_compressed(data: bytes) -> None:
    packed = gzip.compress(data)
    assert packed[:2] == b"\x1f\x8b"
    assert parse_source(packed, "f.gz") == parse_source(data, "f")


def test_broken_gzip_is_refused() -> None:
    error = refused(gzip.compress(TSV)[:-6], "t.tsv.gz")
    assert str(error) == (
        "t.tsv.gz: not a complete gzip file: Compressed file ended before the "
        "end-of-stream marker was reached"
    )


def test_format_given_wins_over_the_content() -> None:
    error = refused(TSV, "t.tsv", format="csv")
    assert str(error) == (
        "t.tsv:1: the header 'id\\tlexelt\\tsentence' has no column id, lexelt, sentence "
        "(a CSV table names id, lexelt and sentence)"
    )
    with pytest.raises(ValueError, match=r"^format 'xml' is not one of semeval, coinco"):
        parse_source(TSV, "t.tsv", format="xml")


# --- the language and NFC in the task's XML ------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "code"),
    [("english", "en"), ("german", "de"), ("Italian", "it"), ("it", "it"), ("deu", "de"),
     ("fr-FR", "fr"), ("en", "en"), ("EN", "en"), ("en-GB", "en")],
)  # fmt: skip
def test_corpus_lang_gives_the_language(lang: str, code: str) -> None:
    data = SEMEVAL.replace(b'lang="german"', f'lang="{lang}"'.encode())
    assert parse_source(data, "x.xml").language == code


def test_language_given_wins_and_default_is_english() -> None:
    assert parse_source(SEMEVAL, "x.xml").language == "de"
    assert parse_source(SEMEVAL, "x.xml", language="IT").language == "it"
    assert parse_source(SEMEVAL.replace(b' lang="german"', b""), "x.xml").language == "en"
    assert parse_source(SEMEVAL.replace(b"german", b" "), "x.xml").language == "en"
    assert parse_source(TSV, "t.tsv").language == "en"
    assert parse_source(TSV, "t.tsv", language="de").language == "de"
    assert parse_source(encoded(swords()), "s.json", language="en").language == "en"


def test_unknown_corpus_lang_is_refused_unless_the_language_is_given() -> None:
    data = SEMEVAL.replace(b'lang="german"', b'lang="klingonese"')
    assert str(refused(data, "x.xml")) == (
        "x.xml:3: <corpus lang=\"klingonese\">: language 'klingonese' is neither a language's "
        "English name (english, german, italian) nor an ISO 639 code (en, deu); give the "
        "language with --language CODE"
    )
    assert parse_source(data, "x.xml", language="de").language == "de"
    assert "'tlh' (Klingon) has no ISO 639-1 (two-letter) code" in str(
        refused(data.replace(b"klingonese", b"tlh"), "x.xml")
    )


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("xx", "language 'xx' is not an ISO 639-1 code (two letters, such as en, de, it)"),
        ("german", "language 'german' is not an ISO 639-1 code (two letters, such as en, de, "
         "it); German is 'de'"),
        ("deu", "language 'deu' is not an ISO 639-1 code (two letters, such as en, de, it); "
         "German is 'de'"),
        ("", "language '' is not an ISO 639-1 code (two letters, such as en, de, it)"),
    ],
)  # fmt: skip
def test_language_codes(code: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        iso639_1(code)
    assert str(caught.value) == message
    assert iso639_1(" De ") == "de" and declared_language("Italian") == "it"


def test_semeval_names_and_ids_are_nfc() -> None:
    decomposed = SEMEVAL.replace(b"Haus.n", "Geba\u0308ude.n".encode()).replace(
        b'id="h1"', 'id="e\u0301"'.encode()
    )
    [instance] = parse_source(decomposed, "x.xml").instances
    assert instance == Instance("\u00e9", "Geb\u00e4ude.n", "Ein ", "Haus", ".", 4)
    assert unicodedata.is_normalized("NFC", instance.lexelt)
    twice = (
        '<corpus>\n<lexelt item="Geb\u00e4ude.n"><instance id="1"><context><head>x</head>'
        '</context></instance></lexelt>\n<lexelt item="Geba\u0308ude.n"><instance id="2">'
        "<context><head>x</head></context></instance></lexelt>\n</corpus>"
    )
    error = refused(twice.encode(), "x.xml")
    assert str(error) == (
        "x.xml:3: duplicate lexelt item 'Geb\u00e4ude.n' (first at line 2); a word must be "
        "one <lexelt>"
    )


# --- the documented examples ---------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_every_example_of_docs_formats_imports() -> None:
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    section = text.split("## Importing data", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.S)
    assert [kind for kind, _ in blocks] == ["xml", "xml", "json", "tsv", "csv"]
    results = [parse_source(block.encode("utf-8"), "doc") for _, block in blocks]
    assert [detect_format(block.encode("utf-8"), "doc") for _, block in blocks] == [
        "semeval",
        "coinco",
        "swords",
        "tsv",
        "csv",
    ]
    assert [(i.id, i.lexelt, i.head) for r in results for i in r.instances] == [
        ("h1", "Haus.n", "Haus"),
        ("10", "give.v", "gave"),
        ("11", "bright.a", "bright"),
        ("12", "light.n", "light"),
        ("t:1", "sharply.r", "sharply"),
        ("t:2", "rose.v", "rose"),
        ("1", "bright.a", "bright"),
        ("2", "spazieren_gehen.v", "gehen"),
        ("3", "Gebäude.n", "Gebäude"),
    ]
    assert [r.language for r in results] == ["de", "en", "en", "en", "en"]
    assert (
        results[1].instances[0].text == "The lamp was old.\nIt gave a bright light.\nWe sat by it."
    )
    assert results[2].instances[0].before == "Dear Ann:\n\tPrices rose "


def test_the_documented_examples_import() -> None:
    text = (ROOT / "docs" / "import.md").read_text(encoding="utf-8")
    section = text.split("\n## ", 1)[0]  # the page's table of formats, before its sections
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == [
        "semeval",
        "coinco",
        "swords",
        "tsv",
        "csv",
        "tsar",
        "hf",
    ]
    examples = {row.split("`")[1]: row.rsplit("| `", 1)[1] for row in rows}
    for name in ("semeval", "coinco", "swords"):
        example = examples[name].split("` |")[0]
        [instance] = parse_source(example.encode("utf-8"), "readme").instances
        assert (name, instance.head) in {
            ("semeval", "Haus"),
            ("coinco", "bright"),
            ("swords", "sharply"),
        }
    tsv = examples["tsv"].split("`")
    table = f"{tsv[0]}\n{tsv[2]}\n".replace("⇥", "\t")
    assert [(i.lexelt, i.head) for i in parse_source(table.encode(), "t").instances] == [
        ("bright.a", "bright")
    ]
    csv = examples["csv"].split("`")
    table = f"{csv[0]}\n{csv[2]}\n"
    assert [(i.lexelt, i.after) for i in parse_source(table.encode(), "c").instances] == [
        ("spazieren_gehen.v", ' im Park spazieren, "gern".')
    ]
    line = examples["tsar"].split("`")[0].replace("⇥", "\t")
    [instance] = parse_source(line.encode(), "t", "tsar").instances
    assert (instance.id, instance.lexelt, instance.head) == ("en_1", "arduous.n", "arduous")


def test_gzip_that_unpacks_too_far_is_refused() -> None:
    bomb = gzip.compress(b"id,lexelt,sentence\n" + b"\n" * (2 * 2**20))  # blank lines
    assert len(bomb) < 10_000
    assert str(refused(bomb, "b.csv.gz", limits=Limits(unpacked=2 * 2**20))) == (
        "b.csv.gz: unpacks to more than 2 MiB (the most read)"
    )
    assert parse_source(gzip.compress(TSV), "t.gz").n_instances == 1  # below the limit
