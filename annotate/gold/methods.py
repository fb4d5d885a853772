"""The methods paragraph: a study's figures as papers report them, in Markdown or LaTeX.

Pure: :func:`study_figures` takes the compiled gold (:class:`CompiledGold`) and the
agreement report of its ``annotators.jsonl`` (:func:`scoring.agreement.report.report`, the
one the agreement page and ``lexsub agreement`` print) and keeps the figures a
paper gives; :func:`methods_text` writes them. Nothing is computed here that those two do
not compute: PA (McCarthy & Navigli 2009, eq. 1) and PA_m (eq. 2) with the report's
bootstrap intervals over lemmas, and Krippendorff's alpha (Krippendorff 2011) with MASI
distance (Passonneau 2006) with its interval over the same resamples.

``lexsub report`` and the organiser's methods page call :func:`methods_text`, so the
text is the same.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from annotate.gold.compiler import CompiledGold
from annotate.gold.model_annotators import ModelComparison
from scoring.agreement.report import AgreementReport
from scoring.formats.exclusions import Excluded
from scoring.significance import MIN_CLUSTERS

Format = Literal["markdown", "latex"]
FORMATS: tuple[Format, ...] = ("markdown", "latex")

T_RULE_TEXT = {
    "annotators": "substitutes from at least two annotators",
    "responses": "at least two substitute responses",
}


@dataclass(frozen=True, slots=True)
class CheckScore:
    """One participant's attention checks: how many of their check items they answered
    with an accepted substitute, of how many they answered."""

    annotator: str
    passed: int
    answered: int


@dataclass(frozen=True)
class StudyFigures:
    """What the methods paragraph reports."""

    dataset: str
    language: str
    annotators: int
    excluded: tuple[Excluded, ...]
    items: int
    lemmas: int
    responses: int
    substitutes: int
    """Distinct substitutes summed over the items (the entries of the gold lines, ``pn`` not
    counted)."""
    t_rule: str
    in_t: int
    agreement_t: int
    pa: float | None
    pa_interval: tuple[float, float] | None
    pam: float | None
    pam_interval: tuple[float, float] | None
    mode_share: float
    alpha_masi: float | None
    alpha_masi_interval: tuple[float, float] | None
    resamples: int | None
    seed: int | None
    confidence: float | None
    gold_signature: str
    agreement_signature: str
    checks: tuple[CheckScore, ...] | None = None
    """None: the study has no attention checks (or they are not recorded)."""


def _interval(
    intervals: Mapping[str, list[float] | None] | None, name: str
) -> tuple[float, float] | None:
    found = intervals.get(name) if intervals else None
    return (found[0], found[1]) if found else None


def study_figures(
    dataset: str,
    gold: CompiledGold,
    agreement: AgreementReport,
    checks: Sequence[CheckScore] | None = None,
) -> StudyFigures:
    """The figures of a compiled gold and its agreement report (``checks``: each
    participant's attention checks, None when the study has none)."""
    everything = agreement.pos["all"]
    intervals = everything.intervals
    resampling = agreement.resampling
    return StudyFigures(
        dataset=dataset,
        language=gold.language,
        annotators=len(gold.annotators),
        excluded=gold.excluded,
        items=len(gold.items),
        lemmas=len({item.lexelt for item in gold.items}),
        responses=gold.responses,
        substitutes=sum(len(item.counts) for item in gold.items),
        t_rule=gold.signature.t_rule,
        in_t=len(gold.in_t),
        agreement_t=everything.row.T,
        pa=everything.row.PA,
        pa_interval=_interval(intervals, "PA"),
        pam=everything.row.PAm,
        pam_interval=_interval(intervals, "PAm"),
        mode_share=everything.row.mode_share,
        alpha_masi=everything.alpha.get("masi"),
        alpha_masi_interval=_interval(everything.alpha_intervals, "masi"),
        resamples=resampling.resamples if resampling else None,
        seed=resampling.seed if resampling else None,
        confidence=resampling.confidence if resampling else None,
        gold_signature=gold.signature.text,
        agreement_signature=agreement.signature,
        checks=tuple(checks) if checks is not None else None,
    )


@dataclass(frozen=True)
class _Markup:
    percent: str
    dash: str
    pam: str
    alpha: str
    heading: str
    code: str
    amp: str

    def escape(self, text: str) -> str:
        """``text`` (a dataset's name, a reason) as the format shows it literally."""
        return _MARKDOWN_ENTITY.sub(r"\\&", text.translate(_MARKDOWN_SPECIAL))

    def code_text(self, text: str) -> str:
        """``text`` inside :attr:`code` (a Markdown code span is literal already)."""
        return text


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>#|~"})
"""What Markdown would read as markup (emphasis, a link, a code span, HTML, a heading, a
table), each escaped with a backslash (CommonMark's backslash escapes)."""
_MARKDOWN_ENTITY = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
"""An ``&`` that would start an entity (``&amp;``)."""

_LATEX_SPECIAL = str.maketrans(
    {
        "\\": r"\textbackslash{}",
        "&": r"\&",
        "%": r"\%",
        "$": r"\$",
        "#": r"\#",
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}",
    }
)


