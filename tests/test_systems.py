"""The stored leaderboard: system files kept with the dataset, ranked by
a chosen measure, with coverage, warnings, score.pl's diagnosis, re-scoring and deletion;
the same figures as ``lexsub compare`` and ``python -m scoring.score``."""

from __future__ import annotations

import io
import re
from itertools import pairwise
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scoring.benchmark.wordnet import wordnet_available
from tests.conftest import answer, login

pytestmark = pytest.mark.database

# ``answered``: T = {bright.a 1 (clever 2, smart 1, pn 1), stand.n.v 3 (bear 2, tolerate 2)}
GOOD = b"bright.a 1 :: clever\nstand.n.v 3 :: bear\n"
HALF = b"bright.a 1 :: smart\n"
OOT = b"bright.a 1 ::: clever;smart\nstand.n.v 3 ::: bear\n"
RANKED = b"bright.a 1 :::: 0.9 clever;0.1 smart\nstand.n.v 3 :::: 0.5 bear\n"


def upload(
    client: FlaskClient, dataset: int, *files: tuple[bytes, str], fixed: bool = False
) -> str:
    data: dict[str, object] = {"systems": [(io.BytesIO(body), name) for body, name in files]}
    if fixed:
        data["fixed"] = "on"
    response = client.post(
        f"/organiser/datasets/{dataset}/scores",
        data=data,
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert response.status_code == 200
    return response.get_data(as_text=True)


def ranked_names(html: str, kind: str) -> list[str]:
    """The systems of ``kind`` in the one ranking table, in its order."""
    table = html.split('id="ranking"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(rf'<tr class="kind-{kind}">(.*?)</tr>', table, re.DOTALL)
    return [re.findall(r'<a href="#system-\d+">([^<]+)</a>', row)[0] for row in rows]


def test_uploads_stay_ranked_after_a_reload(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    login(client, "boss")
    html = upload(client, dataset, (HALF, "half.best"), (GOOD, "good.best"))
    assert "good.best stored and scored (best, compat rules)." in html
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    # best.R: good (2/3 + 2/4) / 2 = 58.33 above half (1/3 / 2 = 16.67)
    assert ranked_names(page, "best") == ["good.best", "half.best"]
    assert "ranked by best.R" in page
    assert "2 / 2 (100.0%)" in page and "1 / 2 (50.0%)" in page
    assert "answers 1 of the 2 items in T (50.0%)" in page  # low coverage warned
    # another measure, chosen on the page: mode precision puts half.best (smart, not
    # the mode) at 0 still below
    page = client.get(f"/organiser/datasets/{dataset}/scores?best=best.mode_P").get_data(
        as_text=True
    )
    assert "ranked by best.mode_P" in page
    # an unknown measure falls back to the default
    page = client.get(f"/organiser/datasets/{dataset}/scores?best=nonsense").get_data(as_text=True)
    assert "ranked by best.R" in page


def test_service_stores_what_the_issue_lists(answered: Flask, dataset: int) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.goldfiles import compile_dataset
    from annotate.services.systems import rank, store_system, stored_systems

    with answered.app_context():
        data = db.get_or_404(Dataset, dataset)
        compiled = compile_dataset(data)
        row = store_system(data, "good.best", GOOD, "compat", "boss", compiled)
        assert (row.file_name, row.kind, row.rules, row.uploaded_by) == (
            "good.best",
            "best",
            "compat",
            "boss",
        )
        assert row.content == GOOD.decode()
        assert row.gold_signature == compiled.signature.text and len(row.gold_sha256) == 64
        assert (row.answered, row.gold_items) == (2, 2) and row.warnings == []
        # clever 2 of 3, bear 2 of 4
        assert row.scores["best.R"] == pytest.approx((2 / 3 + 2 / 4) / 2)
        assert "precision = 58.33, recall = 58.33" in row.scorer_output
        store_system(data, "oot.oot", OOT, "fixed", "boss", compiled)
        store_system(data, "r.ranked", RANKED, "compat", "boss", compiled)
        kinds = {r.file_name: r.kind for r in stored_systems(data)}
        assert kinds == {"good.best": "best", "oot.oot": "oot", "r.ranked": "ranked"}
        # gap: the oot and the ranked file tie (they share place 1, by file name), the
        # best file has no gap and comes last
        ranked = rank(stored_systems(data), "gap")
        assert [(r.place, r.system.file_name) for r in ranked] == [
            (1, "oot.oot"),
            (1, "r.ranked"),
            (3, "good.best"),
        ]
        assert ranked[0].value == ranked[1].value and ranked[2].value is None


def test_same_figures_as_compare_and_diagnosis_as_score(
    answered: Flask, dataset: int, tmp_path: Path
) -> None:
    """The stored figures are scoring.leaderboard.cli's, score.pl's text and the diagnosis are
    scoring.score.cli's, on the files the command compiles."""
    import json

    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.goldfiles import compile_dataset
    from annotate.services.systems import store_system
    from scoring.leaderboard.cli import main as compare_main
    from scoring.score.cli import run

    system = b"bright.a 1 :: clever ;x\nstand.n.v 3 :: bear\n"  # a trailing space
    runner = answered.test_cli_runner()
    assert (
        runner.invoke(
            args=["lexsub", "compile", "--dataset", "small", "--out", str(tmp_path / "out")]
        ).exit_code
        == 0
    )
    (tmp_path / "sys.best").write_bytes(system)
    out = io.StringIO()
    assert (
        compare_main(
            [str(tmp_path / "out" / "gold"), str(tmp_path / "sys.best"), "--format", "json"], out
        )
        == 0
    )
    expected = json.loads(out.getvalue())["systems"]["sys.best"]
    stdout, stderr = io.BytesIO(), io.StringIO()
    assert run([str(tmp_path / "sys.best"), str(tmp_path / "out" / "gold")], stdout, stderr) == 0
    with answered.app_context():
        data = db.get_or_404(Dataset, dataset)
        row = store_system(data, "sys.best", system, "compat", "boss", compile_dataset(data))
        assert row.scores == pytest.approx(expected)
        assert row.scorer_output == stdout.getvalue().decode()
        assert row.diagnosis == stderr.getvalue().splitlines()
        assert any("white space" in note for note in row.diagnosis)


def test_the_scores_page_scores_on_the_texts_and_writes_no_file(
    answered: Flask,
    client: FlaskClient,
    dataset: int,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """Uploading and re-scoring call :func:`scoring.score.library.score` on the texts: no temporary
    file or folder (tempfile's every maker raises here), no gold cache, nothing written
    under HOME or the cache folders; score.pl's text is the library's."""
    import tempfile

    from annotate.extensions import db
    from annotate.models import SystemRun

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a temporary file or folder was made")

    for name in ("mkdtemp", "mkstemp", "TemporaryDirectory", "NamedTemporaryFile"):
        monkeypatch.setattr(tempfile, name, refuse)
    outside = [tmp_path / "home", tmp_path / "xdg", tmp_path / "cache"]
    for variable, folder in zip(
        ("HOME", "XDG_CACHE_HOME", "LEXSUB_CACHE_DIR"), outside, strict=True
    ):
        folder.mkdir()
        monkeypatch.setenv(variable, str(folder))
    login(client, "boss")
    html = upload(client, dataset, (GOOD, "good.best"), (OOT, "good.oot"))
    assert "good.best stored and scored (best, compat rules)." in html
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    # clever 2 of 3, bear 2 of 4: (2/3 + 2/4) / 2
    assert "precision = 58.33, recall = 58.33" in page
    response = client.post(f"/organiser/datasets/{dataset}/scores/rescore", follow_redirects=True)
    assert response.status_code == 200
    with answered.app_context():
        row = db.session.query(SystemRun).filter_by(file_name="good.best").one()
        assert "precision = 58.33, recall = 58.33\n" in row.scorer_output
        assert row.scores["best.P"] == pytest.approx((2 / 3 + 2 / 4) / 2)
    assert [list(folder.iterdir()) for folder in outside] == [[], [], []]


def test_surprising_files_are_warned_and_bad_ones_refused(
    answered: Flask, client: FlaskClient, dataset: int, tmp_path: Path
) -> None:
    login(client, "boss")
    runner = answered.test_cli_runner()
    runner.invoke(args=["lexsub", "compile", "--dataset", "small", "--out", str(tmp_path)])
    gold = (tmp_path / "gold").read_bytes()
    html = upload(client, dataset, (gold, "gold"), (OOT, "named.best"))
    assert "this looks like a gold or mwgold file" in html
    assert "the file name says best but its lines are a oot file" in html
    html = upload(
        client,
        dataset,
        (b"\xff\xfe", "binary.best"),
        (b"a 1 :: x\x00\n", "nul"),
        (b"not a system file\n", "notes.txt"),
    )
    assert (
        "Not scored: binary.best: UTF-16 text (it starts with a UTF-16 byte-order mark); "
        "files are UTF-8 text"
    ) in html
    assert "Not scored: nul holds a NUL character" in html
    assert "Not scored: notes.txt: no line names an item" in html
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    assert "binary.best" not in page.split("<h2>Leaderboard</h2>")[1].replace("Not scored", "")


def test_rescore_against_a_new_gold_and_delete(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.models import SystemRun

    login(client, "boss")
    upload(client, dataset, (GOOD, "good.best"))
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    assert "the gold as compiled now" in page and "an earlier gold" not in page
    # a fourth annotator changes the gold: the stored figures say they are older
    from tests.conftest import make_user

    make_user(answered, "dan")
    answer(answered, "dan", {"1": {"sub1": "smart"}})
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    assert "an earlier gold" in page
    with answered.app_context():
        before = db.session.query(SystemRun).one().scores["best.R"]
    page = client.post(
        f"/organiser/datasets/{dataset}/scores/rescore", follow_redirects=True
    ).get_data(as_text=True)
    assert "1 system re-scored against the gold as compiled now." in page
    assert "an earlier gold" not in page
    with answered.app_context():
        row = db.session.query(SystemRun).one()
        assert row.scores["best.R"] != before  # clever: 2 of 4 now, not 2 of 3
        system_id = row.id
    page = client.post(
        f"/organiser/datasets/{dataset}/scores/delete",
        data={"system": str(system_id)},
        follow_redirects=True,
    ).get_data(as_text=True)
    # Delete asks first: the system is still stored
    assert "<h1>Delete good.best?</h1>" in page and 'name="confirm" value="yes"' in page
    with answered.app_context():
        assert db.session.query(SystemRun).count() == 1
    page = client.post(
        f"/organiser/datasets/{dataset}/scores/delete",
        data={"system": str(system_id), "confirm": "yes"},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "good.best deleted." in page and "No system stored yet." in page
    with answered.app_context():
        assert db.session.query(SystemRun).count() == 0
    page = client.post(
        f"/organiser/datasets/{dataset}/scores/delete",
        data={"system": "999"},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "no system 999" in page


def test_significance_on_request(answered: Flask, client: FlaskClient, dataset: int) -> None:
    login(client, "boss")
    upload(client, dataset, (GOOD, "good.best"), (HALF, "half.best"))
    page = client.get(f"/organiser/datasets/{dataset}/scores?significance=on").get_data(
        as_text=True
    )
    assert "resample:lemma" in page and "p (bootstrap)" in page
    # the small dataset has two words: too few lemmas for the intervals and p-values
    assert (
        "Warning: only 2 lemmas: with fewer than 20 the intervals and p-values are unreliable."
        in page
    )


def test_chart_legend_entries_never_overlap() -> None:
    from annotate.web.charts import Bar, bar_chart, legend_layout, legend_width

    names = [f"system-{i}-{'x' * (i * 7)}.best" for i in range(9)]
    placed = legend_layout(names, 44, 630)
    for (x, row, label), (x2, row2, _) in pairwise(placed):
        assert row2 > row or x2 >= x + legend_width(label)
    for x, _row, label in placed:
        assert x >= 44 and (x + legend_width(label) <= 630 or x == 44)
        assert len(label) <= 40
    svg = str(bar_chart("Systems", ["best.R"], {name: [Bar(0.5)] for name in names}))
    rows = 1 + max(row for _, row, _ in placed)
    assert rows > 1 and f'viewBox="0 0 640 {260 + (rows - 1) * 16}"' in svg


@pytest.mark.skipif(
    not wordnet_available(), reason="needs WordNet 3.0 (wordnet-base) for SWORDS' lemmatiser"
)
def test_a_swords_result_is_scored_on_the_page(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    """A SWORDS result: scored as its ranked candidates, with SWORDS'
    own figures against the dataset's gold as a SWORDS dataset; the same ranking figures
    as RANKED, which ranks the same candidates the same way."""
    import json

    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.goldfiles import compile_dataset
    from annotate.services.systems import scoring_gold, store_system, swords_data
    from scoring.benchmark.swords import evaluate_swords, parse_result
    from scoring.measures.swords.family import METRICS

    with answered.app_context():
        data = db.get_or_404(Dataset, dataset)
        compiled = compile_dataset(data)
        swords = swords_data(data, scoring_gold(compiled, "compat", "g"))
        ids = {target.legacy_id: target.id for target in swords.dataset.target_list}
        result = {
            "substitutes_lemmatized": True,
            "substitutes": {
                ids["1"]: [["clever", 0.9], ["smart", 0.1]],
                ids["3"]: [["bear", 0.5]],
            },
        }
        body = json.dumps(result).encode()
        row = store_system(data, "s.json", body, "compat", "boss", compiled)
        ranked = store_system(data, "r.ranked", RANKED, "compat", "boss", compiled)
        assert row.kind == "swords" and (row.answered, row.gold_items) == (2, 2)
        for measure in ("gap", "ap", "p_at_1", "r_at_10"):
            assert row.scores[measure] == ranked.scores[measure], measure
        expected = evaluate_swords(swords.dataset, parse_result(result)).metrics
        assert tuple(expected) == METRICS
        assert {m: row.scores[f"swords.{m}"] for m in METRICS} == pytest.approx(
            {m: value / 100 for m, value in expected.items()}
        )
        assert row.scorer_output == "" and row.diagnosis == []
    login(client, "boss")
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    assert ranked_names(page, "swords") == ["s.json"]
    assert "swords files ranked by swords.strict_a_f@10" in page


def test_an_upload_with_the_bytes_of_a_stored_system_stores_nothing(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.models import SystemRun

    login(client, "boss")
    upload(client, dataset, (GOOD, "good.best"))
    with answered.app_context():
        before = db.session.query(SystemRun).count()
        stored_on = db.session.query(SystemRun).one().uploaded_at
    html = upload(client, dataset, (GOOD, "again.best"), fixed=True)
    assert (
        f"Not stored: again.best has the same bytes as good.best, stored on "
        f"{stored_on:%Y-%m-%d %H:%M} (compat rules): nothing stored"
    ) in html
    with answered.app_context():
        assert (before, db.session.query(SystemRun).count()) == (1, 1)
    assert "again.best" not in html.split("<h2>Leaderboard</h2>")[1].replace("Not stored", "")


def test_a_file_that_answers_none_of_the_gold_items_is_refused(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.models import SystemRun

    login(client, "boss")
    html = upload(
        client,
        dataset,
        (b"bright.a 7 :: clever\nstand.n.v 9 :: bear\n", "elsewhere.best"),
        (b"bright.a 1 ::\nstand.n.v 3 ::\n", "empty.best"),
    )
    assert (
        "Not scored: elsewhere.best answers none of the 2 items in T of the gold: its 2 "
        "answered ids (&#39;7&#39;, &#39;9&#39;) are not in the gold (the gold&#39;s ids: "
        "&#39;1&#39;, &#39;3&#39;): nothing stored"
    ) in html
    assert (
        "Not scored: empty.best answers none of the 2 items in T of the gold: it gives no "
        "answer (the gold&#39;s ids: &#39;1&#39;, &#39;3&#39;): nothing stored"
    ) in html
    with answered.app_context():
        assert db.session.query(SystemRun).count() == 0


def test_the_page_shows_the_ranking_first_and_collapses_the_rest(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    from annotate.extensions import db
    from annotate.models import SystemRun

    login(client, "boss")
    upload(client, dataset, (GOOD, "good.best"), (HALF, "half.best"), (OOT, "o.oot"))
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    with answered.app_context():
        signature = db.session.query(SystemRun).first().gold_signature  # type: ignore[union-attr]
    main = page.split("<main>", 1)[1]
    # the ranking comes before the upload form and each system's details
    assert main.index('id="ranking"') < main.index('id="systems"') < main.index("Each system")
    table = main.split('id="ranking"', 1)[1].split("</table>", 1)[0]
    assert "best files ranked by best.R; oot files ranked by oot.R" in table
    assert ranked_names(page, "best") == ["good.best", "half.best"]
    assert ranked_names(page, "oot") == ["o.oot"]
    half = re.search(r'<tr class="kind-best">((?:(?!</tr>).)*half\.best.*?)</tr>', table, re.S)
    assert half is not None
    cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in half[1].split("</td>")]
    assert cells[:6] == ["2", "half.best", "best", "best.R 16.67", "1 / 2 (50.0%)", "1 warning"]
    # every signature only in a collapsed system section or behind a copy button
    outside = re.sub(r"<details.*?</details>", "", main, flags=re.S)
    assert signature not in re.sub(r'data-copy="[^"]*"', "", outside)
    assert f'data-copy="{signature}"' in main
    assert main.count("<details><summary>Figures") == 3
    assert '<script src="/static/copy.js" defer></script>' in page


def test_a_system_uploaded_with_its_provenance_shows_its_model_and_parameters(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    made = (
        b'{"system": "llm", "model": "qwen2.5:7b", "endpoint": "localhost:8000", '
        b'"parameters": {"model": "qwen2.5:7b", "samples": 5, "temperature": 0.8, '
        b'"seed": 7, "max_tokens": 128}, "prompt_sha256": "00112233445566778899", '
        b'"fingerprint": "4d6f1b2a9c0e7f35"}'
    )
    login(client, "boss")
    html = upload(
        client,
        dataset,
        (GOOD, "gen.best"),
        (made, "gen.best.provenance.json"),
        (OOT, "plain.oot"),
        (b"{not json", "broken.oot.provenance.json"),
        (made, "lost.best.provenance.json"),
    )
    assert "gen.best stored and scored (best, compat rules)." in html
    assert "plain.oot stored and scored (oot, compat rules)." in html
    assert (
        "Not stored: lost.best.provenance.json is a provenance file, and no system file "
        "lost.best was uploaded with it." in html
    )
    assert "Not stored: broken.oot.provenance.json is a provenance file" in html
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    assert ranked_names(page, "best") == ["gen.best"]  # no provenance file stored as a system
    table = page.split('id="ranking"', 1)[1].split("</table>", 1)[0]
    assert (
        '<small class="provenance">qwen2.5:7b: temperature=0.8, samples=5, seed=7, '
        "max_tokens=128</small>" in table
    )
    assert table.count('class="provenance"') == 1  # plain.oot came without one
    assert (
        "Generated: qwen2.5:7b at localhost:8000 (llm); temperature=0.8, samples=5, seed=7, "
        "max_tokens=128; prompt 001122334455; fingerprint 4d6f1b2a9c0e7f35" in page
    )
    # the figures are those of the file alone: clever 2 of 3, bear 2 of 4
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.systems import stored_systems

    with answered.app_context():
        rows = {row.file_name: row for row in stored_systems(db.get_or_404(Dataset, dataset))}
        assert rows["gen.best"].scores["best.R"] == pytest.approx((2 / 3 + 2 / 4) / 2)
        assert rows["plain.oot"].provenance is None


def test_a_malformed_provenance_is_shown_as_unreadable(
    answered: Flask, client: FlaskClient, dataset: int
) -> None:
    login(client, "boss")
    html = upload(client, dataset, (GOOD, "gen.best"), (b"[1, 2]", "gen.best.provenance.json"))
    assert "gen.best stored and scored (best, compat rules)." in html
    page = client.get(f"/organiser/datasets/{dataset}/scores").get_data(as_text=True)
    assert '<small class="provenance">provenance unreadable</small>' in page
    assert "Generated: unreadable (gen.best.provenance.json: not a JSON object)" in page
