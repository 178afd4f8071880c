"""An overlay of what an event changes (issue #26): the rules read the state through it and write
into it, so deciding never touches the state and copies none of it; `commit` then writes the
overlay's changes into the state. A dry run, a preview and a refused event simply drop it."""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, MutableMapping, ValuesView
from typing import Any, TypeVar

from cok.rulesets.no_true_king.rules.state import Realm, State

K = TypeVar("K")
V = TypeVar("V")


class Layer(MutableMapping[K, V]):
    """One of the state's dicts as the event leaves it: reads fall through to the dict, writes
    stay here. Iterates in the order the dict would after the same writes (a key deleted and
    written again comes last), so every rule sees what it would see on the dict itself."""

    __slots__ = ("added", "base", "changed", "gone")

    def __init__(self, base: dict[K, V]) -> None:
        self.base = base
        self.changed: dict[K, V] = {}  # keys of the dict written in place
        self.gone: set[K] = set()  # keys of the dict deleted
        self.added: dict[K, V] = {}  # keys written at the end: new ones, or deleted and written again

    def __getitem__(self, key: K) -> V:
        if key in self.added:
            return self.added[key]
        if key in self.gone:
            raise KeyError(key)
        if key in self.changed:
            return self.changed[key]
        return self.base[key]

    def get(self, key: K, default: Any = None) -> Any:  # the rules' most frequent read: no KeyError raised
        if not (self.added or self.gone or self.changed):
            return self.base.get(key, default)
        if key in self.added:
            return self.added[key]
        if key in self.gone:
            return default
        return self.changed[key] if key in self.changed else self.base.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.added or (key in self.base and key not in self.gone)

    def __setitem__(self, key: K, value: V) -> None:
        if key in self.base and key not in self.gone:
            self.changed[key] = value
        else:
            self.added[key] = value

    def __delitem__(self, key: K) -> None:
        if key in self.added:
            del self.added[key]  # a key of the dict written again was already gone
        elif key in self.base and key not in self.gone:
            self.gone.add(key)
            self.changed.pop(key, None)
        else:
            raise KeyError(key)

    def __iter__(self) -> Iterator[K]:
        if not (self.added or self.gone):
            return iter(self.base)
        return self._walk()

    def _walk(self) -> Iterator[K]:
        gone = self.gone
        yield from (key for key in self.base if key not in gone)
        yield from self.added

    def items(self) -> ItemsView[K, V]:
        return self.base.items() if not (self.changed or self.added or self.gone) else super().items()

    def values(self) -> ValuesView[V]:
        return self.base.values() if not (self.changed or self.added or self.gone) else super().values()

    def __len__(self) -> int:
        return len(self.base) - len(self.gone) + len(self.added)

    def commit(self, into: dict[K, V]) -> None:
        """Write the changes into the dict they were drafted over (or its equal)."""
        for key in self.gone:
            del into[key]
        into.update(self.changed)
        into.update(self.added)


#: The state's dicts the rules change key by key; the other fields they replace whole.
LAYERED = ("players", "troops", "flags", "agents", "placed", "held", "drawn", "ranks")
REPLACED = (
    "seats",
    "round",
    "first",
    "phase",
    "active",
    "played",
    "ranked",
    "table",
    "fight_at",
    "won_table",
    "won_at",
)


class Overlay(Realm):
    """The state as an event would leave it, without changing it: what the rules decide on."""

    def __init__(self, state: State) -> None:
        self.board = state.board
        self.loyalty = state.loyalty
        for name in LAYERED:  # read through, each change kept aside
            setattr(self, name, Layer(getattr(state, name)))
        for name in REPLACED:  # shared until the rules replace it whole
            setattr(self, name, getattr(state, name))

    def commit(self, state: State) -> None:
        """Write the drafted changes into the state it was drafted over: a dict the rules
        replaced whole (`placed`, `ranks`) is replaced; one they changed gets the changes."""
        for name in LAYERED:
            drafted = getattr(self, name)
            if isinstance(drafted, Layer):
                drafted.commit(getattr(state, name))
            else:
                setattr(state, name, dict(drafted))
        for name in REPLACED:
            setattr(state, name, getattr(self, name))
