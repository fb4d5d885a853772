"""TSV and CSV tables of sentences to annotate: UTF-8, RFC 4180 quoting.

The first row names the columns; ``id``, ``lexelt`` and ``sentence`` are required (in
any order and case), any other column is ignored. Each further row is one instance: its
id, its word (``bright.a``, ``stand.n.v``, ``spazieren_gehen.v``) and the sentence with
the target marked ``<head>…</head>`` exactly once::

    id,lexelt,sentence,source
    1,bright.a,"He was <head>bright</head> and independent, ""they"" said.",web
    2,bright.a,"A <head>brighter</head> light
    on a second line",web

A field in double quotes may hold the delimiter, line breaks and doubled quotes (RFC
4180, in TSV as in CSV); line breaks in a sentence are kept. Nothing else in the sentence
is markup: ``&amp;`` stays as typed. An empty row (a blank line) is skipped; a row with
more or fewer fields than the header is refused. Words are in the order of their first
row, each word's sentences in row order.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterable, Iterator
from itertools import chain

from scoring.files import CsvWriter
from scoring.formats.instances import (
    LIMITS,
    ImportResult,
    Lexelt,
    Limits,
    Row,
    SourceError,
    group_lexelts,
)

REQUIRED = ("id", "lexelt", "sentence")
DELIMITERS = {"tsv": "\t", "csv": ","}
_HEAD = re.compile(r"<head>(.*?)</head>", re.DOTALL)
MAX_LINE = 2**20
"""The most bytes of one line of a table (one row holds one context)."""


def split_sentence(sentence: str) -> tuple[str, str, str]:
    """``(before, head, after)`` of a sentence with one ``<head>…</head>``; ValueError
    naming the rule otherwise.

    >>> split_sentence("a <head>bright</head> boy")
    ('a ', 'bright', ' boy')
    """
    heads = _HEAD.findall(sentence)
    if len(heads) != 1:
        raise ValueError(
            f"the sentence has {len(heads)} <head>…</head>; exactly one marks the target"
        )
    match = _HEAD.search(sentence)
    assert match is not None
    before, head, after = sentence[: match.start()], match.group(1), sentence[match.end() :]
    for part in (before, head, after):
        if "<head>" in part or "</head>" in part:
            raise ValueError("a <head> or </head> without its partner in the sentence")
    return before, head, after


def text_lines(chunks: Iterable[bytes], name: str) -> Iterator[str]:
    r"""The UTF-8 text of ``chunks`` (a byte-order mark dropped) line by line, each line
    ending as in the file (``\n``, ``\r\n`` or ``\r``, as ``open(newline="")`` reads it);
    the text is decoded a run of whole lines at a time. SourceError naming the line of a
    byte that is not UTF-8, or of a line longer than :data:`MAX_LINE` bytes.

    >>> list(text_lines([b"\xef\xbb\xbfa\r\nb", b"\rc\n"], "t"))
    ['a\r\n', 'b\r', 'c\n']
    """
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    lines = 0  # the line breaks decoded so far
    pending = b""
    for chunk in chain(chunks, (b"",)):
        pending += chunk
        cut = pending.rfind(b"\n") + 1 if chunk else len(pending)
        if len(pending) - cut > MAX_LINE:
            raise SourceError(
                name,
                lines + pending.count(b"\n", 0, cut) + 1,
                f"the line has more than {MAX_LINE // 2**20} MiB; a row is at most "
                f"{MAX_LINE // 2**20} MiB (a context at most {LIMITS.context:,} characters)",
            )
        if not cut:
            continue
        piece, pending = pending[:cut], pending[cut:]
        try:
            text = decoder.decode(piece, final=not chunk)
        except UnicodeDecodeError as error:
            at = max(0, error.start - (len(error.object) - len(piece)))
            raise SourceError(
                name,
                lines + piece.count(b"\n", 0, at) + 1,
                f"byte 0x{error.object[error.start]:02X} is not UTF-8 ({error.reason}); "
                "save the table as UTF-8",
            ) from None
        lines += piece.count(b"\n")
        yield from io.StringIO(text, newline="")


def parse_table(
    data: bytes | Iterable[bytes],
    name: str = "<table>",
    format: str = "csv",
    limits: Limits = LIMITS,
) -> ImportResult:
    """The instances of a TSV (``format="tsv"``) or CSV table (module docstring), from its
    bytes or its bytes in chunks (read as they come); SourceError naming the line and the
    rule for a header without the required columns, a row with another number of fields,
    a sentence without exactly one ``<head>``, a quote left open, and the rules every
    format shares (:func:`scoring.formats.instances.group_lexelts`, with ``limits``)."""
    chunks = (data,) if isinstance(data, bytes) else data
    return ImportResult(group_lexelts(_rows(chunks, name, format), name, limits), ())


def _rows(chunks: Iterable[bytes], name: str, format: str) -> Iterator[Row]:
    """The table's rows, one at a time (:func:`parse_table`)."""
    delimiter = DELIMITERS[format]
    reader = csv.reader(text_lines(chunks, name), delimiter=delimiter, strict=True)
    start = 1
    try:
        header = next(reader, None)
        if header is None:
            raise SourceError(name, 1, f"empty file: a {format.upper()} table needs a header")
        columns = [column.strip().lower() for column in header]
        missing = [column for column in REQUIRED if column not in columns]
        if missing:
            raise SourceError(
                name,
                1,
                f"the header {shown_header(header)} has no column {', '.join(missing)} "
                f"(a {format.upper()} table names id, lexelt and sentence)",
            )
        for column in REQUIRED:
            if columns.count(column) > 1:
                raise SourceError(name, 1, f"the header names the column {column!r} twice")
        where = {column: columns.index(column) for column in REQUIRED}
        start = reader.line_num + 1
        for record in reader:
            line, start = start, reader.line_num + 1
            if not record:
                continue
            if len(record) != len(header):
                raise SourceError(
                    name,
                    line,
                    f"the row has {len(record)} fields, the header {len(header)} "
                    f"(fields are separated by {'tabs' if delimiter == chr(9) else 'commas'};"
                    " one holding the separator, a quote or a line break is in double quotes)",
                )
            try:
                before, head, after = split_sentence(record[where["sentence"]])
            except ValueError as error:
                raise SourceError(
                    name, line, f"instance {record[where['id']]!r}: {error}"
                ) from None
            yield Row(record[where["id"]], record[where["lexelt"]], before, head, after, line, line)
    except csv.Error as error:
        raise SourceError(name, start, f"not {format.upper()}: {error}") from None


