"""The load benchmark's figures (bench/load_bench.py) on hand-computed cases: the cycle
percentiles, the count of acknowledged saves against a store (lexsub's or Potato's files),
and the lines that hold a run against the load targets. Nothing here starts a server or
installs Potato."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from bench.load_bench import (
    Result,
    answer_form,
    comparisons,
    cycle_percentiles,
    input_fields,
    potato_config,
    potato_store,
    save_times,
    scaled,
)
from tests.conftest import assign, instance_ids, login, make_user
from tests.live_clients import Count, Page, Save, compare_saves


def save(username: str, sentence: int, token: str, acknowledged: bool = True) -> Save:
    return Save(username, sentence, token, acknowledged_at=1.0 if acknowledged else None)


def test_save_times_read_the_saves_of_the_access_log() -> None:
    # gunicorn's lines of ACCESS_FORMAT: method, path, status, microseconds
    log = (
        "GET /login 200 1500\n"
        "POST /login 302 9000\n"
        "POST /annotate/17 200 12345\n"  # a save by fetch
        "POST /annotate/18 303 8000\n"  # a save as a form (redirect)
        "GET /annotate/19 200 7000\n"  # the next page: not a save
        "POST /annotate/19 400 900\n"  # refused: not a save
        "POST /annotate/20 302 31000\n"
    )
    assert save_times(log) == [0.012345, 0.008, 0.031]


def test_cycle_percentiles_are_nearest_rank_in_milliseconds() -> None:
    # 1 ms … 200 ms: ranks ceil(200 p / 100) = 100, 190, 198
    assert cycle_percentiles([ms / 1000 for ms in range(200, 0, -1)]) == (100.0, 190.0, 198.0)
    # ten cycles: ranks 5, 10, 10
    assert cycle_percentiles([0.5, 0.1, 0.2, 0.3, 0.4, 0.9, 0.8, 0.7, 0.6, 1.0]) == (
        500.0,
        1000.0,
        1000.0,
    )
    assert cycle_percentiles([0.0421]) == (42.1, 42.1, 42.1)
    assert all(value != value for value in cycle_percentiles([]))  # NaN: no cycles


def test_every_acknowledged_save_is_looked_up_and_the_missing_ones_are_lost() -> None:
    saves = [
        save("ann", 1, "ann-1"),
        save("ann", 2, "ann-2"),  # not stored: lost
        save("ann", 1, "ann-3"),  # stored; the current answer of sentence 1
        save("bob", 1, "bob-1"),  # stored, but the current answer is an older one: lost
        save("bob", 2, "bob-2"),
        save("bob", 3, "bob-3", acknowledged=False),  # never acknowledged: not counted
    ]
    history = {
        ("ann", 1): Counter({"ann-1": 1, "ann-3": 1}),
        ("bob", 1): Counter({"bob-1": 1, "old": 1}),
        ("bob", 2): Counter({"bob-2": 2}),  # stored twice by a repeated Save
    }
    current: dict[tuple[str, int], tuple[str, int | None]] = {
        ("ann", 1): ("ann-3", 2),
        ("bob", 1): ("old", None),
        ("bob", 2): ("bob-2", 1),  # the store says 1 save, its history holds 2
    }
    count = compare_saves(saves, history, current)
    assert (count.acknowledged, count.unacknowledged, count.in_history) == (5, 1, 4)
    assert (count.pairs, count.current, count.revisions, count.repeated) == (4, 2, 6, 1)
    assert count.lost == (
        "ann sentence 2: acknowledged save ann-2 is not in the revision history",
        "ann sentence 2: current answer None, the last acknowledged save was ann-2",
        "bob sentence 1: current answer 'old', the last acknowledged save was bob-1",
    )
    assert count.anomalies == (
        "bob sentence 1: revision 'old' that no client sent",
        "bob sentence 2: saves = 1 but 2 revisions",
    )


def label(value: str, name: str = "sub1") -> list[object]:
    return [{"schema": "substitutes", "name": name}, value]


def test_potato_store_reads_the_history_and_the_current_answers(tmp_path: Path) -> None:
    """Potato 2.12.1's files as it writes them: one folder an annotator, an action a line
    in annotation_history.jsonl, the current labels in user_state.json."""
    folder = tmp_path / "bench000"
    folder.mkdir()
    (tmp_path / "pocket").mkdir()  # Potato's own folders hold neither file
    actions = [
        ("1", "add_label", "sub1", "bench000-1"),
        ("2", "add_label", "sub1", "bench000-2"),
        ("2", "add_label", "sub2", "other box"),
        ("1", "update_label", "sub1", "bench000-3"),
    ]
    (folder / "annotation_history.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "user_id": "bench000",
                    "instance_id": instance,
                    "action_type": kind,
                    "schema_name": "substitutes",
                    "label_name": box,
                    "old_value": None,
                    "new_value": value,
                }
            )
            + "\n"
            for instance, kind, box, value in actions
        )
    )
    (folder / "user_state.json").write_text(
        json.dumps(
            {
                "instance_id_to_label_to_value": {
                    "1": [label("bench000-3")],
                    "2": [label("bench000-2"), label("other box", "sub2")],
                }
            }
        )
    )
    history, current = potato_store(tmp_path)
    assert history == {
        ("bench000", 1): Counter({"bench000-1": 1, "bench000-3": 1}),
        ("bench000", 2): Counter({"bench000-2": 1}),
    }
    assert current == {("bench000", 1): ("bench000-3", None), ("bench000", 2): ("bench000-2", None)}
    saves = [save("bench000", 1, "bench000-1"), save("bench000", 2, "bench000-2")]
    saves += [save("bench000", 1, "bench000-3"), save("bench000", 3, "bench000-4")]
    count = compare_saves(saves, history, current)
    assert (count.acknowledged, count.in_history, count.current, len(count.lost)) == (4, 3, 2, 2)


def test_potato_store_names_the_file_of_an_id_it_cannot_read(tmp_path: Path) -> None:
    folder = tmp_path / "bench000"
    folder.mkdir()
    line = {"instance_id": "s1", "action_type": "add_label", "schema_name": "substitutes"}
    line |= {"label_name": "sub1", "new_value": "x"}
    (folder / "annotation_history.jsonl").write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match=r"annotation_history\.jsonl:1: instance id 's1'"):
        potato_store(tmp_path)


def test_the_potato_config_has_three_text_boxes_over_the_sentences() -> None:
    config = potato_config("data/sentences.jsonl")
    assert "  - data/sentences.jsonl\n" in config
    assert "  - annotation_type: text\n    name: substitutes\n" in config
    assert "    labels: [sub1, sub2, sub3]\n" in config


def run(server: str, store: str, pace: str, saves: int, wall: float, cycles: list[float]) -> Result:
    count = Count(saves, 0, saves, saves, saves, saves, 0, (), ())
    return Result(server, store, pace, 50, wall, saves, cycles, 0, 0, [], count, 0, 1.0, None, 1.0)


def test_the_targets_are_held_against_the_run() -> None:
    """Flat out 8x Potato's saves/s on SQLite, 6x on PostgreSQL; realistic p99 under
    30 ms; on a larger dataset a cycle p50 at most 1.5x the unscaled one's."""
    results = [
        run("Potato", "its files", "flat", 400, 10.0, [1.0]),  # 40 saves/s
        run("lexsub", "SQLite", "flat", 3200, 10.0, [0.1]),  # 320 = 8.0x
        run("lexsub", "PostgreSQL", "flat", 2300, 10.0, [0.1]),  # 230 = 5.75x
        run("lexsub", "SQLite x100", "flat", 2000, 10.0, [0.15]),  # p50 1.5x
        run("lexsub", "PostgreSQL x100", "flat", 2000, 10.0, [0.16]),  # 1.6x
        run("Potato", "its files", "realistic", 400, 10.0, [0.5] * 99 + [2.0]),
        run("lexsub", "SQLite", "realistic", 400, 10.0, [0.01] * 98 + [0.029, 0.3]),
        run("lexsub", "PostgreSQL", "realistic", 400, 10.0, [0.01] * 98 + [0.03, 0.3]),
    ]
    assert comparisons(results) == [
        "flat out, SQLite: lexsub 320.0 saves/s = 8.0x Potato's 40.0 (target >= 8x): met",
        "flat out, PostgreSQL: lexsub 230.0 saves/s = 5.8x Potato's 40.0 (target >= 6x): MISSED",
        "flat, SQLite x100: cycle p50 150.0 ms = 1.50x the unscaled 100.0 ms (target <= 1.5x): met",
        "flat, PostgreSQL x100: cycle p50 160.0 ms = 1.60x the unscaled 100.0 ms "
        "(target <= 1.5x): MISSED",
        "realistic, SQLite: lexsub cycle p99 29 ms (Potato's p99 500 ms) (target < 30 ms): met",
        "realistic, PostgreSQL: lexsub cycle p99 30 ms (Potato's p99 500 ms) "
        "(target < 30 ms): MISSED",
        "zero errors and zero lost saves in every run: yes",
    ]


