"""The cache's plain data: values come back equal, and nothing but the named dataclasses
can be built from it."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cok.core import plain
from cok.core.plain import Decoder, Kept, Unreadable, encode


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


def shown(value: Any) -> str:
    """The value with every scalar's type in sight (True, 1 and 1.0 differ), sets sorted."""
    if isinstance(value, (set, frozenset)):
        return f"{type(value).__name__}({sorted(shown(v) for v in value)})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{shown(k)}: {shown(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return f"{type(value).__name__}({[shown(v) for v in value]})"
    if isinstance(value, Holder):
        return f"Holder({shown(value.name)}, {shown(value.points)}, {shown(value.seen)}, {shown(value.by_week)})"
    return repr(value)


def lines(blobs: list[Any]) -> list[bytes]:
    """The blobs as the cache writes them: kept text as it is, anything else as JSON."""
    return [blob if isinstance(blob, bytes) else json.dumps(blob).encode() for blob in blobs]


def through_the_cache(value: Any, kept: Kept | None = None, into: Kept | None = None) -> Any:
    """The value encoded (every flat collection a blob) and decoded, as a cache entry is."""
    blobs: list[Any] = []
    data = json.loads(json.dumps(encode(value, kept, blobs)))
    return Decoder([Point, Holder], into, lines(blobs))(data)


def kept_and_decoded(value: Any) -> tuple[Kept, Any]:
    kept = Kept()
    return kept, through_the_cache(value, into=kept)


@pytest.fixture(autouse=True)
def _every_flat_collection_a_blob(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plain, "BLOB", 0)


def flat_collections(value: Any) -> list[Any]:
    """The sets and dicts inside a value, the value itself first."""
    found = []
    if isinstance(value, (set, dict)):
        found.append(value)
    if isinstance(value, dict):
        for v in value.values():
            found += flat_collections(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found += flat_collections(v)
    elif isinstance(value, Holder):
        found += [value.seen, value.by_week, *value.by_week.values()]
    return found


def twin(value: Any) -> Any:
    """An equal value of another type (1 and True, 2 and 2.0), or in a tuple; None if none."""
    if type(value) in (bool, int, float):
        other = {bool: float, float: int, int: bool}[type(value)](value)
        return other if other == value else None
    if type(value) is tuple:
        for at, member in enumerate(value):
            if (other := twin(member)) is not None:
                return (*value[:at], other, *value[at + 1 :])
    return None


@given(values, st.data())
def test_a_value_encoded_with_what_it_was_decoded_from_is_what_it_holds_now(value: Any, data: st.DataObject) -> None:
    kept, decoded = kept_and_decoded(value)
    for collection in flat_collections(decoded):
        change = data.draw(st.sampled_from(["none", "add", "remove", "twin", "same"]))
        members = list(collection)
        if change == "add":
            new = data.draw(flat)
            if isinstance(collection, set):
                collection.add(new)
            else:
                collection[new] = data.draw(flat)
        elif change == "remove" and members:
            gone = data.draw(st.sampled_from(members))
            collection.discard(gone) if isinstance(collection, set) else collection.pop(gone)
        elif change == "twin" and isinstance(collection, set):
            old = next((m for m in members if twin(m) is not None), None)
            if old is not None:
                collection.discard(old)
                collection.add(twin(old))
        elif change == "twin":  # an equal value of another type, the key kept
            key = next((k for k in members if twin(collection[k]) is not None), None)
            if key is not None:
                collection[key] = twin(collection[key])
        elif change == "same" and members:
            again = data.draw(st.sampled_from(members))
            if isinstance(collection, dict):
                collection[again] = collection[again]  # the very same object: no change
    assert shown(through_the_cache(decoded, kept)) == shown(decoded)


def test_a_flat_collection_unchanged_since_decoded_gives_its_text_back_without_a_pass() -> None:
    holder = Holder("h", seen={("a", 1), ("b", 2)}, by_week={"a": {1: 3, 2: 4}})
    kept, decoded = kept_and_decoded(holder)
    blobs: list[Any] = []
    again = encode(decoded, kept, blobs)
    seen = blobs[again["v"]["seen"]["b"][0]]
    assert isinstance(seen, bytes) and seen is kept.text(decoded.seen)
    decoded.by_week["a"][2] = 5
    assert kept.text(decoded.by_week["a"]) is None
    assert through_the_cache(decoded, kept) == decoded


def test_a_set_given_an_equal_member_of_another_type_is_encoded_again() -> None:
    kept, decoded = kept_and_decoded({1, 2})
    decoded.discard(1)
    decoded.add(True)
    assert shown(through_the_cache(decoded, kept)) == shown({True, 2})


def test_small_flat_collections_stay_in_place_and_large_ones_are_blobs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plain, "BLOB", 3)
    blobs: list[Any] = []
    data = encode([{1, 2}, {1, 2, 3}], None, blobs)
    assert data == [{"fs": [-1, [1, 2]]}, {"b": [0]}]
    assert len(blobs) == 1 and sorted(blobs[0]["fs"][1]) == [1, 2, 3]


