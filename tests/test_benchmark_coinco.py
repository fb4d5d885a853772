"""CoInCo: the XML reader (:mod:`scoring.coinco`) and ``python -m scoring.benchmark
coinco``. The real file's items equal what Melamud's converter writes;
the figures equal the reference runs' (docs/benchmarks.md)."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
from functools import cache
from pathlib import Path

import pytest

from scoring.benchmark.candidates import BenchmarkItem, Options, SystemItem, score
from scoring.benchmark.cli import main
from scoring.benchmark.coinco import coinco_items
from scoring.coinco import CoincoSubstitute, CoincoTarget, read_coinco, read_coinco_sentences
from scoring.ranking import RankingLine
from tests.benchmark_systems import gold_order_system, pool_shuffled_system, ranked_text
from tests.conftest import shared_path

SMALL = """<?xml version="1.0"?>
<document>
  <sent MASCfile="a.txt" MASCsentID="s-r0" >
    <precontext>
    Before.
    </precontext>
    <targetsentence>
    A bright  idea
    </targetsentence>
    <postcontext>
    After.
    </postcontext>
    <tokens>
      <token id="XXX" wordform="A" lemma="a" posMASC="XXX" posTT="DT" />
      <token id="7" wordform="bright" lemma="bright" posMASC="JJ" posTT="JJ" problematic="no" >
        <substitutions>
          <subst lemma="clever" pos="JJ" freq="2" />
          <subst lemma="brilliant" pos="JJ" freq="2" />
          <subst lemma="smart;sharp" pos="JJ" freq="1" />
          <subst lemma="very clever" pos="JJ" freq="3" />
        </substitutions>
      </token>
      <token id="8" wordform="idea" lemma="idea" posMASC="NN" posTT="NN" problematic="yes" >
        <substitutions>
          <subst lemma="notion" pos="NN" freq="1" />
        </substitutions>
      </token>
    </tokens>
  </sent>
  <sent MASCfile="b.txt" MASCsentID="s-r1" >
    <precontext></precontext>
    <targetsentence>An e commerce site</targetsentence>
    <postcontext></postcontext>
    <tokens>
      <token id="9" wordform="e-commerce" lemma="e commerce" posMASC="NN" posTT="NN"
             problematic="no" >
        <substitutions>
          <subst lemma="online trade" pos="NN" freq="2" />
        </substitutions>
      </token>
      <token id="10" wordform="weirdness" lemma="." posMASC="NNS" posTT="NNS" problematic="no" >
        <substitutions>
          <subst lemma="oddity" pos="NN" freq="1" />
        </substitutions>
      </token>
    </tokens>
  </sent>
