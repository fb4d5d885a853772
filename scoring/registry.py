"""The registry of measures: every figure lexsub
reports comes from a measure registered here once (:data:`MEASURES`), in the manner of
sacrebleu's ``Metric`` (:class:`scoring.measures.quotient.Measure`: ``name``, ``family``,
``kinds``, ``columns``, ``corpus(sums)`` vectorised, ``figure(sums)``).

The registry is a table: it lists the measures each family module of
:mod:`scoring.measures` defines, and which families score each kind of leaderboard file
(:data:`FAMILIES`). It calls nothing of theirs, and they import nothing of it.

- the leaderboard's measures (:data:`LEADERBOARD`, in the order the leaderboard reports
  them), each ``Σ numerator / Σ denominator`` of two columns of one family
  (:mod:`scoring.measures.official.family`, :mod:`~scoring.measures.revised.family`,
  :mod:`~scoring.measures.ranking.family`). The drop-in scorer (:mod:`scoring.score.cli`) prints
  the official ones, ``best.*`` and ``oot.*``, from the same columns summed in the system
  file's order (:attr:`scoring.measures.official.items.OfficialScores.sums`), as score.pl sums them;
- mw detection and identification (:mod:`scoring.measures.multiword.family`, ``mw.*``);
- SWORDS' figures (:mod:`scoring.measures.swords.family`, ``swords.*``), F-scores of
  pooled counts and means of items' GAP.

The leaderboard's measures, told apart by the first answer line of a system file
(:func:`scoring.leaderboard.rows.detect_kind`):

============  ==========================================================================
best          best.P/R/mode_P/mode_R (score.pl, McCarthy & Navigli 2007, eq. 1-4), new_best.P/R,
              best_1.P/R (Jabbari et al. 2010)
oot           oot.P/R/mode_P/mode_R (eq. 5-8), weighted_recall.P/R,
              weighted_precision.P/R (penalty k), rank.P/R (Jabbari et al. 2010), and the ranking
              measures with the file's order as the ranking
ranked        the ranking measures: gap, ap, auc, p_at_1, p_at_10, r_at_10
============  ==========================================================================

``.P`` divides by the items attempted, ``.R`` by all gold items (McCarthy & Navigli 2007, section
4). The official measures read the guesses score.pl's scan scored (under the gold's rules),
the others each item's first answer line under the measures' reading
(:mod:`scoring.leaderboard.rows`). Each family's exact route (Fractions) is the test oracle of its
bulk route, for every registered measure (``tests/test_measures.py``).

The figures that are not sums of item columns are listed in :data:`FIGURES`, a table of
:class:`Figure` rows (name, family, kind, description, reference, function): the agreement
measures of :mod:`scoring.agreement` (``family="agreement"``, their names as the agreement
report gives them), and each benchmark's figures (``family="benchmark"``, named
``BENCHMARK.FIGURE``, ``FIGURE`` as the benchmark's own code names it; SWORDS' are the
``swords.*`` measures above). A row names its function as ``module:attribute``, imported
only by :meth:`Figure.load`: the registry imports none of them.

This module and the family modules import no numpy (the scorer reads them); the mw and
SWORDS families are imported when :data:`MEASURES` or a measure of theirs is first asked
for (a best or oot run of the scorer needs neither).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from scoring.measures.official import family as official
from scoring.measures.quotient import Family, Measure, Ratio
from scoring.measures.ranking import family as ranking
from scoring.measures.revised import family as revised
from scoring.types import SystemKind

if TYPE_CHECKING:
    from scoring.measures.official.items import OfficialScores

LEADERBOARD_KINDS: frozenset[SystemKind] = frozenset(("best", "oot", "ranked"))
"""The kinds of system file the leaderboard scores (a SWORDS result as ranked)."""

FAMILIES: dict[SystemKind, tuple[Family, ...]] = {
    "best": (official.BEST, revised.BEST),
    "oot": (official.OOT, revised.OOT, ranking.RANKING),
    "ranked": (ranking.RANKING,),
}
"""The families that score each kind of leaderboard file."""

LEADERBOARD: tuple[Ratio, ...] = (
    *official.BEST_MEASURES,
    *revised.BEST_MEASURES,
    *official.OOT_MEASURES,
    *revised.OOT_MEASURES,
    *ranking.MEASURES,
)
"""The leaderboard's measures, in the order it reports them."""


