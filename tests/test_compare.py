"""The leaderboard: scoring.measures (rows), scoring.leaderboard and its command line
scoring.leaderboard.cli."""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from scoring import __version__, significance
from scoring.files.bounded import read_text
from scoring.formats.gold import read_gold
from scoring.leaderboard import Settings, leaderboard, system_names
from scoring.leaderboard import cli as compare
from scoring.leaderboard.rows import detect_kind, score_files
from scoring.registry import MEASURES, official_figure
from scoring.score.report import by_pos
from scoring.score.scan import score_system
from tests.conftest import shared_path

# happy.a: |H| = 7, maxfreq 3 (glad); bright.a: |H| = 4, maxfreq 2 (smart)
GOLD = [
    "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;",
    "bright.a 2 :: smart 2;intelligent 1;brilliant 1;",
    "bright.a 3 :: shiny 2;luminous 2;",
]
BEST = "happy.a 1 :: glad;cheerful\nbright.a 2 :: dull\n"
OOT = "happy.a 1 ::: cheerful;glad\nbright.a 3 ::: luminous;shiny;dark\n"
RANKED = "happy.a 1 :::: 0.9 merry;0.5 glad\nbright.a 2 :::: 0.8 smart;0.7 dull;0.1 brilliant\n"


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    status = compare.main(list(args), out)
    return status, out.getvalue()


def files(tmp_path: Path, **texts: str) -> dict[str, str]:
    paths = {}
    for name, text in texts.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    return paths


def test_hand_computed_best_and_revised_figures() -> None:
    rows = score_files(read_gold(GOLD), [("sys.best", BEST)])[0]
    # best credit: happy (3+1)/7/2 = 2/7, bright 2: 0; over 2 attempted and 3 items
    assert rows.value("best.P") == pytest.approx(float(Fraction(2, 7) / 2))
    assert rows.value("best.R") == pytest.approx(float(Fraction(2, 7) / 3))
    # mode: happy's mode glad is the first guess; bright 2 has mode smart, guess dull
    assert rows.value("best.mode_P") == pytest.approx(1 / 2)
    # new best: happy (3+1)/(3*2) = 2/3, bright 2: 0/(2*1) = 0
    assert rows.value("new_best.P") == pytest.approx(1 / 3)
    assert rows.value("new_best.R") == pytest.approx(2 / 9)
    # best-1: happy 3/3, bright 0/2
    assert rows.value("best_1.P") == pytest.approx(1 / 2)
    assert rows.measures()[:4] == ["best.P", "best.R", "best.mode_P", "best.mode_R"]


def test_hand_computed_oot_revised_and_ranking_figures() -> None:
    rows = score_files(read_gold(GOLD), [("sys.oot", OOT)])[0]
    # oot credit: happy (1+3)/7, bright 3 (2+2)/4 = 1; over 2 attempted
    assert rows.value("oot.P") == pytest.approx((4 / 7 + 1) / 2)
    # weighted precision k=1: happy 4/(4+0) = 1; bright 3: 4/(4+1) = 4/5
    assert rows.value("weighted_precision.P") == pytest.approx((1 + 4 / 5) / 2)
    # GAP, file order as the ranking. happy: x = (1, 3); numerator 1/1 + 4/2 = 3;
    # ideal (3, 2, 1, 1): 3 + 5/2 + 6/3 + 7/4 = 37/4 -> 12/37. bright 3: x = (2, 2, 0):
    # 2 + 4/2 = 4, ideal 2 + 4/2 = 4 -> 1. bright 2 unranked: 0. Mean over 3 items.
    assert rows.value("gap") == pytest.approx((12 / 37 + 1 + 0) / 3)
    # P@1: happy cheerful yes, bright 3 luminous yes, bright 2 nothing: 2/3
    assert rows.value("p_at_1") == pytest.approx(2 / 3)
    # AUC: defined only on bright 3 (positives luminous, shiny over negative dark): 1
    assert rows.value("auc") == 1.0


