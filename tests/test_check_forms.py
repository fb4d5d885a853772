"""The compiler's form rule as attention checks use it (pure): a typed value's gold form,
the same function the compiler applies, so a check can never disagree with the gold."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from annotate.gold import CompileOptions, Decision, Decisions, compile_responses, form_matcher
from scoring.formats.responses import Response

ENGLISH = form_matcher(CompileOptions())


def test_forms_are_the_compilers_own() -> None:
    assert ENGLISH("Clever", "bright.a") == ENGLISH(" clever ", "bright.a") == "clever"
    assert ENGLISH("tolerates", "stand.v") == "tolerate"  # lemmatised for the verb
    assert ENGLISH("tolerance", "stand.v") == "tolerance"
    assert ENGLISH("pn", "bright.a") is None  # the rules refuse it: never in the gold
    assert ENGLISH("happy; glad", "bright.a") is None
    german = form_matcher(CompileOptions(language="de"))
    assert german("Häuser", "Haus.n") == german("haus", "Haus.n") == "Haus"


def test_a_decision_of_the_organiser_changes_the_form_as_in_the_gold() -> None:
    decided = form_matcher(
        CompileOptions(decisions=Decisions((Decision("tolerates", "reject", None, None),)))
    )
    assert decided("tolerates", "stand.v") == "tolerates"


WORDS = ("clever", "smart", "tolerates", "running", "bright spark", "houses")


@given(
    st.sampled_from(WORDS),
    st.lists(st.booleans(), min_size=12, max_size=12),
    st.sampled_from(("", " ", "  ")),
)
def test_the_form_of_a_value_is_the_form_the_gold_gives_it(
    word: str, upper: list[bool], pad: str
) -> None:
    typed = (
        pad + "".join(c.upper() if u else c for c, u in zip(word, upper * 2, strict=False)) + pad
    )
    gold = compile_responses([Response("a", "w.v", "1", "substitutes", (typed,))])
    (item,) = gold.items
    assert ENGLISH(typed, "w.v") == ENGLISH(word, "w.v")
    assert dict(item.counts) == {ENGLISH(typed, "w.v"): 1}
