"""The gold compiler: hand-computed cases for every rule, hypothesis
properties, the command line, and the proof on the task's real gold (split into five
annotators by :mod:`annotate.gold.split`, compiled back, scored)."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotate.compile import run as compile_command
from annotate.gold import (
    IDENTITY,
    CompiledGold,
    CompileOptions,
    Decision,
    DecisionError,
    Decisions,
    Lemmatiser,
    Response,
    compile_responses,
    decisions_template,
    gold_order,
    item_order,
    lemmatise,
    lemminflect_lemmatiser,
    normalise,
    read_decisions,
    read_responses,
    write_decisions,
    write_outputs,
    write_responses,
)
from annotate.gold.aggregate import MW_SINGLE, MW_TIE, NO_SUBSTITUTE, ONE_ANNOTATOR, ONE_RESPONSE
from annotate.gold.review import pending_changes, review_lines
from annotate.gold.split import (
    Split,
    read_multiwords,
    split_gold,
    split_item,
)
from annotate.gold.write import annotator_lines, gold_lines, mwgold_lines, summary, summary_text
from scoring.errors import FormatError
from scoring.formats.gold import GoldLineAsWritten, read_gold_as_written
from scoring.formats.text import read_lines
from scoring.score.cli import run as score_command
from scoring.substitute import normalise_with_reasons
from scoring.types import AnswerKind
from tests.conftest import shared_path

PLAIN = CompileOptions(normalise=False, lemmatise=False)
NORMALISED = CompileOptions(lemmatise=False)
LEMMINFLECT = lemminflect_lemmatiser()


def answer(
    annotator: str,
    instance: str,
    *substitutes: str,
    kind: str | None = None,
    multiword: str | None = None,
    lexelt: str = "happy.a",
) -> Response:
    chosen = kind or ("substitutes" if substitutes else "nil")
    return Response(
        annotator,
        lexelt,
        instance,
        chosen,  # type: ignore[arg-type]
        substitutes,
        multiword,
    )


def lines_of(gold: CompiledGold) -> list[str]:
    return list(gold_lines(gold))


# --- normalisation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "normal", "reasons"),
    [
        ("glad", "glad", ()),
        ("cafe\u0301", "café", ("unicode",)),
        ("  take \t place ", "take place", ("white space",)),
        ("The Eucharist", "the eucharist", ("case",)),
        ("citizens'", "citizens", ("punctuation",)),
        ("'clever!'", "clever", ("punctuation",)),
        ("  Happy .", "happy", ("white space", "case", "punctuation")),
        ("11.27 kilograms", "11.27 kilograms", ()),
        ("people's", "people's", ()),
        ("bile-producing", "bile-producing", ()),
        ("well-", "well-", ()),
        ("...", "", ("punctuation",)),
    ],
)
def test_normalisation_steps_and_reasons(typed: str, normal: str, reasons: tuple[str, ...]) -> None:
    found = normalise_with_reasons(typed)
    assert (found.text, found.reasons) == (normal, reasons)
    assert normalise(typed) == normal


# --- lemmatisation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "pos", "lemma"),
    [
        ("glasses", "n", "glasses"),
        ("data", "n", "data"),
        ("means", "n", "means"),
        ("better", "a", "better"),
        ("better", "r", "better"),
        ("happier", "a", "happier"),
        ("took place", "v", "take place"),
        ("states of nature", "n", "state of nature"),
        ("large amounts of money", "n", "large amount of money"),
        ("sixty feet", "n", "sixty foot"),
        ("hitting", "v", "hit"),
        ("cats", "n", "cat"),
        ("affected by", "v", "affect by"),
        ("obliviousness", "n", "obliviousness"),
    ],
)
def test_lemminflect_rules(text: str, pos: str, lemma: str) -> None:
    assert lemmatise(text, pos, LEMMINFLECT) == lemma


def _fake(table: dict[tuple[str, str], tuple[str, ...]]) -> Lemmatiser:
    return Lemmatiser("fake", "0", lambda word, upos: table.get((word, upos), ()))


def test_head_word_rules_with_a_fake_lemmatiser() -> None:
    fake = _fake(
        {
            ("went", "VERB"): ("go",),
            ("ways", "NOUN"): ("way",),
            ("words", "NOUN"): ("word",),
            ("bests", "NOUN"): ("best", "bests"),
            ("worse", "ADJ"): ("bad",),
        }
    )
    assert lemmatise("went ways", "v", fake) == "go ways"  # verbs: first word
    assert lemmatise("ways of words", "n", fake) == "way of words"  # X of Y: X's last word
    assert lemmatise("the ways of words", "n", fake) == "the way of words"
    assert lemmatise("of words", "n", fake) == "of word"  # no X: last word
    assert lemmatise("kind words", "n", fake) == "kind word"  # else: last word
    assert lemmatise("bests", "n", fake) == "bests"  # surface is a candidate
    assert lemmatise("worse", "a", fake) == "worse"  # no degree lemmas
    assert lemmatise("ways  ", "n", fake) == "way  "  # spacing kept
    assert lemmatise("went", "v", IDENTITY) == "went"


def test_lemma_changes_are_listed_and_decisions_win() -> None:
    records = [
        answer("a", "1", "glasses", "cats", lexelt="spectacle.n"),
        answer("b", "1", "cats", lexelt="spectacle.n"),
        answer("a", "2", "dogs", "cats", lexelt="animal.n"),
    ]
    gold = compile_responses(records)
    assert lines_of(gold) == ["spectacle.n 1 :: cat 2;glasses 1;", "animal.n 2 :: cat 1;dog 1;"]
    assert [(c.surface, c.proposed, c.count, c.items, c.lexelts) for c in gold.lemma_changes] == [
        ("cats", "cat", 3, ("1", "2"), ("animal.n", "spectacle.n")),
        ("dogs", "dog", 1, ("2",), ("animal.n",)),
    ]
    assert review_lines(gold.lemma_changes)[1] == "dogs → dog count: 1 lexelts: animal.n items: 2"
    decisions = Decisions(
        (
            Decision("cats", "reject"),
            Decision("cats", "correct", "feline", "animal.n"),
            Decision("dogs", "accept"),
        )
    )
    decided = compile_responses(records, CompileOptions(decisions=decisions))
    assert lines_of(decided) == [
        "spectacle.n 1 :: cats 2;glasses 1;",
        "animal.n 2 :: dog 1;feline 1;",
    ]
    assert [(c.surface, c.result, c.decision) for c in decided.lemma_changes] == [
        ("cats", "cats", "reject"),
        ("cats", "feline", "correct"),
        ("dogs", "dog", "accept"),
    ]
    assert pending_changes(decided) == ()
    assert len(pending_changes(gold)) == 2
    rejected = compile_responses(
        records, CompileOptions(decisions=decisions_template(gold.lemma_changes, "reject"))
    )
    assert lines_of(rejected) == lines_of(compile_responses(records, NORMALISED))
    assert decided.signature.decisions.startswith(decisions.digest())
    assert decisions.digest() != gold.signature.decisions


def test_decisions_file_round_trip_and_errors(tmp_path: Path) -> None:
    decisions = Decisions(
        (Decision("feet", "correct", "foot", "yard.n"), Decision("glasses", "reject"))
    )
    path = tmp_path / "decisions.json"
    write_decisions(path, decisions)
    assert read_decisions(path) == decisions
    assert json.loads(path.read_text())["decisions"][0] == {
        "surface": "feet",
        "lexelt": "yard.n",
        "action": "correct",
        "lemma": "foot",
    }
    assert decisions.find("glasses", "x.n") == Decision("glasses", "reject")
    assert decisions.find("feet", "foot.n") is None
    with pytest.raises(DecisionError, match="two decisions for 'a' globally"):
        Decisions((Decision("a", "reject"), Decision("a", "accept")))
    with pytest.raises(DecisionError, match="'correct' needs a lemma"):
        Decision("a", "correct")
    for text, message in [
        ("{", r"decisions.json:1: not JSON"),
        (
            '{"decisions": [{"surface": "a", "action": "drop"}]}',
            r"decisions\[0\]: action 'drop' is not one of",
        ),
        ('{"decisions": [{"surface": "a"}]}', "action must be"),
        ('{"decisions": [{"surface": "a", "action": "reject", "x": 1}]}', "unknown key"),
        ("[]", "expected"),
    ]:
        path.write_text(text)
        with pytest.raises(DecisionError, match=message):
            read_decisions(path)


# --- aggregation -----------------------------------------------------------------------


def test_happy_glad_example_of_seed_002() -> None:
    """McCarthy & Navigli (2007), section 4: H_i = glad glad glad merry merry cheerful jovial."""
    records = [
        answer("1", "9999", "glad", "merry"),
        answer("2", "9999", "glad"),
        answer("3", "9999", "cheerful", "glad"),
        answer("4", "9999", "merry"),
        answer("5", "9999", "jovial"),
    ]
    gold = compile_responses(records)
    assert lines_of(gold) == ["happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;"]
    assert gold.items[0].mode == "glad"
    assert gold.items[0].in_t


def test_each_annotator_is_a_set_after_normalisation_and_lemmatisation() -> None:
    records = [
        answer("a", "1", "Glad", "glad ", "GLAD!", lexelt="w.n"),
        answer("b", "1", "cats", "cat", lexelt="w.n"),
    ]
    gold = compile_responses(records)
    assert lines_of(gold) == ["w.n 1 :: cat 1;glad 1;"]
    assert lines_of(compile_responses(records, PLAIN)) == [
        "w.n 1 :: GLAD! 1;Glad 1;cat 1;cats 1;glad  1;"
    ]


def test_strict_mode_ties_and_fixed_order() -> None:
    tie = [answer("a", "1", "b", "a"), answer("b", "1", "a", "b"), answer("c", "1", "c")]
    gold = compile_responses(tie)
    assert lines_of(gold) == ["happy.a 1 :: a 2;b 2;c 1;"]
    assert gold.items[0].mode is None
    clear = compile_responses([*tie, answer("d", "1", "b")])
    assert (lines_of(clear), clear.items[0].mode) == (["happy.a 1 :: b 3;a 2;c 1;"], "b")


def test_t_rules() -> None:
    one_annotator = [answer("a", "1", "x", "y"), answer("b", "1"), answer("c", "1", kind="name")]
    by_annotators = compile_responses(one_annotator)
    by_responses = compile_responses(one_annotator, CompileOptions(t_rule="responses"))
    assert (by_annotators.items[0].in_t, by_annotators.items[0].reason) == (False, ONE_ANNOTATOR)
    assert (by_responses.items[0].in_t, by_responses.items[0].reason) == (True, None)
    assert by_annotators.items[0].mode is None and by_responses.items[0].mode is None
    single = compile_responses([answer("a", "1", "x")], CompileOptions(t_rule="responses"))
    assert single.items[0].reason == ONE_RESPONSE
    two = compile_responses([answer("a", "1", "x"), answer("b", "1", "y")])
    assert two.items[0].in_t
    names = compile_responses([answer(h, "1", kind="name") for h in "abc"])
    assert (names.items[0].reason, lines_of(names)) == (NO_SUBSTITUTE, ["happy.a 1 :: pn 3;"])
    only_t = compile_responses([*one_annotator, *two_items("2")], CompileOptions(only_t=True))
    assert lines_of(only_t) == ["happy.a 2 :: x 2;"]
    assert summary(only_t)["not_in_t"] == [
        {"lexelt": "happy.a", "instance": "1", "reason": ONE_ANNOTATOR}
    ]


def two_items(instance: str) -> list[Response]:
    return [answer("a", instance, "x"), answer("b", instance, "x")]


def test_name_answers_become_pn_last() -> None:
    records = [
        answer("a", "7", kind="name"),
        answer("b", "7", kind="name"),
        answer("c", "7", "sterling"),
        answer("d", "7", "sterling", "quid"),
        answer("e", "7"),
    ]
    gold = compile_responses(records)
    assert lines_of(gold) == ["happy.a 7 :: sterling 2;quid 1;pn 2;"]
    assert gold.items[0].mode == "sterling"
    assert gold.counts() == {"7": {"sterling": 2, "quid": 1, "pn": 2}}


def test_multiword_rule() -> None:
    def item(instance: str, *multiwords: str | None) -> list[Response]:
        return [
            answer(f"h{n}", instance, "occur", multiword=mw, lexelt="take.v")
            for n, mw in enumerate(multiwords)
        ]

    records = [
        *item("1", "Took place", "take place", "take place", "take off", None),
        *item("2", "take off", None, None),
        *item("3", "take in", "take in", "take up", "take up"),
    ]
    gold = compile_responses(records)
    assert list(mwgold_lines(gold)) == ["take.v 1 :: take place 3;"]
    assert [(i.multiword, i.multiword_note) for i in gold.items] == [
        (("take place", 3), None),
        (None, MW_SINGLE),
        (None, MW_TIE),
    ]
    out_of_t = compile_responses(
        [
            answer("a", "4", "x", multiword="take in"),
            answer("b", "4", kind="name", multiword="take in"),
        ]
    )
    assert list(mwgold_lines(out_of_t)) == []
    plain = compile_responses(records[:5], PLAIN)
    assert list(mwgold_lines(plain)) == ["take.v 1 :: take place 2;"]


def test_annotators_file_holds_the_sets() -> None:
    gold = compile_responses(
        [
            answer("b", "2", "Merry", "glad"),
            answer("a", "2", kind="name"),
            answer("a", "1", "Jolly"),
        ]
    )
    assert [json.loads(line) for line in annotator_lines(gold)] == [
        {
            "annotator": "a",
            "lexelt": "happy.a",
            "instance": "1",
            "kind": "substitutes",
            "substitutes": ["jolly"],
            "multiword": None,
        },
        {
            "annotator": "a",
            "lexelt": "happy.a",
            "instance": "2",
            "kind": "name",
            "substitutes": [],
            "multiword": None,
        },
        {
            "annotator": "b",
            "lexelt": "happy.a",
            "instance": "2",
            "kind": "substitutes",
            "substitutes": ["glad", "merry"],
            "multiword": None,
        },
    ]


def test_item_order() -> None:
    assert item_order(["10", "9", "010", "1"]) == ["1", "9", "010", "10"]
    assert item_order(["b", "10", "9"]) == ["9", "10", "b"]
    assert item_order(["a.10", "a.9", "a.9b", "²"]) == ["a.9", "a.9b", "a.10", "²"]


def test_summary_and_signature(tmp_path: Path) -> None:
    gold = compile_responses(
        [
            answer("a", "1", "Glad."),
            answer("b", "1", "glad", "joyful"),
            answer("c", "1", "glad", "..."),
            answer("a", "2", "x"),
        ]
    )
    data = json.loads(write_outputs(gold, tmp_path)["summary.json"].read_text())
    assert data == json.loads(summary_text(summary(gold)))
    assert (data["items"], data["in_t"], data["with_mode"], data["gold_lines"]) == (2, 1, 1, 2)
    assert data["normalisation_changes"] == [
        {
            "surface": "Glad.",
            "normalised": "glad",
            "reasons": ["case", "punctuation"],
            "count": 1,
            "items": ["1"],
        }
    ]
    assert data["emptied_by_normalisation"] == []
    assert data["responses"] == 4 and data["responses_left_out"] == 1
    assert data["left_out"] == [
        {
            "annotator": "c",
            "lexelt": "happy.a",
            "instance": "1",
            "value": "...",
            "rule": "no letter or digit",
            "message": "has no letter or digit",
        }
    ]
    assert [(e["annotator"], e["value"], e["rule"]) for e in data["flagged"]] == [
        ("a", "x", "one character")
    ]
    # item 2 ("x 1;") is out of T under both rules: both readings agree
    assert data["scorer"] == {"compat_items": 1, "fixed_items": 1, "differing_items": 0}


def test_the_scorer_note_names_the_reasons_of_this_gold() -> None:
    """A German gold differs under score.pl's rules for its capitals (score.pl matches
    case-sensitively) and its umlauts, not for one-character entries or 'pn'; an English
    gold of one-letter answers for those."""

    def note(language: str, *answers: Response) -> str:
        options = CompileOptions(language=language, lemmatise=False)
        found: str = summary(compile_responses(answers, options))["scorer"]["note"]
        return found

    german = note(
        "de",
        answer("a", "1", "Gebäude", "Heim", lexelt="haus.n"),
        answer("b", "1", "Gebäude", lexelt="haus.n"),
        answer("a", "2", "Bau", lexelt="haus.n"),
        answer("b", "2", "Bau", lexelt="haus.n"),
    )
    assert german == (
        "2 item(s) of this gold may score differently with score.pl's rules"
        " (lexsub score) than with --fixed: score.pl matches case-sensitively"
        " (--fixed folds case), so an answer earns credit only with the gold entry's capitals"
        " (2 item(s), such as 'Gebäude'); score.pl's entry pattern knows only ASCII letters"
        " and keeps the part of an entry after its last other letter (1 item(s), such as"
        " 'Gebäude'); see docs/scoring.md"
    )
    english = note(
        "en",
        answer("a", "1", "x", "glad"),
        answer("b", "1", "x"),
        answer("a", "2", "well-being"),
        answer("b", "2", "well-being"),
    )
    assert "score.pl drops one-character entries (1 item(s), such as 'x')" in english
    assert "hyphenated mode as written (--fixed also accepts it with a space) (1 item(s)" in english
    assert "case" not in english and "pn" not in english


def test_summary_says_when_score_pl_reads_the_gold_differently(tmp_path: Path) -> None:
    """score.pl drops one-character entries: an item of two one-letter answers counts in
    T under both rules but can earn credit only under --fixed, and the summary says so."""
    gold = compile_responses(
        [
            answer("a", "1", "glad"),
            answer("b", "1", "glad"),
            answer("a", "2", "x"),
            answer("b", "2", "y"),
        ]
    )
    data = summary(gold)
    assert data["in_t"] == 2
    assert {
        key: data["scorer"][key] for key in ("compat_items", "fixed_items", "differing_items")
    } == {"compat_items": 2, "fixed_items": 2, "differing_items": 1}
    assert "score.pl drops one-character entries" in data["scorer"]["note"]
    assert [(e["instance"], e["value"]) for e in data["flagged"]] == [("2", "x"), ("2", "y")]
    assert data["signature"].startswith(
        "lexsub-compile:1|normalise:yes|lemmatiser:lemminflect "
        + version("lemminflect")
        + "|rules:keep-if-candidate"
    )
    assert "|t:annotators|only-t:no" in data["signature"]


# --- input -----------------------------------------------------------------------------

GOOD = {
    "annotator": "ann",
    "lexelt": "bright.a",
    "instance": "1",
    "kind": "substitutes",
    "substitutes": ["clever"],
    "multiword": None,
    "used_dictionary": False,
    "updated_at": "2024-05-01T10:00:00Z",
}


def test_an_empty_responses_file_is_an_error_that_says_so(tmp_path: Path) -> None:
    path = tmp_path / "responses.jsonl"
    path.write_text("\n\n")
    with pytest.raises(FormatError) as error:
        read_responses(path)
    assert error.value.problems == (
        f"{path}: the file has no response (it is empty; one JSON "
        "object per line is expected, as the app's export "
        "writes)",
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": "maybe"}, "kind 'maybe' is not one of substitutes, name, nil"),
        ({"kind": "nil"}, "kind 'nil' with substitutes"),
        ({"substitutes": []}, "kind 'substitutes' with no substitute"),
        ({"substitutes": "clever"}, "substitutes must be a list"),
        ({"substitutes": [3]}, "substitute 1 must be a string, not int"),
        ({"substitutes": ["\ud800"]}, "substitute 1 '\\ud800' is not valid Unicode"),
        ({"lexelt": "bright"}, "lexelt 'bright' is not lemma.pos"),
        ({"lexelt": "bright.x"}, "lexelt 'bright.x' is not lemma.pos"),
        ({"instance": 1}, "instance must be a string, not int"),
        ({"instance": "1 2"}, "instance '1 2': an instance id holds no white space"),
        (
            {"lexelt": "spazieren gehen.v"},
            "lexelt 'spazieren gehen.v': a lexelt holds no white space (the gold line "
            "separates 'LEXELT ID ::' by spaces): write 'spazieren_gehen.v'",
        ),
        (
            {"instance": "a;1"},
            "instance 'a;1': an instance id holds no ';' (the gold line separates "
            "substitutes with ';'): write 'a_1'",
        ),
        ({"instance": "::1"}, "instance '::1': an instance id does not begin with '::'"),
        ({"annotator": ""}, "annotator '' is empty"),
        ({"multiword": 1}, "multiword must be a string, not int"),
        ({"used_dictionary": "yes"}, "used_dictionary 'yes' must be true or false"),
        ({"updated_at": "yesterday"}, "not an ISO 8601"),
        ({"updated_at": None}, "not an ISO 8601"),
    ],
)
def test_malformed_responses_name_file_line_and_rule(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    path = tmp_path / "responses.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + json.dumps({**GOOD, **change}) + "\n")
    with pytest.raises(FormatError) as error:
        read_responses(path)
    assert error.value.problems[0].startswith(f"{path}:3: ")
    assert message in str(error.value)


def test_more_malformed_input(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    missing = {key: value for key, value in GOOD.items() if key != "kind"}
    path.write_bytes(b"{oops\n[1]\n\xff\n" + json.dumps(missing).encode() + b"\n")
    with pytest.raises(FormatError) as error:
        read_responses(path)
    assert [p.split(": ", 1)[0] for p in error.value.problems] == [
        f"{path}:{n}" for n in range(1, 5)
    ]
    assert "missing key(s) kind" in error.value.problems[3]
    first = Response("a", "w.n", "1", "nil", where="f:1")
    with pytest.raises(FormatError, match="f:2: annotator a answered instance 1 twice"):
        compile_responses([first, Response("a", "w.n", "1", "nil", where="f:2")])
    with pytest.raises(FormatError, match=r"f:3: instance 1 is under lexelt w\.v here"):
        compile_responses([first, Response("b", "w.v", "1", "nil", where="f:3")])


def test_responses_round_trip(tmp_path: Path) -> None:
    records = [answer("a", "1", "glad", multiword="be happy"), answer("b", "1", kind="name")]
    path = tmp_path / "r.jsonl"
    assert write_responses(path, records) == 2
    assert read_responses(path) == records


# --- hypothesis properties -------------------------------------------------------------

_LEXELTS = {"1": "bright.a", "2": "take.v", "3": "side.n", "4": "so.r", "5": "stand.n.v"}
_WORDS = [
    "clever",
    "Clever",
    "smart ",
    "take place",
    "took place",
    "cats",
    "cat",
    "glasses",
    "team",
    "x",
    "brand-new",
]
FAKE = _fake(
    {
        ("cats", "NOUN"): ("cat",),
        ("took", "VERB"): ("take",),
        ("glasses", "NOUN"): ("glass", "glasses"),
    }
)


@st.composite
def response_sets(draw: st.DrawFn) -> list[Response]:
    keys = draw(
        st.sets(
            st.tuples(st.sampled_from("abcde"), st.sampled_from(sorted(_LEXELTS))),
            min_size=1,
            max_size=18,
        )
    )
    records = []
    for annotator, instance in sorted(keys):
        kinds: list[AnswerKind] = ["substitutes", "substitutes", "substitutes", "name", "nil"]
        kind = draw(st.sampled_from(kinds))
        subs = (
            tuple(draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3)))
            if kind == "substitutes"
            else ()
        )
        multiword = draw(st.none() | st.sampled_from(["take place", "Took place", "stand in"]))
        records.append(Response(annotator, _LEXELTS[instance], instance, kind, subs, multiword))
    return records


def _outputs(gold: CompiledGold) -> tuple[str, ...]:
    return (
        "\n".join(gold_lines(gold)),
        "\n".join(mwgold_lines(gold)),
        "\n".join(annotator_lines(gold)),
        summary_text(summary(gold)),
    )


_OPTIONS = st.builds(
    CompileOptions,
    normalise=st.booleans(),
    lemmatise=st.just(True),
    lemmatiser=st.just(FAKE),
    t_rule=st.sampled_from(["annotators", "responses"]),
    only_t=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(response_sets(), _OPTIONS, st.randoms(use_true_random=False))
def test_permuting_records_or_annotators_changes_no_byte(
    records: list[Response], options: CompileOptions, rnd: random.Random
) -> None:
    before = _outputs(compile_responses(records, options))
    shuffled = records[:]
    rnd.shuffle(shuffled)
    assert _outputs(compile_responses(shuffled, options)) == before
    names = sorted({record.annotator for record in records})
    renamed = dict(zip(names, rnd.sample(names, len(names)), strict=True))
    relabelled = [
        Response(renamed[r.annotator], r.lexelt, r.instance, r.kind, r.substitutes, r.multiword)
        for r in shuffled
    ]
    after = _outputs(compile_responses(relabelled, options))
    assert (after[0], after[1]) == (before[0], before[1])

    def anonymous(text: str) -> dict[str, object]:  # the answers flagged name annotators
        return {k: v for k, v in json.loads(text).items() if k not in ("flagged", "left_out")}

    assert anonymous(after[3]) == anonymous(before[3])


@settings(max_examples=150, deadline=None)
@given(response_sets(), _OPTIONS)
def test_counts_sum_to_annotator_substitute_pairs(
    records: list[Response], options: CompileOptions
) -> None:
    gold = compile_responses(records, options)
    pairs = sum(len(answer.substitutes) for item in gold.items for answer in item.answers)
    assert sum(count for item in gold.items for _, count in item.counts) == pairs
    plain = compile_responses(records, PLAIN)
    assert sum(count for item in plain.items for _, count in item.counts) == sum(
        len(set(record.substitutes)) for record in records
    )
    assert sum(item.names for item in plain.items) == sum(r.kind == "name" for r in records)


# --- the command line ------------------------------------------------------------------


def test_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    write_responses(
        path,
        [
            answer("a", "1", "Glad", "merry"),
            answer("b", "1", "glad"),
            answer("a", "2", "x", "y"),
            answer("b", "2"),
        ],
    )
    out = tmp_path / "out"
    assert compile_command([str(path), "--out", str(out)]) == 0
    assert "4 responses, 2 annotators, 2 items: 1 in T, 1 with a mode" in capsys.readouterr().out
    first = {
        name: (out / name).read_bytes()
        for name in ("gold", "mwgold", "annotators.jsonl", "summary.json")
    }
    assert first["gold"] == b"happy.a 1 :: glad 2;merry 1;\nhappy.a 2 :: x 1;y 1;\n"
    assert compile_command([str(path), "--out", str(out)]) == 0
    assert first == {name: (out / name).read_bytes() for name in first}
    assert (
        compile_command(
            [
                str(path),
                "--out",
                str(out),
                "--only-t",
                "--no-normalise",
                "--no-lemmatise",
                "--t-rule",
                "responses",
            ]
        )
        == 0
    )
    assert (out / "gold").read_text() == (
        "happy.a 1 :: Glad 1;glad 1;merry 1;\nhappy.a 2 :: x 1;y 1;\n"
    )
    decisions = tmp_path / "d.json"
    write_decisions(decisions, Decisions((Decision("glad", "correct", "happy"),)))
    assert compile_command([str(path), "--out", str(out), "--decisions", str(decisions)]) == 0
    assert (out / "gold").read_text().startswith("happy.a 1 :: happy 2;merry 1;\n")


def test_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "kind": "nil"}) + "\n")
    out = tmp_path / "out"
    assert compile_command([str(path), "--out", str(out)]) == 1
    assert f"{path}:2: kind 'nil' with substitutes" in capsys.readouterr().err
    assert not out.exists()
    assert compile_command([str(tmp_path / "none.jsonl"), "--out", str(out)]) == 1
    assert "none.jsonl" in capsys.readouterr().err
    (tmp_path / "d.json").write_text("{}")
    assert (
        compile_command([str(path), "--out", str(out), "--decisions", str(tmp_path / "d.json")])
        == 1
    )
    with pytest.raises(SystemExit) as usage:
        compile_command([str(path)])
    assert usage.value.code == 2


# --- the splitter ----------------------------------------------------------------------


def test_split_item_rules() -> None:
    item = GoldLineAsWritten(
        "pound.n", "715", (("kilo", 2), ("11.27 kilograms", 1), ("Kilo ", 1)), 1, 1
    )
    responses = split_item(item, ("h1", "h2", "h3", "h4", "h5"), turn=1)
    assert not isinstance(responses, str)
    assert [(r.annotator, r.kind, r.substitutes) for r in responses] == [
        ("h1", "name", ()),
        ("h2", "substitutes", ("Kilo ",)),
        ("h3", "substitutes", ("kilo",)),
        ("h4", "substitutes", ("kilo",)),
        ("h5", "substitutes", ("11.27 kilograms",)),
    ]
    too_many = GoldLineAsWritten("w.n", "1", (("a", 5),), 1, 3)
    assert split_item(too_many, ("h1", "h2", "h3", "h4", "h5"), 0) == (
        "'a' given 5 times; only 4 annotators answer with substitutes"
    )
    crowded = GoldLineAsWritten("w.n", "2", tuple((f"s{n}", 1) for n in range(16)), 0, 4)
    assert split_item(crowded, ("h1", "h2", "h3", "h4", "h5"), 0) == (
        "16 substitutes; 5 annotators give at most 3 each"
    )
    split = split_gold(["w.n 1 :: a 5;pn 1;", "w.n 2 :: b 1;"])
    assert [(p.instance, p.line) for p in split.problems] == [("1", 1)]
    assert len(split.responses) == 5


# --- the proof on the task's real gold ---------------------------------------------------

GOLDS = {
    "test": ("data", "semeval2007", "test", "gold"),
    "trial": ("data", "semeval2007", "trial", "gold.trial"),
}
LINES = {"test": 1703, "trial": 300}
NORMALISED_ITEMS = {"test": 29, "trial": 1}
"""(b): items whose official entries normalisation changes."""
LEMMATISED_ITEMS = {"test": 20, "trial": 11}
"""(c): further items that LemmInflect (dictionary only) changes."""


def _official(name: str) -> dict[str, dict[str, int]]:
    items = read_gold_as_written(read_lines(shared_path(*GOLDS[name])))
    return {
        item.instance: {**dict(item.entries), **({"pn": item.names} if item.names else {})}
        for item in items
    }


_SPLITS: dict[str, Split] = {}


def _split(name: str) -> Split:
    if name not in _SPLITS:
        _SPLITS[name] = split_gold(read_lines(shared_path(*GOLDS[name])), name)
    return _SPLITS[name]


def _differ(left: dict[str, dict[str, int]], right: dict[str, dict[str, int]]) -> list[str]:
    return sorted(
        (key for key in left.keys() | right.keys() if left.get(key) != right.get(key)), key=int
    )


@pytest.mark.parametrize("name", sorted(GOLDS))
def test_real_gold_splits_into_five_plausible_annotators(name: str) -> None:
    split = _split(name)
    assert split.problems == ()
    assert len(split.responses) == 5 * LINES[name]
    for response in split.responses:
        keys = [normalise(s) for s in response.substitutes]
        assert len(keys) <= 3 and len(set(keys)) == len(keys)
        assert (response.kind == "substitutes") == bool(response.substitutes)


@pytest.mark.parametrize("name", sorted(GOLDS))
def test_a_compiled_split_gives_back_the_official_gold(name: str, tmp_path: Path) -> None:
    gold = compile_responses(_split(name).responses, PLAIN)
    official = _official(name)
    assert gold.counts() == official
    written = write_outputs(gold, tmp_path)["gold"]
    assert {
        item.instance: {**dict(item.entries), **({"pn": item.names} if item.names else {})}
        for item in read_gold_as_written(read_lines(written))
    } == official


def _cases() -> list[dict[str, str]]:
    table = shared_path("oracle", "cases.tsv")
    with table.open(newline="") as handle:
        return [
            case
            for case in csv.DictReader(handle, delimiter="\t")
            if case["type"] in ("best", "oot")
        ]


def _score(system: Path, gold: Path, case: dict[str, str], extra: list[str]) -> bytes:
    argv = [system.name, str(gold), "-t", case["type"], *extra]
    if case["verbose"]:
        argv.append(case["verbose"])
    out = io.BytesIO()
    assert score_command(argv, out, io.StringIO()) == 0
    return out.getvalue()


def test_a_the_scorer_scores_every_oracle_system_alike_on_the_compiled_gold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = shared_path()
    compiled = {}
    for name, parts in GOLDS.items():
        path = write_outputs(compile_responses(_split(name).responses, PLAIN), tmp_path / name)[
            "gold"
        ]
        compiled["/".join(parts)] = path
    cases = _cases()
    assert len(cases) == 34
    for case in cases:
        system = shared / case["system"]
        monkeypatch.chdir(system.parent)
        official = (shared / case["gold"]).resolve()
        for extra in ([], ["--fixed"]):
            expected = _score(system, official, case, extra)
            assert _score(system, compiled[case["gold"]], case, extra) == expected, case
        assert _score(system, official, case, []) == (shared / case["expected"]).read_bytes()


def _normalised(name: str) -> CompiledGold:
    return compile_responses(_split(name).responses, NORMALISED)


@pytest.mark.parametrize("name", sorted(GOLDS))
def test_b_normalisation_changes_are_listed_with_their_reason(name: str) -> None:
    gold = _normalised(name)
    official = _official(name)
    differ = _differ(official, gold.counts())
    reasons: dict[str, set[str]] = {}
    for change in gold.normalisations:
        for item in change.items:
            reasons.setdefault(item, set()).update(change.reasons)
    assert differ == sorted(reasons, key=int)
    assert len(differ) == NORMALISED_ITEMS[name]
    expected = {}
    for item_id, counts in official.items():  # the split put equal forms apart: counts add
        merged: Counter[str] = Counter()
        for substitute, count in counts.items():
            merged[normalise(substitute)] += count
        expected[item_id] = dict(merged)
    assert gold.counts() == expected
    if name == "test":
        assert Counter(reason for found in reasons.values() for reason in found) == {
            "white space": 22,
            "case": 6,
            "punctuation": 1,
        }
        assert gold.counts()["801"] == {"garden": 3, "lot": 1, "property": 1}
        assert gold.counts()["378"]["citizens"] == 1
    else:
        assert reasons == {"211": {"white space"}}


@pytest.mark.parametrize("name", sorted(GOLDS))
def test_c_lemma_changes_are_listed_and_rejecting_them_restores_b(name: str) -> None:
    before = _normalised(name).counts()
    gold = compile_responses(_split(name).responses, CompileOptions(lemmatiser=LEMMINFLECT))
    differ = _differ(before, gold.counts())
    caused: dict[str, list[str]] = {}
    for change in gold.lemma_changes:
        assert change.applied and change.decision is None
        for item in change.items:
            caused.setdefault(item, []).append(f"{change.surface} → {change.result}")
    assert differ == sorted(caused, key=int)
    assert len(differ) == LEMMATISED_ITEMS[name]
    if name == "test":
        assert caused["803"] == ["sixty feet → sixty foot"]
        assert gold.counts()["311"]["say to"] == 4
    else:
        assert caused["239"] == [
            "fibbing → fib",
            "telling falsehoods → tell falsehoods",
            "telling untruths → tell untruths",
        ]
    rejected = compile_responses(
        _split(name).responses,
        CompileOptions(
            lemmatiser=LEMMINFLECT, decisions=decisions_template(gold.lemma_changes, "reject")
        ),
    )
    assert rejected.counts() == before
    assert all(
        change.decision == "reject" and not change.applied for change in rejected.lemma_changes
    )


def test_multiwords_of_a_split_mwgold_come_back() -> None:
    multiwords = read_multiwords(shared_path("oracle", "gold", "s1_mw0.mwgold"))
    split = split_gold(read_lines(shared_path(*GOLDS["trial"])), multiwords=multiwords)
    skipped = {problem.instance for problem in split.problems}
    assert len(skipped) == 6  # two multiwords given by 5 and 1, or 4 and 4 annotators
    gold = compile_responses(split.responses, PLAIN)
    in_t = {item.instance for item in gold.items if item.in_t}
    expected = []
    for instance, entries in multiwords.items():
        top = max(entries, key=lambda entry: entry[1])
        unique = sum(1 for entry in entries if entry[1] == top[1]) == 1
        if instance not in skipped and instance in in_t and unique and top[1] > 1:
            expected.append((instance, top))
    assert sorted(expected) == sorted(
        (item.instance, item.multiword) for item in gold.items if item.multiword is not None
    )
    assert len(expected) == 29


def test_gold_lines_go_word_by_word_in_numeric_order() -> None:
    # the sentences of two words interleaved (as a crowd import numbers them), and ids
    # that text order would put 10 before 9
    records = [
        answer("ann", "10", "glad", lexelt="happy.a"),
        answer("ann", "9", "sad", lexelt="happy.a"),
        answer("ann", "2", "quick", lexelt="fast.a"),
        answer("ann", "1", "content", lexelt="happy.a"),
        answer("ann", "11", "rapid", lexelt="fast.a"),
    ]
    gold = compile_responses(records, PLAIN)
    assert list(gold_lines(gold)) == [
        "happy.a 1 :: content 1;",
        "happy.a 9 :: sad 1;",
        "happy.a 10 :: glad 1;",
        "fast.a 2 :: quick 1;",
        "fast.a 11 :: rapid 1;",
    ]
    assert gold_order({"a.10": "x.n", "a.9": "x.n", "b.1": "y.n"}) == ["a.9", "a.10", "b.1"]