class _Latex(_Markup):
    def escape(self, text: str) -> str:
        return text.translate(_LATEX_SPECIAL)

    def code_text(self, text: str) -> str:
        return self.escape(text)


MARKUP: dict[Format, _Markup] = {
    "markdown": _Markup("%", "\N{EN DASH}", "PAm", "alpha", "**{}.**", "`{}`", "&"),
    "latex": _Latex(
        r"\%", "--", "PA$_m$", r"$\alpha$", r"\paragraph{{{}}}", r"\texttt{{{}}}", r"\&"
    ),
}

_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def in_words(count: int) -> str | None:
    """``count`` in English words, 0 to 999 (None past that).

    >>> in_words(1), in_words(21), in_words(300), in_words(115), in_words(1000)
    ('one', 'twenty-one', 'three hundred', 'one hundred and fifteen', None)
    """
    if not 0 <= count < 1000:
        return None
    if count < 20:
        return _ONES[count]
    if count < 100:
        tens, ones = divmod(count, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(count, 100)
    words = f"{_ONES[hundreds]} hundred"
    return f"{words} and {in_words(rest)}" if rest else words


def _number(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _opening(count: int, one: str, many: str) -> str:
    """``count`` things at the start of a sentence: in words, capitalised ("One
    annotator", "Twelve annotators"); past 999 "A total of 1,234 annotators"."""
    noun = one if count == 1 else many
    words = in_words(count)
    if words is None:
        return f"A total of {count:,} {noun}"
    return f"{words[0].upper()}{words[1:]} {noun}"


def language_name(code: str) -> str:
    """The English name of the language ``code`` (an ISO 639 code: "en" → "English"); the
    code itself when the name is not known."""
    try:
        from babel import Locale, UnknownLocaleError

        name = Locale.parse(code.replace("-", "_")).get_display_name("en")
    except (ImportError, ValueError, UnknownLocaleError):
        return code
    return name or code


def _percent(value: float | None, markup: _Markup) -> str:
    return "undefined" if value is None else f"{100 * value:.2f}{markup.percent}"


def _with_interval(
    value: float | None, interval: tuple[float, float] | None, figures: StudyFigures, m: _Markup
) -> str:
    text = _percent(value, m)
    if value is None or interval is None or figures.confidence is None:
        return text
    low, high = (f"{100 * bound:.2f}" for bound in interval)
    return f"{text} ({100 * figures.confidence:g}{m.percent} CI {low}{m.dash}{high})"


def _alpha_with_interval(figures: StudyFigures, m: _Markup) -> str:
    if figures.alpha_masi is None:
        return "undefined"
    text = f"{figures.alpha_masi:.3f}"
    if figures.alpha_masi_interval is None or figures.confidence is None:
        return text
    low, high = (f"{bound:.3f}" for bound in figures.alpha_masi_interval)
    return f"{text} ({100 * figures.confidence:g}{m.percent} CI {low}{m.dash}{high})"


NO_ANSWERS = "There are no answers yet."
"""The paragraph's text while nobody has answered (nothing to report)."""


def methods_warnings(figures: StudyFigures) -> list[str]:
    """What a reader of the paragraph should know about its figures, stated beside it (the
    page, the command's standard error), never inside it: intervals from fewer than
    :data:`MIN_CLUSTERS` target words are unreliable."""
    warnings = []
    if figures.responses and figures.resamples is not None and figures.lemmas < MIN_CLUSTERS:
        warnings.append(
            f"The intervals are resampled from "
            f"{_number(figures.lemmas, 'target word', 'target words')}: with fewer than "
            f"{MIN_CLUSTERS} they are unreliable."
        )
    return warnings


def methods_text(figures: StudyFigures, format: Format = "markdown") -> str:
    """The methods paragraph (and a line of signatures) in ``format``, ending in a newline:
    a number that starts a sentence in words, annotators by the names ``figures`` gives
    (pseudonyms, :mod:`annotate.services.pseudonyms`), the language by name; while nobody
    has answered, :data:`NO_ANSWERS`."""
    m = MARKUP[format]
    e = m.escape
    heading = m.heading.format(e(f"Annotation of {figures.dataset}"))
    if not figures.responses:
        return f"{heading} {NO_ANSWERS}\n"
    per_item = figures.responses / figures.items if figures.items else 0.0
    substitutes = figures.substitutes / figures.items if figures.items else 0.0
    sentences = [
        f"{_opening(figures.annotators, 'annotator', 'annotators')} gave "
        f"{_number(figures.responses, 'response', 'responses')} in "
        f"{e(language_name(figures.language))} to "
        f"{_number(figures.items, 'item', 'items')} of "
        f"{_number(figures.lemmas, 'target word', 'target words')}: "
        f"{per_item:.2f} responses and {substitutes:.2f} distinct substitutes per item."
    ]
    if figures.excluded:
        left = "; ".join(
            f"{e(row.annotator)} ({e(row.reason)}, "
            f"{_number(row.responses, 'response', 'responses')})"
            for row in figures.excluded
        )
        sentences.append(
            f"{_opening(len(figures.excluded), 'annotator was', 'annotators were')} "
            f"left out: {left}."
        )
    share = figures.in_t / figures.items if figures.items else None
    sentences.append(
        f"T, the items with {T_RULE_TEXT.get(figures.t_rule, figures.t_rule)}, holds "
        f"{_number(figures.in_t, 'item', 'items')} ({_percent(share, m)} of the items)."
    )
    resampling = ""
    if figures.resamples is not None:
        resampling = (
            f"; intervals from {figures.resamples} bootstrap resamples of lemmas, "
            f"seed {figures.seed}"
        )
    of_t = "the item of T" if figures.agreement_t == 1 else f"the {figures.agreement_t} items of T"
    sentences.append(
        f"Pairwise agreement (PA; McCarthy {m.amp} Navigli 2009, eq. 1) over {of_t} is "
        f"{_with_interval(figures.pa, figures.pa_interval, figures, m)}, and agreement with "
        f"the mode ({m.pam}, eq. 2) is "
        f"{_with_interval(figures.pam, figures.pam_interval, figures, m)}, "
        f"{_percent(figures.mode_share, m)} of the items of T having a mode{resampling}."
    )
    sentences.append(
        f"Krippendorff's {m.alpha} with MASI distance is {_alpha_with_interval(figures, m)}."
    )
    if figures.checks:
        rates = [c.passed / c.answered for c in figures.checks if c.answered]
        if rates:
            sentences.append(
                f"On the attention checks, the {_number(len(rates), 'participant', 'participants')}"
                f" answered {_percent(sum(rates) / len(rates), m)} correctly on average "
                f"(lowest {_percent(min(rates), m)})."
            )
    signatures = (
        f"Signatures: gold {m.code.format(m.code_text(figures.gold_signature))}; "
        f"agreement {m.code.format(m.code_text(figures.agreement_signature))}."
    )
    return f"{heading} {' '.join(sentences)}\n\n{signatures}\n"


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}"


def models_text(comparisons: Sequence[ModelComparison], format: Format = "markdown") -> str:
    """The model annotators beside the people, as ``lexsub report`` prints it after the
    methods paragraph (never inside it: the paragraph reports people): per model its PA
    and PA_m against the human gold, a row per person left out (their PA with the rest,
    the model's with the same rest: :func:`annotate.gold.model_annotators.compare_model`)
    and the summary line; '' when no model answered.

    >>> from annotate.gold.model_annotators import compare_models
    >>> from scoring.formats.annotators import Item
    >>> from scoring.types import Answer as A
    >>> item = Item("w.n", "1", (A("A1", "substitutes", frozenset({"a"})),
    ...                          A("A2", "substitutes", frozenset({"a", "b"})),
    ...                          A("llm:m", "substitutes", frozenset({"a"}))))
    >>> print(models_text(compare_models([item])), end="")
    <BLANKLINE>
    **Models beside the annotators.**
    <BLANKLINE>
    llm:m: PA 75.00, PAm 100.00 against the human gold (1 items of T, 1 of T_m).
    <BLANKLINE>
    | Left out | Items | Person's PA with the rest | Model's PA with the rest |
    |---|---|---|---|
    | A1 | 1 | 50.00 | 50.00 |
    | A2 | 1 | 50.00 | 100.00 |
    <BLANKLINE>
    llm:m agrees with the rest as well as 2 of 2 people.
    """
    if not comparisons:
        return ""
    markup = MARKUP[format]
    latex = format == "latex"
    tm = "$T_m$" if latex else "T_m"
    lines = ["", markup.heading.format("Models beside the annotators")]
    header = ("Left out", "Items", "Person's PA with the rest", "Model's PA with the rest")
    for found in comparisons:
        model = markup.escape(found.model)
        lines += [
            "",
            f"{model}: PA {_figure(found.PA)}, {markup.pam} {_figure(found.PAm)} against "
            f"the human gold ({found.items} items of T, {found.mode_items} of {tm}).",
            "",
        ]
        rows = [
            (
                markup.escape(row.person),
                str(row.items),
                _figure(row.person_PA),
                _figure(row.model_PA),
            )
            for row in found.people
        ]
        if latex:
            lines += ["\\begin{tabular}{lrrr}", " & ".join(header) + " \\\\", "\\hline"]
            lines += [" & ".join(row) + " \\\\" for row in rows]
            lines += ["\\end{tabular}"]
        else:
            lines += ["| " + " | ".join(header) + " |", "|---|---|---|---|"]
            lines += ["| " + " | ".join(row) + " |" for row in rows]
        summary = found.summary.replace(found.model, model, 1)
        lines += ["", summary + "."]
    return "\n".join(lines) + "\n"
