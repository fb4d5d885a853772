"""Lemmatisation for languages other than English: a lemmatiser per language under its own rules.

English keeps LemmInflect and its rules (:mod:`annotate.gold.lemmatisation`) unchanged.
The lemmatiser of each language, and why some have none, is
:mod:`annotate.gold.lemmatisers`. The typed form is lemmatised before its case is folded;
the rules (:class:`LanguageRules`) add what a lookup cannot:

1. **Lookup form.** German capitalises nouns: a noun target's substitutes are looked up
   with a capital first letter (``anlagen`` → ``Anlagen`` → *Anlage*, not the verb
   *anliegen*), a verb's and an adjective's with a small one (``Schönen`` → ``schönen`` →
   *schön*, not the noun *Schöne*). Other languages look the word up as typed, and a word
   with a capital that the lemmatiser leaves alone again in small letters (Catalan
   ``Cases`` → *casa*). A word typed all in capitals (``HÄUSER``) is first written small.
2. **Elision.** A word with an apostrophe inside (``l'anno``, ``dell'anno``) keeps what
   stands up to the apostrophe and lemmatises the rest (simplemma drops the article).
3. **A lemma must fit the part of speech**, else the word is kept: a German noun's lemma
   starts with a capital, an adjective's with a small letter, a verb's ends in *-en*,
   *-rn*, *-ln* or is *tun* or *sein* (``einen`` → *ein* is no verb); an Italian verb's
   ends in *-re* or *-rsi* (simplemma's ``porta`` → *porto* is no verb); a Spanish
   verb's in *-ar*, *-er*, *-ir*, *-ír*, a Portuguese one's in *-ar*, *-er*, *-ir*,
   *-or*, *-ôr*, a French one's in *-er*, *-ir*, *-re*, a Catalan one's in *-ar*,
   *-er*, *-ir*, *-re*. In these four, which simplemma lemmatises without a part of
   speech, a noun's or an adjective's lemma that ends like an infinitive must begin the
   word, followed by nothing but *-s*, *-es*, *-a*, *-as* or *-e* (``mujeres`` → *mujer*;
   Catalan ``veu``, voice, is not *veure*, to see, nor ``arbre`` *arbrar*, nor Spanish
   ``usados`` *usarse*).
4. **Adjectives lose their inflection** (``schönen`` → *schön*, ``belle`` → *bello*).
   Comparatives and superlatives go to the positive too, as the lemmatisers' data has
   them: German ``größer`` → *groß*, ``besser`` → *gut*, ``schönsten`` → *schön*; Italian
   ``bellissima`` → *bello*, ``maggiore`` → *grande*, ``peggiore`` → *cattivo* (but
   ``migliore`` stays); an analytic comparative keeps its degree word (``più belle`` →
   *più bello*). The lemma review lists each such change for the organiser to reject
   where the degree matters (*better* is not *good*). Adverbs are not lemmatised.
5. **Phrases lemmatise one head word.** German: a noun phrase's head is the word before
   the first linking word (``Häuser der Stadt`` → *Haus der Stadt*), else its last word
   (``alte Häuser`` → *alte Haus*); a verb phrase's the last word if it is an inflected
   verb (``nach Hause ging`` → *nach Hause gehen*), else the first (``machte sich auf den
   Weg`` → *machen sich auf den Weg*); an adjective phrase's its last word. Italian: a
   noun or adjective phrase's head is the word before the first preposition (``case di
   campagna`` → *casa di campagna*), else a noun phrase's first word and an adjective
   phrase's last (``molto belle`` → *molto bello*); a verb phrase's its first word
   (``andava via`` → *andare via*). Spanish, French, Portuguese and Catalan as Italian
   (``casas de campo`` → *casa de campo*, ``fit semblant`` → *faire semblant*), except
   that a noun phrase with no linking word stays as typed (``processos democráticos``:
   its head alone would break the agreement, *processo democráticos*), as does a phrase
   that begins with one (``de vacances``), a verb phrase that begins with a pronoun
   (``se fue``, ``se moque``: the pronoun is not the verb) and Catalan's periphrastic past
   (``va fer``, not *anar fer*), and an adjective phrase whose last word is not its only
   word the lemmatiser changes (``grandes pérdidas``: its words agree; ``muy bonitas`` →
   *muy bonito*); pronouns are not lemmatised (Catalan ``d'us`` is not *d'tu*). Other
   languages leave phrases as typed.
6. **Enclitic pronouns keep a verb as typed** (:func:`has_enclitic`): Portuguese
   ``dá-lo`` and ``disse-lhe``, Catalan ``donar-li`` and ``fes-ho``, French
   ``donne-le``, Spanish ``dárselo``, ``diciéndole``, ``hacerlo``. simplemma makes
   ``dá-lo`` *dá-o* and ``fes-ho`` *fes-ell*, and drops the pronoun of ``hacerlo``; what
   the pronoun stands for is part of the answer, as the article of ``l'anno`` is.

Case is folded afterwards, when answers are counted (:mod:`annotate.gold.casefold`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from annotate.gold.lemmatisation import UPOS, Lemmatiser

HeadRule = Literal[
    "last",
    "first",
    "before-link",
    "before-link-else-last",
    "before-link-else-first",
    "last-then-first",
    "none",
]
"""How a phrase's head is found: ``last-then-first`` tries the last word, then the first
(the first that the lemmatiser changes wins); ``before-link`` alone keeps a phrase with
no linking word as typed."""

APOSTROPHE = "'"


@dataclass(frozen=True)
class LanguageRules:
    """The rules of one language (see the module's docstring); ``text`` is what the
    compiled gold's signature says of them."""

    code: str
    capitalised_nouns: bool = False
    verb_endings: tuple[str, ...] = ()
    links: frozenset[str] = frozenset()
    elided_links: tuple[str, ...] = ()
    heads: tuple[tuple[str, HeadRule], ...] = (("n", "none"), ("v", "none"), ("a", "none"))
    unchanged_pos: frozenset[str] = frozenset({"r"})
    enclitics: frozenset[str] = frozenset()
    """Pronouns that follow a verb, joined by a hyphen (``dá-lo``, ``donar-li``,
    ``donne-le``), or written as one word with it when ``fused_enclitics``
    (``dárselo``): such a verb is kept as typed (rule 6)."""
    fused_enclitics: bool = False
    nominal_not_verb: bool = False
    """Rule 3 for a lemmatiser that knows no part of speech: a noun's or adjective's
    lemma that ends as an infinitive must begin the word (``mujeres`` → *mujer*, but not
    Catalan ``veu``, voice, → *veure*, to see)."""
    agreeing_phrases_kept: bool = False
    """A phrase whose head is its last word stays as typed when the lemmatiser would
    change a word before it too (``grandes pérdidas``, ``moltes cultures``: the words
    agree, and one lemma would break that), a word of ``degree_words`` aside (``muy
    bonitas`` → *muy bonito*, though simplemma makes ``muy`` *mucho*)."""
    degree_words: frozenset[str] = frozenset()
    link_first_kept: bool = False
    """A phrase that begins with a linking word stays as typed (``de vacances``,
    ``d'altres cultures``: a prepositional phrase has no head to lemmatise)."""
    pronouns: frozenset[str] = frozenset()
    """Personal pronouns, never lemmatised (simplemma makes Catalan ``us`` *tu*, Spanish
    ``se`` *él*)."""
    verb_phrase_keepers: frozenset[str] = frozenset()
    """First words that keep a verb phrase as typed (rule 5): proclitic pronouns
    (``se fue``), Catalan's periphrastic past (``va fer``)."""

    def head_rule(self, pos: str) -> HeadRule:
        return dict(self.heads).get(pos, "none")

    @property
    def text(self) -> str:
        parts: list[str] = []
        if self.capitalised_nouns:
            parts.append("lookup:n=capital,else=small")
            parts.append("fit:n=capital,a=small")
        if self.verb_endings:
            parts.append("fit:v=" + ",".join("-" + ending for ending in self.verb_endings))
        if self.nominal_not_verb:
            parts.append("fit:n,a=not-infinitive-unless-prefix")
        parts.append("elision")
        if self.enclitics:
            parts.append("enclitics:" + ("hyphen,fused" if self.fused_enclitics else "hyphen"))
        parts.append(",".join(sorted(self.unchanged_pos)) + "-unchanged")
        parts.append("head:" + ",".join(f"{pos}={rule}" for pos, rule in self.heads))
        if self.link_first_kept:
            parts.append("phrase-kept-after-link")
        if self.agreeing_phrases_kept:
            parts.append("agreeing-phrase-kept")
        if self.pronouns:
            parts.append("pronouns-unchanged")
        if self.verb_phrase_keepers:
            parts.append("v-phrase-kept-after:" + ",".join(sorted(self.verb_phrase_keepers)))
        parts.append("fold:casefold")
        return ";".join(parts)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


GERMAN = LanguageRules(
    "de",
    capitalised_nouns=True,
    verb_endings=("en", "rn", "ln", "tun", "sein"),
    links=_words(
        "von vom des der den dem für mit aus zu zum zur in im am an auf bei beim "
        "nach über unter ohne gegen und oder"
    ),
    heads=(("n", "before-link-else-last"), ("v", "last-then-first"), ("a", "last")),
)
ITALIAN = LanguageRules(
    "it",
    verb_endings=("re", "rsi"),
    links=_words(
        "di a da in con su per tra fra del dello della dei degli delle al allo alla ai "
        "agli alle dal dallo dalla dai dagli dalle nel nello nella nei negli nelle sul "
        "sullo sulla sui sugli sulle col coi"
    ),
    elided_links=("d'", "dell'", "all'", "dall'", "nell'", "sull'"),
    heads=(("n", "before-link-else-first"), ("v", "first"), ("a", "before-link-else-last")),
)
ROMANCE_HEADS: tuple[tuple[str, HeadRule], ...] = (
    ("n", "before-link"),
    ("v", "first"),
    ("a", "before-link-else-last"),
)
SPANISH_PRONOUNS = _words("me te se nos os lo la le los las les")
SPANISH = LanguageRules(
    "es",
    agreeing_phrases_kept=True,
    degree_words=_words("muy más menos tan bastante demasiado poco no"),
    link_first_kept=True,
    pronouns=SPANISH_PRONOUNS,
    nominal_not_verb=True,
    verb_endings=("ar", "er", "ir", "ír"),
    links=_words("de del a al en con por para sin sobre entre hasta desde hacia contra según tras"),
    heads=ROMANCE_HEADS,
    enclitics=SPANISH_PRONOUNS,
    fused_enclitics=True,
    verb_phrase_keepers=SPANISH_PRONOUNS | {"no"},
)
FRENCH_PRONOUNS = _words("se me te nous vous le la les lui leur y en")
FRENCH = LanguageRules(
    "fr",
    agreeing_phrases_kept=True,
    degree_words=_words("très plus moins si trop assez bien peu pas non"),
    link_first_kept=True,
    pronouns=FRENCH_PRONOUNS,
    nominal_not_verb=True,
    verb_endings=("er", "ir", "re"),
    links=_words("de du des à au aux en avec pour par sans sur sous dans entre chez vers"),
    elided_links=("d'",),
    heads=ROMANCE_HEADS,
    enclitics=_words("le la les lui leur moi toi nous vous en y t m"),
    verb_phrase_keepers=FRENCH_PRONOUNS | _words("ne s' m' t' l' n'"),
)
PORTUGUESE_PRONOUNS = _words("se me te nos vos o a os as lo la los las lhe lhes")
PORTUGUESE = LanguageRules(
    "pt",
    agreeing_phrases_kept=True,
    degree_words=_words("muito mais menos tão bastante demasiado pouco bem não"),
    link_first_kept=True,
    pronouns=PORTUGUESE_PRONOUNS,
    nominal_not_verb=True,
    verb_endings=("ar", "er", "ir", "or", "ôr"),
    links=_words(
        "de do da dos das a ao aos à às em no na nos nas com por para sem sobre entre "
        "pelo pela pelos pelas até desde"
    ),
    heads=ROMANCE_HEADS,
    enclitics=PORTUGUESE_PRONOUNS | _words("no na nas"),
    verb_phrase_keepers=PORTUGUESE_PRONOUNS | {"não"},
)
CATALAN_PRONOUNS = _words("em et es ens us el la els les li ho hi en ne me te se nos vos lo los")
CATALAN = LanguageRules(
    "ca",
    agreeing_phrases_kept=True,
    degree_words=_words("molt més menys tan força bastant massa poc ben no"),
    link_first_kept=True,
    pronouns=CATALAN_PRONOUNS,
    nominal_not_verb=True,
    verb_endings=("ar", "er", "ir", "re"),
    links=_words("de del dels a al als en amb per pel pels sense sobre entre fins des cap"),
    elided_links=("d'",),
    heads=ROMANCE_HEADS,
    enclitics=CATALAN_PRONOUNS | _words("m t s l n"),
    verb_phrase_keepers=CATALAN_PRONOUNS
    | _words("no s' m' t' l' n' vaig vas va vam vàrem vau vàreu van varen"),
)
RULES: dict[str, LanguageRules] = {
    rules.code: rules for rules in (GERMAN, ITALIAN, SPANISH, FRENCH, PORTUGUESE, CATALAN)
}


def rules_for(language: str) -> LanguageRules:
    """The rules of ``language`` (an ISO 639-1 code other than ``en``): German's and
    Italian's own, or the general ones (single words only, phrases as typed)."""
    return RULES.get(language, LanguageRules(language))


def _lookup_form(word: str, pos: str, rules: LanguageRules) -> str:
    if len(word) > 1 and word.isupper():
        word = word.lower()
    if not rules.capitalised_nouns:
        return word
    first = word[0].upper() if pos == "n" else word[0].lower()
    return first + word[1:]


NOMINAL_ENDINGS = frozenset({"", "s", "es", "a", "as", "e"})
"""What a noun or adjective may add to a lemma that ends like an infinitive (``mujeres``
→ *mujer*, ``chère`` → *cher*, ``primeres`` → *primer*; not ``secundaria`` → *secundar*)."""


def _infinitive_like(lemma: str, rules: LanguageRules) -> bool:
    """Whether ``lemma`` ends as an infinitive of the language, reflexive ones too
    (Spanish *usarse*)."""
    folded = lemma.casefold()
    return folded.endswith(rules.verb_endings) or (
        folded.endswith("se") and folded[:-2].endswith(rules.verb_endings)
    )


def _fits(lemma: str, pos: str, rules: LanguageRules, word: str) -> bool:
    """Rule 3: whether ``lemma`` can be a lemma of ``word``, of PoS ``pos``."""
    if not lemma:
        return False
    if rules.capitalised_nouns and pos == "n" and not lemma[0].isupper():
        return False
    if rules.capitalised_nouns and pos == "a" and lemma[0].isupper():
        return False
    if pos in ("n", "a") and rules.nominal_not_verb and _infinitive_like(lemma, rules):
        plain, stem = _unaccented(word.casefold()), _unaccented(lemma.casefold())
        return plain.startswith(stem) and plain[len(stem) :] in NOMINAL_ENDINGS
    return not (pos == "v" and rules.verb_endings and not lemma.endswith(rules.verb_endings))


def word_lemma(word: str, pos: str, lemmatiser: Lemmatiser, rules: LanguageRules) -> str:
    """One word's lemma under rules 1-3 (the word itself, or its lookup form, when the
    lemmatiser knows none that fits).

    >>> word_lemma("l'anno", "n", Lemmatiser("upper", "1", lambda w, p: (w.upper(),)), ITALIAN)
    "l'ANNO"
    """
    cut = word.rfind(APOSTROPHE, 0, len(word) - 1) + 1
    prefix, stem = word[:cut], word[cut:]
    if not stem or not stem[0].isalpha():
        return word
    if has_enclitic(stem, lemmatiser, rules, verb=pos == "v"):
        return word
    if stem.casefold() in rules.pronouns:
        return word
    lookup = _lookup_form(stem, pos, rules)
    found = lemmatiser.candidates(lookup, UPOS[pos])
    lemma = found[0] if found else lookup
    if lemma == lookup and not rules.capitalised_nouns and lookup != lookup.lower():
        lower = lookup.lower()
        found = lemmatiser.candidates(lower, UPOS[pos])
        if found and found[0] != lower and _fits(found[0], pos, rules, lower):
            lemma = found[0]
    return prefix + (lemma if _fits(lemma, pos, rules, lookup) else lookup)


def _unaccented(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def has_enclitic(
    word: str, lemmatiser: Lemmatiser, rules: LanguageRules, verb: bool = True
) -> bool:
    """Rule 6: whether ``word`` is a verb form that carries enclitic pronouns. Joined by
    a hyphen, every part after the first hyphen must be a pronoun (``dá-lo``,
    ``donar-li``, ``donne-le``, ``menjar-se-les``). Written as one word (Spanish), one
    or two pronouns end it and what is left is what the lemmatiser gives for the whole,
    an infinitive (``hacerlo`` → *hacer*), or, for a verb target (``verb``), has a
    written accent and ends in a vowel, ``r`` or ``n`` (``dárselo``, ``diciéndole``,
    ``cómpralo``, not ``comíamos``; a noun's ``títulos`` is no verb).

    >>> same = Lemmatiser("x", "1", lambda w, p: (w,))
    >>> [has_enclitic(w, same, SPANISH) for w in ("dárselo", "comíamos", "hablase")]
    [True, False, False]
    >>> has_enclitic("títulos", same, SPANISH, verb=False)
    False
    """
    lower = word.casefold()
    head, hyphen, tail = lower.partition("-")
    if hyphen:
        parts = [part for part in tail.replace(APOSTROPHE, "-").split("-") if part]
        return bool(head and parts) and all(part in rules.enclitics for part in parts)
    if not rules.fused_enclitics:
        return False
    rest = lower
    by_length = sorted(rules.enclitics, key=len, reverse=True)
    for _ in range(2):
        clitic = next((c for c in by_length if rest.endswith(c) and len(rest) > len(c) + 1), "")
        if not clitic:
            break
        rest = rest[: -len(clitic)]
    if rest == lower:
        return False
    plain = _unaccented(rest)
    if plain != rest:
        return verb and plain[-1] in "aeiourn"
    found = lemmatiser.candidates(word, UPOS["v"])
    return plain.endswith(rules.verb_endings) and found[:1] == (plain,)


def _is_link(word: str, rules: LanguageRules) -> bool:
    folded = word.casefold()
    return folded in rules.links or folded.startswith(rules.elided_links)


def _keeps_verb_phrase(first: str, rules: LanguageRules) -> bool:
    folded = first.casefold()
    if folded in rules.verb_phrase_keepers:
        return True
    cut = folded.find(APOSTROPHE, 0, len(folded) - 1) + 1
    return cut > 0 and folded[:cut] in rules.verb_phrase_keepers


def head_candidates(words: list[str], pos: str, rules: LanguageRules) -> list[int]:
    """Rule 5: the indices of the words that may be a phrase's head, in the order they
    are tried (the first the lemmatiser changes is the head; none: the phrase stays)."""
    if len(words) == 1:
        return [0]
    rule = rules.head_rule(pos)
    if rule == "none":
        return []
    if pos == "v" and _keeps_verb_phrase(words[0], rules):
        return []
    if rules.link_first_kept and _is_link(words[0], rules):
        return []
    if rule.startswith("before-link"):
        for index in range(1, len(words)):
            if _is_link(words[index], rules):
                return [index - 1]
        if rule == "before-link":
            return []
        rule = "last" if rule.endswith("last") else "first"
    if rule == "first":
        return [0]
    if rule == "last":
        return [len(words) - 1]
    return [len(words) - 1, 0]


def lemmatise_in(text: str, pos: str, lemmatiser: Lemmatiser, rules: LanguageRules) -> str:
    """The lemmatised form of a substitute or multiword, typed case kept, for a target of
    PoS ``pos`` in the language of ``rules``: its head word lemmatised (rule 5). A change
    of case alone is kept only where it gives a German noun its capital (``haus`` →
    *Haus*, ``mädchen für alles`` → *Mädchen für alles*).

    >>> lemmatise_in("andava via", "v", Lemmatiser("x", "1", lambda w, p: ("andare",)), ITALIAN)
    'andare via'
    """
    if pos in rules.unchanged_pos:
        return text
    tokens = text.split(" ")
    places = [index for index, token in enumerate(tokens) if token]
    if not places:
        return text
    candidates = head_candidates([tokens[index] for index in places], pos, rules)
    if rules.agreeing_phrases_kept and candidates == [len(places) - 1] and len(places) > 1:
        before = [tokens[index] for index in places[:-1]]
        if any(
            word.casefold() not in rules.degree_words
            and word_lemma(word, pos, lemmatiser, rules) != word
            for word in before
        ):
            return text  # grandes pérdidas: its words agree, one lemma would break that
    recased: tuple[int, str] | None = None
    for candidate in candidates:
        place = places[candidate]
        lemma = word_lemma(tokens[place], pos, lemmatiser, rules)
        if lemma.casefold() != tokens[place].casefold():
            tokens[place] = lemma
            return " ".join(tokens)
        if recased is None and pos == "n" and rules.capitalised_nouns and lemma != tokens[place]:
            recased = place, lemma
    if recased is None:
        return text
    tokens[recased[0]] = recased[1]
    return " ".join(tokens)
