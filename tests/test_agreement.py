"""Agreement: PA and PA_m (McCarthy & Navigli 2009, section 2.2.2, equations 1 and 2) on the
paper's charge example and hand-computed items, Table 1, per-annotator and leave-one-out
figures, kappas and nominal alpha, with hypothesis properties."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.agreement import (
    AgreementRow,
    agreement_table,
    annotator_agreement,
    cohen_kappa,
    first_substitute_units,
    fleiss_kappa,
    item_mode,
    leave_one_out,
    mode_agreement,
    nominal_alpha,
    pairwise_agreement,
)
from scoring.errors import FormatError
from scoring.formats.annotators import Item, parse_annotators, read_annotators
from scoring.types import Answer


def line(
    annotator: str,
    lexelt: str,
    instance: str,
    subs: list[str],
    kind: str = "",
    multiword: str | None = None,
) -> str:
    kind = kind or ("substitutes" if subs else "nil")
    return json.dumps(
        {
            "annotator": annotator,
            "lexelt": lexelt,
            "instance": instance,
            "kind": kind,
            "substitutes": sorted(subs),
            "multiword": multiword,
        },
        ensure_ascii=False,
    )


def item(lexelt: str, instance: str, answers: dict[str, list[str]]) -> Item:
    return Item(
        lexelt,
        instance,
        tuple(
            Answer(a, "substitutes" if s else "nil", frozenset(s))
            for a, s in sorted(answers.items())
        ),
    )


# McCarthy & Navigli (2009), section 2.2.1 (Fig. 1): the first sentence for charge (n); annotators
# 1-5 gave {control, command}, {control}, {authority}, {power}, {command}.
CHARGE = item(
    "charge.n",
    "1",
    {
        "1": ["control", "command"],
        "2": ["control"],
        "3": ["authority"],
        "4": ["power"],
        "5": ["command"],
    },
)
# Hand-made: four substitute answers and a nil.
HAPPY = item(
    "happy.a",
    "2",
    {"1": ["glad", "merry"], "2": ["glad"], "3": ["cheerful", "glad"], "4": ["merry"], "5": []},
)
# Not in T: one substitute answer and a name.
ALONE = Item(
    "bright.a",
    "3",
    (Answer("1", "substitutes", frozenset({"shiny"})), Answer("2", "name", frozenset())),
)
ITEMS = (CHARGE, HAPPY, ALONE)


# --- reader ---------------------------------------------------------------------------------


def test_reader_groups_lines_into_items(tmp_path: Path) -> None:
    path = tmp_path / "annotators.jsonl"
    path.write_text(
        "\n".join(
            [
                line("2", "happy.a", "2", ["glad"]),
                line("1", "happy.a", "2", ["merry", "glad"], multiword=None),
                line("1", "bright.a", "3", ["shiny"]),
                line("2", "bright.a", "3", [], kind="name"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    (bright, happy) = read_annotators(path)
    assert bright == ALONE
    assert bright.id == "bright.a 3" and bright.pos == "a" and not bright.in_t
    assert happy.responses == (
        Answer("1", "substitutes", frozenset({"glad", "merry"})),
        Answer("2", "substitutes", frozenset({"glad"})),
    )
    assert happy.in_t


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "<a>:1: Expecting property name enclosed in double quotes (each line is one JSON"),
        ("[]", "<a>:1: list is not an object"),
        ('{"annotator": "1"}', "<a>:1: missing lexelt, instance, kind, substitutes, multiword"),
        (line("1", "x.n", "1", ["a"]).replace("}", ', "extra": 1}'), "<a>:1: unknown key extra"),
        (line("1", "x.n", "1", ["a"], kind="guess"), "<a>:1: kind 'guess' is not one of"),
        (line("1", "x.n", "1", ["a"], kind="nil"), "<a>:1: kind 'nil' with 1 substitutes"),
        (line("1", "x.n", "1", [], kind="substitutes"), "<a>:1: kind 'substitutes' with 0"),
        (
            line("1", "x.n", "1", ["a"]).replace('["a"]', '["b", "a"]'),
            "<a>:1: substitutes ['b', 'a'] is not a sorted list without repeats",
        ),
        (line("1", "x", "1", ["a"]), "<a>:1: lexelt 'x' has no PoS"),
        (line("", "x.n", "1", ["a"]), "<a>:1: annotator '' is not a non-empty string"),
        (line("1", "x.n", "1", ["a"], multiword=""), "<a>:1: multiword '' is neither"),
        # the one rule of a valid substitute (scoring.substitute), as the form and compiler
        (
            line("1", "x.n", "1", ["!!!"]),
            "<a>:1: substitute '!!!': has no letter or digit (no letter or digit)",
        ),
        (line("1", "x.n", "1", ["pn"]), "<a>:1: substitute 'pn': 'pn' is reserved"),
        (line("1", "x.n", "1", ["a; b"]), "<a>:1: substitute 'a; b': one substitute per box"),
        (line("1", "x.n", "1", ["a\u0000"]), "<a>:1: substitute 'a\\x00': contains the control"),
    ],
)
def test_reader_errors_name_the_line_and_the_rule(text: str, problem: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_annotators([text], "<a>")
    assert caught.value.problems[0].startswith(problem)


def test_an_empty_file_is_an_error_that_says_so() -> None:
    with pytest.raises(FormatError) as caught:
        parse_annotators([], "empty.jsonl")
    assert caught.value.problems == (
        "empty.jsonl: the file is empty (one JSON object per "
        "line is expected: the annotators.jsonl the compiler "
        "writes)",
    )


def test_reader_reports_every_problem_and_duplicates() -> None:
    lines = [line("1", "x.n", "1", ["a"]), "", line("1", "x.n", "1", ["b"])]
    with pytest.raises(FormatError) as caught:
        parse_annotators(lines, "f.jsonl")
    assert len(caught.value.problems) == 2
    assert caught.value.problems[0].startswith("f.jsonl:2: ")
    assert caught.value.problems[1] == (
        "f.jsonl:3: annotator '1' answers x.n 1 twice (one line per annotator and item)"
    )


# --- PA, equation 1 -------------------------------------------------------------------------


def test_charge_example_pa_is_one_tenth() -> None:
    # 5 non-empty answers, |P_i| = 10. Non-zero pairs: 1-2 {control}/{control, command}
    # = 1/2 and 1-5 {command}/{control, command} = 1/2; the other 8 share nothing.
    # PA = (1/2 + 1/2) / 10 = 1/10.
    assert pairwise_agreement([CHARGE]) == pytest.approx(0.1)
    assert pairwise_agreement([CHARGE], "pooled_2007") == pytest.approx(0.1)


def test_charge_example_has_no_mode() -> None:
    # H_i: control 2, command 2, authority 1, power 1: control and command tie.
    assert item_mode(CHARGE) is None
    result = mode_agreement([CHARGE])
    assert (result.PAm, result.mode_share, result.T, result.Tm) == (None, 0.0, 1, 0)


def test_hand_computed_pa_per_item_and_pooled() -> None:
    # HAPPY: 4 non-empty answers, |P_i| = 6: 1-2 {glad}/{glad, merry} = 1/2,
    # 1-3 {glad}/{glad, merry, cheerful} = 1/3, 1-4 {merry}/{glad, merry} = 1/2,
    # 2-3 {glad}/{cheerful, glad} = 1/2, 2-4 = 0, 3-4 = 0: sum 11/6, mean 11/36.
    assert pairwise_agreement([HAPPY]) == pytest.approx(float(Fraction(11, 36)))
    # Equation 1 over T = {CHARGE, HAPPY} (ALONE is not in T): (1/10 + 11/36) / 2 = 73/360.
    assert pairwise_agreement(ITEMS) == pytest.approx(float(Fraction(73, 360)))
    # McCarthy & Navigli (2007), section 6, pooled: (1 + 11/6) / (10 + 6) = 17/96.
    assert pairwise_agreement(ITEMS, "pooled_2007") == pytest.approx(float(Fraction(17, 96)))


def test_pa_refuses_an_empty_t_and_an_unknown_variant() -> None:
    with pytest.raises(ValueError, match="T is empty"):
        pairwise_agreement([ALONE])
    with pytest.raises(ValueError, match="variant 'mean' is not one of per_item, pooled"):
        pairwise_agreement(ITEMS, "mean")  # type: ignore[arg-type]


# --- PA_m, equation 2 -----------------------------------------------------------------------


def test_hand_computed_pam() -> None:
    # HAPPY: H_i glad 3, merry 2, cheerful 1: m_i = glad. Terms: {glad, merry} 1/2,
    # {glad} 1, {cheerful, glad} 1/2, {merry} 0; |HT_m| = 4: PA_m = 2/4 = 1/2.
    assert item_mode(HAPPY) == "glad"
    result = mode_agreement(ITEMS)
    assert result.PAm == pytest.approx(0.5)
    assert (result.T, result.Tm, result.mode_share) == (2, 1, 0.5)


# --- Table 1 --------------------------------------------------------------------------------


def test_table_one_layout() -> None:
    table = agreement_table(ITEMS)
    assert list(table) == ["n", "v", "a", "r", "all"]
    assert table["n"] == AgreementRow(0.1, None, 1, 0.0)
    assert table["a"] == AgreementRow(approx(11 / 36), 0.5, 1, 1.0)
    assert table["v"] == table["r"] == AgreementRow(None, None, 0, 0.0)
    assert table["all"] == AgreementRow(approx(73 / 360), 0.5, 2, 0.5)


# --- per annotator --------------------------------------------------------------------------


def test_annotator_agreement() -> None:
    result = annotator_agreement(ITEMS)
    assert list(result) == ["1", "2", "3", "4", "5"]
    one = result["1"]
    # CHARGE: against 2, 3, 4, 5: (1/2 + 0 + 0 + 1/2) / 4 = 1/4; HAPPY: against 2, 3, 4:
    # (1/2 + 1/3 + 1/2) / 3 = 4/9; mean (1/4 + 4/9) / 2 = 25/72. Mode: HAPPY only, 1/2.
    assert one.with_others == pytest.approx(25 / 72)
    assert (one.with_mode, one.items, one.mode_items) == (0.5, 2, 1)
    five = result["5"]  # CHARGE {command}: 1/2 with 1, 0 with 2, 3, 4; nil on HAPPY
    assert five.with_others == pytest.approx(1 / 8)
    assert (five.with_mode, five.items, five.mode_items) == (None, 1, 0)


def test_leave_one_out_recomputes_t_and_modes() -> None:
    without = leave_one_out(ITEMS)
    assert list(without) == ["1", "2", "3", "4", "5"]
    row = without["1"]["all"]
    # CHARGE without 1: {control}, {authority}, {power}, {command}: PA 0, no mode.
    # HAPPY without 1: {glad}, {cheerful, glad}, {merry}: (1/2 + 0 + 0) / 3 = 1/6;
    # m_i = glad (2): PA_m (1 + 1/2 + 0) / 3 = 1/2.
    assert row.PA is not None and math.isclose(row.PA, 1 / 12)
    assert (row.PAm, row.T, row.mode_share) == (0.5, 2, 0.5)
    assert without["1"]["n"].PA == 0.0


# --- hypothesis properties ------------------------------------------------------------------

WORDS = st.sampled_from(["a", "b", "c", "d", "e"])
ANSWERS = st.frozensets(WORDS, max_size=3)
ITEM_ANSWERS = st.lists(ANSWERS, min_size=2, max_size=5)


def approx(value: float) -> float:
    """A float that pytest compares approximately (typed as the float it stands for)."""
    return pytest.approx(value)  # type: ignore[return-value]


def build(rows: list[list[frozenset[str]]], names: list[str]) -> list[Item]:
    return [
        Item(
            f"w{n}.{'nvar'[n % 4]}",
            str(n),
            tuple(
                sorted(
                    (Answer(names[k], "substitutes" if s else "nil", s) for k, s in enumerate(row)),
                    key=lambda r: r.annotator,
                )
            ),
        )
        for n, row in enumerate(rows)
    ]


@given(st.lists(ITEM_ANSWERS, min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_permutations_change_no_score(rows: list[list[frozenset[str]]], rng: random.Random) -> None:
    names = [f"ann{k}" for k in range(5)]
    items = build(rows, names)
    shuffled_names = names[:]
    rng.shuffle(shuffled_names)
    other = build(rows, shuffled_names)
    rng.shuffle(other)
    assert agreement_table(items) == agreement_table(other)
    # annotator names[k] in items answers as shuffled_names[k] in other
    assert annotator_agreement(other) == {
        shuffled_names[names.index(k)]: v for k, v in annotator_agreement(items).items()
    }
    assert leave_one_out(other) == {
        shuffled_names[names.index(k)]: v for k, v in leave_one_out(items).items()
    }
    table = agreement_table(items)["all"]
    for value in (table.PA, table.PAm):
        assert value is None or 0 <= value <= 1
    assert 0 <= table.mode_share <= 1


@given(st.lists(ITEM_ANSWERS, min_size=1, max_size=8))
def test_pa_in_unit_interval_and_one_when_all_agree(rows: list[list[frozenset[str]]]) -> None:
    items = build(rows, [f"ann{k}" for k in range(5)])
    if any(i.in_t for i in items):
        for variant in ("per_item", "pooled_2007"):
            assert 0 <= pairwise_agreement(items, variant) <= 1
        same = build([[frozenset({"a"})] * len(r) for r in rows], [f"a{k}" for k in range(5)])
        assert pairwise_agreement(same) == 1.0
        assert mode_agreement(same).PAm == 1.0


# --- kappas -------------------------------------------------------------------------------

# The 10 subjects x 14 raters x 5 categories table of the Wikipedia article "Fleiss'
# kappa" (often attributed to Fleiss 1971; it is not the table printed in that paper,
# which has 30 patients, 6 raters). Reproduced from memory and checked against the
# article's own intermediate figures below: p_j, P_i, P-bar, P-bar_e and kappa.
FLEISS_TABLE = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_fleiss_worked_example() -> None:
    shares = [sum(r[j] for r in FLEISS_TABLE) / 140 for j in range(5)]
    assert [round(p, 3) for p in shares] == [0.143, 0.200, 0.279, 0.150, 0.229]
    p_i = [(sum(c * c for c in r) - 14) / (14 * 13) for r in FLEISS_TABLE]
    assert [round(p, 3) for p in p_i] == [
        1.000,
        0.253,
        0.308,
        0.440,
        0.330,
        0.462,
        0.242,
        0.176,
        0.286,
        0.286,
    ]
    assert round(sum(p_i) / 10, 3) == 0.378
    assert round(sum(p * p for p in shares), 3) == 0.213
    assert round(fleiss_kappa(FLEISS_TABLE), 3) == 0.210


def test_fleiss_hand_cases() -> None:
    # 2 subjects, 2 raters: both agree on each, categories balanced: P-bar 1, P_e 1/2.
    assert fleiss_kappa([[2, 0], [0, 2]]) == 1.0
    # [[1, 1], [1, 1]]: P_i = 0, P_e = 1/2: kappa = -1.
    assert fleiss_kappa([[1, 1], [1, 1]]) == -1.0
    with pytest.raises(ValueError, match="subject 1 has 3 ratings, not 2"):
        fleiss_kappa([[1, 1], [2, 1]])
    with pytest.raises(ValueError, match="P_e = 1"):
        fleiss_kappa([[2, 0], [2, 0]])


def test_cohen_kappa() -> None:
    # 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15: p_o = 35/50 = 0.7;
    # p_e = (25/50)(30/50) + (25/50)(20/50) = 0.3 + 0.2 = 0.5: kappa = 0.2/0.5 = 0.4.
    first = ["yes"] * 25 + ["no"] * 25
    second = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15
    assert cohen_kappa(first, second) == pytest.approx(0.4)
    # Cohen's kappa of two raters equals Fleiss' form only with pooled marginals; with
    # identical marginals they coincide: a b / a b / b a / b b.
    a, b = ["x", "x", "y", "y"], ["x", "y", "x", "y"]
    counts = [[2, 0], [1, 1], [1, 1], [0, 2]]
    assert cohen_kappa(a, b) == pytest.approx(fleiss_kappa(counts)) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="3 labels against 2"):
        cohen_kappa(["a"] * 3, ["a"] * 2)


# --- nominal alpha ------------------------------------------------------------------------


def package_alpha(units: list[list[int | None]]) -> float:
    data = np.array([[np.nan if v is None else v for v in unit] for unit in units]).T
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def test_krippendorff_worked_example() -> None:
    # Krippendorff, "Computing Krippendorff's alpha-reliability" (2011), 4 observers x 12
    # units, nominal alpha = 0.743 (as printed, to three places).
    rows = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = [list(u) for u in zip(*rows, strict=True)]
    assert round(nominal_alpha(units), 3) == 0.743
    assert nominal_alpha(units) == pytest.approx(package_alpha(units), abs=1e-9)


@pytest.mark.parametrize("seed", range(20))
def test_nominal_alpha_matches_the_package(seed: int) -> None:
    rng = random.Random(seed)
    units: list[list[int | None]] = [
        [rng.choice([None, 0, 1, 2, 3][: rng.randint(3, 5)]) for _ in range(rng.randint(2, 5))]
        for _ in range(rng.randint(3, 15))
    ]
    width = max(len(u) for u in units)
    units = [u + [None] * (width - len(u)) for u in units]
    try:
        ours = nominal_alpha(units)
    except ValueError:
        return  # undefined (no pairable values or one value only); the package gives nan
    assert math.isclose(ours, package_alpha(units), abs_tol=1e-9)


def test_first_substitute_units() -> None:
    annotators, units = first_substitute_units([HAPPY, ALONE])
    assert annotators == ["1", "2", "3", "4", "5"]
    assert units == [["glad", "glad", "cheerful", "merry", None], ["shiny", None, None, None, None]]
