"""SWORDS judgement agreement (Lee et al. 2021, release v1.1): the reader on a hand-made
file, Fleiss' kappa and Krippendorff's alpha on hand-computed counts, and the figures of
the real dev and test sets (docs/agreement.md) held by three implementations of alpha."""

from __future__ import annotations

import gzip
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scoring.agreement import alpha_from_counts, fleiss_kappa, nominal_alpha
from scoring.agreement.alpha import package_alpha
from scoring.agreement.swords import (
    SwordsAgreement,
    generalised_fleiss_kappa,
    label_counts,
    swords_agreement,
)
from scoring.errors import FormatError
from scoring.formats.swords import Swords, parse_swords, read_swords
from tests.conftest import shared_path

T, F, U = "TRUE", "FALSE", "UNSURE"
LABELS = {"s:1": [T, T, F], "s:2": [F, F, F], "s:3": [T, U, F], "s:4": [T] * 8 + [F] * 2}


def tiny() -> dict[str, Any]:
    """Two targets in one context, four substitutes, in the layout of the release."""
    return {
        "contexts": {"c:1": {"context": "She took off the coat.", "extra": {}}},
        "targets": {
            "t:1": {"context_id": "c:1", "target": "took", "offset": 4, "pos": "VERB"},
            "t:2": {"context_id": "c:1", "target": "coat", "offset": 17, "pos": "NOUN"},
        },
        "substitutes": {
            "s:1": {"target_id": "t:1", "substitute": "removed"},
            "s:2": {"target_id": "t:1", "substitute": "grabbed"},
            "s:3": {"target_id": "t:1", "substitute": "shed"},
            "s:4": {"target_id": "t:2", "substitute": "jacket"},
        },
        "substitutes_lemmatized": True,
        "substitute_labels": {sid: list(labels) for sid, labels in LABELS.items()},
    }


def test_reader(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(tiny(), handle)
    data = read_swords(path)
    assert (data.contexts, data.targets) == (1, 2)
    assert [(s.id, s.target_id, s.substitute) for s in data.substitutes] == [
        ("s:1", "t:1", "removed"),
        ("s:2", "t:1", "grabbed"),
        ("s:3", "t:1", "shed"),
        ("s:4", "t:2", "jacket"),
    ]
    assert data.substitutes[2].labels == (T, U, F)
    plain = tmp_path / "tiny.json"
    plain.write_text(json.dumps(tiny()), encoding="utf-8")
    assert read_swords(plain) == data


def broken(change: str) -> dict[str, Any]:
    data = tiny()
    if change == "label":
        data["substitute_labels"]["s:2"] = [F, "TRUE_IMPLICIT", "maybe"]
    elif change == "unlabelled":
        del data["substitute_labels"]["s:4"]
    elif change == "target":
        data["substitutes"]["s:1"]["target_id"] = "t:9"
    elif change == "orphan":
        data["substitute_labels"]["s:9"] = [T]
    elif change == "keys":
        del data["targets"]
    return data


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            "label",
            'x:$["substitute_labels"]["s:2"]: label TRUE_IMPLICIT, maybe is not one of FALSE, '
            "TRUE, UNSURE",
        ),
        ("unlabelled", 'x:$["substitute_labels"]["s:4"]: None is not a non-empty list'),
        ("target", 'x:$["substitutes"]["s:1"]["target_id"]: \'t:9\' is not a key of targets'),
        ("orphan", 'x:$["substitute_labels"]["s:9"]: no such substitute'),
        ("keys", "x: targets missing or not an object (a SWORDS file has contexts, targets, "),
    ],
)
def test_reader_errors_name_the_key_and_the_rule(change: str, problem: str) -> None:
    with pytest.raises(FormatError) as caught:
        parse_swords(broken(change), "x")
    assert caught.value.problems[0].startswith(problem)


def test_reader_refuses_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(FormatError, match=r"bad\.json: Expecting property name"):
        read_swords(path)


