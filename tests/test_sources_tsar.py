"""TSAR-2022 and MLSP-2024 files imported as studies: ``lexsub import FILE --format tsar``
(simplification from SENTENCE<TAB>WORD[<TAB>SUBSTITUTE…], complexity from MLSP's
``*_lcp.tsv``), the target found in its sentence, the file's gold kept as the reference."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from scoring.formats.importers.read import parse_source
from scoring.formats.importers.tsar import find_target
from scoring.formats.instances import SourceError
from tests.conftest import shared_path

MLSP_LANGUAGES = ("ca", "de", "en", "es", "fil", "fr", "it", "ja", "pt", "si")


def run(app: Flask, *args: str) -> tuple[int, str]:
    result = app.test_cli_runner().invoke(args=["lexsub", "import", *args])
    return result.exit_code, result.output


def dataset_of(app: Flask, name: str) -> tuple[str, str, str, int, list[tuple[str, str, str]]]:
    """(language, task, reference, sentences, [(id, lexelt, head)…]) of a dataset."""
    from annotate.extensions import db
    from annotate.models import Dataset, Instance, Lexelt

    with app.app_context():
        dataset = db.session.scalar(select(Dataset).where(Dataset.name == name))
        assert dataset is not None
        rows = db.session.execute(
            select(Instance.xml_id, Lexelt.item, Instance.head)
            .join(Lexelt)
            .where(Instance.dataset_id == dataset.id)
            .order_by(Instance.position)
        ).all()
        return (
            dataset.language,
            dataset.task,
            dataset.reference,
            dataset.sentences,
            [tuple(row) for row in rows],  # type: ignore[misc]
        )


@pytest.mark.database
@pytest.mark.parametrize(
    ("file_name", "instances", "language"),
    [
        ("tsar2022_en_test_none.tsv", 373, "en"),
        ("tsar2022_es_test_none.tsv", 368, "es"),
        ("tsar2022_pt_test_none.tsv", 374, "pt"),
    ],
)
def test_tsar_test_inputs_import_every_instance(
    app: Flask, file_name: str, instances: int, language: str
) -> None:
    path = shared_path("data", "tsar2022", file_name)
    code, output = run(app, str(path), "--dataset", "tsar", "--format", "tsar")
    assert code == 0, output
    assert f"imported {instances} instances" in output
    assert f"language {language}" in output
    assert "task simplification" in output
    got_language, task, reference, sentences, rows = dataset_of(app, "tsar")
    assert (got_language, task, reference, sentences) == (language, "simplification", "", instances)
    assert rows[0][0] == f"{language}_1"


@pytest.mark.database
def test_the_english_gold_imports_373_and_is_kept_as_the_reference(app: Flask) -> None:
    path = shared_path("data", "tsar2022", "tsar2022_en_test_gold.tsv")
    code, output = run(app, str(path), "--dataset", "gold", "--format", "tsar")
    assert code == 0, output
    assert "imported 373 instances in 319 words" in output
    assert "gold is kept as the reference gold" in output
    _, task, reference, _, rows = dataset_of(app, "gold")
    assert task == "simplification"
    assert reference == path.read_text(encoding="utf-8")
    assert rows[0] == ("en_1", "prototype.n", "prototype")


@pytest.mark.parametrize("language", MLSP_LANGUAGES)
@pytest.mark.parametrize(("kind", "task"), [("ls", "simplification"), ("lcp", "complexity")])
def test_every_mlsp_trial_file_imports(language: str, kind: str, task: str) -> None:
    path = shared_path("data", "mlsp2024", f"multilex_trial_{language}_{kind}.tsv")
    result = parse_source(path.read_bytes(), path.name, "tsar")
    assert result.n_instances == 30
    assert result.task == task
    assert result.language == {"fil": "tl"}.get(language, language)
    assert [i.id for i in result.instances][:2] == [f"{language}_1", f"{language}_2"]
    assert result.reference == path.read_text(encoding="utf-8")


def test_mlsp_german_lemmas_are_found_as_their_forms_and_reported() -> None:
    path = shared_path("data", "mlsp2024", "multilex_trial_de_lcp.tsv")
    result = parse_source(path.read_bytes(), path.name, "tsar")
    assert [(r.instance_id, r.line) for r in result.repairs] == [
        ("de_3", 3),
        ("de_15", 15),
        ("de_18", 18),
        ("de_21", 21),
        ("de_23", 23),
        ("de_28", 28),
        ("de_29", 29),
    ]
    assert result.repairs[3].what == (
        "the word 'nominieren' is not in the sentence: its form 'nominiert' is the target"
    )
    nominiert = next(i for i in result.instances if i.id == "de_21")
    assert (nominiert.lexelt, nominiert.head) == ("nominieren.n", "nominiert")


def test_a_hand_made_file_splits_each_sentence_around_its_word() -> None:
    text = "The ant ate an antelope.\tant\tbug\tinsect\nA U.S. plan here.\tU.S. plan\n"
    result = parse_source(text.encode(), "mine_en_test_gold.tsv", "tsar")
    assert [(i.id, i.lexelt, i.before, i.head, i.after) for i in result.instances] == [
        ("en_1", "ant.n", "The ", "ant", " ate an antelope."),
        ("en_2", "U_S_plan.n", "A ", "U.S. plan", " here."),
    ]
    assert result.task == "simplification"
    assert result.reference == text


def test_an_lcp_file_is_a_complexity_study_with_the_files_ids() -> None:
    text = "x_7\tenglish\tA hard word.\thard\t0.25\n"
    result = parse_source(text.encode(), "mine.tsv", "tsar", language="de")
    assert [(i.id, i.head) for i in result.instances] == [("x_7", "hard")]
    assert (result.task, result.language) == ("complexity", "de")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "One sentence.\tone\nNo such word here.\tabsent\n",
            "t.tsv:2: the word 'absent' is not in its sentence 'No such word here.'",
        ),
        ("One sentence.\tone\nno tab\n", "t.tsv:2: 'no tab' has no tab"),
        (
            "x_1\tenglish\tA word.\tword\t0.5\nx_2\tenglish\tA word.\tword\tmuch\n",
            "t.tsv:2: value 'much' is not a finite number",
        ),
    ],
)
def test_a_line_that_cannot_be_a_target_is_refused_with_file_and_line(
    text: str, message: str
) -> None:
    with pytest.raises(SourceError) as caught:
        parse_source(text.encode(), "t.tsv", "tsar")
    assert str(caught.value).startswith(message)


@pytest.mark.database
def test_a_refused_file_imports_nothing(app: Flask, tmp_path: Path) -> None:
    path = tmp_path / "bad_en_test_none.tsv"
    path.write_text("A sentence.\tabsent\n", encoding="utf-8")
    code, output = run(app, str(path), "--dataset", "bad", "--format", "tsar")
    assert code == 1
    assert f"{path}:1: the word 'absent' is not in its sentence" in output
    from annotate.extensions import db
    from annotate.models import Dataset

    with app.app_context():
        assert db.session.scalar(select(Dataset)) is None


@pytest.mark.parametrize(
    ("sentence", "word", "found"),
    [
        ("an antelope and an ant", "ant", (19, 22, False)),  # the whole word first
        ("antelopes", "ant", (0, 3, False)),  # else any occurrence
        ("Notifique a su Banco", "notifique", (0, 9, False)),  # in any case
        ("Burr wurde nominiert.", "nominieren", (11, 20, True)),  # a form of it
        ("Burr wurde gewählt.", "nominieren", (-1, -1, False)),
    ],
)
def test_find_target(sentence: str, word: str, found: tuple[int, int, bool]) -> None:
    assert find_target(sentence, word) == found


@pytest.mark.parametrize(
    ("file_name", "instances", "words"),
    [
        ("tsar2022_en_test_gold.tsv", 373, 319),
        ("tsar2022_es_test_gold.tsv", 368, 344),
        ("tsar2022_pt_test_gold.tsv", 374, 339),
        ("tsar2022_en_trial_gold.tsv", 10, 10),
        ("tsar2022_es_trial_gold.tsv", 12, 12),
        ("tsar2022_pt_trial_gold.tsv", 10, 10),
    ],
)
def test_every_tsar_gold_imports_like_its_input(file_name: str, instances: int, words: int) -> None:
    gold = shared_path("data", "tsar2022", file_name)
    none = shared_path("data", "tsar2022", file_name.replace("_gold", "_none"))
    result = parse_source(gold.read_bytes(), gold.name, "tsar")
    assert (result.n_instances, len(result.lexelts)) == (instances, words)
    same = parse_source(none.read_bytes(), none.name, "tsar")
    assert same.instances == result.instances
