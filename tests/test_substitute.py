"""One definition of a valid substitute (scoring.substitute), and the
compiler leaving out, and reporting, the stored answers that break it."""

from __future__ import annotations

import pytest

from annotate.gold import CompileOptions, Decision, Decisions, Response, compile_responses
from annotate.gold.write import gold_lines, summary
from scoring.substitute import (
    CONTROL,
    EMPTY,
    INVISIBLE,
    LINE_BREAK,
    LIST,
    MANY_WORDS,
    NAME_OR_NIL,
    NO_LETTER,
    ONE_CHARACTER,
    RESERVED,
    SEPARATOR,
    SPACE,
    TARGET,
    TOO_LONG,
    InvalidSubstitute,
    check_multiword,
    check_substitute,
    clean,
)


@pytest.mark.parametrize(
    ("typed", "rule"),
    [
        ("happy; glad", LIST),
        ("smart, clever", LIST),
        ("smart,clever", LIST),
        ("smart/clever", LIST),
        ("bright ;clever", LIST),
        ("quick :: rapid", SEPARATOR),
        ("quick::rapid", SEPARATOR),
        ("glad;", SEPARATOR),
        (";glad", SEPARATOR),
        ("1;2", SEPARATOR),
        ("glad\nhappy", LINE_BREAK),
        ("glad\r", LINE_BREAK),
        ("glad\u2028", LINE_BREAK),
        ("gl\x00ad", CONTROL),
        ("glad\x1b[31m", CONTROL),
        ("\x7f", CONTROL),
        ("pn", RESERVED),
        ("PN", RESERVED),
        ("pn.", RESERVED),
        (" 'pn' ", RESERVED),
        ("!!!", NO_LETTER),
        ("-", NO_LETTER),
        ("'", NO_LETTER),
        ("", EMPTY),
        ("   ", EMPTY),
        ("\u200b", EMPTY),
        ("x" * 61, TOO_LONG),
    ],
)
def test_refused_with_the_rule(typed: str, rule: str) -> None:
    with pytest.raises(InvalidSubstitute) as caught:
        check_substitute(typed)
    assert caught.value.rule == rule
    assert caught.value.value == typed
    assert str(caught.value).startswith(repr(typed) + ": ")


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        ("glad", "glad"),
        ("  glad  ", "glad"),
        ("take  place", "take place"),
        ("1,000", "1,000"),  # a number, not a list
        ("24/7", "24/7"),
        ("glad,", "glad,"),  # stray punctuation: the compiler's normalisation strips it
        ("people's", "people's"),
        ("non-captive", "non-captive"),
        ("11.27 kilograms", "11.27 kilograms"),
        ("quick\u200b", "quick"),
        ("\ufeffquick", "quick"),
        ("qu\u202eick\u202c", "quick"),
        ("Gebäude", "Gebäude"),
        ("x" * 60, "x" * 60),
        ("happen", "happen"),  # contains 'pn'? no; 'pn' only as a whole entry is reserved
        ("apnea", "apnea"),
        ("glad\tto", "glad to"),
    ],
)
def test_accepted_and_cleaned(typed: str, text: str) -> None:
    assert check_substitute(typed).text == text


def test_cleaning_reports_what_it_removed() -> None:
    assert clean("quick") == ("quick", ())
    assert clean(" quick ") == ("quick", (SPACE,))
    assert clean("quick\u200b") == ("quick", (INVISIBLE,))
    assert clean("\u2066quick  fox\u2069 ") == ("quick fox", (INVISIBLE, SPACE))
    assert check_substitute("quick\u200b").removed == (INVISIBLE,)


@pytest.mark.parametrize(
    ("typed", "targets", "rules"),
    [
        ("name", (), [NAME_OR_NIL]),
        ("Nil", (), [NAME_OR_NIL]),
        ("nil.", (), [NAME_OR_NIL]),
        ("x", (), [ONE_CHARACTER]),
        ("x.", (), [ONE_CHARACTER]),
        ("bright", ("bright",), [TARGET]),
        ("Brighter", ("bright", "brighter"), [TARGET]),
        ("one two three four five six", (), [MANY_WORDS]),
        ("one two three four five", (), []),
        ("clever", ("bright",), []),
    ],
)
def test_warnings_need_a_confirmation(
    typed: str, targets: tuple[str, ...], rules: list[str]
) -> None:
    assert [caution.rule for caution in check_substitute(typed, targets).warnings] == rules


def test_a_multiword_follows_the_format_rules_only() -> None:
    assert check_multiword(" take  place ").text == "take place"
    assert check_multiword("pick up, put down").text == "pick up, put down"
    for typed, rule in (
        ("take; place", SEPARATOR),
        ("take\nplace", LINE_BREAK),
        ("a::b", SEPARATOR),
        ("???", NO_LETTER),
        ("y" * 61, TOO_LONG),
    ):
        with pytest.raises(InvalidSubstitute) as caught:
            check_multiword(typed)
        assert caught.value.rule == rule


def _answer(
    annotator: str, instance: str, *subs: str, multiword: str | None = None, lexelt: str = "quick.a"
) -> Response:
    return Response(annotator, lexelt, instance, "substitutes", subs, multiword)


def test_the_compiler_leaves_out_and_reports_stored_answers_that_break_the_rules() -> None:
    """What hostile input found: each of these stopped the compile or was misread."""
    records = [
        _answer("a", "1", "fast"),
        _answer("b", "1", "happy; glad"),
        _answer("c", "1", "fast", "pn"),
        _answer("d", "1", "quick :: rapid"),
        _answer("e", "1", "!!!"),
        _answer("f", "1", "fa\x00st"),
        _answer("g", "1", "rapid", multiword="fast;er"),
        _answer("h", "1", "fast\u200b"),
    ]
    gold = compile_responses(records)
    assert list(gold_lines(gold)) == ["quick.a 1 :: fast 2;"]
    left = [(p.annotator, p.value, p.rule) for p in gold.left_out]
    assert left == [
        ("b", "happy; glad", LIST),
        ("c", "pn", RESERVED),
        ("d", "quick :: rapid", SEPARATOR),
        ("e", "!!!", NO_LETTER),
        ("f", "fa\x00st", CONTROL),
        ("g", "fast;er", SEPARATOR),
    ]
    data = summary(gold)
    assert data["responses"] == 8 and data["responses_left_out"] == 6
    assert data["in_t"] == 1
    assert data["scorer"] == {"compat_items": 1, "fixed_items": 1, "differing_items": 0}
    assert [(c["surface"], c["reasons"]) for c in data["normalisation_changes"]] == [
        ("fast\u200b", ["invisible"])
    ]


def test_a_lemma_that_breaks_the_rules_leaves_the_answer_out() -> None:
    """An organiser's correction to ``pn`` (the gold format's reserved entry) or to a list
    cannot put either into the gold."""
    decisions = Decisions(
        (
            Decision("glad", "correct", "pn", None),
            Decision("happy", "correct", "joyful; merry", None),
        )
    )
    gold = compile_responses(
        [_answer("a", "1", "glad"), _answer("b", "1", "happy"), _answer("c", "1", "fast")],
        CompileOptions(decisions=decisions),
    )
    assert [(p.annotator, p.value, p.rule) for p in gold.left_out] == [
        ("a", "glad", RESERVED),
        ("b", "happy", LIST),
    ]
    assert list(gold_lines(gold)) == ["quick.a 1 :: fast 1;"]