def test_label_counts_views() -> None:
    data = parse_swords(tiny())
    # columns FALSE, TRUE, UNSURE; binary drops UNSURE
    assert label_counts(data.substitutes).tolist() == [[1, 2, 0], [3, 0, 0], [1, 1, 1], [2, 8, 0]]
    assert label_counts(data.substitutes, "binary").tolist() == [[1, 2], [3, 0], [1, 1], [2, 8]]
    with pytest.raises(ValueError, match="view 'merged' is not one of three_way, binary"):
        label_counts(data.substitutes, "merged")  # type: ignore[arg-type]


def f(numerator: int, denominator: int) -> float:
    return float(Fraction(numerator, denominator))


def approx(value: float) -> float:
    """A float that pytest compares approximately (typed as the float it stands for)."""
    return pytest.approx(value, abs=1e-12)  # type: ignore[return-value]


def test_hand_computed_figures() -> None:
    three, ten, both = swords_agreement(parse_swords(tiny()))
    # 3 labels: s:1 [1, 2, 0], s:2 [3, 0, 0], s:3 [1, 1, 1]. Fleiss: P_i = 2/6, 6/6, 0:
    # P-bar 4/9; p = 5/9, 3/9, 1/9, P_e = 35/81; kappa = (36/81 - 35/81) / (46/81) = 1/46.
    # Alpha: n = 9, within units (9 - 5) / 2 + 0 + (9 - 3) / 2 = 5, expected 81 - 35:
    # 1 - 8 · 5 / 46 = 3/23. Binary [1, 2], [3, 0], [1, 1]: n = 8, within 2 + 0 + 2,
    # expected 64 - 25 - 9: 1 - 7 · 4 / 30 = 1/15.
    assert three == SwordsAgreement(
        "3", 3, 9, approx(f(1, 46)), approx(f(3, 23)), approx(f(1, 15)), 3
    )
    # 10 labels: s:4 [2, 8, 0]: P = (4 + 64 - 10) / 90 = 29/45, P_e = 0.04 + 0.64;
    # kappa = (29/45 - 17/25) / (8/25) = -1/9. One unit: alpha 0 (its own chance level).
    assert ten == SwordsAgreement("10", 1, 10, approx(-1 / 9), approx(0.0), approx(0.0), 1)
    # All, generalised kappa: P-bar = (1/3 + 1 + 0 + 29/45) / 4 = 89/180; shares per unit
    # averaged: FALSE 7/15, TRUE 9/20, UNSURE 1/12, P_e = 1538/3600;
    # kappa = (890 - 769) / (1800 - 769) = 121/1031. Alpha: n = 19 (7, 11, 1), within
    # 5 + 32/9 (s:4: (100 - 68) / 9), expected 361 - 171 = 190: 1 - 18 · 77/9 / 190 =
    # 18/95. Binary: n = 18 (7, 11), within 4 + 32/9, expected 324 - 170 = 154:
    # 1 - 17 · 68/9 / 154 = 115/693.
    assert both == SwordsAgreement(
        "all", 4, 19, approx(f(121, 1031)), approx(f(18, 95)), approx(f(115, 693)), 4
    )