def test_ranked_file_is_scored_by_its_scores() -> None:
    rows = score_files(read_gold(GOLD), [("sys.rank", RANKED)])[0]
    assert rows.kind == "ranked"
    assert "best.P" not in rows.measures() and "gap" in rows.measures()
    # bright 2 ranked smart, dull, brilliant: AUC positives {smart 0.8, brilliant 0.1},
    # negative dull 0.7: pairs (smart > dull) 1, (brilliant < dull) 0 -> 1/2.
    # happy: merry, glad both positive: undefined. Mean over the one defined item.
    assert rows.value("auc") == 0.5
    # P@1: happy merry (relevant), bright 2 smart (relevant), bright 3 nothing -> 2/3
    assert rows.value("p_at_1") == pytest.approx(2 / 3)


def test_kind_detection_and_its_error() -> None:
    assert detect_kind("\n" + BEST, "x") == "best"
    assert detect_kind(OOT, "x") == "oot"
    assert detect_kind(RANKED, "x") == "ranked"
    with pytest.raises(ValueError, match="no line names an item"):
        detect_kind("hello\n", "notes.txt")


def test_names_are_file_names_unless_two_collide() -> None:
    assert system_names(["a/x.best", "b/y.oot"]) == ["x.best", "y.oot"]
    assert system_names(["a/x.best", "b/x.best", "c/z"]) == ["a/x.best", "b/x.best", "z"]


def test_json_contract(tmp_path: Path) -> None:
    paths = files(tmp_path, gold="\n".join(GOLD) + "\n", **{"s.best": BEST, "s.oot": OOT})
    status, out = run(paths["gold"], paths["s.best"], paths["s.oot"], "--format", "json")
    assert status == 0
    body = json.loads(out)
    assert set(body["systems"]) == {"s.best", "s.oot"}
    assert body["systems"]["s.best"]["best.P"] == pytest.approx(1 / 7)
    assert "oot.P" not in body["systems"]["s.best"]
    # eq. 7: (3/7 + 2/4 + 2/4) / 3
    assert body["upper_bounds"]["best"] == pytest.approx((3 / 7 + 1) / 3)
    assert set(body["signatures"]) == set(body["measures"])
    assert body["signatures"]["weighted_precision.P"].startswith(
        "metric:weighted_precision.P|rules:fixed|t:two+responses|k:1|"
    )


def test_measures_option_and_by_pos(tmp_path: Path) -> None:
    paths = files(tmp_path, gold="\n".join(GOLD) + "\n", **{"s.best": BEST})
    status, out = run(
        paths["gold"],
        paths["s.best"],
        "--measures",
        "best.R",
        "new_best.R",
        "--by-pos",
        "--format",
        "json",
    )
    assert status == 0
    body = json.loads(out)
    assert list(body["systems"]["s.best"]) == ["best.R", "new_best.R"]
    assert body["by_pos"]["s.best"]["a"]["best.R"] == pytest.approx(2 / 21)
    assert body["by_pos"]["s.best"]["n"]["best.R"] is None  # no noun in the gold


def test_usage_and_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = files(tmp_path, gold="\n".join(GOLD) + "\n", **{"s.best": BEST})
    with pytest.raises(SystemExit) as usage:
        run(paths["gold"], paths["s.best"], "--measures", "best.F")
    assert usage.value.code == 2
    assert "unknown measure 'best.F'" in capsys.readouterr().err
    status, _ = run(paths["gold"], str(tmp_path / "missing.best"))
    assert status == 1
    assert "missing.best" in capsys.readouterr().err
    bad = files(tmp_path, **{"bad.rank": "happy.a 1 :::: x merry\n"})
    status, _ = run(paths["gold"], bad["bad.rank"])
    assert status == 1
    assert "bad.rank:1:" in capsys.readouterr().err


