"""FormCheck.described: the attributes that tie each box of the annotation form to what
describes it (its messages, the target word, its limit note) and give one box the focus."""

from __future__ import annotations

from annotate.answers import FormCheck, Message


def test_a_fresh_form_describes_each_box_by_the_target_word_and_focuses_sub1() -> None:
    check = FormCheck(None)
    assert check.described("sub1", True) == (' aria-describedby="target-word limit-sub1" autofocus')
    assert check.described("multiword", True) == ' aria-describedby="target-word limit-multiword"'
    assert check.described("name") == ' aria-describedby="target-word"'


def test_the_shown_messages_mark_their_boxes_and_the_first_gets_the_focus() -> None:
    errors = (Message(("mw", "sub2"), "first"), Message(("mw",), "second"))
    check = FormCheck(None, errors=errors, cautions=(Message(("sub1",), "not shown"),))
    assert check.described("sub2", True) == (
        ' aria-invalid="true" aria-describedby="message-1 target-word limit-sub2" autofocus'
    )
    assert check.described("mw") == (
        ' aria-invalid="true" aria-describedby="message-1 message-2 target-word"'
    )
    assert check.described("sub1", True) == ' aria-describedby="target-word limit-sub1"'


def test_cautions_are_the_messages_when_there_is_no_error() -> None:
    check = FormCheck(None, cautions=(Message(("nil",), "check"),), token="abc")
    assert check.described("nil") == (
        ' aria-invalid="true" aria-describedby="message-1 target-word" autofocus'
    )
    assert check.described("sub1", True) == ' aria-describedby="target-word limit-sub1"'
