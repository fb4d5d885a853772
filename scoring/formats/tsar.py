"""The substitutes files of the TSAR-2022 lexical simplification shared task (Saggion et
al. 2022) and of MLSP-2024 (Shardlow et al. 2024), read as their official scripts read them:
TSAR's ``*_gold.tsv`` and system files, MLSP's ``*_ls.tsv``.

``SENTENCE<TAB>WORD<TAB>SUBSTITUTE<TAB>…``. As ``tsar_eval.py`` reads a line: the whole
line is stripped of white space at both ends, split on tabs, each substitute stripped;
the sentence and the word are kept as the split gives them (a word followed by a tab
keeps its own trailing spaces). Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``
(Python's universal newlines, :func:`scoring.formats.text.universal_lines`). The
benchmark :mod:`scoring.benchmark.tsar` scores them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.errors import Problems
from scoring.formats.text import read_universal_lines


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


def parse_tsar(lines: Sequence[str], name: str = "<tsar>", start: int = 1) -> tuple[TsarLine, ...]:
    """Every line ``SENTENCE<TAB>WORD<TAB>SUBSTITUTE…`` (substitutes may be none); the
    first is line ``start`` of the file (a part of a file read a chunk at a time).
    :class:`scoring.errors.FormatError` names ``FILE:LINE`` for each line without a tab after
    its sentence (``tsar_eval.py`` stops there with an ``IndexError``; a blank line is
    one)."""
    parsed: list[TsarLine] = []
    problems = Problems()  # the first 20 kept, the rest counted
    for number, text in enumerate(lines, start):
        fields = text.strip().split("\t")
        location = f"{name}:{number}"
        if len(fields) < 2:
            shown = "a blank line" if not text.strip() else repr(text.strip()[:60])
            problems.add(
                f"{location}: {shown} has no tab (each line is SENTENCE<TAB>WORD<TAB>SUBSTITUTE…)"
            )
            continue
        substitutes = tuple(field.strip() for field in fields[2:])
        parsed.append(TsarLine(fields[0], fields[1], substitutes, location))
    if problems:
        raise problems.error()
    return tuple(parsed)


def read_tsar(path: str | os.PathLike[str]) -> tuple[TsarLine, ...]:
    """:func:`parse_tsar` of a file."""
    return parse_tsar(read_universal_lines(path), os.fspath(path))


def format_tsar(lines: Iterable[TsarLine]) -> str:
    """A substitutes file's text, one ``SENTENCE<TAB>WORD<TAB>SUBSTITUTE…`` line each ending
    ``\\n`` (:func:`parse_tsar` reads it back). ValueError for a field it could not read
    back: one holding a tab or a line break, a sentence that starts or a substitute that
    starts or ends with white space, or a last field that ends with it.

    >>> format_tsar([TsarLine("He is bright.", "bright", ("smart", "clever"), "")])
    'He is bright.\\tbright\\tsmart\\tclever\\n'
    """
    out: list[str] = []
    for line in lines:
        fields = (line.sentence, line.word, *line.substitutes)
        text = "\t".join(fields)
        broken = [field for field in fields if any(c in field for c in "\t\n\r")]
        if broken:
            raise ValueError(f"{broken[0]!r} holds a tab or a line break (fields are one line)")
        unstripped = [s for s in line.substitutes if s != s.strip()]
        if unstripped or text != text.strip():
            shown = unstripped[0] if unstripped else text
            raise ValueError(
                f"{shown!r} starts or ends with white space (a line and each substitute are"
                " read stripped)"
            )
        out.append(text + "\n")
    return "".join(out)
