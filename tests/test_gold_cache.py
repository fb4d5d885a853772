"""The cache of gold readings (:mod:`scoring.score.cache`): a warm run gives the same
readings and the same bytes as a cold one, and an entry is never used for another gold,
another code or a damaged file."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from scoring.formats.gold import Gold, read_gold, read_gold_pair
from scoring.score import cache as gold_cache
from scoring.score.cache import cached_gold_pair, entry_name
from scoring.score.cli import run

# capitals, a hyphen, pn, a repeated id, a one-character key, a line out of T, a tie
GOLD = """\
bright.a 1 :: intelligent 3;clever 2;smart 1;
bright.a 2 :: well-lit 2;Sunny 2;pn 1;
bright.a 3 :: x 2;vivid 1;
bright.a 4 :: shining 1;
bright.a 5 :: glowing 2;radiant 1;
bright.a 5 :: glowing 1;luminous 3;
stand.v 6 :: tolerate 2;bear 2;
stand.v 7 :: don't mind 2;abide 1;
"""

SYSTEM = """\
bright.a 1 :: clever
bright.a 2 :: well lit
bright.a 3 :: vivid
bright.a 5 :: luminous
stand.v 6 :: Bear
stand.v 7 :: dont mind
"""


def assert_same_pair(one: tuple[Gold, Gold, set[str]], two: tuple[Gold, Gold, set[str]]) -> None:
    for first, second in zip(one[:2], two[:2], strict=True):
        assert first.rules == second.rules
        assert list(first.items) == list(second.items)  # the same ids, in the same order
        assert list(first.items.values()) == list(second.items.values())
        assert (first.total_items, first.total_modes) == (second.total_items, second.total_modes)
        for item in first.items.values():  # floats to the bit, the same record type
            assert type(item) is type(next(iter(second.items.values())))
    assert one[2] == two[2]
    # an item the two readings share, or two ids share, stays one object
    for before, after in ((one[1], two[1]), (one[0], two[0])):
        shared_before = [i for i, v in before.items.items() if one[0].items.get(i) is v]
        shared_after = [i for i, v in after.items.items() if two[0].items.get(i) is v]
        assert shared_before == shared_after
    objects = [len({id(v) for v in pair[0].items.values()}) for pair in (one, two)]
    assert objects[0] == objects[1]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "bright.a 1 :: shining 1;\n",  # nothing in T
        GOLD.replace("Sunny", "Sünny") + "café.n 9 :: thé 2;tisane 1;\n",  # read whole
        "".join(f"w.n {n} :: glad 2;merry 1;\n" for n in range(50)),  # one item, 50 ids
    ],
    ids=["empty", "out-of-t", "non-ascii", "shared"],
)
def test_any_gold_round_trips(tmp_path: Path, text: str) -> None:
    cold = read_gold_pair(text, "gold")
    cached_gold_pair(text, "gold", str(tmp_path))
    assert len(list(tmp_path.iterdir())) == 1
    assert_same_pair(cold, cached_gold_pair(text, "gold", str(tmp_path)))


def test_a_loaded_entry_is_the_reading(tmp_path: Path) -> None:
    cold = read_gold_pair(GOLD, "gold")
    first = cached_gold_pair(GOLD, "gold", str(tmp_path))
    entries = list(tmp_path.iterdir())
    assert [entry.name for entry in entries] == [entry_name(GOLD)]
    second = cached_gold_pair(GOLD, "gold", str(tmp_path))
    assert_same_pair(cold, first)
    assert_same_pair(cold, second)
    norms = second[0].items["1"].norms
    assert norms == {"intelligent": 0.5, "clever": 2 / 6, "smart": 1 / 6}
    assert second[2] == {"2", "3", "5"}  # capitals and pn, a one-character key, a repeat
    # the compat reading of the pair is score.pl's reading alone (--no-diagnosis loads it)
    assert second[0] == read_gold(GOLD, "compat")
    assert list(second[0].items) == list(read_gold(GOLD, "compat").items)


def test_a_loaded_entry_can_be_kept_rather_than_freed(tmp_path: Path) -> None:
    """``keep`` gets the items as marshal made them (one tuple a distinct item, equal to
    the ItemGold copied from it), for the scorer, whose process ends without freeing."""
    cold = read_gold_pair(GOLD, "gold")
    kept: list[object] = []
    cached_gold_pair(GOLD, "gold", str(tmp_path), keep=kept)
    assert kept == []  # read from the text: nothing was loaded
    warm = cached_gold_pair(GOLD, "gold", str(tmp_path), keep=kept)
    assert_same_pair(cold, warm)
    [raw] = kept
    assert isinstance(raw, tuple) and all(type(item) is tuple for item in raw)
    items = {id(item): item for reading in warm[:2] for item in reading.items.values()}
    assert sorted(repr(tuple(item)) for item in items.values()) == sorted(map(repr, raw))


def test_the_real_test_gold_round_trips(tmp_path: Path, shared: Path) -> None:
    text = (shared / "data/semeval2007/test/gold").read_text()
    cold = read_gold_pair(text, "gold")
    assert cold[0] == read_gold(text, "compat")
    cached_gold_pair(text, "gold", str(tmp_path))
    warm = cached_gold_pair(text, "gold", str(tmp_path))
    assert_same_pair(cold, warm)
    assert len(warm[0].items) == 1696 and warm[0].total_modes == 1230


def _score(argv: list[str]) -> tuple[bytes, str, int]:
    out, err = io.BytesIO(), io.StringIO()
    status = run(argv, out, err)
    return out.getvalue(), err.getvalue(), status


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--fixed"],
        ["-v"],
        ["--format=json"],
        ["--by-pos"],
        ["--no-diagnosis"],
        ["--no-diagnosis", "--fixed"],
        ["-t", "oot"],
        ["-t", "oot", "--no-diagnosis"],
    ],
)
def test_warm_runs_print_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.write_text(GOLD)
    system.write_text(SYSTEM)
    monkeypatch.setenv("LEXSUB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LEXSUB_GOLD_CACHE", raising=False)
    argv = [str(system), str(gold), *options]
    uncached = _score(argv)  # the cache only on request
    assert not (tmp_path / "cache").exists()
    argv.append("--cache")
    cold = _score(argv)
    uses_cache = not {"--no-diagnosis", "--fixed"} <= set(options)  # fixed alone: no pair
    assert (tmp_path / "cache/gold").exists() == uses_cache
    if uses_cache:
        assert len(list((tmp_path / "cache/gold").iterdir())) == 1
    warm = _score(argv)
    assert uncached == cold == warm
    if not options:
        assert cold[0] == (  # score.pl's own output on these two files
            b"Total = 7, attempted = 6\nprecision = 51.67, recall = 44.29\n"
            b"Total with mode 5 attempted 4\nMode precision = 50.00, Mode recall = 40.00\n"
        )


def test_another_gold_or_code_is_another_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    changed = GOLD.replace("clever 2", "clever 1")
    assert entry_name(GOLD) != entry_name(changed)
    monkeypatch.setattr(gold_cache, "code_stamp", lambda: "scoring.formats.lines:1:2")
    with_stamp = entry_name(GOLD)
    monkeypatch.setattr(gold_cache, "code_stamp", lambda: "scoring.formats.lines:1:3")
    assert entry_name(GOLD) != with_stamp
    cached_gold_pair(changed, "gold", str(tmp_path))
    assert_same_pair(cached_gold_pair(changed, "gold", str(tmp_path)), read_gold_pair(changed))


def test_the_code_stamp_names_every_loaded_scoring_module() -> None:
    stamp = gold_cache.code_stamp()
    names = [part.split(":")[0] for part in stamp.split(";")]
    assert "scoring.formats.gold" in names and "scoring.formats.lines" in names
    assert names == sorted(names)
    path = Path(gold_cache.__file__)
    assert f"scoring.score.cache:{path.stat().st_size}:{path.stat().st_mtime_ns}" in stamp


@pytest.mark.parametrize(
    "damage", [b"", b"\x00garbage", b"\xe9", None], ids=["empty", "garbage", "cut", "other"]
)
def test_a_damaged_entry_is_read_again_and_replaced(tmp_path: Path, damage: bytes | None) -> None:
    import marshal

    entry = tmp_path / entry_name(GOLD)
    if damage is None:  # a valid marshal file of another layout
        damage = marshal.dumps(("lexsub-gold-cache", 999, ()))
    entry.write_bytes(damage)
    pair = cached_gold_pair(GOLD, "gold", str(tmp_path))
    assert_same_pair(pair, read_gold_pair(GOLD))
    assert marshal.loads(entry.read_bytes())[:2] == ("lexsub-gold-cache", gold_cache.FORMAT)


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    pair = cached_gold_pair(GOLD, "gold", str(blocked / "gold"))
    assert_same_pair(pair, read_gold_pair(GOLD))
    assert blocked.read_text() == "not a folder"
    assert [p.name for p in tmp_path.iterdir()] == ["file"]  # no temporary file left


def test_the_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LEXSUB_CACHE_DIR", str(tmp_path))
    assert gold_cache.cache_directory() == str(tmp_path / "gold")
    monkeypatch.setenv("LEXSUB_CACHE_DIR", "")
    assert gold_cache.cache_directory() is None
    monkeypatch.delenv("LEXSUB_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert gold_cache.cache_directory() == str(tmp_path / "xdg/lexsub/gold")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert gold_cache.cache_directory() == str(tmp_path / "home/.cache/lexsub/gold")


def test_off_and_too_big_golds_are_not_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEXSUB_CACHE_DIR", "")
    cached_gold_pair(GOLD, "gold")
    monkeypatch.setattr(gold_cache, "MAX_TEXT", len(GOLD) - 1)
    cached_gold_pair(GOLD, "gold", str(tmp_path))
    assert list(tmp_path.iterdir()) == []


def test_entries_beyond_the_bytes_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    golds = [GOLD.replace("clever 2", f"clever {n + 2}") for n in range(3)]
    for number, text in enumerate(golds):
        cached_gold_pair(text, "gold", str(tmp_path))
        os.utime(tmp_path / entry_name(text), ns=(number * 10**9, number * 10**9))
    size = (tmp_path / entry_name(golds[0])).stat().st_size
    monkeypatch.setattr(gold_cache, "MAX_BYTES", 2 * size + size // 2)  # room for two
    text = GOLD.replace("clever 2", "clever 9")
    cached_gold_pair(text, "gold", str(tmp_path))
    kept = sorted(entry.name for entry in tmp_path.iterdir())
    assert kept == sorted([entry_name(text), entry_name(golds[2])])
    monkeypatch.setattr(gold_cache, "MAX_BYTES", 1)  # the newest stays, alone
    cached_gold_pair(GOLD, "gold", str(tmp_path))
    assert [entry.name for entry in tmp_path.iterdir()] == [entry_name(GOLD)]


def test_the_oldest_entries_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gold_cache, "KEEP", 3)
    golds = [GOLD.replace("clever 2", f"clever {n + 2}") for n in range(5)]
    for number, text in enumerate(golds):
        cached_gold_pair(text, "gold", str(tmp_path))
        entry = tmp_path / entry_name(text)
        os.utime(entry, ns=(number * 10**9, number * 10**9))  # written one second apart
    kept = sorted(entry.name for entry in tmp_path.iterdir())
    assert kept == sorted(entry_name(text) for text in golds[-3:])


def test_an_id_with_a_newline_is_never_written(tmp_path: Path) -> None:
    """The line patterns never give one, but an entry joins ids by newlines: such a
    reading is not cached rather than read back wrong."""
    compat, fixed, differ = read_gold_pair(GOLD)
    items = dict(compat.items)
    items["1\n2"] = items.pop("1")
    odd = (compat._replace(items=items), fixed, differ)
    gold_cache._store(str(tmp_path), str(tmp_path / "entry.marshal"), odd)
    assert list(tmp_path.iterdir()) == []
    gold_cache._store(str(tmp_path), str(tmp_path / "entry.marshal"), (compat, fixed, differ))
    assert [p.name for p in tmp_path.iterdir()] == ["entry.marshal"]


def test_a_new_entry_can_be_written_later(tmp_path: Path) -> None:
    later: list[Callable[[], None]] = []
    pair = cached_gold_pair(GOLD, "gold", str(tmp_path), later=later)
    assert list(tmp_path.iterdir()) == [] and len(later) == 1
    later[0]()
    assert [p.name for p in tmp_path.iterdir()] == [entry_name(GOLD)]
    again: list[Callable[[], None]] = []
    assert_same_pair(cached_gold_pair(GOLD, "gold", str(tmp_path), later=again), pair)
    assert again == []  # loaded: nothing to write


@pytest.mark.parametrize("asked", [["--cache"], ["env"]], ids=["option", "environment"])
def test_the_scorer_uses_the_cache_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, asked: list[str]
) -> None:
    """By default nothing is written in the user's cache folder (XDG_CACHE_HOME); with
    --cache, or LEXSUB_GOLD_CACHE=1, one entry is, and every output byte is the same;
    --no-cache overrides the environment."""
    gold, system = tmp_path / "gold", tmp_path / "system"
    gold.write_text(GOLD)
    system.write_text(SYSTEM)
    cache = tmp_path / "xdg"
    monkeypatch.delenv("LEXSUB_CACHE_DIR", raising=False)
    monkeypatch.delenv("LEXSUB_GOLD_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    argv = [str(system), str(gold), "-t", "best"]
    expected = (
        b"Total = 7, attempted = 6\nprecision = 51.67, recall = 44.29\n"
        b"Total with mode 5 attempted 4\nMode precision = 50.00, Mode recall = 40.00\n"
    )
    plain = _score(argv)
    assert plain[0] == expected and plain[2] == 0
    assert not cache.exists()
    if asked == ["env"]:
        monkeypatch.setenv("LEXSUB_GOLD_CACHE", "1")
        assert _score([*argv, "--no-cache"]) == plain
        assert not cache.exists()
        asked = []
    written = _score([*argv, *asked])
    assert [entry.name for entry in (cache / "lexsub" / "gold").iterdir()] == [entry_name(GOLD)]
    loaded = _score([*argv, *asked])
    assert plain == written == loaded
