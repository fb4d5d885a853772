"""Annotator pages in the study's language: Flask-Babel set up here.

A judge of a judgement round is an annotator too: the judging pages (/judge, a round's
screens and its finished page) are in the language of the round's dataset, English for a
round of no dataset (one made from a rows file); the judge's list of rounds uses the
language all their rounds share.

A dataset has a language (``Dataset.language``, an ISO 639-1 code). The annotator's pages
of a dataset use its catalogue when we ship one (:data:`CATALOGUES`: German, Italian,
Spanish, French, Portuguese as written in Brazil, Catalan) and English otherwise; pages
of no one dataset (the annotator's home, the instructions, "all done") use the language
all the annotator's datasets share, else English. Organiser pages and the log-in page
stay English. The English texts are the msgids themselves, so English pages are exactly
what they were before translation.

Two languages are told apart: the *interface* language (the catalogue, :func:`ui_language`)
and the *page* language (the study's, :func:`page_language`), which ``<html lang>`` carries
on a dataset's annotator pages; the body says ``lang="en"`` when the interface falls back
to English, so a screen reader reads every part in its own language.

The catalogues are ``annotate/translations/LANG/LC_MESSAGES/messages.po``; the compiled
``messages.mo`` beside each is committed (a few kilobytes) so that a checkout and an
installed wheel work without a build step, and ``tests/test_i18n.py`` fails when a
``.mo`` differs from what its ``.po`` compiles to (``bash scripts/translations.sh``
extracts, updates and compiles them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from weakref import WeakKeyDictionary

from babel.support import NullTranslations
from flask import Flask, current_app, g
from flask.ctx import _AppCtxGlobals
from flask_babel import Babel, get_translations, gettext, refresh
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

ENGLISH = "en"


def N_(text: str) -> str:
    """Marks ``text`` as a msgid for extraction (``pybabel extract -k N_``); no change."""
    return text


CATALOGUES = frozenset({"de", "it", "es", "fr", "pt", "ca"})
"""The languages we ship a catalogue for (besides English, which the msgids are)."""

babel = Babel()


def ui_language() -> str:
    """The catalogue of this request: the study's language when we ship it, else English
    (Flask-Babel's locale selector)."""
    language = page_language()
    return language if language in CATALOGUES else ENGLISH


def page_language() -> str:
    """The language of this request's page: the study's (set by :func:`use_language`)."""
    return str(g.get("study_language") or ENGLISH)


def use_language(language: str | None) -> None:
    """Show this request's page in ``language`` (a dataset's); None or '' for English."""
    g.study_language = (language or ENGLISH).strip().lower() or ENGLISH
    refresh()  # Flask-Babel caches the locale per request
    g.pop("translations", None)


Texts = dict[tuple[str, bool], str]
"""A catalogue's texts without values as :func:`template_gettext` answers them, by
(msgid, whether the template escapes)."""

_TEXTS: WeakKeyDictionary[NullTranslations, Texts] = WeakKeyDictionary()
"""Each catalogue's :data:`Texts`, kept as long as the catalogue (Flask-Babel keeps an
app's catalogues for the app's life): a text and its translation never change, and a page
shows the same thirty every time."""


def _catalogue(request_globals: _AppCtxGlobals) -> tuple[NullTranslations, Texts]:
    """This request's catalogue (:func:`ui_language`) and its :data:`Texts`, looked up
    once a request and kept in ``g`` (``request_globals``: Flask's ``g``, or the object
    behind it); :func:`use_language` drops them."""
    found: tuple[NullTranslations, Texts] | None = request_globals.get("translations")
    if found is None:
        catalogue = _app_catalogue(ui_language())
        found = request_globals.translations = (catalogue, _TEXTS.setdefault(catalogue, {}))
    return found


def _app_catalogue(language: str) -> NullTranslations:
    """Flask-Babel's catalogue of ``language`` (:func:`ui_language`, its locale selector)
    for this app, asked of Flask-Babel once an app and language: it keeps each catalogue
    for the app's life and gives the same object every time, but finding it (the app, the
    request context, the locale parsed, the domain, each through a context-local proxy)
    cost about 1% of a save's CPU on every request."""
    catalogues: dict[str, NullTranslations] = current_app.extensions.setdefault(
        "lexsub_catalogues", {}
    )
    found = catalogues.get(language)
    if found is None:
        found = catalogues[language] = get_translations()
    return found


def translations() -> NullTranslations:
    """This request's catalogue (:func:`ui_language`), looked up once a request: the
    templates' ``_()`` calls it for every text, and Flask-Babel's own lookup (the app,
    the request context and the locale, each through a context-local proxy) was about
    half of the CPU of rendering the annotation page."""
    return _catalogue(g)[0]


@pass_context
def template_gettext(context: Context, text: str, /, **variables: Any) -> str:
    """The templates' ``_()`` and ``gettext`` (``{% trans %}``): what Jinja's newstyle
    gettext does (the text in this request's catalogue, marked safe when the template
    escapes, then always formatted with ``variables``, which are escaped), in one call.
    Jinja's own goes through three (``_`` looks up ``gettext``, which calls the
    catalogue's function, each through the template context), and a page has some
    thirty texts.

    The catalogue is found through the page's own ``g`` (Flask puts the object, not its
    proxy, in every template's context; a template of no request context, e.g. a macro
    imported without context, goes through the proxy): each lookup through the proxy cost
    as much as the translation. A text without values is formatted once a catalogue
    (:data:`_TEXTS`), not again on every page."""
    return _page_text(context, text, context.eval_ctx.autoescape, variables)


def _page_text(context: Context, text: str, escaped: bool, variables: dict[str, Any]) -> str:
    """:func:`template_gettext` in a template that escapes (``escaped``) or not."""
    found = context.get("g")
    catalogue, texts = _catalogue(found if isinstance(found, _AppCtxGlobals) else g)
    if variables:
        return _formatted(catalogue, text, escaped, variables)
    key = (text, escaped)
    known = texts.get(key)
    if known is None:
        known = texts[key] = _formatted(catalogue, text, escaped, {})
    return known


LIMIT_REACHED = N_("{count} characters: the limit of this box.")
LIMIT_OVER = N_("{count} characters: at most {limit}, please shorten it.")
"""The note under a box with a length limit, said by static/lexsub.js when the box
reaches its limit (``{count}`` and ``{limit}`` are the script's to fill in)."""


def html_text(context: Context, text: str, /, **variables: Any) -> str:
    """``_(text, **variables)`` as a template that escapes gives it (safe, its values
    escaped), for the page of ``context``: the templates' Python globals that stand for
    macros of HTML templates use it (:func:`limit_note`, the annotation page's title)."""
    return _page_text(context, text, True, variables)


@pass_context
def limit_note(context: Context, box_id: str) -> Markup:
    """The note under a box with a length limit (``data-limit``): an empty live region
    that static/lexsub.js fills when the box reaches its limit, carrying the two texts it
    says in the page's language; the box's ``aria-describedby`` names its id,
    ``limit-<box_id>``. A function of the templates' globals, not a macro: the annotation
    page has four, and the four calls of a macro imported from another template were a
    sixth of the page's rendering. Escaped as the macro in its own HTML template was, whatever
    the page: the id escaped, the texts as ``_()`` gives them there (safe)."""
    reached = html_text(context, LIMIT_REACHED)
    over = html_text(context, LIMIT_OVER)
    return Markup(
        f'<span class="limit-note" id="limit-{escape(box_id)}" aria-live="polite" '
        f'data-reached="{escape(reached)}" data-over="{escape(over)}"></span>'
    )


def _formatted(
    catalogue: NullTranslations, text: str, escaped: bool, variables: dict[str, Any]
) -> str:
    """Jinja's newstyle gettext: ``text`` translated, marked safe when the template
    escapes (so that ``variables`` are escaped), then formatted (``%%`` is ``%`` even
    without values)."""
    translated: str = catalogue.ugettext(text)
    if escaped:
        translated = Markup(translated)
    return translated % variables


def common_language(languages: Iterable[str]) -> str | None:
    """The one language all of ``languages`` share, or None (none, or several).

    >>> common_language(["de", "de"]), common_language(["de", "it"]), common_language([])
    ('de', None, None)
    """
    found = {language for language in languages}
    return found.pop() if len(found) == 1 else None


def _languages() -> dict[str, str]:
    return {"page_lang": page_language(), "ui_lang": ui_language()}


def init_app(app: Flask) -> None:
    """Bind Flask-Babel (catalogues in ``annotate/translations``) and give every template
    ``page_lang``, ``ui_lang`` and :func:`translate` (a form message in the interface
    language)."""
    babel.init_app(app, locale_selector=ui_language)
    # Flask-Babel's callables (jinja2.ext.i18n adds the method), the catalogue found once
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda text: translations().ugettext(text),
        ngettext=lambda one, many, n: translations().ungettext(one, many, n),
        pgettext=lambda context, text: translations().upgettext(context, text),
        npgettext=lambda context, one, many, n: translations().unpgettext(context, one, many, n),
        newstyle=True,
    )
    # the same in one call (template_gettext); ngettext and the others stay Jinja's
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext)
    app.context_processor(_languages)
    app.jinja_env.globals["translate"] = translate
    app.jinja_env.globals["limit_note"] = limit_note
    app.jinja_env.globals["translate_message"] = translate_message


