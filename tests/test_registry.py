"""Every registered measure (scoring.registry.MEASURES): its family's exact route
(Fractions) equals its bulk route (the floats every command reports), item by item and
column by column, and the figure the library reports equals the exact figure. The test
is parametrised over the registry itself, so a measure added to a family is checked
without a line here; a new family needs its hand-made case in :data:`CASES` (the test
fails until it has one). The cases: golds with tied counts (no mode), multiword
substitutes, an item outside T; systems that skip items, give empty answers, repeat a
guess, give more than ten guesses, tie ranked candidates, name an id the gold lacks."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np
import pytest

from scoring.benchmark.swords import target_gold
from scoring.formats.gold import read_gold, read_mwgold_lines
from scoring.formats.ranked import Scored
from scoring.leaderboard.rows import (
    Answers,
    SystemRows,
    detect_kind,
    gold_items,
    read_answers,
    score_files,
)
from scoring.measures.multiword.family import COLUMNS as MW_COLUMNS
from scoring.measures.multiword.family import MultiwordItem
from scoring.measures.multiword.family import exact_row as mw_exact_row
from scoring.measures.multiword.family import row as mw_row
from scoring.measures.multiword.items import MultiwordScores, score_multiwords
from scoring.measures.quotient import Family, Measure
from scoring.measures.swords.family import COLUMNS as SWORDS_COLUMNS
from scoring.measures.swords.family import exact_row as swords_exact_row
from scoring.measures.swords.family import row as swords_row
from scoring.registry import FAMILIES, MEASURES
from scoring.types import Rules
from tests import test_measures


@dataclass(frozen=True)
class Scenario:
    """One hand-made case: each item's columns by the exact route and by the bulk route
    (by column name), and the figure the library reports for a measure (None where its
    denominator is 0)."""

    name: str
    exact: Sequence[Mapping[str, Fraction]]
    bulk: Sequence[dict[str, float]]
    reported: Callable[[Measure], float | None]


GOLD = [
    "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;",
    "bright.a 2 :: smart 2;intelligent 1;brilliant 1;",
    "bright.a 3 :: shiny 2;luminous 2;",  # tied counts: no mode
    "run.v 4 :: run-down 2;sprint 1;",  # a hyphenated multiword
    "run.v 5 :: well-known 3;famous 1;",
    "take.v 6 :: take part 2;join 2;participate 1;",  # a multiword, tied
    "odd.a 7 :: strange 1;",  # one response: not in T
]
SYSTEMS = {
    "s.best": (
        "happy.a 1 :: Glad;cheerful\n"
        "bright.a 2 :: dull\n"  # bright.a 3 skipped
        "run.v 4 :: \n"  # empty: compat scores the previous line's guesses, stale
        "run.v 5 :: well known;famous;famous\n"
        "take.v 6 :: take part\n"
        "odd.a 7 :: strange\n"
    ),
    "s.oot": (
        "happy.a 1 ::: cheerful;glad;glad;cheerful\n"  # repeats
        "bright.a 3 ::: a;b;c;d;e;f;g;h;i;j;luminous;shiny\n"  # past ten
        "run.v 4 ::: run-down;sprint\n"
        "run.v 5 ::: \n"
        "take.v 6 ::: join;take part;participate\n"
    ),
    "s.ranked": (
        "happy.a 1 :::: 0.9 merry;0.5 glad;0.9 x\n"  # a tie
        "bright.a 2 :::: 0.8 smart;0.7 dull;0.1 brilliant\n"
        "run.v 4 :::: 2 run-down;1 sprint;3 run-down\n"  # a repeat
        "take.v 6 :::: 1 join;1 take part;1 nothing\n"  # all tied
        "not.n 9 :::: 1 a\n"  # not a gold item
    ),
}
K = Fraction(1, 2)


def _value(rows: SystemRows, measure: Measure) -> float | None:
    return rows.value(measure.name)


def _mw_figure(scores: MultiwordScores, measure: Measure) -> float | None:
    return scores.figure(measure.name.removeprefix("mw."))


def _leaderboard(family: Family) -> Iterator[Scenario]:
    """Every hand-made system of a kind ``family`` scores, under each rule set, and with
    the measures' reading apart from the gold's."""
    readings: tuple[tuple[Rules, Rules], ...] = (
        ("compat", "compat"),
        ("fixed", "fixed"),
        ("compat", "fixed"),
    )
    for rules, reading_rules in readings:
        gold = read_gold(GOLD, rules)
        reading = read_gold(GOLD, reading_rules)
        items = gold_items(gold, reading)
        for name, text in SYSTEMS.items():
            kind = detect_kind(text, name)
            if family not in FAMILIES[kind]:
                continue
            rows = score_files(gold, [(name, text)], float(K), reading=reading)[0]
            answers = read_answers(gold, text, name, kind, reading)
            exact = [family.exact(item, answers.get(item.id, Answers()), K) for item in items]
            bulk = [
                {column: float(rows.columns[column][j]) for column in family.columns}
                for j in range(len(items))
            ]
            yield Scenario(f"{name} {rules}/{reading_rules}", exact, bulk, partial(_value, rows))


MW_GOLD = [*test_measures.MW_GOLD, "set.v 5 :: set up 3;"]  # set.v 5: skipped by the system
MW_SYSTEM = test_measures.MW_SYSTEM
MW_ANSWERS = {"1": "take  place", "2": "", "3": "bar off", "4": "a b", "5": None, "9": "x"}
"""Each id's answer as score.pl reads it (its first line; None: no line)."""


