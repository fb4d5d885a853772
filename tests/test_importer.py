"""annotate.importer: the task's XML input, on the real files, the demo and
malformed or hostile input."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotate.importer import (
    ImportResult,
    Instance,
    Lexelt,
    Repair,
    XMLImportError,
    format_lexsub_xml,
    parse_lexsub_xml,
    read_lexsub_xml,
    split_item,
)
from tests.conftest import shared_path

DEMO = Path(__file__).resolve().parent.parent / "annotate" / "demo" / "demo.xml"
PROLOG = '<?xml version="1.0" ?>\n<!DOCTYPE corpus SYSTEM "lexsub.dtd">\n'


def semeval(*parts: str) -> Path:
    return shared_path("data", "semeval2007", *parts)


def corpus(body: str, prolog: str = "") -> bytes:
    """A document whose first line is ``<corpus>`` (after ``prolog``)."""
    return (prolog + '<corpus lang="english">\n' + body + "</corpus>\n").encode("utf-8")


def refused(data: bytes, name: str = "in.xml") -> XMLImportError:
    with pytest.raises(XMLImportError) as caught:
        parse_lexsub_xml(data, name)
    return caught.value


ONE = (
    '<lexelt item="bright.a">\n<instance id="1">\n'
    "<context>a <head>bright</head> boy</context>\n</instance>\n</lexelt>\n"
)


# --- the real files ----------------------------------------------------------------------

TRIAL_REPAIRS = [
    ("64", 212),
    ("161", 527),
    ("165", 539),
    ("178", 580),
    ("204", 664),
    ("222", 722),
    ("222", 722),
]
TEST_CHARREF_REPAIRS = [
    ("306", 22),
    ("306", 22),
    ("332", 106),
    ("332", 106),
    ("332", 106),
    ("380", 258),
    ("559", 831),
    ("1211", 2919),
    ("1211", 2919),
    ("1439", 3647),
    ("1457", 3705),
    ("1457", 3705),
    ("1457", 3705),
    ("1463", 3725),
    ("1506", 3862),
    ("1527", 3929),
    ("1527", 3929),
    ("1527", 3929),
    ("1527", 3929),
    ("1527", 3929),
    ("1527", 3929),
    ("1976", 5366),
    ("2002", 5450),
]


def test_trial_file_imports_with_its_split_references_repaired() -> None:
    result = read_lexsub_xml(semeval("trial", "lexsub_trial.xml"))
    assert result.n_instances == 300
    assert len(result.lexelts) == 34
    ids = [instance.id for instance in result.instances]
    assert sorted(ids, key=int) == [str(i) for i in range(1, 301)]
    # File order, not id order: the corrected-PoS lexelt bar.n.v holds instance 48.
    assert ids[44:51] == ["45", "46", "47", "49", "50", "48", "51"]
    assert [(lx.item, len(lx.instances)) for lx in result.lexelts[4:8]] == [
        ("bar.n", 9),
        ("bar.n.v", 1),
        ("cross.n", 9),
        ("cross.n.a", 1),
    ]
    # Six lines of the file hold seven split references (line 722 has two).
    assert [(r.instance_id, r.line) for r in result.repairs] == TRIAL_REPAIRS
    assert all(r.what.startswith("split character reference '&#") for r in result.repairs)
    first = result.instances[0]
    assert (first.lexelt, first.head, first.line) == ("bright.a", "bright", 6)
    assert first.before.endswith("who was a ") and first.after.startswith(" boy only 12")
    sixty_four = result.instances[63]
    assert sixty_four.after.endswith("\u201ctrustworthy\u201d .")
    stand = next(lexelt for lexelt in result.lexelts if lexelt.item == "stand.n.v")
    assert (stand.lemma, stand.pos) == ("stand", "v")


def test_test_file_imports_with_split_references_and_the_bad_byte_repaired() -> None:
    result = read_lexsub_xml(semeval("test", "lexsub_test.xml"))
    assert result.n_instances == 1710
    assert len(result.lexelts) == 171
    ids = [instance.id for instance in result.instances]
    assert sorted(ids, key=int) == [str(i) for i in range(301, 2011)]
    assert len(result.repairs) == 24
    byte_repairs = [r for r in result.repairs if "UTF-8" in r.what]
    assert byte_repairs == [Repair("1255", 3059, "invalid UTF-8 byte 0xEF replaced by U+FFFD")]
    assert [
        (r.instance_id, r.line) for r in result.repairs if r not in byte_repairs
    ] == TEST_CHARREF_REPAIRS
    instance = next(i for i in result.instances if i.id == "1255")
    assert instance.before.startswith("M\ufffd ' riel , always the planner")
    assert (instance.lexelt, instance.head) == ("close.r", "close")
    pos = {lexelt.pos for lexelt in result.lexelts}
    assert pos == {"n", "v", "a", "r"}


def test_cleaned_test_file_needs_no_repair_and_has_the_same_instances() -> None:
    original = read_lexsub_xml(semeval("test", "lexsub_test.xml"))
    cleaned = read_lexsub_xml(semeval("test", "lexsub_test.cleaned.xml"))
    assert cleaned.repairs == ()
    assert [(i.id, i.lexelt, i.head, i.line) for i in cleaned.instances] == [
        (i.id, i.lexelt, i.head, i.line) for i in original.instances
    ]
    # The later project also edited quotes and apostrophes in some contexts.
    changed = {
        a.id for a, b in zip(original.instances, cleaned.instances, strict=True) if a.text != b.text
    }
    assert "1255" in changed and len(changed) == 61


def test_real_trial_file_survives_format_and_parse() -> None:
    result = read_lexsub_xml(semeval("trial", "lexsub_trial.xml"))
    again = parse_lexsub_xml(format_lexsub_xml(result.lexelts))
    assert again == ImportResult(result.lexelts, ())


# --- the demo ----------------------------------------------------------------------------


def test_demo_dataset() -> None:
    result = read_lexsub_xml(DEMO)
    assert result.repairs == ()
    assert result.n_instances == 30
    assert [lexelt.item for lexelt in result.lexelts] == [
        "spring.n",
        "catch.v",
        "warm.a",
        "gently.r",
        "settle.v",
        "plain.a",
    ]
    assert all(len(lexelt.instances) == 5 for lexelt in result.lexelts)
    assert [i.id for i in result.instances] == [f"d{n}" for n in range(1, 31)]
    texts = [i.text for i in result.instances]
    assert any("Brown & Daughters" in text for text in texts)
    assert any("at < 30 °C" in text for text in texts)
    assert all(i.head.strip() and "<" not in i.head for i in result.instances)


# --- structure and escaping --------------------------------------------------------------


def test_head_split_with_escaped_markup_characters() -> None:
    data = corpus(
        '<lexelt item="bright.a">\n<instance id="x1">\n'
        "<context>A &amp; B &lt;b&gt; <head>bright&amp;</head> &lt;/head&gt; "
        "&#8220;end&#8221;</context>\n</instance>\n</lexelt>\n"
    )
    [instance] = parse_lexsub_xml(data).instances
    assert instance == Instance(
        "x1", "bright.a", "A & B <b> ", "bright&", " </head> \u201cend\u201d", 3
    )


def test_lexelt_fields_and_file_order() -> None:
    data = corpus(
        ONE + '<lexelt item="stand.n.v">\n'
        '<instance id="b"><context><head>stands</head></context></instance>\n'
        '<instance id="a"><context>x<head>stand</head></context></instance>\n'
        "</lexelt>\n"
    )
    result = parse_lexsub_xml(data)
    assert [(lx.item, lx.lemma, lx.pos) for lx in result.lexelts] == [
        ("bright.a", "bright", "a"),
        ("stand.n.v", "stand", "v"),
    ]
    assert [(i.id, i.line) for i in result.instances] == [("1", 3), ("b", 8), ("a", 9)]
    assert result.n_instances == 3


@pytest.mark.parametrize(
    "item, expected",
    [
        ("bright.a", ("bright", "a")),
        ("stand.n.v", ("stand", "v")),
        ("wild.a.n", ("wild", "n")),
        ("take_on.v", ("take_on", "v")),
        ("a b.n", ("a b", "n")),
        ("spazieren gehen.v", ("spazieren gehen", "v")),
    ],
)
def test_split_item(item: str, expected: tuple[str, str]) -> None:
    assert split_item(item) == expected


def test_doctype_with_an_external_dtd_is_accepted_and_not_fetched() -> None:
    prolog = '<?xml version="1.0"?>\n<!DOCTYPE corpus SYSTEM "http://invalid.example/x.dtd">\n'
    assert parse_lexsub_xml(corpus(ONE, prolog)).n_instances == 1


def test_declared_encoding_is_respected() -> None:
    data = (
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n<corpus>'
        '<lexelt item="cafe.n"><instance id="1"><context>un <head>caf\xe9</head>'
        "</context></instance></lexelt></corpus>"
    ).encode("latin-1")
    result = parse_lexsub_xml(data)
    assert result.instances[0].head == "caf\xe9" and result.repairs == ()


# --- repairs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "encoding, problem",
    [
        (b"foo", "cannot read the declared encoding: unknown encoding: foo"),
        (b"shift_jis", "cannot read the declared encoding: multi-byte encodings are not supported"),
    ],
)
def test_unreadable_encoding_is_refused(encoding: bytes, problem: str) -> None:
    data = b'<?xml version="1.0" encoding="' + encoding + b'"?>\n' + corpus(ONE)
    assert str(refused(data)) == f"in.xml:1: {problem}"


def test_repairs_name_their_instance_and_line() -> None:
    data = (
        b"<!-- caf\xe9 -->\n<corpus>\n"
        + ONE.encode()
        + b'<lexelt item="dark.n">\n<instance id="7">\n'
        b"<context>&#8220 ;x&#8221  ; at <head>dark</head> \xff\xfe &#233 ;t\xe9</context>\n"
        b"</instance>\n</lexelt>\n</corpus>\n"
    )
    result = parse_lexsub_xml(data)
    assert [(r.instance_id, r.line) for r in result.repairs] == [
        ("", 1),
        ("7", 10),
        ("7", 10),
        ("7", 10),
        ("7", 10),
        ("7", 10),
    ]
    assert [r.what for r in result.repairs] == [
        "invalid UTF-8 byte 0xE9 replaced by U+FFFD",
        "split character reference '&#8220 ;' rejoined as '&#8220;'",
        "split character reference '&#8221  ;' rejoined as '&#8221;'",
        "invalid UTF-8 bytes 0xFF 0xFE replaced by U+FFFD",
        "split character reference '&#233 ;' rejoined as '&#233;'",
        "invalid UTF-8 byte 0xE9 replaced by U+FFFD",
    ]
    instance = result.instances[1]
    assert (instance.before, instance.head, instance.after) == (
        "\u201cx\u201d at ",
        "dark",
        " \ufffd\ufffd \xe9t\ufffd",
    )


# --- refusals ----------------------------------------------------------------------------


def test_error_message_is_file_line_problem() -> None:
    error = refused(
        corpus(
            '<lexelt item="bright.a">\n<instance id="1">\n'
            "<context>a <head>bright</head> boy\n</instance>\n</lexelt>\n"
        )
    )
    assert str(error) == "in.xml:5: not well-formed XML: mismatched tag (column 3)"
    assert (error.file, error.line) == ("in.xml", 5)
    assert isinstance(error, ValueError)


def test_read_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_bytes(b"<corpus>\n<lexelt item='a.n'>\n")
    with pytest.raises(XMLImportError, match=r"broken\.xml:3: not well-formed XML: no element"):
        read_lexsub_xml(path)


def test_nothing_is_half_imported() -> None:
    good_then_bad = corpus(
        ONE + '<lexelt item="x.n"><instance id="2"><context>no head</context></instance></lexelt>\n'
    )
    assert "instance '2' has no <head>" in str(refused(good_then_bad))


@pytest.mark.parametrize(
    "body, line, problem",
    [
        (ONE + ONE.replace("bright.a", "dark.n"), 8, "duplicate instance id '1' (first at line 3)"),
        (
            ONE + ONE.replace('id="1"', 'id="2"'),
            7,
            "duplicate lexelt item 'bright.a' (first at line 2)",
        ),
        (ONE.replace("<head>bright</head>", "bright"), 4, "instance '1' has no <head>"),
        (ONE.replace("boy", "<head>boy</head>"), 4, "instance '1' has more than one <head>"),
        (
            ONE.replace("<head>bright</head>", "<head> </head>"),
            4,
            "instance '1' has an empty <head>",
        ),
        (
            ONE.replace("<head>bright</head>", "<head><b>x</b></head>"),
            4,
            "element <b> inside the <head> of instance '1'",
        ),
        (
            ONE.replace("</context>", "</context><context><head>b</head></context>"),
            4,
            "instance '1' has more than one <context>",
        ),
        (
            '<lexelt item="a.n">\n<instance id="1">\n</instance>\n</lexelt>\n',
            3,
            "instance '1' has no <context>",
        ),
        ('<lexelt item="a.n">\n</lexelt>\n', 2, "lexelt 'a.n' has no instances"),
        ("", 2, "the corpus has no <lexelt>"),
        (ONE.replace('<instance id="1">', "<instance>"), 3, "has no id attribute"),
        (ONE.replace('id="1"', 'id="1 2"'), 3, "instance id '1 2' must be non-empty"),
        (ONE.replace('id="1"', 'id=""'), 3, "instance id '' must be non-empty"),
        (ONE.replace(' item="bright.a"', ""), 2, "<lexelt> has no item attribute"),
        (ONE.replace("<instance", "text<instance"), 3, "text 'text' in <lexelt>"),
        (
            ONE.replace("<context>", "<sentence>").replace("</context>", "</sentence>"),
            4,
            "unexpected element <sentence> in <instance>; expected <context>",
        ),
        ("&nbsp;" + ONE, 2, "not well-formed XML: undefined entity (column 1)"),
    ],
)
def test_structure_rules(body: str, line: int, problem: str) -> None:
    error = refused(corpus(body))
    assert error.line == line
    assert problem in error.problem


def test_undefined_entity_is_refused_even_with_an_unread_external_dtd() -> None:
    # expat skips unknown entities when a DTD it did not read might declare them; the
    # parser turns that into an error rather than dropping the text.
    error = refused(corpus(ONE.replace("a <head>", "a&nbsp;<head>"), PROLOG))
    assert (error.line, error.problem) == (
        6,
        "not well-formed XML: undefined entity &nbsp; (column 11)",
    )


@pytest.mark.parametrize(
    "body, line, problem",
    [
        (ONE.replace("<head>bright</head>", "<head>bright"), 4, "mismatched tag"),
        (ONE.replace("</lexelt>", ""), 7, "mismatched tag"),
        (ONE + '<lexelt item="x.n">', 7, "mismatched tag"),
        (ONE.replace("a <head>", "a & <head>"), 4, "not well-formed (invalid token)"),
        (ONE.replace('id="1"', "id=1"), 3, "not well-formed (invalid token)"),
        (ONE.replace("boy", "&#0;"), 4, "reference to invalid character number"),
    ],
)
def test_malformed_xml_is_refused_at_its_line(body: str, line: int, problem: str) -> None:
    error = refused(corpus(body))
    assert error.line == line
    assert problem in error.problem


@pytest.mark.parametrize(
    "item",
    [
        "bright",
        "bright.x",
        "bright.n.x",
        "bright.x.n",
        ".n",
        "a  b.n",
        " a.n",
        "bright.a.n.v",
        "bright.N",
        "",
    ],
)
def test_bad_item_is_refused(item: str) -> None:
    error = refused(corpus(ONE.replace("bright.a", item)))
    assert error.line == 2
    assert error.problem == (
        f"lexelt item {item!r} is not lemma.pos or lemma.pos.pos with pos one of n, v, a, r"
    )


def test_wrong_root_is_refused() -> None:
    assert str(refused(b"<?xml version='1.0'?>\n<html/>")) == (
        "in.xml:2: the root element must be <corpus>, not <html>"
    )


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE corpus [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<corpus><lexelt item="a.n"><instance id="1"><context><head>&lol2;</head></context>
</instance></lexelt></corpus>
"""


