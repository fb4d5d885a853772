"""The gold compiler: responses in, a :class:`CompiledGold` value out.

check (the one rule of :mod:`scoring.substitute`) → normalise → lemmatise with the
organiser's decisions → one SET per annotator and item → aggregate. Writing the
files is :mod:`annotate.gold.write`.

A response with a value the rules refuse (``happy; glad`` in one box, ``pn``, ``!!!``, a
control character) is left out whole and reported as an :class:`AnswerProblem`; values
the rules only flag (``nil`` typed as a word, one character, the target word) are kept
and reported too. Stored data that breaks the rules therefore never stops a compile.

Items are ordered as the task's gold lists them: word by word (each word where its first
id comes), the ids of a word in numeric order (:func:`id_key`: digits compared as numbers;
ties, such as ``07`` and ``7``, by the id's text); annotators by name. Nothing
depends on the order of the records, so the same responses give the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from annotate.gold.aggregate import CompiledItem, TRule, aggregate_item
from annotate.gold.casefold import CaseFold, fold_answer, gold_forms
from annotate.gold.decisions import NO_DECISIONS, Action, Decisions
from annotate.gold.languages import LanguageRules, lemmatise_in, rules_for
from annotate.gold.lemmatisation import RULES, Lemmatiser, lemmatise, lemminflect_lemmatiser
from annotate.gold.lemmatisers import lemmatiser_for
from annotate.gold.model_annotators import is_model_annotator
from scoring.errors import FormatError
from scoring.formats.exclusions import Excluded, Exclusion, merge
from scoring.formats.responses import Response
from scoring.substitute import (
    Checked,
    InvalidSubstitute,
    Normalised,
    check_multiword,
    check_substitute,
    normalise_with_reasons,
)
from scoring.types import Answer

VERSION = "1"
"""Version of the compiler's rules, written into the signature."""
_RUNS = re.compile(r"[0-9]+|[^0-9]+")
_POS_SUFFIX = re.compile(r"(\.[nvar])+$")
_NOTHING: dict[str, str] = {}


@dataclass(frozen=True)
class CompileOptions:
    """Everything that changes a compiled gold (all of it goes into the signature)."""

    normalise: bool = True
    lemmatise: bool = True
    lemmatiser: Lemmatiser | None = None
    """Used when ``lemmatise``; None: the language's (English: LemmInflect, dictionary
    only, :func:`~annotate.gold.lemmatisation.lemminflect_lemmatiser`; others: simplemma,
    :func:`~annotate.gold.lemmatisers.lemmatiser_for`)."""
    decisions: Decisions = NO_DECISIONS
    t_rule: TRule = "annotators"
    only_t: bool = False
    """Write only the items in T to ``gold``."""
    language: str = "en"
    """The dataset's language (ISO 639-1): English keeps its rules byte for byte; any
    other is lemmatised before case is folded (:mod:`annotate.gold.languages`) and
    counted with case folded (:mod:`annotate.gold.casefold`)."""
    excluded: tuple[Exclusion, ...] = ()
    """Annotators whose responses are skipped, each with a reason
    (:mod:`scoring.formats.exclusions`)."""
    keep_checks: bool = False
    """Keep a dataset's attention-check items (:mod:`annotate.services.checks`) in the gold
    and the agreement; applied by the database reader
    (:func:`annotate.services.goldfiles.compile_dataset`), which records in ``summary.json``
    how many it left out (``check_items_left_out``). The compiler itself reads what it is
    given."""
    include_models: bool = False
    """Compile the answers of model annotators (``llm:…``,
    :func:`~annotate.gold.model_annotators.is_model_annotator`) with the people's; by
    default they are skipped, as if absent: the files are the bytes of the people's
    answers alone."""


@dataclass(frozen=True, slots=True)
class NormalisationChange:
    """A typed form that normalisation changed, why, how often and in which items."""

    surface: str
    normalised: str
    reasons: tuple[str, ...]
    count: int
    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AnswerProblem:
    """A value in one annotator's answer that a rule refuses (the response is left out)
    or flags (kept): who, which item, the value as stored, the rule and what it says."""

    annotator: str
    lexelt: str
    instance: str
    value: str
    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class LemmaChange:
    """A lemma the lemmatiser proposed for ``surface``, and what was applied (the lemma review).

    ``decision`` is the organiser's action, None when there was none (the proposal is
    applied); ``result`` the form used. ``count`` counts responses, ``items`` their ids.
    """

    surface: str
    proposed: str
    result: str
    decision: Action | None
    count: int
    items: tuple[str, ...]
    lexelts: tuple[str, ...]

    @property
    def applied(self) -> bool:
        return self.result != self.surface


