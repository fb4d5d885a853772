"""Responses JSONL: the gold compiler's input (:mod:`annotate.gold`), one response per
(annotator, instance), as the app exports it.

Each line is one JSON object with (at least) these keys::

    annotator        str, not empty
    lexelt           str, lemma.pos or lemma.orig_pos.pos, pos in n v a r (bright.a, stand.n.v)
    instance         str, the instance id (both as :mod:`scoring.formats.keys` says: no white
                     space, ';' or control character, the id not beginning '::')
    kind             "substitutes", "name" or "nil"
    substitutes      list of str in typed order: 1 or more for "substitutes", none otherwise
    multiword        str or null
    used_dictionary  bool
    updated_at       str, ISO 8601

A malformed line is refused with ``FILE:LINE: what is wrong (rule)``; every problem of a
file is reported, and nothing is compiled from a file that has one. What a substitute or
multiword may hold is not this reader's business: the compiler checks every value with
the one rule of :mod:`scoring.substitute` and leaves out (and reports) the responses
whose values break it, so a study's stored answers always compile.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from scoring.errors import FormatError
from scoring.files import parse_json
from scoring.files.bounded import bounded_lines, not_utf8, without_mark
from scoring.formats.keys import INSTANCE_ID, InvalidKey, check_instance_id, check_lexelt
from scoring.types import ANSWER_KINDS, AnswerKind

KEYS = (
    "annotator",
    "lexelt",
    "instance",
    "kind",
    "substitutes",
    "multiword",
    "used_dictionary",
    "updated_at",
)
_FORBIDDEN = re.compile(r"[;\n\r\x00]")


@dataclass(frozen=True, slots=True)
class Response:
    """One annotator's answer for one instance, as exported by the app."""

    annotator: str
    lexelt: str
    instance: str
    kind: AnswerKind
    substitutes: tuple[str, ...] = ()
    multiword: str | None = None
    used_dictionary: bool = False
    updated_at: str = "1970-01-01T00:00:00+00:00"
    where: str = field(default="", compare=False)
    """``FILE:LINE`` it was read from, for messages; not part of the value."""

    @property
    def pos(self) -> str:
        """The target's part of speech: the last part of the lexelt (``stand.n.v`` → v)."""
        return self.lexelt.rsplit(".", 1)[-1]