def test_text_markdown_and_csv_outputs(tmp_path: Path) -> None:
    paths = files(tmp_path, gold="\n".join(GOLD) + "\n", **{"s.best": BEST, "s.oot": OOT})
    _, text = run(paths["gold"], paths["s.best"], paths["s.oot"])
    assert "s.best" in text and "14.29" in text  # best.P = 1/7
    assert "Upper bounds (%): best 47.62" in text
    _, markdown = run(paths["gold"], paths["s.best"], "--format", "markdown")
    assert "| system | best.P |" in markdown
    _, table = run(paths["gold"], paths["s.best"], "--format", "csv")
    lines = table.splitlines()
    assert lines[0] == "system,pos,measure,value,low,high,signature"
    assert lines[1].startswith("s.best,all,best.P,0.142857")


def test_rows_add_up_to_the_official_totals() -> None:
    gold = read_gold(read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True))
    for kind in ("best", "oot"):
        text = read_text(
            shared_path("data", "systems", "context2vec", f"test.generated.{kind}"), perl=True
        )
        official = score_system(kind, gold, text, "sys")
        rows = score_files(gold, [("sys", text)])[0]
        assert rows.value(f"{kind}.P") == pytest.approx(official_figure(official, "P"), abs=1e-12)
        assert rows.value(f"{kind}.R") == pytest.approx(official_figure(official, "R"), abs=1e-12)
        assert rows.value(f"{kind}.mode_R") == official_figure(official, "mode_R")
        masks = {"n": "n", "v": "v", "a": "a", "r": "r"}
        expected = by_pos(official, gold)
        for pos in masks:
            mask = np.array([lexelt.endswith("." + pos) for lexelt in rows.lexelts])
            assert rows.value(f"{kind}.R", mask) == pytest.approx(expected[pos].recall, abs=1e-12)


def test_the_gold_answer_system_scores_one_where_the_maximum_is_unique() -> None:
    """A system answering each item with its gold line's first entry (the gold lists the
    most frequent first) scores new best and best-1 1.0 wherever that maximum is unique."""
    gold = read_gold(read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True))
    lines, unique = [], []
    for item_id, item in gold.items.items():
        first, count = item.counts[0]
        lines.append(f"{item.lexelt} {item_id} :: {first}")
        if [c for _, c in item.counts].count(count) == 1 and count == max(
            c for _, c in item.counts
        ):
            unique.append(item_id)
    rows = score_files(gold, [("gold.best", "\n".join(lines) + "\n")])[0]
    mask = np.isin(np.array(rows.ids), unique)
    assert mask.sum() == len(unique) > 1000
    assert rows.value("new_best.R", mask) == 1.0
    assert rows.value("best_1.R", mask) == 1.0
    # and its official best recall is the upper bound of eq. 7 (the paper's 45.76)
    result = leaderboard(gold, [("gold.best", "\n".join(lines) + "\n")], Settings())
    best = result.upper_bounds["best"]
    assert best is not None and f"{100 * best:.2f}" == "45.76"
    assert result.systems["gold.best"]["best.R"] == pytest.approx(best, abs=1e-12)


def test_real_systems_go_through_every_measure() -> None:
    gold_path = shared_path("data", "semeval2007", "test", "gold")
    systems = [
        str(shared_path("data", "systems", "context2vec", f"test.generated.{kind}"))
        for kind in ("best", "oot")
    ]
    status, out = run(str(gold_path), *systems, "--format", "json")
    assert status == 0
    body = json.loads(out)
    best, oot = body["systems"]["test.generated.best"], body["systems"]["test.generated.oot"]
    assert round(100 * best["best.R"], 2) == 3.20  # the figure of ../shared/data/README.md
    assert round(100 * oot["oot.R"], 2) == 14.05
    applicable = {m for m, d in MEASURES.items() if "oot" in d.kinds}
    assert set(oot) == applicable and all(v is not None for v in oot.values())
    assert set(best) == {m for m, d in MEASURES.items() if "best" in d.kinds}


