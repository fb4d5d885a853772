"""``python -m scoring.benchmark semeval07``: GAP over the pooled candidates (Melamud's and
LexSubGen's conventions) and LexSubGen's P@k, R@k and F1@k (k = 1, 3, 10).

Hand-made items are checked against Melamud's formula worked by hand; the real golds
against the figures Melamud's ``lst_gap.py`` and LexSubGen's metrics printed on the same
systems (docs/benchmarks.md, "Reference runs"); and one file gives the same
GAP through ``scoring.leaderboard.cli``, the library and the benchmark."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from scoring.benchmark.candidates import (
    BenchmarkItem,
    Options,
    SystemItem,
    format_pools,
    pools,
    read_system_items,
    score,
)
from scoring.benchmark.cli import main
from scoring.benchmark.semeval07 import read_task_gold
from scoring.errors import FormatError
from scoring.files.bounded import read_text
from scoring.formats.gold import read_gold, read_gold_as_written
from scoring.formats.ranked import parse_ranking_line
from scoring.formats.system import read_system_ranking
from scoring.formats.text import read_lines
from scoring.measures.ranking.items import gap
from tests.benchmark_systems import gold_order_system, pool_shuffled_system, ranked_text
from tests.conftest import shared_path

MELAMUD_RAW = Options("ranking", "melamud", "raw")
LEXSUBGEN_RAW = Options("ranking", "lexsubgen", "raw")
FIXED = Options(matching="fixed")
"""Our normaliser's matching (Melamud's convention), no longer the default."""


def item(rest: str, lexelt: str = "bright.a", item_id: str = "1") -> BenchmarkItem:
    return read_task_gold([f"{lexelt} {item_id} :: {rest}"], "gold")[0]


def ranking(entries: str, lexelt: str = "bright.a", item_id: str = "1") -> dict[str, SystemItem]:
    line = parse_ranking_line(f"{lexelt} {item_id} :::: {entries}", 1, "run")
    return {item_id: SystemItem(line.lexelt, line.id, line.candidates, 1)}


def one(rest: str, entries: str, options: Options, metric: str = "gap") -> float | None:
    return score([item(rest)], ranking(entries), options).items["1"][metric]


# --- hand-made items, Melamud's formula by hand ------------------------------------------


def test_ties_keep_the_order_given() -> None:
    # b (0.9), then c and a tie at 0.5 in that order: b, c, a.
    # numerator 2/1 + (2+1)/2 + (2+1+3)/3 = 11/2; ideal 3/1 + 5/2 + 6/3 = 15/2
    for options in (FIXED, MELAMUD_RAW, LEXSUBGEN_RAW):
        assert one("a 3;b 2;c 1;", "0.5 c;0.9 b;0.5 a", options) == pytest.approx(11 / 15)


def test_a_candidate_ranked_twice() -> None:
    # raw (both codebases): a counts at places 1 and 2: 3/1 + 6/2 + 8/3 = 26/3 over 15/2
    for options in (MELAMUD_RAW, LEXSUBGEN_RAW):
        assert one("a 3;b 2;c 1;", "3 a;2 a;1 b", options) == pytest.approx(52 / 45)
    # fixed: once, at its first place: a, b -> 3 + 5/2 = 11/2 over 15/2
    assert one("a 3;b 2;c 1;", "3 a;2 a;1 b", FIXED) == pytest.approx(11 / 15)


def test_a_gold_substitute_written_twice() -> None:
    # Melamud: x keeps its last count 2; the ideal has every entry: 2, 2, 1 -> 2 + 4/2 + 5/3
    assert one("x 1;y 2;x 2;", "2 x;1 y", MELAMUD_RAW) == pytest.approx(4 / (17 / 3))
    # LexSubGen: {x: 2, y: 2}, ideal 2, 2 -> 2 + 4/2 = 4 = numerator
    assert one("x 1;y 2;x 2;", "2 x;1 y", LEXSUBGEN_RAW) == pytest.approx(1.0)
    # ours: x 3, y 2
    assert one("x 1;y 2;x 2;", "2 x;1 y", FIXED) == pytest.approx(1.0)


def test_whitespace_variants_of_a_substitute() -> None:
    # the test gold's yard.n 801: 'garden 2;lot 1;garden  1;property 1;'
    rest = "garden 2;lot 1;garden  1;property 1;"
    # Melamud: 'garden ' is a key of its own that no trimmed candidate meets
    # numerator 2/1 + 3/2; ideal 2/1 + 3/2 + 4/3 + 5/4
    assert one(rest, "2 garden;1 lot", MELAMUD_RAW) == pytest.approx(
        3.5 / (2 + 1.5 + 4 / 3 + 5 / 4)
    )
    # LexSubGen strips it: {garden: 1 (the last), lot: 1, property: 1}; 1 + 2/2 over 1 + 1 + 1
    assert one(rest, "2 garden;1 lot", LEXSUBGEN_RAW) == pytest.approx(2 / 3)
    # ours: garden 3, lot 1, property 1: 3 + 4/2 over 3 + 4/2 + 5/3
    assert one(rest, "2 garden;1 lot", FIXED) == pytest.approx(5 / (5 + 5 / 3))


def test_hyphen_and_apostrophe_keys() -> None:
    rest = "brand-new 2;people's 1;"
    for options in (FIXED, MELAMUD_RAW, LEXSUBGEN_RAW):  # the exact answer: 1
        assert one(rest, "2 brand-new;1 people's", options) == 1.0
    # variants meet the keys only through the one normaliser
    assert one(rest, "2 Brand new;1 peoples", FIXED) == 1.0
    assert one(rest, "2 Brand new;1 peoples", MELAMUD_RAW) == 0.0


def test_pn_is_a_gold_substitute() -> None:
    # the trial gold's gall.n 211: 'pn 2;secretion  producing 1;'
    rest = "pn 2;secretion  producing 1;"
    # ours: 'secretion producing' 1 at place 1 over the ideal pn 2, then 1: 2 + 3/2
    assert one(rest, "1 secretion producing", FIXED) == pytest.approx(1 / 3.5)
    # Melamud and LexSubGen keep the double space inside: no candidate meets it
    assert one(rest, "1 secretion producing", MELAMUD_RAW) == 0.0
    assert one(rest, "1 pn", LEXSUBGEN_RAW) == pytest.approx(2 / 3.5)


def test_items_outside_t_are_items() -> None:
    # one response: not in score.pl's T, an item for both codebases
    assert one("word 1;", "1 word", FIXED) == 1.0
    assert one("pn 1;", "1 pn", MELAMUD_RAW) == 1.0


def test_multiword_entries() -> None:
    rest = "clever 2;most able 1;quick-witted 1;"
    drop = Options("ranking", "melamud", "raw", drop_multiword=True)
    # no-mwe: only clever is left, on both sides
    assert one(rest, "3 most able;2 clever", drop) == 1.0
    # kept: most able at 1 (1/1), clever at 2 ((1+2)/2); ideal 2 + 3/2 + 4/3
    assert one(rest, "3 most able;2 clever", MELAMUD_RAW) == pytest.approx(2.5 / (2 + 1.5 + 4 / 3))
    # LexSubGen's gap_normalized keeps [A-Za-z]+ only
    assert one(rest, "3 most able;2 clever", LEXSUBGEN_RAW, "gap_normalized") == 1.0
    # an item with only multiword entries is left out of the mean
    only = score([item("most able 2;")], ranking("1 x"), drop)
    assert only.items["1"]["gap"] is None and only.metrics["gap"] == 0.0


def test_lexsubgen_takes_the_ideal_in_file_order() -> None:
    # 'a 1;b 3;' ranked b, a: numerator 3 + 4/2 = 5; LexSubGen's ideal 1 + 4/2 = 3 -> 5/3
    assert one("a 1;b 3;", "2 b;1 a", LEXSUBGEN_RAW) == pytest.approx(5 / 3)
    assert one("a 1;b 3;", "2 b;1 a", MELAMUD_RAW) == 1.0  # sorted ideal 3 + 4/2


def test_generation_as_lexsubgen_counts() -> None:
    generation = Options("generation", "lexsubgen", "fixed")
    values = score([item("a 2;b 1;c 1;")], ranking("4 a;3 x;2 b;1 y"), generation).items["1"]
    # gold {a, b, c}, ranked a x b y. k = 1: 1 hit of 1, P 1, R 1/3, F1 2(1/3)/(4/3) = 1/2;
    # k = 3: 2 hits of 3, P 2/3, R 2/3, F1 2/3; k = 10: the 4 given, 2 hits, P 1/2, R 2/3,
    # F1 2(1/2)(2/3)/(7/6) = 4/7. LexSubGen's names, in its order.
    assert values == pytest.approx(
        {
            "prec@1": 1.0,
            "rec@1": 1 / 3,
            "f1@1": 1 / 2,
            "prec@3": 2 / 3,
            "rec@3": 2 / 3,
            "f1@3": 2 / 3,
            "prec@10": 1 / 2,
            "rec@10": 2 / 3,
            "f1@10": 4 / 7,
        }
    )
    assert list(values) == [f"{name}@{k}" for k in (1, 3, 10) for name in ("prec", "rec", "f1")]
    # no hit: P, R and F1 are 0 (LexSubGen's F1 is 0 when P or R is)
    miss = score([item("a 2;")], ranking("1 x"), generation).items["1"]
    assert (miss["prec@1"], miss["rec@1"], miss["f1@1"]) == (0.0, 0.0, 0.0)
    # fewer than k: P@k divides by the number given (LexSubGen's formula)
    short = score([item("a 2;b 1;c 1;")], ranking("2 a;1 x"), generation)
    assert short.items["1"]["prec@3"] == 0.5
    assert any("fewer than 10" in note for note in short.notes)
    # raw: the gold list has both whitespace variants; a repeated guess counts twice
    raw = Options("generation", "lexsubgen", "raw")
    twice = score([item("garden 2;garden  1;lot 1;")], ranking("2 garden;1 garden"), raw)
    assert twice.items["1"]["prec@3"] == 1.0 and twice.items["1"]["rec@10"] == pytest.approx(2 / 3)


def test_generation_f1_is_the_mean_of_the_items_f1() -> None:
    # item 1: gold {a, b, c, d}, top 1 = a: P 1, R 1/4, F1 2/5; item 2: gold {e}, top 1 = e:
    # F1 1. The figure is the mean of the F1s, (2/5 + 1) / 2 = 70%, as LexSubGen averages its
    # per-item rows; the F1 of the mean P (1) and R (5/8) would be 10/13 = 76.9%.
    items = [item("a 1;b 1;c 1;d 1;", item_id="1"), item("e 1;", item_id="2")]
    system = {**ranking("1 a", item_id="1"), **ranking("1 e", item_id="2")}
    metrics = score(items, system, Options("generation", "lexsubgen", "raw")).metrics
    assert metrics["f1@1"] == pytest.approx(70.0)
    assert (metrics["prec@1"], metrics["rec@1"]) == pytest.approx((100.0, 62.5))


def test_an_item_without_a_system_line_scores_zero() -> None:
    items = [item("a 2;", item_id="1"), item("b 2;", item_id="2")]
    result = score(items, ranking("1 a"), FIXED)
    assert result.metrics["gap"] == 50.0
    assert any("no system line" in note for note in result.notes)


def test_pools_are_every_gold_substitute_of_the_target() -> None:
    items = [item("a 2;pn 1;", "bar.n.v", "1"), item("b 2;a 1;", "bar.n", "2")]
    assert pools(items, FIXED) == {"bar.n": ("a", "pn", "b")}
    assert format_pools(pools(items, FIXED)) == "bar.n::a;pn;b\n"


# --- errors ------------------------------------------------------------------------------


def test_gold_errors_name_file_line_value_and_rule() -> None:
    with pytest.raises(FormatError) as error:
        read_task_gold(["bright.a 1 :: a 2;", "bright.a 1 :: b 2;", "bright.a 3 :: c 0;", "x"], "g")
    assert error.value.problems == (
        "g:2: id 1 already on line 1 (one line per item)",
        "g:3: 'c' has count 0 (benchmark gold counts must be >= 1)",
        "g:4: 'x' is not 'LEXELT ID :: SUBSTITUTE COUNT;…' (lexelt lemma.pos, single spaces)",
    )


def test_the_benchmark_reads_gold_as_the_splitter_does() -> None:
    # one reader (scoring.formats.gold.read_gold_as_written): the benchmark keeps pn in its place
    # and decimal weights; the splitter's responses leave pn apart and refuse a weight
    rest = "a 1;pn 2;b  1;toutou 2.5;"
    assert item(rest).entries == (("a", 1), ("pn", 2), ("b ", 1), ("toutou", 2.5))
    line = read_gold_as_written(["gall.n 211 :: a 1;pn 2;b  1;"], "g")[0]
    assert (line.entries, line.names, line.written) == (
        (("a", 1), ("b ", 1)),
        2,
        (("a", 1), ("pn", 2), ("b ", 1)),
    )
    with pytest.raises(FormatError) as error:
        read_gold_as_written(["gall.n 211 :: " + rest, "gall.n 212 ::", "gall.x 3 :: a 1;"], "g")
    assert error.value.problems == (
        "g:1: gold entry 'toutou 2.5' has a decimal weight; only whole counts of annotators "
        "can be read as responses",
        "g:3: 'gall.x 3 :: a 1;' is not 'LEXELT ID :: SUBSTITUTE COUNT;…' (lexelt lemma.pos, "
        "single spaces)",
    )


def test_a_system_line_must_name_its_item_as_the_data_does(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text("bright.a 1 :: smart 2;\n")
    system = tmp_path / "run.ranked"
    system.write_text("bright.n 1 :::: 1 smart\n")
    err = io.StringIO()
    sys_stderr, sys.stderr = sys.stderr, err
    try:
        assert main(["semeval07", str(system), "--data", str(gold)]) == 1
    finally:
        sys.stderr = sys_stderr
    assert f"{system}:1: lexelt 'bright.n' of id 1 is not the data's 'bright.a'" in err.getvalue()


def test_mwe_drop_is_for_melamuds_ranking_only(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text("bright.a 1 :: smart 2;\n")
    system = tmp_path / "run.ranked"
    system.write_text("bright.a 1 :::: 1 smart\n")
    assert (
        main(["semeval07", str(system), "--data", str(gold), "--mwe", "drop"], io.StringIO()) == 0
    )
    with pytest.raises(SystemExit):
        main(["semeval07", str(system), "--data", str(gold), "--setting", "nope"])
    argv = ["semeval07", str(system), "--data", str(gold), "--mwe", "drop", "--convention"]
    assert main([*argv, "lexsubgen"], io.StringIO()) == 1


# --- the command -------------------------------------------------------------------------


def run(argv: list[str]) -> dict[str, object]:
    out = io.StringIO()
    assert main(argv, out) == 0
    return dict(json.loads(out.getvalue()))


def test_command_json_text_and_pool(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text("bright.a 1 :: brand-new 2;people's 1;\nbright.a 2 :: smart 1;\n")
    system = tmp_path / "run.ranked"
    system.write_text("bright.a 1 :::: 2 Brand new;1 peoples\nbright.a 2 :::: 1 clever;0 smart\n")
    pool = tmp_path / "pool"
    fixed = ["--matching", "fixed"]
    report = run(
        [
            "semeval07",
            str(system),
            "--data",
            str(gold),
            "--format",
            "json",
            *fixed,
            "--pool-out",
            str(pool),
        ]
    )
    # item 1: 1; item 2: smart at place 2: (1/2) / 1
    assert report["gap"] == 75.0
    assert str(report["signature"]).startswith(
        "metric:semeval07.ranking|convention:melamud|mwe:keep|matching:fixed|"
    )
    # the default is the codebases' exact strings: "Brand new" is not "brand-new", item 1
    # scores 0
    default = run(["semeval07", str(system), "--data", str(gold), "--format", "json"])
    assert default["gap"] == 25.0
    assert "|matching:raw|" in str(default["signature"])
    assert pool.read_text() == "bright.a::brand new;peoples;smart\n"
    text = io.StringIO()
    main(["semeval07", str(system), "--data", str(gold), "--convention", "lexsubgen", *fixed], text)
    assert text.getvalue().splitlines()[:2] == ["gap             75.00", "gap_normalized  75.00"]
    oot = tmp_path / "run.oot"
    oot.write_text("bright.a 1 ::: brand new;peoples\nbright.a 2 ::: clever;smart\n")
    assert (
        run(["semeval07", str(oot), "--data", str(gold), "--format", "json", *fixed])["gap"] == 75.0
    )


# --- every route gives the same GAP ------------------------------------------------------


def test_hand_made_file_same_gap_by_every_route(tmp_path: Path) -> None:
    gold = tmp_path / "gold"
    gold.write_text(
        "bright.a 1 :: brand-new 2;people's 1;Smart 1;\n"
        "bright.a 2 :: intelligent 3;clever 2;garden  1;\n"
        "bright.a 3 :: run-down 2;shabby 2;\n"
    )
    system = tmp_path / "run.ranked"
    system.write_text(
        "bright.a 1 :::: 0.9 brand-new;0.9 smart;0.1 people's;0.05 brand new\n"
        "bright.a 2 :::: 1 garden;1 clever;0.5 intelligent\n"
        "bright.a 3 :::: 1 run down\n"
    )
    routes = same_gap_by_every_route(gold, system)
    # item 1: brand-new 2/1, smart 3/2, people's 4/3 over 2 + 3/2 + 4/3 -> 1
    # item 2: garden 1/1, clever 3/2, intelligent 6/3 over 3 + 5/2 + 6/3 = 15/2 -> 3/5
    # item 3: run down 2/1 over 2 + 4/2 -> 1/2
    assert routes == pytest.approx((1 + Fraction(3, 5) + Fraction(1, 2)) / 3, abs=1e-15)


def same_gap_by_every_route(gold: Path, system: Path) -> float:
    """The mean GAP of ``system`` by the library, ``scoring.leaderboard.cli`` and the benchmark,
    asserted equal (to 1e-15); every gold line must be in T and have no ``pn``."""
    read = read_gold(read_text(gold, perl=True), "fixed", str(gold))
    lines = read_lines(system)
    rankings = (
        read_system_ranking(system, "oot")
        if " ::: " in lines[0]
        else {key: value.candidates for key, value in read_system_items(system, "ranked").items()}
    )
    library = sum(
        float(gap(value, rankings.get(key, ())).value) for key, value in read.items.items()
    )
    library /= len(read.items)
    compared = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring.leaderboard.cli",
            str(gold),
            str(system),
            "--measures",
            "gap",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    by_compare = json.loads(compared.stdout)["systems"][system.name]["gap"]
    argv = ["semeval07", str(system), "--data", str(gold), "--format", "json"]
    benchmark = float(str(run([*argv, "--matching", "fixed"])["gap"])) / 100  # the normaliser
    assert library == pytest.approx(by_compare, abs=1e-15)
    assert benchmark == pytest.approx(library, abs=1e-15)
    return library


def test_context2vec_same_gap_by_every_route(tmp_path: Path) -> None:
    # the test gold's lines in T without pn (1,683 of 1,703), so that the three routes
    # score the same items
    kept = []
    for line in read_lines(shared_path("data", "semeval2007", "test", "gold")):
        entries = [entry.rpartition(" ") for entry in line.partition(" :: ")[2].split(";") if entry]
        if all(key != "pn" for key, _, _ in entries) and sum(int(n) for _, _, n in entries) >= 2:
            kept.append(line)
    assert len(kept) == 1683
    gold = tmp_path / "gold"
    gold.write_text("\n".join(kept) + "\n")
    oot = shared_path("data", "systems", "context2vec", "test.generated.oot")
    assert same_gap_by_every_route(gold, oot) == pytest.approx(0.05362745046713711, abs=1e-15)


# --- the real golds against the reference runs -------------------------------------------

# Melamud's lst_gap.py (with and without no-mwe) and LexSubGen's gap_score and
# compute_precision_recall_f1_topk, fed by LexSubGen's own dataset reader, on the systems
# of tests/benchmark_systems.py (run of 2026-11, docs/benchmarks.md); the means
# in percent. None: LexSubGen refuses the system (an item with fewer than 10 candidates).
REFERENCE = {
    ("trial", "gold-order"): (99.85714285714286, 100.0, 99.85714285714286, 100.0, None),
    ("trial", "pool-shuffled"): (
        27.600208213741233,
        31.00828525594752,
        27.60020821374123,
        31.008285255947516,
        None,
    ),
    ("trial", "context2vec"): (
        4.635566666882377,
        5.251927926039518,
        4.635566666882376,
        5.251927926039518,
        (7.666666666666666, 5.222222222222221, 10.899206349206347),
    ),
    ("test", "gold-order"): (
        99.9171654233574,
        100.214528783024,
        100.20644607596402,
        100.22991000969358,
        None,
    ),
    ("test", "pool-shuffled"): (
        27.369287115017,
        30.241958380824506,
        27.43715870173698,
        30.248639743648774,
        None,
    ),
    ("test", "context2vec"): (
        5.313266694606134,
        5.940490279572754,
        5.328807761370782,
        5.950974850443246,
        (8.514386376981797, 6.596202779408886, 11.698333473142632),
    ),
}


def system_of(name: str, items: tuple[BenchmarkItem, ...]) -> dict[str, SystemItem]:
    if name == "context2vec":
        oot = read_system_items(
            shared_path("data", "systems", "context2vec", "test.generated.oot"), "oot"
        )
        return {key: value for key, value in oot.items() if key in {i.id for i in items}}
    lines = gold_order_system(items) if name == "gold-order" else pool_shuffled_system(items)
    return {line.id: SystemItem(line.lexelt, line.id, line.candidates, 0) for line in lines}


@pytest.mark.parametrize(("data", "name"), list(REFERENCE))
def test_raw_matching_reproduces_the_reference_runs(data: str, name: str) -> None:
    path = (
        shared_path("data", "semeval2007", "trial", "gold.trial")
        if data == "trial"
        else shared_path("data", "semeval2007", "test", "gold")
    )
    items = read_task_gold(read_lines(path), str(path))
    system = system_of(name, items)
    melamud, no_mwe, lexsubgen_gap, lexsubgen_normalized, generation = REFERENCE[(data, name)]
    tolerance = 1e-11  # percent; the references sum floats, we sum Fractions
    assert score(items, system, MELAMUD_RAW).metrics["gap"] == pytest.approx(melamud, abs=tolerance)
    dropped = Options("ranking", "melamud", "raw", drop_multiword=True)
    assert score(items, system, dropped).metrics["gap"] == pytest.approx(no_mwe, abs=tolerance)
    lexsubgen = score(items, system, LEXSUBGEN_RAW).metrics
    assert lexsubgen == pytest.approx(
        {"gap": lexsubgen_gap, "gap_normalized": lexsubgen_normalized}, abs=tolerance
    )
    if generation is not None:
        figures = score(items, system, Options("generation", "lexsubgen", "raw")).metrics
        reported = tuple(figures[name] for name in ("prec@1", "prec@3", "rec@10"))
        assert reported == pytest.approx(generation, abs=tolerance)


# LexSubGen's compute_precision_recall_f1_topk, unmodified, on the context2vec oot file with
# the gold lists and rankings as --matching raw reads them (run of 2026-11-27): the means of
# all nine figures in percent. prec@1, prec@3 and rec@10 are also those of REFERENCE, whose
# gold LexSubGen's own reader read.
GENERATION_REFERENCE = {
    "trial": {
        "prec@1": 7.666666666666666,
        "rec@1": 2.46984126984127,
        "f1@1": 3.645238095238095,
        "prec@3": 5.222222222222223,
        "rec@3": 5.511904761904763,
        "f1@3": 5.034126984126986,
        "prec@10": 3.5666666666666624,
        "rec@10": 10.899206349206347,
        "f1@10": 5.144200679494795,
    },
    "test": {
        "prec@1": 8.514386376981797,
        "rec@1": 2.5772446383133407,
        "f1@1": 3.801787694917463,
        "prec@3": 6.596202779408862,
        "rec@3": 5.682199479909408,
        "f1@3": 5.843490690818946,
        "prec@10": 4.245449207281279,
        "rec@10": 11.698333473142624,
        "f1@10": 6.0293578193651,
    },
}


@pytest.mark.parametrize("data", sorted(GENERATION_REFERENCE))
def test_every_generation_figure_equals_lexsubgens(data: str) -> None:
    folder, name = ("trial", "gold.trial") if data == "trial" else ("test", "gold")
    path = shared_path("data", "semeval2007", folder, name)
    items = read_task_gold(read_lines(path), str(path))
    figures = score(
        items, system_of("context2vec", items), Options("generation", "lexsubgen", "raw")
    )
    assert figures.metrics == pytest.approx(GENERATION_REFERENCE[data], abs=1e-11)
    assert list(figures.metrics) == list(GENERATION_REFERENCE[data])


def test_the_command_on_the_test_gold_and_context2vec() -> None:
    gold = shared_path("data", "semeval2007", "test", "gold")
    oot = shared_path("data", "systems", "context2vec", "test.generated.oot")
    fixed = run(
        ["semeval07", str(oot), "--data", str(gold), "--format", "json", "--matching", "fixed"]
    )
    assert fixed["gap"] == pytest.approx(5.325509264915557, abs=1e-11)
    assert "307 system ids are not items of the data and are ignored" in fixed["notes"]  # type: ignore[operator]
    # the default: exact strings, Melamud's own figure
    default = run(["semeval07", str(oot), "--data", str(gold), "--format", "json"])
    assert default["gap"] == pytest.approx(5.313266694606133, abs=1e-11)
    argv = ["semeval07", str(oot), "--data", str(gold), "--setting", "generation"]
    generation = run([*argv, "--format", "json", "--matching", "fixed"])
    assert [generation[k] for k in ("prec@1", "prec@3", "rec@10")] == pytest.approx(
        [8.514386376981797, 6.596202779408886, 11.707141459049856], abs=1e-11
    )


def test_gold_order_system_file_round_trip(tmp_path: Path) -> None:
    items = read_task_gold(read_lines(shared_path("data", "semeval2007", "trial", "gold.trial")))
    path = tmp_path / "trial.ranked"
    path.write_text(ranked_text(gold_order_system(items)))
    report = run(
        [
            "semeval07",
            str(path),
            "--data",
            str(shared_path("data", "semeval2007", "trial", "gold.trial")),
            "--format",
            "json",
            "--matching",
            "fixed",
        ]
    )
    assert report["gap"] == 100.0  # the gold order is the ideal ranking under the normaliser
