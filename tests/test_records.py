"""Records (:mod:`scoring.records`) are what ``typing.NamedTuple`` makes of the same class
statement, and every record of the project is one."""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import NamedTuple

import pytest

from scoring.records import Record

ROOT = Path(__file__).resolve().parent.parent


class Point(Record):
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, by: int) -> Point:
        return self._replace(x=self.x + by)


class TypedPoint(NamedTuple):
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self, by: int) -> TypedPoint:
        return self._replace(x=self.x + by)


def test_a_record_is_what_namedtuple_makes() -> None:
    point, typed = Point(3, -4), TypedPoint(3, -4)
    assert tuple(point) == tuple(typed) == (3, -4, None)
    assert isinstance(point, tuple) and Point.__bases__ == TypedPoint.__bases__ == (tuple,)
    assert Point._fields == TypedPoint._fields == ("x", "y", "label")
    assert Point._field_defaults == TypedPoint._field_defaults == {"y": 0, "label": None}
    assert Point.__annotations__ == {"x": "int", "y": "int", "label": "str | None"}
    assert Point.__doc__ == TypedPoint.__doc__ == "A point."
    assert Point.__module__ == TypedPoint.__module__ == __name__
    assert Point.__qualname__ == "Point"
    assert repr(point) == "Point(x=3, y=-4, label=None)"
    assert point.norm == typed.norm == 7
    assert point.moved(2) == Point(5, -4) and type(point.moved(2)) is Point
    assert point._asdict() == typed._asdict()
    assert Point._make([1, 2, "a"]) == (1, 2, "a")
    assert pickle.loads(pickle.dumps(point)) == point
    assert getattr(Point, "__slots__") == ()  # noqa: B009 - not in mypy's NamedTuple
    with pytest.raises(AttributeError):
        point.x = 1  # type: ignore[misc]


def test_a_record_refuses_what_namedtuple_refuses() -> None:
    with pytest.raises(TypeError, match="field y without a default cannot follow field x"):

        class Bad(Record):
            x: int = 0
            y: int  # type: ignore[misc]

    with pytest.raises(AttributeError, match="cannot set _make"):

        class Worse(Record):
            x: int

            def _make(self) -> None:  # type: ignore[misc]
                pass


def test_every_record_of_the_project_is_a_record() -> None:
    """typing.NamedTuple compiles each string annotation at import (the scorer's start-up
    paid about 16 M instructions for it): the project's records use Record."""
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for folder in ("scoring", "annotate")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"\s*class \w+\(.*NamedTuple.*\):", line)
    ]
    assert found == []