def test_billion_laughs_is_refused() -> None:
    error = refused(BILLION_LAUGHS)
    assert error.line == 3
    assert "entity declaration 'lol' is forbidden" in error.problem
    assert "billion laughs" in error.problem


def test_external_entity_is_refused() -> None:
    data = (
        b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n'
        b'<corpus><lexelt item="a.n"><instance id="1"><context><head>&e;</head>'
        b"</context></instance></lexelt></corpus>"
    )
    error = refused(data)
    assert str(error) == (
        "in.xml:1: external entity 'e' (file:///etc/passwd) is declared; "
        "external entities are forbidden"
    )


def test_external_parameter_entity_is_refused() -> None:
    data = b'<!DOCTYPE corpus [\n<!ENTITY % p SYSTEM "http://invalid.example/p">\n%p;\n]>\n'
    assert "external entity 'p'" in refused(data + corpus(ONE)).problem


# --- properties --------------------------------------------------------------------------

# Characters XML 1.0 can hold, drawn from ranges (filters would make hypothesis slow).
XML_CHAR = st.one_of(
    st.sampled_from("\t\n\r"),
    st.characters(min_codepoint=0x20, max_codepoint=0xD7FF),
    st.characters(min_codepoint=0xE000, max_codepoint=0xFFFD),
    st.characters(min_codepoint=0x10000),
)
SOLID = st.characters(
    min_codepoint=0x21,
    exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp"),
    exclude_characters="\ufffe\uffff",
)
TEXT = st.text(XML_CHAR, max_size=20)
HEAD = st.builds(str.__add__, TEXT, st.text(SOLID, min_size=1, max_size=4))
# Import NFC-normalises names and ids, so the drawn ones are in NFC already.
NAME = st.text(SOLID, min_size=1, max_size=6).map(partial(unicodedata.normalize, "NFC"))
LEMMA = st.text(SOLID.filter(lambda c: c != "."), min_size=1, max_size=6).map(
    partial(unicodedata.normalize, "NFC")
)
ITEM = st.builds(
    lambda lemma, orig, pos: f"{lemma}.{orig}{pos}",
    LEMMA,
    st.sampled_from(["", "n.", "v.", "a.", "r."]),
    st.sampled_from("nvar"),
)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[Lexelt, ...]:
    items = draw(st.lists(ITEM, min_size=1, max_size=4, unique=True))
    sizes = [draw(st.integers(1, 3)) for _ in items]
    ids = iter(draw(st.lists(NAME, min_size=sum(sizes), max_size=sum(sizes), unique=True)))
    lexelts = []
    for item, size in zip(items, sizes, strict=True):
        lemma, pos = split_item(item)
        instances = tuple(
            Instance(next(ids), item, draw(TEXT), draw(HEAD), draw(TEXT), 0) for _ in range(size)
        )
        lexelts.append(Lexelt(item, lemma, pos, instances))
    return tuple(lexelts)


