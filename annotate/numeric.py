"""Numbers sent by a browser: the ids in URLs and the whole numbers of forms and query
strings, each held to one rule before it reaches the database.

Flask's ``<int:…>`` accepts a number of any length, and Python's ``int()`` and
``str.isdigit()`` accept other digits than 0-9 (``²``, ``①``, ``٣``): a 20-digit id overflows
SQLite's integers, one from 2^31 PostgreSQL's ``integer`` columns, and either was a 500.
Here an id in a path is ASCII digits within :data:`MAX_ID` or the route does not match
(404), and a form's number is ASCII digits within its range or a 400 page that names the
field, the value and the rule.
"""

from __future__ import annotations

from collections.abc import Mapping

from werkzeug.exceptions import BadRequest
from werkzeug.routing import BaseConverter, ValidationError

MAX_ID = 2**31 - 1
"""The largest id of a row: PostgreSQL's ``integer`` (SQLite's are wider; the narrower
range holds on both databases)."""

MAX_PAGE = 999_999
"""The largest page number of a paginated list a URL may ask for."""

MAX_SEED = 2**31 - 1
"""The largest seed a page takes (a round keeps its seed in an ``integer`` column)."""


class IdConverter(BaseConverter):
    """``<id:name>``: a row's id in a path, 0 to :data:`MAX_ID` in ASCII digits; any other
    value (longer, larger, signed, other digits) matches no route, a 404."""

    regex = r"[0-9]{1,10}"
    part_isolating = True

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > MAX_ID:
            raise ValidationError
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


class FormError(BadRequest):
    """A field of a form or query string breaks its rule: a 400 page showing
    :attr:`description`, which names the field, the value and the rule."""


def whole_number(value: str, field: str, low: int, high: int) -> int:
    """``value`` as an int if it is ASCII digits (no sign, no space) from ``low`` to
    ``high``; else :class:`FormError`.

    >>> whole_number("12", "sample size", 1, 100)
    12
    >>> whole_number("²", "sample size", 1, 100)
    Traceback (most recent call last):
    ...
    annotate.numeric.FormError: 400 Bad Request: sample size '²' is not a whole number from 1 to 100
    """
    if (
        not value.isascii()
        or not value.isdigit()
        or len(value.lstrip("0")) > len(str(high))  # before int(): no 10,000-digit parse
        or not low <= int(value) <= high
    ):
        shown = repr(value[:40]) + ("…" if len(value) > 40 else "")
        raise FormError(f"{field} {shown} is not a whole number from {low} to {high}")
    return int(value)


def form_number(form: Mapping[str, str], key: str, field: str, low: int, high: int) -> int | None:
    """The number in ``form[key]`` (a form or a query string) held to :func:`whole_number`
    (``field`` names it in the message); None when the field is missing or blank."""
    value = form.get(key, "").strip()
    return whole_number(value, field, low, high) if value else None


def form_id(form: Mapping[str, str], key: str, field: str) -> int | None:
    """The id in ``form[key]``, 1 to :data:`MAX_ID`; None when missing or blank."""
    return form_number(form, key, field, 1, MAX_ID)


def form_ids(values: list[str], field: str) -> list[int]:
    """Every id of a multiple choice (``request.form.getlist(key)``), in order, each 1 to
    :data:`MAX_ID`."""
    return [whole_number(value.strip(), field, 1, MAX_ID) for value in values]