def test_scaled_repeats_every_word_under_new_names(tmp_path: Path) -> None:
    """x3: each word three times (copies ``bright_1.a``, ``bright_2.a``; ids ``1-1`` …),
    read back as a dataset of three times the sentences; x1 is the file itself."""
    from scoring.formats.importers.read import parse_source
    from tests.conftest import SMALL_XML

    small = tmp_path / "small.xml"
    small.write_bytes(SMALL_XML)
    assert scaled(small, 1, tmp_path) == small
    lexelts = parse_source(scaled(small, 3, tmp_path).read_bytes(), "x3").lexelts
    assert [(x.item, [i.id for i in x.instances]) for x in lexelts] == [
        ("bright.a", ["1", "2"]),
        ("stand.n.v", ["3"]),
        ("bright_1.a", ["1-1", "2-1"]),
        ("stand_1.v", ["3-1"]),
        ("bright_2.a", ["1-2", "2-2"]),
        ("stand_2.v", ["3-2"]),
    ]
    assert lexelts[2].instances[1].text == "A bright light <here>."


FORM = """<form id="answer" method="post" action="/annotate/7">
<input type="hidden" name="csrf_token" value="a&amp;b&quot;c">
<input name="sub1" value='it&#39;s'><INPUT TYPE="TEXT" NAME="sub2">
<input type="checkbox" name="nil" checked><input type="checkbox" name="mw" value="yes">
<input type="checkbox" name="used_dictionary" value="on" checked="checked">
<input type="submit" name="go" value="Save"><input type=file name=upload>
<input name=multiword value=bare><input value="nameless"></form>"""


