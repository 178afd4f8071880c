"""The shape of each document a game's reads answer (`cok … --json`, `GET /api/<name>`), as a
model: what the API publishes for it (contract/openapi.py), and what every read is checked
against in the tests (tests/test_every_read_has_its_shape.py). A game's `shapes.py` keeps its
own (`SHAPES`: read name → model, `standings` among them).

A document is still made by the game's own functions, plain dicts, never through its model (a
read stays as fast as it was); the models only say, field by field, what those dicts hold.
Within a major version of the API a field is added, never removed, renamed or given another
meaning (docs/api.md)."""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from cok.core.plain import json_default


class Document(BaseModel):
    """A read's document, or a part of one: every field it holds is named here (no other is
    allowed), each with its JSON type, so that a field a read adds without its shape fails the
    tests."""

    model_config = ConfigDict(extra="forbid")


class Waited(Document):
    """What the ledger waits for, as the games' `status --json` lists it in `due` (docs/deadlines.md)."""

    step: str = Field(description="The campaign.yaml `deadlines:` key it is due under (orders, turn, week …).")
    player: str | None = Field(description="Whose word it waits for (null: the organisers').")
    what: str = Field(description="What is waited for, in the game's words.")
    due: str | None = Field(description="When, ISO 8601 with the campaign's offset (null: no deadline).")
    absent: bool = Field(description="The player is marked absent: their waits are due at once.")


@functools.cache
def of(kind: type, prefix: str = "", name: str | None = None) -> type[Document]:
    """The shape of `dataclasses.asdict(x)` for an `x` of the dataclass `kind` (a picture, an
    offer), read from the dataclass itself so that its fields are declared once: each field with
    its type, a nested dataclass shaped alike, its docstring the shape's. Named in the API
    `prefix` + the dataclass's name (`Picture` + `Marker`), its nested ones alike, or `name`."""
    hints = typing.get_type_hints(kind)
    fields: dict[str, Any] = {f.name: (_shaped(hints[f.name], prefix), ...) for f in dataclasses.fields(kind)}
    made: type[Document] = create_model(
        name or prefix + kind.__name__, __base__=Document, __doc__=kind.__doc__, __module__=kind.__module__, **fields
    )
    return made


def _shaped(hint: Any, prefix: str) -> Any:
    """A field's type with every dataclass in it replaced by its shape (`list[Tile]`,
    `Label | None`, `dict[str, Army]`); any other type as it is."""
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return of(hint, prefix)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_shaped(a, prefix) for a in args)]  # noqa: UP007 (a Union built from its parts)
    if origin in (list, tuple, dict, set, frozenset):
        return origin[tuple(a if a is Ellipsis else _shaped(a, prefix) for a in args)]
    return hint


def fits(model: type[BaseModel], document: Any) -> None:
    """Raise pydantic's ValidationError unless `document`, as JSON, is exactly what `model` says
    (strictly: a number is not text, text is not a number)."""
    model.model_validate_json(json.dumps(document, default=json_default), strict=True)
