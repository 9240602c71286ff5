"""Positional constructors for the model's frozen dataclasses, for the hot paths that
build them by the hundred thousand (lowering, shifting).

A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__``,
about three times the cost of setting the slots directly. ``maker(Cls)`` returns
``make(*fields)`` taking every field positionally, in declaration order, with no
defaults: the result is indistinguishable from ``Cls(*fields)`` (the model classes have
no ``__post_init__``; ``test_lower_props`` compares both ways of building).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["maker"]


def maker(cls: type[T]) -> Callable[..., T]:
    if not dataclasses.is_dataclass(cls) or "__slots__" not in vars(cls) or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass without __post_init__")
    names = [f.name for f in dataclasses.fields(cls)]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    o = _new(_cls)"]
    for i, name in enumerate(names):
        env[f"_set{i}"] = getattr(cls, name).__set__  # the slot's descriptor
        lines.append(f"    _set{i}(o, {name})")
    lines.append("    return o")
    exec("\n".join(lines), env)  # noqa: S102 - generated from the class's own field names
    make: Callable[..., T] = env["make"]
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    return make
