"""The cyclic collector is the caller's business: only the scorer's entry point
(:func:`scoring.score.cli.main`) turns it off, and gives it back when it returns in-process;
the library functions (:func:`scoring.score.cli.run`, :func:`scoring.leaderboard.cli.main`) leave it
as they find it."""

from __future__ import annotations

import gc
import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scoring.leaderboard import cli as compare
from scoring.score import cli as score

GOLD = "bright.a 1 :: intelligent 3;clever 2;smart 1;\nbright.a 2 :: vivid 2;shining 1;\n"
SYSTEM = "bright.a 1 :: clever\nbright.a 2 :: vivid\n"
EXPECTED = (  # by hand: credit 1/3 + 2/3 over 2 items attempted; one mode of two
    "Total = 2, attempted = 2\nprecision = 50.00, recall = 50.00\n"
    "Total with mode 2 attempted 2\nMode precision = 50.00, Mode recall = 50.00\n"
)


class Spy(io.BytesIO):
    """A binary stream that notes, at each write, whether the collector is on."""

    def __init__(self) -> None:
        super().__init__()
        self.collecting: list[bool] = []

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.collecting.append(gc.isenabled())
        return super().write(data)


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "gold").write_text(GOLD)
    (tmp_path / "system").write_text(SYSTEM)
    return str(tmp_path / "system"), str(tmp_path / "gold")


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_run_leaves_the_collector_on(files: tuple[str, str], collector_on: None) -> None:
    out = Spy()
    assert score.run([*files], out, io.StringIO()) == 0
    assert out.getvalue().decode() == EXPECTED
    assert out.collecting and all(out.collecting)
    assert gc.isenabled()


def test_main_turns_it_off_while_it_runs_and_back_on(
    files: tuple[str, str], collector_on: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = Spy()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8"))
    assert score.main([*files]) == 0
    assert out.getvalue().decode() == EXPECTED
    assert out.collecting and not any(out.collecting)
    assert gc.isenabled()


def test_compare_leaves_the_collector_on(files: tuple[str, str], collector_on: None) -> None:
    system, gold = files
    out = io.StringIO()
    assert compare.main([gold, system, "--format", "json", "--workers", "1"], out) == 0
    assert '"best.P": 0.5,' in out.getvalue()
    assert gc.isenabled()
