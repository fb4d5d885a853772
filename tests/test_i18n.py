"""Annotator pages in the study's language: the dataset's language picks
the catalogue (German, Italian, Spanish, French, Portuguese, Catalan; English otherwise),
the English texts stay exactly as they were, ``lang`` is on the sentence and ``<html>``,
and the committed catalogues are whole and compiled."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from annotate.i18n import CATALOGUES, RULE_MESSAGES, translate_message, use_language
from scoring.substitute import InvalidSubstitute, check_multiword, check_substitute
from tests.conftest import assign, login, make_user

pytestmark = pytest.mark.database

TRANSLATIONS = Path(__file__).resolve().parents[1] / "annotate" / "translations"

# sentences we wrote: a German, an Italian, a Spanish, a French, a Portuguese, a Catalan
# and a Dutch study (Dutch has no catalogue)
STUDIES = {
    "de": """<corpus lang="german">
  <lexelt item="Haus.n">
    <instance id="de1"><context>Die <head>Häuser</head> am Fluss sind alt.</context></instance>
    <instance id="de2"><context>Das <head>Haus</head> steht seit Jahren leer.</context></instance>
  </lexelt>
</corpus>""",
    "it": """<corpus lang="italian">
  <lexelt item="casa.n">
    <instance id="it1"><context>Le <head>case</head> sul fiume sono vecchie.</context></instance>
  </lexelt>
</corpus>""",
    "fr": """<corpus lang="french">
  <lexelt item="maison.n">
    <instance id="fr1"><context>Les <head>maisons</head> sont vieilles.</context></instance>
  </lexelt>
</corpus>""",
    "es": """<corpus lang="spanish">
  <lexelt item="casa.n">
    <instance id="es1"><context>Las <head>casas</head> del río son viejas.</context></instance>
  </lexelt>
</corpus>""",
    "pt": """<corpus lang="portuguese">
  <lexelt item="casa.n">
    <instance id="pt1"><context>As <head>casas</head> do rio são velhas.</context></instance>
  </lexelt>
</corpus>""",
    "ca": """<corpus lang="catalan">
  <lexelt item="casa.n">
    <instance id="ca1"><context>Les <head>cases</head> del riu són velles.</context></instance>
  </lexelt>
</corpus>""",
    "nl": """<corpus lang="dutch">
  <lexelt item="huis.n">
    <instance id="nl1"><context>De <head>huizen</head> zijn oud.</context></instance>
  </lexelt>
