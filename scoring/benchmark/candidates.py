"""The candidate-ranking and generation settings shared by the SemEval-2007 and CoInCo
benchmarks, scored as the field's code scores them.

- **Candidate ranking** (Erk & Padó 2010; Thater, Fürstenau & Pinkal 2010; Melamud, Levy &
  Dagan 2015): a system ranks the candidates pooled from the gold of every instance of
  the target; GAP against the gold weights (:func:`scoring.measures.ranking.items.ordered_gap`,
  Kishida's
  formula), averaged over the items whose gold is not empty. Two conventions:
  ``melamud`` (``orenmel/lexsub``, ``jcs/evaluation/lst/lst_gap.py`` and
  ``GeneralizedAveragePrecision.calc``) and ``lexsubgen`` (``Samsung/LexSubGen``,
  ``lexsubgen/metrics/candidate_ranking_metrics.py``: ``gap`` and ``gap_normalized``).
- **Generation** (LexSubGen, ``all_word_ranking_metrics.compute_precision_recall_f1_topk``):
  P@k, R@k and F1@k for k = 1, 3, 10 of the system's top substitutes against the gold list
  (P@1, P@3 and R@10 are the figures usually reported; LexSubGen's evaluation computes all
  nine).

What the two codebases do with each kind of gold entry, and what we do, is in
docs/benchmarks.md; each choice is tested in
``tests/test_benchmark_semeval07.py``. In short: every gold line is an item (items
outside T too), ``pn`` is a gold substitute like any other, a gold substitute written
twice keeps its last count (Melamud also counts both entries in the ideal ranking), a
candidate ranked twice counts at each place, ties keep the file order, and multiword
entries are kept (``--mwe drop`` is Melamud's ``no-mwe``; LexSubGen's ``gap_normalized``
keeps only ``[A-Za-z]+``). Under ``--matching raw`` (the default: the benchmark's own
figures) strings are compared exactly as the chosen codebase compares them. Under
``--matching fixed`` a candidate meets a gold key through the one normaliser
(:func:`scoring.terms.answer_key`, whose form :func:`scoring.terms.gold_key` gives the
keys): keys that coincide are summed and a candidate is kept once, at its first place,
as in :mod:`scoring.measures.ranking.items`.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypedDict, get_args

from scoring.benchmark import Report
from scoring.errors import FormatError
from scoring.files.bounded import read_text
from scoring.formats.ranked import RankingLine, Scored, as_ranking, parse_ranking
from scoring.formats.system import read_system
from scoring.formats.text import read_lines
from scoring.leaderboard.rows import detect_kind
from scoring.measures.ranking.items import normalised, ordered_gap, rank_order
from scoring.signature import signature
from scoring.terms import gold_key
from scoring.types import Count

Convention = Literal["melamud", "lexsubgen"]
Matching = Literal["fixed", "raw"]
Setting = Literal["ranking", "generation"]
SystemFormat = Literal["auto", "ranked", "best", "oot"]

GENERATION_K = (1, 3, 10)
"""LexSubGen's ``k_list``: the k of its generation figures."""
GENERATION_METRICS = tuple(f"{name}@{k}" for k in GENERATION_K for name in ("prec", "rec", "f1"))
"""The generation figures, LexSubGen's names in its order: prec@1, rec@1, f1@1, prec@3, …."""

LEXSUBGEN_WORD = re.compile(r"^[A-Za-z]+$")
"""LexSubGen's ``WORD_PAT_RE``: the gold substitutes and candidates ``gap_normalized``
keeps (one ASCII word: no space, hyphen, apostrophe or digit)."""

_CORRECTED_POS = re.compile(r"(.+\.[nvar])\.[nvar]")


