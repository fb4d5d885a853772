"""``lexsub export-hf`` and ``lexsub import DIR --format hf``: a gold as a folder the real
``datasets`` library loads, read back and compiled again to the same bytes (the demo
dataset answered through HTTP, and the SemEval-2007 trial gold split into responses)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from flask import Flask

from scoring.formats.hf import (
    HubAnswer,
    HubCard,
    HubDataset,
    HubItem,
    NeedsPyarrow,
    card_text,
    need_pyarrow,
    read_hub,
    write_hub,
)
from tests.conftest import answer, make_user, shared_path

# load_dataset on a local folder needs no network: make sure it never tries
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"

pytestmark = pytest.mark.database


def load(folder: Path, config: str, cache: Path) -> list[dict[str, Any]]:
    """The rows of a config as the real ``datasets`` library loads the folder."""
    import datasets

    loaded = datasets.load_dataset(str(folder), config, cache_dir=str(cache))
    assert list(loaded) == ["test"]
    return list(loaded["test"])


def cli(app: Flask, *args: str) -> Result:
    return app.test_cli_runner().invoke(args=["lexsub", *args])


SMALL = HubDataset(
    HubCard("small", pa=0.5, pam=1.0, alpha=0.25, signature="lexsub-compile:1|x"),
    (
        HubItem(
            "1",
            "bright.a",
            "bright",
            "a",
            "The bright pupil.",
            4,
            10,
            (("clever", 2), ("smart", 1)),
            1,
            "clever",
            True,
        ),
        HubItem("3", "stand.n.v", "stand", "v", "I cannot stand it.", 9, 14),
    ),
    (
        HubAnswer("A1", "bright.a", "1", "substitutes", ("clever",)),
        HubAnswer("A2", "bright.a", "1", "substitutes", ("clever", "smart"), "bright pupil"),
        HubAnswer("A10", "bright.a", "1", "name"),
    ),
)


def test_folder_loads_with_datasets_and_reads_back(tmp_path: Path) -> None:
    paths = write_hub(SMALL, tmp_path / "hf")
    assert [path.relative_to(tmp_path / "hf").as_posix() for path in paths] == [
        "gold/test-00000-of-00001.parquet",
        "annotations/test-00000-of-00001.parquet",
        "README.md",
    ]
    gold = load(tmp_path / "hf", "gold", tmp_path / "cache")
    assert gold[0] == {
        "id": "1",
        "lexelt": "bright.a",
        "lemma": "bright",
        "pos": "a",
        "sentence": "The bright pupil.",
        "target_start": 4,
        "target_end": 10,
        "substitutes": [
            {"substitute": "clever", "count": 2},
            {"substitute": "smart", "count": 1},
        ],
        "names": 1,
        "mode": "clever",
        "in_t": True,
    }
    assert gold[1]["sentence"][9:14] == "stand" and gold[1]["mode"] is None
    answers = load(tmp_path / "hf", "annotations", tmp_path / "cache")
    assert [row["annotator"] for row in answers] == ["A1", "A2", "A10"]
    assert answers[1]["substitutes"] == ["clever", "smart"]
    assert answers[1]["multiword"] == "bright pupil" and answers[2]["kind"] == "name"
    # the default config is the gold
    import datasets

    default = datasets.load_dataset(str(tmp_path / "hf"), cache_dir=str(tmp_path / "cache"))
    assert default["test"].num_rows == 2
    back = read_hub(tmp_path / "hf")
    assert back.items == SMALL.items and back.answers == SMALL.answers
    assert back.card.name == "small" and back.card.language == "en"
    assert back.annotators == ("A1", "A2", "A10")  # A10 after A2


def test_card_says_task_counts_figures_licence_and_citation() -> None:
    card = card_text(SMALL)
    front, body = card.split("\n---\n", 1)
    assert "- config_name: gold\n  data_files:\n  - split: test\n" in front
    assert "    path: annotations/test-*.parquet" in front
    assert "  default: true" in front and "judgements" not in front
    assert "  - name: substitutes\n    list:\n    - name: substitute\n      dtype: string" in front
    assert "language:\n- en\n" in front and "\nlicense: unknown  #" in front
    assert "- Items: 2 (1 in T" in body
    assert "- Annotators: 3 " in body and "- Answers: 3" in body
    assert "- PA: 0.5000; PA_m: 1.0000; alpha (MASI): 0.2500" in body
    assert "- Signature: `lexsub-compile:1|x`" in body
    assert "Licence: to be filled in by the organiser" in body
    assert "@inproceedings{mccarthy-navigli-2007-semeval" in body


def test_without_pyarrow_one_line_says_how_to_install(
    app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(NeedsPyarrow, match=r"pip install 'lexsub\[hub\]'"):
        need_pyarrow()
    result = cli(app, "export-hf", "--gold", str(tmp_path), "--xml", "x.xml", "--out", "o")
    assert result.exit_code == 1
    assert result.output == (
        "Error: writing and reading Parquet files needs pyarrow: pip install 'lexsub[hub]'\n"
    )


def test_usage_errors(app: Flask, tmp_path: Path) -> None:
    result = cli(app, "export-hf", "--gold", str(tmp_path), "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert "--gold DIR needs --xml FILE: a compiled folder holds no sentences" in result.output
    result = cli(app, "export-hf", "--out", str(tmp_path / "o"))
    assert "give --dataset NAME or --gold DIR (one of them)" in result.output
    result = cli(app, "import", str(tmp_path), "--dataset", "x")
    assert result.exit_code == 2
    assert "is a folder: only --format hf reads a folder" in result.output


def compile_file(responses: Path, out: Path) -> None:
    from annotate.compile import run

    assert run([str(responses), "--out", str(out)]) == 0


def test_demo_round_trip(app: Flask, tmp_path: Path) -> None:
    """The demo dataset answered by three annotators: export-hf, load it, import it back
    as another dataset, compile both: the same gold, byte for byte."""
    assert cli(app, "demo", "--organiser-password", "organiser-pw1").exit_code == 0
    for name in ("ann", "cat", "dan"):
        make_user(app, name)
    answer(app, "ann", {"d1": {"sub1": "season"}, "d2": {"sub1": "well", "sub2": "source"}})
    answer(app, "cat", {"d1": {"sub1": "season", "sub2": "springtime"}, "d2": {"sub1": "well"}})
    answer(app, "dan", {"d1": {"sub1": "springtime"}, "d3": {"sub1": "coil"}})
    result = cli(app, "export-hf", "--dataset", "demo", "--out", str(tmp_path / "hf"))
    assert result.exit_code == 0, result.output
    assert "answers of 3 annotators (gold, annotations)" in result.output
    gold = load(tmp_path / "hf", "gold", tmp_path / "cache")
    first = gold[0]
    assert (first["id"], first["lexelt"], first["lemma"], first["pos"]) == (
        "d1",
        "spring.n",
        "spring",
        "n",
    )
    assert first["sentence"][first["target_start"] : first["target_end"]] == "spring"
    assert first["substitutes"] == [
        {"substitute": "season", "count": 2},
        {"substitute": "springtime", "count": 2},
    ]
    assert first["in_t"] is True and first["mode"] is None
    d2 = next(row for row in gold if row["id"] == "d2")
    assert d2["mode"] == "well" and d2["in_t"] is True
    d3 = next(row for row in gold if row["id"] == "d3")
    assert d3["in_t"] is False and d3["substitutes"] == [{"substitute": "coil", "count": 1}]
    answers = load(tmp_path / "hf", "annotations", tmp_path / "cache")
    # by pseudonym, numbered by account creation: the demo's alice and bob are A1 and A2
    assert sorted({row["annotator"] for row in answers}) == ["A3", "A4", "A5"]
    assert [row["annotator"] for row in answers if row["id"] == "d1"] == ["A3", "A4", "A5"]
    assert len(answers) == 6
    result = cli(app, "import", str(tmp_path / "hf"), "--format", "hf", "--dataset", "again")
    assert result.exit_code == 0, result.output
    for name in ("demo", "again"):
        result = cli(app, "compile", "--dataset", name, "--out", str(tmp_path / name))
        assert result.exit_code == 0, result.output
    original = (tmp_path / "demo" / "gold").read_bytes()
    assert original.startswith(b"spring.n d1 :: season 2;springtime 2;\n")
    assert (tmp_path / "again" / "gold").read_bytes() == original
    assert (tmp_path / "again" / "mwgold").read_bytes() == (
        tmp_path / "demo" / "mwgold"
    ).read_bytes()
    # the same folder again changes nothing
    result = cli(app, "import", str(tmp_path / "hf"), "--format", "hf", "--dataset", "again")
    assert result.exit_code == 0 and "already imported, unchanged" in result.output


@pytest.mark.shared_data
def test_trial_round_trip(app: Flask, tmp_path: Path) -> None:
    """The SemEval-2007 trial gold split into five annotators' responses and compiled;
    the compiled folder and the task's XML exported; imported and compiled again."""
    from annotate.gold.split import main as split

    trial = shared_path("data", "semeval2007", "trial")
    assert split([str(trial / "gold.trial"), str(tmp_path / "responses.jsonl")]) == 0
    compile_file(tmp_path / "responses.jsonl", tmp_path / "compiled")
    hf = tmp_path / "hf"
    result = cli(
        app,
        *("export-hf", "--gold", str(tmp_path / "compiled")),
        *("--xml", str(trial / "lexsub_trial.xml"), "--out", str(hf)),
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("wrote 300 items, 1500 answers of 5 annotators")
    gold = load(hf, "gold", tmp_path / "cache")
    assert len(gold) == 300
    # the trial data's first item, checked by hand against gold.trial and the XML
    first = gold[0]
    assert (first["id"], first["lexelt"], first["lemma"], first["pos"]) == (
        "1",
        "bright.a",
        "bright",
        "a",
    )
    assert (first["target_start"], first["target_end"]) == (76, 82)
    assert first["sentence"].startswith("During the siege , George Robertson had appointed")
    assert first["sentence"][76:82] == "bright"
    assert first["substitutes"] == [
        {"substitute": "clever", "count": 3},
        {"substitute": "intelligent", "count": 3},
        {"substitute": "smart", "count": 1},
    ]
    assert (first["names"], first["mode"], first["in_t"]) == (0, None, True)
    assert sum(row["in_t"] for row in gold) == 295
    answers = load(hf, "annotations", tmp_path / "cache")
    assert len(answers) == 1500
    assert sorted({row["annotator"] for row in answers}) == ["A1", "A2", "A3", "A4", "A5"]
    card = (hf / "README.md").read_text(encoding="utf-8")
    assert "- Items: 300 (295 in T" in card and "- Annotators: 5 " in card
    result = cli(app, "import", str(hf), "--format", "hf", "--dataset", "trial")
    assert result.exit_code == 0, result.output
    assert "imported 300 instances as dataset 'trial'" in result.output
    result = cli(app, "compile", "--dataset", "trial", "--out", str(tmp_path / "again"))
    assert result.exit_code == 0, result.output
    original = (tmp_path / "compiled" / "gold").read_bytes()
    assert (tmp_path / "again" / "gold").read_bytes() == original


# --- the field's gold standards in the same layout ---------------------------------------


def convert(*args: str) -> tuple[int, str]:
    from io import StringIO

    from annotate.convert import main

    out = StringIO()
    return main(list(args), out), out.getvalue()


def test_swords_converts_with_true_labels_as_counts(tmp_path: Path) -> None:
    from tests.test_importer_formats import encoded, swords

    data = swords(
        substitutes={
            "s:1": {"target_id": "t:b", "substitute": "paper"},
            "s:2": {"target_id": "t:b", "substitute": "document"},
            "s:3": {"target_id": "t:b", "substitute": "study"},
        },
        substitute_labels={
            "s:1": ["TRUE", "FALSE", "TRUE"],
            "s:2": ["TRUE", "UNSURE"],
            "s:3": ["FALSE", "FALSE"],
        },
    )
    (tmp_path / "s.json").write_bytes(encoded(data))
    status, output = convert(str(tmp_path / "s.json"), "--to", "hf", "--out", str(tmp_path / "hf"))
    assert (status, output) == (
        0,
        f"wrote 3 items (1 with substitutes) and README.md to {tmp_path / 'hf'}\n",
    )
    rows = {row["id"]: row for row in load(tmp_path / "hf", "gold", tmp_path / "cache")}
    report = rows["t:b"]
    assert report["substitutes"] == [
        {"substitute": "paper", "count": 2},
        {"substitute": "document", "count": 1},
    ]
    assert (report["lexelt"], report["mode"], report["in_t"]) == ("report.n", "paper", True)
    assert report["sentence"][report["target_start"] : report["target_end"]] == "report"
    assert rows["t:a"]["substitutes"] == [] and rows["t:a"]["in_t"] is False
    assert "lee-etal-2021-swords" in (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")


def test_tsar_converts_repeats_as_counts_and_refuses_a_complexity_file(tmp_path: Path) -> None:
    gold = tmp_path / "tsar2022_en_trial_gold.tsv"
    gold.write_text("The cat sat here.\tsat\trested\tperched\trested\nA dog ran.\tran\tsprinted\n")
    status, _ = convert(str(gold), "--to", "hf", "--format", "tsar", "--out", str(tmp_path / "hf"))
    assert status == 0
    rows = load(tmp_path / "hf", "gold", tmp_path / "cache")
    assert [row["id"] for row in rows] == ["en_1", "en_2"]
    assert rows[0]["substitutes"] == [
        {"substitute": "rested", "count": 2},
        {"substitute": "perched", "count": 1},
    ]
    assert (rows[0]["target_start"], rows[0]["target_end"], rows[0]["mode"]) == (8, 11, "rested")
    assert "language:\n- en\n" in (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")


def test_coinco_converts_its_frequencies(tmp_path: Path) -> None:
    from tests.test_importer_formats import COINCO_BYTES

    # the first sentence, every target with substitutes (the benchmark's reader requires them)
    some = (
        b'problematic="no" ><substitutions><subst lemma="x" pos="X" freq="2" />'
        b"</substitutions></token>"
    )
    first = COINCO_BYTES.split(b'  <sent MASCfile="ours.txt" MASCsentID="s-r1"')[0]
    data = first.replace(b'problematic="no" />', some) + b"</document>\n"
    (tmp_path / "c.xml").write_bytes(data)
    status, _ = convert(str(tmp_path / "c.xml"), "--to", "hf", "--out", str(tmp_path / "hf"))
    assert status == 0
    rows = {row["id"]: row for row in load(tmp_path / "hf", "gold", tmp_path / "cache")}
    assert "12" not in rows  # problematic="yes": left out, as the importer leaves it out
    assert rows["11"]["substitutes"] == [{"substitute": "shining", "count": 1}]
    assert rows["13"]["substitutes"] == [{"substitute": "x", "count": 2}]
    assert rows["11"]["sentence"][rows["11"]["target_start"] : rows["11"]["target_end"]] == (
        "bright"
    )


@pytest.mark.shared_data
def test_tsar_trial_gold_converts(tmp_path: Path) -> None:
    gold = shared_path("data", "tsar2022", "tsar2022_en_trial_gold.tsv")
    status, _ = convert(str(gold), "--to", "hf", "--format", "tsar", "--out", str(tmp_path / "hf"))
    assert status == 0
    first = load(tmp_path / "hf", "gold", tmp_path / "cache")[0]
    assert first["sentence"][first["target_start"] : first["target_end"]] == "compulsory"
    assert first["substitutes"][:2] == [
        {"substitute": "mandatory", "count": 11},
        {"substitute": "required", "count": 7},
    ]
    assert first["mode"] == "mandatory"


def test_judgements_config_where_the_dataset_has_a_round(app: Flask, tmp_path: Path) -> None:
    """A judgement round of the dataset: its labels in the ``judgements`` config, the
    judge by pseudonym (a member: A…; a judge the dataset does not otherwise know: J1)."""
    from sqlalchemy import select

    from annotate.extensions import db
    from annotate.models import Dataset, JudgementRound, RoundCandidate, User
    from annotate.services.rounds import save_labels
    from tests.conftest import make_round

    assert cli(app, "demo", "--organiser-password", "organiser-pw1").exit_code == 0
    make_user(app, "ann")
    make_user(app, "judy")
    answer(app, "ann", {"d1": {"sub1": "season"}})
    round_id = make_round(app, "r1", judge="judy")
    with app.app_context():
        round_ = db.session.get(JudgementRound, round_id)
        assert round_ is not None
        round_.dataset_id = db.session.scalar(select(Dataset.id).where(Dataset.name == "demo"))
        db.session.commit()
        judy = db.session.scalar(select(User).where(User.username == "judy"))
        assert judy is not None
        ids = list(
            db.session.scalars(
                select(RoundCandidate.id)
                .where(RoundCandidate.round_id == round_id)
                .order_by(RoundCandidate.position)
            )
        )
        texts = dict(
            db.session.execute(
                select(RoundCandidate.id, RoundCandidate.text).where(
                    RoundCandidate.round_id == round_id
                )
            ).all()
        )
        save_labels(judy, round_, {ids[0]: "true-word", ids[1]: "false"})
    result = cli(app, "export-hf", "--dataset", "demo", "--out", str(tmp_path / "hf"))
    assert result.exit_code == 0, result.output
    assert "(gold, annotations, judgements)" in result.output
    rows = load(tmp_path / "hf", "judgements", tmp_path / "cache")
    got = {(row["candidate"], row["label"], tuple(row["origin"])) for row in rows}
    assert got == {
        (texts[ids[0]], "true-word", ("human",) if texts[ids[0]] == "clever" else ("sysA",)),
        (texts[ids[1]], "false", ("human",) if texts[ids[1]] == "clever" else ("sysA",)),
    }
    assert {row["judge"] for row in rows} == {"J1"} and {row["round"] for row in rows} == {"r1"}
    card = (tmp_path / "hf" / "README.md").read_text(encoding="utf-8")
    assert "- config_name: judgements" in card and "- Judgements: 2 labels" in card
    assert read_hub(tmp_path / "hf").judgements[0].judge == "J1"


def test_a_row_that_breaks_the_layout_is_named(tmp_path: Path) -> None:
    from dataclasses import replace

    from scoring.errors import FormatError

    bad = replace(SMALL, items=(replace(SMALL.items[0], target_end=99),))
    write_hub(bad, tmp_path / "hf")
    with pytest.raises(FormatError) as caught:
        read_hub(tmp_path / "hf")
    assert str(caught.value) == (
        f"{tmp_path / 'hf'}/gold:1: target offsets 4-99 must lie within the sentence "
        "(0 to 17) and enclose the target"
    )


def test_an_answer_without_its_gold_row_imports_nothing(app: Flask, tmp_path: Path) -> None:
    stray = HubAnswer("A1", "stand.n.v", "9", "substitutes", ("bear",))
    write_hub(HubDataset(SMALL.card, SMALL.items, (*SMALL.answers, stray)), tmp_path / "hf")
    result = cli(app, "import", str(tmp_path / "hf"), "--format", "hf", "--dataset", "x")
    assert result.exit_code == 1
    assert result.output == (
        f"Error: nothing imported from {tmp_path / 'hf'}: {tmp_path / 'hf'}/annotations row 4: "
        "item stand.n.v 9 has no gold row\n"
    )
    from annotate.extensions import db
    from annotate.models import Dataset

    with app.app_context():
        assert db.session.query(Dataset).count() == 0


def test_names_that_are_pseudonyms_stay() -> None:
    from annotate.gold.hub import pseudonyms_given

    assert pseudonyms_given(["A1", "A12", "P3"])
    assert not pseudonyms_given(["A1", "h2"]) and not pseudonyms_given(["A01"])


def test_a_second_answer_of_an_annotator_imports_nothing(app: Flask, tmp_path: Path) -> None:
    again = HubAnswer("A1", "bright.a", "1", "substitutes", ("smart",))
    write_hub(HubDataset(SMALL.card, SMALL.items, (*SMALL.answers, again)), tmp_path / "hf")
    result = cli(app, "import", str(tmp_path / "hf"), "--format", "hf", "--dataset", "x")
    assert result.exit_code == 1
    assert result.output.endswith(
        "annotations row 4: A1 answers item bright.a 1 a second time (one answer per "
        "annotator and item)\n"
    )


def test_answers_that_fail_to_store_take_the_dataset_with_them(
    app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset, Instance
    from annotate.services import hub

    def broken(*_: object) -> None:
        raise RuntimeError("the database went away")

    write_hub(SMALL, tmp_path / "hf")
    monkeypatch.setattr(hub, "_store_answers", broken)
    with app.app_context():
        with pytest.raises(RuntimeError, match="went away"):
            hub.import_hub(tmp_path / "hf", "x")
        assert db.session.query(Dataset).count() == 0
        assert db.session.query(Instance).count() == 0


def test_convert_without_pyarrow_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    status, output = convert("x.json", "--to", "hf", "--out", str(tmp_path / "hf"))
    assert (status, output) == (1, "")
    assert capsys.readouterr().err == (
        "Error: writing and reading Parquet files needs pyarrow: pip install 'lexsub[hub]'\n"
    )
    assert not (tmp_path / "hf").exists()
