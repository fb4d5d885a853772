"""scoring.judgements: the paper's verdict rule, Tables 11 and 12, agreement
on judgements, models ranked by AP and AUC, the judgements file and its command, and
the SWORDS judgements as a finished round. Every figure is hand-computed, published or
printed by the reference package (krippendorff)."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement, permutations
from pathlib import Path

import krippendorff
import numpy as np
import pytest

from scoring.agreement.alpha import ordinal_alpha
from scoring.errors import FormatError
from scoring.formats.judgements import Judgement, candidates, judgement_line, parse_judgements
from scoring.formats.ranked import Scored
from scoring.judgements import cli
from scoring.judgements.agreement import value_counts, view_agreement
from scoring.judgements.labels import LEXICAL_REFERENCE, POSTHOC, SWORDS, guess_label_set
from scoring.judgements.models import (
    auc,
    average_precision,
    curves,
    evaluate,
    parse_scores,
    permutation_test,
    recall_by_label,
)
from scoring.judgements.report import render_text, report
from scoring.judgements.swords import read_swords_judgements
from scoring.judgements.verdicts import binary_verdict, verdict, verdicts
from scoring.measures.ranking.items import average_precision as ranking_ap
from tests.conftest import shared_path

# --- the verdict rule ----------------------------------------------------------------------

THREE = {  # every multiset of three labels and its verdict, by the paper's rule
    ("good", "good", "good"): "good",
    ("good", "good", "reasonable"): "good",
    ("good", "good", "bad"): "good",
    ("good", "reasonable", "reasonable"): "reasonable",
    ("good", "reasonable", "bad"): "reasonable",  # all differ: reasonable
    ("good", "bad", "bad"): "bad",
    ("reasonable", "reasonable", "reasonable"): "reasonable",
    ("reasonable", "reasonable", "bad"): "reasonable",
    ("reasonable", "bad", "bad"): "bad",
    ("bad", "bad", "bad"): "bad",
}


def test_every_combination_of_three_labels_has_the_papers_verdict() -> None:
    combos = set(combinations_with_replacement(POSTHOC.labels, 3))
    assert combos == set(THREE)  # the table covers all ten
    for combo, expected in THREE.items():
        for order in permutations(combo):  # the order of the judges does not matter
            assert verdict(list(order), POSTHOC) == expected, order


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        (["good", "reasonable"], "reasonable"),  # "one reasonable and one good": reasonable
        (["good", "bad"], "bad"),
        (["good", "good"], "good"),
        (["good", "good", "bad", "bad"], "bad"),
        (["good", "good", "good", "bad"], "good"),
        (["good", "good", "reasonable", "bad"], "reasonable"),
        (["bad"], "bad"),
        (["good", "good", "bad", "bad", "reasonable"], "reasonable"),
    ],
)
def test_other_numbers_of_judges(labels: list[str], expected: str) -> None:
    assert verdict(labels, POSTHOC) == expected


@pytest.mark.parametrize(
    ("labels", "expected", "binary"),
    [
        (["true-word", "true-word", "false"], "true-word", "positive"),
        (["true-word", "true-phrase", "false"], "true-word", "positive"),  # tie: listed first
        (["true-phrase", "true-context", "true-context"], "true-context", "positive"),
        (["true-word", "false", "false"], "false", "negative"),
        (["true-context", "false"], "false", "negative"),  # a tie is negative
    ],
)
def test_lexical_reference_verdicts(labels: list[str], expected: str, binary: str) -> None:
    assert verdict(labels, LEXICAL_REFERENCE) == expected
    assert binary_verdict(labels, LEXICAL_REFERENCE) == binary


def test_swords_unsure_is_missing_in_the_binary_view() -> None:
    assert verdict(["TRUE", "UNSURE", "FALSE"], SWORDS) == "UNSURE"
    assert binary_verdict(["TRUE", "UNSURE", "FALSE"], SWORDS) == "negative"  # 1 of 2
    assert binary_verdict(["UNSURE", "UNSURE"], SWORDS) is None


def test_a_label_outside_the_set_is_refused() -> None:
    with pytest.raises(ValueError, match="excellent is not one of good, reasonable, bad"):
        verdict(["excellent"], POSTHOC)
    assert guess_label_set({"good", "bad"}) is POSTHOC
    assert guess_label_set({"true-word"}) is LEXICAL_REFERENCE
    with pytest.raises(ValueError, match="not those of one label set"):
        guess_label_set({"good", "TRUE"})


# --- Tables 11 and 12 on a hand-made round ----------------------------------------------------

ROUND = [  # item, candidate, origin, labels of judges x, y, z
    ("1", "a", ["human"], "good good reasonable"),  # good
    ("1", "b", ["human", "sysA"], "good reasonable bad"),  # reasonable
    ("1", "c", ["sysA"], "bad bad reasonable"),  # bad
    ("1", "d", ["sysB"], "reasonable reasonable good"),  # reasonable
    ("2", "e", ["human"], "bad bad bad"),  # bad
    ("2", "f", ["sysA", "sysB"], "good good good"),  # good
]


def hand_made() -> list[Judgement]:
    return [
        Judgement(item, text, judge, label, tuple(origin))
        for item, text, origin, labels in ROUND
        for judge, label in zip("xyz", labels.split(), strict=True)
    ]


def test_tables_11_and_12_of_a_hand_made_round() -> None:
    result = report(hand_made())
    assert result.label_set is POSTHOC
    third = 100 / 3
    assert result.to_json()["table11"] == {
        "sys": {"total": 4, "good": 25.0, "reasonable": 50.0, "bad": 25.0},  # b c d f
        "origA": {"total": 3, "good": third, "reasonable": third, "bad": third},  # a b e
    }
    assert result.to_json()["table12"] == {
        "sys_only": {"total": 3, "good": third, "reasonable": third, "bad": third},  # c d f
        "origA_only": {"total": 2, "good": 50.0, "reasonable": 0.0, "bad": 50.0},  # a e
        "both": {"total": 1, "good": 0.0, "reasonable": 100.0, "bad": 0.0},  # b
    }
    assert result.to_json()["verdicts"] == 6
    # Fleiss: P̄ = 1/2, p = (7, 5, 6) / 18, P_e = 110/324, kappa = 52/214
    assert result.fleiss_kappa == pytest.approx(26 / 107, abs=1e-12)
    text = render_text(result)
    assert "sys                4       25.00       50.00       25.00" in text
    assert "Fleiss' kappa 0.243" in text


def test_the_tables_do_not_depend_on_the_order_of_lines() -> None:
    lines = hand_made()
    assert report(lines[::-1]).to_json() == report(lines).to_json()


# --- agreement --------------------------------------------------------------------------------


def test_ordinal_and_nominal_alpha_reproduce_krippendorffs_worked_example() -> None:
    """Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the example
    with four observers, twelve units and missing values: nominal 0.743, ordinal 0.815."""
    nan = np.nan
    data = np.array(
        [
            [1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan],
        ]
    )
    counts = np.zeros((12, 5), dtype=np.int64)
    for row in data:
        for unit, value in enumerate(row):
            if not np.isnan(value):
                counts[unit, int(value) - 1] += 1
    assert ordinal_alpha(counts) == pytest.approx(0.815, abs=5e-4)
    assert ordinal_alpha(counts) == pytest.approx(
        krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal"), abs=1e-12
    )


def test_agreement_of_the_hand_made_round_against_the_package() -> None:
    found = candidates(hand_made())
    full = view_agreement(found, POSTHOC, "full")
    counts = value_counts(found, POSTHOC, "full")
    assert counts.tolist() == [[2, 1, 0], [1, 1, 1], [0, 1, 2], [1, 2, 0], [0, 0, 3], [3, 0, 0]]
    nominal = krippendorff.alpha(value_counts=counts, level_of_measurement="nominal")
    ordinal = krippendorff.alpha(value_counts=counts, level_of_measurement="ordinal")
    assert full.alpha_nominal == pytest.approx(nominal, abs=1e-12)
    assert full.alpha_ordinal == pytest.approx(ordinal, abs=1e-12)
    # Cohen's kappa of x and y: x = g g b r b g, y = g r b r b g; p_o = 5/6,
    # p_e = (3·2 + 1·2 + 2·2) / 36 = 12/36, kappa = (5/6 - 1/3) / (2/3) = 3/4
    assert full.cohen["x|y"] == pytest.approx(0.75, abs=1e-12)
    assert full.judges["x"].judged == 6
    # x gave g g b r b g, the verdicts are g r b r b g: all but b agree
    assert full.judges["x"].with_verdict == pytest.approx(5 / 6)
    binary = view_agreement(found, POSTHOC, "binary")
    assert binary.alpha_ordinal is None
    assert value_counts(found, POSTHOC, "binary").tolist() == [
        [3, 0],
        [2, 1],
        [1, 2],
        [3, 0],
        [0, 3],
        [3, 0],
    ]


def test_cohen_kappa_of_two_judges_by_hand() -> None:
    """Two judges, ten candidates, true / false, six true each: p_o = 0.8,
    p_e = 0.6·0.6 + 0.4·0.4 = 0.52, kappa = 0.28 / 0.48 = 7/12 (Fleiss' kappa, with the
    same marginals for both judges, is the same)."""
    first = ["T", "T", "T", "T", "T", "T", "F", "F", "F", "F"]
    second = ["T", "T", "T", "T", "T", "F", "T", "F", "F", "F"]
    lines = [
        Judgement(str(i), "w", judge, "true-word" if label == "T" else "false", ())
        for i, (a, b) in enumerate(zip(first, second, strict=True))
        for judge, label in (("a", a), ("b", b))
    ]
    result = report(lines)
    assert result.agreement["binary"].cohen["a|b"] == pytest.approx(7 / 12, abs=1e-12)
    assert result.agreement["full"].fleiss_kappa == pytest.approx(7 / 12, abs=1e-12)


# --- models ----------------------------------------------------------------------------------

SCORES = [0.9, 0.8, 0.8, 0.5, 0.5, 0.1]
RELEVANT = [True, False, True, True, False, False]


def test_ap_and_auc_with_ties_by_hand() -> None:
    # thresholds 0.9, 0.8, 0.5, 0.1: (R, P) = (1/3, 1), (2/3, 2/3), (1, 3/5), (1, 1/2)
    drawn = curves(SCORES, RELEVANT)
    assert [p for point in drawn.recall_precision for p in point] == pytest.approx(
        [1 / 3, 1, 2 / 3, 2 / 3, 1, 3 / 5, 1, 1 / 2]
    )
    assert average_precision(SCORES, RELEVANT) == pytest.approx(34 / 45, abs=1e-12)
    # pairs (positive, negative) won: 0.9 → 3, 0.8 → 2.5, 0.5 → 1.5; of 9
    assert auc(SCORES, RELEVANT) == pytest.approx(7 / 9, abs=1e-12)
    assert [p for point in drawn.roc for p in point] == pytest.approx(
        [0, 0, 0, 1 / 3, 1 / 3, 2 / 3, 2 / 3, 1, 1, 1]
    )


def test_ap_with_ties_is_scikit_learns_and_the_ranking_measure() -> None:
    from sklearn.metrics import average_precision_score

    # 34/45 by hand above; the rows in another order give the same AP
    assert average_precision_score(RELEVANT, SCORES) == pytest.approx(34 / 45, abs=1e-15)
    gold = {str(i): 1 for i, hit in enumerate(RELEVANT) if hit}
    ranked = [Scored(str(i), s) for i, s in enumerate(SCORES)]
    assert ranking_ap(gold, ranked).value == Fraction(34, 45)
    assert average_precision(SCORES[::-1], RELEVANT[::-1]) == pytest.approx(34 / 45, abs=1e-15)
    # a relevant and an irrelevant candidate tied: one threshold, AP 1/2 in either order
    assert average_precision([0.5, 0.5], [True, False]) == 0.5
    assert average_precision([0.5, 0.5], [False, True]) == 0.5


def test_ap_without_ties_is_the_ranking_measure() -> None:
    scores = [0.9, 0.7, 0.6, 0.4, 0.3, 0.2, 0.1]
    relevant = [True, False, True, False, False, True, False]
    # P@1 = 1, P@3 = 2/3, P@6 = 1/2: AP = (1 + 2/3 + 1/2) / 3 = 13/18
    assert average_precision(scores, relevant) == pytest.approx(13 / 18, abs=1e-12)
    gold = {str(i): 1 for i, hit in enumerate(relevant) if hit}
    ranked = [Scored(str(i), s) for i, s in enumerate(scores)]
    assert ranking_ap(gold, ranked).value == Fraction(13, 18)


def test_recall_per_label_at_a_recall_level() -> None:
    labels = ["true-word", None, "true-phrase", "true-word", None, None]
    reached, by_label = recall_by_label(
        SCORES, labels, LEXICAL_REFERENCE.positive, 0.5
    )  # the first threshold with recall ≥ 0.5 is 0.8: rows 0, 1, 2
    assert reached == pytest.approx(2 / 3)
    assert by_label == {"true-word": 0.5, "true-phrase": 1.0, "true-context": None}


def test_permutation_test() -> None:
    best = [1.0] * 3 + [0.0] * 9
    relevant = [True] * 3 + [False] * 9
    p, ap_05, ap_01 = permutation_test(best, relevant, 1000, 7)
    assert 1 / 1001 <= p < 0.02  # P(AP = 1 at random) = 1 / C(12, 3) = 1/220
    assert (p, ap_05, ap_01) == permutation_test(best, relevant, 1000, 7)  # seeded
    assert ap_05 <= ap_01 <= 1
    worst = [float(i) for i in range(12)]  # no ties: the relevant three rank last
    assert permutation_test(worst, relevant, 200, 7)[0] == 1.0  # no ranking is worse


def test_models_of_a_lexical_reference_round() -> None:
    lines = [
        Judgement(str(i), "w", judge, label, ())
        for i, label in enumerate(
            ["true-word", "false", "true-phrase", "true-word", "false", "false"]
        )
        for judge in ("a", "b")
    ]
    scores = {(str(i), "w"): s for i, s in enumerate(SCORES)}
    result = report(lines, scores={"m": scores}, level=0.5, permutations=50, seed=1)
    (model,) = result.models
    assert model.ap == pytest.approx(34 / 45) and model.auc == pytest.approx(7 / 9)
    assert model.recall_by_label == {"true-word": 0.5, "true-phrase": 1.0, "true-context": None}
    found = verdicts(candidates(lines), LEXICAL_REFERENCE)
    with pytest.raises(ValueError, match=r"1 candidates unscored"):
        evaluate(
            "m", {k: v for k, v in scores.items() if k != ("0", "w")}, found, LEXICAL_REFERENCE
        )


def test_scores_file_errors_name_the_line() -> None:
    assert parse_scores(['{"item": "1", "candidate": "w", "score": 2}'], "s.jsonl") == {
        "s.jsonl": {("1", "w"): 2.0}
    }
    with pytest.raises(FormatError, match=r"s.jsonl:2: score 'x' is not a finite number"):
        parse_scores(
            [
                '{"item": "1", "candidate": "w", "score": 2}',
                '{"item": "2", "candidate": "w", "score": "x"}',
            ],
            "s.jsonl",
        )


# --- the file and its command --------------------------------------------------------------


def test_the_judgements_file_round_trips_and_is_checked() -> None:
    lines = [judgement_line(j) for j in hand_made()]
    assert parse_judgements(lines) == tuple(hand_made())
    assert json.loads(lines[0]) == {
        "item": "1",
        "candidate": "a",
        "judge": "x",
        "label": "good",
        "origin": ["human"],
    }
    bad = [
        '{"item": "1", "candidate": "a", "judge": "x", "label": "good"}',
        '{"item": "1", "candidate": "a", "judge": "x", "label": "good", "origin": ["human"]}',
        '{"item": "1", "candidate": "a", "judge": "x", "label": "bad", "origin": ["human"]}',
        '{"item": "1", "candidate": "a", "judge": "y", "label": "bad", "origin": ["sys"]}',
    ]
    with pytest.raises(FormatError) as error:
        parse_judgements(bad, "j.jsonl")
    assert error.value.problems == (
        "j.jsonl:1: missing origin (every line has item, candidate, judge, label, origin)",
        "j.jsonl:3: judge 'x' judges 'a' in item '1' again (first on line 2; one label per "
        "judge and candidate)",
        "j.jsonl:4: origin ['sys'] of 'a' in item '1' differs from line 2's ['human'] (a "
        "candidate has one origin)",
    )


def test_the_command_prints_the_contracts_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.jsonl"
    path.write_text("".join(judgement_line(j) + "\n" for j in hand_made()), "utf-8")
    assert cli.main([str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["table11"]["sys"] == {"total": 4, "good": 25.0, "reasonable": 50.0, "bad": 25.0}
    assert out["table12"]["both"]["reasonable"] == 100.0
    assert out["verdicts"] == 6
    assert out["fleiss_kappa"] == pytest.approx(26 / 107)
    path.write_text('{"item": 1}\n', "utf-8")
    assert cli.main([str(path)]) == 1
    assert f"Error: {path}:1: missing candidate" in capsys.readouterr().err


def test_the_command_gives_each_sources_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # accepted (posthoc: good or reasonable): a, b, d, f. human proposed a b e (2 accepted);
    # sysA b c f (2: b, and f, which the gold lacks); sysB d f (2, both beyond the gold)
    path = tmp_path / "round.jsonl"
    path.write_text("".join(judgement_line(j) + "\n" for j in hand_made()), "utf-8")
    assert cli.main([str(path), "--format", "json"]) == 0
    sources = json.loads(capsys.readouterr().out)["sources"]
    assert sources == {
        "human": {
            "candidates": 3,
            "judged": 3,
            "accepted": 2,
            "share": 2 / 3,
            "accepted_not_in_gold": None,
        },
        "sysA": {
            "candidates": 3,
            "judged": 3,
            "accepted": 2,
            "share": 2 / 3,
            "accepted_not_in_gold": 1,
        },
        "sysB": {
            "candidates": 2,
            "judged": 2,
            "accepted": 2,
            "share": 1.0,
            "accepted_not_in_gold": 2,
        },
    }
    assert cli.main([str(path)]) == 0
    text = capsys.readouterr().out
    block = text[text.index("By source") :].splitlines()
    assert block[0] == (
        "By source (accepted: good, reasonable; a candidate of several sources counts for each)"
    )
    assert [line.split() for line in block[2:]] == [
        ["human", "3", "3", "2", "66.67", "-"],
        ["sysA", "3", "3", "2", "66.67", "1"],
        ["sysB", "2", "2", "2", "100.00", "2"],
    ]


def test_the_sources_count_the_candidates_proposed_but_not_judged() -> None:
    proposed = [*(origin for _, _, origin, _ in ROUND), ["sysB"], ["human"]]
    rows = {row.source: row for row in report(hand_made(), proposed=proposed).sources}
    assert (rows["sysB"].candidates, rows["sysB"].judged) == (3, 2)
    assert (rows["human"].candidates, rows["human"].judged) == (4, 3)
    assert rows["sysA"].candidates == 3


def test_the_command_writes_the_curves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    judged = tmp_path / "lr.jsonl"
    labels = ["true-word", "false", "true-phrase", "true-word", "false", "false"]
    judged.write_text(
        "".join(
            judgement_line(Judgement(str(i), "w", "a", label, ())) + "\n"
            for i, label in enumerate(labels)
        ),
        "utf-8",
    )
    scores = tmp_path / "model.jsonl"
    scores.write_text(
        "".join(
            json.dumps({"item": str(i), "candidate": "w", "score": s}) + "\n"
            for i, s in enumerate(SCORES)
        ),
        "utf-8",
    )
    svg = tmp_path / "curves.svg"
    assert (
        cli.main([str(judged), "--scores", str(scores), "--curves", str(svg), "--format", "json"])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["models"]["model.jsonl"]["ap"] == pytest.approx(34 / 45)
    drawn = svg.read_text("utf-8")
    assert drawn.startswith("<?xml") and "Recall-precision" in drawn and "ROC" in drawn
    assert drawn.count("<path") == 2


# --- SWORDS ------------------------------------------------------------------------------------


def test_swords_dev_as_a_finished_round() -> None:
    path = shared_path("data", "swords", "swords-v1.1_dev.json.gz")
    found = read_swords_judgements(path)
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        raw = json.load(handle)
    sources = Counter(tuple(sorted(s["extra"]["sources"])) for s in raw["substitutes"].values())
    assert sources == {("roget",): 20549, ("coinco",): 1296, ("coinco", "roget"): 1133}
    assert len(found) == sum(len(v) for v in raw["substitute_labels"].values())
    result = report(found, SWORDS, permutations=1)
    table = result.to_json()
    assert table["table12"]["sys_only"]["total"] == 20549
    assert table["table12"]["origA_only"]["total"] == 1296
    assert table["table12"]["both"]["total"] == 1133
    assert table["table11"]["origA"]["total"] == 1296 + 1133
    # the same kappa scoring.agreement.swords reports for all units (docs/agreement.md)
    assert result.fleiss_kappa == pytest.approx(0.310, abs=5e-4)