def shown_header(header: list[str]) -> str:
    """The header as a message quotes it."""
    text = ", ".join(header)
    return repr(text[:60] + ("…" if len(text) > 60 else ""))


def format_table(lexelts: Iterable[Lexelt], format: str = "csv") -> str:
    """A TSV or CSV table of ``lexelts``' instances (header ``id``, ``lexelt``,
    ``sentence``; the target marked ``<head>…</head>``; fields quoted as RFC 4180 needs,
    ``\\n`` line ends) that :func:`parse_table` reads back, written as every CSV of the
    project is (:class:`scoring.files.CsvWriter`: a cell a spreadsheet would read as a
    formula gets a leading ``'``). ValueError for a context that holds ``<head>`` or
    ``</head>`` itself (it could not be read back as one target)."""
    out = io.StringIO()
    writer = CsvWriter(out, DELIMITERS[format])
    writer.writerow(REQUIRED)
    for lexelt in lexelts:
        for instance in lexelt.instances:
            if any(tag in instance.text for tag in ("<head>", "</head>")):
                raise ValueError(f"instance {instance.id!r} holds <head> in its context")
            sentence = f"{instance.before}<head>{instance.head}</head>{instance.after}"
            writer.writerow((instance.id, lexelt.item, sentence))
    return out.getvalue()


def import_tsv(
    stream: Iterable[bytes], data: bytes, name: str, language: str | None, limits: Limits
) -> ImportResult:
    """The reader of the ``tsv`` row of :data:`scoring.formats.registry.FORMATS`
    (:func:`parse_table` of the unpacked chunks)."""
    return parse_table(stream, name, "tsv", limits)


def import_csv(
    stream: Iterable[bytes], data: bytes, name: str, language: str | None, limits: Limits
) -> ImportResult:
    """The reader of the ``csv`` row of :data:`scoring.formats.registry.FORMATS`."""
    return parse_table(stream, name, "csv", limits)


def format_tsv(lexelts: Iterable[Lexelt]) -> str:
    """The writer of the ``tsv`` row: :func:`format_table` as TSV."""
    return format_table(lexelts, "tsv")


def format_csv(lexelts: Iterable[Lexelt]) -> str:
    """The writer of the ``csv`` row: :func:`format_table` as CSV."""
    return format_table(lexelts, "csv")