@dataclass(frozen=True, slots=True)
class Signature:
    """What determines a compiled gold's bytes besides the responses (as in sacrebleu)."""

    normalise: bool
    lemmatiser: str
    rules: str
    decisions: str
    t_rule: TRule
    only_t: bool
    version: str = VERSION
    language: str = "en"
    """Written only when it is not English (so that English signatures stay as they were)."""
    excluded: int = 0
    """How many annotators were left out; written only when some were."""
    models: int = 0
    """How many model annotators were compiled (``include_models``); written only when
    some were."""

    @property
    def text(self) -> str:
        yes = {True: "yes", False: "no"}
        language = "" if self.language == "en" else f"|language:{self.language}"
        excluded = f"|excluded:{self.excluded}" if self.excluded else ""
        models = f"|models:{self.models}" if self.models else ""
        return (
            f"lexsub-compile:{self.version}|normalise:{yes[self.normalise]}"
            f"|lemmatiser:{self.lemmatiser}|rules:{self.rules}|decisions:{self.decisions}"
            f"|t:{self.t_rule}|only-t:{yes[self.only_t]}{language}{excluded}{models}"
        )


@dataclass(frozen=True)
class CompiledGold:
    """A compiled gold: every item (in item order) and what was changed on the way."""

    items: tuple[CompiledItem, ...]
    annotators: tuple[str, ...]
    responses: int
    normalisations: tuple[NormalisationChange, ...]
    lemma_changes: tuple[LemmaChange, ...]
    emptied: tuple[NormalisationChange, ...]
    """Substitutes and multiwords that normalisation left empty (dropped)."""
    signature: Signature
    only_t: bool = False
    left_out: tuple[AnswerProblem, ...] = ()
    """Responses left out because a value breaks a rule (one entry per response)."""
    flagged: tuple[AnswerProblem, ...] = ()
    """Values kept that a rule flags (one entry per value)."""
    language: str = "en"
    lemmatiser: tuple[str, str, str] | None = None
    """The lemmatiser used: (name, version, language); None when nothing was lemmatised."""
    case_folds: tuple[CaseFold, ...] = ()
    """Forms counted as another that differs only in case (languages other than English)."""
    recased: dict[tuple[str, str], str] = field(default_factory=dict, compare=False)
    """(form, lexelt) → lemma for the forms whose lemma differs from them only in case (a
    German noun written small: not a change to review, but the gold's form)."""
    excluded: tuple[Excluded, ...] = ()
    """The annotators left out (:attr:`CompileOptions.excluded`), by name, with the
    responses skipped; their responses are not in :attr:`responses`."""
    check_items_left_out: int | None = None
    """A dataset with attention-check items: how many of them were left out (0 when kept);
    None for one without (``summary.json`` then says nothing of them)."""

    @property
    def in_t(self) -> tuple[CompiledItem, ...]:
        return tuple(item for item in self.items if item.in_t)

    def counts(self) -> dict[str, dict[str, int]]:
        """item id → {substitute: count}, with ``pn`` for name answers, for listed items."""
        return {
            item.instance: {**dict(item.counts), **({"pn": item.names} if item.names else {})}
            for item in self.items
            if item.listed
        }


def id_key(item_id: str) -> tuple[tuple[int, int, str], ...]:
    """An id's place in numeric order: its runs of ASCII digits compared as numbers, the
    rest as text (``a.9`` before ``a.9b`` before ``a.10``; ``07`` before ``7`` before
    ``8``)."""
    runs = (
        (0, int(run), run) if run.isascii() and run.isdigit() else (1, 0, run)
        for run in _RUNS.findall(item_id)
    )
    return (*runs, (-1, 0, item_id))  # an id that ends first comes first; then its text


def item_order(ids: Iterable[str]) -> list[str]:
    """Ids in numeric order (:func:`id_key`).

    >>> item_order(["10", "9", "010", "1", "b.10", "b.9"])
    ['1', '9', '010', '10', 'b.9', 'b.10']
    """
    return sorted(ids, key=id_key)


def gold_order(lexelts: Mapping[str, str]) -> list[str]:
    """The ids of ``lexelts`` (id → its word's lexelt) as the task's gold lists them: word
    by word, each word where its first id comes, and its ids in numeric order
    (:func:`id_key`).

    >>> gold_order({"1": "bright.a", "2": "stand.v", "3": "bright.a", "10": "stand.v"})
    ['1', '3', '2', '10']
    """
    ids = item_order(lexelts)
    first: dict[str, int] = {}
    for position, item_id in enumerate(ids):
        first.setdefault(lexelts[item_id], position)
    return sorted(ids, key=lambda item_id: first[lexelts[item_id]])  # stable: numeric within