def test_trial_baseline_goes_through_every_measure() -> None:
    gold = read_gold(
        read_text(shared_path("data", "semeval2007", "trial", "gold.trial"), perl=True)
    )
    text = read_text(shared_path("data", "semeval2007", "trial", "BL.out"), perl=True)
    result = leaderboard(gold, [("BL.out", text)], Settings())
    values = result.systems["BL.out"]
    assert values["best.R"] is not None
    official = score_system("best", gold, text, "BL.out")
    assert values["best.R"] == pytest.approx(official_figure(official, "R"))
    assert round(100 * values["best.R"], 2) == 7.47
    assert all(value is not None for value in values.values())


def test_significance_of_a_system_against_itself_and_a_better_one(tmp_path: Path) -> None:
    gold = [f"word{n // 10}.n {n} :: right 3;fine 1;" for n in range(1, 201)]
    good = "".join(f"word{n // 10}.n {n} :: right\n" for n in range(1, 201))
    poor = "".join(
        f"word{n // 10}.n {n} :: {'right' if n % 4 == 0 else 'wrong'}\n" for n in range(1, 201)
    )
    paths = files(
        tmp_path, gold="\n".join(gold) + "\n", **{"a.best": good, "b.best": good, "c.best": poor}
    )
    status, out = run(
        paths["gold"],
        paths["a.best"],
        paths["b.best"],
        paths["c.best"],
        "--significance",
        "--measures",
        "best.R",
        "--resamples",
        "200",
        "--trials",
        "200",
        "--seed",
        "3",
        "--format",
        "json",
    )
    assert status == 0
    body = json.loads(out)
    by_pair = {(c["a"], c["b"]): c for c in body["significance"]}
    same = by_pair[("a.best", "b.best")]
    assert (same["delta"], same["low"], same["high"]) == (0.0, 0.0, 0.0)
    assert same["p_bootstrap"] == 1.0 and same["p_randomisation"] == 1.0
    worse = by_pair[("a.best", "c.best")]
    # best.R: a = 3/4 on every item; c = 3/4 on a quarter of them: delta = -9/16
    assert worse["delta"] == pytest.approx(-9 / 16)
    assert worse["high"] < 0
    assert worse["p_randomisation"] == pytest.approx(1 / 201)  # (0 + 1) / (200 + 1)
    low, high = body["intervals"]["a.best"]["best.R"]
    assert low == high == pytest.approx(0.75)  # every resample of a constant system
    assert body["resampling"] == {
        "unit": "lemma",
        "resamples": 200,
        "trials": 200,
        "seed": 3,
        "confidence": 0.95,
    }
    assert body["signatures"]["best.R"].endswith(
        f"|resample:lemma|n:200|trials:200|seed:3|ci:0.95|version:{__version__}"
    )
    _, text = run(
        paths["gold"],
        paths["a.best"],
        paths["c.best"],
        "--significance",
        "--measures",
        "best.R",
        "--resamples",
        "200",
        "--trials",
        "200",
        "--seed",
        "3",
    )
    assert "a.best  75.00 [75.00, 75.00]" in text
    assert re.search(r"best\.R +a\.best +c\.best +75\.00 +18\.75 +-56\.25 ", text)
    assert "seed 3" in text


def test_significance_over_few_lemmas_says_it_is_unreliable(tmp_path: Path) -> None:
    # 19 lemmas (word0 has items 1-9, word1..word18 ten each): one short of the rule of
    # thumb; 20 lemmas (items 1-199 and one of word19) give no warning
    def compared(items: int, output: str) -> str:
        gold = "".join(f"word{n // 10}.n {n} :: right 3;fine 1;\n" for n in range(1, items + 1))
        system = "".join(f"word{n // 10}.n {n} :: right\n" for n in range(1, items + 1))
        other = "".join(f"word{n // 10}.n {n} :: fine\n" for n in range(1, items + 1))
        paths = files(tmp_path, gold=gold, **{"a.best": system, "b.best": other})
        status, out = run(
            *paths.values(),
            "--significance",
            "--resamples",
            "50",
            "--trials",
            "50",
            "--measures",
            "best.R",
            "--format",
            output,
        )
        assert status == 0
        return out

    warning = "only 19 lemmas: with fewer than 20 the intervals and p-values are unreliable"
    assert json.loads(compared(189, "json"))["resampling"]["warning"] == warning
    assert f"Warning: {warning}.\n" in compared(189, "text")
    assert "warning" not in json.loads(compared(191, "json"))["resampling"]
    assert "Warning" not in compared(191, "text")


