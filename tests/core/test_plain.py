"""The cache's plain data: values come back equal, and nothing but the named dataclasses
can be built from it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cok.core.plain import Decoder, Unreadable, encode


@dataclass(frozen=True)
class Point:
    x: int
    y: int


@dataclass
class Holder:
    name: str
    points: list[Point] = field(default_factory=list)
    seen: set[tuple[str, int]] = field(default_factory=set)
    by_week: dict[str, dict[int, int]] = field(default_factory=dict)
    derived: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.derived = len(self.points)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))
flat = st.one_of(scalars, st.tuples(scalars, scalars))
values = st.recursive(
    flat,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.sets(flat, max_size=4),
        st.frozensets(flat, max_size=4),
        st.dictionaries(flat, inner, max_size=4),
    ),
    max_leaves=12,
)
DECODE = Decoder([Point, Holder])


@given(values)
def test_every_value_comes_back_equal_through_json(value: Any) -> None:
    assert DECODE(json.loads(json.dumps(encode(value)))) == value


def test_a_dataclass_is_built_by_its_constructor_so_derived_fields_are_recomputed() -> None:
    holder = Holder("h", [Point(1, 2)], {("a", 1)}, {"a": {1: 3}})
    back = DECODE(json.loads(json.dumps(encode(holder))))
    assert back == holder
    assert back.derived == 1


@pytest.mark.parametrize(
    "data",
    [
        {"c": "Popen", "v": {"args": "sh"}},  # a class nobody named
        {"c": "Point", "v": {"x": 1, "y": 2, "z": 3}},  # a field the class does not have
        {"t": 5},  # a tag holding no list
        {"x": []},  # an unknown tag
        {"fd": [2, [[1], [[2]]], -1, [3]]},  # a flat column holding a list
        {"t": [], "s": []},  # two tags
    ],
)
def test_anything_else_is_unreadable(data: Any) -> None:
    with pytest.raises(Unreadable):
        DECODE(data)
