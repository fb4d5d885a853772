"""Studies in other languages: lemmas checked by hand, compiled
end to end through ``python -m annotate.compile --language de|it``; case folded when
counting; the curly apostrophe; the lemma review and decisions; the signature and the
summary; and ``lexsub compile``, the compile page and the lemma review in a dataset's
language."""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from annotate.compile import run
from bench.lemmatiser_compare import Form, read_forms
from scoring.formats.responses import Response, write_responses
from scoring.substitute import TARGET, check_substitute
from tests.conftest import answer, login, make_user


def _compile(
    folder: Path, responses: list[Response], *flags: str
) -> tuple[dict[str, dict[str, int]], dict[str, Any], Path]:
    """Write ``responses``, compile them with ``flags``; the gold as instance → {entry:
    count}, the summary, and the output folder."""
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "responses.jsonl"
    out = folder / "out"
    write_responses(source, responses)
    assert run([str(source), "--out", str(out), *flags]) == 0
    gold: dict[str, dict[str, int]] = {}
    for line in (out / "gold").read_text(encoding="utf-8").splitlines():
        head, entries = line.split(" :: ")
        gold[head.split(" ")[1]] = {
            entry.rsplit(" ", 1)[0]: int(entry.rsplit(" ", 1)[1])
            for entry in entries.split(";")
            if entry
        }
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return gold, summary, out


def _said(annotator: str, lexelt: str, instance: str, *substitutes: str) -> Response:
    return Response(annotator, lexelt, instance, "substitutes", tuple(substitutes))


def _hand_checked(forms: list[Form], second: str = "gold") -> list[Response]:
    """One item per form (its own word, of the form's PoS): annotator a1 types the form,
    a2 the gold form (``second="gold"``) or the form too (``"typed"``)."""
    responses = []
    for number, form in enumerate(forms, 1):
        lexelt, instance = f"w{number}.{form.pos}", str(number)
        responses.append(_said("a1", lexelt, instance, form.typed))
        responses.append(
            _said("a2", lexelt, instance, form.gold if second == "gold" else form.typed)
        )
    return responses


# --- lemmas checked by hand ------------------------------------------------------------


@pytest.mark.parametrize("language", ["de", "it"])
def test_the_hand_checked_forms_cover_what_the_issue_names(language: str) -> None:
    forms = read_forms(language)
    assert len(forms) >= 40
    assert {form.pos for form in forms} == {"n", "v", "a"}
    assert sum(1 for form in forms if " " in form.typed) >= 7  # phrases
    assert any("also English" in form.note for form in forms)
    if language == "de":
        assert any(form.pos == "n" and form.typed[0].islower() for form in forms)
        assert any("\u0308" in form.typed for form in forms)  # a decomposed umlaut
    else:
        assert any("\u2019" in form.typed for form in forms)


@pytest.mark.parametrize(("language", "lemmatiser"), [("de", "simplemma"), ("it", "spacy")])
def test_every_hand_checked_form_compiles_to_its_lemma(
    tmp_path: Path, language: str, lemmatiser: str
) -> None:
    """Each item: one annotator types the form, the other its lemma; the gold holds the
    lemma, given by both (55 German and 53 Italian forms, every one right)."""
    forms = read_forms(language)
    gold, summary, _ = _compile(tmp_path, _hand_checked(forms), "--language", language)
    expected = {str(number): {form.gold: 2} for number, form in enumerate(forms, 1)}
    assert gold == expected
    assert (len(forms), summary["language"]) == ({"de": 55, "it": 53}[language], language)
    assert summary["lemmatiser"]["name"].startswith(lemmatiser)
    # 'bitten' (v) stays; 'Bitten' (n) is the plural of 'Bitte'; 'sang' is 'singen'
    if language == "de":
        typed = {(form.pos, form.typed): str(n) for n, form in enumerate(forms, 1)}
        assert gold[typed[("v", "bitten")]] == {"bitten": 2}
        assert gold[typed[("n", "Bitten")]] == {"Bitte": 2}
        assert gold[typed[("v", "sang")]] == {"singen": 2}
        assert gold[typed[("n", "anlagen")]] == {"Anlage": 2}