def _registry(*families: Sequence[Measure]) -> dict[str, Measure]:
    registry: dict[str, Measure] = {}
    for family in families:
        for measure in family:
            if measure.name in registry:
                raise ValueError(f"measure {measure.name!r} is registered twice")
            registry[measure.name] = measure
    return registry


MEASURES: dict[str, Measure]
"""Every measure, registered once: the leaderboard's, then mw's, then SWORDS' (built when
first read)."""
LEADERBOARD_BY_NAME: dict[str, Ratio] = {measure.name: measure for measure in LEADERBOARD}
"""The leaderboard's measures by name (each with its signature, :meth:`Ratio.signature`)."""


@cache
def _measures() -> dict[str, Measure]:
    from scoring.measures.multiword.family import MULTIWORD
    from scoring.measures.swords.family import SWORDS

    return _registry(LEADERBOARD, MULTIWORD, SWORDS)


def __getattr__(name: str) -> object:
    """:data:`MEASURES`, the registry, built on first reading (PEP 562)."""
    if name == "MEASURES":
        return _measures()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def measure_def(name: str, kinds: frozenset[SystemKind] | None = None) -> Measure:
    """The registered measure called ``name`` (one that applies to one of ``kinds``, when
    given); ValueError naming the known ones."""
    measures = _measures()
    measure = measures.get(name)
    if measure is None or (kinds is not None and not measure.kinds & kinds):
        known = [m.name for m in measures.values() if kinds is None or m.kinds & kinds]
        raise ValueError(f"unknown measure {name!r}; measures are: {', '.join(known)}")
    return measure


def leaderboard_measures() -> list[str]:
    """The names of the measures the leaderboard reports, in its order."""
    return [measure.name for measure in LEADERBOARD]


def figure(name: str, sums: Mapping[str, float]) -> float | None:
    """Measure ``name``'s figure from column sums by column name; None where its last
    denominator is 0.

    >>> figure("best.P", {"score": 1.5, "attempted": 2}), figure("oot.mode_R", {
    ...     "mode_correct": 0, "has_mode": 0})
    (0.75, None)
    """
    measure = LEADERBOARD_BY_NAME.get(name) or _measures()[name]
    return measure.figure([sums[column] for column in measure.columns()])


def official_figure(scores: OfficialScores, name: str) -> float | None:
    """The registered measure ``TASK.NAME`` of a scan's sums (``P``, ``R``, ``mode_P``,
    ``mode_R`` of best or oot, as score.pl prints them); None where its denominator is 0."""
    return figure(f"{scores.measure}.{name}", scores.sums)


# --- agreement measures and benchmark figures ---------------------------------------------


class Figure(NamedTuple):
    """A registered figure that is not a ratio of item columns: ``name`` as reports give
    it, ``family`` (``agreement`` or ``benchmark``), ``kind`` (for agreement the data it
    reads: ``sets`` of substitutes, ``labels``, ``ratings``, ``multiwords``,
    ``judgements``; for a benchmark its name), a one-line ``description``, the
    ``reference`` that defines it (author and year, docs/references.md), and the
    ``function`` that computes it as ``module:attribute`` with its keyword ``options``."""

    name: str
    family: str
    kind: str
    description: str
    reference: str
    function: str
    options: tuple[tuple[str, str], ...] = ()

    def load(self) -> Callable[..., object]:
        """The function, imported now, with :attr:`options` bound."""
        module, _, attribute = self.function.partition(":")
        function: Callable[..., object] = getattr(import_module(module), attribute)
        return partial(function, **dict(self.options)) if self.options else function


_AGREE = "scoring.agreement"


def _agreement(
    name: str, kind: str, description: str, reference: str, function: str, **options: str
) -> Figure:
    return Figure(name, "agreement", kind, description, reference, function, tuple(options.items()))


