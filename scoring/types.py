"""The vocabulary: each concept the scoring modules, the file formats and the gold
compiler share, named once.

* :class:`Answer`: h_i, one annotator's answer to one item (the agreement measures,
  ``annotators.jsonl`` and the compiler alike); its :data:`AnswerKind`;
* :data:`Count`: a gold count; :data:`LEXELT` and :func:`pos_of`: an item's lexelt and
  its part of speech;
* :data:`SystemKind`: what a system's *file* holds; :data:`Task`: best or oot;
* :data:`Rules` and :data:`GoldRules`: score.pl's rules or corrected.

A response as the app exports it (with its item, dictionary use and time) is the
responses format's record, :class:`scoring.formats.responses.Response`.
"""

import re
from typing import Literal, NamedTuple

Rules = Literal["compat", "fixed"]
"""``compat``: score.pl's behaviour, defects included; ``fixed``: its defects corrected."""

GoldRules = Literal["compat", "fixed", "strict"]
"""How :func:`scoring.formats.gold.read_gold` reads a gold file: as score.pl does
(``compat``), corrected (``fixed``), or corrected after refusing any malformed line
(``strict``)."""

Task = Literal["best", "oot"]
"""The two subtasks of SemEval-2007 scored by score.pl: best and oot."""

AnswerKind = Literal["substitutes", "name", "nil"]
"""What an annotator gave for one instance: substitutes, "part of a proper name" or
"no substitute"."""

SystemKind = Literal["best", "oot", "mw", "ranked", "swords"]
"""What a system file holds: best answers (``::``), oot answers (``:::``), multiwords
(``::``, scored against the mwgold), ranked candidates (``::::``) or a SWORDS result (a
JSON object, scored against a SWORDS dataset)."""

ANSWER_KINDS: tuple[AnswerKind, ...] = ("substitutes", "name", "nil")


class Answer(NamedTuple):
    """h_i: one annotator's answer to one item (McCarthy & Navigli 2009, section 2.2.2), the
    one record of it that the agreement measures, the gold compiler and ``annotators.jsonl``
    (:mod:`scoring.formats.annotators`) share. A response as the app exports it, with its
    item and history, is :class:`scoring.formats.responses.Response`."""

    annotator: str
    kind: AnswerKind
    substitutes: frozenset[str]
    """The set h_i; empty for ``name`` and ``nil``."""
    multiword: str | None = None


LEXELT = re.compile(r"[^\s.][^\s]*\.[nvar]")
"""A lexelt as every strict reader takes it: ``lemma.pos`` or ``lemma.orig_pos.pos`` with
the last part one of n, v, a, r."""

APOSTROPHES = {"\u2019": "'"}
"""Characters matched as the straight apostrophe: the right single quotation mark U+2019
that keyboards and word processors type for it (Italian and French elision:
``dell\u2019anno`` is ``dell'anno``). Here, not in :mod:`scoring.substitute` (which
folds them), so that the gold reader does without the substitute rule's module."""

Count = int | float
"""A gold count: annotators who gave a substitute, or a decimal weight (SemDis 2014's
averaged scores); score.pl keeps counts past 2**64 - 1 as doubles, and so does compat."""


def pos_of(lexelt: str) -> str:
    """The part of speech of a lexelt: its last dotted part (``stand.n.v`` → ``v``).

    >>> pos_of("stand.n.v"), pos_of("bright.a"), pos_of("odd")
    ('v', 'a', '')
    """
    return lexelt.rsplit(".", 1)[-1] if "." in lexelt else ""