@pytest.mark.parametrize("language", ["de", "it"])
def test_the_english_pipeline_got_few_of_them_right(tmp_path: Path, language: str) -> None:
    """What the compiler did before it knew languages (lower case, then LemmInflect's
    English rules): 5 of 55 German and 5 of 53 Italian forms right even with case
    ignored, and German words made English (bitten → bite, sang → sing)."""
    forms = read_forms(language)
    gold, summary, _ = _compile(tmp_path, _hand_checked(forms, second="typed"))
    right = sum(
        1
        for number, form in enumerate(forms, 1)
        if {key.casefold() for key in gold[str(number)]} == {form.gold.casefold()}
    )
    assert right == 5
    assert "language" not in summary
    if language == "de":
        got = {form.typed: gold[str(n)] for n, form in enumerate(forms, 1) if form.pos == "v"}
        assert (got["bitten"], got["sang"]) == ({"bite": 2}, {"sing": 2})


def test_comparatives_and_superlatives_go_to_the_positive(tmp_path: Path) -> None:
    """As the README says: German comparatives and superlatives and Italian synthetic
    ones become the positive (the review lists them); 'migliore' and 'più' stay."""
    cases = {
        "de": {"größer": "groß", "besser": "gut", "schönsten": "schön", "älter": "alt"},
        "it": {
            "bellissima": "bello",
            "maggiore": "grande",
            "peggiore": "cattivo",
            "migliore": "migliore",
            "più belle": "più bello",
        },
    }
    for language, forms in cases.items():
        responses = [
            _said(annotator, "w.a", str(number), typed)
            for number, typed in enumerate(forms, 1)
            for annotator in ("a1", "a2")
        ]
        folder = tmp_path / language
        gold, summary, _ = _compile(folder, responses, "--language", language)
        assert gold == {str(n): {lemma: 2} for n, lemma in enumerate(forms.values(), 1)}
        listed = {change["surface"]: change["proposed"] for change in summary["lemma_changes"]}
        assert listed == {typed: lemma for typed, lemma in forms.items() if typed != lemma}


# --- case folding ----------------------------------------------------------------------


def test_german_counting_folds_case_and_writes_nouns_capitalised(tmp_path: Path) -> None:
    responses = [
        _said("a1", "Haus.n", "1", "Häuser"),
        _said("a2", "Haus.n", "1", "haus", "Gebäude"),
        _said("a3", "Haus.n", "1", "HAUS"),
        _said("a4", "Haus.n", "1", "gebäude"),
        _said("a1", "schön.a", "2", "Hübsche"),
        _said("a2", "schön.a", "2", "hübsch"),
    ]
    gold, summary, out = _compile(tmp_path, responses, "--language", "de")
    assert gold == {"1": {"Haus": 3, "Gebäude": 2}, "2": {"hübsch": 2}}
    assert summary["with_mode"] == 2 and summary["case_folded"] == []
    # a lower-cased noun is a change of case only: not a lemma change to review
    assert [change["surface"] for change in summary["lemma_changes"]] == ["Häuser", "Hübsche"]
    sets = [json.loads(line)["substitutes"] for line in (out / "annotators.jsonl").open()]
    assert sets == [["Haus"], ["Gebäude", "Haus"], ["Haus"], ["Gebäude"], ["hübsch"], ["hübsch"]]


def test_forms_differing_in_case_count_as_one_most_given_first(tmp_path: Path) -> None:
    """Without a lemmatiser (so case is all that differs): the form most responses give
    is written, a tie goes to the one with fewer capitals; summary.json lists each."""
    responses = [
        _said("a1", "Kunst.n", "1", "Haus der Kunst", "Schön"),
        _said("a2", "Kunst.n", "1", "Haus der kunst", "schön"),
        _said("a3", "Kunst.n", "1", "schön"),
    ]
    gold, summary, _ = _compile(tmp_path, responses, "--language", "de", "--no-lemmatise")
    assert gold == {"1": {"schön": 3, "Haus der kunst": 2}}
    assert summary["case_folded"] == [
        {"lexelt": "Kunst.n", "form": "Haus der Kunst", "gold": "Haus der kunst", "count": 1},
        {"lexelt": "Kunst.n", "form": "Schön", "gold": "schön", "count": 1},
    ]
    assert summary["lemmatiser"] is None
    assert "|lemmatiser:none|rules:none|" in summary["signature"]


