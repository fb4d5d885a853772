"""What the annotation form accepts, the compiler keeps: the substitute rule applies to
the value in Unicode normal form C (the compiler's first step) and measures its length
there, so a value that NFC turns into a list or makes too long is refused on the form."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotate.answers import validate_answer
from annotate.gold import CompileOptions, Response, compile_responses
from annotate.gold.lemmatisation import Lemmatiser
from scoring.substitute import TOO_LONG, InvalidSubstitute, check_substitute

GREEK_QUESTION_MARK = "\u037e"  # NFC: ';'
QA = "\u0958"  # NFC: two characters, KA and NUKTA


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (
            f"happy{GREEK_QUESTION_MARK}glad",
            "Substitute 1 ('happy\u037eglad'): one substitute per box (a list was typed: "
            "give each substitute in a box of its own).",
        ),
        (
            QA * 40,
            f"Substitute 1 ('{QA * 40}'): is too long: 80 characters (at most 60).",
        ),
        (
            "\u0130" * 40,
            f"Substitute 1 ('{chr(0x130) * 40}'): is too long: 80 characters (at most 60).",
        ),
    ],
)
def test_the_form_refuses_what_normal_form_c_breaks(typed: str, message: str) -> None:
    check = validate_answer({"sub1": typed})
    assert check.answer is None
    assert [error.text for error in check.errors] == [message]


def test_a_multiword_is_checked_in_normal_form_c() -> None:
    check = validate_answer({"sub1": "glad", "mw": "on", "multiword": f"a{GREEK_QUESTION_MARK}b"})
    assert [error.text for error in check.errors] == [
        "Multiword ('a\u037eb'): contains ';' (the gold format separates entries with ';')."
    ]


def test_the_checked_text_is_in_normal_form_c() -> None:
    assert check_substitute("Geba\u0308ude").text == "Geb\u00e4ude"
    with pytest.raises(InvalidSubstitute) as error:
        check_substitute("a" + QA * 30)
    assert error.value.rule == TOO_LONG


def _saved(typed: str, multiword: str) -> tuple[str, ...] | None:
    """The substitutes the form saves for ``typed`` (with the multiword ``multiword``),
    confirming what it asks to confirm as an annotator does; None when it refuses."""
    form = {"sub1": typed, **({"mw": "on", "multiword": multiword} if multiword else {})}
    check = validate_answer(form, ("bright",))
    if check.answer is None and check.token:
        check = validate_answer({**form, "confirm": check.token}, ("bright",))
    if check.answer is None:
        return None
    return check.answer.substitutes


SAME = Lemmatiser("none-known", "1", lambda word, upos: ())
"""A lemmatiser that knows no word: the compiler's lemma rules without a dictionary."""


TRICKY = st.sampled_from(
    ["a", "b", " ", ";", ",", ":", "-", "'", GREEK_QUESTION_MARK, QA, "\u0130", "\u0308", "\u200b"]
)
"""Characters whose normal form C or lower case differs, and the gold format's marks."""
WORD = st.text(st.one_of(TRICKY, st.characters()), max_size=30)
TYPED = st.one_of(
    WORD,
    st.builds(lambda a, mark, b: a + mark + b, WORD, TRICKY, WORD),  # a mark between words
    st.builds(str.__mul__, TRICKY, st.integers(1, 70)),  # one character, many times
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(TYPED, st.one_of(st.just(""), TYPED))
def test_what_the_form_accepts_always_compiles(typed: str, multiword: str) -> None:
    saved = _saved(typed, multiword)
    if saved is None:
        return
    check = validate_answer({"sub1": typed, "mw": "on", "multiword": multiword})
    stored_multiword = check.answer.multiword if check.answer is not None else None
    response = Response("ann", "bright.a", "1", "substitutes", saved, stored_multiword)
    for options in (
        CompileOptions(lemmatiser=SAME),
        CompileOptions(normalise=False, lemmatise=False),
    ):
        gold = compile_responses([response], options)
        assert gold.left_out == ()
        assert gold.items[0].answers[0].substitutes
