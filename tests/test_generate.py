"""``lexsub generate wordnet``: the WordNet baseline of McCarthy & Navigli (2009, section
2.5), its order of candidates on hand-checked WordNet 3.0 entries, its files read back by
the scorer and the benchmarks, and its figures on the SemEval-2007 test set beside the
paper's Table 6."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from annotate.generate.items import Item, format_answers, read_items
from annotate.generate.wordnet import candidates
from scoring.benchmark.wordnet import wordnet_available
from tests.conftest import shared_path

BIN = Path(sys.executable).parent
needs_wordnet = pytest.mark.skipif(not wordnet_available(), reason="needs WordNet 3.0")


def _flat(word: str) -> float:
    return 0.0  # every frequency equal: ties go alphabetically


@needs_wordnet
def test_the_first_synset_s_synonyms_come_first() -> None:
    """film.n.01 is {movie, film, picture, moving_picture, moving-picture_show,
    motion_picture, motion-picture_show, picture_show, pic, flick}: its single words but
    the target, alphabetical under equal frequencies, before anything else."""
    assert candidates("film", "n", _flat)[:4] == ["flick", "movie", "pic", "picture"]


@needs_wordnet
def test_frequency_ranks_within_a_criterion() -> None:
    frequencies = {"pic": 4.0, "flick": 3.0, "picture": 2.0, "movie": 1.0}
    ranked = candidates("film", "n", lambda word: frequencies.get(word, 0.0))
    assert ranked[:4] == ["pic", "flick", "picture", "movie"]


@needs_wordnet
def test_an_adverb_has_no_hypernyms_and_an_inflection_is_not_a_substitute() -> None:
    # clear.r: its synsets' single words but itself (clearly; clear.r.02 has only 'clear')
    assert candidates("clear", "r", _flat) == ["clearly"]
    # maniacs, without a part of speech (TSAR): maniac is its own base form, never a substitute
    found = candidates("maniacs", None, _flat)
    assert "maniac" not in found and "lunatic" in found and "madman" in found


def _item(lexelt: str, id: str) -> Item:
    return Item(lexelt, id, lexelt.split(".")[0], lexelt.split(".")[-1], "w", "s w s")


def test_each_format() -> None:
    items = [_item("film.n", "1"), _item("zzz.n", "2"), _item("film.n", "3")]
    answers = [["movie", "picture", "pic"], [], [f"w{n}" for n in range(12)]]
    assert format_answers(items, answers, "best") == "film.n 1 :: movie\nfilm.n 3 :: w0\n"
    assert format_answers(items, answers, "oot").splitlines()[1] == (
        "film.n 3 ::: " + ";".join(f"w{n}" for n in range(10))
    )
    assert format_answers(items, answers, "ranked").splitlines()[0] == (
        "film.n 1 :::: 1.0 movie;0.5 picture;0.333333 pic"
    )
    assert format_answers(items, answers, "tsar").splitlines()[1] == "s w s\tw"


def _run(*argv: str) -> tuple[int, str, str]:
    done = subprocess.run([str(BIN / "lexsub"), *argv], capture_output=True, text=True, check=False)
    return done.returncode, done.stdout, done.stderr


def test_an_empty_input_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.tsv"
    empty.write_text("")
    out = tmp_path / "out"
    assert _run(
        "generate", "wordnet", "--data", str(empty), "--format", "best", "--out", str(out)
    ) == (
        1,
        "",
        f"Error: {empty}: the file is empty (the task's XML or a TSAR file)\n",
    )
    assert not out.exists()


@pytest.mark.shared_data
@needs_wordnet
def test_the_test_set_s_figures_beside_table_6(tmp_path: Path) -> None:
    """Best recall by PoS on the SemEval-2007 test set: 10.06 overall (Table 6: 9.95),
    nouns 8.62 (8.14), verbs 8.92 (7.16), adjectives 6.80 (6.99), adverbs 19.21 (21.69).
    WordNet 3.0 and wordfreq stand in for WordNet 2.1 and the BNC's counts."""
    data = shared_path("data", "semeval2007", "test")
    best = tmp_path / "wordnet.best"
    status, out, _ = _run(
        "generate",
        "wordnet",
        "--data",
        str(data / "lexsub_test.xml"),
        "--format",
        "best",
        "--out",
        str(best),
    )
    assert status == 0 and out.startswith("wordnet: 1710 of 1710 items answered, best file ")
    status, out, _ = _run("score", str(best), str(data / "gold"), "--by-pos")
    assert status == 0
    recall = out.split("Results for best recall\n", 1)[1].splitlines()[1]
    assert recall.split() == ["wordnet.best", "10.06", "8.62", "8.92", "6.80", "19.21"]


@pytest.mark.shared_data
@needs_wordnet
def test_a_tsar_file_is_answered_and_scored_by_the_benchmark(tmp_path: Path) -> None:
    data = shared_path("data", "tsar2022")
    out = tmp_path / "wordnet.tsv"
    status, printed, _ = _run(
        "generate",
        "wordnet",
        "--data",
        str(data / "tsar2022_en_trial_none.tsv"),
        "--format",
        "tsar",
        "--out",
        str(out),
    )
    assert status == 0 and printed.startswith("wordnet: 10 of 10 items answered")
    assert len(read_items(out)) == 10
    status, printed, _ = _run(
        "benchmark", "tsar", str(out), "--data", str(data / "tsar2022_en_trial_gold.tsv")
    )
    assert status == 0
    assert printed.startswith("MAP@1/Potential@1/Precision@1 = 0.4\n")
    assert "Potential@10 = 0.6\n" in printed


@needs_wordnet
def test_a_run_writes_a_provenance_file_that_compare_reads(tmp_path: Path) -> None:
    import json
    from importlib.metadata import version

    from annotate.generate.llm import fingerprint
    from scoring.signature import read_provenance

    data = tmp_path / "two.tsv"
    data.write_text("The film was long.\tfilm\nShe ran quickly.\tquickly\n", encoding="utf-8")
    out = tmp_path / "two.best"
    status, printed, _ = _run(
        "generate", "wordnet", "--data", str(data), "--format", "best", "--out", str(out)
    )
    assert status == 0 and printed.startswith("wordnet: 2 of 2 items answered, best file ")
    assert printed.endswith(f"; provenance {out}.provenance.json)\n")
    body = json.loads(Path(f"{out}.provenance.json").read_text(encoding="utf-8"))
    frequencies = f"wordfreq {version('wordfreq')} (en, best)"
    fixed = {
        "generator": "wordnet",
        "wordnet": "3.0",
        "parameters": {"format": "best", "frequencies": frequencies},
    }
    assert {key: body[key] for key in fixed} == fixed
    assert (body["data"], body["items"], body["answered"]) == ("two.tsv", 2, 2)
    assert body["fingerprint"] == fingerprint(fixed)
    found = read_provenance(out)
    assert found is not None and found.summary() == (
        f"WordNet 3.0 (wordnet); format=best, frequencies={frequencies}; "
        f"fingerprint {body['fingerprint']}"
    )
