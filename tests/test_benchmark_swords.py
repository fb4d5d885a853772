"""``python -m scoring.benchmark swords`` (scoring.benchmark.swords): SWORDS' evaluation
reproduced.

- Hand-computed datasets (an identity lemmatiser, so no WordNet needed): lenient vs
  strict, the acceptable (> 0.5, SWORDS' 0.5 + 1e-4) and conceivable (>= 0.1)
  thresholds, a target with no acceptable substitute, ties, duplicates, UNSURE labels,
  the target's own lemma, an absent target, GAP with Melamud's -1.
- NLTK 3.5's WordNet lemmatiser (SWORDS pins nltk==3.5) on Debian's WordNet 3.0.
- The real SWORDS v1.1 dev and test data with four systems built from the data
  (tests/swords_systems.py), against the figures SWORDS' own ``evaluate`` printed.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from scoring.benchmark import wordnet
from scoring.benchmark.cli import main
from scoring.benchmark.swords import (
    SwordsResult,
    evaluate_swords,
    parse_result,
    read_result,
    read_result_file,
    result_json,
)
from scoring.benchmark.wordnet import (
    DATABASE_FILES,
    LEXNAMES,
    WordNetMissing,
    build_nltk_data,
    lemmatize,
    lexnames,
    source_directory,
    wordnet_available,
)
from scoring.errors import FormatError
from scoring.formats.ranked import Scored
from scoring.formats.swords import ALL_LABELS, parse_swords, read_swords
from tests import swords_systems
from tests.conftest import shared_path

T, F, U = "TRUE", "FALSE", "UNSURE"
KEYS = [
    f"{prefix}_{name}@10"
    for prefix in ("lenient_a", "lenient_c", "strict_a", "strict_c")
    for name in ("f", "fs", "p", "r", "rs")
] + ["strict_c_p@1", "gap", "gap_rat"]

needs_wordnet = pytest.mark.skipif(
    not wordnet_available(),
    reason="needs WordNet 3.0 (apt-get install wordnet-base wordnet-sense-index; "
    "scripts/test.sh installs them)",
)


def identity(word: str, pos: str | None) -> str:
    return word


def dataset(substitutes: dict[str, tuple[str, str, list[str]]]) -> dict[str, Any]:
    """A SWORDS dataset JSON: two targets in one context, the substitutes given as
    id → (target id, substitute, labels)."""
    return {
        "contexts": {"c:1": {"context": "The bright pupil took off her coat."}},
        "targets": {
            "t:1": {"context_id": "c:1", "target": "bright", "offset": 4, "pos": "ADJ"},
            "t:2": {"context_id": "c:1", "target": "coat", "offset": 30, "pos": "NOUN"},
            "t:3": {"context_id": "c:1", "target": "took", "offset": 17, "pos": "VERB"},
        },
        "substitutes": {
            sid: {"target_id": tid, "substitute": text}
            for sid, (tid, text, _) in substitutes.items()
        },
        "substitutes_lemmatized": True,
        "substitute_labels": {sid: labels for sid, (_, _, labels) in substitutes.items()},
    }


HAND = {
    "s:1": ("t:1", "smart", [T] * 6 + [F] * 4),  # 0.6: acceptable
    "s:2": ("t:1", "clever", [T] * 5 + [F] * 5),  # 0.5: conceivable, NOT acceptable
    "s:3": ("t:1", "shiny", [T] + [F] * 9),  # 0.1: conceivable
    "s:4": ("t:1", "dull", [F] * 3),  # 0: in the pool only
    "s:5": ("t:1", "vivid", [T, U, U]),  # UNSURE dropped: 1/1, acceptable
    "s:6": ("t:1", "gloomy", [U, U, U]),  # only UNSURE: dropped, not in the pool
    "s:7": ("t:1", "bright", [T] * 10),  # the target itself: dropped
    "s:8": ("t:2", "jacket", [F] * 3),
    "s:9": ("t:2", "cloak", [T] + [F] * 9),  # t:2 has no acceptable substitute
}
SYSTEM: dict[str, Any] = {
    "substitutes_lemmatized": True,
    "substitutes": {
        "t:1": [
            ["zebra", 0.9],
            ["clever", 0.8],
            ["smart", 0.8],  # tie: the given order holds
            ["dull", 0.5],
            ["gloomy", 0.4],
            ["bright", 0.95],  # the target: dropped
        ],
        "t:2": [["cloak", 1], ["jacket", 0.5], ["cloak", 0.2]],  # cloak once, at 1
    },
}


def scores(data: dict[str, Any], system: dict[str, Any]) -> dict[str, float]:
    result = evaluate_swords(parse_swords(data, "d", ALL_LABELS), parse_result(system), identity)
    assert list(result.metrics) == KEYS
    return result.metrics


def test_hand_computed_lenient_strict_thresholds() -> None:
    got = scores(dataset(HAND), SYSTEM)
    # ranked t:1 = zebra clever smart dull gloomy; t:2 = cloak jacket
    # acceptable: t:1 {smart, vivid}, t:2 {}; conceivable: t:1 {smart clever shiny vivid},
    # t:2 {cloak}; lenient t:1 = clever smart dull (zebra, gloomy not in the pool)
    expected = {
        # strict_a: 1 hit of 7 returned; min(2,10) + min(0,10) = 2 wanted
        "strict_a_p@10": 100 / 7,
        "strict_a_r@10": 50.0,
        "strict_a_rs@10": 50.0,
        "strict_a_f@10": 200 / 9,
        "strict_a_fs@10": 200 / 9,
        # lenient_a: 1 hit of 5 returned
        "lenient_a_p@10": 20.0,
        "lenient_a_r@10": 50.0,
        "lenient_a_f@10": 200 / 7,
        # strict_c: 3 hits of 7, 5 wanted; F = 2 (3/7)(3/5) / (3/7 + 3/5) = 1/2
        "strict_c_p@10": 300 / 7,
        "strict_c_r@10": 60.0,
        "strict_c_f@10": 50.0,
        # lenient_c: 3 hits of 5
        "lenient_c_p@10": 60.0,
        "lenient_c_r@10": 60.0,
        "lenient_c_f@10": 60.0,
        # top 1: zebra (miss), cloak (hit)
        "strict_c_p@1": 50.0,
        # GAP, TRUE counts: t:1 weights smart 6, clever 5, shiny 1, vivid 1, dull 0;
        # (5/2 + 11/3) / (6 + 11/2 + 12/3 + 13/4) = 74/225; t:2: 1
        "gap": 100 * (74 / 225 + 1) / 2,
        # shares: (0.5/2 + 1.1/3) / (1 + 1.6/2 + 2.1/3 + 2.2/4) = 37/183; t:2: 1
        "gap_rat": 100 * (37 / 183 + 1) / 2,
    }
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-9), key


def test_exactly_half_is_not_acceptable() -> None:
    data = dataset({"s:1": ("t:1", "clever", [T] * 5 + [F] * 5)})
    got = scores(data, {"substitutes": {"t:1": [["clever", 1]]}})
    assert got["strict_a_p@10"] == 0.0 and got["strict_c_p@10"] == 100.0
    data = dataset({"s:1": ("t:1", "clever", [T] * 5 + [F] * 4 + [U])})  # 5/9 > 0.5
    got = scores(data, {"substitutes": {"t:1": [["clever", 1]]}})
    assert got["strict_a_p@10"] == 100.0


def test_conceivable_threshold_is_inclusive() -> None:
    system = {"substitutes": {"t:1": [["shiny", 1]]}}
    got = scores(dataset({"s:1": ("t:1", "shiny", [T] + [F] * 9)}), system)
    assert got["strict_c_p@10"] == 100.0
    got = scores(dataset({"s:1": ("t:1", "shiny", [T] + [F] * 10)}), system)  # 1/11
    assert got["strict_c_p@10"] == 0.0
    assert got["lenient_c_p@10"] == 0.0  # in the pool, returned, below the threshold


def test_absent_target_counts_as_an_empty_list() -> None:
    got = scores(dataset(HAND), {"substitutes": {"t:1": SYSTEM["substitutes"]["t:1"]}})
    assert got["strict_a_p@10"] == pytest.approx(20.0)  # 1 of 5
    assert got["strict_a_r@10"] == pytest.approx(50.0)  # t:2 wants no acceptable one
    assert got["strict_c_r@10"] == pytest.approx(40.0)  # 2 of 4 + 1
    assert got["gap"] == pytest.approx(100 * (74 / 225 + 0) / 2)


def test_cut_at_ten_after_the_lenient_filter() -> None:
    words = [f"w{i}" for i in range(12)]
    data = dataset({f"s:{i}": ("t:1", w, [T] * 3) for i, w in enumerate(words)})
    system = {
        "substitutes": {"t:1": [[f"x{i}", 10 - i] for i in range(5)] + [[w, 0] for w in words]}
    }
    got = scores(data, system)
    assert got["lenient_a_p@10"] == 100.0  # the 5 non-pool words are dropped first
    assert got["lenient_a_r@10"] == 100.0  # 10 hits / min(12, 10)
    assert got["lenient_a_rs@10"] == pytest.approx(1000 / 12)
    assert got["strict_a_p@10"] == 50.0  # 5 hits in the first 10


def test_target_without_true_label_scores_minus_one_in_gap() -> None:
    data = dataset({"s:1": ("t:2", "cloak", [T] + [F] * 9), "s:2": ("t:3", "grabbed", [F] * 3)})
    system = {"substitutes": {"t:2": [["cloak", 1]], "t:3": [["grabbed", 1]]}}
    result = evaluate_swords(parse_swords(data, "d", ALL_LABELS), parse_result(system), identity)
    assert result.metrics["gap"] == 0.0  # mean(1, -1), as SWORDS averages Melamud's -1
    assert result.metrics["gap_rat"] == 0.0
    assert "1 targets have no TRUE label" in result.notes[-1]


def test_zero_denominators_are_reported_as_zero_and_noted() -> None:
    system = {"substitutes": {"t:1": [["zebra", 1]], "t:2": [["yak", 1]]}}
    result = evaluate_swords(
        parse_swords(dataset(HAND), "d", ALL_LABELS), parse_result(system), identity
    )
    assert result.metrics["lenient_a_p@10"] == 0.0  # nothing returned in the pool
    assert result.metrics["strict_a_f@10"] == 0.0  # P = R = 0
    assert result.notes[-1].startswith("lenient_a_p@10, lenient_a_f@10, lenient_a_fs@10")
    assert "SWORDS' code raises ZeroDivisionError" in result.notes[-1]


def test_implicit_labels_count_as_true_and_false() -> None:
    data = dataset({"s:1": ("t:1", "smart", ["TRUE_IMPLICIT", "FALSE_IMPLICIT"])})
    got = scores(data, {"substitutes": {"t:1": [["smart", 1]]}})
    assert got["strict_c_p@10"] == 100.0 and got["strict_a_p@10"] == 0.0  # 1/2


def test_result_target_not_in_dataset_and_target_without_pos() -> None:
    data = parse_swords(dataset(HAND), "d", ALL_LABELS)
    with pytest.raises(ValueError, match="result targets t:9 are not targets of the dataset"):
        evaluate_swords(data, parse_result({"substitutes": {"t:9": []}}), identity)
    raw = dataset(HAND)
    raw["targets"]["t:1"]["pos"] = None
    with pytest.raises(ValueError, match="target t:1 has no pos"):
        evaluate_swords(parse_swords(raw, "d", ALL_LABELS), parse_result(SYSTEM), identity)


def test_result_reader() -> None:
    result = read_result(json.dumps({"substitutes": {"t:1": ["a", ["b", 2], "c"]}}), "r")
    assert result == SwordsResult(
        False, {"t:1": (Scored("a", 0.0), Scored("b", 2.0), Scored("c", -2.0))}
    )
    assert parse_result(result_json(result)) == result
    with pytest.raises(FormatError) as caught:
        parse_result(
            {"substitutes_lemmatized": 1, "substitutes": {"t:1": [["a"], ["b", "x"], 5]}}, "r"
        )
    assert caught.value.problems == (
        "r: substitutes_lemmatized 1 is not true or false",
        "r: substitutes.t:1[0]: ['a'] is not [substitute, score] or a substitute string",
        "r: substitutes.t:1[1]: score 'x' of 'b' is not a number",
        "r: substitutes.t:1[2]: 5 is not [substitute, score] or a substitute string",
    )
    with pytest.raises(FormatError, match="r: not a SWORDS result"):
        parse_result([], "r")
    with pytest.raises(FormatError, match="r: Expecting value at line 1"):
        read_result("", "r")


def test_dataset_reader_checks_targets() -> None:
    raw = dataset(HAND)
    raw["targets"]["t:2"]["offset"] = 3
    raw["targets"]["t:3"]["pos"] = "VB"
    with pytest.raises(FormatError) as caught:
        parse_swords(raw, "d", ALL_LABELS)
    assert caught.value.problems == (
        'd:$["targets"]["t:2"]["offset"]: the context has \' bri\' at 3, not the target \'coat\'',
        'd:$["targets"]["t:3"]["pos"]: \'VB\' is not null or one of UNKNOWN, ADJ, ADV, INTJ, NOUN, '
        "PROPN, VERB, ADP, AUX, CCONJ, DET, NUM, PART, PRON, SCONJ, PUNCT, SYM, X",
    )


# --- WordNet -----------------------------------------------------------------------------


def test_lexnames_is_wordnets_list() -> None:
    lines = lexnames().splitlines()
    assert len(LEXNAMES) == len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[3] == "03\tnoun.Tops\t1"
    assert lines[29] == "29\tverb.body\t2" and lines[44] == "44\tadj.ppl\t3"


def test_missing_wordnet_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEXSUB_WORDNET", str(tmp_path))
    with pytest.raises(WordNetMissing, match=f"LEXSUB_WORDNET={tmp_path} lacks index.noun"):
        source_directory()


def test_nltk_data_folder_is_built_from_database_files(tmp_path: Path) -> None:
    source = tmp_path / "dict"
    source.mkdir()
    for name in DATABASE_FILES:
        (source / name).write_text(f"{name}\n", encoding="ascii")
    root = build_nltk_data(source, tmp_path / "nltk_data")
    corpus = root / "corpora" / "wordnet"
    assert (corpus / "lexnames").read_text(encoding="ascii") == lexnames()
    assert (corpus / "noun.exc").read_text(encoding="ascii") == "noun.exc\n"
    assert not (corpus / "noun.exc").is_symlink()  # NLTK 3.10 refuses links
    assert build_nltk_data(source, root) == root  # again: nothing to do


def test_no_wordnet_anywhere_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import nltk

    monkeypatch.delenv("LEXSUB_WORDNET", raising=False)
    monkeypatch.setattr(wordnet, "DEBIAN_WORDNET", tmp_path)
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    with pytest.raises(WordNetMissing, match=r"apt-get install wordnet-base wordnet-sense-index"):
        wordnet.nltk_data_root.__wrapped__()


@needs_wordnet
@pytest.mark.parametrize(
    ("word", "pos", "lemma"),
    [
        ("dogs", "NOUN", "dog"),
        ("Dogs", "NOUN", "Dogs"),  # WordNet's index is lower-case; SWORDS lowers after
        ("went", "VERB", "go"),  # exception list
        ("better", "ADJ", "good"),
        ("children", "PROPN", "child"),  # any other PoS lemmatises as a noun
        ("agentses", "NOUN", "agent"),  # NLTK 3.5 applies the rules again (3.10: no)
        ("looked up", "VERB", "looked up"),
        ("us", "NOUN", "u"),  # the shortest lemma
    ],
)
def test_nltk_35_lemmatiser(word: str, pos: str, lemma: str) -> None:
    assert lemmatize(word, pos) == lemma


@needs_wordnet
def test_lemmatised_system_and_data() -> None:
    data = dataset(
        {
            "s:1": ("t:3", "removed", [T] * 10),
            "s:2": ("t:3", "grabbed", [T] * 2 + [F] * 8),
            "s:3": ("t:3", "grab", [T] * 4 + [F] * 6),  # merged with grabbed: 6/20
            "s:4": ("t:3", "take", [T] * 10),  # the target's lemma: dropped
        }
    )
    system = {
        "substitutes_lemmatized": False,
        "substitutes": {
            "t:3": [
                ["takes", 5],  # the target's lemma: dropped
                ["removing", 0.8],
                ["Removes", 0.9],  # capitalised: not in WordNet's index, so removes
                ["grabbing", 0.7],
                [" seizes ", 0.6],  # not lemmatised (spaces), then stripped: seizes
            ]
        },
    }
    result = evaluate_swords(parse_swords(data, "d", ALL_LABELS), parse_result(system))
    got = result.metrics
    # ranked: removes, remove, grab, seizes
    assert got["strict_a_p@10"] == pytest.approx(25.0)  # remove
    assert got["strict_c_p@10"] == pytest.approx(50.0)  # and grab: 6/20 = 0.3
    # weights remove 10, grab 2 + 4: (10/2 + 16/3) / (10 + 16/2) = 31/54
    assert got["gap"] == pytest.approx(100 * 31 / 54)
    assert result.notes[1].startswith("system: 5 substitutes for 1 targets, 4 changed")


# --- the command -------------------------------------------------------------------------


@needs_wordnet
def test_command_text_and_json(tmp_path: Path) -> None:
    data, system = tmp_path / "d.json", tmp_path / "s.json"
    data.write_text(json.dumps(dataset(HAND)), encoding="utf-8")
    system.write_text(json.dumps(SYSTEM), encoding="utf-8")
    out = io.StringIO()
    assert main(["swords", str(system), "--data", str(data), "--format", "json"], out) == 0
    report = json.loads(out.getvalue())
    assert list(report)[:23] == KEYS
    assert report["strict_c_f@10"] == pytest.approx(50.0)
    assert report["signature"].startswith(
        "metric:swords|data:d.json|lemmatiser:nltk3.5-morphy+nltk-"
    )
    out = io.StringIO()
    assert main(["swords", str(system), "--data", str(data)], out) == 0
    assert "strict_c_p@1     50.00\n" in out.getvalue()


def test_command_refuses_a_bad_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, system = tmp_path / "d.json", tmp_path / "s.json"
    data.write_text(json.dumps(dataset(HAND)), encoding="utf-8")
    system.write_text('{"substitutes": {"t:1": [[1, 2]]}}', encoding="utf-8")
    assert main(["swords", str(system), "--data", str(data)]) == 1
    assert f"{system}: substitutes.t:1[0]: substitute 1 is not a string" in capsys.readouterr().err


# --- the real data against SWORDS' own evaluate ------------------------------------------

# SWORDS' evaluate() (p-lambda/swords 04ca75370d0ce098a7f4db68240fc8e79a4f7b3b,
# swords/eval.py, run with nltk 3.5 on Debian's WordNet 3.0 and Melamud's
# generalized_average_precision.py of orenmel/lexsub 4197fcc, sha256 dd30ae88…, Python
# 3.11) on swords-v1.1_{dev,test}.json.gz and the systems of tests/swords_systems.py;
# values in the order of KEYS, as it printed them (json.dumps of its dict).
REFERENCE: dict[tuple[str, str], tuple[float, ...]] = {
    ("dev", "labelled"): (
        52.21380135620263,
        51.57604412923561,
        35.42625169147497,
        99.24184988627748,
        94.78638667632151,
        96.71558350803635,
        61.63163519771998,
        93.64005412719891,
        100.0,
        45.9312358953936,
        52.21380135620263,
        51.57604412923561,
        35.42625169147497,
        99.24184988627748,
        94.78638667632151,
        96.71558350803635,
        61.63163519771998,
        93.64005412719891,
        100.0,
        45.9312358953936,
        100.0,
        99.89233430403473,
        99.860052069372,
    ),
    ("dev", "shuffled"): (
        52.21380135620263,
        51.57604412923561,
        35.42625169147497,
        99.24184988627748,
        94.78638667632151,
        96.71558350803635,
        61.63163519771998,
        93.64005412719891,
        100.0,
        45.9312358953936,
        52.21380135620263,
        51.57604412923561,
        35.42625169147497,
        99.24184988627748,
        94.78638667632151,
        96.71558350803635,
        61.63163519771998,
        93.64005412719891,
        100.0,
        45.9312358953936,
        100.0,
        99.90418258162589,
        99.86210893772788,
    ),
    ("dev", "coinco_only"): (
        40.21768707482993,
        39.550441530639546,
        31.36672325976231,
        56.02729340409402,
        53.51194786386676,
        62.58596973865199,
        36.808575184548495,
        77.24957555178268,
        52.601156069364166,
        24.160361077923802,
        40.21768707482993,
        39.550441530639546,
        31.36672325976231,
        56.02729340409402,
        53.51194786386676,
        62.58596973865199,
        36.808575184548495,
        77.24957555178268,
        52.601156069364166,
        24.160361077923802,
        75.13513513513513,
        24.524009599592738,
        24.410897476629646,
    ),
    ("dev", "inflected"): (
        45.17622845382043,
        44.46695365915422,
        34.190031152647975,
        66.565579984837,
        63.57711803041275,
        85.16921035169209,
        50.826650826650834,
        99.96105919003115,
        74.1907514450867,
        34.07672905880791,
        39.540229885057464,
        38.98458748866727,
        28.37347410095678,
        65.20090978013646,
        62.27371469949312,
        60.576182406408876,
        37.220749716016655,
        64.86308149125702,
        56.820809248554916,
        26.09849993362538,
        74.13249211356468,
        46.47316832716004,
        46.40214367144401,
    ),
    ("test", "labelled"): (
        49.075264563346856,
        48.46176384412541,
        32.57615546218487,
        99.43887775551103,
        94.58635150590926,
        97.9091274628066,
        60.26481871055562,
        95.91649159663865,
        99.98631261976458,
        43.93456426294581,
        49.075264563346856,
        48.46176384412541,
        32.57615546218487,
        99.43887775551103,
        94.58635150590926,
        97.9091274628066,
        60.26481871055562,
        95.91649159663865,
        99.98631261976458,
        43.93456426294581,
        100.0,
        99.90654328222047,
        99.85914801080986,
    ),
    ("test", "shuffled"): (
        49.13460587478984,
        48.52036331673015,
        32.615546218487395,
        99.55911823647294,
        94.70072436141822,
        97.92253049189117,
        60.273068514622786,
        95.9296218487395,
        100.0,
        43.94057857701329,
        49.13460587478984,
        48.52036331673015,
        32.615546218487395,
        99.55911823647294,
        94.70072436141822,
        97.92253049189117,
        60.273068514622786,
        95.9296218487395,
        100.0,
        43.94057857701329,
        100.0,
        99.93022799385413,
        99.86757033582113,
    ),
    ("test", "coinco_only"): (
        32.482709277367036,
        31.99436222692037,
        23.120013580037345,
        54.58917835671343,
        51.92527640106748,
        62.862771842085316,
        36.841637800870416,
        70.4124936343575,
        56.77525321653436,
        24.947374751909546,
        32.482709277367036,
        31.99436222692037,
        23.120013580037345,
        54.58917835671343,
        51.92527640106748,
        62.862771842085316,
        36.841637800870416,
        70.4124936343575,
        56.77525321653436,
        24.947374751909546,
        71.12860892388451,
        23.60319591012741,
        23.610490113476136,
    ),
    ("test", "inflected"): (
        41.96705066270284,
        41.31203511766858,
        30.36930799569738,
        67.89579158316633,
        64.5825390773923,
        86.55696988512884,
        50.222922765143,
        99.96414485478667,
        76.32083219271831,
        33.53581524027185,
        37.38127544097693,
        36.84797146678555,
        26.035596156875094,
        66.25250501002003,
        63.019443385436524,
        62.9073599414134,
        37.38683844011142,
        67.64844857457868,
        58.78729811114153,
        25.83147891982919,
        79.93874425727412,
        48.1027112721002,
        48.02520259233678,
    ),
}


@pytest.fixture(scope="module")
def real_data() -> dict[str, Any]:
    """split → (its decoded JSON, the dataset read)."""
    out: dict[str, Any] = {}
    for split in ("dev", "test"):
        path = shared_path("data", "swords", f"swords-v1.1_{split}.json.gz")
        out[split] = (json.loads(_gunzip(path)), read_swords(path, ALL_LABELS))
    return out


def _gunzip(path: Path) -> str:
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return handle.read()


@needs_wordnet
@pytest.mark.shared_data
@pytest.mark.parametrize(("split", "system"), sorted(REFERENCE))
def test_real_data_equals_swords_own_evaluation(
    real_data: dict[str, Any], split: str, system: str, tmp_path: Path
) -> None:
    raw, data = real_data[split]
    path = tmp_path / "system.json.gz"
    import gzip

    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(swords_systems.SYSTEMS[system](raw), handle)
    got = evaluate_swords(data, read_result_file(path)).metrics
    assert list(got) == KEYS
    for key, expected in zip(KEYS, REFERENCE[split, system], strict=True):
        assert math.isclose(got[key], expected, abs_tol=1e-9), (key, got[key], expected)