@dataclass(frozen=True, slots=True)
class BenchmarkItem:
    """One gold item: its lexelt (what a system line must name), id, and the gold entries
    as the data writes them (file order, ``pn`` included, whitespace kept), where
    ``where`` locates it for messages."""

    lexelt: str
    id: str
    entries: tuple[tuple[str, Count], ...]
    """Counts of annotators, or decimal weights (SemDis 2014) as the fixed gold reads."""
    where: str = ""

    @property
    def target(self) -> str:
        """The target whose candidates are pooled: the lexelt without a corrected PoS
        (``bar.n.v`` → ``bar.n``), as Melamud's ``extract_lst_candidates.py`` has it
        (without cutting a lemma that holds a dot)."""
        corrected = _CORRECTED_POS.fullmatch(self.lexelt)
        return corrected.group(1) if corrected else self.lexelt


SystemItem = RankingLine
"""One system line: the item it names and its scored candidates as given, with its line
number (a best or oot line as :func:`scoring.formats.ranked.as_ranking` ranks it)."""


@dataclass(frozen=True, slots=True)
class Options:
    """Every setting that changes a figure (each is in the signature)."""

    setting: Setting = "ranking"
    convention: Convention = "melamud"
    matching: Matching = "raw"
    drop_multiword: bool = False
    """Melamud's ``no-mwe``: multiword gold entries and candidates left out (ranking,
    melamud convention only)."""


@dataclass(frozen=True, slots=True)
class GoldView:
    """A gold item as a convention scores it: ``weights`` key → count (> 0), ``ideal``
    the ideal ranking's weights (None: the weights sorted, Kishida's), ``keys`` the
    gold list generation's recall divides by."""

    weights: dict[str, float]
    ideal: tuple[float, ...] | None
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Scores:
    """A system's figures (percentages), the per-item values behind them (id → metric →
    value, None where undefined) and what the reader should know."""

    metrics: dict[str, float]
    items: dict[str, dict[str, float | None]]
    notes: tuple[str, ...] = field(default=())


# --- the gold and the candidates as each convention reads them ---------------------------


def is_multiword(term: str, convention: Convention) -> bool:
    """Melamud's test (``lst_gap.py``: a space or a hyphen in the term, so a trailing
    space counts) or LexSubGen's (not ``[A-Za-z]+``)."""
    if convention == "melamud":
        return len(term.split(" ")) > 1 or len(term.split("-")) > 1
    return LEXSUBGEN_WORD.match(term) is None


def key_of(substitute: str, convention: Convention, matching: Matching) -> str:
    """A gold substitute in the form candidates are matched against: the one normaliser
    (``fixed``), or as the codebase reads it (``raw``): Melamud keeps everything before
    the last space of the entry (``garden  1`` → ``garden ``), LexSubGen strips it."""
    if matching == "fixed":
        return gold_key(substitute, "fixed")
    return substitute if convention == "melamud" else substitute.strip()


def gold_view(item: BenchmarkItem, convention: Convention, options: Options) -> GoldView:
    """The gold weights, ideal ranking and gold list of one item under ``convention``."""
    pairs = [(key_of(s, convention, options.matching), float(c)) for s, c in item.entries]
    if options.drop_multiword:
        pairs = [(key, count) for key, count in pairs if not is_multiword(key, convention)]
    if options.matching == "fixed":  # our rule: keys that coincide are summed
        summed: dict[str, float] = {}
        for key, count in pairs:
            summed[key] = summed.get(key, 0.0) + count
        ideal = None if convention == "melamud" else tuple(summed.values())
        return GoldView(summed, ideal, tuple(summed))
    weights = dict(pairs)  # both codebases: a repeated key keeps its last count
    if convention == "melamud":  # ... but every entry counts in Melamud's ideal ranking
        ideal = tuple(sorted((count for _, count in pairs), reverse=True))
    else:  # LexSubGen: the dict's values in the order the keys first came
        ideal = tuple(weights.values())
    return GoldView(weights, ideal, tuple(key for key, _ in pairs))


def ranked(candidates: Sequence[Scored], matching: Matching) -> list[str]:
    """The candidates best first. ``fixed``: :func:`scoring.measures.ranking.items.rank_order` on
    the
    normalised candidates (each once, at its first place); ``raw``: a stable sort by score
    (ties in the order given, as Python's ``sorted(..., reverse=True)`` in both
    codebases), every occurrence kept."""
    if matching == "fixed":
        return [item.candidate for item in rank_order(normalised(candidates, "fixed"))]
    order = sorted(range(len(candidates)), key=lambda i: (-candidates[i].score, i))
    return [candidates[i].candidate for i in order]


