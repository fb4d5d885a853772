"""Records (:mod:`scoring.records`) are what ``typing.NamedTuple`` makes of the same class
statement, and every record of the project is one."""

from __future__ import annotations

import builtins
import copy
import pickle
import re
from collections.abc import Callable
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


def _outcome(call: Callable[[], object]) -> object:
    """What a call gives: its value, or its error's type and message with the class's
    name left out (``Point.__new__()`` and ``TypedPoint.__new__()`` say the same)."""
    try:
        return call()
    except (TypeError, ValueError) as error:
        return type(error), str(error).replace("TypedPoint", "Point")


CALLS: list[tuple[tuple[object, ...], dict[str, object]]] = [
    ((3,), {}),
    ((3, 4), {}),
    ((3, 4, "a"), {}),
    ((), {"x": 3}),
    ((), {"label": "a", "x": 3}),
    ((3,), {"label": "a"}),
    ((), {}),
    ((), {"y": 4}),
    ((3, 4, "a", 5), {}),
    ((3,), {"x": 4}),
    ((3,), {"z": 1}),
    ((), {"z": 1, "x": 3}),
]


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_a_record_binds_arguments_as_namedtuple_does(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    ours = _outcome(lambda: Point(*args, **kwargs))  # type: ignore[arg-type]
    theirs = _outcome(lambda: TypedPoint(*args, **kwargs))  # type: ignore[arg-type]
    assert ours == theirs
    assert type(ours) is (Point if isinstance(theirs, TypedPoint) else tuple)


def test_a_record_has_namedtuples_other_methods() -> None:
    point, typed = Point(3, -4, "a"), TypedPoint(3, -4, "a")
    assert _outcome(lambda: Point._make([1, 2])) == _outcome(lambda: TypedPoint._make([1, 2]))
    assert _outcome(lambda: point._replace(z=1)) == _outcome(  # type: ignore[call-arg]
        lambda: typed._replace(z=1)  # type: ignore[call-arg]
    )
    assert point._replace(y=0) == (3, 0, "a") and type(point._replace(y=0)) is Point
    assert point.__getnewargs__() == typed.__getnewargs__() == (3, -4, "a")  # type: ignore[attr-defined]
    assert Point.__match_args__ == TypedPoint.__match_args__ == ("x", "y", "label")
    assert Point.y.__doc__ == TypedPoint.y.__doc__ == "Alias for field number 1"
    assert copy.deepcopy(point) == point and type(copy.copy(point)) is Point
    assert hash(point) == hash(typed) and tuple(point) == tuple(typed) == (3, -4, "a")
    match point:
        case Point(x, y, label):
            assert (x, y, label) == (3, -4, "a")
        case _:
            raise AssertionError("a record matches its class pattern by position")


def test_a_record_is_made_without_compiling_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """collections.namedtuple compiles each class's ``__new__`` with ``eval`` (about
    0.5 M instructions a record at the scorer's start-up); a Record compiles it only for
    its first call with keywords (or with arguments that do not fit)."""

    def refused(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("code compiled")

    with monkeypatch.context() as patched:
        patched.setattr(builtins, "eval", refused)
        patched.setattr(builtins, "compile", refused)

        class Made(Record):
            first: int
            second: str = "b"

        assert Made(1) == (1, "b") and Made(2, "c").second == "c"
        with pytest.raises(AssertionError, match="code compiled"):
            Made(first=3)
    assert Made(first=3) == (3, "b") and Made(second="d", first=4) == (4, "d")


def test_a_record_refuses_what_namedtuple_refuses() -> None:
    with pytest.raises(TypeError, match="field y without a default cannot follow field x"):

        class Bad(Record):
            x: int = 0
            y: int  # type: ignore[misc]

    with pytest.raises(ValueError, match="cannot start with an underscore: '_x'"):

        class Private(Record):
            _x: int  # type: ignore[misc]

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