def test_the_answer_forms_fields_are_what_a_browser_submits() -> None:
    """The bench's reading of a form's ``<input>`` tags gives what the HTML parser of
    tests/live_clients gives, on a form with every case the reading tells apart."""
    page = Page("GET", "/annotate/7", 200, "", f"<p>before</p>{FORM}<p>after</p>")
    assert (
        answer_form(page)
        == page.form("answer")
        == {
            "csrf_token": 'a&b"c',
            "sub1": "it's",
            "sub2": "",
            "nil": "on",
            "used_dictionary": "on",
            "multiword": "bare",
        }
    )
    assert input_fields(FORM) == page.form("answer")


def test_the_answer_form_of_a_real_page_reads_as_the_html_parser_reads_it(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    make_user(app, "ann")
    assign(app, "ann", dataset)
    login(client, "ann")
    one, two, _ = instance_ids(app)
    client.post(f"/annotate/{one}", data={"sub1": "clever", "mw": "on", "multiword": "a b"})
    forms = []
    for sentence in (one, two):
        text = client.get(f"/annotate/{sentence}").get_data(as_text=True)
        page = Page("GET", f"/annotate/{sentence}", 200, "", text)
        assert answer_form(page) == page.form("answer")
        forms.append({k: v for k, v in page.form("answer").items() if k != "csrf_token"})
    assert forms == [
        {"sub1": "clever", "sub2": "", "sub3": "", "mw": "on", "multiword": "a b"},
        {"sub1": "", "sub2": "", "sub3": "", "multiword": ""},
    ]
