"""Values as plain JSON data and back, for the replay cache: no pickle, nothing that runs
code on loading. Only the dataclasses a ruleset names can be built back, through their
constructors (so derived fields are recomputed, never trusted), and any other shape is
refused with `Unreadable`.

    list → [..]   tuple → {"t": [..]}   set → {"s": [..]}   frozenset → {"f": [..]}
    dict → {"d": [[k, v], ..]}   dataclass → {"c": "Name", "v": {field: value}}

A set, frozenset or dict holding only flat values (scalars, and tuples of scalars, which
are written as lists) is written as {"fs": ..}, {"ff": ..} or {"fd": [[k, v], ..]}: a long
campaign's state is mostly such collections, and they are read back in one pass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any


class Unreadable(ValueError):
    """The data is not something `decode` can build back: treat it as no cache."""


def encode(value: Any) -> Any:
    """The value as JSON-ready data (see the module's table)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, tuple):
        return {"t": [encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        tag = "f" if isinstance(value, frozenset) else "s"
        if _all_flat(value):
            return {f"f{tag}": list(value)}  # json writes the tuples as lists
        return {tag: [encode(v) for v in value]}
    if isinstance(value, dict):
        if _all_flat(value) and _all_flat(value.values()):
            return {"fd": list(value.items())}
        return {"d": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init}
        return {"c": type(value).__name__, "v": fields}
    raise TypeError(f"cannot keep a {type(value).__name__} in the cache")


_SCALARS = frozenset({type(None), bool, int, float, str})


def _all_flat(values: Iterable[Any]) -> bool:
    """Every value a scalar or a tuple of scalars (by exact type, in two passes: a long
    campaign's state holds tens of thousands of them)."""
    kinds = {type(v) for v in values}
    if kinds <= _SCALARS:
        return True
    if not kinds <= _SCALARS | {tuple}:
        return False
    return {type(x) for v in values if type(v) is tuple for x in v} <= _SCALARS


class Decoder:
    """Builds values back, allowing only the given dataclasses."""

    def __init__(self, classes: Iterable[type]) -> None:
        self.classes = {cls.__name__: cls for cls in classes}

    def __call__(self, data: Any) -> Any:
        try:
            return self._decode(data)
        except (TypeError, ValueError, KeyError, AttributeError, RecursionError) as exc:
            raise Unreadable(str(exc)) from None

    def _decode(self, data: Any) -> Any:
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return [self._decode(v) for v in data]
        if not isinstance(data, dict) or len(data) != (2 if "c" in data else 1):
            raise Unreadable(f"not a cached value: {str(data)[:60]}")
        if "c" in data:
            cls = self.classes.get(data["c"])
            if cls is None or not isinstance(data["v"], dict):
                raise Unreadable(f"not a known class: {str(data['c'])[:40]}")
            return cls(**{k: self._decode(v) for k, v in data["v"].items()})
        (tag, items), *_ = data.items()
        if not isinstance(items, list):
            raise Unreadable("a tagged value must hold a list")
        if tag == "d":
            return {self._decode(k): self._decode(v) for k, v in items}
        if tag == "fd":  # lists were tuples; a list inside one is unhashable: Unreadable
            return {(tuple(k) if type(k) is list else k): (tuple(v) if type(v) is list else v) for k, v in items}
        if tag == "fs":
            return {tuple(v) if type(v) is list else v for v in items}
        if tag == "ff":
            return frozenset(tuple(v) if type(v) is list else v for v in items)
        decoded = [self._decode(v) for v in items]
        if tag == "t":
            return tuple(decoded)
        if tag == "s":
            return set(decoded)
        if tag == "f":
            return frozenset(decoded)
        raise Unreadable(f"unknown tag {tag[:10]!r}")
