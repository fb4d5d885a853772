"""The comprehension check's text format and its rule (pure): questions parsed in order,
exactly one correct option each, and a pass only when every question is answered right."""

from __future__ import annotations

import pytest

from annotate.comprehension import ComprehensionError, Question, parse_questions, passes

TEXT = """# two questions
What do you type when no single word fits?
- a word that is close enough
* the phrase, in the phrase box
- nothing

Which box is for a proper name?
*   the Proper name tick
-the first substitute box
"""


def test_questions_are_parsed_in_order_with_their_correct_option() -> None:
    assert parse_questions(TEXT) == (
        Question(
            "What do you type when no single word fits?",
            ("a word that is close enough", "the phrase, in the phrase box", "nothing"),
            1,
        ),
        Question(
            "Which box is for a proper name?",
            ("the Proper name tick", "the first substitute box"),
            0,
        ),
    )
    assert parse_questions("") == parse_questions("\n# nothing\n\n") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q?\n* a\n* b", "line 1: question 'Q?' marks 2 options correct with '*'; exactly one is"),
        ("Q?\n- a\n- b", "line 1: question 'Q?' marks 0 options correct"),
        ("Q?\n* a", "line 1: question 'Q?' has fewer than 2 options"),
        ("Q?\n* a\nb", "line 3: 'b' is not an option: an option is '* text'"),
        ("Q?\n* a\n-", "line 3: '-' is not an option"),
        ("\n\n* a\n- b", "line 3: '* a' starts a question with an option mark"),
    ],
)
def test_a_broken_text_names_the_line_and_the_rule(text: str, message: str) -> None:
    with pytest.raises(ComprehensionError) as raised:
        parse_questions(text)
    assert str(raised.value).startswith(message)


def test_a_pass_needs_every_question_right() -> None:
    questions = parse_questions(TEXT)
    assert passes(questions, {0: 1, 1: 0})
    assert not passes(questions, {0: 1, 1: 1})
    assert not passes(questions, {0: 1})  # one unanswered
    assert not passes(questions, {0: None, 1: 0})
    assert passes((), {})  # no questions: nothing to fail
