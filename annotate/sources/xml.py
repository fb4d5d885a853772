"""One safe XML feed for every XML format (the task's XML, CoInCo): defusedxml's parser
(no entity expansion, no external references; a DTD only where the format has one), each
failure a :class:`~annotate.sources.model.SourceError` naming the line and the rule."""

from __future__ import annotations

import re
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

from annotate.sources.model import SourceError

_PARSER_POSITION = re.compile(r": line \d+, column \d+$")


def feed_xml(builder: Any, data: bytes, name: str, allow_dtd: bool, hint: str = "") -> None:
    """Parse ``data`` into ``builder`` (an ElementTree parser target with an ``expat``
    attribute, set here to the expat parser so that it can name lines). ``hint`` follows
    the message of a forbidden construct (e.g. what the format never has)."""
    parser = DefusedXMLParser(
        target=builder, forbid_dtd=not allow_dtd, forbid_entities=True, forbid_external=True
    )
    builder.expat = parser.parser

    def line() -> int:
        return int(parser.parser.CurrentLineNumber)

    try:
        parser.feed(data)
        parser.close()
    except SourceError:
        raise
    except ParseError as error:
        at, column = error.position
        problem = _PARSER_POSITION.sub("", str(error))
        raise SourceError(
            name, at, f"not well-formed XML: {problem} (column {column + 1})"
        ) from None
    except EntitiesForbidden as error:
        if error.sysid or error.pubid:
            problem = (
                f"external entity {error.name!r} ({error.sysid or error.pubid}) is "
                "declared; external entities are forbidden"
            )
        else:
            problem = (
                f"entity declaration {error.name!r} is forbidden (no entity "
                "expansion: it allows a 'billion laughs' attack)"
            )
        raise SourceError(name, line(), problem) from None
    except ExternalReferenceForbidden as error:
        raise SourceError(
            name, line(), f"reference to the external resource {error.sysid!r} is forbidden"
        ) from None
    except DefusedXmlException as error:
        raise SourceError(name, line(), f"forbidden XML construct: {error}{hint}") from None
    except (LookupError, ValueError) as error:  # an encoding expat cannot read
        raise SourceError(name, line(), f"cannot read the declared encoding: {error}") from None
