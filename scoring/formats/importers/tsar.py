"""TSAR-2022 and MLSP-2024 files as datasets to annotate (Saggion et al. 2022; Shardlow et
al. 2024): a simplification study from ``SENTENCE<TAB>WORD[<TAB>SUBSTITUTE…]`` (TSAR's
``*_none.tsv`` and ``*_gold.tsv``, MLSP's ``*_ls.tsv``), a complexity study from
``ID<TAB>LANGUAGE<TAB>SENTENCE<TAB>WORD<TAB>COMPLEXITY`` (MLSP's ``*_lcp.tsv``).

The lines are read by the benchmark's readers (:mod:`scoring.formats.tsar`,
:mod:`scoring.formats.lcp`; the importer calls them here only), so that a file the scorer
reads is the file imported. Each line is one instance. Its target is found in the sentence by
:func:`find_target` (the word as a whole word, else anywhere, in its case, then in any
case, else the sentence's word most like it, reported as a repair: MLSP's German file
gives lemmas); a word the sentence does not hold is refused with ``FILE:LINE``. An
instance's id is the MLSP file's own (``en_1``) or ``LANGUAGE_LINE`` for a line of another
file (the language as the file's name writes it: ``fil_1``), so that the ids of an
``*_ls.tsv`` and its ``*_lcp.tsv`` agree.
The files name no part of speech: every word is filed as ``WORD.n`` (white space, dots and
semicolons in it made ``_``), which no output of these tasks uses (both keep responses as
typed); the import says so. Substitutes and complexities in the file are kept
as the dataset's reference gold (:attr:`ImportResult.reference`), in the file's own layout.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from difflib import SequenceMatcher

from scoring.errors import FormatError
from scoring.files import bounded
from scoring.formats.hf import GoldEntries, ordered_entries
from scoring.formats.instances import (
    LIMITS,
    ImportResult,
    Limits,
    Repair,
    Row,
    SourceError,
    group_lexelts,
)
from scoring.formats.language import declared_language
from scoring.formats.lcp import parse_lcp
from scoring.formats.text import universal_lines
from scoring.formats.tsar import parse_tsar

SIMPLIFICATION = "simplification"
COMPLEXITY = "complexity"
_NOT_IN_ITEM = re.compile(r"[\s.;]+")
_FILE_LANGUAGE = re.compile(
    r"(?:^|_)([a-z]{2,3})_(?:trial|test|train|dev)|_(?:trial|test)_([a-z]{2,3})_"
)
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
FORM_LIKENESS = 0.75
"""How alike (difflib's ratio, case folded) a sentence's word must be to a target it
does not hold for the word to be taken as the target's form."""
_NUMBER = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")
NO_POS_NOTE = (
    "TSAR and MLSP files name no part of speech: every word is filed as WORD.n "
    "(responses are kept as typed, as these tasks score them)"
)


def is_lcp(first_line: str) -> bool:
    """Whether a line is MLSP's complexity layout: five or more columns, an id without
    white space first and a number fifth (the ``*_combined.tsv`` files too)."""
    fields = first_line.split("\t")
    return (
        len(fields) >= 5 and not re.search(r"\s", fields[0]) and bool(_NUMBER.fullmatch(fields[4]))
    )


def file_language(name: str) -> str | None:
    """The language a TSAR or MLSP file's name gives (``tsar2022_es_test_none.tsv``,
    ``multilex_trial_fil_ls.tsv``) as an ISO 639-1 code, or None.

    >>> names = ("tsar2022_es_test_none.tsv", "multilex_trial_fil_ls.tsv", "x.tsv")
    >>> [file_language(name) for name in names]
    ['es', 'tl', None]
    """
    tag = file_tag(name)
    try:
        return None if tag is None else declared_language(tag)
    except ValueError:
        return None


def file_tag(name: str) -> str | None:
    """The language tag in a TSAR or MLSP file's name, as written (``fil``), or None."""
    stem = name.replace("\\", "/").rsplit("/", 1)[-1].lower()
    match = _FILE_LANGUAGE.search(stem)
    return None if match is None else match.group(1) or match.group(2)


def find_target(sentence: str, word: str) -> tuple[int, int, bool]:
    """Where the target ``word`` is in ``sentence`` (start, end, and whether it was found
    only as another form): its first whole-word occurrence, else its first occurrence
    (Japanese writes no spaces), each as written and then in any case; else the sentence's
    word most like it, when that is at least :data:`FORM_LIKENESS` alike (MLSP's German
    file gives lemmas: ``nominieren`` for *nominiert*); ``(-1, -1, False)`` when none is.

    >>> find_target("an ant ate", "ant"), find_target("日本語の文", "本語")
    ((3, 6, False), (1, 3, False))
    >>> find_target("Tardo a capire", "tardo"), find_target("er wurde nominiert.", "nominieren")
    ((0, 5, False), (9, 18, True))
    >>> find_target("a b", "c")
    (-1, -1, False)
    """
    word = word.strip()
    if not word:
        return -1, -1, False
    for case in (False, True):
        mapped_sentence, mapped_word = _any_case(sentence, word) if case else (sentence, word)
        whole = _first_whole(sentence, mapped_sentence, mapped_word)
        start = whole if whole >= 0 else mapped_sentence.find(mapped_word)
        if start >= 0:
            return start, start + len(word), False
    best: tuple[float, int, int] = (FORM_LIKENESS, -1, -1)
    folded = word.casefold()
    for token in _WORD.finditer(sentence):
        other = token.group().casefold()
        # difflib's own upper bound (real_quick_ratio, then quick_ratio) first: a word
        # that cannot beat the best so far is not compared (comparing is quadratic)
        bound = 2.0 * min(len(folded), len(other)) / (len(folded) + len(other))
        if bound < best[0] or (best[1] >= 0 and bound <= best[0]):
            continue
        matcher = SequenceMatcher(None, folded, other)
        bound = matcher.quick_ratio()
        if bound < best[0] or (best[1] >= 0 and bound <= best[0]):
            continue
        likeness = matcher.ratio()
        if likeness >= best[0] and (best[1] < 0 or likeness > best[0]):
            best = (likeness, token.start(), token.end())
    return best[1], best[2], best[1] >= 0


def _any_case(sentence: str, word: str) -> tuple[str, str]:
    """``sentence`` and ``word`` with each character replaced by one that stands for the
    characters ``re.IGNORECASE`` takes it for (the number of the first of the word's
    characters that matches it; ``\\0`` when none does): the word occurs in the sentence
    in any case where it occurs in the mapped sentence as written, which ``str.find``
    finds in linear time (the regular expression's search is quadratic on a long
    sentence). ``re`` itself decides which characters match; each character is tried only
    against the word's characters of its :func:`_case_key`, in order, and with ``re`` only
    against those other than itself (a few: its other cases)."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for number, character in enumerate(dict.fromkeys(word), 1):
        groups.setdefault(_case_key(character), []).append((number, character))
    table: dict[int, int] = {}
    for character in {*sentence, *word}:
        number = 0
        for candidate, other in groups.get(_case_key(character), ()):
            if other == character or re.fullmatch(re.escape(other), character, re.IGNORECASE):
                number = candidate
                break
        table[ord(character)] = number
    return sentence.translate(table), word.translate(table)


def _case_key(character: str) -> str:
    """What two characters that ``re.IGNORECASE`` matches have in common: the upper case
    of their lower case (``re`` compares simple lower cases, ``İ``'s being ``i``, and takes
    a few more as alike, such as the long s and ``s``, the final sigma and the sigma, the
    micro sign and the mu: each such set has one upper case)."""
    return ("i" if character == "\u0130" else character.lower()).upper()


def _first_whole(sentence: str, mapped: str, word: str) -> int:
    """Where ``word`` first occurs in ``mapped`` (a text as long as ``sentence``, written as
    :func:`_any_case` maps it, or ``sentence`` itself) as a whole word of ``sentence``: not
    after and not before a letter or digit of it (``(?<![^\\W_])WORD(?![^\\W_])``); -1
    when it does not. Linear: the first occurrence is ``str.find``'s; when it is not whole,
    every occurrence is listed by Knuth, Morris and Pratt's (1977) automaton."""
    start = mapped.find(word)
    if start < 0 or _is_whole(sentence, start, start + len(word)):
        return start
    size = len(word)
    failure = [0] * size  # the longest proper border of each prefix of the word
    border = 0
    for at in range(1, size):
        while border and word[at] != word[border]:
            border = failure[border - 1]
        if word[at] == word[border]:
            border += 1
        failure[at] = border
    matched = 0
    for at in range(start + 1, len(mapped)):
        character = mapped[at]
        while matched and character != word[matched]:
            matched = failure[matched - 1]
        if character == word[matched]:
            matched += 1
        if matched == size:
            if _is_whole(sentence, at + 1 - size, at + 1):
                return at + 1 - size
            matched = failure[matched - 1]
    return -1


def _is_whole(sentence: str, start: int, end: int) -> bool:
    """Whether ``sentence[start:end]`` has no letter or digit (``[^\\W_]``) on either side."""
    return (start == 0 or not _LETTER_OR_DIGIT.match(sentence, start - 1)) and not (
        _LETTER_OR_DIGIT.match(sentence, end)
    )


_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


def parse_tsar_source(
    text: str, name: str, language: str | None = None, limits: Limits = LIMITS
) -> ImportResult:
    """The instances of a TSAR or MLSP file (module docstring), in ``language`` when
    given, else the one the file (MLSP's second column) or its name gives, else ``en``.
    SourceError naming ``FILE:LINE`` for a line the benchmark's reader refuses or whose
    word the sentence does not hold."""
    lines = universal_lines(text)
    if not lines:
        raise SourceError(name, "", "no instances: the file holds no line")
    complexity = is_lcp(lines[0])
    code = language or _declared(lines, complexity) or file_language(name) or "en"
    rows: list[Row] = []
    try:
        if complexity:
            values = parse_lcp(["\t".join(_lcp_fields(line)) for line in lines], name)
            targets = [
                (v.id, line.split("\t")[2], line.split("\t")[3])
                for v, line in zip(values, lines, strict=True)
            ]
            has_reference = True
        else:
            parsed = parse_tsar(lines, name)
            prefix = file_tag(name) if file_language(name) == code else code
            targets = [
                (f"{prefix}_{number}", row.sentence, row.word)
                for number, row in enumerate(parsed, 1)
            ]
            has_reference = any(row.substitutes for row in parsed)
    except FormatError as error:  # each problem is FILE:LINE: rule
        where, _, problem = error.problems[0].removeprefix(f"{name}:").partition(": ")
        raise SourceError(name, int(where) if where.isdigit() else where, problem) from None
    repairs: list[Repair] = []
    for number, (id_, sentence, word) in enumerate(targets, 1):
        start, end, form = find_target(sentence, word)
        if start < 0:
            raise SourceError(
                name, number, f"the word {word!r} is not in its sentence {sentence[:60]!r}"
            )
        if form:
            repairs.append(
                Repair(
                    id_,
                    number,
                    f"the word {word!r} is not in the sentence: its form "
                    f"{sentence[start:end]!r} is the target",
                )
            )
        item = _NOT_IN_ITEM.sub("_", word.strip()).strip("_") + ".n"
        rows.append(
            Row(id_, item, sentence[:start], sentence[start:end], sentence[end:], number, number)
        )
    lexelts = group_lexelts(rows, name, limits)
    return ImportResult(
        lexelts,
        tuple(repairs),
        code,
        (NO_POS_NOTE,),
        task=COMPLEXITY if complexity else SIMPLIFICATION,
        reference=text if has_reference else "",
    )


def import_stream(
    stream: Iterable[bytes], data: bytes, name: str, language: str | None, limits: Limits
) -> ImportResult:
    """The reader of the ``tsar`` row of :data:`scoring.formats.registry.FORMATS`: one
    instance a line, so the lines are counted before any is kept (:func:`tsar_bounds`),
    then :func:`parse_tsar_source` (a byte-order mark dropped, bytes that are not UTF-8
    kept through ``surrogateescape`` for its reader to name)."""
    whole = b"".join(bounded.counted_chunks(stream, name, tsar_bounds(limits)))
    text = whole.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "surrogateescape")
    return parse_tsar_source(text, name, language, limits)


