"""An item's id in a path (``/organiser/datasets/1/items/<item_id:xml_id>``), for any id
the importer keeps: ``../x``, ``a//b``, ``7?#%``.

A browser resolves the segments ``.`` and ``..`` of a link before sending it (and
``%2e%2e`` as well: the URL standard's double-dot segment), and the router merges ``//``:
a link to ``../x`` opened another page. Here each such segment is written with a ``~``
(``~..``, ``~.``, an empty one ``~``; a ``~`` of the id doubled), the rest url-quoted, and
read back to the id exactly."""

from __future__ import annotations

from werkzeug.routing import PathConverter

_SPECIAL = {".": "~.", "..": "~..", "": "~"}
_BACK = {written: segment for segment, written in _SPECIAL.items()}


def item_path(item_id: str) -> str:
    """``item_id`` as a path no browser or router rewrites.

    >>> item_path("../x"), item_path("a//b"), item_path("bright.a.1"), item_path("~")
    ('~../x', 'a/~/b', 'bright.a.1', '~~')
    """
    return "/".join(
        _SPECIAL.get(segment, segment.replace("~", "~~")) for segment in item_id.split("/")
    )


def item_id(path: str) -> str:
    """The id :func:`item_path` wrote as ``path``.

    >>> all(item_id(item_path(x)) == x for x in ("../x", "/a/", "~.", "~~/..", "7?#%"))
    True
    """
    return "/".join(_BACK.get(segment, segment.replace("~~", "~")) for segment in path.split("/"))


class ItemIdConverter(PathConverter):
    """``<item_id:name>``: :func:`item_path` in links, :func:`item_id` when routing."""

    def to_python(self, value: str) -> str:
        return item_id(value)

    def to_url(self, value: str) -> str:
        return super().to_url(item_path(value))