def without_lines(lexelts: tuple[Lexelt, ...]) -> tuple[Lexelt, ...]:
    return tuple(
        replace(lexelt, instances=tuple(replace(i, line=0) for i in lexelt.instances))
        for lexelt in lexelts
    )


@given(corpora())
def test_parse_of_format_gives_back_the_instances(lexelts: tuple[Lexelt, ...]) -> None:
    data = format_lexsub_xml(lexelts)
    result = parse_lexsub_xml(data)
    assert result.repairs == ()
    assert without_lines(result.lexelts) == lexelts
    lines = data.decode("utf-8").split("\n")
    for instance in result.instances:
        assert lines[instance.line - 1].startswith("\t\t<instance id=")


def test_format_refuses_what_xml_cannot_hold() -> None:
    bad = Lexelt("a.n", "a", "n", (Instance("1", "a.n", "nul \x00", "a", "", 0),))
    with pytest.raises(ValueError, match="U\\+0000"):
        format_lexsub_xml([bad])


@settings(max_examples=300)
@given(
    st.binary(max_size=200)
    | st.builds(
        lambda cut, size: DEMO.read_bytes()[:cut] + DEMO.read_bytes()[cut + size :],
        st.integers(0, 5000),
        st.integers(1, 40),
    )
)
def test_any_bytes_import_or_give_a_located_error(data: bytes) -> None:
    try:
        result = parse_lexsub_xml(data, "f")
    except XMLImportError as error:
        assert str(error).startswith(f"f:{error.line}: ") and error.line >= 1
    else:
        assert result.n_instances >= 1
