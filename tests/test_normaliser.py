"""One candidate normaliser: a system's exact answer scores the same
through every route (the library functions, the registry, ``scoring.leaderboard.cli``), whatever
the form of the gold key (hyphen, apostrophe, curly apostrophe, case, one letter), and
the revised and ranking measures read the gold under the fixed rules unless asked."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from scoring import __version__
from scoring.files.bounded import read_text
from scoring.formats import ranked
from scoring.formats.gold import read_gold, read_readings
from scoring.formats.ranked import Scored
from scoring.leaderboard import Settings, leaderboard
from scoring.leaderboard.cli import main as compare_main
from scoring.measures.ranking import items as ranking
from scoring.measures.revised import items as revised
from scoring.terms import answer_key, gold_key, normalise
from tests.conftest import shared_path

GOLD = (
    "new.a 1 :: brand-new 3;fresh 1;\n"
    "people.n 2 :: people's 2;folk 1;\n"
    "rock.n 3 :: Rock 'n' roll 2;pop 1;\n"
    "mark.n 4 :: x 2;sign 1;\n"
    "cafe.n 5 :: Caf\u00e9 2;bar 1;\n"
)
"""Hand-made: every item's first entry is its best substitute, in a form score.pl's rules
mangle or miss (a hyphen, an apostrophe, two apostrophes and capitals, one letter, a
capital and an accent)."""
EXACT_OOT = (
    "new.a 1 ::: brand-new;fresh\n"
    "people.n 2 ::: people's;folk\n"
    "rock.n 3 ::: Rock 'n' roll;pop\n"
    "mark.n 4 ::: x;sign\n"
    "cafe.n 5 ::: cafe\u0301;bar\n"  # decomposed é
)
EXACT_RANKED = (
    "new.a 1 :::: 2 brand-new;1 fresh\n"
    "people.n 2 :::: 2 people\u2019s;1 folk\n"  # the curly apostrophe
    "rock.n 3 :::: 2 rock 'n' roll;1 pop\n"
    "mark.n 4 :::: 2 X;1 sign\n"
    "cafe.n 5 :::: 2 CAF\u00c9;1 bar\n"
)


def test_the_normaliser_folds_every_form_of_a_key_alike() -> None:
    assert normalise(" Brand-New ") == "brand new"
    assert normalise("people\u2019s") == normalise("people's") == "peoples"
    assert normalise("cafe\u0301") == normalise("CAF\u00c9") == "caf\u00e9"
    assert normalise("Rock 'n' roll") == "rock n roll"
    # the fixed rules: the gold key and the answer take one form
    assert gold_key("Brand-new", "fixed") == answer_key("brand new", "fixed")
    # compat is score.pl's: one apostrophe removed, non- rewritten, nothing lower-cased
    assert answer_key("non-stop's", "compat") == "nonstops"
    assert gold_key("brand-new", "compat") == "brand new"


def test_every_ranking_route_gives_an_exact_answer_full_credit() -> None:
    """Each item ranks its gold entries in gold order: GAP, AP, P@1 are 1 everywhere."""
    gold = read_gold(GOLD, "fixed")
    for text, kind in ((EXACT_OOT, "oot"), (EXACT_RANKED, "ranked")):
        # the library: an item read from the file, and the candidates as the file has them
        if kind == "ranked":
            candidates = ranked.rankings_of(ranked.parse_ranking(text.splitlines()))
        else:
            candidates = {
                line.split()[1]: ranked.as_ranking(line.split(" ::: ")[1].split(";"))
                for line in text.splitlines()
            }
        for item_id, item in gold.items.items():
            assert ranking.gap(item, candidates[item_id]).value == 1, (kind, item_id)
            assert ranking.precision_at(item, candidates[item_id], 1).value == 1
        # the leaderboard, read from the same gold file under the default (compat) rules
        official, reading = read_readings(GOLD, "compat", "fixed")
        board = leaderboard(official, [("s", text)], Settings(), reading)
        figures = board.systems["s"]
        assert figures["gap"] == figures["ap"] == figures["p_at_1"] == 1.0, kind
        assert board.signatures["gap"] == (
            f"metric:gap|rules:fixed|t:two+responses|version:{__version__}"
        )


def test_compare_gives_the_library_figures(tmp_path: Path) -> None:
    (tmp_path / "gold").write_text(GOLD, encoding="utf-8")
    (tmp_path / "s.oot").write_text(EXACT_OOT, encoding="utf-8")
    (tmp_path / "s.ranked").write_text(EXACT_RANKED, encoding="utf-8")
    out = io.StringIO()
    status = compare_main(
        [
            str(tmp_path / "gold"),
            str(tmp_path / "s.oot"),
            str(tmp_path / "s.ranked"),
            "--format",
            "json",
            "--workers",
            "1",
        ],
        out,
    )
    assert status == 0
    body = json.loads(out.getvalue())
    for name in ("s.oot", "s.ranked"):
        assert body["systems"][name]["gap"] == 1.0
        assert body["systems"][name]["r_at_10"] == 1.0
    # the revised measures read the fixed gold too: every first guess is the top entry
    assert body["systems"]["s.oot"]["weighted_recall.R"] == 1.0
    # the official oot measures keep score.pl's reading, which drops 'x' and cuts 'Café'
    # (items 4 and 5 keep one entry each, 'sign' and 'bar', guessed): every item's credit
    # is still 1 (hand-computed: 3/4 + 1/4, 2/3 + 1/3, 2/3 + 1/3, 1, 1)
    assert body["systems"]["s.oot"]["oot.R"] == 1.0
    assert body["upper_bounds"]["best"] == pytest.approx((3 / 4 + 2 / 3 + 2 / 3 + 1 + 1) / 5)


def test_asking_for_the_compat_reading_inherits_score_pl_defects() -> None:
    """Under compat the one-letter key ``x`` is dropped (item 4 has no entry left but
    ``sign``) and ``Café`` is cut to ``Caf`` (score.pl's ASCII patterns), so those items'
    first candidates score nothing."""
    official, reading = read_readings(GOLD, "compat", "compat")
    board = leaderboard(official, [("s", EXACT_RANKED)], Settings(), reading)
    assert board.signatures["gap"].startswith("metric:gap|rules:compat|")
    assert board.systems["s"]["p_at_1"] is not None and board.systems["s"]["p_at_1"] < 1.0


def test_revised_library_functions_normalise_guesses_and_keys() -> None:
    counts = {"people's": 2, "Brand-new": 1}
    assert revised.best_1(counts, ["People\u2019s"]).score == 1
    assert (
        revised.new_best(counts, ["brand new"]).score
        == revised.new_best(counts, ["brand-new"]).score
    )
    # a Frequencies is an item already read: its guesses are taken as normalised
    freqs = revised.frequencies(counts)
    assert set(freqs.counts) == {"peoples", "brand new"}
    assert revised.best_1(freqs, ["peoples"]).score == 1


@pytest.mark.shared_data
def test_the_same_oot_file_gets_one_gap_by_every_route() -> None:
    """context2vec's oot output on the test gold: the leaderboard's GAP is the mean of the
    library's per-item GAP over the fixed gold's items with a gold weight (it was 0.1704
    through compare and 0.0822 through the library before one normaliser)."""
    text = read_text(shared_path("data", "semeval2007", "test", "gold"), perl=True)
    system = read_text(
        shared_path("data", "systems", "context2vec", "test.generated.oot"), perl=True
    )
    official, reading = read_readings(text, "compat", "fixed")
    board = leaderboard(official, [("c2v.oot", system)], Settings(measures=("gap",)), reading)
    candidates: dict[str, tuple[Scored, ...]] = {}
    for line in system.splitlines():
        head, _, answer = line.partition(" ::: ")
        guesses = [guess for guess in answer.split(";") if guess.strip()]
        candidates.setdefault(head.split()[1], ranked.as_ranking(guesses))
    values = [
        ranking.gap(item, candidates.get(item_id, ())) for item_id, item in reading.items.items()
    ]
    defined = [float(value.value) for value in values if value.defined]
    assert len(defined) == len(reading.items)
    assert board.systems["c2v.oot"]["gap"] == pytest.approx(sum(defined) / len(defined), abs=1e-12)


def test_decimal_weights_are_read_by_the_fixed_and_strict_rules() -> None:
    """SemDis 2014's gold weights are averaged 0-3 scores: the fixed and strict readers
    keep them, and GAP weighs by them (hand-computed: the ideal ranking is toutou 2.5,
    clebs 1.5; the system ranks clebs first, so GAP = (1.5/1 + 4/2) / (2.5/1 + 4/2) =
    3.5 / 4.5)."""
    text = "chien.n 1 :: toutou 2.5;clebs 1.5;\n"
    for rules in ("fixed", "strict"):
        gold = read_gold(text, rules)
        assert gold.items["1"].counts == (("toutou", 2.5), ("clebs", 1.5))
        assert gold.items["1"].mode == "toutou"
    gold = read_gold(text, "fixed")
    value = ranking.gap(gold.items["1"], (Scored("clebs", 2.0), Scored("toutou", 1.0))).value
    assert value == pytest.approx(3.5 / 4.5)
    board = leaderboard(gold, [("s", "chien.n 1 :::: 2 clebs;1 toutou\n")], Settings())
    assert board.systems["s"]["gap"] == pytest.approx(3.5 / 4.5)
    # weighted recall of the guess clebs alone: 1.5 / 4
    board = leaderboard(gold, [("s", "chien.n 1 ::: clebs\n")], Settings())
    assert board.systems["s"]["weighted_recall.R"] == pytest.approx(1.5 / 4)


GERMAN_GOLD = "Geb\u00e4ude.n 1 :: Haus 3;Bauwerk 2;\nM\u00e4dchen.n 2 :: M\u00e4dchen 2;Kind 1;\n"
GERMAN_BEST = "Geb\u00e4ude.n 1 :: HAUS\nM\u00e4dchen.n 2 :: ma\u0308dchen\n"  # decomposed ä


def test_a_german_gold_scored_fixed_gives_exact_answers_full_credit(tmp_path: Path) -> None:
    """Upper-cased and decomposed answers get full credit under --fixed (hand-computed:
    3/5 and 2/3, precision (0.6 + 0.6667) / 2 = 63.33); -v keeps lexelts and words whole;
    the default run's diagnosis says non-ASCII and points to --fixed, its own figures
    staying score.pl's (0.00: the ASCII patterns cut Gebäude.n to ude.n)."""
    from scoring.score.cli import run as score_main

    (tmp_path / "gold").write_text(GERMAN_GOLD, encoding="utf-8")
    (tmp_path / "s.best").write_text(GERMAN_BEST, encoding="utf-8")
    argv = [str(tmp_path / "s.best"), str(tmp_path / "gold"), "-t", "best", "-v"]
    out, err = io.BytesIO(), io.StringIO()
    assert score_main([*argv, "--fixed"], out, err) == 0
    text = out.getvalue().decode("utf-8")
    assert "precision = 63.33, recall = 63.33" in text
    assert "Mode precision = 100.00, Mode recall = 100.00" in text
    assert text.startswith("Geb\u00e4ude.n Item 1 mode 'haus' : system 'haus'  correct\n")
    assert "M\u00e4dchen.n Item 2 credit 0.666666666666667" in text
    out, err = io.BytesIO(), io.StringIO()
    assert score_main(argv, out, err) == 0
    text = out.getvalue().decode("utf-8")
    assert text.startswith("ude.n Item 1 mode 'Haus' : system 'HAUS' wrong\n")
    assert "precision = 0.00, recall = 0.00" in text
    notes = err.getvalue()
    assert "diagnosis: 2 gold items have lexelts or entries with non-ASCII letters" in notes
    assert "(non-ASCII); --fixed reads them whole" in notes
    assert "precision 63.33, recall 63.33" in notes


def test_gold_errors_name_the_real_line() -> None:
    """A gold error names the real line: never line 0, nor the first line of the chunk."""
    from scoring.errors import FormatError
    from scoring.formats.gold import read_gold_pair

    text = "a.n 1 :: x 1;y 1;\nb.n 2 :: glad 2;\nc.n 3 :: bad entry;\n"
    for read in (lambda: read_gold(text, "fixed", "g"), lambda: read_gold_pair(text, "g")):
        with pytest.raises(FormatError) as caught:
            read()
        assert caught.value.problems[0].startswith("g:3: gold entry 'bad entry' must be")
