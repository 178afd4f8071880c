"""Values as plain JSON data and back, for the replay cache: no pickle, nothing that runs
code on loading. Only the dataclasses a ruleset names can be built back, through their
constructors (so derived fields are recomputed, never trusted), and any other shape is
refused with `Unreadable`.

    list → [..]   tuple → {"t": [..]}   set → {"s": [..]}   frozenset → {"f": [..]}
    dict → {"d": [[k, v], ..]}   dataclass → {"c": "Name", "v": {field: value}}

A set, frozenset or dict holding only flat values — scalars, or tuples of scalars all of
one length — is written by columns: {"fs": [n, columns]}, {"ff": ..}, {"fd": [n, keys, m,
values]} (n, m: the tuples' length, or -1 for scalars, whose one column is the values
themselves). A long campaign's state is mostly such collections, and zip reads them back.
Recording an event changes few of them: `Kept` remembers what each was decoded from, so
that encoding the state again passes over only those that changed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from itertools import chain
from operator import is_
from typing import Any


class Unreadable(ValueError):
    """The data is not something `decode` can build back: treat it as no cache."""


def encode(value: Any, kept: Kept | None = None) -> Any:
    """The value as JSON-ready data (see the module's table). With `kept`, a flat collection
    that still holds exactly what it was decoded from gives that data back as it was."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [encode(v, kept) for v in value]
    if isinstance(value, tuple):
        return {"t": [encode(v, kept) for v in value]}
    if isinstance(value, (set, frozenset, dict)) and kept is not None and (same := kept.data(value)) is not None:
        return same
    if isinstance(value, (set, frozenset)):
        tag = "f" if isinstance(value, frozenset) else "s"
        shape = _shape(value)
        if shape is not None:
            return {f"f{tag}": [shape, _columns(value, shape)]}
        return {tag: [encode(v, kept) for v in value]}
    if isinstance(value, dict):
        keys, values = _shape(value), _shape(value.values())
        if keys is not None and values is not None:
            return {"fd": [keys, _columns(value, keys), values, _columns(value.values(), values)]}
        return {"d": [[encode(k, kept), encode(v, kept)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name), kept) for f in dataclasses.fields(value) if f.init}
        return {"c": type(value).__name__, "v": fields}
    raise TypeError(f"cannot keep a {type(value).__name__} in the cache")


class Kept:
    """The flat collections a Decoder built, each with the data it was built from and the
    very objects it held then, in order. Holding each collection keeps its id its own."""

    def __init__(self) -> None:
        self._built: dict[int, tuple[Any, Any, tuple[Any, ...]]] = {}

    def keep(self, value: Any, data: Any) -> Any:
        """Remember `value` as built from `data`; `value` is returned."""
        self._built[id(value)] = (value, data, () if isinstance(value, frozenset) else _members(value))
        return value

    def data(self, value: Any) -> Any:
        """The data `value` was built from if it still holds the same objects in the same
        order (then it is equal, and encodes the same: its members are immutable), else None."""
        found = self._built.get(id(value))
        if found is None or found[0] is not value:
            return None
        _, data, held = found
        if isinstance(value, frozenset):
            return data
        size = 2 * len(value) if isinstance(value, dict) else len(value)
        return data if size == len(held) and all(map(is_, _members(value), held)) else None


def _members(value: Any) -> tuple[Any, ...]:
    """A set's members, or a dict's keys and then its values, in their order."""
    return tuple(chain(value, value.values()) if isinstance(value, dict) else value)


_SCALARS = frozenset({type(None), bool, int, float, str})


def _shape(values: Iterable[Any]) -> int | None:
    """-1 when every value is a scalar, n when every one is a tuple of n scalars (n > 0),
    else None (checked by exact type, in whole passes: a long state holds many)."""
    kinds = {type(v) for v in values}
    if kinds <= _SCALARS:
        return -1
    if kinds != {tuple}:
        return None
    lengths = {len(v) for v in values}
    if len(lengths) != 1 or not {type(x) for v in values for x in v} <= _SCALARS:
        return None
    return lengths.pop() or None


def _columns(values: Iterable[Any], shape: int) -> list[Any]:
    return list(values) if shape == -1 else [list(column) for column in zip(*values, strict=True)]


def _rows(shape: Any, data: Any) -> list[Any]:
    """The values back from `_columns`: scalars, or tuples zipped from the columns."""
    if shape == -1 and type(data) is list and {type(v) for v in data} <= _SCALARS:
        return data
    if (
        type(shape) is int
        and shape > 0
        and type(data) is list
        and len(data) == shape
        and all(type(column) is list and {type(v) for v in column} <= _SCALARS for column in data)
    ):
        return list(zip(*data, strict=True))
    raise Unreadable("not a column of flat values")


class Decoder:
    """Builds values back, allowing only the given dataclasses."""

    def __init__(self, classes: Iterable[type], kept: Kept | None = None) -> None:
        self.classes = {cls.__name__: cls for cls in classes}
        self.kept = kept

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
        if tag == "fd" and len(items) == 4:
            return self._built(dict(zip(_rows(items[0], items[1]), _rows(items[2], items[3]), strict=True)), data)
        if tag in ("fs", "ff") and len(items) == 2:
            rows = _rows(items[0], items[1])
            return self._built(set(rows) if tag == "fs" else frozenset(rows), data)
        decoded = [self._decode(v) for v in items]
        if tag == "t":
            return tuple(decoded)
        if tag == "s":
            return set(decoded)
        if tag == "f":
            return frozenset(decoded)
        raise Unreadable(f"unknown tag {tag[:10]!r}")

    def _built(self, value: Any, data: Any) -> Any:
        return value if self.kept is None else self.kept.keep(value, data)