AGREEMENT: tuple[Figure, ...] = (
    _agreement(
        "PA",
        "sets",
        "pairwise agreement, the mean over items of T of the mean Jaccard overlap of each pair"
        " of answer sets",
        "McCarthy & Navigli 2009, eq. 1",
        f"{_AGREE}:pairwise_agreement",
        variant="per_item",
    ),
    _agreement(
        "PAm",
        "sets",
        "agreement with the mode, the share of the answers of items with a mode that hold it",
        "McCarthy & Navigli 2009, eq. 2",
        f"{_AGREE}:mode_agreement",
    ),
    _agreement(
        "mode_share",
        "sets",
        "the share of the items of T that have a mode",
        "McCarthy & Navigli 2009, Table 1",
        f"{_AGREE}:mode_agreement",
    ),
    _agreement(
        "alpha.nominal_first",
        "sets",
        "Krippendorff's alpha, nominal, on each annotator's first substitute (alphabetical)",
        "Krippendorff 2011",
        f"{_AGREE}.alpha:nominal_alpha",
    ),
    _agreement(
        "alpha.indicator",
        "sets",
        "Krippendorff's alpha, nominal, on 'gave s' per item and substitute s",
        "Krippendorff 2011",
        f"{_AGREE}.alpha:indicator_alpha",
    ),
    _agreement(
        "alpha.masi",
        "sets",
        "Krippendorff's alpha with the MASI distance between answer sets",
        "Passonneau 2006",
        f"{_AGREE}.alpha:masi_alpha",
    ),
    _agreement(
        "multivalued_alpha",
        "sets",
        "multi-valued alpha, each annotator's answer set one value, chance sets drawn from"
        " the pooled substitutes",
        "Krippendorff & Craggs 2016",
        f"{_AGREE}.multivalued:substitute_multivalued_alpha",
    ),
    _agreement(
        "annotator.with_others",
        "sets",
        "per annotator, the mean pairwise agreement of their answers with the others'",
        "McCarthy & Navigli 2009, eq. 1",
        f"{_AGREE}:annotator_agreement",
    ),
    _agreement(
        "annotator.with_mode",
        "sets",
        "per annotator, the share of their answers to items with a mode that hold it",
        "McCarthy & Navigli 2009, eq. 2",
        f"{_AGREE}:annotator_agreement",
    ),
    _agreement(
        "multiword.detection",
        "multiwords",
        "pairs of annotators who agree whether the target is part of a multiword",
        "McCarthy & Navigli 2007, section 6",
        f"{_AGREE}.multiword:multiword_agreement",
    ),
    _agreement(
        "multiword.identification",
        "multiwords",
        "pairs of annotators who both marked a multiword and wrote the same one",
        "McCarthy & Navigli 2007, section 6",
        f"{_AGREE}.multiword:multiword_agreement",
    ),
    _agreement(
        "cohen_kappa",
        "labels",
        "Cohen's kappa of two annotators' labels",
        "Cohen 1960",
        f"{_AGREE}:cohen_kappa",
    ),
    _agreement(
        "fleiss_kappa",
        "labels",
        "Fleiss' kappa of units with the same number of labels each",
        "Fleiss 1971",
        f"{_AGREE}:fleiss_kappa",
    ),
    _agreement(
        "alpha.nominal",
        "labels",
        "Krippendorff's alpha for nominal labels, missing values allowed",
        "Krippendorff 2011",
        f"{_AGREE}.alpha:nominal_alpha",
    ),
    _agreement(
        "alpha.ordinal",
        "labels",
        "Krippendorff's alpha for ordinal labels, from a units x values table",
        "Krippendorff 2011",
        f"{_AGREE}.alpha:ordinal_alpha",
    ),
    _agreement(
        "swords.fleiss_kappa",
        "judgements",
        "Fleiss' kappa of SWORDS' three-way labels, generalised to units with different numbers"
        " of labels",
        "Lee et al. 2021",
        f"{_AGREE}.swords:generalised_fleiss_kappa",
    ),
    _agreement(
        "swords.alpha",
        "judgements",
        "Krippendorff's alpha of SWORDS' labels, three-way and binary, per number of raters",
        "Lee et al. 2021",
        f"{_AGREE}.swords:swords_agreement",
    ),
    _agreement(
        "weighted_kappa.linear",
        "ratings",
        "Cohen's weighted kappa of two annotators' ratings, disagreement |i - j| on the ranks",
        "Cohen 1968",
        f"{_AGREE}.weighted_kappa:weighted_kappa",
        weighting="linear",
    ),
    _agreement(
        "weighted_kappa.quadratic",
        "ratings",
        "Cohen's weighted kappa of two annotators' ratings, disagreement (i - j)² on the ranks",
        "Cohen 1968",
        f"{_AGREE}.weighted_kappa:weighted_kappa",
        weighting="quadratic",
    ),
    _agreement(
        "alpha.interval",
        "ratings",
        "Krippendorff's alpha for interval ratings, δ² = (c - k)²",
        "Krippendorff 2011",
        f"{_AGREE}.metric_alpha:interval_alpha",
    ),
    _agreement(
        "alpha.ratio",
        "ratings",
        "Krippendorff's alpha for ratio ratings, δ² = ((c - k) / (c + k))²",
        "Krippendorff 2011",
        f"{_AGREE}.metric_alpha:ratio_alpha",
    ),
    _agreement(
        "complexity.alpha.ordinal",
        "ratings",
        "Krippendorff's alpha of a complexity study's 1-5 ratings, ordinal level",
        "Krippendorff 2011",
        f"{_AGREE}.ratings:rating_alpha",
        level="ordinal",
    ),
    _agreement(
        "complexity.alpha.interval",
        "ratings",
        "Krippendorff's alpha of a complexity study's 1-5 ratings, interval level",
        "Krippendorff 2011",
        f"{_AGREE}.ratings:rating_alpha",
        level="interval",
    ),
)
"""The agreement measures: the report's (``sets``, ``multiwords``) in its order, then those
for labels, SWORDS' judgements and ratings."""

