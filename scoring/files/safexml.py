"""One safe XML feed for every XML format the project reads (the task's XML, CoInCo):
defusedxml's parser (no entity expansion, no external references; a DTD only where the
format has one), each failure an error naming the file, the line and the rule.

Pure (no Flask, no database): :mod:`scoring.formats.coinco` reads CoInCo through it, and
:mod:`scoring.formats.taskxml` the task's XML (its errors then the importer's
``SourceError``, a kind of :class:`~scoring.errors.FormatError` as :class:`XmlError` is).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from defusedxml import (  # type: ignore[import-untyped, unused-ignore]
    DefusedXmlException,
    EntitiesForbidden,
    ExternalReferenceForbidden,
)
from defusedxml.ElementTree import (  # type: ignore[import-untyped, unused-ignore]
    DefusedXMLParser,
    ParseError,
)

from scoring.errors import BoundError, XmlError

_PARSER_POSITION = re.compile(r": line \d+, column \d+$")


def feed_xml(
    target: Any,
    chunks: Iterable[bytes],
    name: str,
    allow_dtd: bool,
    hint: str = "",
    error: type[ValueError] = XmlError,
) -> Iterator[None]:
    """Parse ``chunks`` into ``target`` (an ElementTree parser target with an ``expat``
    attribute, set here to the expat parser so that it can name lines), yielding after
    each chunk so that the caller can take what the target has built so far.

    A failure raises ``error(name, line, problem)``; an ``error`` the target raises, and a
    :class:`~scoring.errors.BoundError` the chunks raise, pass through unchanged. ``hint``
    follows the message of a forbidden construct (e.g. what the format never has)."""
    parser = DefusedXMLParser(
        target=target, forbid_dtd=not allow_dtd, forbid_entities=True, forbid_external=True
    )
    target.expat = parser.parser

    def line() -> int:
        return int(parser.parser.CurrentLineNumber)

    try:
        for chunk in chunks:
            parser.feed(chunk)
            yield
        parser.close()
    except (error, BoundError):  # a file past the reading limits is refused as it is
        raise
    except ParseError as failure:
        at, column = failure.position
        problem = _PARSER_POSITION.sub("", str(failure))
        raise error(name, at, f"not well-formed XML: {problem} (column {column + 1})") from None
    except EntitiesForbidden as failure:
        if failure.sysid or failure.pubid:
            problem = (
                f"external entity {failure.name!r} ({failure.sysid or failure.pubid}) is "
                "declared; external entities are forbidden"
            )
        else:
            problem = (
                f"entity declaration {failure.name!r} is forbidden (no entity "
                "expansion: it allows a 'billion laughs' attack)"
            )
        raise error(name, line(), problem) from None
    except ExternalReferenceForbidden as failure:
        raise error(
            name, line(), f"reference to the external resource {failure.sysid!r} is forbidden"
        ) from None
    except DefusedXmlException as failure:
        raise error(name, line(), f"forbidden XML construct: {failure}{hint}") from None
    except (LookupError, ValueError) as failure:  # an encoding expat cannot read
        raise error(name, line(), f"cannot read the declared encoding: {failure}") from None
