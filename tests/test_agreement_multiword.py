"""Multiword agreement (McCarthy & Navigli 2007, section 6): detection and identification,
per item and pooled, with nominal alpha and per-annotator figures, on hand-computed
items read from ``annotators.jsonl`` lines, and hypothesis properties."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.agreement import MultiwordAgreement, annotator_multiword, multiword_agreement
from scoring.agreement.multiword import AnnotatorMultiword, PairAgreement, pair_list
from scoring.formats.annotators import Item, parse_annotators
from scoring.types import Answer


def line(
    annotator: str,
    instance: str,
    multiword: str | None,
    kind: str = "substitutes",
    lexelt: str = "take.v",
) -> str:
    subs = ["x"] if kind == "substitutes" else []
    return json.dumps(
        {
            "annotator": annotator,
            "lexelt": lexelt,
            "instance": instance,
            "kind": kind,
            "substitutes": subs,
            "multiword": multiword,
        }
    )


# X: 1 and 2 "take off", 3 "take up", 4 none. Y: 1, 2, 3 none. Z: 1 "pick up" (a name
# answer: the tick is independent of the kind), 2 "pick up". W: 1 alone, "take in".
ITEMS = parse_annotators(
    [
        line("1", "X", "take off"),
        line("2", "X", "take off"),
        line("3", "X", "take up"),
        line("4", "X", None, kind="nil"),
        line("1", "Y", None),
        line("2", "Y", None),
        line("3", "Y", None),
        line("1", "Z", "pick up", kind="name"),
        line("2", "Z", "pick up"),
        line("1", "W", "take in"),
    ]
)


def f(numerator: int, denominator: int) -> float:
    return float(Fraction(numerator, denominator))


def approx(value: float) -> float:
    """A float that pytest compares approximately (typed as the float it stands for)."""
    return pytest.approx(value, abs=1e-12)  # type: ignore[return-value]


def test_hand_computed_detection_and_identification() -> None:
    result = multiword_agreement(ITEMS)
    # Detection pairs: X C(4, 2) = 6, agreeing C(3, 2) + C(1, 2) = 3; Y 3 of 3; Z 1 of 1;
    # W has no pair. Per item (3/6 + 1 + 1) / 3 = 5/6; pooled (3 + 3 + 1) / 10 = 7/10.
    assert result.detection == PairAgreement(approx(f(5, 6)), f(7, 10), 3, 10, 7)
    # Identification pairs (both marked): X C(3, 2) = 3, agreeing 1 (1-2); Z 1 of 1.
    # Per item (1/3 + 1) / 2 = 2/3; pooled 2/4 = 1/2.
    assert result.identification == PairAgreement(approx(f(2, 3)), 0.5, 2, 4, 2)
    # Detection alpha, units X (3 marked, 1 not), Y (0, 3), Z (2, 0): n = 9, marked 5,
    # not 4; within units X (16 - 9 - 1) / 3 = 2, Y and Z 0;
    # alpha = 1 - (9 - 1) · 2 / (81 - 25 - 16) = 1 - 16/40 = 3/5.
    assert result.detection_alpha == approx(0.6)
    # Identification alpha, units X (take off 2, take up 1), Z (pick up 2): n = 5;
    # within X (9 - 4 - 1) / 2 = 2; alpha = 1 - 4 · 2 / (25 - 4 - 1 - 4) = 1/2.
    assert result.identification_alpha == approx(0.5)
    assert (result.responses, result.marked) == (10, 6)


def test_pair_list_spells_out_the_counts() -> None:
    x = next(i for i in ITEMS if i.instance == "X")
    assert pair_list(x) == [
        ("1", "2", True, True),
        ("1", "3", True, False),
        ("1", "4", False, None),
        ("2", "3", True, False),
        ("2", "4", False, None),
        ("3", "4", False, None),
    ]


def test_per_annotator() -> None:
    result = annotator_multiword(ITEMS)
    assert list(result) == ["1", "2", "3", "4"]
    # 1: detection X 2 of 3 others alike (2, 3 marked; 4 not), Y 2 of 2, Z 1 of 1:
    # (2/3 + 1 + 1) / 3 = 8/9 over 3 items (W has no other). Identification X: of the
    # others who marked (2 take off, 3 take up) 1 of 2; Z 1 of 1: (1/2 + 1) / 2 = 3/4.
    assert result["1"] == AnnotatorMultiword(approx(f(8, 9)), 0.75, 3, 2, 3, 4)
    # 3: X 2 of 3 (1, 2 marked), Y 1: 5/6; identification X 0 of 2.
    assert result["3"] == AnnotatorMultiword(approx(f(5, 6)), 0.0, 2, 1, 1, 2)
    # 4: X 0 of 3; never marked.
    assert result["4"] == AnnotatorMultiword(0.0, None, 1, 0, 0, 1)


def test_no_pairs_gives_none_not_nan() -> None:
    alone = parse_annotators([line("1", "A", "take off"), line("2", "B", None)])
    assert multiword_agreement(alone) == MultiwordAgreement(
        PairAgreement(None, None, 0, 0, 0), PairAgreement(None, None, 0, 0, 0), None, None, 2, 1
    )
    # everyone marks the same string: raw agreement 1, alpha undefined (one value only)
    same = parse_annotators([line(a, "A", "take off") for a in "12"])
    result = multiword_agreement(same)
    assert result.detection.pooled == result.identification.pooled == 1.0
    assert result.detection_alpha is None and result.identification_alpha is None


# --- hypothesis -----------------------------------------------------------------------------

MARK = st.one_of(st.none(), st.sampled_from(["take off", "take up", "take in"]))


def build(rows: list[list[str | None]], names: list[str]) -> list[Item]:
    return [
        Item(
            "take.v",
            str(n),
            tuple(
                sorted(
                    (Answer(names[k], "nil", frozenset(), mark) for k, mark in enumerate(row)),
                    key=lambda r: r.annotator,
                )
            ),
        )
        for n, row in enumerate(rows)
    ]


@given(
    st.lists(st.lists(MARK, min_size=1, max_size=5), min_size=1, max_size=8),
    st.randoms(use_true_random=False),
)
def test_counts_match_the_pairs_and_no_order_matters(
    rows: list[list[str | None]], rng: random.Random
) -> None:
    names = [f"a{k}" for k in range(5)]
    items = build(rows, names)
    result = multiword_agreement(items)
    pairs = [p for one in items for p in pair_list(one)]
    assert result.detection.pairs == len(pairs)
    assert result.detection.agreeing == sum(1 for p in pairs if p[2])
    assert result.identification.pairs == sum(1 for p in pairs if p[3] is not None)
    assert result.identification.agreeing == sum(1 for p in pairs if p[3])
    assert result.marked == sum(1 for row in rows for m in row if m is not None)
    shuffled_names = rng.sample(names, len(names))
    other = build(rows, shuffled_names)
    rng.shuffle(other)
    assert multiword_agreement(other) == result
    assert annotator_multiword(other) == {
        shuffled_names[names.index(k)]: v for k, v in annotator_multiword(items).items()
    }
    for value in (result.detection.per_item, result.identification.pooled):
        assert value is None or 0 <= value <= 1