def _text_problem(value: object, what: str) -> str | None:
    if not isinstance(value, str):
        return f"{what} must be a string, not {type(value).__name__}"
    if not value.strip():
        return f"{what} {value!r} is empty"
    if _FORBIDDEN.search(value):
        return (
            f"{what} {value!r} contains ';' or a line break (the gold format separates "
            "entries with ';', one item a line)"
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return f"{what} {value!r} is not valid Unicode (a lone surrogate)"
    return None


def _value_problem(value: object, what: str) -> str | None:
    """A substitute or multiword: a string of valid Unicode (its content is checked by the
    compiler, :func:`scoring.substitute.check_substitute`)."""
    if not isinstance(value, str):
        return f"{what} must be a string, not {type(value).__name__}"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return f"{what} {value!r} is not valid Unicode (a lone surrogate)"
    return None


def _problems(obj: dict[str, object]) -> list[str]:
    problems = []
    missing = [key for key in KEYS if key not in obj]
    if missing:
        return [f"missing key(s) {', '.join(missing)} (every response has {', '.join(KEYS)})"]
    problem = _text_problem(obj["annotator"], "annotator")
    if problem:
        problems.append(problem)
    for key, check in (("lexelt", check_lexelt), ("instance", check_instance_id)):
        value = obj[key]
        if not isinstance(value, str):
            problems.append(f"{key} must be a string, not {type(value).__name__}")
            continue
        try:
            check(value)
        except InvalidKey as error:
            problems.append(f"{key} {error.message}")
    kind = obj["kind"]
    if kind not in ANSWER_KINDS:
        problems.append(f"kind {kind!r} is not one of substitutes, name, nil")
    substitutes = obj["substitutes"]
    if not isinstance(substitutes, list):
        problems.append(f"substitutes must be a list, not {type(substitutes).__name__}")
    else:
        for number, substitute in enumerate(substitutes, 1):
            problem = _value_problem(substitute, f"substitute {number}")
            if problem:
                problems.append(problem)
        if kind == "substitutes" and not substitutes:
            problems.append(
                "kind 'substitutes' with no substitute (at least one is needed "
                "unless the answer is name or nil)"
            )
        if kind in ("name", "nil") and substitutes:
            problems.append(f"kind {kind!r} with substitutes (name and nil exclude them)")
    multiword = obj["multiword"]
    if multiword is not None:
        problem = _value_problem(multiword, "multiword")
        if problem:
            problems.append(problem + " (null when there is none)")
    if not isinstance(obj["used_dictionary"], bool):
        problems.append(f"used_dictionary {obj['used_dictionary']!r} must be true or false")
    stamp = obj["updated_at"]
    if not isinstance(stamp, str) or not _is_iso(stamp):
        problems.append(f"updated_at {stamp!r} is not an ISO 8601 date and time")
    return problems


def _is_iso(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def parse_response(obj: object, where: str = "<response>") -> Response:
    """Check one decoded JSON value and build its :class:`Response`."""
    if not isinstance(obj, dict):
        raise FormatError([f"{where}: expected a JSON object, got {type(obj).__name__}"])
    problems = _problems(obj)
    if problems:
        raise FormatError([f"{where}: {problem}" for problem in problems])
    checked = cast(dict[str, Any], obj)
    return Response(
        checked["annotator"],
        checked["lexelt"],
        checked["instance"],
        checked["kind"],
        tuple(checked["substitutes"]),
        checked["multiword"],
        checked["used_dictionary"],
        checked["updated_at"],
        where,
    )


class _Checker:
    """:func:`parse_response` with a fast path: strings already checked in this file
    (annotators, lexelts, substitutes, multiwords repeat a lot) are not checked again."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.lexelts: set[str] = set()
        self.texts: set[str] = set()

    def quick(self, obj: dict[str, Any], where: str) -> Response | None:
        """The response when every value is of a kind seen before, else None."""
        try:
            kind, substitutes, multiword = obj["kind"], obj["substitutes"], obj["multiword"]
            instance, stamp, used = obj["instance"], obj["updated_at"], obj["used_dictionary"]
            texts = self.texts
            if (
                obj["annotator"] in self.names
                and obj["lexelt"] in self.lexelts
                and type(instance) is str
                and INSTANCE_ID.fullmatch(instance)
                and type(substitutes) is list
                and (kind == "substitutes") == bool(substitutes)
                and kind in ANSWER_KINDS
                and all(substitute in texts for substitute in substitutes)
                and (multiword is None or multiword in texts)
                and type(used) is bool
                and type(stamp) is str
                and len(obj) >= len(KEYS)
            ):
                datetime.fromisoformat(stamp)
                return Response(
                    obj["annotator"],
                    obj["lexelt"],
                    instance,
                    kind,
                    tuple(substitutes),
                    multiword,
                    used,
                    stamp,
                    where,
                )
        except (KeyError, TypeError, ValueError):
            pass
        return None

    def parse(self, obj: object, where: str) -> Response:
        if type(obj) is dict:
            found = self.quick(obj, where)
            if found is not None:
                return found
        response = parse_response(obj, where)
        self.names.add(response.annotator)
        self.lexelts.add(response.lexelt)
        self.texts.update(response.substitutes)
        if response.multiword is not None:
            self.texts.add(response.multiword)
        return response


def iter_responses(path: str | Path) -> Iterator[Response]:
    """The responses of a JSON Lines file, one by one (:func:`iter_parsed`)."""
    with Path(path).open("rb") as handle:
        yield from iter_parsed(bounded_lines(handle, str(path)), str(path))


def iter_parsed(lines: Iterable[bytes], name: str = "<responses>") -> Iterator[Response]:
    """The responses of JSON Lines (bytes, each line with or without its newline), one by
    one. Blank lines are skipped. After the last good response, raises
    :class:`FormatError` listing every malformed line (and when there is no response at
    all)."""
    problems: list[str] = []
    checker = _Checker()
    read = 0
    for number, raw in enumerate(lines, 1):
        if number == 1:
            raw = without_mark(raw, name)  # TextError for UTF-16: nothing is read
        if not raw.strip():
            continue
        where = f"{name}:{number}"
        read += 1
        try:
            yield checker.parse(parse_json(raw.decode("utf-8")), where)
        except UnicodeDecodeError as error:
            problems.append(not_utf8(name, number, raw, error.start))
        except json.JSONDecodeError as error:
            problems.append(f"{where}: not JSON ({error.msg} at column {error.colno})")
        except FormatError as error:
            problems.extend(error.problems)
    if not read:
        problems.append(
            f"{name}: the file has no response (it is empty; one JSON object "
            "per line is expected, as the app's export writes)"
        )
    if problems:
        raise FormatError(problems)


def parse_responses(data: bytes | str, name: str = "<responses>") -> list[Response]:
    """Every response of a JSON Lines text (:func:`iter_parsed`)."""
    raw = data.encode("utf-8", "surrogateescape") if isinstance(data, str) else data
    lines = raw.split(b"\n")  # as a file is read: on newlines only
    if lines[-1] == b"":
        lines.pop()
    return list(iter_parsed(lines, name))


def read_responses(path: str | Path) -> list[Response]:
    """Every response of a JSON Lines file (see :func:`iter_responses`)."""
    return list(iter_responses(path))


def response_json(response: Response) -> str:
    """One JSON Lines line (without newline) for ``response``: the keys in :data:`KEYS`."""
    return json.dumps(
        {
            "annotator": response.annotator,
            "lexelt": response.lexelt,
            "instance": response.instance,
            "kind": response.kind,
            "substitutes": list(response.substitutes),
            "multiword": response.multiword,
            "used_dictionary": response.used_dictionary,
            "updated_at": response.updated_at,
        },
        ensure_ascii=False,
    )


def format_responses(responses: Iterable[Response]) -> str:
    """The JSON Lines text of ``responses`` (:func:`response_json`, each line ending
    ``\\n``), which :func:`parse_responses` reads back."""
    return "".join(response_json(response) + "\n" for response in responses)


def write_responses(path: str | Path, responses: Iterable[Response]) -> int:
    """Write ``responses`` as JSON Lines; returns how many were written."""
    count = 0
    with Path(path).open("w", encoding="utf-8", newline="\n") as handle:
        for response in responses:
            handle.write(response_json(response) + "\n")
            count += 1
    return count