@pytest.mark.parametrize(
    "data, blobs",
    [
        ({"b": [0]}, []),  # no such blob
        ({"b": [0]}, [b'{"c": "Point", "v": {"x": 1, "y": 2}}']),  # a blob that is not a flat collection
        ({"b": [0]}, [b"not json"]),
        ({"b": ["0"]}, [b'{"fs": [-1, [1]]}']),
    ],
)
def test_a_blob_that_is_not_a_flat_collection_is_unreadable(data: Any, blobs: list[bytes]) -> None:
    with pytest.raises(Unreadable):
        Decoder([Point], None, blobs)(data)


@dataclass
class Ledger(plain.Deferred):
    """A state whose record of weeks waits until read."""

    later: ClassVar[frozenset[str]] = frozenset({"seen", "by_week"})
    name: str
    seen: set[tuple[str, int]] = field(default_factory=set)
    by_week: dict[str, dict[int, int]] = field(default_factory=dict)
    count: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        self.count = len(self.name)


def ledger_through_the_cache(value: Any, kept: Kept | None = None) -> tuple[Any, list[bytes]]:
    blobs: list[Any] = []
    data = json.loads(json.dumps(encode(value, kept, blobs)))
    return Decoder([Ledger], Kept(), lines(blobs))(data), lines(blobs)


LEDGER = Ledger("north", {("a", 1), ("b", 2)}, {"a": {1: 3}, "b": {2: 4}})


def test_a_deferred_field_is_decoded_when_first_read_and_equal_then() -> None:
    back, _ = ledger_through_the_cache(LEDGER)
    assert "seen" not in vars(back) and "by_week" not in vars(back)
    assert back.seen == LEDGER.seen
    assert "seen" in vars(back) and "by_week" not in vars(back)
    assert back == LEDGER and back.count == 5


def test_a_deferred_field_never_read_is_written_back_as_it_was_read() -> None:
    back, texts = ledger_through_the_cache(LEDGER)
    again, texts_again = ledger_through_the_cache(back)
    assert sorted(texts_again) == sorted(texts)
    assert "seen" not in vars(back)  # writing it did not decode it
    assert again == LEDGER


def test_a_deferred_field_read_and_changed_is_written_as_it_is_now() -> None:
    back, _ = ledger_through_the_cache(LEDGER)
    back.by_week["a"][5] = 9
    again, _ = ledger_through_the_cache(back)
    assert again.by_week == {"a": {1: 3, 5: 9}, "b": {2: 4}} and again.seen == LEDGER.seen


def test_a_misspelt_field_of_a_deferred_value_is_still_an_attribute_error() -> None:
    back, _ = ledger_through_the_cache(LEDGER)
    with pytest.raises(AttributeError, match="sen"):
        back.sen  # noqa: B018


def test_a_copy_of_a_deferred_value_reads_its_fields_on_its_own() -> None:
    back, _ = ledger_through_the_cache(LEDGER)
    twin = copy.copy(back)
    assert twin.seen == LEDGER.seen
    assert back.seen == LEDGER.seen and back.by_week == LEDGER.by_week and twin.by_week == LEDGER.by_week


@dataclass
class Waits(plain.Deferred):
    later: ClassVar[frozenset[str]] = frozenset({"week"})
    week: int = 1  # a plain default is found on the class: it cannot wait


def test_only_a_field_made_by_a_default_factory_can_wait() -> None:
    with pytest.raises(Unreadable, match="default_factory"):
        Decoder([Waits])(encode(Waits(3)))


def test_a_state_kept_warm_is_encoded_again_only_where_it_changed() -> None:
    """After a save, the blobs written are kept (`Blobs.kept_after`): the next encoding of the
    same long-lived state (a server's) writes an unchanged collection as the text it was
    written as, and only a changed one anew."""
    from cok.core.plain import Blobs

    def texts(blobs: list[Any]) -> list[bytes]:
        return [b if isinstance(b, bytes) else json.dumps(b, separators=(",", ":")).encode() for b in blobs]

    held, cp = set(range(1000)), {f"k{n}": n for n in range(600)}
    state = {"held": held, "cp": cp}
    first = Blobs()
    encode(state, None, first)
    kept = first.kept_after(texts(first))
    cp["new"] = 1
    second = Blobs()
    again = encode(state, kept, second)
    blob_of = {key: second[value["b"][0]] for key, value in again["d"]}
    assert isinstance(blob_of["held"], bytes)  # unchanged: written as it was
    assert not isinstance(blob_of["cp"], bytes)  # changed: encoded anew
    assert Decoder((), None, texts(second))(again) == state
