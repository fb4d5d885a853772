"""Rounds whose candidates come from systems' files (ranked, oot, TSAR): telling the
file's kind, matching TSAR lines to items, the sources each candidate keeps, the judges'
page that names none of them, and the report's figures by source (share accepted, and
acceptable substitutes the gold lacks), through the organiser's page and ``lexsub round``.

The round below, on the small dataset of tests/conftest.py with GOLD as its gold: items 1
and 2 are eligible (three single-word substitutes each), so a sample of 2 takes both.
Candidates (sources):

    item 1: clever (gold, llm), smart (gold, wordnet), intelligent (gold),
            brainy (llm, wordnet), gifted (llm), dull (wordnet)
    item 2: shining (gold, wordnet), luminous (gold), vivid (gold), radiant (llm),
            dark (llm), glowing (wordnet)

LABELS gives three judges' labels; the verdict of three is their median: clever good,
smart reasonable, intelligent bad, brainy reasonable, gifted reasonable, dull bad,
shining good, luminous bad, vivid reasonable, radiant good, dark bad, glowing bad.
Accepted (good or reasonable): clever, smart, brainy, gifted, shining, vivid, radiant.

    gold:    6 candidates, 4 accepted (clever, smart, shining, vivid): 66.67 %
    llm:     5 candidates, 4 accepted (clever, brainy, gifted, radiant): 80.00 %;
             not in the gold: brainy, gifted, radiant = 3
    wordnet: 5 candidates, 3 accepted (smart, brainy, shining): 60.00 %;
             not in the gold: brainy = 1
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scoring.errors import FormatError
from scoring.formats.judgements import parse_judgements
from scoring.formats.tsar import TsarLine
from scoring.judgements.candidates import (
    candidate_kind,
    read_candidates,
    source_name,
    tsar_answers,
)
from scoring.judgements.rounds import Sentence
from tests.conftest import login, make_user

pytestmark = pytest.mark.database

GOLD = (
    "bright.a 1 :: clever 2;smart 1;intelligent 1;\n"
    "bright.a 2 :: shining 2;luminous 1;vivid 1;\n"
    "stand.n.v 3 :: bear 2;tolerate 1;\n"
)
RANKED = (
    "bright.a 1 :::: 0.9 clever;0.5 brainy;0.3 gifted\n"
    "bright.a 2 :::: 0.8 radiant;0.4 dark\n"
    "stand.n.v 3 :::: 1 bear\n"
)
TSAR = (
    "The bright pupil & her friend.\tbright\tsmart\tbrainy\tdull\n"
    "A bright light <here>.\tbright\tshining\tglowing\n"
    "I cannot stand it.\tstand\tendure\n"
)
LABELS = {  # candidate → the labels of j1, j2, j3
    "clever": ("good", "good", "good"),
    "smart": ("good", "reasonable", "bad"),
    "intelligent": ("bad", "bad", "good"),
    "brainy": ("good", "reasonable", "reasonable"),
    "gifted": ("reasonable", "good", "bad"),
    "dull": ("bad", "bad", "bad"),
    "shining": ("good", "good", "reasonable"),
    "luminous": ("reasonable", "bad", "bad"),
    "vivid": ("reasonable", "reasonable", "bad"),
    "radiant": ("good", "reasonable", "good"),
    "dark": ("bad", "bad", "bad"),
    "glowing": ("bad", "good", "bad"),
}
JUDGES = ("j1", "j2", "j3")
ORIGINS = {
    "clever": ("gold", "llm"),
    "smart": ("gold", "wordnet"),
    "intelligent": ("gold",),
    "brainy": ("llm", "wordnet"),
    "gifted": ("llm",),
    "dull": ("wordnet",),
    "shining": ("gold", "wordnet"),
    "luminous": ("gold",),
    "vivid": ("gold",),
    "radiant": ("llm",),
    "dark": ("llm",),
    "glowing": ("wordnet",),
}
SENTENCES = {
    "1": Sentence("The ", "bright", " pupil & her friend."),
    "2": Sentence("A ", "bright", " light <here>."),
    "3": Sentence("I cannot ", "stand", " it."),
}
RULE = (
    "a round's candidates come from a ranked file (LEXELT ID :::: SCORE CANDIDATE;…), an oot "
    "file (LEXELT ID ::: GUESS;…) or a TSAR file (SENTENCE<TAB>WORD<TAB>SUBSTITUTE…)"
)


# --- pure: the files ------------------------------------------------------------------------


def test_the_kind_of_a_file_of_candidates() -> None:
    assert candidate_kind(RANKED, "llm.ranked") == "ranked"
    assert candidate_kind("bright.a 1 ::: clever;smart\n", "wn.oot") == "oot"
    assert candidate_kind(TSAR, "wordnet.tsv") == "tsar"
    wrong = {
        "\n" + GOLD: "g.txt:2: this is a gold file (LEXELT ID :: SUBSTITUTE COUNT;…); ",
        "bright.a 1 :: clever\n": "g.txt:1: this is a best system file (LEXELT ID :: GUESS;…); ",
        '<?xml version="1.0"?>\n<corpus lang="english">\n<lexelt item="a.n">\n': (
            "g.txt:1: this is the task's XML (the sentences); "
        ),
        "just some words\n": "g.txt:1: this line names no item; ",
    }
    for text, start in wrong.items():
        with pytest.raises(FormatError) as caught:
            candidate_kind(text, "g.txt")
        assert str(caught.value) == start + RULE
    with pytest.raises(FormatError, match=r"^g.txt: the file is empty; a round's"):
        candidate_kind("\n\n", "g.txt")


def test_files_read_as_each_items_candidates_best_first() -> None:
    ranked = read_candidates("bright.a 1 :::: 0.2 a;0.9 b;0.2 c;1e0 d\n", "m/x.rank", SENTENCES)
    assert (ranked.source, ranked.kind) == ("x", "ranked")
    assert ranked.answers == {"1": ("d", "b", "a", "c")}  # by score, ties in file order
    assert read_candidates(TSAR, "w.tsv", SENTENCES, top=2).answers == {
        "1": ("smart", "brainy"),
        "2": ("shining", "glowing"),
        "3": ("endure",),
    }
    oot = read_candidates("bright.a 2 ::: Glad;happy-go-lucky\n", "wn.oot", SENTENCES)
    assert oot.answers == {"2": ("glad", "happy go lucky")}  # as the scorer reads it
    tsar = read_candidates(TSAR, "wordnet.tsv", SENTENCES)
    assert tsar.answers == {
        "1": ("smart", "brainy", "dull"),
        "2": ("shining", "glowing"),
        "3": ("endure",),
    }
    assert source_name("runs/llm.ranked") == "llm"
    for reserved in ("gold.ranked", "human.tsv"):
        with pytest.raises(FormatError, match="is the gold's"):
            read_candidates(RANKED, reserved, SENTENCES)


def test_tsar_lines_match_items_by_sentence_and_word() -> None:
    twice = {"a": Sentence("", "Run", " and run ."), "b": Sentence("Run and ", "run", " .")}
    line = TsarLine("Run and run .", "run", ("go",), "t.tsv:4")
    assert tsar_answers([line], twice) == {"b": ("go",)}  # the word tells them apart
    # one item with the sentence: its target need not be the word (MLSP gives lemmas)
    assert tsar_answers([TsarLine("I cannot stand it.", "stands", (), "t.tsv:1")], SENTENCES) == {
        "3": ()
    }
    with pytest.raises(FormatError) as caught:
        tsar_answers([TsarLine("Run and run .", "and", (), "t.tsv:2")], twice)
    assert str(caught.value) == (
        "t.tsv:2: 2 items have the sentence 'Run and run .' with the word 'and' (a TSAR line "
        "answers the dataset's item with its sentence and target word)"
    )
    with pytest.raises(FormatError, match=r"^t.tsv:1: no item of the dataset has the sentence"):
        tsar_answers([TsarLine("Elsewhere .", "x", (), "t.tsv:1")], SENTENCES)
    lines = [TsarLine("I cannot stand it.", "stand", (), f"t.tsv:{n}") for n in (1, 2)]
    with pytest.raises(FormatError, match=r"^t.tsv:2: item 3 again \(first answered on t.tsv:1\)"):
        tsar_answers(lines, SENTENCES)


# --- the app --------------------------------------------------------------------------------


def _judges(app: Flask) -> dict[str, int]:
    from annotate.extensions import db
    from annotate.models import User

    for name in (*JUDGES, "boss"):
        make_user(app, name, "organiser" if name == "boss" else "annotator")
    with app.app_context():
        return {u.username: u.id for u in db.session.scalars(select(User))}


def _labels_through_the_pages(app: Flask, round_id: int) -> list[str]:
    """Every judge labels both screens as LABELS says; the screens' HTML."""
    pages = []
    for place, judge in enumerate(JUDGES):
        client = app.test_client()
        login(client, judge)
        for screen in (1, 2):
            page = client.get(f"/judge/{round_id}/{screen}").get_data(as_text=True)
            pages.append(page)
            fields = re.findall(
                r'<span class="candidate-text">([^<]*)</span></legend>\s*'
                r'<label><input type="radio" name="(c\d+)"',
                page,
            )
            data = {name: LABELS[text][place] for text, name in fields}
            assert client.post(f"/judge/{round_id}/{screen}", data=data).status_code == 302
    return pages