@dataclass
class _Tally:
    count: int = 0
    items: set[str] = field(default_factory=set)

    def add(self, instance: str) -> None:
        self.count += 1
        self.items.add(instance)


class _Compiler:
    """One compilation's state: caches, tallies and the answers collected so far."""

    def __init__(self, options: CompileOptions) -> None:
        self.options = options
        self.english = options.language == "en"
        self.rules: LanguageRules | None = None if self.english else rules_for(options.language)
        self.lemmatiser = self._lemmatiser(options)
        self.items: dict[str, tuple[str, dict[str, Answer]]] = {}
        self.strings: dict[str, str] = {}
        self.normalised: dict[str, Normalised] = {}
        self.lemmas: dict[tuple[str, str], tuple[str, str, Action | None]] = {}
        self.normal_tally: dict[str, _Tally] = {}
        self.empty_tally: dict[str, _Tally] = {}
        self.lemma_tally: dict[tuple[str, str], _Tally] = {}
        self.plain: dict[str, dict[str, str]] = {}
        """lexelt → typed form → gold form, for forms that nothing changes (no tally)."""
        self.problems: list[str] = []
        self.responses = 0
        self.verdicts: dict[tuple[str, str], Checked | InvalidSubstitute] = {}
        self.multiwords: dict[str, Checked | InvalidSubstitute] = {}
        self.forms_checked: dict[str, InvalidSubstitute | None] = {}
        self.left_out: list[AnswerProblem] = []
        self.flagged: list[AnswerProblem] = []
        self.recased: dict[tuple[str, str], str] = {}
        self.excluded = {exclusion.annotator: 0 for exclusion in options.excluded}

    @staticmethod
    def _lemmatiser(options: CompileOptions) -> Lemmatiser | None:
        return lemmatiser_of(options)

    def verdict(self, raw: str, lexelt: str) -> Checked | InvalidSubstitute:
        """What :func:`~scoring.substitute.check_substitute` says of ``raw`` (cached)."""
        key = (raw, lexelt)
        found = self.verdicts.get(key)
        if found is None:
            try:
                found = check_substitute(raw, (_POS_SUFFIX.sub("", lexelt),))
            except InvalidSubstitute as error:
                found = error
            self.verdicts[key] = found
        return found

    def broken_form(self, text: str) -> InvalidSubstitute | None:
        """Why a form that normalisation or a lemma (a decision's correction, ``pns`` →
        ``pn``) made breaks the substitute rules, or None (cached)."""
        if text in self.forms_checked:
            return self.forms_checked[text]
        try:
            check_substitute(text)
            found = None
        except InvalidSubstitute as error:
            found = error
        self.forms_checked[text] = found
        return found

    def multiword_verdict(self, raw: str) -> Checked | InvalidSubstitute:
        found = self.multiwords.get(raw)
        if found is None:
            try:
                found = check_multiword(raw)
            except InvalidSubstitute as error:
                found = error
            self.multiwords[raw] = found
        return found

    def form(self, raw: str, lexelt: str, instance: str, plain: bool = True) -> str:
        """The form a checked substitute or multiword takes in the gold ("" when dropped).
        ``plain``: remember it for the fast path when nothing changes it."""
        text = raw
        tallied = False
        if self.options.normalise:
            found = self.normalised.get(raw)
            if found is None:
                found = self.normalised[raw] = normalise_with_reasons(raw, self.english)
            if found.reasons:
                (self.empty_tally if not found.text else self.normal_tally).setdefault(
                    raw, _Tally()
                ).add(instance)
                tallied = True
            text = found.text
        if text and self.lemmatiser is not None:
            key = (text, lexelt)
            lemma = self.lemmas.get(key)
            if lemma is None:
                lemma = self.lemmas[key] = self._lemma(text, lexelt)
            if self._changes(text, lemma[0]) or self._changes(text, lemma[1]):
                self.lemma_tally.setdefault(key, _Tally()).add(instance)
                tallied = True
            elif lemma[1] != text:
                self.recased[key] = lemma[1]
            text = lemma[1]
        if not tallied and plain:
            self.plain.setdefault(lexelt, {})[raw] = text
        return text

    def _changes(self, text: str, lemma: str) -> bool:
        """Whether ``lemma`` is a change of ``text`` to review: any difference in English;
        in other languages, whose case is folded when counting, more than one of case."""
        if self.english:
            return lemma != text
        return lemma != text and lemma.casefold() != text.casefold()

    def _lemma(self, text: str, lexelt: str) -> tuple[str, str, Action | None]:
        assert self.lemmatiser is not None
        pos = lexelt.rsplit(".", 1)[-1]
        if self.rules is None:
            proposed = lemmatise(text, pos, self.lemmatiser)
            decision = self.options.decisions.find(text, lexelt)
        else:
            proposed = lemmatise_in(text, pos, self.lemmatiser, self.rules)
            decision = self.options.decisions.find(text, lexelt, fold=True)
        if decision is None:
            return proposed, proposed, None
        return proposed, decision.result(text, proposed), decision.action

    def add(self, response: Response) -> None:
        if not self.options.include_models and is_model_annotator(response.annotator):
            return  # a model's answer: compiled only when asked for
        if response.annotator in self.excluded:
            self.excluded[response.annotator] += 1
            return
        self.responses += 1
        strings = self.strings
        instance = response.instance
        lexelt = strings.setdefault(response.lexelt, response.lexelt)
        annotator = strings.setdefault(response.annotator, response.annotator)
        item = self.items.get(instance)
        if item is None:
            item = self.items[instance] = (lexelt, {})
        elif item[0] != lexelt:
            self.problems.append(
                f"{response.where}: instance {instance} is under lexelt "
                f"{lexelt} here and {item[0]} before (ids are unique)"
            )
            return
        if annotator in item[1]:
            self.problems.append(
                f"{response.where}: annotator {annotator} answered instance "
                f"{instance} twice (one response per annotator and instance)"
            )
            return
        plain = self.plain.get(lexelt, _NOTHING)
        checked: list[tuple[str, Checked | None]] = []
        for raw in response.substitutes:
            if raw in plain:
                checked.append((raw, None))
                continue
            verdict = self.verdict(raw, lexelt)
            if isinstance(verdict, InvalidSubstitute):
                self._leave_out(response, raw, verdict.rule, verdict.message)
                return
            checked.append((raw, verdict))
        raw_multiword = response.multiword
        if raw_multiword is not None:
            found = self.multiword_verdict(raw_multiword)
            if isinstance(found, InvalidSubstitute):
                self._leave_out(response, raw_multiword, found.rule, "multiword " + found.message)
                return
        forms = set()
        flagged: list[AnswerProblem] = []
        for raw, passed in checked:
            if passed is None:
                text = plain[raw]
            else:
                text = self.form(raw, lexelt, instance, not passed.warnings)
                broken = self.broken_form(text) if text != passed.text else None
                if broken is not None:
                    self._leave_out(
                        response, raw, broken.rule, f"its gold form (lemma) {broken.message}"
                    )
                    return
                flagged.extend(
                    AnswerProblem(annotator, lexelt, instance, raw, caution.rule, caution.message)
                    for caution in passed.warnings
                )
            if text:
                forms.add(text)
        self.flagged.extend(flagged)
        multiword = (
            self.form(raw_multiword, lexelt, instance, plain=False)
            if raw_multiword is not None
            else ""
        )
        item[1][annotator] = Answer(
            annotator, response.kind, frozenset(sorted(forms)), multiword or None
        )

    def _leave_out(self, response: Response, value: str, rule: str, message: str) -> None:
        self.left_out.append(
            AnswerProblem(
                response.annotator, response.lexelt, response.instance, value, rule, message
            )
        )

    def result(self) -> CompiledGold:
        if self.problems:
            raise FormatError(self.problems)
        options = self.options
        case_folds: tuple[CaseFold, ...] = ()
        if not self.english and options.normalise:
            case_folds = self._fold_case()
        items = tuple(
            aggregate_item(
                self.items[instance][0], instance, self.items[instance][1].values(), options.t_rule
            )
            for instance in gold_order(
                {instance: lexelt for instance, (lexelt, _) in self.items.items()}
            )
        )
        position = {item.instance: number for number, item in enumerate(items)}
        annotators = sorted({name for _, answers in self.items.values() for name in answers})
        lemmatiser = self.lemmatiser
        rules = RULES if self.rules is None else self.rules.text
        signature = Signature(
            options.normalise,
            lemmatiser.label if lemmatiser else "none",
            rules if lemmatiser else "none",
            f"{options.decisions.digest()} ({len(options.decisions)})",
            options.t_rule,
            options.only_t,
            language=options.language,
            excluded=len(self.excluded),
            models=sum(1 for name in annotators if is_model_annotator(name)),
        )
        return CompiledGold(
            items,
            tuple(annotators),
            self.responses,
            self._normal_changes(self.normal_tally, position),
            self._lemma_changes(position),
            self._normal_changes(self.empty_tally, position),
            signature,
            options.only_t,
            self._in_order(self.left_out, position),
            self._in_order(self.flagged, position),
            options.language,
            (lemmatiser.name, lemmatiser.version, lemmatiser.language) if lemmatiser else None,
            case_folds,
            self.recased,
            tuple(
                Excluded(exclusion.annotator, exclusion.reason, self.excluded[exclusion.annotator])
                for exclusion in merge(options.excluded)
            ),
        )

    def _fold_case(self) -> tuple[CaseFold, ...]:
        """Make the forms of one word that differ only in case one (languages other than
        English, :mod:`annotate.gold.casefold`); returns what changed."""
        mapping, changes = gold_forms(
            (lexelt, answer)
            for lexelt, answers in self.items.values()
            for answer in answers.values()
        )
        if mapping:
            folded = {lexelt for lexelt, _ in mapping}
            for lexelt, answers in self.items.values():
                if lexelt in folded:
                    for annotator, answer in answers.items():
                        answers[annotator] = fold_answer(answer, lexelt, mapping)
        return changes

    @staticmethod
    def _in_order(
        problems: list[AnswerProblem], position: dict[str, int]
    ) -> tuple[AnswerProblem, ...]:
        """In item order, then by annotator, value and rule (whatever the input order)."""
        return tuple(
            sorted(
                problems,
                key=lambda p: (
                    position.get(p.instance, -1),
                    p.instance,
                    p.annotator,
                    p.value,
                    p.rule,
                ),
            )
        )

    def _normal_changes(
        self, tally: dict[str, _Tally], position: dict[str, int]
    ) -> tuple[NormalisationChange, ...]:
        return tuple(
            NormalisationChange(
                raw,
                self.normalised[raw].text,
                self.normalised[raw].reasons,
                counted.count,
                tuple(sorted(counted.items, key=position.__getitem__)),
            )
            for raw, counted in sorted(tally.items())
        )

    def _lemma_changes(self, position: dict[str, int]) -> tuple[LemmaChange, ...]:
        groups: dict[tuple[str, str, str, str], tuple[_Tally, set[str], Action | None]] = {}
        for (text, lexelt), counted in self.lemma_tally.items():
            proposed, result, action = self.lemmas[(text, lexelt)]
            total, lexelts, _ = groups.setdefault(
                (text, proposed, result, action or ""), (_Tally(), set(), action)
            )
            total.count += counted.count
            total.items |= counted.items
            lexelts.add(lexelt)
        return tuple(
            LemmaChange(
                text,
                proposed,
                result,
                action,
                total.count,
                tuple(sorted(total.items, key=position.__getitem__)),
                tuple(sorted(lexelts)),
            )
            for (text, proposed, result, _), (total, lexelts, action) in sorted(groups.items())
        )


