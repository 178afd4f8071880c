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

A large flat collection can be kept apart, as a "blob" (a JSON text of its own, on a
line of the cache entry), written {"b": [i]} where it is. Recording an event changes few
of them: `Kept` remembers the text each was decoded from, and encoding the state again
gives that text back for each one still exactly as it was, without a pass over it.

A dataclass that is `Deferred` names fields read by few commands (a long campaign's record
of every week): those are decoded when first read, so `cok standings` never builds them,
and one never read is written back as the data it was read as.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from itertools import chain
from operator import is_
from typing import TYPE_CHECKING, Any, ClassVar


class Unreadable(ValueError):
    """The data is not something `decode` can build back: treat it as no cache."""


#: Members from which a flat collection is kept apart as a blob, when blobs are made.
BLOB = 256


def encode(value: Any, kept: Kept | None = None, blobs: list[Any] | None = None) -> Any:
    """The value as JSON-ready data (see the module's table). With `blobs`, each large flat
    collection is appended to it and referred to, and with `kept`, one that still holds
    exactly what it was decoded from is appended as the text it was read from."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [encode(v, kept, blobs) for v in value]
    if isinstance(value, tuple):
        return {"t": [encode(v, kept, blobs) for v in value]}
    if isinstance(value, (set, frozenset, dict)) and blobs is not None and kept is not None:
        text = kept.text(value)
        if text is not None:
            return _blob(blobs, text, BLOB, value)
    if isinstance(value, (set, frozenset)):
        tag = "f" if isinstance(value, frozenset) else "s"
        shape = _shape(value)
        if shape is not None:
            return _blob(blobs, {f"f{tag}": [shape, _columns(value, shape)]}, len(value), value)
        return {tag: [encode(v, kept, blobs) for v in value]}
    if isinstance(value, dict):
        keys, values = _shape(value), _shape(value.values())
        if keys is not None and values is not None:
            data = {"fd": [keys, _columns(value, keys), values, _columns(value.values(), values)]}
            return _blob(blobs, data, len(value), value)
        return {"d": [[encode(k, kept, blobs), encode(v, kept, blobs)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        pending = _pending(value)
        fields: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            if not f.init:
                continue
            waiting = pending.get(f.name)
            if waiting is not None and blobs is not None:  # never read: written as it was read
                fields[f.name] = _carried(*waiting, blobs)
            else:
                fields[f.name] = encode(getattr(value, f.name), kept, blobs)
        return {"c": type(value).__name__, "v": fields}
    raise TypeError(f"cannot keep a {type(value).__name__} in the cache")


def _blob(blobs: list[Any] | None, data: Any, size: int = BLOB, value: Any = None) -> Any:
    """The flat collection's data, or with `blobs` and from BLOB members, a reference to
    it appended there (and, for `Blobs`, the collection it was made of)."""
    if blobs is None or size < BLOB:
        return data
    blobs.append(data)
    if isinstance(blobs, Blobs) and value is not None:
        blobs.sources.append((len(blobs) - 1, value))
    return {"b": [len(blobs) - 1]}


class Blobs(list[Any]):
    """The blobs an encoding appends, and which collection each was made of: once they are
    written as text, a `Kept` of them lets the next encoding of a long-lived state (a
    server's) write again only the collections changed since (`kept_after`)."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[tuple[int, Any]] = []

    def kept_after(self, texts: list[bytes]) -> Kept:
        """What these blobs were written as (`texts`, in order), for the next encoding."""
        kept = Kept()
        for index, value in self.sources:
            kept.keep(value, texts[index])
        return kept


class Deferred:
    """A cached dataclass whose fields named in `later` are decoded when first read. Only
    fields made by a `default_factory` can wait (a plain default would be found on the class
    instead); the constructor sees them empty, so none may feed a derived field."""

    later: ClassVar[frozenset[str]] = frozenset()

    if not TYPE_CHECKING:  # to the type checker, a misspelt field stays an error

        def __getattr__(self, name: str) -> Any:
            pending = self.__dict__.get(_PENDING)
            if not pending or name not in pending:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            data, decoder = pending[name]
            value = decoder(data)
            # A new dict, never the old one changed: a copy of this value may share it.
            self.__dict__[_PENDING] = {k: v for k, v in pending.items() if k != name}
            object.__setattr__(self, name, value)
            return value


_PENDING = "_cached_later"


def _pending(value: Any) -> dict[str, tuple[Any, Decoder]]:
    """The fields of a Deferred value not read yet, each with its data and decoder."""
    return value.__dict__.get(_PENDING, {}) if isinstance(value, Deferred) else {}


def _carried(data: Any, decoder: Decoder, blobs: list[Any]) -> Any:
    """Data decoded by `decoder` (never read since), ready to be written again: each blob
    it refers to is appended to `blobs` as the text it was read as."""
    if isinstance(data, list):
        return [_carried(v, decoder, blobs) for v in data]
    if not isinstance(data, dict):
        return data
    if "c" in data:
        return {"c": data["c"], "v": {k: _carried(v, decoder, blobs) for k, v in data["v"].items()}}
    (tag, items), *_ = data.items()
    if tag == "b":
        return _blob(blobs, decoder.blobs[items[0]])
    return data if tag in ("fs", "ff", "fd") else {tag: _carried(items, decoder, blobs)}


class Kept:
    """The blobs a Decoder built, each with the text it was built from and the very objects
    it held then, in order. Holding each collection keeps its id its own."""

    def __init__(self) -> None:
        self._built: dict[int, tuple[Any, bytes, tuple[Any, ...]]] = {}

    def keep(self, value: Any, text: bytes) -> None:
        """Remember `value` as built from `text`."""
        self._built[id(value)] = (value, text, () if isinstance(value, frozenset) else tuple(_members(value)))

    def text(self, value: Any) -> bytes | None:
        """The text `value` was built from if it still holds the same objects in the same
        order (then it is equal, and encodes the same: its members are immutable), else None."""
        found = self._built.get(id(value))
        if found is None or found[0] is not value:
            return None
        _, text, held = found
        if isinstance(value, frozenset):
            return text
        size = 2 * len(value) if isinstance(value, dict) else len(value)
        return text if size == len(held) and all(map(is_, _members(value), held)) else None


def _members(value: Any) -> Iterable[Any]:
    """A set's members, or a dict's keys and then its values, in their order."""
    return chain(value, value.values()) if isinstance(value, dict) else value


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
    if shape == -1 and type(data) is list and set(map(type, data)) <= _SCALARS:
        return data
    if (
        type(shape) is int
        and shape > 0
        and type(data) is list
        and len(data) == shape
        and all(type(column) is list and set(map(type, column)) <= _SCALARS for column in data)
    ):
        return list(zip(*data, strict=True))
    raise Unreadable("not a column of flat values")


class Decoder:
    """Builds values back, allowing only the given dataclasses."""

    def __init__(self, classes: Iterable[type], kept: Kept | None = None, blobs: list[bytes] | None = None) -> None:
        self.classes = {cls.__name__: cls for cls in classes}
        self.kept = kept
        self.blobs = blobs or []
        self._waiting: dict[type, frozenset[str]] = {}

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
            later = self._later(cls)
            if not later:
                return cls(**{k: self._decode(v) for k, v in data["v"].items()})
            value = cls(**{k: self._decode(v) for k, v in data["v"].items() if k not in later})
            waiting = {k: (v, self) for k, v in data["v"].items() if k in later}
            for name in waiting:
                del value.__dict__[name]  # the constructor's empty one: read from the cache when asked for
            value.__dict__[_PENDING] = waiting
            return value
        (tag, items), *_ = data.items()
        if not isinstance(items, list):
            raise Unreadable("a tagged value must hold a list")
        if tag == "d":
            return {self._decode(k): self._decode(v) for k, v in items}
        if tag == "b" and len(items) == 1 and type(items[0]) is int and 0 <= items[0] < len(self.blobs):
            return self._blob(self.blobs[items[0]])
        if tag == "fd" and len(items) == 4:
            return dict(zip(_rows(items[0], items[1]), _rows(items[2], items[3]), strict=True))
        if tag in ("fs", "ff") and len(items) == 2:
            rows = _rows(items[0], items[1])
            return set(rows) if tag == "fs" else frozenset(rows)
        decoded = [self._decode(v) for v in items]
        if tag == "t":
            return tuple(decoded)
        if tag == "s":
            return set(decoded)
        if tag == "f":
            return frozenset(decoded)
        raise Unreadable(f"unknown tag {tag[:10]!r}")

    def _later(self, cls: type) -> frozenset[str]:
        """The fields of `cls` that wait until read (see Deferred)."""
        found = self._waiting.get(cls)
        if found is None:
            made = {f.name for f in dataclasses.fields(cls) if f.default_factory is not dataclasses.MISSING}
            later: frozenset[str] = cls.later if issubclass(cls, Deferred) else frozenset()
            if not later <= made:
                raise TypeError(f"{cls.__name__}: only fields with a default_factory can wait: {sorted(later - made)}")
            found = self._waiting[cls] = frozenset(later)
        return found

    def _blob(self, text: bytes) -> Any:
        """The flat collection a blob holds (nothing else may be kept apart)."""
        data = json.loads(text)
        if not (isinstance(data, dict) and len(data) == 1 and next(iter(data)) in ("fs", "ff", "fd")):
            raise Unreadable("a blob holds a flat collection")
        value = self._decode(data)
        if self.kept is not None:
            self.kept.keep(value, text)
        return value


def json_default(value: Any) -> Any:
    """What `--json` writes for a value json cannot: a dataclass as a mapping, a set sorted, a
    time in ISO 8601 (the command line's documents and the service's queries alike)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
