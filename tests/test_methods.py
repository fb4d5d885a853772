"""The methods paragraph (:mod:`annotate.gold.methods`): the figures of a small compiled
gold by hand, and the exact Markdown and LaTeX text."""

from __future__ import annotations

from dataclasses import replace

import pytest

from annotate.gold import CompileOptions, compile_responses
from annotate.gold.methods import (
    CheckScore,
    StudyFigures,
    in_words,
    language_name,
    methods_text,
    methods_warnings,
    study_figures,
)
from annotate.gold.write import annotator_lines
from scoring.agreement.report import report
from scoring.formats.annotators import parse_annotators
from scoring.formats.exclusions import Excluded, Exclusion
from tests.test_exclusions import RESPONSES

GOLD_SIGNATURE = "lexsub-compile:1|t:annotators|excluded:1"
AGREEMENT_SIGNATURE = "metric:agreement|pa:per_item|excluded:1|version:0"

# Without bob: item 1 ann {glad, content}, cat {glad}; item 2 ann {cheerful}, cat {merry}.
FIGURES = StudyFigures(
    dataset="small",
    language="en",
    annotators=2,
    excluded=(Excluded("A2", "a bot", 2),),
    items=2,
    lemmas=1,
    responses=4,
    substitutes=4,  # glad, content; cheerful, merry
    t_rule="annotators",
    in_t=2,
    agreement_t=2,
    pa=0.25,  # item 1: |{glad}| / |{glad, content}| = 1/2; item 2: 0; mean 1/4
    pa_interval=(0.0, 0.5),
    pam=0.75,  # item 1's mode glad: ann 1/2 (one of two), cat 1; (1/2 + 1) / 2
    pam_interval=None,
    mode_share=0.5,  # item 2 (cheerful 1, merry 1) has no mode
    alpha_masi=0.118,
    alpha_masi_interval=(-0.25, 0.5),
    resamples=1000,
    seed=12345,
    confidence=0.95,
    gold_signature=GOLD_SIGNATURE,
    agreement_signature=AGREEMENT_SIGNATURE,
)

MARKDOWN = (
    "**Annotation of small.** Two annotators gave 4 responses in English to 2 items of 1 "
    "target word: 2.00 responses and 2.00 distinct substitutes per item. One annotator was "
    "left out: A2 (a bot, 2 responses). T, the items with substitutes from at least two "
    "annotators, holds 2 items (100.00% of the items). Pairwise agreement (PA; McCarthy & "
    "Navigli 2009, eq. 1) over the 2 items of T is 25.00% (95% CI 0.00\N{EN DASH}50.00), and "
    "agreement with the mode (PAm, eq. 2) is 75.00%, 50.00% of the items of T having a "
    "mode; intervals from 1000 bootstrap resamples of lemmas, seed 12345. Krippendorff's "
    "alpha with MASI distance is 0.118 (95% CI -0.250\N{EN DASH}0.500).\n"
    "\n"
    "Signatures: gold `lexsub-compile:1|t:annotators|excluded:1`; agreement "
    "`metric:agreement|pa:per_item|excluded:1|version:0`.\n"
)

LATEX = (
    r"\paragraph{Annotation of small} Two annotators gave 4 responses in English to 2 items "
    "of 1 target word: 2.00 responses and 2.00 distinct substitutes per item. One annotator "
    "was left out: A2 (a bot, 2 responses). T, the items with substitutes from at least two "
    r"annotators, holds 2 items (100.00\% of the items). Pairwise agreement (PA; McCarthy \& "
    r"Navigli 2009, eq. 1) over the 2 items of T is 25.00\% (95\% CI 0.00--50.00), and "
    r"agreement with the mode (PA$_m$, eq. 2) is 75.00\%, 50.00\% of the items of T having a "
    "mode; intervals from 1000 bootstrap resamples of lemmas, seed 12345. Krippendorff's "
    r"$\alpha$ with MASI distance is 0.118 (95\% CI -0.250--0.500)."
    "\n"
    "\n"
    r"Signatures: gold \texttt{lexsub-compile:1|t:annotators|excluded:1}; agreement "
    r"\texttt{metric:agreement|pa:per\_item|excluded:1|version:0}."
    "\n"
)


def test_figures_of_a_small_gold_by_hand() -> None:
    options = CompileOptions(
        normalise=False, lemmatise=False, excluded=(Exclusion("bob", "a bot"),)
    )
    gold = compile_responses(RESPONSES, options)
    agreement = report(
        parse_annotators(list(annotator_lines(gold)), "small"),
        with_intervals=True,
        excluded=gold.excluded,
    )
    found = study_figures("small", gold, agreement)
    expected = replace(
        FIGURES,
        excluded=(Excluded("bob", "a bot", 2),),  # names as given: the service pseudonymises
        pa_interval=None,  # one lemma: nothing to resample
        alpha_masi_interval=None,
        alpha_masi=agreement.pos["all"].alpha["masi"],
        gold_signature=gold.signature.text,
        agreement_signature=agreement.signature,
    )
    assert found == expected
    assert found.gold_signature.endswith("|excluded:1")
    assert "|excluded:1|" in found.agreement_signature