</document>
"""


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "coinco.xml.gz"
    path.write_bytes(gzip.compress(SMALL.encode()))
    return path


def test_reader(small: Path, tmp_path: Path) -> None:
    sentences = read_coinco_sentences(small)
    assert [(s.number, s.masc_file, s.masc_sent_id) for s in sentences] == [
        (1, "a.txt", "s-r0"),
        (2, "b.txt", "s-r1"),
    ]
    first = sentences[0]
    assert (first.precontext, first.text, first.postcontext) == (
        "Before.",
        "A bright idea",
        "After.",
    )
    assert [token.id for token in first.tokens] == [None, "7", "8"]
    targets = read_coinco(small)
    assert [(t.id, t.position, t.problematic) for t in targets] == [
        ("7", 1, False),
        ("8", 2, True),
        ("9", 0, False),
        ("10", 1, False),
    ]
    assert targets[0].substitutes[2] == CoincoSubstitute("smart;sharp", "JJ", 1)
    plain = tmp_path / "coinco.xml"
    plain.write_text(SMALL)
    assert read_coinco(plain) == targets  # gzipped or not
    assert read_coinco(SMALL.encode(), str(small)) == targets  # or the XML's bytes
    # where each sentence and token starts; the context as written, for the importer
    assert [s.line for s in sentences] == [3, 30]
    assert [t.line for t in first.tokens] == [14, 15, 23]
    assert first.written == ("Before.", "A bright  idea", "After.")


def test_the_importers_reading_needs_no_gold() -> None:
    # contexts only (gold=False): posTT, problematic and <substitutions> may be missing
    bare = SMALL.replace(' posTT="DT"', "").replace(' problematic="yes"', "")
    start, end = bare.index("<substitutions>"), bare.index("</substitutions>")
    bare = bare[:start] + bare[end + len("</substitutions>") :]
    token = read_coinco(bare.encode(), "b.xml", gold=False)[0].token
    assert (token.id, token.pos_tt, token.problematic, token.substitutes) == ("7", "JJ", False, ())
    assert read_coinco_sentences(bare.encode(), gold=False)[0].tokens[0].pos_tt == ""
    with pytest.raises(ValueError) as error:
        read_coinco(bare.encode(), "b.xml")
    assert str(error.value) == "b.xml:14: sentence 1 (a.txt s-r0): <token> has no posTT attribute"
    with pytest.raises(ValueError) as error:
        read_coinco(bare.replace('<token id="XXX"', '<token posTT="DT" id="XXX"').encode(), "b.xml")
    assert str(error.value) == (
        "b.xml:15: sentence 1 (a.txt s-r0), token 7: a target token has no <substitutions> "
        "(required)"
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'freq="3"',
            'freq="0"',
            "sentence 1 (a.txt s-r0), token 7: <subst lemma='very clever'> freq '0' is not",
        ),
        (
            'problematic="yes"',
            'problematic="maybe"',
            "token 8: problematic='maybe' must be 'yes' or 'no'",
        ),
        (' posTT="DT"', "", ":14: sentence 1 (a.txt s-r0): <token> has no posTT attribute"),
        ('freq="1"', 'freq="\u00b2"', ":19: sentence 1 (a.txt s-r0), token 7: <subst lemma="),
        (
            'id="9"',
            'id="7"',
            "sentence 2, token 7: id already used in sentence 1 (target ids must be unique)",
        ),
        (
            "<postcontext></postcontext>",
            "<postcontext>",
            ":34: unexpected element <tokens> in <postcontext>; expected no element",
        ),
        ("</document>", "</corpus>", ":48: not well-formed XML: mismatched tag (column 3)"),
        (
            "<document>",
            '<!DOCTYPE document [<!ENTITY a "b">]>\n<document>',
            ":2: forbidden XML construct: DTDForbidden(name='document', system_id=None, "
            "public_id=None) (a CoInCo file has no DTD or entities)",
        ),
    ],
)
def test_reader_errors(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = tmp_path / "bad.xml"
    path.write_text(SMALL.replace(old, new, 1))
    with pytest.raises(ValueError) as error:
        read_coinco(path)
    assert message in str(error.value)
    assert str(error.value).startswith(str(path))


def test_items_as_melamuds_converter_writes_them(small: Path) -> None:
    items = coinco_items(read_coinco(small), str(small))
    assert items == (
        BenchmarkItem(
            "bright.a",
            "7",
            (("very clever", 3), ("clever", 2), ("brilliant", 2), ("smart,sharp", 1)),
            f"{small}: token 7",
        ),
        BenchmarkItem("e_commerce.n", "9", (("online trade", 2),), f"{small}: token 9"),
        BenchmarkItem("weirdness.n", "10", (("oddity", 1),), f"{small}: token 10"),
    )


def test_command(small: Path, tmp_path: Path) -> None:
    system = tmp_path / "run.ranked"
    system.write_text(
        "bright.a 7 :::: 0.9 clever;0.8 very-clever;0.1 brilliant\n"
        "e_commerce.n 9 :::: 1 online trade\n"
    )
    out = io.StringIO()
    argv = ["coinco", str(system), "--data", str(small), "--format", "json"]
    assert main([*argv, "--matching", "fixed"], out) == 0
    report = json.loads(out.getvalue())
    # item 7: clever 2/1, very clever 5/2, brilliant 7/3 over 3 + 5/2 + 7/3 + 8/4 = 59/6
    # item 9: 1; item 10: no line, 0
    assert report["gap"] == pytest.approx(((2 + 5 / 2 + 7 / 3) / (59 / 6) + 1 + 0) / 3 * 100)
    assert report["signature"].startswith("metric:coinco.ranking|convention:melamud|")
    assert "1 items have no system line" in report["notes"][1]
    # the default (the codebases' exact strings): "very-clever" is not "very clever", so
    # item 7 is (2/1 + (2 + 2)/3) / (59/6) = 20/59
    default = io.StringIO()
    assert main(argv, default) == 0
    assert json.loads(default.getvalue())["gap"] == pytest.approx((20 / 59 + 1 + 0) / 3 * 100)


# --- the real file -----------------------------------------------------------------------


@cache
def real_targets() -> tuple[CoincoTarget, ...]:
    return read_coinco(shared_path("data", "coinco", "coinco.xml.gz"))


@cache
def real_items() -> tuple[BenchmarkItem, ...]:
    return coinco_items(real_targets())


@cache
def real_system(name: str) -> tuple[RankingLine, ...]:
    items = real_items()
    return tuple(gold_order_system(items) if name == "gold-order" else pool_shuffled_system(items))


def test_real_file_equals_melamuds_converter() -> None:
    targets = real_targets()
    assert len(targets) == 15629 and sum(not t.problematic for t in targets) == 15415
    items = real_items()
    text = "".join(
        f"{item.id} :: " + "".join(f"{s} {c};" for s, c in item.entries) + "\n" for item in items
    )
    # the sha256 of coinco2lst_converter.py's gold (lexelts cut off), reference run 2026-11
    assert hashlib.sha256(text.encode()).hexdigest() == (
        "ac2baedc5421a9f2e6994b62dbe9a775ee7b166923d05db24132046e845361ce"
    )


# Melamud's lst_gap.py (keep, no-mwe) and LexSubGen's gap, gap_normalized on the
# converter's gold (LexSubGen's reader), percent; docs/benchmarks.md.
REFERENCE = {
    "gold-order": (100.0, 100.0, 100.0, 100.0),
    "pool-shuffled": (32.8575564183198, 34.114875861258355, 32.85755641831973, 34.10251345852933),
}


@pytest.mark.parametrize("name", list(REFERENCE))
def test_raw_matching_reproduces_the_reference_runs(name: str) -> None:
    items = real_items()
    system = {
        line.id: SystemItem(line.lexelt, line.id, line.candidates, 0) for line in real_system(name)
    }
    melamud, no_mwe, gap, normalized = REFERENCE[name]
    tolerance = 1e-10
    assert score(items, system, Options("ranking", "melamud", "raw")).metrics[
        "gap"
    ] == pytest.approx(melamud, abs=tolerance)
    dropped = Options("ranking", "melamud", "raw", drop_multiword=True)
    assert score(items, system, dropped).metrics["gap"] == pytest.approx(no_mwe, abs=tolerance)
    lexsubgen = score(items, system, Options("ranking", "lexsubgen", "raw")).metrics
    assert lexsubgen == pytest.approx({"gap": gap, "gap_normalized": normalized}, abs=tolerance)


def test_the_command_on_the_real_file(tmp_path: Path) -> None:
    system = tmp_path / "pool.ranked"
    system.write_text(ranked_text(real_system("pool-shuffled")))
    out = io.StringIO()
    data = str(shared_path("data", "coinco", "coinco.xml.gz"))
    argv = ["coinco", str(system), "--data", data, "--matching", "raw", "--format", "json"]
    assert main(argv, out) == 0
    assert json.loads(out.getvalue())["gap"] == pytest.approx(
        REFERENCE["pool-shuffled"][0], abs=1e-10
    )
