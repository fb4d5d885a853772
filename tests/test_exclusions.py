"""Leaving an annotator out of a compile (:mod:`scoring.formats.exclusions`): hand-computed
gold lines with and without them, the summary's ``excluded``, the signature's
``|excluded:N``, the same outputs byte for byte when nobody is left out, the CLI
compiler's ``--exclude``, and the agreement report's ``--exclude`` (the report of the
annotators.jsonl compiled without them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotate.compile import run as compile_command
from annotate.gold import CompileOptions, Response, compile_responses, write_responses
from annotate.gold.write import annotator_lines, gold_lines, output_texts, summary
from scoring.agreement.__main__ import main as agreement_command
from scoring.formats.annotators import Item, parse_annotators
from scoring.formats.exclusions import (
    DEFAULT_REASON,
    Excluded,
    Exclusion,
    leave_out,
    merge,
    parse_exclusion,
)
from tests.test_compiler import answer

PLAIN = CompileOptions(normalise=False, lemmatise=False)

# Three annotators on two items of happy.a: bob answered unlike the others.
RESPONSES = [
    answer("ann", "1", "glad", "content"),
    answer("bob", "1", "sad"),
    answer("cat", "1", "glad"),
    answer("ann", "2", "cheerful"),
    answer("bob", "2", "cheerful", "sad"),
    answer("cat", "2", "merry"),
]


def _compile(*excluded: Exclusion) -> list[str]:
    options = CompileOptions(normalise=False, lemmatise=False, excluded=excluded)
    return list(gold_lines(compile_responses(RESPONSES, options)))


def test_gold_lines_without_an_annotator_by_hand() -> None:
    # Everybody: item 1 glad 2 (ann, cat), content 1, sad 1; item 2 cheerful 2, merry 1, sad 1.
    assert _compile() == [
        "happy.a 1 :: glad 2;content 1;sad 1;",
        "happy.a 2 :: cheerful 2;merry 1;sad 1;",
    ]
    # Without bob: his sad (both items) and his cheerful (item 2) are gone.
    assert _compile(Exclusion("bob", "answers unrelated to the sentence")) == [
        "happy.a 1 :: glad 2;content 1;",
        "happy.a 2 :: cheerful 1;merry 1;",
    ]
    # Without bob and cat: one annotator an item, no item in T (still listed in gold).
    assert _compile(Exclusion("bob"), Exclusion("cat")) == [
        "happy.a 1 :: content 1;glad 1;",
        "happy.a 2 :: cheerful 1;",
    ]


def test_summary_and_signature_record_the_exclusion() -> None:
    options = CompileOptions(
        normalise=False, lemmatise=False, excluded=(Exclusion("bob", "answers in French"),)
    )
    gold = compile_responses(RESPONSES, options)
    body = summary(gold)
    assert body["responses"] == 4
    assert body["annotators"] == ["ann", "cat"]
    assert body["excluded"] == [{"annotator": "bob", "reason": "answers in French", "responses": 2}]
    assert list(body)[:4] == ["signature", "responses", "annotators", "excluded"]
    assert body["signature"].endswith("|t:annotators|only-t:no|excluded:1")
    assert gold.excluded == (Excluded("bob", "answers in French", 2),)


def test_nobody_excluded_gives_the_same_bytes() -> None:
    before = output_texts(compile_responses(RESPONSES, PLAIN))
    after = output_texts(compile_responses(RESPONSES, CompileOptions(PLAIN.normalise, False)))
    assert before == after
    assert "excluded" not in before["summary.json"]
    assert json.loads(before["summary.json"])["signature"].endswith("|only-t:no")


def test_an_annotator_named_twice_is_left_out_once_with_the_first_reason() -> None:
    options = CompileOptions(
        normalise=False,
        lemmatise=False,
        excluded=(Exclusion("bob", "first"), Exclusion("bob", "second")),
    )
    gold = compile_responses(RESPONSES, options)
    assert gold.excluded == (Excluded("bob", "first", 2),)
    assert gold.signature.text.endswith("|excluded:1")


def test_parse_exclusion_and_merge() -> None:
    assert parse_exclusion(" bob = answers in French ") == Exclusion("bob", "answers in French")
    assert parse_exclusion("bob") == Exclusion("bob", DEFAULT_REASON)
    assert parse_exclusion("bob=a=b") == Exclusion("bob", "a=b")
    with pytest.raises(ValueError, match="names no annotator"):
        parse_exclusion("=spam")
    with pytest.raises(ValueError, match="256 characters"):
        parse_exclusion("bob=" + "x" * 256)
    assert merge([Exclusion("cat", "a")], [Exclusion("bob", "b"), Exclusion("cat", "c")]) == (
        Exclusion("bob", "b"),
        Exclusion("cat", "a"),
    )


def test_cli_compiler_exclude(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    responses = tmp_path / "responses.jsonl"
    write_responses(responses, RESPONSES)
    out = tmp_path / "out"
    plain = ["--no-normalise", "--no-lemmatise"]
    status = compile_command(
        [str(responses), "--out", str(out), *plain, "--exclude", "bob=answers in French"]
    )
    assert status == 0
    assert (out / "gold").read_text() == (
        "happy.a 1 :: glad 2;content 1;\nhappy.a 2 :: cheerful 1;merry 1;\n"
    )
    body = json.loads((out / "summary.json").read_text())
    assert body["excluded"] == [{"annotator": "bob", "reason": "answers in French", "responses": 2}]
    assert "left out bob (2 responses): answers in French" in capsys.readouterr().out


def test_cli_compiler_refuses_an_annotator_not_in_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    responses = tmp_path / "responses.jsonl"
    write_responses(responses, RESPONSES)
    out = tmp_path / "out"
    assert compile_command([str(responses), "--out", str(out), "--exclude", "dan"]) == 1
    assert f"Error: {responses}: no responses of 'dan'" in capsys.readouterr().err
    assert not out.exists()


NAMES = ("ann", "bob", "cat", "dan")
WORDS = ("glad", "content", "sad", "merry", "cheerful")


@st.composite
def studies(draw: st.DrawFn) -> list[Response]:
    """Up to four annotators on up to four items, each answering an item at most once."""
    records = []
    for instance in ("1", "2", "3", "4"):
        for name in draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=4)):
            chosen = draw(st.lists(st.sampled_from(WORDS), unique=True, max_size=3))
            records.append(answer(name, instance, *chosen))
    return draw(st.permutations(records))


@given(studies(), st.sets(st.sampled_from(NAMES), max_size=2))
@settings(max_examples=60, deadline=None)
def test_leaving_out_is_compiling_without_their_responses(
    records: list[Response], left: set[str]
) -> None:
    """The gold and annotators.jsonl of a compile that leaves annotators out are those of
    the responses without theirs; only the summary and the signature say more."""
    excluded = tuple(Exclusion(name, "r") for name in sorted(left))
    with_exclusion = output_texts(
        compile_responses(records, CompileOptions(normalise=False, excluded=excluded))
    )
    kept = [record for record in records if record.annotator not in left]
    without = output_texts(compile_responses(kept, CompileOptions(normalise=False)))
    for name in ("gold", "mwgold", "annotators.jsonl"):
        assert with_exclusion[name] == without[name]
    body = json.loads(with_exclusion["summary.json"])
    counts = {row["annotator"]: row["responses"] for row in body.get("excluded", [])}
    assert counts == {name: sum(r.annotator == name for r in records) for name in left}
    assert body["responses"] == len(kept)


# --- the agreement report's --exclude (the same rule on annotators.jsonl) ------------------


def _annotators_file(folder: Path, *options: str) -> Path:
    responses = folder / "responses.jsonl"
    write_responses(responses, RESPONSES)
    out = folder / "-".join(["out", *options])
    assert compile_command([str(responses), "--out", str(out), *options]) == 0
    return out / "annotators.jsonl"


def test_agreement_exclude_is_the_report_of_the_gold_compiled_without_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    everyone = _annotators_file(tmp_path)
    without_bob = _annotators_file(tmp_path, "--exclude", "bob")
    capsys.readouterr()
    assert agreement_command([str(everyone), "--format", "json", "--exclude", "bob=a bot"]) == 0
    excluded = json.loads(capsys.readouterr().out)
    assert agreement_command([str(without_bob), "--format", "json"]) == 0
    compiled = json.loads(capsys.readouterr().out)
    # without bob: item 1 ann {glad, content}, cat {glad}: 1/2; item 2 {cheerful}, {merry}: 0
    assert excluded["all"]["PA"] == 0.25 and excluded["all"]["T"] == 2
    assert excluded.pop("excluded") == [{"annotator": "bob", "reason": "a bot", "responses": 2}]
    assert excluded.pop("signature") == compiled.pop("signature").replace(
        "|version:", "|excluded:1|version:"
    )
    assert excluded == compiled
    assert agreement_command([str(everyone), "--exclude", "bob", "--exclude", "cat=x"]) == 0
    assert "|excluded:2|" in capsys.readouterr().out


def test_agreement_refuses_an_annotator_not_in_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    everyone = _annotators_file(tmp_path)
    capsys.readouterr()
    assert agreement_command([str(everyone), "--exclude", "bob", "--exclude", "dan"]) == 1
    assert capsys.readouterr().err == (
        f"Error: {everyone}: no responses of 'dan' (--exclude names an annotator of the file)\n"
    )
    with pytest.raises(SystemExit) as usage:
        agreement_command([str(everyone), "--exclude", "=a reason"])
    assert usage.value.code == 2
    assert "'=a reason' names no annotator" in capsys.readouterr().err


@given(studies(), st.sets(st.sampled_from(NAMES), max_size=2))
@settings(max_examples=60, deadline=None)
def test_leave_out_is_the_annotators_of_a_compile_without_them(
    records: list[Response], left: set[str]
) -> None:
    """leave_out on the items of everyone's annotators.jsonl gives the items of the
    annotators.jsonl compiled without them, and counts their responses."""
    answered = {record.annotator for record in records}
    excluded = tuple(Exclusion(name, "r") for name in sorted(left & answered))

    def items(options: CompileOptions) -> list[Item]:
        lines = list(annotator_lines(compile_responses(records, options)))
        return list(parse_annotators(lines, "annotators")) if lines else []

    everyone = items(CompileOptions(normalise=False))
    kept, found = leave_out(everyone, excluded)
    assert kept == items(CompileOptions(normalise=False, excluded=excluded))
    assert found == tuple(
        Excluded(e.annotator, "r", sum(r.annotator == e.annotator for r in records))
        for e in excluded
    )
