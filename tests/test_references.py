"""Citations name works by author and year (docs/references.md), nothing a reader of the
repository does not have: no source file handed to the project, no tracker number and no
requirements document. Every tracked text file is read line by line; every author-year key
the documentation uses has its entry in docs/references.md."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = ROOT / "docs" / "references.md"

# Built from pieces, so that this file does not match itself.
_SOURCE_FILE = "se" + r"eds?[ /]00\d"
_SHARED = "shared/" + "se" + "eds"
_TRACKER = r"\b" + "iss" + r"ues? #?\d+"
_REQUIREMENTS = r"\b" + "SP" + r"EC\b"
FORBIDDEN = re.compile("|".join((_SOURCE_FILE, _SHARED, _TRACKER, _REQUIREMENTS)), re.I)
"""What may not be cited: a source file by number (or its folder), a tracker number, the
requirements document by name (any case)."""

_AUTHOR = r"[A-Z][\w'\u2019-]*"
CITATION = re.compile(
    rf"({_AUTHOR}(?: et al\.)?(?:(?:, {_AUTHOR})*,? (?:&|and) {_AUTHOR})?),? \(?((?:19|20)\d\d)\b"
)
"""An author-year citation: "Cohn 2003", "Glickman et al. (2006)", "McCarthy & Navigli
2007", "Thater, Fürstenau & Pinkal 2010"."""


def forbidden_citations(path: str, text: str) -> list[str]:
    """``path:line: text`` of every line of ``text`` that cites what it may not."""
    return [
        f"{path}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if FORBIDDEN.search(line)
    ]


def tracked_text_files() -> list[tuple[str, str]]:
    """(path, text) of every file git tracks that is UTF-8 text."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode("utf-8")
    files = []
    for name in sorted(filter(None, listed.split("\0"))):
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            files.append((name, data.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return files


def unlisted_citations(text: str, entries: list[str]) -> list[str]:
    """The author-year keys of ``text`` with no entry (a line of ``entries``) that holds
    every surname of the key and its year."""
    missing = []
    for match in CITATION.finditer(text):
        names, year = match.groups()
        surnames = [
            word.removesuffix("'s")
            for word in re.split(r",? (?:&|and) |, | et al\.", names)
            if word
        ]
        if not any(year in entry and all(s in entry for s in surnames) for entry in entries):
            missing.append(f"{names} {year}")
    return missing


def reference_entries() -> list[str]:
    """The entries of docs/references.md: its lines that open with a bold key."""
    text = REFERENCES.read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.startswith("- **")]


@pytest.mark.parametrize(
    "line",
    [
        "best recall (" + "se" + "ed 002, section 4)",
        "Formats (``../shared/" + "se" + "eds/002`` section 2.2)",
        "AP (`" + "se" + "eds/003`)",
        "judgement rounds (" + "iss" + "ue 12)",
        "Issue" + "s 5 and 6: the agreement page",
        "The gold compiler (" + "SP" + "EC C1-C5)",
        "the figures of the " + "sp" + "ec",
    ],
)
def test_a_forbidden_citation_is_found(line: str) -> None:
    assert forbidden_citations("docs/x.md", f"first line\n{line}\n") == [f"docs/x.md:2: {line}"]


@pytest.mark.parametrize(
    "line",
    [
        "best recall (McCarthy & Navigli 2007, section 4)",
        "a seed of 7 gives the same round; --seed 1",
        "round_spec = plan; importlib.util.spec_from_file_location",
        "the issues the tests found",
    ],
)
def test_a_proper_citation_passes(line: str) -> None:
    assert forbidden_citations("docs/x.md", line) == []


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout"
)
def test_no_tracked_file_cites_a_source_file_a_tracker_number_or_a_requirements_document() -> None:
    found = [hit for name, text in tracked_text_files() for hit in forbidden_citations(name, text)]
    assert found == [], "\n".join(found)


def test_every_author_year_key_of_the_docs_is_in_the_references() -> None:
    entries = reference_entries()
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = [
        f"{path.relative_to(ROOT)}: {key}"
        for path in documents
        if path != REFERENCES
        for key in unlisted_citations(path.read_text(encoding="utf-8"), entries)
    ]
    assert missing == [], "\n".join(missing)


def test_an_unlisted_key_is_found() -> None:
    entries = ["- **Cohn 2003.** Trevor Cohn, ...", "- **McCarthy & Navigli 2007.** ..."]
    text = "ROC AUC (Cohn 2003); best (McCarthy & Navigli 2007); AP (Glickman et al. 2006)"
    assert unlisted_citations(text, entries) == ["Glickman et al. 2006"]
    assert unlisted_citations("Smith & Navigli (2007)", entries) == ["Smith & Navigli 2007"]
    assert unlisted_citations("Cohn (2004)", entries) == ["Cohn 2004"]


def test_every_docs_page_that_cites_a_work_links_the_references() -> None:
    for path in sorted((ROOT / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        if path != REFERENCES and CITATION.search(text):
            assert "(references.md)" in text, path.name
    assert "references.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_measure_description_cites_by_author_and_year() -> None:
    """The descriptions ``compare --format json`` and the scores page print."""
    from scoring.registry import MEASURES

    entries = reference_entries()
    for name, measure in MEASURES.items():
        assert forbidden_citations(name, measure.description) == []
        assert unlisted_citations(measure.description, entries) == [], name
    assert MEASURES["best.R"].description == (
        "best recall, eq. 2 (score.pl (McCarthy & Navigli 2007, section 4))"
    )
    assert (
        MEASURES["rank.R"].description == "the rank measure (Jabbari et al. 2010), over all items"
    )
