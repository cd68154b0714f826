"""Frozen records of typed fields, made cheaply: the values of the seam (:mod:`ui.protocol`), and
the JSON forms their fields read (:func:`fits_type`).

A subclass of :class:`Value` is read by mypy as a frozen dataclass (``dataclass_transform``):
its annotations are its fields, in order (``ClassVar`` ones apart), a class attribute is a field's
default, and it is built, compared, hashed and shown as a frozen dataclass is. At run time nothing
is generated per class, where ``dataclasses`` writes and compiles six functions for each: for the
seam's 35 classes that cost the worker's start tens of milliseconds.

>>> class Point(Value):
...     x: int
...     y: int = 0
>>> Point(1) == Point(x=1, y=0), Point(2, 3), Point(1) == Point(2)
(True, Point(x=2, y=3), False)
>>> Point(1).x = 5
Traceback (most recent call last):
...
AttributeError: Point is frozen
"""

from __future__ import annotations

import enum
import types
from typing import Any, ClassVar, Literal, Union, dataclass_transform, get_args, get_origin, get_type_hints


@dataclass_transform(eq_default=True, frozen_default=True)
class Value:
    """A frozen record of typed fields, as a frozen dataclass is (mypy reads it as one).

    Made without dataclasses' code generation, which for these 35 classes cost the worker's
    start tens of milliseconds: the fields are the class's annotations (``ClassVar`` apart), in
    order, and a class attribute is a field's default.
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        notes = cls.__annotations__  # the class's own (its strings: annotations are postponed here)
        cls._fields = tuple(name for name, note in notes.items() if not str(note).startswith("ClassVar"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._fields
        if len(args) > len(names) or set(kwargs) - set(names[len(args) :]):
            raise TypeError(f"{type(self).__name__} takes {', '.join(names)}")
        given = dict(zip(names, args, strict=False)) | kwargs
        for name in names:
            if name not in given and name not in type(self).__dict__:
                raise TypeError(f"{type(self).__name__} needs {name}")
            object.__setattr__(self, name, given.get(name, getattr(type(self), name, None)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Value) and other._values() == self._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self._fields)})"


# -- the JSON forms of the fields ------------------------------------------------------------

_FIELDS: dict[type[Value], dict[str, Any]] = {}


def fields_of(cls: type[Value]) -> dict[str, Any]:
    """A value type's fields, by name, with their types (``kind`` apart), in declaration order.

    Read once a type, when first needed (not at import: the worker's start pays only for what it
    decodes)."""
    if cls not in _FIELDS:
        hints = get_type_hints(cls)
        _FIELDS[cls] = {name: hints[name] for name in cls._fields}
    return _FIELDS[cls]


def fits_type(value: object, typ: object) -> bool:
    """Whether ``value`` (read from JSON) is of the Python type ``typ`` a field declares."""
    if typ is Any:
        return True
    if isinstance(typ, type) and issubclass(typ, enum.Enum):
        return any(value == member.value for member in typ)
    origin = get_origin(typ)
    if origin is Literal:
        return any(value == a and type(value) is type(a) for a in get_args(typ))
    if origin in (Union, types.UnionType):
        return any(fits_type(value, arg) for arg in get_args(typ))
    if typ is type(None):
        return value is None
    if typ is bool:
        return isinstance(value, bool)
    if typ is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if typ is str:
        return isinstance(value, str)
    if origin is tuple:
        return isinstance(value, list) and all(fits_type(v, get_args(typ)[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(fits_type(v, get_args(typ)[1]) for v in value.values())
    raise TypeError(f"no JSON form declared for {typ!r}")
