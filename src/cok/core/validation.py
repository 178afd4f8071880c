"""Turning pydantic's validation errors into sentences an organiser can act on."""

from __future__ import annotations

import enum
import types
import typing
from typing import Any, Literal, TypeVar, Union

from pydantic import BaseModel, ValidationError

from cok.core.names import did_you_mean, one_of

M = TypeVar("M", bound=BaseModel)


def _field_path(loc: tuple[int | str, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item + 1}]" if not parts else f"[{item}]")
        elif parts:
            parts.append(f".{item}")
        else:
            parts.append(str(item))
    return "".join(parts)


def describe(error: ValidationError, model: type[BaseModel]) -> list[str]:
    """One plain sentence per problem pydantic found."""
    known = list(model.model_fields)
    sentences: list[str] = []
    for err in error.errors(include_url=False):
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        field = _field_path(loc)
        kind = err["type"]
        if kind == "extra_forbidden":
            hint = did_you_mean(field, known) if len(loc) == 1 else ""
            sentences.append(f"unknown field {field!r}{hint}")
        elif kind == "missing":
            sentences.append(f"missing field {field!r}")
        elif kind in ("literal_error", "enum") and (choices := _choices(model, loc)):
            sentences.append(f"{field}: {one_of(err.get('input'), choices)}")
        else:
            value = err.get("input")
            msg = err["msg"]
            msg = msg[0].lower() + msg[1:] if msg else msg
            msg = msg.replace("value error, ", "")
            shown = f" (got {value!r})" if _short(value) else ""
            sentences.append(f"{field}: {msg}{shown}" if field else f"{msg}{shown}")
    return sentences


def _choices(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The fixed values a field takes (its `Literal` or `Enum`), found from the model by the
    error's location; none when the path cannot be followed."""
    found: Any = model
    for part in loc:
        found = _inner(found, part)
        if found is None:
            return []
    return [str(value) for value in _values(found)]


def _inner(annotation: Any, part: int | str) -> Any:
    """The type at one step of an error's location: a model's field, a list's item, a
    mapping's value; through Optional and unions (the first that has the step)."""
    for option in _options(annotation):
        if isinstance(option, type) and issubclass(option, BaseModel) and isinstance(part, str):
            field = option.model_fields.get(part)
            if field is not None:
                return field.annotation
        origin, args = typing.get_origin(option), typing.get_args(option)
        if isinstance(part, int) and origin in (list, tuple, set, frozenset) and args:
            return args[min(part, len(args) - 1)] if origin is tuple and args[-1] is not Ellipsis else args[0]
        if origin is dict and len(args) == 2:
            return args[1]
    return None


def _options(annotation: Any) -> list[Any]:
    if typing.get_origin(annotation) is typing.Annotated:
        return _options(typing.get_args(annotation)[0])
    if typing.get_origin(annotation) in (Union, types.UnionType):
        return [inner for arg in typing.get_args(annotation) for inner in _options(arg)]
    return [annotation]


def _values(annotation: Any) -> list[Any]:
    found: list[Any] = []
    for option in _options(annotation):
        if typing.get_origin(option) is Literal:
            found += typing.get_args(option)
        elif isinstance(option, type) and issubclass(option, enum.Enum):
            found += [member.value for member in option]
    return found


def _short(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and len(repr(value)) <= 60


def check(model: type[M], data: Any) -> tuple[M | None, list[str]]:
    """Validate `data`; return the model or the sentences saying what is wrong."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, describe(exc, model)
