"""The annotation page's "This word" navigation stays the same size whatever the word's
size: the word's first and last sentences, those within WINDOW of the one shown, and a
field that goes to any sentence by its number (the number rule of annotate/numeric.py;
a wrong number is a message on the page, a 400, never a 500)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.services.itempage import WINDOW
from tests.conftest import assign, login, make_user

pytestmark = pytest.mark.database  # on SQLite and on PostgreSQL

NAV = re.compile(r'<nav class="sentences"[^>]*>(.*?)</nav>', re.S)
LINK = re.compile(r'<a href="/annotate/(\d+)"( class="current" aria-current="page")?>(\d+)')


def words_xml(sizes: dict[str, int]) -> bytes:
    """A dataset of one word a size: ``big.a`` of 1,000 sentences, ``small.a`` of 30."""
    parts = ['<?xml version="1.0" encoding="utf-8"?>\n<corpus lang="english">']
    for lemma, size in sizes.items():
        parts.append(f'<lexelt item="{lemma}.a">')
        parts.extend(
            f'<instance id="{lemma}{n}"><context>Sentence {n} is <head>{lemma}</head> '
            "here.</context></instance>"
            for n in range(1, size + 1)
        )
        parts.append("</lexelt>")
    parts.append("</corpus>")
    return "\n".join(parts).encode()


@pytest.fixture
def words(app: Flask, client: FlaskClient) -> dict[str, list[int]]:
    """The words ``small`` (30 sentences, word 1) and ``big`` (1,000, word 2) of a
    dataset ann is a member of, logged in: each word's sentence ids in order."""
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Instance, Lexelt
    from annotate.services.datasets import import_dataset

    data = words_xml({"small": 30, "big": 1000})
    with app.app_context():
        dataset = import_dataset(parse_lexsub_xml(data, "words.xml"), "words", "w.xml", data)
        dataset_id = dataset.dataset.id
        rows = db.session.execute(
            select(Lexelt.lemma, Instance.id)
            .join(Lexelt, Lexelt.id == Instance.lexelt_id)
            .where(Instance.dataset_id == dataset_id)
            .order_by(Instance.position)
        ).all()
    make_user(app, "ann")
    assign(app, "ann", dataset_id)
    login(client, "ann")
    found: dict[str, list[int]] = {"small": [], "big": []}
    for lemma, instance_id in rows:
        found[lemma].append(instance_id)
    assert [len(found["small"]), len(found["big"])] == [30, 1000]
    return found


def navigation(page: str) -> list[tuple[int, int, bool]]:
    """The links of the page's "This word" navigation: (number, id, current)."""
    found = NAV.search(page)
    assert found is not None
    return [
        (int(number), int(target), bool(current))
        for target, current, number in LINK.findall(found.group(1))
    ]


def test_a_word_of_1000_sentences_has_as_many_links_as_a_word_of_30(
    client: FlaskClient, words: dict[str, list[int]]
) -> None:
    assert WINDOW == 5
    small, big = words["small"], words["big"]
    # the middle: the first, the window of 5 either side, the last
    page_30 = client.get(f"/annotate/{small[14]}").get_data(as_text=True)
    page_1000 = client.get(f"/annotate/{big[499]}").get_data(as_text=True)
    assert navigation(page_30) == [(n, small[n - 1], n == 15) for n in [1, *range(10, 21), 30]]
    assert navigation(page_1000) == [(n, big[n - 1], n == 500) for n in [1, *range(495, 506), 1000]]
    assert len(navigation(page_30)) == len(navigation(page_1000)) == 13
    assert "Word 2 of 2 · sentence 500 of 1000 · 0 / 1030 done" in page_1000
    assert page_1000.count('<span class="gap" aria-hidden="true">…</span>') == 2
    # the page weighs the same: only the numbers' digits and the word differ
    assert abs(len(page_1000) - len(page_30)) < 200, (len(page_1000), len(page_30))

    # the first and the last sentence: the window is cut at the word's ends
    first = navigation(client.get(f"/annotate/{big[0]}").get_data(as_text=True))
    assert [n for n, _, _ in first] == [1, 2, 3, 4, 5, 6, 1000]
    assert first[0][2] and not any(current for _, _, current in first[1:])
    last = navigation(client.get(f"/annotate/{big[999]}").get_data(as_text=True))
    assert [n for n, _, _ in last] == [1, 995, 996, 997, 998, 999, 1000]
    near = navigation(client.get(f"/annotate/{small[2]}").get_data(as_text=True))
    assert [n for n, _, _ in near] == [1, 2, 3, 4, 5, 6, 7, 8, 30]  # 1 is in the window


def test_a_word_within_the_window_has_every_link_and_no_jump_field(
    client: FlaskClient, app: Flask, dataset: int
) -> None:
    make_user(app, "bob")
    assign(app, "bob", dataset)
    login(client, "bob")
    from tests.conftest import instance_ids

    first = instance_ids(app)[0]
    page = client.get(f"/annotate/{first}").get_data(as_text=True)
    assert [n for n, _, _ in navigation(page)] == [1, 2]  # small's word 1: two sentences
    assert 'id="jump"' not in page


