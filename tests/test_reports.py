"""The organiser's report pages: the agreement report and
the leaderboard of uploaded systems, with their charts, and the same numbers as the
command lines."""

from __future__ import annotations

import io
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import answer, login, make_user

pytestmark = pytest.mark.database

# ``answered`` (tests/conftest.py): bright.a 1: ann {clever}, bob {clever, smart}, cat a
# name: PA 1/2, mode clever, PAm (1 + 1/2) / 2 = 3/4. stand.n.v 3 (lemmatised): ann
# {tolerate, bear}, bob {tolerate}, cat {bear}: pairs 1/2, 1/2, 0, PA 1/3, tied top.


def _cells(html: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>|\s+", " ", cell).strip()
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", html, re.DOTALL)
    ]


def test_agreement_page_shows_table_1_and_charts(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    login(client, "boss")
    page = client.get(f"/organiser/datasets/{dataset}/agreement")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    cells = _cells(html)
    row = cells[cells.index("all") : cells.index("all") + 5]
    # PA (1/2 + 1/3) / 2 = 41.67, one item of two with a mode, PAm 75.00
    assert row[:2] == ["all", "2"]
    assert row[2].startswith("41.67") and row[3].startswith("50.00")
    assert row[4].startswith("75.00")
    # each alpha with its interval over the same resamples (scoring.agreement.resampled);
    # none for the first substitutes: bright.a alone (drawn twice) gives clever only
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.goldfiles import compile_dataset
    from annotate.services.methods import dataset_agreement

    with answered.app_context():
        found = db.get_or_404(Dataset, dataset)
        everything = dataset_agreement(found, compile_dataset(found)).pos["all"]
    assert everything.alpha_intervals is not None
    alphas = cells[cells.index("all") + 5 : cells.index("all") + 8]
    for cell, name in zip(alphas, ("nominal_first", "indicator", "masi"), strict=True):
        value, interval = everything.alpha[name], everything.alpha_intervals[name]
        assert value is not None and (interval is None) == (name == "nominal_first"), name
        shown = "" if interval is None else f" ({interval[0]:.3f}\N{EN DASH}{interval[1]:.3f})"
        assert " ".join(cell.split()) == f"{value:.3f}{shown}", name
    assert html.count("<svg") == 2 and "Agreement by PoS" in html
    assert "seed 12345" in html
    for name in ("A1", "A2", "A3"):  # ann, bob, cat by pseudonym
        assert f"<td>{name}</td>" in html
    assert not any(f">{name}<" in html for name in ("ann", "bob", "cat"))
    assert "different annotator sets" not in html  # all three answered both items


def test_agreement_page_says_when_items_have_different_annotator_sets(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    make_user(answered, "dan")
    answer(answered, "dan", {"1": {"sub1": "clever"}})  # item 1 only: the sets differ
    login(client, "boss")
    html = client.get(f"/organiser/datasets/{dataset}/agreement").get_data(as_text=True)
    assert (
        "Note: items have different annotator sets: pairwise figures compare the annotators"
        " of each item (an overlap or crowd design: not every annotator saw every item)."
    ) in html


def _title_and_body(html: str) -> tuple[str, str]:
    title = re.search(r"<title>(.*?)</title>", html, re.DOTALL)
    body = re.search(r"<body[^>]*>(.*)</body>", html, re.DOTALL)
    assert title is not None and body is not None
    return title.group(1), body.group(1)


def test_agreement_page_signature_is_in_the_body_once(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    """The signature once slipped into <title>, where no reader sees it."""
    from scoring import __version__

    login(client, "boss")
    html = client.get(f"/organiser/datasets/{dataset}/agreement").get_data(as_text=True)
    title, body = _title_and_body(html)
    assert "Signature" not in title and "version:" not in title
    signatures = re.findall(r"<p>Signature: <code>([^<]*)</code></p>", body)
    assert len(signatures) == 1
    assert signatures[0].endswith(f"|version:{__version__}")
    assert "resample:lemma|n:1000|seed:12345|ci:0.95" in signatures[0]


def test_scores_page_scores_uploads_against_the_compiled_gold(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    """An upload is stored and scored, then shown (after the redirect) with every measure;
    paired significance is computed on request over the stored systems."""
    login(client, "boss")
    assert client.get(f"/organiser/datasets/{dataset}/scores").status_code == 200
    system = b"bright.a 1 :: clever\nstand.n.v 3 :: bear\n"
    page = client.post(
        f"/organiser/datasets/{dataset}/scores",
        data={"systems": [(io.BytesIO(system), "mine.best")]},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "<h3>mine.best</h3>" in html
    cells = _cells(html)
    # best-1: clever is bright's maximum (2 of 2) and bear stand's (2, tied): 100.00
    assert cells[cells.index("best_1.R") + 1] == "100.00"
    assert "<svg" in html
    html = client.get(f"/organiser/datasets/{dataset}/scores?significance=on").get_data(
        as_text=True
    )
    assert "resample:lemma" in html
    title, body = _title_and_body(html)
    assert "version:" not in title and "metric:" in body


def test_scores_page_reports_a_bad_file(answered: Flask, client: FlaskClient, dataset: int) -> None:
    login(client, "boss")
    page = client.post(
        f"/organiser/datasets/{dataset}/scores",
        data={"systems": [(io.BytesIO(b"not a system file\n"), "notes.txt")]},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Not scored: notes.txt: no line names an item" in html
    assert "No system stored yet." in html
    page = client.post(
        f"/organiser/datasets/{dataset}/scores",
        data={},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "Choose one or more system files" in page.get_data(as_text=True)


def test_bar_chart_draws_values_intervals_and_escapes_labels() -> None:
    from annotate.web.charts import Bar, bar_chart

    svg = str(bar_chart("<PA>", ["n", "v"], {"PA": [Bar(0.5, 0.25, 0.75), Bar(None)]}, height=240))
    # plot height 240 - 28 - 40 = 172: a bar of 0.5 is 86 high, its top at 28 + 86
    assert 'y="114.0"' in svg and 'height="86.0"' in svg
    assert svg.count("<rect") == 2  # one bar (v has none) and one legend key
    assert "&lt;PA&gt;" in svg and "<PA>" not in svg
    assert "M" in svg and "V" in svg  # the error bar
    with pytest.raises(ValueError, match="one bar per group"):
        bar_chart("x", ["n", "v"], {"PA": [Bar(0.1)]})
