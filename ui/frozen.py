"""Frozen records of typed fields, made cheaply: the values of the seam (:mod:`ui.protocol`).

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

from typing import Any, ClassVar, dataclass_transform


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