def test_workers_do_not_change_a_figure() -> None:
    gold = read_gold(GOLD)
    one = score_files(gold, [("a", BEST), ("b", OOT), ("c", RANKED)], workers=1)
    two = score_files(gold, [("a", BEST), ("b", OOT), ("c", RANKED)], workers=2)
    for first, second in zip(one, two, strict=True):
        assert first.name == second.name and first.columns.keys() == second.columns.keys()
        for column in first.columns:
            assert np.array_equal(first.columns[column], second.columns[column])


def test_analyses_of_the_real_systems() -> None:
    gold_path = shared_path("data", "semeval2007", "test", "gold")
    systems = [
        str(shared_path("data", "systems", "context2vec", f"test.generated.{kind}"))
        for kind in ("best", "oot")
    ]
    status, out = run(
        str(gold_path), *systems, "--analyses", "--measures", "best.R", "--format", "json"
    )
    assert status == 0
    found = json.loads(out)["analyses"]
    assert found["duplicates"]["test.generated.oot"]["iwd"] == 0
    overlap = found["type_overlap"]["test.generated.best"]
    assert overlap["type_overlap"] == pytest.approx(182 / 171)  # docs/analyses.md
    assert overlap["subs"] == pytest.approx(1643 / 171)
    assert found["disambiguation"]["systems"]["test.generated.best"]["all"] == pytest.approx(
        56 / 171
    )


def test_a_gold_item_with_no_count_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = files(
        tmp_path,
        gold="bad.n 1 :: aa 0;bb 0;\ngood.n 2 :: x 2;y 1;\n",
        **{"s.best": "good.n 2 :: x\n"},
    )
    assert run(paths["gold"], paths["s.best"])[0] == 1
    assert capsys.readouterr().err == (
        "Error: gold item bad.n 1: gold counts add up to 0; |H_i| must be positive\n"
    )


def test_the_typed_leaderboard_gives_the_json_shape_of_the_readme() -> None:
    gold = read_gold(GOLD)
    board = leaderboard(
        gold,
        [("a.best", BEST), ("b.oot", OOT)],
        Settings(by_pos=True, significance=True, resamples=20, trials=20),
    )
    body = board.to_json()
    assert list(body) == [
        "gold_items",
        "rules",
        "systems",
        "measures",
        "signatures",
        "upper_bounds",
        "by_pos",
        "intervals",
        "undefined_resamples",
        "not_compared",
        "significance",
        "resampling",
    ]
    assert body["systems"]["a.best"]["best.P"] == board.systems["a.best"]["best.P"]
    low, high = body["intervals"]["a.best"]["best.R"]
    assert board.intervals is not None
    assert (low, high) == board.intervals["a.best"]["best.R"] and low <= high
    assert body["significance"] == []  # a best and an oot file share no measure
    assert body["not_compared"] == [{"a": "a.best", "b": "b.oot", "reason": "no measure in common"}]
    # b.oot's mode precision is 1 on the only lemma where it attempts a modal item
    # (happy.a); the 4 resamples of bright.a alone leave it undefined and are left out,
    # not scored 0 (the interval was [0, 1]); auc likewise in 5
    assert body["intervals"]["b.oot"]["oot.mode_P"] == [1.0, 1.0]
    assert body["undefined_resamples"] == {"b.oot": {"oot.mode_P": 4, "auc": 5}}
    assert body["resampling"] == {
        "unit": "lemma",
        "resamples": 20,
        "trials": 20,
        "seed": 12345,
        "confidence": 0.95,
        "warning": "only 2 lemmas: with fewer than 20 the intervals and p-values are unreliable",
    }
    assert json.loads(json.dumps(body)) == body