</corpus>""",
}
HEADER = '<?xml version="1.0" encoding="utf-8"?>\n'


def _study(app: Flask, language: str, username: str = "ann") -> list[int]:
    """Import the study of ``language`` (its dataset's language set), make ``username``
    a member; the ids of its sentences in order."""
    from annotate.extensions import db
    from annotate.importer import parse_lexsub_xml
    from annotate.models import Dataset, Instance
    from annotate.services.datasets import import_dataset

    data = (HEADER + STUDIES[language]).encode("utf-8")
    with app.app_context():
        dataset = import_dataset(
            parse_lexsub_xml(data, f"{language}.xml"), f"study-{language}", "x.xml", data
        ).dataset
        db.session.get(Dataset, dataset.id).language = language  # type: ignore[union-attr]
        db.session.commit()
        ids = list(
            db.session.scalars(
                select(Instance.id)
                .where(Instance.dataset_id == dataset.id)
                .order_by(Instance.position)
            )
        )
        dataset_id = dataset.id
    assign(app, username, dataset_id)
    return ids


@pytest.fixture
def ann(app: Flask, client: FlaskClient) -> FlaskClient:
    make_user(app, "ann")
    login(client, "ann")
    return client


def _title(page: str) -> str:
    found = re.search(r"<title>(.*?)</title>", page, re.S)
    assert found is not None
    return found.group(1)


def test_a_german_study_is_annotated_in_german(app: Flask, ann: FlaskClient) -> None:
    first, _ = _study(app, "de")
    page = ann.get(f"/annotate/{first}").get_data(as_text=True)
    assert '<html lang="de">' in page and "<body>" in page  # the interface is German too
    assert (
        '<p class="sentence" id="sentence" lang="de">Die <mark class="target"><b>Häuser</b>'
        "</mark> am Fluss sind alt.</p>"
    ) in page
    for label in (
        '<label for="sub1">Ersatzwort 1</label>',
        '<label for="multiword">Mehrwortausdruck</label>',
        "> Eigenname</label>",
        "> Kein Ersatzwort (nil)</label>",
        "> Teil eines Mehrwortausdrucks</label>",
        "> Für dieses Wort ein Wörterbuch oder einen Thesaurus benutzt</label>",
        '<button type="submit">Speichern und weiter</button>',
        '<button type="submit">Abmelden</button>',
        ">Anleitung</a>",
        "Wort 1 von 1 · Satz 1 von 2 · 0 / 2 erledigt",
        'aria-label="Sätze dieses Wortes"',
        '<p class="visually-hidden" id="target-word">Zielwort: <span lang="de">Häuser</span></p>',
    ):
        assert label in page, label
    assert _title(page) == "Satz 1 von Wort 1 · study-de · lexsub"
    assert "Substitute 1" not in page and "Save and next" not in page

    # an invalid save: the message, the rule's message and the title in German
    page = ann.post(f"/annotate/{first}", data={"sub1": "Bau; Gebäude"}).get_data(as_text=True)
    assert _title(page) == "Fehler: Satz 1 von Wort 1 · study-de · lexsub"
    assert (
        '<li id="message-1">Ersatzwort 1 („Bau; Gebäude“): ein Ersatzwort pro Feld (eine '
        "Liste wurde eingetippt: Geben Sie jedes Ersatzwort in einem eigenen Feld an).</li>"
    ) in page
    assert re.search(r'id="sub1" [^>]*aria-invalid="true" aria-describedby="message-1 ', page)

    # saved: the flash and the next sentence, in German
    response = ann.post(f"/annotate/{first}", data={"sub1": "Gebäude"}, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert '<p class="flash info" role="status">Gespeichert.</p>' in page
    assert "Satz 2 von 2" in page and 'data-saved="Gespeichert."' in page


def test_an_italian_study_is_annotated_in_italian(app: Flask, ann: FlaskClient) -> None:
    (first,) = _study(app, "it")
    page = ann.get(f"/annotate/{first}").get_data(as_text=True)
    assert '<html lang="it">' in page
    for label in (
        '<label for="sub2">Sostituto 2</label>',
        "> Nome proprio</label>",
        "> Nessun sostituto (nil)</label>",
        '<button type="submit">Salva e continua</button>',
        "Parola 1 di 1 · frase 1 di 1 · 0 / 1 fatte",
    ):
        assert label in page, label
    page = ann.post(f"/annotate/{first}", data={"name": "on", "nil": "on"}).get_data(as_text=True)
    assert "Scegli «Nome proprio» oppure «Nessun sostituto (nil)», non entrambi." in page
    # both ticks are the offending fields
    assert re.search(r'name="name" [^>]*aria-invalid="true" aria-describedby="message-1 ', page)
    assert re.search(r'name="nil" [^>]*aria-invalid="true" aria-describedby="message-1 ', page)
    # finished: the dataset's page in Italian
    ann.post(f"/annotate/{first}", data={"sub1": "abitazioni"})
    page = ann.get(f"/annotate/dataset/{_dataset_id(app, 'study-it')}/done").get_data(as_text=True)
    assert "<h1>study-it: completato</h1>" in page and "Hai risposto a tutte le frasi" in page


def _dataset_id(app: Flask, name: str) -> int:
    from annotate.extensions import db
    from annotate.models import Dataset

    with app.app_context():
        found = db.session.scalar(select(Dataset.id).where(Dataset.name == name))
        assert found is not None
        return found


def test_a_language_without_a_catalogue_keeps_english_and_says_so(
    app: Flask, ann: FlaskClient
) -> None:
    (first,) = _study(app, "nl")
    page = ann.get(f"/annotate/{first}").get_data(as_text=True)
    # the study's language on <html> and the sentence, the English interface marked English
    assert '<html lang="nl">' in page and '<body lang="en">' in page
    assert 'id="sentence" lang="nl">De <mark class="target"><b>huizen</b></mark>' in page
    assert '<label for="sub1">Substitute 1</label>' in page


NEW_CATALOGUES = {
    "es": (
        "Palabra 1 de 1 · frase 1 de 1 · 0 / 1 hechas",
        (
            '<label for="sub1">Sustituto 1</label>',
            "> Nombre propio</label>",
            "> Ningún sustituto (nil)</label>",
            '<button type="submit">Guardar y seguir</button>',
        ),
        "Elige «Nombre propio» o «Ningún sustituto (nil)», no ambos.",
        "Has respondido a todas las frases de study-es. ¡Gracias!",
    ),
    "fr": (
        "Mot 1 sur 1 · phrase 1 sur 1 · 0 / 1 faites",
        (
            '<label for="sub1">Substitut 1</label>',
            "> Nom propre</label>",
            "> Aucun substitut (nil)</label>",
            '<button type="submit">Enregistrer et continuer</button>',
        ),
        "Choisissez «\u00a0Nom propre\u00a0» ou «\u00a0Aucun substitut (nil)\u00a0», pas les deux.",
        "Vous avez répondu à toutes les phrases de study-fr. Merci\u00a0!",
    ),
    "pt": (
        "Palavra 1 de 1 · frase 1 de 1 · 0 / 1 feitas",
        (
            '<label for="sub1">Substituto 1</label>',
            "> Nome próprio</label>",
            "> Nenhum substituto (nil)</label>",
            '<button type="submit">Salvar e continuar</button>',
        ),
        "Escolha “Nome próprio” ou “Nenhum substituto (nil)”, não os dois.",
        "Você respondeu a todas as frases de study-pt. Obrigado!",
    ),
    "ca": (
        "Paraula 1 de 1 · frase 1 de 1 · 0 / 1 fetes",
        (
            '<label for="sub1">Substitut 1</label>',
            "> Nom propi</label>",
            "> Cap substitut (nil)</label>",
            '<button type="submit">Desa i continua</button>',
        ),
        "Trieu «Nom propi» o «Cap substitut (nil)», no tots dos.",
        "Heu respost totes les frases de study-ca. Gràcies!",
    ),
}


@pytest.mark.parametrize("language", sorted(NEW_CATALOGUES))
def test_a_study_is_annotated_in_its_language(app: Flask, ann: FlaskClient, language: str) -> None:
    """The sentence page, its refusal and the finished page, in Spanish, French,
    Portuguese and Catalan (the texts as the catalogues give them)."""
    progress, labels, both, finished = NEW_CATALOGUES[language]
    (first,) = _study(app, language)
    page = ann.get(f"/annotate/{first}").get_data(as_text=True)
    assert f'<html lang="{language}">' in page and "<body>" in page
    assert progress in page
    for label in labels:
        assert label in page, label
    assert "Substitute 1" not in page and "Save and next" not in page
    page = ann.post(f"/annotate/{first}", data={"name": "on", "nil": "on"}).get_data(as_text=True)
    assert both in page
    ann.post(f"/annotate/{first}", data={"sub1": "x1"})
    done = f"/annotate/dataset/{_dataset_id(app, f'study-{language}')}/done"
    page = ann.get(done).get_data(as_text=True)
    assert finished in page


def test_english_pages_keep_their_texts(app: Flask, ann: FlaskClient, dataset: int) -> None:
    """The English labels are contracts: the msgids are the English texts."""
    assign(app, "ann", dataset)
    first = _first_of(app, dataset)
    page = ann.get(f"/annotate/{first}").get_data(as_text=True)
    assert '<html lang="en">' in page and "<body>" in page
    for label in (
        '<label for="sub1">Substitute 1</label>',
        '<label for="multiword">Multiword</label>',
        "> Proper name</label>",
        "> No substitute (nil)</label>",
        "> Part of a multiword</label>",
        "> Used a dictionary or thesaurus for this word</label>",
        '<button type="submit">Save and next</button>',
        "Word 1 of 2 · sentence 1 of 2 · 0 / 3 done",
    ):
        assert label in page, label
    assert _title(page) == "Sentence 1 of word 1 · small · lexsub"
    page = ann.post(f"/annotate/{first}", data={}).get_data(as_text=True)
    assert _title(page) == "Error: Sentence 1 of word 1 · small · lexsub"
    assert (
        "Give at least one substitute, or tick &#39;Proper name&#39; or &#39;No substitute "
        "(nil)&#39;." in page
    )


def _first_of(app: Flask, dataset_id: int) -> int:
    from annotate.extensions import db
    from annotate.models import Instance

    with app.app_context():
        found = db.session.scalar(
            select(Instance.id)
            .where(Instance.dataset_id == dataset_id)
            .order_by(Instance.position)
            .limit(1)
        )
        assert found is not None
        return found


def test_pages_of_no_one_dataset_use_the_language_the_datasets_share(
    app: Flask, ann: FlaskClient
) -> None:
    _study(app, "de")
    page = ann.get("/").get_data(as_text=True)
    assert '<html lang="de">' in page and "<h1>Ihre Arbeit</h1>" in page
    assert "1 / 2 erledigt" not in page and "0 / 2 erledigt" in page
    page = ann.get("/instructions").get_data(as_text=True)
    assert "<h1>Anleitung</h1>" in page and "Tastenkürzel" in page
    assert "Ein Feld fasst höchstens 60 Zeichen" in page
    _study(app, "it")  # two languages: English
    page = ann.get("/").get_data(as_text=True)
    assert '<html lang="en">' in page and "<h1>Your work</h1>" in page


def test_a_study_link_in_german(app: Flask, client: FlaskClient) -> None:
    from annotate.extensions import db
    from annotate.models import Dataset
    from annotate.services.study import open_study

    make_user(app, "boss", "organiser")
    data = (HEADER + STUDIES["de"]).encode("utf-8")
    from annotate.importer import parse_lexsub_xml
    from annotate.services.datasets import import_dataset

    with app.app_context():
        dataset = import_dataset(parse_lexsub_xml(data, "de.xml"), "studie", "de.xml", data).dataset
        dataset.language = "de"
        db.session.commit()
        token = open_study(db.get_or_404(Dataset, dataset.id), "CODE-1")
    page = client.get(f"/study/{token}").get_data(as_text=True)
    assert "<h1>Studie</h1>" in page and "Ihre Teilnehmer-ID" in page  # never the name
    response = client.get(f"/study/{token}?participant=bad%20id")
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert _title(page) == "Fehler: Studie · lexsub"
    assert "die Teilnehmer-ID &#39;bad id&#39; muss aus 1-64 Buchstaben" in page
    assert re.search(r'id="participant" [^>]*aria-describedby="participant-error ', page)


def test_the_login_form_marks_both_fields_after_a_failed_login(
    app: Flask, client: FlaskClient
) -> None:
    make_user(app, "ann")
    page = client.get("/login").get_data(as_text=True)
    assert _title(page) == "Log in · lexsub" and "aria-invalid" not in page
    page = client.post("/login", data={"username": "ann", "password": "nope"}).get_data(
        as_text=True
    )
    assert _title(page) == "Error: Log in · lexsub"
    assert '<div class="errors" role="alert" id="errors"><p id="login-error">Wrong username' in page
    for field in ("username", "password"):
        assert re.search(
            rf'id="{field}" [^>]*aria-invalid="true" aria-describedby="login-error"', page
        ), field


# --- the catalogues ------------------------------------------------------------------------


def _catalogue(language: str) -> Path:
    return TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"


@pytest.mark.parametrize("language", sorted(CATALOGUES))
def test_the_committed_mo_holds_what_the_po_says(language: str) -> None:
    """The app reads the committed .mo: it must hold every translation of its .po (the
    bytes also carry Babel's version, so the messages are compared)."""
    po = _catalogue(language)
    with po.open("rb") as handle:
        source = {m.id: m.string for m in read_po(handle, locale=language) if m.id}
    with po.with_suffix(".mo").open("rb") as handle:
        compiled = {m.id: m.string for m in read_mo(handle) if m.id}
    assert compiled == source, f"{po.with_suffix('.mo')} is stale: bash scripts/translations.sh"


@pytest.mark.parametrize("language", sorted(CATALOGUES))
def test_every_msgid_is_translated_with_the_same_placeholders(language: str) -> None:
    with (TRANSLATIONS / "messages.pot").open("rb") as handle:
        template = {m.id for m in read_po(handle) if m.id}
    with _catalogue(language).open("rb") as handle:
        catalog = read_po(handle, locale=language)
    messages = {m.id: m for m in catalog if m.id}
    assert set(messages) == template, "run bash scripts/translations.sh and translate"
    placeholder = re.compile(r"%\(\w+\)s|\{\w+\}|<[^>]+>")
    for msgid, message in messages.items():
        assert isinstance(msgid, str) and isinstance(message.string, str)
        assert message.string and "fuzzy" not in message.flags, msgid
        assert set(placeholder.findall(msgid)) == set(placeholder.findall(message.string)), (
            msgid,
            message.string,
        )
    assert len(messages) >= 90


RULE_EXAMPLES = [
    "happy; glad",
    "a\nb",
    "gl\x00ad",
    "\ud800x",
    "quick :: rapid",
    "x" * 61,
    "!!!",
    "a;b",
    "pn",
    "",
]
CAUTION_EXAMPLES = ["name", "nil", "x", "bright", "one two three four five six"]


def test_every_message_of_the_substitute_rule_has_a_translation(app: Flask) -> None:
    """Each message :mod:`scoring.substitute` gives (every refusal and every caution)
    matches a template of :data:`RULE_MESSAGES`, so German and Italian pages never fall
    back to English; it fails when the rule's wording changes."""
    messages: set[str] = set()
    for value in RULE_EXAMPLES:
        with pytest.raises(InvalidSubstitute) as raised:
            check_substitute(value)
        messages.add(raised.value.message)
    with pytest.raises(InvalidSubstitute) as raised:
        check_multiword("take; place")
    messages.add(raised.value.message)
    for value in CAUTION_EXAMPLES:
        messages.update(c.message for c in check_substitute(value, ["bright"]).warnings)
    assert len(messages) == 15
    with app.test_request_context("/"):
        for language in sorted(CATALOGUES):
            use_language(language)
            for message in messages:
                translated = translate_message(message)
                assert translated != message, (language, message)
        use_language("en")
        assert {translate_message(message) for message in messages} == messages
    assert len(RULE_MESSAGES) == 21
    with app.test_request_context("/"):
        use_language("de")
        assert translate_message("the study 'words' has its 2 participants") == (
            "die Studie 'words' hat schon ihre 2 Teilnehmenden"
        )
        assert translate_message("is too long: 61 characters (at most 60)") == (
            "ist zu lang: 61 Zeichen (höchstens 60)"
        )
        assert translate_message("a message no template knows") == "a message no template knows"


def test_the_template_holds_every_msgid_of_the_code(tmp_path: Path) -> None:
    """messages.pot is what extraction from the annotator's pages gives now: a text added
    to a page without a translation fails here (run bash scripts/translations.sh)."""
    out = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "--no-location",
            "--omit-header",
            "-F",
            str(TRANSLATIONS / "babel.cfg"),
            "-k",
            "N_",
            "-o",
            str(out),
            str(TRANSLATIONS.parents[1]),
        ],
        check=True,
        capture_output=True,
    )
    with out.open("rb") as handle:
        extracted = {m.id for m in read_po(handle) if m.id}
    with (TRANSLATIONS / "messages.pot").open("rb") as handle:
        committed = {m.id for m in read_po(handle) if m.id}
    assert extracted == committed