_CANDIDATES = "scoring.benchmark.candidates"
_GENERATION = {
    "prec": "precision at {k}, the share of the top {k} substitutes in the gold list",
    "rec": "recall at {k}, the share of the gold list among the top {k} substitutes",
    "f1": "F1 at {k}, the mean over items of the F1 of P@{k} and R@{k}",
}


def _benchmark(
    benchmark: str, name: str, description: str, reference: str, function: str
) -> Figure:
    return Figure(f"{benchmark}.{name}", "benchmark", benchmark, description, reference, function)


def _pooled(benchmark: str) -> tuple[Figure, ...]:
    """The figures of a benchmark scored by :mod:`scoring.benchmark.candidates`."""
    return (
        _benchmark(
            benchmark,
            "gap",
            "GAP of the pooled candidates' ranking, mean over items (Melamud's or LexSubGen's"
            " convention)",
            "Melamud et al. 2015",
            f"{_CANDIDATES}:item_gap",
        ),
        _benchmark(
            benchmark,
            "gap_normalized",
            "LexSubGen's GAP with gold and candidates cut to single ASCII words",
            "LexSubGen",
            f"{_CANDIDATES}:item_gap",
        ),
        *(
            _benchmark(
                benchmark,
                f"{name}@{k}",
                description.format(k=k),
                "LexSubGen",
                f"{_CANDIDATES}:item_generation",
            )
            for k in (1, 3, 10)
            for name, description in _GENERATION.items()
        ),
    )


def _score_pl(benchmark: str, reference: str, llm: bool = False) -> tuple[Figure, ...]:
    """score.pl's four figures, in percent, under a benchmark's names (``llm``: precision
    and recall are also Evalita-LLM's under ``-t llm-f1``)."""
    function = "scoring.benchmark.scorepl:official_figures"
    also = "; with -t llm-f1 Evalita-LLM's"
    return tuple(
        _benchmark(
            benchmark,
            name,
            f"score.pl's {name} (best or oot{also if llm and ' ' not in name else ''}), in percent",
            reference,
            function,
        )
        for name in ("precision", "recall", "mode precision", "mode recall")
    )


_TSAR = "scoring.benchmark.tsar:score"
_LCP = "scoring.benchmark.lcp:score"
_MLSP = "scoring.benchmark.mlsp"

_TSAR_FIGURES: tuple[Figure, ...] = (
    _benchmark(
        "tsar",
        "MAP@1/Potential@1/Precision@1",
        "the share of lines whose first prediction is a gold substitute",
        "Saggion et al. 2022",
        _TSAR,
    ),
    *(
        _benchmark(
            "tsar",
            f"MAP@{k}",
            f"mean over lines of the precision of each gold hit among the first {k} predictions,"
            f" summed and divided by {k}",
            "Saggion et al. 2022",
            _TSAR,
        )
        for k in (3, 5, 10)
    ),
    *(
        _benchmark(
            "tsar",
            f"Potential@{k}",
            f"the share of lines with a gold substitute among the first {k} predictions",
            "Saggion et al. 2022",
            _TSAR,
        )
        for k in (3, 5, 10)
    ),
    *(
        _benchmark(
            "tsar",
            f"Accuracy@{n}@top_gold_1",
            f"the share of lines whose first {n} predictions hold the most frequent gold"
            " substitute",
            "Saggion et al. 2022",
            _TSAR,
        )
        for n in (1, 2, 3)
    ),
)