def item_gap(view: GoldView, order: Sequence[str], only_words: Convention | None) -> float | None:
    """One item's GAP, None when its gold is empty (Melamud's -1, LexSubGen's None: left
    out of the mean); ``only_words`` drops that convention's multiword candidates."""
    if only_words is not None:
        order = [term for term in order if not is_multiword(term, only_words)]
    if not view.weights:
        return None
    return float(ordered_gap(view.weights, order, view.ideal).value)


def item_generation(view: GoldView, order: Sequence[str]) -> dict[str, float]:
    """LexSubGen's figures of one item for each k of :data:`GENERATION_K`: P@k = |top k ∩
    gold| / |top k|, R@k = |top k ∩ gold| / |gold list| (each 0 when there is nothing to
    divide by) and F1@k = 2 P R / (P + R) (0 when P or R is 0), as its
    ``_precision_recall_f1_from_tp_tpfp_tpfn``; a candidate given twice counts twice. The
    benchmark's F1@k is the mean of these per-item F1s (LexSubGen's), not the F1 of the
    mean P and R."""
    golds = set(view.keys)
    values: dict[str, float] = {}
    for k in GENERATION_K:
        top = order[:k]
        hits = sum(term in golds for term in top)
        precision = hits / len(top) if top else 0.0
        recall = hits / len(view.keys) if view.keys else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision and recall else 0.0
        values[f"prec@{k}"], values[f"rec@{k}"], values[f"f1@{k}"] = precision, recall, f1
    return values


# --- the system file ---------------------------------------------------------------------


def read_system_items(path: str | Path, form: SystemFormat = "auto") -> dict[str, SystemItem]:
    """A ranked-candidates file (``LEXELT ID :::: SCORE CAND;…``, docs/ranking.md), or a
    best (``::``) or oot (``:::``) file whose guesses rank in file order
    (:func:`scoring.formats.ranked.as_ranking`), read by the project's strict readers; ``auto``
    tells them apart by the first line naming an item."""
    kind = detect_kind(read_text(path, perl=True), str(path)) if form == "auto" else form
    if kind == "ranked":
        return {line.id: line for line in parse_ranking(read_lines(path), str(path))}
    if kind not in ("best", "oot"):
        raise ValueError(f"{path}: a {kind} file cannot rank candidates (best, oot or ranked)")
    return {
        line.id: RankingLine(line.lexelt, line.id, as_ranking(line.answers), line.line)
        for line in read_system(path, kind)
    }


def check_lexelts(
    items: Sequence[BenchmarkItem], system: Mapping[str, SystemItem], name: str
) -> None:
    """Refuse a system line whose id is a gold item's but whose lexelt is not (Melamud's
    code keys items by ``LEXELT ID`` and would not find it)."""
    problems = [
        f"{name}:{system[item.id].line}: lexelt {system[item.id].lexelt!r} of id "
        f"{item.id} is not the data's {item.lexelt!r} (a line names its item as the data does)"
        for item in items
        if item.id in system and system[item.id].lexelt != item.lexelt
    ]
    if problems:
        raise FormatError(problems)


# --- pools, scores, signature ------------------------------------------------------------


def pools(items: Sequence[BenchmarkItem], options: Options) -> dict[str, tuple[str, ...]]:
    """Each target's pooled candidates: every gold substitute of its items, in the form
    matched (``pn`` included, as Melamud's pool has it), each once, in first-seen order."""
    convention = options.convention
    pooled: dict[str, dict[str, None]] = {}
    for item in items:
        view = gold_view(item, convention, options)
        pooled.setdefault(item.target, {}).update(dict.fromkeys(view.weights))
    return {target: tuple(keys) for target, keys in pooled.items()}


def format_pools(pooled: Mapping[str, Sequence[str]]) -> str:
    """Melamud's candidates file (``datasets/lst.gold.candidates``): ``TARGET::C1;C2;…``,
    one target a line, targets sorted."""
    return "".join(f"{target}::{';'.join(pooled[target])}\n" for target in sorted(pooled))