def _multiword() -> Iterator[Scenario]:
    modes, _total = read_mwgold_lines(MW_GOLD, "g", [])
    rule_sets: tuple[Rules, ...] = ("compat", "fixed")
    for rule in rule_sets:
        items = [(MultiwordItem(modes.get(i), rule), answer) for i, answer in MW_ANSWERS.items()]
        exact = [mw_exact_row(item, answer) for item, answer in items]
        bulk = [dict(zip(MW_COLUMNS, mw_row(*one), strict=True)) for one in items]
        scores = score_multiwords(MW_GOLD, MW_SYSTEM, "s", "g", rule)
        yield Scenario(f"mw {rule}", exact, bulk, partial(_mw_figure, scores))


def _pooled_figure(sums: Mapping[str, float], measure: Measure) -> float | None:
    return measure.figure([sums[column] for column in measure.columns()])


def _swords() -> Iterator[Scenario]:
    t, f = "TRUE", "FALSE"
    targets = [
        (
            target_gold({"smart": [t, t, f], "clever": [t, f, f, f, f], "dull": [f, f]}),
            [Scored("zebra", 0.9), Scored("clever", 0.8), Scored("smart", 0.5)],
        ),
        (target_gold({"cloak": [t, t]}), []),  # left out by the system
        (
            target_gold({"take part": [t, t, t], "join": [t, f], "enter": [f, f]}),
            [Scored("join", 1.0), Scored("take part", 1.0), Scored("enter", 0.5)],  # a tie
        ),
    ]
    exact = [swords_exact_row(target, ranked) for target, ranked in targets]
    rows = [swords_row(target, ranked) for target, ranked in targets]
    bulk = [dict(zip(SWORDS_COLUMNS, found, strict=True)) for found in rows]
    # each column summed by numpy, as scoring.benchmark.swords sums them
    sums = dict(zip(SWORDS_COLUMNS, np.array(rows).T.copy().sum(axis=1).tolist(), strict=True))
    yield Scenario("swords", exact, bulk, partial(_pooled_figure, sums))


def _family(name: str) -> Family:
    return next(f for families in FAMILIES.values() for f in families if f.name == name)


CASES: dict[str, Callable[[], Iterator[Scenario]]] = {
    **{
        family.name: partial(_leaderboard, family)
        for families in FAMILIES.values()
        for family in families
    },
    "mw": _multiword,
    "swords": _swords,
}
"""The hand-made scenarios of each family, by family name."""


@pytest.mark.parametrize("name", list(MEASURES))
def test_every_registered_measure_exact_equals_bulk(name: str) -> None:
    measure = MEASURES[name]
    assert measure.family in CASES, f"{name}: no hand-made case for family {measure.family}"
    columns = measure.columns()
    credited = defined = 0
    for scenario in CASES[measure.family]():
        assert len(scenario.exact) == len(scenario.bulk)
        for exact, bulk in zip(scenario.exact, scenario.bulk, strict=True):
            for column in columns:
                assert bulk[column] == pytest.approx(float(exact[column]), rel=1e-12, abs=1e-15), (
                    scenario.name,
                    column,
                )
        sums = [sum((row[column] for row in scenario.exact), Fraction(0)) for column in columns]
        expected = measure.figure([float(value) for value in sums])
        reported = scenario.reported(measure)
        if expected is None:
            assert reported is None, scenario.name
        else:
            assert reported == pytest.approx(expected, rel=1e-12, abs=1e-15), scenario.name
            defined += 1
        credited += sums[0] != 0
    # no measure passes on zeros alone: some case credits it and defines its figure
    assert credited and defined, name


def test_every_family_of_the_registry_has_a_case_and_its_columns_by_name() -> None:
    assert {measure.family for measure in MEASURES.values()} == set(CASES)
    for families in FAMILIES.values():
        for family in families:
            assert family is _family(family.name)
            assert len(set(family.columns)) == len(family.columns), family.name
