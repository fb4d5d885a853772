"""``lexsub report`` and the methods page on the ``answered`` fixture (lemmatised, as
``lexsub compile`` does by default): bright.a 1 ann {clever}, bob {clever, smart}, cat a
name; stand.n.v 3 ann {tolerate, bear}, bob {tolerate}, cat {bear}. By hand: PA =
(1/2 + (1/2 + 1/2 + 0)/3) / 2 = 41.67%; item 1's mode clever (item 3's bear and tolerate
tie), PAm = (1 + 1/2) / 2 = 75.00%, half of T with a mode."""

from __future__ import annotations

import pytest
from flask import Flask
from markupsafe import escape

from tests.conftest import login

pytestmark = pytest.mark.database

OPENING = (
    "**Annotation of small.** Three annotators gave 6 responses in English to 2 items of 2 "
    "target words: 3.00 responses and 2.00 distinct substitutes per item. T, the items "
    "with substitutes from at least two annotators, holds 2 items (100.00% of the items). "
    "Pairwise agreement (PA; McCarthy & Navigli 2009, eq. 1) over the 2 items of T is "
    "41.67% (95% CI "
)


def test_report_command_and_page_agree(answered: Flask) -> None:
    runner = answered.test_cli_runner()
    result = runner.invoke(args=["lexsub", "report", "--dataset", "small"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith(OPENING)
    # the warning stands beside the paragraph: on standard error, and its own note on the page
    assert "unreliable" not in text
    assert result.stderr == (
        "Warning: The intervals are resampled from 2 target words: with fewer than 20 they "
        "are unreliable.\n"
    )
    assert "agreement with the mode (PAm, eq. 2) is 75.00% (95% CI " in text
    assert "50.00% of the items of T having a mode; intervals from 1000 bootstrap" in text
    assert "Krippendorff's alpha with MASI distance is 0." in text
    assert " (95% CI " in text.split("MASI distance is ")[1]
    assert "left out" not in text
    latex = runner.invoke(args=["lexsub", "report", "--dataset", "small", "--format", "latex"])
    assert latex.stdout.startswith(r"\paragraph{Annotation of small} Three annotators gave 6")
    client = answered.test_client()
    login(client, "boss")
    page = client.get("/organiser/datasets/1/methods").get_data(as_text=True)
    assert str(escape(text)) in page
    assert str(escape(latex.stdout)) in page
    assert (
        '<p class="note" role="note" id="methods-warning-1">Warning: The intervals are '
        "resampled from 2 target words: with fewer than 20 they are unreliable.</p>" in page
    )
    assert "No attention checks are recorded" in page


def test_report_leaves_out_who_the_organiser_left_out(answered: Flask) -> None:
    runner = answered.test_cli_runner()
    runner.invoke(args=["lexsub", "exclude", "--dataset", "small", "bob", "--reason", "a bot"])
    text = runner.invoke(args=["lexsub", "report", "--dataset", "small"]).stdout
    # without bob (A2: ann, bob and cat are A1, A2, A3 by their accounts' creation): item 1
    # has one annotator with substitutes (out of T); item 3 ann {tolerate, bear}, cat
    # {bear}: PA 1/2, mode bear, PAm (1/2 + 1) / 2
    assert text.startswith(
        "**Annotation of small.** Two annotators gave 4 responses in English to 2 items of 2 "
        "target words: 2.00 responses and 1.50 distinct substitutes per item. "
        "One annotator was left out: A2 (a bot, 2 responses). T, the items with substitutes "
        "from at least two annotators, holds 1 item (50.00% of the items). Pairwise "
        "agreement (PA; McCarthy & Navigli 2009, eq. 1) over the item of T is 50.00%"
    )
    assert "is 75.00%" in text
    assert "|excluded:1`; agreement `metric:agreement|" in text
    assert "bob" not in text


def test_report_of_no_dataset(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["lexsub", "report", "--dataset", "nope"])
    assert result.exit_code == 1
    assert result.output == "Error: no dataset 'nope'\n"


def test_report_gives_the_attention_check_scores(answered: Flask, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # sentence 3 (stand.n.v) a check item accepting "bears": through the compiler's forms
    # it is "bear", so ann {tolerate, bear} and cat {bear} pass, bob {tolerate} fails.
    # Only the study's participants count: bob and cat made by its link, ann assigned by
    # the organiser; then cat left out: bob alone, 0 of 1
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Dataset, User

    with answered.app_context():
        small = db.session.scalar(select(Dataset).where(Dataset.name == "small"))
        assert small is not None
        for user in db.session.scalars(select(User).where(User.username.in_(["bob", "cat"]))):
            user.study_id = small.id
        db.session.commit()
    runner = answered.test_cli_runner()
    path = tmp_path / "checks.tsv"
    path.write_text("3\tbears\n", encoding="utf-8")
    result = runner.invoke(args=["lexsub", "checks", "--dataset", "small", str(path)])
    assert result.exit_code == 0, result.output
    text = runner.invoke(args=["lexsub", "report", "--dataset", "small"]).stdout
    assert (
        "On the attention checks, the 2 participants answered 50.00% correctly on average "
        "(lowest 0.00%)." in text
    )
    # the check item leaves the gold: item 1 alone (ann {clever}, bob {clever, smart},
    # cat a name: PA 1/2)
    assert text.startswith(
        "**Annotation of small.** Three annotators gave 3 responses in English to 1 item of 1 "
        "target word: 3.00 responses and 2.00 distinct substitutes per item."
    )
    assert "over the item of T is 50.00%" in text
    runner.invoke(args=["lexsub", "exclude", "--dataset", "small", "cat", "--reason", "a bot"])
    text = runner.invoke(args=["lexsub", "report", "--dataset", "small"]).stdout
    # participants are P1 (bob), P2 (cat); ann, assigned by the organiser, is A1
    assert "One annotator was left out: P2 (a bot, 1 response)." in text
    assert "cat" not in text
    assert (
        "On the attention checks, the 1 participant answered 0.00% correctly on average "
        "(lowest 0.00%)." in text
    )


def test_the_agreement_page_warns_of_intervals_from_few_lemmas(answered: Flask) -> None:
    client = answered.test_client()
    login(client, "boss")
    page = client.get("/organiser/datasets/1/agreement").get_data(as_text=True)
    assert (
        '<p class="note" id="few-lemmas" role="note">Warning: only 2 lemmas: with fewer than '
        "20 the intervals and p-values are unreliable.</p>" in page
    )


def test_report_of_a_dataset_without_answers(app: Flask, dataset: int) -> None:
    result = app.test_cli_runner().invoke(args=["lexsub", "report", "--dataset", "small"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "**Annotation of small.** There are no answers yet.\n"
    assert result.stderr == ""