def _mean(values: Sequence[float | None]) -> float:
    defined = [value for value in values if value is not None]
    return math.fsum(defined) / len(defined) * 100 if defined else 0.0


def score(
    items: Sequence[BenchmarkItem], system: Mapping[str, SystemItem], options: Options
) -> Scores:
    """Every figure of ``options.setting`` for ``system`` on ``items``: the mean over the
    items (percentages), GAP over the items whose gold is not empty, P and R over all.
    An item the system has no line for ranks nothing (GAP, P and R 0)."""
    per_item: dict[str, dict[str, float | None]] = {}
    outside_pool = 0
    pooled = pools(items, options) if options.setting == "ranking" else {}
    for item in items:
        line = system.get(item.id)
        order = ranked(line.candidates, options.matching) if line else []
        if options.setting == "generation":
            view = gold_view(item, "lexsubgen", Options(matching=options.matching))
            per_item[item.id] = dict(item_generation(view, order))
            continue
        if set(order) - set(pooled[item.target]):
            outside_pool += 1
        if options.convention == "melamud":
            view = gold_view(item, "melamud", options)
            words: Convention | None = "melamud" if options.drop_multiword else None
            per_item[item.id] = {"gap": item_gap(view, order, words)}
        else:
            everything = gold_view(item, "lexsubgen", Options(matching=options.matching))
            only_words = Options(matching=options.matching, drop_multiword=True)
            per_item[item.id] = {
                "gap": item_gap(everything, order, None),
                "gap_normalized": item_gap(
                    gold_view(item, "lexsubgen", only_words), order, "lexsubgen"
                ),
            }
    names = list(next(iter(per_item.values()), {}))
    metrics = {name: _mean([values[name] for values in per_item.values()]) for name in names}
    return Scores(metrics, per_item, _notes(items, system, options, outside_pool, per_item))


def _notes(
    items: Sequence[BenchmarkItem],
    system: Mapping[str, SystemItem],
    options: Options,
    outside_pool: int,
    per_item: Mapping[str, Mapping[str, float | None]],
) -> tuple[str, ...]:
    ids = {item.id for item in items}
    missing = len(ids - system.keys())
    extra = len(system.keys() - ids)
    notes = [f"{len(items)} items (every gold line, items outside T included)"]
    if missing:
        notes.append(
            f"{missing} items have no system line and score 0 (Melamud's lst_gap.py stops "
            "with a KeyError on them)"
        )
    if extra:
        notes.append(f"{extra} system ids are not items of the data and are ignored")
    undefined = sum(1 for row in per_item.values() if row.get("gap", 0) is None)
    if undefined:
        notes.append(f"{undefined} items have no gold substitute left and are not averaged")
    if outside_pool:
        notes.append(
            f"{outside_pool} items rank candidates outside their target's pooled candidates"
            " (the candidate-ranking setting ranks the pool; such candidates weigh 0)"
        )
    if options.setting == "generation":
        short = sum(
            1 for item in items if len(system[item.id].candidates if item.id in system else ()) < 10
        )
        if short:
            notes.append(
                f"{short} items have fewer than 10 substitutes: P@k divides by the number "
                "given (LexSubGen's formula; LexSubGen itself refuses such a system)"
            )
    return tuple(notes)


def benchmark_signature(benchmark: str, options: Options, source: str) -> str:
    """Every setting that fixes the figures, in :func:`scoring.signature.signature`'s form."""
    settings: list[tuple[str, object]] = []
    if options.setting == "ranking":
        settings.append(("convention", options.convention))
        if options.convention == "melamud":
            settings.append(("mwe", "drop" if options.drop_multiword else "keep"))
    else:
        settings.append(("convention", "lexsubgen"))
    settings += [
        ("matching", options.matching),
        ("items", "every-gold-line"),
        ("pn", "substitute"),
        ("ties", "file-order"),
        ("data", source),
    ]
    return signature(f"{benchmark}.{options.setting}", *settings)


