"""One test group per file format of :mod:`scoring.formats`: parse(format(x)) == x, and a
malformed file refused with one :class:`FormatError` naming ``FILE:LINE`` (or the JSON
path), the value and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import FormatError, Problem, TextError, XmlError
from scoring.files.bounded import decode_text
from scoring.formats.annotators import Item, format_annotators, parse_annotators
from scoring.formats.coinco import read_coinco
from scoring.formats.gold import GoldEntry, GoldLine, format_gold, parse_gold, read_gold
from scoring.formats.instances import Instance, Lexelt, SourceError
from scoring.formats.judgements import Judgement, format_judgements, parse_judgements
from scoring.formats.lcp import LcpLine, format_lcp, parse_lcp, read_lcp
from scoring.formats.ranked import RankingLine, Scored, format_ranked, parse_ranked
from scoring.formats.responses import Response, format_responses, parse_responses
from scoring.formats.swords import parse_swords
from scoring.formats.system import SystemLine, format_system, parse_system
from scoring.formats.table import format_table, parse_table
from scoring.formats.taskxml import format_lexsub_xml, parse_lexsub_xml
from scoring.formats.text import split_lines, universal_lines
from scoring.formats.tsar import TsarLine, format_tsar, parse_tsar, read_tsar
from scoring.types import Answer


def problems(error: pytest.ExceptionInfo[FormatError]) -> list[str]:
    return list(error.value.problems)


# --- one error -------------------------------------------------------------------------


def test_every_reader_raises_one_error_type() -> None:
    assert issubclass(TextError, FormatError)
    assert issubclass(XmlError, FormatError)
    assert issubclass(SourceError, FormatError)
    with pytest.raises(FormatError, match=r"^f\.txt: UTF-16 text"):
        decode_text("gold".encode("utf-16"), "f.txt")


def test_a_problem_keeps_its_parts() -> None:
    error = SourceError("d.json", '$["targets"]', "not an object")
    assert str(error) == 'd.json:$["targets"]: not an object'
    assert error.located == (Problem("d.json", '$["targets"]', "not an object"),)
    assert (error.file, error.where, error.line) == ("d.json", '$["targets"]', 0)
    assert str(XmlError("c.xml", 3, "bad", "sentence 1")) == "c.xml:3: sentence 1: bad"


# --- gold and mwgold -------------------------------------------------------------------

GOLD = "bright.a 1 :: intelligent 3;clever 2;pn 1;\ntake.v 29 :: take place 5;\n"


def test_gold_round_trip() -> None:
    lines = parse_gold(GOLD, "gold")
    assert lines[0] == GoldLine(
        "bright.a",
        "1",
        (GoldEntry("intelligent", 3), GoldEntry("clever", 2), GoldEntry("pn", 1)),
        1,
    )
    assert format_gold(lines) == GOLD


def test_gold_problems_name_file_and_line() -> None:
    with pytest.raises(FormatError) as error:
        parse_gold("bright.a 1 :: clever 2;\nbright.a 2 :: clever two;\nbright.a 1 :: x 2;\n", "g")
    assert problems(error) == [
        "g:2: entry 'clever two' must be 'SUBSTITUTE COUNT' with a count of 1 or more, "
        "or a decimal weight above 0 (such as 2.5)",
        "g:3: id 1 already on line 1 (ids must be unique)",
    ]


def test_the_scoring_reading_of_a_gold_counts_T_and_the_modes() -> None:
    gold = read_gold(GOLD, "fixed", "gold")
    assert (gold.total_items, gold.total_modes) == (2, 2)
    assert gold.items["1"].norms == {"intelligent": 0.6, "clever": 0.4}
    assert gold.modes == {"1": "intelligent", "29": "take place"}


words = st.text("abcdéz", min_size=1, max_size=6)


@given(
    st.lists(
        st.tuples(words, st.lists(st.tuples(words, st.integers(1, 9)), max_size=4)),
        max_size=5,
        unique_by=lambda row: row[0],
    )
)
def test_gold_parse_of_format_is_identity(rows: list[tuple[str, list[tuple[str, int]]]]) -> None:
    lines = tuple(
        GoldLine("w.n", item, tuple(GoldEntry(s, c) for s, c in dict(entries).items()), number)
        for number, (item, entries) in enumerate(rows, 1)
    )
    assert parse_gold(format_gold(lines)) == lines


# --- system files ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("best", "bright.a 1 :: clever;smart\nbright.a 2 :: \n"),
        ("oot", "bright.a 1 ::: clever;smart;intelligent\n"),
        ("mw", "take.v 29 :: take place\n"),
    ],
)
def test_system_round_trip(kind: str, text: str) -> None:
    lines = parse_system(split_lines(text), kind, "s")  # type: ignore[arg-type]
    assert format_system(lines, kind) == text  # type: ignore[arg-type]


def test_system_problems_name_file_and_line() -> None:
    with pytest.raises(FormatError) as error:
        parse_system(["bright.a 1 ::: a;a", "bright.a 1 :: b"], "oot", "run.oot")
    assert problems(error) == [
        "run.oot:1: an answer is repeated (oot would credit it twice)",
        "run.oot:2: expected 'LEXELT ID ::: ANSWERS' (no ' :::' found)",
    ]
    assert parse_system(["bright.a 1 :: a;b"], "best")[0] == SystemLine(
        "bright.a", "1", ("a", "b"), 1
    )


# --- ranked candidates -----------------------------------------------------------------


def test_ranked_round_trip() -> None:
    lines = (
        RankingLine("bright.a", "1", (Scored("clever", 0.75), Scored("very smart", -2.0)), 1),
        RankingLine("bright.a", "2", (), 2),
    )
    text = format_ranked(lines)
    assert text == "bright.a 1 :::: 0.75 clever;-2.0 very smart\nbright.a 2 ::::\n"
    assert parse_ranked(text) == lines


def test_ranked_problems_name_file_and_line() -> None:
    with pytest.raises(FormatError) as error:
        parse_ranked("bright.a 1 :::: 1 a\nbright.a 2 :::: high clever\n", "run.ranked")
    assert problems(error) == [
        "run.ranked:2: score 'high' of 'high clever' is not a decimal number "
        "(scores come first: 'SCORE CANDIDATE')"
    ]


# --- TSAR-2022 and MLSP-2024 substitutes ----------------------------------------------


def test_tsar_round_trip() -> None:
    lines = (
        TsarLine("He is bright.", "bright", ("smart", "very clever"), "g.tsv:1"),
        TsarLine("It is big.", "big", (), "g.tsv:2"),
    )
    text = format_tsar(lines)
    assert text == "He is bright.\tbright\tsmart\tvery clever\nIt is big.\tbig\n"
    assert parse_tsar(universal_lines(text), "g.tsv") == lines


# no control character (tabs, line breaks), no space: a field that reads back as written
fields = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")), min_size=1)


@given(st.lists(st.tuples(fields, fields, st.lists(fields, max_size=4)), max_size=5))
def test_tsar_parse_of_format_is_identity(rows: list[tuple[str, str, list[str]]]) -> None:
    lines = tuple(
        TsarLine(sentence, word, tuple(substitutes), f"g.tsv:{number}")
        for number, (sentence, word, substitutes) in enumerate(rows, 1)
    )
    assert parse_tsar(universal_lines(format_tsar(lines)), "g.tsv") == lines


def test_tsar_format_refuses_what_it_could_not_read_back() -> None:
    with pytest.raises(ValueError, match=r"'a\\tb' holds a tab"):
        format_tsar([TsarLine("s", "w", ("a\tb",), "")])
    with pytest.raises(ValueError, match=r"' a' starts or ends with white space"):
        format_tsar([TsarLine("s", "w", (" a",), "")])
    with pytest.raises(ValueError, match=r"'s\\tw ' starts or ends with white space"):
        format_tsar([TsarLine("s", "w ", (), "")])


def test_tsar_problems_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "g.tsv"
    path.write_bytes(b"s\tw\ta\r\nonly a sentence\r\rs2\tw2\n")
    with pytest.raises(FormatError) as error:
        read_tsar(path)
    assert problems(error) == [
        f"{path}:2: 'only a sentence' has no tab (each line is SENTENCE<TAB>WORD<TAB>SUBSTITUTE…)",
        f"{path}:3: a blank line has no tab (each line is SENTENCE<TAB>WORD<TAB>SUBSTITUTE…)",
    ]


# --- MLSP-2024 lexical complexity -----------------------------------------------------


def test_lcp_round_trip() -> None:
    lines = (LcpLine("en_1", 0.25, "p.tsv:1"), LcpLine("en_2", 1e-05, "p.tsv:2"))
    text = format_lcp(lines)
    assert text == "en_1\t0.25\nen_2\t1e-05\n"
    assert parse_lcp(universal_lines(text), "p.tsv") == lines
    # the gold's five columns give the same records
    gold = "en_1\ten\tIt is big.\tbig\t0.25\n"
    assert parse_lcp(universal_lines(gold), "p.tsv") == lines[:1]


@given(
    st.lists(
        st.tuples(
            fields.filter(lambda t: "\t" not in t), st.floats(allow_nan=False, allow_infinity=False)
        ),
        max_size=5,
    )
)
def test_lcp_parse_of_format_is_identity(rows: list[tuple[str, float]]) -> None:
    lines = tuple(
        LcpLine(ident, value, f"p.tsv:{number}") for number, (ident, value) in enumerate(rows, 1)
    )
    assert parse_lcp(universal_lines(format_lcp(lines)), "p.tsv") == lines


def test_lcp_problems_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "p.tsv"
    path.write_text("en_1\t0.5\nen_2\tinf\nen_3\t0.1\t0.2\n\t0.3\n", encoding="utf-8")
    with pytest.raises(FormatError) as error:
        read_lcp(path)
    assert problems(error) == [
        f"{path}:2: value 'inf' is not a finite number",
        f"{path}:3: 3 tab-separated columns (ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>VALUE,"
        " or ID<TAB>VALUE)",
        f"{path}:4: empty id (the first column names the target)",
    ]
    with pytest.raises(ValueError, match=r"value nan of 'a' is not a finite number"):
        format_lcp([LcpLine("a", float("nan"), "")])


# --- SWORDS ----------------------------------------------------------------------------


def swords(offset: int) -> dict[str, object]:
    return {
        "contexts": {"c1": {"context": "He was bright."}},
        "targets": {"t1": {"context_id": "c1", "target": "bright", "offset": offset, "pos": "ADJ"}},
        "substitutes": {"s1": {"target_id": "t1", "substitute": "clever"}},
        "substitute_labels": {"s1": ["TRUE", "FALSE", "UNSURE"]},
    }


def test_swords_reads_targets_and_labels() -> None:
    data = parse_swords(swords(7), "d.json")
    assert (data.contexts, data.targets) == (1, 1)
    assert data.target_list[0].context[7:13] == "bright"
    assert data.substitutes[0].labels == ("TRUE", "FALSE", "UNSURE")


def test_swords_problems_name_the_json_path() -> None:
    with pytest.raises(FormatError) as error:
        parse_swords(swords(3), "d.json")
    assert problems(error) == [
        'd.json:$["targets"]["t1"]["offset"]: the context has \'was br\' at 3, '
        "not the target 'bright'"
    ]
    assert error.value.located[0].where == '$["targets"]["t1"]["offset"]'


# --- CoInCo ----------------------------------------------------------------------------


def test_coinco_problems_name_file_line_and_place() -> None:
    xml = b'<?xml version="1.0"?>\n<document>\n<sent>\n<bad/>\n</sent>\n</document>\n'
    with pytest.raises(FormatError) as error:
        read_coinco(xml, "coinco.xml")
    assert problems(error) == [
        "coinco.xml:3: sentence 1: <sent> has no MASCfile, MASCsentID attribute"
    ]
    assert (error.value.located[0].where, error.value.located[0].file) == (3, "coinco.xml")


# --- the task's XML --------------------------------------------------------------------

LEXELTS = (
    Lexelt(
        "bright.a",
        "bright",
        "a",
        (
            Instance("1", "bright.a", "He was ", "bright", " & quick.", 0),
            Instance("2", "bright.a", "A ", "brighter", " light", 0),
        ),
    ),
)


def _without_lines(lexelts: tuple[Lexelt, ...]) -> list[tuple[str, list[tuple[str, str]]]]:
    return [(x.item, [(i.id, i.text) for i in x.instances]) for x in lexelts]


def test_task_xml_round_trip() -> None:
    result = parse_lexsub_xml(format_lexsub_xml(LEXELTS), "t.xml")
    assert _without_lines(result.lexelts) == _without_lines(LEXELTS)
    assert [i.head for i in result.instances] == ["bright", "brighter"]


def test_task_xml_problems_name_file_and_line() -> None:
    xml = b'<corpus lang="en">\n<lexelt item="bright.a">\n<instance id="1">\n<context>x</context>\n'
    with pytest.raises(FormatError) as error:
        parse_lexsub_xml(xml + b"</instance>\n</lexelt>\n</corpus>\n", "t.xml")
    assert problems(error) == [
        "t.xml:4: instance '1' has no <head> in its <context>; exactly one is required"
    ]


# --- TSV and CSV tables ----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["csv", "tsv"])
def test_table_round_trip(kind: str) -> None:
    text = format_table(LEXELTS, kind)
    assert text.splitlines()[0] == (
        "id,lexelt,sentence" if kind == "csv" else "id\tlexelt\tsentence"
    )
    result = parse_table(text.encode(), f"t.{kind}", kind)
    assert _without_lines(result.lexelts) == _without_lines(LEXELTS)


def test_table_problems_name_file_and_line() -> None:
    with pytest.raises(FormatError) as error:
        parse_table(b"id,lexelt,sentence\n1,bright.a,<head>x</head>\n2,bright.a\n", "t.csv")
    assert problems(error) == [
        "t.csv:3: the row has 2 fields, the header 3 (fields are separated by commas; one "
        "holding the separator, a quote or a line break is in double quotes)"
    ]


# --- responses JSONL -------------------------------------------------------------------

RESPONSES = [
    Response(
        "ann",
        "bright.a",
        "1",
        "substitutes",
        ("clever", "smart"),
        None,
        True,
        "2026-11-27T07:00:00+00:00",
    ),
    Response("bob", "bright.a", "1", "name", (), "Bright Eyes"),
]


def test_responses_round_trip() -> None:
    text = format_responses(RESPONSES)
    assert text.splitlines()[1] == (
        '{"annotator": "bob", "lexelt": "bright.a", "instance": "1", "kind": "name", '
        '"substitutes": [], "multiword": "Bright Eyes", "used_dictionary": false, '
        '"updated_at": "1970-01-01T00:00:00+00:00"}'
    )
    assert parse_responses(text, "r.jsonl") == RESPONSES
    assert [r.where for r in parse_responses(text.encode(), "r.jsonl")] == [
        "r.jsonl:1",
        "r.jsonl:2",
    ]


def test_responses_problems_name_file_and_line() -> None:
    text = format_responses(RESPONSES).replace('"kind": "name"', '"kind": "none"')
    with pytest.raises(FormatError) as error:
        parse_responses(text, "r.jsonl")
    assert problems(error) == ["r.jsonl:2: kind 'none' is not one of substitutes, name, nil"]


# --- annotators JSONL ------------------------------------------------------------------

ITEMS = (
    Item(
        "bright.a",
        "1",
        (
            Answer("ann", "substitutes", frozenset({"smart", "clever"})),
            Answer("bob", "nil", frozenset(), "bright spark"),
        ),
    ),
)


def test_annotators_round_trip() -> None:
    text = format_annotators(ITEMS)
    assert text.splitlines()[0] == (
        '{"annotator": "ann", "lexelt": "bright.a", "instance": "1", "kind": "substitutes", '
        '"substitutes": ["clever", "smart"], "multiword": null}'
    )
    assert parse_annotators(split_lines(text), "a.jsonl") == ITEMS


def test_annotators_problems_name_file_and_line() -> None:
    lines = split_lines(format_annotators(ITEMS))
    with pytest.raises(FormatError) as error:
        parse_annotators([lines[0], lines[0]], "a.jsonl")
    assert problems(error) == [
        "a.jsonl:2: annotator 'ann' answers bright.a 1 twice (one line per annotator and item)"
    ]


# --- judgements JSONL ------------------------------------------------------------------

JUDGEMENTS = (
    Judgement("bright.a 1", "clever", "j1", "good", ("human",)),
    Judgement("bright.a 1", "clever", "j2", "bad", ("human",)),
)


def test_judgements_round_trip() -> None:
    text = format_judgements(JUDGEMENTS)
    assert text.splitlines()[0] == (
        '{"item": "bright.a 1", "candidate": "clever", "judge": "j1", "label": "good", '
        '"origin": ["human"]}'
    )
    assert parse_judgements(split_lines(text), "j.jsonl") == JUDGEMENTS


def test_judgements_problems_name_file_and_line() -> None:
    lines = split_lines(format_judgements(JUDGEMENTS))
    with pytest.raises(FormatError) as error:
        parse_judgements([lines[0], lines[0]], "j.jsonl")
    assert problems(error) == [
        "j.jsonl:2: judge 'j1' judges 'clever' in item 'bright.a 1' again (first on line 1; "
        "one label per judge and candidate)"
    ]