def test_the_jump_field_goes_to_a_sentence_by_its_number(
    client: FlaskClient, words: dict[str, list[int]]
) -> None:
    big = words["big"]
    page = client.get(f"/annotate/{big[0]}").get_data(as_text=True)
    assert (
        f'<form method="get" action="/annotate/{big[0]}" class="jump" id="jump-form">\n'
        '    <label for="jump">Go to sentence (1 to 1000)</label>'
    ) in page
    for asked, number in (("777", 777), ("1000", 1000), ("1", 1), (" 0042 ", 42)):
        response = client.get(f"/annotate/{big[0]}", query_string={"sentence": asked})
        assert response.status_code == 302, asked
        assert response.headers["Location"] == f"/annotate/{big[number - 1]}", asked
    landed = client.get(f"/annotate/{big[776]}").get_data(as_text=True)
    assert "sentence 777 of 1000" in landed
    assert [n for n, _, _ in navigation(landed)] == [1, *range(772, 783), 1000]
    # the number is the word's: from the small word, 30 is its last
    response = client.get(f"/annotate/{words['small'][0]}?sentence=30")
    assert response.headers["Location"] == f"/annotate/{words['small'][29]}"
    # an empty field is no jump: the page itself
    assert client.get(f"/annotate/{big[3]}?sentence=").status_code == 200


@pytest.mark.parametrize(
    ("asked", "shown"),
    [
        ("0", "0"),
        ("1001", "1001"),
        ("99999999999999999999", "99999999999999999999"),
        ("-3", "-3"),
        ("12.5", "12.5"),
        ("abc", "abc"),
        ("²", "²"),
        ("٣", "٣"),
        ("1e3", "1e3"),
        ("<b>7</b>", "&lt;b&gt;7&lt;/b&gt;"),
        ("9" * 50, "9" * 40 + "…"),
    ],
)
def test_a_wrong_number_is_said_by_the_field_never_a_500(
    client: FlaskClient, words: dict[str, list[int]], asked: str, shown: str
) -> None:
    big = words["big"]
    response = client.get(f"/annotate/{big[10]}", query_string={"sentence": asked})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    message = f"Sentence number “{shown}” is not a whole number from 1 to 1000."
    assert f'<p class="jump-error" id="jump-error" role="alert">{message}</p>' in page
    assert re.search(
        r'<input type="text" id="jump" name="sentence" [^>]*value="[^"]*" '
        r'aria-invalid="true" aria-describedby="jump-error" autofocus>',
        page,
    )
    assert page.count("autofocus") == 1  # the jump field's, not Substitute 1's
    # the page is still the sentence's, its window around it
    assert "sentence 11 of 1000" in page
    assert [n for n, _, _ in navigation(page)] == [1, *range(6, 17), 1000]


def test_a_save_answers_with_the_next_sentence_s_window(
    client: FlaskClient, words: dict[str, list[int]]
) -> None:
    big = words["big"]
    response = client.post(
        f"/annotate/{big[499]}", data={"sub1": "large"}, headers={"Accept": "application/json"}
    )
    assert response.status_code == 200
    reply = response.get_json()
    assert reply["next"] == big[500]
    links = navigation(reply["html"])
    assert [n for n, _, _ in links] == [1, *range(496, 507), 1000]
    assert [current for _, _, current in links].index(True) == 6  # 501
    # 500 was just saved: its link says so
    assert re.search(
        rf'<a href="/annotate/{big[499]}">500<span aria-hidden="true">✓</span>'
        r'<span class="visually-hidden"> \(answered\)</span></a>',
        reply["html"],
    )
    page = client.get(f"/annotate/{big[500]}").get_data(as_text=True)
    assert "1 / 1030 done" in page and 'id="jump"' in page


def test_the_bench_widens_each_word_within_itself(tmp_path: Path) -> None:
    """bench/word_size_bench.py's x3: each word keeps its name and has three times its
    sentences (copy k of ``n`` is ``n-k``, after the originals); x1 is the file itself."""
    from bench.word_size_bench import widened
    from scoring.formats.importers.read import parse_source
    from tests.conftest import SMALL_XML

    small = tmp_path / "small.xml"
    small.write_bytes(SMALL_XML)
    assert widened(small, 1, tmp_path) == small
    lexelts = parse_source(widened(small, 3, tmp_path).read_bytes(), "x3").lexelts
    assert [(x.item, [i.id for i in x.instances]) for x in lexelts] == [
        ("bright.a", ["1", "2", "1-1", "2-1", "1-2", "2-2"]),
        ("stand.n.v", ["3", "3-1", "3-2"]),
    ]
    assert lexelts[0].instances[3].text == "A bright light <here>."
