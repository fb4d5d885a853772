"""NLTK's WordNet lemmatiser as SWORDS' evaluation ran it (``swords/lemma.py``:
``WordNetLemmatizer().lemmatize(word, pos)`` with the target's PoS mapped to n, v, a, r
and anything else to n), with WordNet 3.0 found on this machine.

SWORDS pins ``nltk==3.5`` (its ``docker/Dockerfile``). That release's
``WordNetCorpusReader._morphy`` (NLTK 3.5, ``nltk/corpus/reader/wordnet.py``) does, for a
form and a PoS: (0) if the form is in the PoS's exception list, the forms among
``[form] + exceptions`` that are WordNet lemmas of that PoS; else (1) apply each
detachment rule (``MORPHOLOGICAL_SUBSTITUTIONS``) once, (2) return those of ``[form] +
results`` that are lemmas, and (3) if none is, apply the rules again and again to the
results until some are lemmas or no rule applies. Later NLTK releases (3.10 here) dropped
step 3, which changes 100 of the 32,396 words and PoS of the SWORDS systems in the tests
(``agentses`` is ``agent`` in 3.5 and itself now), so :func:`morphy` is NLTK 3.5's
function run on the installed reader's tables (the exception lists, the lemma index and
the rules, which are the same in both releases). ``lemmatize`` is the shortest of the
lemmas found, or the word unchanged.

NLTK cannot download its data here, so the lemmatiser reads WordNet 3.0 from, in order:

1. ``$LEXSUB_WORDNET``: a directory of WordNet 3.0 database files (``index.noun``,
   ``data.noun``, ``noun.exc``, … as WordNet's ``dict/`` folder holds them);
2. ``/usr/share/wordnet``: Debian's packages ``wordnet-base`` and ``wordnet-sense-index``
   (``apt-get install wordnet-base wordnet-sense-index``);
3. NLTK's own data (``python -m nltk.downloader wordnet``, where downloads work).

For 1 and 2 an NLTK data directory is made under ``$XDG_CACHE_HOME/lexsub/nltk_data``
(``~/.cache/lexsub/nltk_data`` by default): ``corpora/wordnet`` holds the database
files (copies, about 36 MB: NLTK 3.10 refuses symbolic links that lead out of its data
directory and files with more than one hard link) and the ``lexnames`` file NLTK's
reader also needs, which Debian does not ship. That file is the fixed list of WordNet's
45 lexicographer files (WordNet 3.0 manual page ``lexnames(5WN)``):
``NN<TAB>name<TAB>category``, category 1 noun, 2 verb, 3 adjective, 4 adverb. The
directory is put first on ``nltk.data.path``.
"""

from __future__ import annotations

import os
import shutil
from functools import cache
from pathlib import Path
from typing import Any

from scoring.files import user_cache

