"""The gold compiler, pure: plain data in, values and files out.

No Flask and no SQLAlchemy here: the app exports responses (or passes
:class:`~scoring.formats.responses.Response` values) and calls :func:`compile_responses`;
the command line ``lexsub compile`` does the same on a JSON Lines file.

Pipeline: :func:`normalise` → :func:`lemmatise` with :class:`Decisions` →
:func:`aggregate_item` → :func:`write_outputs`. Languages other than English
(:attr:`CompileOptions.language`): :func:`lemmatiser_for` (:mod:`annotate.gold.lemmatisers`)
and :func:`rules_for` (:mod:`annotate.gold.languages`), case folded when counting
(:mod:`annotate.gold.casefold`).
"""

from annotate.gold.aggregate import CompiledItem, TRule, aggregate_item
from annotate.gold.casefold import CaseFold
from annotate.gold.compiler import (
    CompiledGold,
    CompileOptions,
    LemmaChange,
    NormalisationChange,
    Signature,
    compile_responses,
    form_matcher,
    gold_order,
    item_order,
)
from annotate.gold.decisions import (
    Decision,
    DecisionError,
    Decisions,
    read_decisions,
    write_decisions,
)
from annotate.gold.languages import LanguageRules, rules_for
from annotate.gold.lemmatisation import (
    IDENTITY,
    Lemmatiser,
    lemmatise,
    lemminflect_lemmatiser,
)
from annotate.gold.lemmatisers import lemmatiser_for
from annotate.gold.review import decisions_template, pending_changes
from annotate.gold.write import summary, write_outputs
from scoring.formats.responses import Response, iter_responses, read_responses, write_responses
from scoring.substitute import normalise
from scoring.types import Answer

__all__ = [
    "IDENTITY",
    "Answer",
    "CaseFold",
    "CompileOptions",
    "CompiledGold",
    "CompiledItem",
    "Decision",
    "DecisionError",
    "Decisions",
    "LanguageRules",
    "LemmaChange",
    "Lemmatiser",
    "NormalisationChange",
    "Response",
    "Signature",
    "TRule",
    "aggregate_item",
    "compile_responses",
    "decisions_template",
    "form_matcher",
    "gold_order",
    "item_order",
    "iter_responses",
    "lemmatise",
    "lemmatiser_for",
    "lemminflect_lemmatiser",
    "normalise",
    "pending_changes",
    "read_decisions",
    "read_responses",
    "rules_for",
    "summary",
    "write_decisions",
    "write_outputs",
    "write_responses",
]