def test_a_round_of_candidates_made_judged_and_reported_on_the_pages(
    app: Flask, client: FlaskClient, dataset: int
) -> None:
    ids = _judges(app)
    login(client, "boss")
    response = client.post(
        "/organiser/rounds",
        data={
            "action": "posthoc",
            "name": "round one",
            "dataset": str(dataset),
            "sample": "2",
            "seed": "5",
            "labels": "posthoc",
            "layout": "sentence",
            "gold": (io.BytesIO(GOLD.encode()), "gold.txt"),
            "candidates": [
                (io.BytesIO(RANKED.encode()), "llm.ranked"),
                (io.BytesIO(TSAR.encode()), "wordnet.tsv"),
            ],
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    round_id = int(response.headers["Location"].rsplit("/", 1)[1])
    summary = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "12 candidates on 2 screens" in summary
    assert "Source: gold gold.txt; candidates llm.ranked, wordnet.tsv" in summary
    response = client.post(
        f"/organiser/rounds/{round_id}", data={"user": [str(ids[j]) for j in JUDGES]}
    )
    assert response.status_code == 302
    pages = _labels_through_the_pages(app, round_id)
    shown = [re.findall(r'<span class="candidate-text">([^<]*)</span>', page) for page in pages]
    assert sorted(shown[0] + shown[1]) == sorted(LABELS)  # each candidate once
    assert shown[0:2] == shown[2:4] == shown[4:6]  # one order for every judge
    for page in pages:  # blind: no source is named on the judges' page
        for source in ("llm", "wordnet", "gold", "ranked", "tsv", "human"):
            assert source not in page.lower(), source
    exported = client.get(f"/organiser/rounds/{round_id}/export").get_data(as_text=True)
    judgements = parse_judgements(exported.splitlines())
    assert len(judgements) == 36
    assert {j.candidate: tuple(sorted(j.origin)) for j in judgements} == ORIGINS
    report = client.get(f"/organiser/rounds/{round_id}/report").get_data(as_text=True)
    table = report[report.index('<table id="by-source">') :]
    rows = re.findall(
        r'<tr><th scope="row">([^<]*)</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>'
        r"<td>([^<]*)</td><td>([^<]*)</td></tr>",
        table[: table.index("</table>")],
    )
    assert rows == [
        ("gold", "6", "6", "4", "66.67", "-"),
        ("llm", "5", "5", "4", "80.00", "3"),
        ("wordnet", "5", "5", "3", "60.00", "1"),
    ]
    # Table 11 counts the gold as origA: 6 gold types, good 2 (clever, shining),
    # reasonable 2 (smart, vivid), bad 2 (intelligent, luminous)
    assert re.search(
        r"<th scope=\"row\">origA</th><td>6</td><td>33.33</td><td>33.33</td><td>33.33</td>",
        report,
    )


def test_the_round_commands_with_candidates(app: Flask, dataset: int, tmp_path: Path) -> None:
    from annotate.extensions import db
    from annotate.models import RoundCandidate, User
    from annotate.services.rounds import round_by_name, save_labels

    _judges(app)
    files = {
        "gold.txt": GOLD,
        "semeval.gold": GOLD,
        "llm.ranked": RANKED,
        "wordnet.tsv": TSAR,
        "llm.oot": RANKED,
        "sys.best": "bright.a 1 :: clever\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    runner = app.test_cli_runner()
    create = ["lexsub", "round", "create", "--dataset", "small", "--sample", "2", "--seed", "9"]
    gold = ["--gold", str(tmp_path / "gold.txt")]
    result = runner.invoke(
        args=[
            *create,
            "cli-round",
            *gold,
            "--candidates",
            str(tmp_path / "llm.ranked"),
            "--candidates",
            str(tmp_path / "wordnet.tsv"),
        ]
    )
    assert result.exit_code == 0, result.output
    assert result.output == (
        "created round 'cli-round' (posthoc, posthoc, sentence): 2 items, 12 candidates "
        "sampled from 2 eligible items with seed 9\n"
    )
    # an item's first candidate of each file: item 1 clever, smart, intelligent (gold),
    # clever (llm), smart (wordnet); item 2 shining, luminous, vivid (gold), radiant
    # (llm), shining (wordnet): 3 + 4 candidates
    result = runner.invoke(
        args=[
            *create,
            "top-one",
            *gold,
            "--top",
            "1",
            "--candidates",
            str(tmp_path / "llm.ranked"),
            "--candidates",
            str(tmp_path / "wordnet.tsv"),
        ]
    )
    assert result.output.startswith(
        "created round 'top-one' (posthoc, posthoc, sentence): 2 items, 7 candidates"
    )
    result = runner.invoke(
        args=[*create, "no", *gold, "--top", "1", "--system", str(tmp_path / "sys.best")]
    )
    assert result.exit_code == 2 and "--top cuts the files of --candidates" in result.output
    # a gold file given as candidates: one line naming the file, its line and the rule
    result = runner.invoke(
        args=[*create, "wrong", *gold, "--candidates", str(tmp_path / "semeval.gold")]
    )
    assert result.exit_code == 1
    assert result.output == (
        f"Error: no round created: {tmp_path / 'semeval.gold'}:1: this is a gold file (LEXELT "
        f"ID :: SUBSTITUTE COUNT;…); {RULE}\n"
    )
    hostile = {
        b"": ": the file is empty; a round's",
        b"\x00\x01ELF\n": ":1: this is not a text file; a round's",
        b"Elsewhere a word .\tword\tx\n": ":1: no item of the dataset has the sentence",
        b"bright.a 1 :::: x clever\n": ":1: score 'x' of 'x clever' is not a decimal number",
    }
    for body, message in hostile.items():
        (tmp_path / "hostile.txt").write_bytes(body)
        result = runner.invoke(
            args=[*create, "hostile", *gold, "--candidates", str(tmp_path / "hostile.txt")]
        )
        assert result.exit_code == 1
        start = f"Error: no round created: {tmp_path / 'hostile.txt'}{message}"
        assert result.output.startswith(start), result.output
        assert result.output.count("\n") == 1, result.output
    result = runner.invoke(
        args=[
            *create,
            "twice",
            *gold,
            "--candidates",
            str(tmp_path / "llm.ranked"),
            "--candidates",
            str(tmp_path / "llm.oot"),
        ]
    )
    assert result.exit_code == 1
    assert "llm.oot: another file is named 'llm' too" in result.output
    (tmp_path / "sys.ranked").write_text(RANKED, "utf-8")
    result = runner.invoke(
        args=[
            *create,
            "twice",
            *gold,
            "--system",
            str(tmp_path / "sys.best"),
            "--candidates",
            str(tmp_path / "sys.ranked"),
        ]
    )
    assert result.exit_code == 1
    assert "two files are named 'sys' (a source is named by its file's stem" in result.output
    # the judges' labels, saved by the function the judging screen calls
    with app.app_context():
        round_ = round_by_name("cli-round")
        candidates = db.session.scalars(
            select(RoundCandidate).where(RoundCandidate.round_id == round_.id)
        ).all()
        assert {c.text: tuple(sorted(c.origin)) for c in candidates} == ORIGINS
        for place, judge in enumerate(JUDGES):
            user = db.session.scalars(select(User).where(User.username == judge)).one()
            save_labels(user, round_, {c.id: LABELS[c.text][place] for c in candidates})
    result = runner.invoke(args=["lexsub", "round", "report", "cli-round"])
    assert result.exit_code == 0, result.output
    assert result.output.endswith(
        "By source (accepted: good, reasonable; a candidate of several sources counts for "
        "each)\n"
        "              candidates  judged  accepted  accepted %  accepted, not in gold\n"
        "gold                   6       6         4       66.67                      -\n"
        "llm                    5       5         4       80.00                      3\n"
        "wordnet                5       5         3       60.00                      1\n"
    )
    result = runner.invoke(args=["lexsub", "round", "report", "cli-round", "--format", "json"])
    figures = json.loads(result.output)
    assert figures["sources"] == {
        "gold": {
            "candidates": 6,
            "judged": 6,
            "accepted": 4,
            "share": 4 / 6,
            "accepted_not_in_gold": None,
        },
        "llm": {
            "candidates": 5,
            "judged": 5,
            "accepted": 4,
            "share": 0.8,
            "accepted_not_in_gold": 3,
        },
        "wordnet": {
            "candidates": 5,
            "judged": 5,
            "accepted": 3,
            "share": 0.6,
            "accepted_not_in_gold": 1,
        },
    }
    assert figures["table11"]["sys"]["total"] == 9  # the types a source other than gold gave
