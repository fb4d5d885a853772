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
``__new__`` here is a closure (no code compiled) that takes arguments given by position,
with the defaults of the fields they leave out, as the tuple; namedtuple's own
``__new__`` of the record is compiled only at its first call with keywords (or with
arguments that do not fit, which it refuses with Python's own errors). Its other
methods (``_make``, ``_replace``, ``_asdict``, ``__repr__``, ``__getnewargs__``) do what
namedtuple's do, its fields are namedtuple's properties, and tests/test_records.py
compares the two.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)

if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
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
        """What ``namedtuple(name, fields, defaults=…, module=module)`` makes (and the
        field names it refuses, refused alike)."""
        seen: set[str] = set()
        for field in fields:
            if field.startswith("_"):
                raise ValueError(f"Field names cannot start with an underscore: {field!r}")
            if field in seen:
                raise ValueError(f"Encountered duplicate field name: {field!r}")
            seen.add(field)
        namespace: dict[str, object] = {
            "__doc__": f"{name}({', '.join(fields)})",
            "__slots__": (),
            "_fields": fields,
            "_field_defaults": defaults,
            "__new__": _new(fields, tuple(defaults.values())),
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

    def _new(fields: tuple[str, ...], defaults: tuple[object, ...]):
        """The ``__new__`` of a record of ``fields``, the last ones defaulting to
        ``defaults``: arguments given by position are the tuple, with the defaults of the
        fields they leave out; any other call (keywords, too many or too few arguments)
        goes to namedtuple's own ``__new__`` of the record (:func:`_compiled`), compiled
        at the first such call."""
        count = len(fields)
        least = count - len(defaults)

        def __new__(cls, *args, **kwargs):
            if not kwargs:
                given = len(args)
                if given == count:
                    return _tuple_new(cls, args)
                if least <= given < count:
                    return _tuple_new(cls, args + defaults[given - least :])
            return _compiled(cls)(cls, *args, **kwargs)

        return __new__

    _COMPILED: dict[type, object] = {}

    def _compiled(cls: type):
        """namedtuple's ``__new__`` of ``cls``: its fields as parameters, by position or
        keyword, with their defaults (and Python's own errors for a call that does not
        fit), compiled once."""
        made = _COMPILED.get(cls)
        if made is None:
            fields = ", ".join(cls._fields)
            made = eval(  # namedtuple's own: a lambda of the record's field names
                f"lambda _cls, {fields}: _tuple_new(_cls, ({fields},))",
                {"_tuple_new": _tuple_new, "__builtins__": {}},
            )
            made.__name__ = "__new__"
            made.__qualname__ = f"{cls.__name__}.__new__"
            made.__defaults__ = tuple(cls._field_defaults.values()) or None
            _COMPILED[cls] = made
        return made

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