def test_no_normalise_keeps_case_apart(tmp_path: Path) -> None:
    responses = [_said("a1", "w.n", "1", "Haus"), _said("a2", "w.n", "1", "haus")]
    gold, _, _ = _compile(tmp_path, responses, "--language", "de", "--no-normalise")
    assert gold == {"1": {"Haus": 2}}  # the lemmatiser capitalises the noun ...
    gold, _, _ = _compile(
        tmp_path, responses, "--language", "de", "--no-normalise", "--no-lemmatise"
    )
    assert gold == {"1": {"Haus": 1, "haus": 1}}  # ... nothing else folds it


def test_a_language_no_lemmatiser_covers_is_only_normalised_and_folded(tmp_path: Path) -> None:
    responses = [_said("a1", "w.n", "1", "Alpha Beta"), _said("a2", "w.n", "1", "alpha beta")]
    gold, summary, _ = _compile(tmp_path, responses, "--language", "zh")
    assert gold == {"1": {"alpha beta": 2}}
    assert (summary["language"], summary["lemmatiser"]) == ("zh", None)
    assert summary["signature"].endswith("|language:zh")


# --- the apostrophe --------------------------------------------------------------------


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_curly_apostrophe_is_the_straight_one(tmp_path: Path, language: str) -> None:
    typed = {"it": ("fine dell\u2019anno", "fine dell'anno"), "en": ("o\u2019clock", "o'clock")}
    curly, straight = typed[language]
    responses = [_said("a1", "w.n", "1", curly), _said("a2", "w.n", "1", straight)]
    gold, summary, _ = _compile(tmp_path, responses, "--language", language)
    assert gold == {"1": {straight: 2}}
    assert summary["normalisation_changes"] == [
        {
            "surface": curly,
            "normalised": straight,
            "reasons": ["apostrophe"],
            "count": 1,
            "items": ["1"],
        }
    ]


def test_the_substitute_rule_matches_either_apostrophe() -> None:
    rules = [w.rule for w in check_substitute("l\u2019anno", ("l'anno",)).warnings]
    assert rules == [TARGET]


# --- review, decisions, signature -------------------------------------------------------


def test_review_and_decisions_work_as_for_english(tmp_path: Path) -> None:
    responses = [
        _said("a1", "Haus.n", "1", "Häuser"),
        _said("a2", "Haus.n", "1", "Häuser"),
        _said("a3", "Haus.n", "1", "häuser"),
        _said("a1", "gehen.v", "2", "lief"),
        _said("a2", "gehen.v", "2", "lief"),
    ]
    gold, summary, _ = _compile(tmp_path / "a", responses, "--language", "de")
    assert gold == {"1": {"Haus": 3}, "2": {"laufen": 2}}
    assert [
        (c["surface"], c["proposed"], c["result"], c["decision"], c["count"])
        for c in summary["lemma_changes"]
    ] == [
        ("Häuser", "Haus", "Haus", None, 2),
        ("häuser", "Haus", "Haus", None, 1),
        ("lief", "laufen", "laufen", None, 2),
    ]
    assert summary["lemma_changes_pending"] == 3
    decisions = tmp_path / "decisions.json"
    decisions.write_text(
        json.dumps(
            {
                "decisions": [
                    # named small, it holds for 'Häuser' too (forms differing in case)
                    {"surface": "häuser", "action": "reject"},
                    {
                        "surface": "lief",
                        "lexelt": "gehen.v",
                        "action": "correct",
                        "lemma": "rennen",
                    },
                ]
            }
        ),
        encoding="utf-8",
    )
    gold, summary, _ = _compile(
        tmp_path / "b", responses, "--language", "de", "--decisions", str(decisions)
    )
    assert gold == {"1": {"Häuser": 3}, "2": {"rennen": 2}}
    assert summary["lemma_changes_pending"] == 0
    assert summary["lemma_changes_applied"] == 1


@pytest.mark.parametrize(("language", "name"), [("de", "simplemma"), ("it", "spacy-lookups-data")])
def test_signature_and_summary_name_language_and_lemmatiser(
    tmp_path: Path, language: str, name: str
) -> None:
    responses = [_said("a1", "w.n", "1", "x1"), _said("a2", "w.n", "1", "x1")]
    _, summary, _ = _compile(tmp_path, responses, "--language", language)
    assert summary["lemmatiser"] == {"name": name, "version": version(name), "language": language}
    assert f"|lemmatiser:{name} {version(name)}|rules:" in summary["signature"]
    assert summary["signature"].endswith(f"|language:{language}")
    assert list(summary)[:4] == ["signature", "language", "lemmatiser", "case_folded"]