def test_a_pairs_figures_are_the_tables_to_the_bit() -> None:
    """A pair's a_value and b_value are the two systems' figures in the table, and its delta
    is b_value - a_value, to the bit: all are computed from the table's sums (each column
    added in the order of the items), not from the sums of the lemmas' sums."""
    gold = read_gold(read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True))
    oot = read_text(shared_path("data", "systems", "context2vec", "test.generated.oot"), perl=True)
    lines = oot.splitlines()
    # a second system: every third line's guesses reversed, every seventh line left out
    other = "\n".join(
        (head + ":::" + ";".join(reversed(tail.split(";"))) if n % 3 == 0 else line)
        for n, line in enumerate(lines)
        if n % 7
        for head, _, tail in [line.partition(":::")]
    )
    board = leaderboard(
        gold,
        [("a.oot", oot), ("b.oot", other + "\n")],
        Settings(significance=True, resamples=20, trials=20),
    )
    assert board.significance is not None
    tests = {test.measure: test for test in board.significance}
    assert len(tests) >= 10
    moved = 0
    for measure, test in tests.items():
        a, b = board.systems["a.oot"][measure], board.systems["b.oot"][measure]
        assert a is not None and b is not None, measure
        assert (test.a_value, test.b_value, test.delta) == (a, b, b - a), measure
    # what the pairs reported before: figures from the sums of the lemmas' sums, which
    # differ from the table's in the last bits on this data
    for rows in score_files(gold, [("a.oot", oot)]):
        codes, lemmas = significance.cluster_codes(rows.lexelts)
        for measure in tests:
            stats = rows.stats(measure)
            by_lemma = significance.sums_by_cluster(stats, codes, len(lemmas)).sum(axis=0)
            moved += MEASURES[measure].figure(by_lemma.tolist()) != rows.value(measure)
    assert moved > 0


@pytest.mark.parametrize("name", ["+cmd.best", "=HYPERLINK(1).best", "@SUM(A1).best"])
def test_csv_neutralises_a_system_name_that_is_a_formula(tmp_path: Path, name: str) -> None:
    """OWASP's rule for CSV injection: the cell gets a leading ``'``; figures stay numbers."""
    paths = files(tmp_path, gold="happy.a 1 :: glad 2;merry 1;\n", **{name: "happy.a 1 :: glad\n"})
    status, out = run(paths["gold"], paths[name], "--format", "csv", "--measures", "best.P")
    assert status == 0
    row = out.splitlines()[1].split(",")
    assert row[:4] == [f"'{name}", "all", "best.P", "0.6666666666666666"]