def test_the_catalogue_is_found_once_a_request_and_again_when_the_language_changes(
    app: Flask,
) -> None:
    """The templates' ``_()`` reads the catalogue :func:`annotate.i18n.translations` kept
    for the request; :func:`use_language` drops it, so a page switched to a study's
    language speaks it (the labels are Flask-Babel's catalogue entries)."""
    from flask import render_template_string

    from annotate.i18n import translations

    with app.test_request_context():
        assert render_template_string("{{ _('Save and next') }}") == "Save and next"
        english = translations()
        assert translations() is english  # kept for the request
        use_language("de")
        assert translations() is not english
        assert render_template_string("{{ _('Save and next') }}") == "Speichern und weiter"
        use_language("it")
        assert render_template_string("{{ _('Save and next') }}") == "Salva e continua"


def test_flask_babels_catalogue_is_asked_once_an_app_and_language(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`annotate.i18n.translations` gives, in every request, the very catalogue
    Flask-Babel gives for the request's language, and asks Flask-Babel for it once an app
    and language."""
    import flask_babel

    from annotate import i18n

    asked: list[str] = []

    def counted() -> object:
        asked.append(str(flask_babel.get_locale()))
        return flask_babel.get_translations()

    monkeypatch.setattr(i18n, "get_translations", counted)
    found: dict[str, object] = {}
    for language in ("de", "en", "de", "it", "en", "xx"):
        with app.test_request_context():
            use_language(language)
            catalogue = i18n.translations()
            assert catalogue is flask_babel.get_translations()
            found.setdefault(language, catalogue)
            assert catalogue is found[language]
    assert asked == ["de", "en", "it"]  # "xx" has no catalogue: English's


def test_the_templates_gettext_does_what_jinjas_newstyle_gettext_does(app: Flask) -> None:
    """``_()`` and ``{% trans %}`` call :func:`annotate.i18n.template_gettext` once, and it
    answers as Jinja's own newstyle gettext: the text translated, its values escaped in
    an HTML template and not in a text one, and always formatted (``%%`` is ``%``)."""
    from flask import render_template_string
    from jinja2.ext import _make_new_gettext

    from annotate.i18n import template_gettext, translations

    sources = [
        "{{ _('Save and next') }}",
        "{{ _('Sentence %(sentence)s of word %(word)s', sentence='<b>', word=2) }}",
        "{{ gettext('Dataset') }}|{{ _('100%% sure') }}",
        "{% trans n='<i>' %}Dataset {{ n }}{% endtrans %}",
    ]
    unescaped = "{% autoescape false %}" + sources[1] + "{% endautoescape %}"
    with app.test_request_context():
        assert app.jinja_env.globals["_"] is template_gettext
        assert app.jinja_env.globals["gettext"] is template_gettext
        for language in ("en", "de"):
            use_language(language)
            ours = [render_template_string(source) for source in sources]
            jinjas = _make_new_gettext(lambda text: translations().ugettext(text))
            app.jinja_env.globals.update(_=jinjas, gettext=jinjas)
            try:
                theirs = [render_template_string(source) for source in sources]
                plain = app.jinja_env.from_string(unescaped).render()
            finally:
                app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext)
            assert ours == theirs
            assert app.jinja_env.from_string(unescaped).render() == plain
        assert "&lt;b&gt;" in ours[1] and "<b>" in plain and "Datensatz" in ours[2]
        assert ours[2].endswith("|100% sure")


def test_a_text_without_values_is_formatted_once_a_catalogue(app: Flask) -> None:
    """:func:`annotate.i18n.template_gettext` keeps a text without values as it answered
    it, for each catalogue and for escaping and plain templates apart (what Jinja's own
    gettext answers, :func:`test_the_templates_gettext_does_what_jinjas_newstyle_gettext_does`),
    and answers it from there on the next page; a text with values is formatted each time."""
    from flask import render_template_string
    from markupsafe import Markup

    from annotate.i18n import _TEXTS, translations

    with app.test_request_context():
        use_language("de")
        source = "{{ _('Save and next') }}|{{ _('100%% sure') }}|{{ _('Dataset %(n)s', n=1) }}"
        first = render_template_string(source)
        texts = _TEXTS[translations()]
        kept = texts[("Save and next", True)]
        assert kept == Markup("Speichern und weiter") and isinstance(kept, Markup)
        assert texts[("100%% sure", True)] == "100% sure"
        assert ("Dataset %(n)s", True) not in texts
        plain = app.jinja_env.from_string(
            "{% autoescape false %}{{ _('Save and next') }}{% endautoescape %}"
        ).render()
        assert plain == "Speichern und weiter" and not isinstance(
            texts[("Save and next", False)], Markup
        )
        assert render_template_string(source) == first  # the second page: from the kept texts
        use_language("en")
        assert render_template_string("{{ _('Save and next') }}") == "Save and next"
        assert _TEXTS[translations()][("Save and next", True)] == "Save and next"


LIMIT_MACRO = (
    "{% macro limit_note(box_id) -%}\n"
    '<span class="limit-note" id="limit-{{ box_id }}" aria-live="polite" '
    "data-reached=\"{{ _('{count} characters: the limit of this box.') }}\" "
    "data-over=\"{{ _('{count} characters: at most {limit}, please shorten it.') }}\"></span>\n"
    "{%- endmacro %}"
)
"""The macro that made the limit notes before :func:`annotate.i18n.limit_note`."""


@pytest.mark.parametrize("autoescape", [True, False])
def test_the_limit_note_is_what_its_macro_made(app: Flask, autoescape: bool) -> None:
    """:func:`annotate.i18n.limit_note` gives, byte for byte, what the macro of an HTML
    template (escaping, whatever the page) gave: in English and German, with an id to
    escape, in a page that escapes and in one that does not."""
    from flask import render_template_string

    # the macro's template escapes, as templates/_limit.html (an .html file) did
    macro = app.jinja_env.from_string(LIMIT_MACRO).module.limit_note  # type: ignore[attr-defined]
    ours, theirs = "{{ limit_note(box) }}", "{{ macro(box) }}"
    if not autoescape:
        ours, theirs = (
            f"{{% autoescape false %}}{page}{{% endautoescape %}}" for page in (ours, theirs)
        )
    with app.test_request_context():
        for language in ("en", "de"):
            use_language(language)
            for box in ("sub1", "multiword", 'a"<b>&c'):
                made = render_template_string(ours, box=box)
                assert made == render_template_string(theirs, box=box, macro=macro)
        assert "&#34;&lt;b&gt;&amp;c" in made and "Zeichen" in made


TITLE_MACRO = (
    "{% macro item_title(check, sentence_index, word_index, dataset) -%}\n"
    "{% if check.errors %}{{ _('Error:') }} {% elif check.cautions %}{{ _('Check:') }} "
    "{% endif %}{{ _('Sentence %(sentence)s of word %(word)s', sentence=sentence_index, "
    "word=word_index) }} · {{ dataset.name }} · lexsub\n"
    "{%- endmacro %}"
)
"""The macro that made the annotation page's title before
:func:`annotate.web.annotator.item_title`."""


def test_the_items_title_is_what_its_macro_made(app: Flask) -> None:
    """:func:`annotate.web.annotator.item_title` gives, byte for byte, what the macro of
    an HTML template gave: plain, after errors, with questions to confirm, in English
    and German, for a dataset name to escape."""
    from types import SimpleNamespace

    from flask import render_template_string

    from annotate.services.itempage import DatasetName

    macro = app.jinja_env.from_string(TITLE_MACRO).module.item_title  # type: ignore[attr-defined]
    dataset = DatasetName(1, 'a "<b>" & c', "de")
    checks = [
        SimpleNamespace(errors=[], cautions=[]),
        SimpleNamespace(errors=["x"], cautions=["y"]),
        SimpleNamespace(errors=[], cautions=["y"]),
    ]
    page = "{{ title(check, 3, 12, dataset) }}"
    with app.test_request_context():
        for language in ("en", "de"):
            use_language(language)
            for check in checks:
                values = {"check": check, "dataset": dataset}
                ours = render_template_string(page.replace("title", "item_title"), **values)
                theirs = render_template_string(
                    page.replace("title", "macro"), macro=macro, **values
                )
                assert ours == theirs
        assert (
            ours == "Prüfen: Satz 3 von Wort 12 · a &#34;&lt;b&gt;&#34; &amp; c · lexsub"
            or "· lexsub" in ours
        )
