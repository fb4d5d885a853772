"""The tab-separated files of the TSAR-2022 lexical simplification shared task (Saggion et
al. 2022) and of MLSP-2024 (Shardlow et al. 2024), read as their official scripts read them.

- **Substitutes** (TSAR's ``*_gold.tsv`` and system files, MLSP's ``*_ls.tsv``):
  ``SENTENCE<TAB>WORD<TAB>SUBSTITUTE<TAB>…``. As ``tsar_eval.py`` reads a line: the whole
  line is stripped of white space at both ends, split on tabs, each substitute stripped;
  the sentence and the word are kept as the split gives them (a word followed by a tab
  keeps its own trailing spaces). Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``
  (Python's universal newlines, as ``open(…).readlines()`` reads them).
- **Complexity** (MLSP's ``*_lcp.tsv``): ``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>VALUE``,
  or a system's two columns ``ID<TAB>VALUE``; the id and the value are what the
  organisers' evaluation (``lcp_evaluate.py``, CompLex's script, on ``ID,VALUE``) reads.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.files import refuse_wide
from scoring.io import ENCODING, ERRORS, FormatError


@dataclass(frozen=True, slots=True)
class TsarLine:
    """One line of a substitutes file: ``location`` is ``FILE:LINE``."""

    sentence: str
    word: str
    substitutes: tuple[str, ...]
    location: str

    @property
    def key(self) -> str:
        """The item's key as ``tsar_eval.py`` forms it: ``SENTENCE__WORD``."""
        return self.sentence + "__" + self.word


@dataclass(frozen=True, slots=True)
class LcpLine:
    """One line of a complexity file: the target's id and its complexity (gold: the mean
    rating in [0, 1]; a system: its prediction)."""

    id: str
    value: float
    location: str


def read_text_lines(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a UTF-8 file as Python's universal newlines split them (``\\n``,
    ``\\r\\n``, ``\\r``), without their ends. A byte-order mark is kept (the official
    scripts keep it); bytes that are not UTF-8 are kept through ``surrogateescape``."""
    with open(path, "rb") as file:
        data = file.read()
    refuse_wide(data[:64], os.fspath(path))
    text = data.decode(ENCODING, ERRORS).replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_tsar(lines: Sequence[str], name: str = "<tsar>") -> tuple[TsarLine, ...]:
    """Every line ``SENTENCE<TAB>WORD<TAB>SUBSTITUTE…`` (substitutes may be none).
    :class:`scoring.io.FormatError` names ``FILE:LINE`` for each line without a tab after
    its sentence (``tsar_eval.py`` stops there with an ``IndexError``; a blank line is
    one)."""
    parsed: list[TsarLine] = []
    problems: list[str] = []
    for number, text in enumerate(lines, 1):
        fields = text.strip().split("\t")
        location = f"{name}:{number}"
        if len(fields) < 2:
            shown = "a blank line" if not text.strip() else repr(text.strip()[:60])
            problems.append(
                f"{location}: {shown} has no tab (each line is SENTENCE<TAB>WORD<TAB>SUBSTITUTE…)"
            )
            continue
        substitutes = tuple(field.strip() for field in fields[2:])
        parsed.append(TsarLine(fields[0], fields[1], substitutes, location))
    if problems:
        raise FormatError(problems)
    return tuple(parsed)


def read_tsar(path: str | os.PathLike[str]) -> tuple[TsarLine, ...]:
    """:func:`parse_tsar` of a file."""
    return parse_tsar(read_text_lines(path), os.fspath(path))


def parse_lcp(lines: Sequence[str], name: str = "<lcp>") -> tuple[LcpLine, ...]:
    """Every line ``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>VALUE`` (MLSP's layout) or
    ``ID<TAB>VALUE``. :class:`scoring.io.FormatError` names ``FILE:LINE`` for another
    number of columns, an empty id, or a value that is not a finite number."""
    parsed: list[LcpLine] = []
    problems: list[str] = []
    for number, text in enumerate(lines, 1):
        location = f"{name}:{number}"
        fields = text.split("\t")
        if len(fields) not in (2, 5):
            problems.append(
                f"{location}: {len(fields)} tab-separated columns (ID<TAB>LANGUAGE<TAB>"
                "SENTENCE<TAB>WORD<TAB>VALUE, or ID<TAB>VALUE)"
            )
            continue
        ident, written = fields[0], fields[-1]
        try:
            value = float(written)
        except ValueError:
            value = math.nan
        if not ident:
            problems.append(f"{location}: empty id (the first column names the target)")
        elif not math.isfinite(value):
            problems.append(f"{location}: value {written!r} is not a finite number")
        else:
            parsed.append(LcpLine(ident, value, location))
    if problems:
        raise FormatError(problems)
    return tuple(parsed)


def read_lcp(path: str | os.PathLike[str]) -> tuple[LcpLine, ...]:
    """:func:`parse_lcp` of a file."""
    return parse_lcp(read_text_lines(path), os.fspath(path))