def add_options(parser: argparse.ArgumentParser) -> None:
    """The options both benchmarks share."""
    parser.add_argument(
        "--setting",
        choices=get_args(Setting),
        default="ranking",
        help="ranking: GAP over the pooled candidates (default); generation: P@k, R@k, F1@k "
        "for k = 1, 3, 10",
    )
    parser.add_argument(
        "--convention",
        choices=get_args(Convention),
        default="melamud",
        help="whose GAP: Melamud's lst_gap.py (default) or LexSubGen's gap and gap_normalized",
    )
    parser.add_argument(
        "--matching",
        choices=get_args(Matching),
        default="raw",
        help="raw: exact strings, as the chosen codebase compares them (default: its own "
        "figures); fixed: candidates meet gold keys through the one normaliser",
    )
    parser.add_argument(
        "--mwe",
        choices=("keep", "drop"),
        default="keep",
        help="Melamud's convention: keep multiword entries (default) or drop them "
        "(lst_gap.py's no-mwe)",
    )
    parser.add_argument(
        "--system-format",
        choices=get_args(SystemFormat),
        default="auto",
        help="ranked (LEXELT ID :::: SCORE CAND;...), best or oot; auto by the first line",
    )
    parser.add_argument(
        "--pool-out",
        metavar="FILE",
        help="also write each target's pooled candidates (TARGET::C1;C2;...) to FILE",
    )


def options_of(args: argparse.Namespace) -> Options:
    """The :class:`Options` of parsed arguments (see :func:`add_options` and
    :func:`make_options`)."""
    return make_options(args.setting, args.convention, args.matching, args.mwe)


def make_options(
    setting: Setting = "ranking",
    convention: Convention = "melamud",
    matching: Matching = "raw",
    mwe: Literal["keep", "drop"] = "keep",
) -> Options:
    """The :class:`Options` of the settings :func:`add_options` names; ValueError for
    ``mwe="drop"`` outside Melamud's ranking (LexSubGen reports both GAPs itself, and its
    generation figures keep every gold substitute)."""
    options = Options(setting, convention, matching, mwe == "drop")
    if options.drop_multiword and (options.setting, options.convention) != ("ranking", "melamud"):
        raise ValueError(
            "--mwe drop is Melamud's no-mwe: it applies to --setting ranking with "
            "--convention melamud only"
        )
    return options


class CandidateOptions(TypedDict, total=False):
    """The keywords of :func:`evaluate_items` after its system file, which each candidate
    benchmark's ``evaluate_files`` passes on: the command's options (:func:`add_options`)."""

    setting: Setting
    convention: Convention
    matching: Matching
    mwe: Literal["keep", "drop"]
    system_format: SystemFormat
    pool_out: str | Path | None


def evaluate_items(
    benchmark: str,
    items: Sequence[BenchmarkItem],
    source: str,
    system: str | Path,
    *,
    setting: Setting = "ranking",
    convention: Convention = "melamud",
    matching: Matching = "raw",
    mwe: Literal["keep", "drop"] = "keep",
    system_format: SystemFormat = "auto",
    pool_out: str | Path | None = None,
) -> Report:
    """The report of the system file at ``system`` on a benchmark's ``items`` (once its
    data is read; ``source`` names the data's form in the signature), under the settings
    of :func:`add_options` (keyword for keyword); with ``pool_out``, each target's pooled
    candidates are written to that file too."""
    options = make_options(setting, convention, matching, mwe)
    answers = read_system_items(system, system_format)
    check_lexelts(items, answers, str(system))
    if pool_out:
        Path(pool_out).write_text(format_pools(pools(items, options)), encoding="utf-8")
    scores = score(items, answers, options)
    return Report(
        benchmark, scores.metrics, benchmark_signature(benchmark, options, source), scores.notes
    )


def option_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`evaluate_items` (and of each candidate benchmark's
    ``evaluate_files``) that parsed arguments give (:func:`add_options`)."""
    return {
        "setting": args.setting,
        "convention": args.convention,
        "matching": args.matching,
        "mwe": args.mwe,
        "system_format": args.system_format,
        "pool_out": args.pool_out,
    }