def test_a_system_that_skips_lemmas_has_its_undefined_resamples_left_out(
    tmp_path: Path,
) -> None:
    # 21 lemmas (word0 has items 1-9); some.best answers word0 and word1 only, "right"
    # (3 of 4) on each item: its precision is 3/4 on every resample that attempts anything
    gold = "".join(f"word{n // 10}.n {n} :: right 3;fine 1;\n" for n in range(1, 201))
    every = "".join(f"word{n // 10}.n {n} :: right\n" for n in range(1, 201))
    some = "".join(f"word{n // 10}.n {n} :: right\n" for n in range(1, 20))
    paths = files(tmp_path, gold=gold, **{"all.best": every, "some.best": some})
    options = ["--significance", "--measures", "best.P", "best.R", "--resamples", "200"]
    options += ["--trials", "50", "--seed", "3"]
    # the resamples that draw neither word0.n nor word1.n (the first two ids, sorted)
    counts = significance.resample_counts(21, 200, 3)
    undefined = int(((counts[:, 0] + counts[:, 1]) == 0).sum())
    assert 10 <= undefined <= 40  # (19/21)^21 = 0.122 of 200
    status, out = run(*paths.values(), *options, "--format", "json")
    assert status == 0
    body = json.loads(out)
    # scored 0, the undefined resamples put the low end at 0.00
    assert body["intervals"]["some.best"]["best.P"] == [0.75, 0.75]
    assert body["undefined_resamples"] == {"some.best": {"best.P": undefined}}
    by_measure = {test["measure"]: test for test in body["significance"]}
    assert by_measure["best.P"]["delta"] == 0.0
    assert by_measure["best.P"]["undefined_resamples"] == undefined
    assert (by_measure["best.P"]["low"], by_measure["best.P"]["high"]) == (0.0, 0.0)
    assert "undefined_resamples" not in by_measure["best.R"]  # recall: always defined
    note = f"({undefined} of 200 resamples undefined)"
    _, text = run(*paths.values(), *options)
    assert f"some.best  75.00 [75.00, 75.00] {note}" in text
    pair = r"best\.P +all\.best +some\.best +75\.00 +75\.00 +0\.00 +\[0\.00, 0\.00\] "
    assert re.search(pair + re.escape(note), text)
    _, markdown = run(*paths.values(), *options, "--by-pos", "--format", "markdown")
    assert f"| some.best | all | 75.00 [75.00, 75.00] {note} |" in markdown
    assert "| some.best | n | 75.00 |" in markdown  # the PoS rows: no interval
    _, by_pos_text = run(*paths.values(), *options, "--by-pos")
    assert f"75.00 [75.00, 75.00] {note}" in by_pos_text
    _, table = run(*paths.values(), *options, "--format", "csv")
    assert table.splitlines()[0].endswith(",signature,undefined_resamples")
    row = next(line for line in table.splitlines() if line.startswith("some.best,all,best.P,"))
    assert row.endswith(f",{undefined}")


def test_a_measure_undefined_in_most_resamples_has_no_interval(tmp_path: Path) -> None:
    gold = "".join(f"word{n // 10}.n {n} :: right 3;fine 1;\n" for n in range(1, 201))
    every = "".join(f"word{n // 10}.n {n} :: right\n" for n in range(1, 201))
    paths = files(tmp_path, gold=gold, **{"all.best": every, "none.best": "word0.n 1 ::\n"})
    options = ["--significance", "--measures", "best.P", "--resamples", "100", "--trials", "50"]
    status, out = run(*paths.values(), *options, "--format", "json")
    assert status == 0
    body = json.loads(out)
    assert body["systems"]["none.best"]["best.P"] is None  # attempted nothing
    assert body["intervals"]["none.best"]["best.P"] == [None, None]  # was [0.0, 0.0]
    assert body["undefined_resamples"] == {"none.best": {"best.P": 100}}
    (test,) = body["significance"]  # it entered the paired tests as 0
    assert [test[k] for k in ("b_value", "delta", "low", "high", "p_bootstrap")] == [None] * 5
    assert test["p_randomisation"] is None and test["undefined_resamples"] == 100
    _, text = run(*paths.values(), *options)
    assert "none.best  n/a (100 of 100 resamples undefined)" in text


def test_a_best_and_an_oot_file_are_said_to_share_no_measure_before_any_swap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_swap(*_: object) -> None:
        raise AssertionError("swaps drawn for no pair")

    monkeypatch.setattr(significance, "_swapped", no_swap)
    paths = files(tmp_path, gold="\n".join(GOLD) + "\n", **{"s.best": BEST, "s.oot": OOT})
    options = ["--significance", "--resamples", "20", "--trials", "20"]
    status, text = run(paths["gold"], paths["s.best"], paths["s.oot"], *options)
    assert status == 0
    assert "s.best and s.oot share no measure: not compared.\n" in text
    assert "no pair to compare" not in text
    _, out = run(paths["gold"], paths["s.best"], paths["s.oot"], *options, "--format", "json")
    body = json.loads(out)
    assert body["not_compared"] == [{"a": "s.best", "b": "s.oot", "reason": "no measure in common"}]
    assert body["significance"] == [] and "s.best" in body["intervals"]