def lemmatiser_of(options: CompileOptions) -> Lemmatiser | None:
    """The lemmatiser a compile with ``options`` uses: none when it does not lemmatise,
    the options' own, else the language's (English: LemmInflect)."""
    if not options.lemmatise:
        return None
    if options.lemmatiser is not None:
        return options.lemmatiser
    if options.language == "en":
        return lemminflect_lemmatiser()
    return lemmatiser_for(options.language)


def form_matcher(options: CompileOptions) -> Callable[[str, str], str | None]:
    """The compiler's own rule of what a typed substitute becomes in the gold, as a
    function ``(value, lexelt) -> form``: checked (:func:`~scoring.substitute.check_substitute`),
    normalised and lemmatised with the options' decisions, exactly as :func:`compile_responses`
    does it; None when the rules refuse the value (its response would be left out), ""
    when normalisation empties it. For other languages than English, whose counts fold
    case, compare the forms with ``str.casefold``. Attention checks match answers with it
    (:mod:`annotate.services.checks`)."""
    compiler = _Compiler(options)

    def form(value: str, lexelt: str) -> str | None:
        verdict = compiler.verdict(value, lexelt)
        if isinstance(verdict, InvalidSubstitute):
            return None
        text = compiler.form(value, lexelt, "", plain=False)
        if text != verdict.text and compiler.broken_form(text) is not None:
            return None
        return text

    return form


def compile_responses(
    records: Iterable[Response], options: CompileOptions | None = None
) -> CompiledGold:
    """Compile responses into a gold. Raises :class:`FormatError` listing every
    instance under two lexelts and every annotator who answered an instance twice."""
    compiler = _Compiler(options or CompileOptions())
    for response in records:
        compiler.add(response)
    return compiler.result()
