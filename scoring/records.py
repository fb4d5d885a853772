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

The class is also made without :func:`collections.namedtuple`, which compiles each
class's ``__new__`` from source (``eval``): about 0.5 M instructions a record, 6 M for
the twelve the drop-in scorer loads, 5% of its run on the task's test set. A record's
``__new__`` here is one function shared by its fields' count, which takes the arguments
as they come and binds them to the fields only when they are not all given by position;
its other methods (``_make``, ``_replace``, ``_asdict``, ``__repr__``,
``__getnewargs__``) do what namedtuple's do, its fields are namedtuple's properties, and
tests/test_records.py compares the two.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    from functools import cache
    from operator import itemgetter

    try:  # namedtuple's own field property (CPython); a property of itemgetter otherwise
        from _collections import _tuplegetter
    except ImportError:  # pragma: no cover - other interpreters

        def _tuplegetter(index, doc):
            return property(itemgetter(index), doc=doc)

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
            record = _record_class(
                name,
                tuple(annotations),
                {field: namespace[field] for field in defaults},
                str(namespace["__module__"]),
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

    _tuple_new = tuple.__new__

    def _record_class(
        name: str, fields: tuple[str, ...], defaults: dict[str, object], module: str
    ) -> type:
        """What ``namedtuple(name, fields, defaults=…, module=module)`` makes."""
        namespace: dict[str, object] = {
            "__doc__": f"{name}({', '.join(fields)})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": defaults,
            "__new__": _new(len(fields)),
            "_make": classmethod(_make),
            "_replace": _replace,
            "__repr__": _repr,
            "_asdict": _asdict,
            "__getnewargs__": _getnewargs,
            "__match_args__": fields,
        }
        for index, field in enumerate(fields):
            namespace[field] = _tuplegetter(index, f"Alias for field number {index}")
        record = type(name, (tuple,), namespace)
        record.__module__ = module
        return record

    @cache
    def _new(count: int):
        """The ``__new__`` of records of ``count`` fields: all given by position, they
        are the tuple; else :func:`_bind` places them."""

        def __new__(cls, *args, **kwargs):
            if kwargs or len(args) != count:
                args = _bind(cls, args, kwargs)
            return _tuple_new(cls, args)

        return __new__

    def _bind(cls: type, args: tuple, kwargs: dict[str, object]) -> tuple:
        """The fields' values from positional and keyword arguments and the defaults,
        refused as Python refuses a call that does not fit ``__new__(cls, *fields)``."""
        fields = cls._fields
        call = f"{cls.__name__}.__new__()"
        defaults = cls._field_defaults
        if len(args) > len(fields):
            most = len(fields) + 1
            least = most - len(defaults)
            takes = f"from {least} to {most}" if least < most else f"{most}"
            raise TypeError(
                f"{call} takes {takes} positional arguments but {len(args) + 1} were given"
            )
        values = dict(zip(fields, args, strict=False))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{call} got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{call} got multiple values for argument {key!r}")
            values[key] = value
        missing = [repr(field) for field in fields if field not in values and field not in defaults]
        if missing:
            names = " and ".join(missing) if len(missing) < 3 else ", ".join(missing)
            plural = "s" if len(missing) > 1 else ""
            raise TypeError(
                f"{call} missing {len(missing)} required positional argument{plural}: {names}"
            )
        return tuple(values[field] if field in values else defaults[field] for field in fields)

    def _make(cls, iterable):
        result = _tuple_new(cls, iterable)
        if len(result) != len(cls._fields):
            raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
        return result

    def _replace(self, /, **kwargs):
        result = self._make(map(kwargs.pop, self._fields, self))
        if kwargs:
            raise ValueError(f"Got unexpected field names: {list(kwargs)!r}")
        return result

    def _repr(self) -> str:
        pairs = ", ".join(
            f"{field}={value!r}" for field, value in zip(self._fields, self, strict=True)
        )
        return f"{self.__class__.__name__}({pairs})"

    def _asdict(self) -> dict[str, object]:
        return dict(zip(self._fields, self, strict=True))

    def _getnewargs(self) -> tuple:
        return tuple(self)


__all__ = ["Record"]