def test_markdown_text() -> None:
    assert methods_text(FIGURES) == MARKDOWN


def test_latex_text_escapes() -> None:
    assert methods_text(FIGURES, "latex") == LATEX
    odd = replace(FIGURES, dataset="a_b", excluded=(Excluded("x&y", "50% wrong", 1),))
    text = methods_text(odd, "latex")
    assert text.startswith(r"\paragraph{Annotation of a\_b}")
    assert r"x\&y (50\% wrong, 1 response)" in text


def test_nobody_excluded_and_undefined_figures() -> None:
    text = methods_text(replace(FIGURES, excluded=(), pa=None, alpha_masi=None, resamples=None))
    assert methods_warnings(replace(FIGURES, resamples=None)) == []
    assert "left out" not in text
    assert "over the 2 items of T is undefined, and" in text
    assert "having a mode. Krippendorff's alpha with MASI distance is undefined." in text


@pytest.mark.parametrize(
    ("checks", "sentence"),
    [
        (None, None),
        ((), None),
        (
            (CheckScore("p1", 3, 4), CheckScore("p2", 1, 2), CheckScore("p3", 0, 0)),
            # p3 answered no check: 3/4 and 1/2, mean 62.5%
            "On the attention checks, the 2 participants answered 62.50% correctly on "
            "average (lowest 50.00%).",
        ),
    ],
)
def test_check_scores(checks: tuple[CheckScore, ...] | None, sentence: str | None) -> None:
    text = methods_text(replace(FIGURES, checks=checks))
    if sentence is None:
        assert "attention checks" not in text
    else:
        assert sentence in text


def test_the_warning_stands_beside_the_paragraph() -> None:
    assert "unreliable" not in methods_text(FIGURES)
    assert methods_warnings(FIGURES) == [
        "The intervals are resampled from 1 target word: with fewer than 20 they are unreliable."
    ]
    assert methods_warnings(replace(FIGURES, lemmas=20)) == []


def test_an_empty_dataset_has_no_answers_yet() -> None:
    empty = replace(
        FIGURES, annotators=0, excluded=(), items=2, responses=0, substitutes=0, in_t=0,
        agreement_t=0, pa=None, pam=None, alpha_masi=None,
    )  # fmt: skip
    assert methods_text(empty) == "**Annotation of small.** There are no answers yet.\n"
    assert methods_text(empty, "latex") == (
        "\\paragraph{Annotation of small} There are no answers yet.\n"
    )
    assert methods_warnings(empty) == []


def test_one_annotator_one_item_and_large_counts() -> None:
    one = replace(
        FIGURES, annotators=1, excluded=(), items=1, responses=1, substitutes=1, in_t=1,
        agreement_t=1, lemmas=1,
    )  # fmt: skip
    text = methods_text(one)
    assert text.startswith(
        "**Annotation of small.** One annotator gave 1 response in English to 1 item of 1 "
        "target word: 1.00 responses and 1.00 distinct substitutes per item. T, the items "
        "with substitutes from at least two annotators, holds 1 item (100.00% of the items). "
        "Pairwise agreement (PA; McCarthy & Navigli 2009, eq. 1) over the item of T is "
    )
    many = methods_text(replace(FIGURES, annotators=1234, excluded=()))
    assert many.startswith("**Annotation of small.** A total of 1,234 annotators gave 4")
    twelve = methods_text(replace(FIGURES, excluded=(Excluded("A1", "r", 1),) * 12))
    assert "Twelve annotators were left out: A1 (r, 1 response); A1" in twelve


def test_numbers_in_words_and_language_names() -> None:
    assert [in_words(n) for n in (0, 7, 19, 20, 45, 100, 999)] == [
        "zero", "seven", "nineteen", "twenty", "forty-five", "one hundred",
        "nine hundred and ninety-nine",
    ]  # fmt: skip
    assert in_words(1000) is None
    assert [language_name(code) for code in ("en", "de", "it", "qqq")] == [
        "English", "German", "Italian", "qqq",
    ]  # fmt: skip
    german = methods_text(replace(FIGURES, language="de"))
    assert "gave 4 responses in German to 2 items" in german


def test_markdown_escapes_names_and_reasons() -> None:
    odd = replace(
        FIGURES,
        dataset="pilot_*2*",
        excluded=(Excluded("A2", "[spam](http://x) <b>bot</b> &amp; `code` # | ~", 1),),
    )
    text = methods_text(odd)
    assert text.startswith("**Annotation of pilot\\_\\*2\\*.** Two annotators")
    assert (
        "A2 (\\[spam\\](http://x) \\<b\\>bot\\</b\\> \\&amp; \\`code\\` \\# \\| \\~, 1 response)"
        in text
    )
    assert "McCarthy & Navigli" in text  # the paragraph's own text is not escaped
