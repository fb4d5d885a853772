"""Versions pin figures: the figures of a fixed set of runs on the trial data
(tests/fingerprint.py) are those stored under the installed version, and every version
has its CHANGELOG section."""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import scoring
from tests import fingerprint
from tests.conftest import shared_path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
UPDATE = "python -m tests.fingerprint --update"


def differences(now: Any, then: Any, where: str = "") -> list[str]:
    """Where two runs' figures differ: ``PATH: then -> now``."""
    if isinstance(now, dict) and isinstance(then, dict):
        found = []
        for key in sorted(set(now) | set(then), key=str):
            here = f"{where}/{key}"
            if key not in now or key not in then:
                found.append(f"{here}: {'added' if key in now else 'gone'}")
            else:
                found += differences(now[key], then[key], here)
        return found
    if isinstance(now, list) and isinstance(then, list) and len(now) == len(then):
        return [
            d
            for n, (a, b) in enumerate(zip(now, then, strict=True))
            for d in differences(a, b, f"{where}[{n}]")
        ]
    return [] if now == then else [f"{where}: {then!r} -> {now!r}"]


def verdict(version: str, runs: dict[str, Any], stored: tuple[str, dict[str, Any]]) -> str | None:
    """Why the figures of ``runs`` under ``version`` do not match the stored ones, or None."""
    stored_version, stored_runs = stored
    if version != stored_version:
        return (
            f"the version is {version} but {fingerprint.STORED.name} holds the figures of "
            f"{stored_version}: write the new version's figures with `{UPDATE}`"
        )
    changed = differences(runs, stored_runs)
    if not changed:
        return None
    shown = "; ".join(changed[:10]) + ("; …" if len(changed) > 10 else "")
    return (
        f"figures changed: raise the version in pyproject.toml and add a CHANGELOG section "
        f"(then `{UPDATE}`). {len(changed)} differ from version {version}'s: {shown}"
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    trial = shared_path("data", "semeval2007", "trial")
    return fingerprint.compute(trial, tmp_path_factory.mktemp("fingerprint"))


def test_the_installed_version_is_pyproject_s() -> None:
    assert scoring.__version__ == VERSION, "reinstall: pip install -e ."


@pytest.mark.shared_data
def test_the_figures_are_the_version_s(runs: dict[str, Any]) -> None:
    message = verdict(VERSION, runs, fingerprint.stored())
    if message is not None:
        pytest.fail(message, pytrace=False)


@pytest.mark.shared_data
def test_the_runs_hold_known_figures(runs: dict[str, Any]) -> None:
    """score.pl's figures of BL.out on the trial gold (7.49 / 7.47, modes 9.85) and the
    compiled trial gold's T (295 items, 203 with a mode)."""
    best = runs["score BL.best -t best compat"]
    assert (round(100 * best["precision"], 2), round(100 * best["recall"], 2)) == (7.49, 7.47)
    assert round(100 * best["mode_precision"], 2) == 9.85
    assert runs["compile"]["in_t"] == 295 and runs["compile"]["with_mode"] == 203
    assert runs["agreement --intervals"]["all"]["T"] == 295
    assert runs["compare --significance"]["resampling"]["seed"] == 1
    pairs = runs["compare --significance"]["significance"]
    assert {(pair["a"], pair["b"]) for pair in pairs} == {
        ("BL.best", "BL-half.best"),
        ("BL.oot", "BL-half.oot"),
    }


@pytest.mark.shared_data
def test_a_changed_figure_under_the_same_version_fails(runs: dict[str, Any]) -> None:
    changed = copy.deepcopy(runs)
    changed["compare --significance"]["significance"][0]["p_bootstrap"] += 1e-12
    message = verdict(VERSION, changed, (VERSION, runs))
    assert message is not None
    assert message.startswith(
        "figures changed: raise the version in pyproject.toml and add a CHANGELOG section"
    )
    assert (
        "1 differ" in message and "/compare --significance/significance[0]/p_bootstrap" in message
    )


@pytest.mark.shared_data
def test_a_new_version_asks_for_its_figures(runs: dict[str, Any]) -> None:
    message = verdict("9.9.9", runs, (VERSION, runs))
    assert message == (
        f"the version is 9.9.9 but fingerprint.json holds the figures of {VERSION}: "
        f"write the new version's figures with `{UPDATE}`"
    )


def test_the_changelog_has_a_section_for_the_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", changelog, flags=re.MULTILINE)[1:]
    versions = {}
    for section in sections:
        title, _, body = section.partition("\n")
        if title.strip() == "Unreleased":
            continue
        match = re.fullmatch(r"(\d+\.\d+\.\d+) — \d{4}-\d{2}-\d{2}", title.strip())
        assert match, f"CHANGELOG.md: section title {title!r} is not 'X.Y.Z — YYYY-MM-DD'"
        assert "Figures that change" in body, f"CHANGELOG.md {title}: no 'Figures that change'"
        versions[match.group(1)] = body
    assert VERSION in versions, f"CHANGELOG.md has no section for {VERSION}"
    assert next(iter(versions)) == VERSION, "the newest section comes first"