_LCP_FIGURES: tuple[Figure, ...] = (
    _benchmark(
        "lcp",
        "pearson",
        "Pearson's correlation of predictions and gold",
        "Shardlow et al. 2021",
        _LCP,
    ),
    _benchmark(
        "lcp",
        "spearman",
        "Spearman's rank correlation of predictions and gold",
        "Shardlow et al. 2021",
        _LCP,
    ),
    _benchmark("lcp", "mae", "mean absolute error", "Shardlow et al. 2021", _LCP),
    _benchmark("lcp", "mse", "mean squared error", "Shardlow et al. 2021", _LCP),
    _benchmark("lcp", "r2", "coefficient of determination R²", "Shardlow et al. 2021", _LCP),
)

BENCHMARK: tuple[Figure, ...] = (
    *_pooled("semeval07"),
    *_pooled("coinco"),
    *_score_pl("germeval", "GermEval 2015"),
    _benchmark(
        "germeval",
        "GAP",
        "GAP of the candidates as written, mean over the gold items, in percent",
        "Kishida 2005",
        "scoring.benchmark.germeval:gap_figure",
    ),
    *_score_pl("evalita", "Toral 2009", llm=True),
    _benchmark(
        "evalita",
        "F1",
        "Evalita-LLM's F1 of a model's ten comma-separated substitutes, in percent (-t llm-f1)",
        "Magnini et al. 2025",
        "scoring.benchmark.evalita:llm_f1",
    ),
    *_TSAR_FIGURES,
    *_LCP_FIGURES,
    *(
        _benchmark(
            "mlsp",
            figure.name.removeprefix("tsar."),
            figure.description,
            "Shardlow et al. 2024",
            f"{_MLSP}:score_ls",
        )
        for figure in _TSAR_FIGURES
    ),
    *(
        _benchmark(
            "mlsp",
            figure.name.removeprefix("lcp."),
            figure.description,
            "Shardlow et al. 2024",
            f"{_MLSP}:score_lcp",
        )
        for figure in _LCP_FIGURES
    ),
)
"""Each benchmark's figures as ``BENCHMARK.FIGURE`` (SWORDS': the ``swords.*`` measures)."""

FIGURES: dict[str, Figure] = {}
for _figure in (*AGREEMENT, *BENCHMARK):
    if _figure.name in FIGURES or _figure.name in LEADERBOARD_BY_NAME:
        raise ValueError(f"figure {_figure.name!r} is registered twice")
    FIGURES[_figure.name] = _figure
"""Every agreement measure and benchmark figure by name, registered once."""


def figures_of(family: str, kind: str | None = None) -> list[Figure]:
    """The registered figures of ``family`` (and ``kind``, when given), in table order."""
    return [f for f in FIGURES.values() if f.family == family and kind in (None, f.kind)]


def benchmark_figures(benchmark: str) -> list[tuple[str, str]]:
    """``benchmark``'s figures as (name as its report gives it, description), in table
    order; SWORDS' are its registered ``swords.*`` measures."""
    if benchmark == "swords":
        return [
            (name.removeprefix("swords."), measure.description)
            for name, measure in _measures().items()
            if name.startswith("swords.")
        ]
    prefix = f"{benchmark}."
    return [
        (f.name.removeprefix(prefix), f.description) for f in figures_of("benchmark", benchmark)
    ]


def benchmark_figure_names(benchmark: str) -> list[str]:
    """The names of ``benchmark``'s figures as its report gives them."""
    return [name for name, _ in benchmark_figures(benchmark)]


def listing(pairs: Sequence[tuple[str, str]]) -> str:
    """``NAME: DESCRIPTION; …`` for a command's ``--help``.

    >>> listing([("PA", "pairwise agreement"), ("PAm", "mode agreement")])
    'PA: pairwise agreement; PAm: mode agreement'
    """
    return "; ".join(f"{name}: {description}" for name, description in pairs)
