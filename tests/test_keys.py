"""The gold's rules for a lexelt and an instance id (``scoring.formats.keys``), and the importer
holding every format to them: what imports can be compiled."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.formats.gold import parse_gold_line, read_gold_as_written
from scoring.formats.importers.read import parse_source
from scoring.formats.instances import SourceError
from scoring.formats.keys import InvalidKey, check_instance_id, check_lexelt
from tests.test_importer_formats import encoded, swords


@pytest.mark.parametrize(
    ("file_name", "data", "problem"),
    [
        (
            "t.csv",
            'id,lexelt,sentence\n2,spazieren gehen.v,"Wir <head>gehen</head> im Park."\n',
            "t.csv:2: lexelt item 'spazieren gehen.v': a lexelt holds no white space (the "
            "gold line separates 'LEXELT ID ::' by spaces): write 'spazieren_gehen.v'",
        ),
        (
            "t.tsv",
            "id\tlexelt\tsentence\na;1\ta.n\t<head>a</head>\n",
            "t.tsv:2: instance id 'a;1': an instance id holds no ';' (the gold line "
            "separates substitutes with ';'): write 'a_1'",
        ),
        (
            "t.tsv",
            "id\tlexelt\tsentence\n::1\ta.n\t<head>a</head>\n",
            "t.tsv:2: instance id '::1': an instance id does not begin with '::' (the gold "
            "line's separator)",
        ),
        (
            "t.xml",
            '<corpus><lexelt item="a;b.n"><instance id="1"><context><head>a</head>'
            "</context></instance></lexelt></corpus>",
            "t.xml:1: lexelt item 'a;b.n': a lexelt holds no ';' (the gold line separates "
            "substitutes with ';'): write 'a_b.n'",
        ),
        (
            "t.xml",
            '<corpus><lexelt item="a.n"><instance id="x&#x85;1"><context><head>a</head>'
            "</context></instance></lexelt></corpus>",
            "t.xml:1: instance id 'x\\x851' must be non-empty and contain no white space",
        ),
        (
            "t.csv",
            'id,lexelt,sentence\n1,a\x01b.n,"<head>a</head>"\n',
            "t.csv:2: lexelt item 'a\\x01b.n': a lexelt holds the control character U+0001",
        ),
    ],
)
def test_import_refuses_what_the_gold_cannot_hold(file_name: str, data: str, problem: str) -> None:
    with pytest.raises(SourceError) as error:
        parse_source(data.encode("utf-8"), file_name)
    assert str(error.value) == problem


def test_import_joins_the_words_of_a_swords_lemma() -> None:
    data = swords()
    target = next(iter(data["targets"].values()))
    target["extra"] = {"coinco_lemma": "e commerce"}
    result = parse_source(encoded(data), "s.json")
    assert result.lexelts[0].item.startswith("e_commerce.")


@pytest.mark.parametrize(
    ("value", "rule"),
    [("", "empty"), ("a b", "white space"), ("a;b", "gold-format separator")],
)
def test_instance_id_rules(value: str, rule: str) -> None:
    with pytest.raises(InvalidKey) as error:
        check_instance_id(value)
    assert error.value.rule == rule


@pytest.mark.parametrize(
    ("value", "rule"),
    [
        ("bright", "not lemma.pos"),
        ("", "empty"),
        ("a\u00a0b.n", "white space"),
        ("a\x01.n", "control character"),
    ],
)
def test_lexelt_rules(value: str, rule: str) -> None:
    with pytest.raises(InvalidKey) as error:
        check_lexelt(value)
    assert error.value.rule == rule


def _accepted(check: object, value: str) -> bool:
    try:
        check(value)  # type: ignore[operator]
    except InvalidKey:
        return False
    return True


NAMES = st.text(min_size=1, max_size=8)


@given(
    NAMES.map(lambda lemma: f"{lemma}.n").filter(lambda lexelt: _accepted(check_lexelt, lexelt)),
    NAMES.filter(lambda id_: _accepted(check_instance_id, id_)),
)
def test_what_the_rules_accept_every_gold_reader_reads_back(lexelt: str, id_: str) -> None:
    line = f"{lexelt} {id_} :: glad 2;"
    strict = parse_gold_line(line)
    assert (strict.lexelt, strict.id) == (lexelt, id_)
    [written] = read_gold_as_written([line])
    assert (written.lexelt, written.instance, written.entries) == (lexelt, id_, (("glad", 2),))
