"""Records: the class syntax of :class:`typing.NamedTuple`, without its cost at import.

``class ItemGold(Record):`` with annotated fields (defaults, methods, properties and a
docstring allowed) makes what ``class ItemGold(NamedTuple):`` makes: a
:func:`collections.namedtuple` class whose ``__annotations__`` are the fields'
annotations, with the class's own attributes. The one thing it does not do is check
each annotation when the class is made: ``typing.NamedTuple`` turns every string
annotation (``from __future__ import annotations`` makes them all strings) into a
``ForwardRef``, which compiles it; for the records the drop-in scorer loads that was
about 16 M instructions of its start-up, more than scoring the task's whole test set.
mypy reads a Record as the NamedTuple it is under ``TYPE_CHECKING``, and checks the
annotations there.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    _PROHIBITED = frozenset(
        {"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults"}
        | {"_make", "_replace", "_asdict", "_source"}
    )
    _SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})

    class _RecordMeta(type):
        """Makes a namedtuple class of a class statement, as ``typing.NamedTupleMeta``."""

        def __new__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, object]):
            if not bases:  # Record itself
                return super().__new__(cls, name, bases, namespace)
            if bases != (Record,):
                raise TypeError(f"{name}: a Record can only inherit from Record")
            annotations = dict(namespace.get("__annotations__", {}))
            defaults: list[str] = []
            for field in annotations:
                if field in namespace:
                    defaults.append(field)
                elif defaults:
                    raise TypeError(
                        f"{name}: field {field} without a default cannot follow "
                        f"field {defaults[-1]}, which has one"
                    )
            record = namedtuple(
                name,
                list(annotations),
                defaults=[namespace[field] for field in defaults],
                module=str(namespace["__module__"]),
            )
            record.__annotations__ = annotations
            for key, value in namespace.items():
                if key in _PROHIBITED:
                    raise AttributeError(f"{name}: a Record cannot set {key}")
                if key not in _SPECIAL and key not in annotations:
                    setattr(record, key, value)
            return record

    class Record(metaclass=_RecordMeta):
        """The base of a record's class statement (never a base of the class made)."""


__all__ = ["Record"]