# --- messages made elsewhere in English: the rule of a valid substitute, a study link ------

RULE_MESSAGES = (
    N_("contains a line break (one line per gold item)"),
    N_("is not valid Unicode (a lone surrogate)"),
    N_("contains the control character U+%(code)s"),
    N_("is empty"),
    N_("contains '::' (the gold format puts '::' between the item and its substitutes)"),
    N_("is too long: %(length)s characters (at most %(limit)s)"),
    N_("has no letter or digit"),
    N_("one substitute per box (a list was typed: give each substitute in a box of its own)"),
    N_("contains ';' (the gold format separates substitutes with ';')"),
    N_("contains ';' (the gold format separates entries with ';')"),
    N_(
        "'%(entry)s' is reserved: the gold format uses it for proper-name answers "
        "(tick 'Proper name' instead)"
    ),
    N_("is typed as a substitute: did you mean to tick 'Proper name'?"),
    N_("is typed as a substitute: did you mean to tick 'No substitute (nil)'?"),
    N_("is one character long (the official scorer drops one-character gold entries)"),
    N_("is the target word itself"),
    N_("has more than %(words)s words (a substitute is a word or a short phrase)"),
    # annotate.services.study: what a crowd participant's study link may answer
    N_("participant id %(value)s must be 1-64 letters, digits, '.', '_' or '-'"),
    N_("every sentence of %(dataset)s has %(count)s annotators already"),
    N_("the study %(dataset)s has its %(count)s participants"),
    N_("the study %(dataset)s is closed"),
    N_("user %(user)s exists already"),
)
"""The English messages :mod:`scoring.substitute` (and :func:`annotate.services.study.participant`)
give: the rules stay there, in one place; each message is a msgid here, its ``%(name)s``
parts the values a message carries. ``tests/test_i18n.py`` checks that every rule's
message matches one of these."""