# lexnames(5WN), WordNet 3.0: the lexicographer files in file-number order (00-44).
LEXNAMES = (
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
DEBIAN_WORDNET = Path("/usr/share/wordnet")
"""Where Debian's ``wordnet-base`` and ``wordnet-sense-index`` install WordNet 3.0."""
DATABASE_FILES = tuple(
    f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")
) + tuple(f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv"))
"""The WordNet files NLTK's reader needs besides ``lexnames``."""
OPTIONAL_FILES = ("index.sense", "cntlist.rev", "cntlist", "frames.vrb", "sents.vrb")
INSTALL = (
    "WordNet 3.0 is needed to lemmatise as SWORDS does (NLTK's WordNet lemmatiser): "
    "install Debian's packages (apt-get install wordnet-base wordnet-sense-index), or "
    "set LEXSUB_WORDNET to a directory of WordNet 3.0 database files, or install NLTK's "
    "data (python -m nltk.downloader wordnet)"
)


class WordNetMissing(OSError):
    """No WordNet 3.0 could be found; the message says what to install."""


def lexnames() -> str:
    """The ``lexnames`` file: ``NN<TAB>name<TAB>category`` for each of the 45 files.

    >>> lexnames().splitlines()[18]
    '18\\tnoun.person\\t1'
    """
    return "".join(
        f"{number:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n"
        for number, name in enumerate(LEXNAMES)
    )


def source_directory() -> Path | None:
    """The directory of WordNet database files to use (``$LEXSUB_WORDNET``, else Debian's),
    or None when neither holds them. Raises :class:`WordNetMissing` when
    ``$LEXSUB_WORDNET`` is set but lacks a file."""
    given = os.environ.get("LEXSUB_WORDNET")
    if given:
        missing = [name for name in DATABASE_FILES if not (Path(given) / name).is_file()]
        if missing:
            raise WordNetMissing(
                f"LEXSUB_WORDNET={given} lacks {', '.join(missing)} (it must be a "
                "directory of WordNet 3.0 database files)"
            )
        return Path(given)
    if all((DEBIAN_WORDNET / name).is_file() for name in DATABASE_FILES):
        return DEBIAN_WORDNET
    return None


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/lexsub/nltk_data`` (``~/.cache`` when the variable is unset)."""
    return Path(user_cache("nltk_data"))


def build_nltk_data(source: Path, root: Path) -> Path:
    """Make ``root/corpora/wordnet`` an NLTK WordNet corpus: ``source``'s database files
    (copied) and a ``lexnames`` file. Returns ``root``; idempotent."""
    corpus = root / "corpora" / "wordnet"
    corpus.mkdir(parents=True, exist_ok=True)
    for name in DATABASE_FILES + OPTIONAL_FILES:
        original, here = source / name, corpus / name
        if not original.is_file():
            continue
        if here.is_file() and here.stat().st_size == original.stat().st_size:
            continue
        partial = here.with_name(f".{name}.{os.getpid()}")
        shutil.copyfile(original, partial)
        os.replace(partial, here)  # atomic: a concurrent reader never sees half a file
    names = corpus / "lexnames"
    if not names.is_file() or names.read_text(encoding="ascii") != lexnames():
        partial = names.with_name(f".lexnames.{os.getpid()}")
        partial.write_text(lexnames(), encoding="ascii")
        os.replace(partial, names)
    return root


@cache
def nltk_data_root() -> Path | None:
    """The NLTK data directory made for this machine's WordNet, first on
    ``nltk.data.path``; None when NLTK's own data is to be used. Raises
    :class:`WordNetMissing` (saying what to install) when there is no WordNet."""
    import nltk

    source = source_directory()
    if source is None:
        try:
            nltk.data.find("corpora/wordnet")
        except LookupError:
            raise WordNetMissing(INSTALL) from None
        return None
    root = build_nltk_data(source, cache_root())
    if str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))
    return root


def wordnet_available() -> bool:
    """Whether :func:`lemmatize` can run (for tests that skip without WordNet)."""
    try:
        nltk_data_root()
    except (WordNetMissing, ImportError):
        return False
    return True


NLTK_POS = {"VERB": "v", "NOUN": "n", "ADJ": "a", "ADV": "r"}
"""SWORDS' PoS names to NLTK's WordNet PoS; every other PoS (and none) lemmatises as n."""


@cache
def wordnet_reader() -> Any:
    """NLTK's WordNet reader (``nltk.corpus.wordnet``), loaded from :func:`nltk_data_root`."""
    nltk_data_root()
    from nltk.corpus import wordnet

    wordnet.ensure_loaded()
    return wordnet


def morphy(form: str, pos: str) -> list[str]:
    """NLTK 3.5's ``WordNetCorpusReader._morphy(form, pos)`` (see the module docstring):
    the WordNet lemmas of ``form`` for ``pos`` (n, v, a, r), in the order found."""
    reader = wordnet_reader()
    exceptions: dict[str, list[str]] = reader._exception_map[pos]
    rules: list[tuple[str, str]] = reader.MORPHOLOGICAL_SUBSTITUTIONS[pos]
    index: dict[str, Any] = reader._lemma_pos_offset_map

    def apply_rules(forms: list[str]) -> list[str]:
        return [f[: -len(old)] + new for f in forms for old, new in rules if f.endswith(old)]

    def filter_forms(forms: list[str]) -> list[str]:
        return list(dict.fromkeys(f for f in forms if f in index and pos in index[f]))

    if form in exceptions:
        return filter_forms([form, *exceptions[form]])
    forms = apply_rules([form])
    results = filter_forms([form, *forms])
    while forms and not results:
        forms = apply_rules(forms)
        results = filter_forms(forms)
    return results


@cache
def lemmatize(word: str, pos: str | None) -> str:
    """NLTK 3.5's ``WordNetLemmatizer().lemmatize(word, pos)`` with SWORDS' PoS mapping
    (``swords/lemma.py``): the shortest lemma :func:`morphy` finds, or ``word``
    unchanged. Case is kept (WordNet's index is lower-case, so ``Dogs`` stays ``Dogs``).

    >>> lemmatize("agentses", "NOUN") if wordnet_available() else "agent"
    'agent'
    """
    lemmas = morphy(word, NLTK_POS.get(pos or "", "n"))
    return min(lemmas, key=len) if lemmas else word