def test_generalised_kappa_is_fleiss_with_equal_raters() -> None:
    table = [
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
    assert math.isclose(generalised_fleiss_kappa(table), fleiss_kappa(table), abs_tol=1e-12)
    with pytest.raises(ValueError, match="subject 1 has 1 ratings"):
        generalised_fleiss_kappa([[1, 1], [1, 0]])
    with pytest.raises(ValueError, match="P_e = 1"):
        generalised_fleiss_kappa([[2, 0], [3, 0]])


# --- the real release -------------------------------------------------------------------------

# Computed by swords_agreement (alpha by krippendorff.alpha on the value counts), and held
# below against our closed form (alpha_from_counts) and the unit form (nominal_alpha on
# each substitute's list of labels) to 1e-9, and kappa of each rater group against
# fleiss_kappa. The 3-label units contain no TRUE: their binary alpha is undefined.
EXPECTED = {
    "dev": (
        370,
        370,
        [
            SwordsAgreement(
                "3", 15406, 46218, 0.12896418820315508, 0.1289830344494649, None, 15322
            ),
            SwordsAgreement(
                "10",
                7572,
                75720,
                0.10806415142155004,
                0.10807593081737021,
                0.11210497737123393,
                7572,
            ),
            SwordsAgreement(
                "all",
                22978,
                121938,
                0.30979557804250213,
                0.24352343864558146,
                0.25750990268164986,
                22894,
            ),
        ],
    ),
    "test": (
        762,
        762,
        [
            SwordsAgreement(
                "3", 29019, 87057, 0.11563529844990521, 0.1156454569058778, None, 28850
            ),
            SwordsAgreement(
                "10",
                16686,
                166860,
                0.07179074796254684,
                0.07179631076521553,
                0.07409591388807857,
                16686,
            ),
            SwordsAgreement(
                "all",
                45705,
                253917,
                0.2738379791332111,
                0.2004049093924376,
                0.2113887055279785,
                45536,
            ),
        ],
    ),
}


def close(value: float | None) -> Any:
    return None if value is None else pytest.approx(value, abs=1e-9)


@pytest.fixture(scope="module", params=["dev", "test"])
def release(request: pytest.FixtureRequest) -> tuple[str, Swords]:
    name = str(request.param)
    return name, read_swords(shared_path("data", "swords", f"swords-v1.1_{name}.json.gz"))


@pytest.mark.shared_data
def test_release_figures(release: tuple[str, Swords]) -> None:
    name, data = release
    contexts, targets, rows = EXPECTED[name]
    assert (data.contexts, data.targets) == (contexts, targets)
    result = swords_agreement(data)
    assert [(r.raters, r.units, r.labels, r.binary_units) for r in result] == [
        (r.raters, r.units, r.labels, r.binary_units) for r in rows
    ]
    for got, want in zip(result, rows, strict=True):
        assert got.fleiss_kappa == close(want.fleiss_kappa)
        assert got.alpha_three_way == close(want.alpha_three_way)
        assert got.alpha_binary == close(want.alpha_binary)


@pytest.mark.shared_data
def test_release_figures_by_three_implementations(release: tuple[str, Swords]) -> None:
    _, data = release
    groups = {"all": list(data.substitutes)}
    for substitute in data.substitutes:
        groups.setdefault(str(len(substitute.labels)), []).append(substitute)
    for row in swords_agreement(data):
        group = groups[row.raters]
        three = label_counts(group)
        assert math.isclose(alpha_from_counts(three), package_alpha(three), abs_tol=1e-9)
        assert math.isclose(
            nominal_alpha([list(s.labels) for s in group]), package_alpha(three), abs_tol=1e-9
        )
        binary = label_counts(group, "binary")
        if row.alpha_binary is None:
            assert label_counts(group)[:, 1].sum() == 0  # no TRUE in the group
            continue
        assert math.isclose(alpha_from_counts(binary), row.alpha_binary, abs_tol=1e-9)
        assert math.isclose(
            nominal_alpha([[x for x in s.labels if x != "UNSURE"] for s in group]),
            row.alpha_binary,
            abs_tol=1e-9,
        )
        if row.raters != "all":
            assert row.fleiss_kappa is not None
            assert math.isclose(fleiss_kappa(three.tolist()), row.fleiss_kappa, abs_tol=1e-12)
            assert math.isclose(generalised_fleiss_kappa(three), row.fleiss_kappa, abs_tol=1e-12)
    assert np.array_equal(
        label_counts(data.substitutes).sum(axis=1), [len(s.labels) for s in data.substitutes]
    )