LABEL_TITLES = (
    # scoring.judgements.labels: what a judge sees of each label (the labels are data)
    N_("Good"),
    N_("Reasonable"),
    N_("Bad"),
    N_("True: a word"),
    N_("True: a phrase"),
    N_("True: the context"),
    N_("False"),
    N_("True"),
    N_("Unsure"),
)
"""The titles of the label sets' labels (:data:`scoring.judgements.labels.LABEL_SETS`),
msgids for the judging screen, which shows ``_(title)``; ``tests/test_i18n.py`` checks
that every title of every label set is one of these."""


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"%\((\w+)\)s", template)
    regex = "".join(
        re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)"
        for index, part in enumerate(parts)
    )
    return re.compile(regex + r"\Z")


_RULE_PATTERNS = tuple((template, _pattern(template)) for template in RULE_MESSAGES)


def translate_message(message: str) -> str:
    """A message of :data:`RULE_MESSAGES` in the interface language (unchanged in
    English, and when no template matches it)."""
    for template, pattern in _RULE_PATTERNS:
        found = pattern.match(message)
        if found is not None:
            return str(gettext(template, **found.groupdict()))
    return message


def translate(template: str, params: Mapping[str, str] | None = None) -> str:
    """``template`` (a msgid) in the interface language with ``params`` filled in; a
    ``problem`` parameter is a rule's message (:func:`translate_message`)."""
    values = {
        key: translate_message(value) if key == "problem" else value
        for key, value in (params or {}).items()
    }
    return str(gettext(template, **values))