def gold_entries(data: bytes, name: str) -> GoldEntries:
    """The gold reader of the ``tsar`` row (TSAR's and MLSP's substitution files): each
    line's substitutes, a repeated one counted as often as it is given, by line number (the
    importer's :attr:`~scoring.formats.instances.Instance.line`)."""
    lines = parse_tsar(universal_lines(data.decode("utf-8")), name)
    return {
        number: ordered_entries(Counter(line.substitutes)) for number, line in enumerate(lines, 1)
    }


def tsar_bounds(limits: Limits) -> bounded.Bounds:
    """The bounds of a TSAR or MLSP file (:data:`scoring.files.bounded.TSAR_FILE`): one instance a
    line, so at most ``limits.instances`` lines, and at most ``limits.unpacked`` bytes."""
    most = bounded.TSAR_FILE
    return most._replace(bytes=min(most.bytes, limits.unpacked), lines=limits.instances)


def _lcp_fields(line: str) -> list[str]:
    """An MLSP line's first five columns (a ``*_combined.tsv`` line has substitutes after)."""
    return line.split("\t")[:5]


def _declared(lines: list[str], complexity: bool) -> str | None:
    """The language MLSP's second column names (``english``), or None."""
    if not complexity:
        return None
    try:
        return declared_language(lines[0].split("\t")[1])
    except ValueError:
        return None
