"""Comparing states, for the tests and the benchmarks alike: two states are the same when
their plain data is, whatever order their sets and dicts were built in."""

from __future__ import annotations

import dataclasses
from typing import Any


def same_data(value: Any) -> Any:
    """A state as plain data in one order, whatever order its sets and dicts were built in."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f.name for f in dataclasses.fields(value) if f.name != "geo"]  # the map: no event changes it
        return {name: same_data(getattr(value, name)) for name in fields}
    if isinstance(value, dict):
        return sorted(((same_data(k), same_data(v)) for k, v in value.items()), key=repr)
    if isinstance(value, (set, frozenset)):
        return sorted((same_data(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [same_data(v) for v in value]
    return value