def test_english_is_the_default_and_unchanged(tmp_path: Path) -> None:
    responses = [_said("a1", "w.n", "1", "Houses"), _said("a2", "w.n", "1", "house")]
    _, _, default = _compile(tmp_path / "a", responses)
    _, summary, english = _compile(tmp_path / "b", responses, "--language", "EN")
    for name in ("gold", "mwgold", "annotators.jsonl", "summary.json"):
        assert (default / name).read_bytes() == (english / name).read_bytes()
    assert (default / "gold").read_text() == "w.n 1 :: house 2;\n"
    assert "language" not in summary and "|language:" not in summary["signature"]
    assert "|lemmatiser:lemminflect " in summary["signature"]


def test_the_language_code_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        run(["responses.jsonl", "--out", "out", "--language", "deu"])
    assert stopped.value.code == 2
    assert "'deu' is not an ISO 639-1 language code" in capsys.readouterr().err


# --- the app: lexsub compile, the compile page and the lemma review ---------------------

GERMAN_XML = b"""<?xml version="1.0" encoding="utf-8"?>
<corpus lang="german">
  <lexelt item="Haus.n">
    <instance id="1"><context>Das alte <head>Haus</head> steht am Fluss.</context></instance>
  </lexelt>
  <lexelt item="gehen.v">
    <instance id="2"><context>Sie <head>ging</head> am Abend heim.</context></instance>
  </lexelt>
</corpus>
"""


@pytest.fixture
def german(app: Flask) -> int:
    """A German dataset 'klein' (language set as the dataset page sets it), answered by
    three annotators through HTTP."""
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Dataset
    from annotate.services.datasets import import_dataset

    with app.app_context():
        dataset = import_dataset(
            parse_lexsub_xml(GERMAN_XML, "klein.xml"), "klein", "klein.xml", GERMAN_XML
        ).dataset
        db.get_or_404(Dataset, dataset.id).language = "de"
        db.session.commit()
        dataset_id = dataset.id
    for name in ("ann", "bob", "cat"):
        make_user(app, name)
    make_user(app, "boss", "organiser")
    answer(app, "ann", {"1": {"sub1": "Gebäude"}, "2": {"sub1": "lief"}})
    answer(app, "bob", {"1": {"sub1": "gebäude", "sub2": "Heime"}, "2": {"sub1": "lief"}})
    answer(app, "cat", {"1": {"sub1": "heime"}, "2": {"sub1": "spazierte"}})
    return dataset_id


@pytest.mark.database
def test_lexsub_compile_uses_the_dataset_s_language(
    app: Flask, german: int, client: FlaskClient, tmp_path: Path
) -> None:
    runner = app.test_cli_runner()
    result = runner.invoke(args=["lexsub", "compile", "--dataset", "klein", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"(language de, simplemma {version('simplemma')})" in result.output
    assert (tmp_path / "gold").read_text(encoding="utf-8") == (
        "Haus.n 1 :: Gebäude 2;Heim 2;\ngehen.v 2 :: laufen 2;spazieren 1;\n"
    )
    login(client, "boss")
    page = client.get(f"/organiser/datasets/{german}/compile").get_data(as_text=True)
    assert "|language:de</code>" in page
    review = client.get(f"/organiser/datasets/{german}/lemmas").get_data(as_text=True)
    assert "lief" in review and "laufen" in review and "spazieren" in review
    # a decision taken on the command line (as on the review page) wins at the next compile
    decided = runner.invoke(args=["lexsub", "lemmas", "--dataset", "klein", "--reject", "lief"])
    assert decided.exit_code == 0, decided.output
    result = runner.invoke(args=["lexsub", "compile", "--dataset", "klein", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (
        (tmp_path / "gold")
        .read_text(encoding="utf-8")
        .endswith("gehen.v 2 :: lief 2;spazieren 1;\n")
    )
    listed = runner.invoke(args=["lexsub", "lemmas", "--dataset", "klein"])
    assert "lief → laufen [reject → lief] count: 2" in listed.output
    assert "heime → Heim count: 1" in listed.output
