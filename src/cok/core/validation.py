"""Turning pydantic's validation errors into sentences an organiser can act on."""

from __future__ import annotations

import enum
import types
import typing
from typing import Any, Literal, TypeVar, Union

from pydantic import BaseModel, ValidationError

from cok.core.names import did_you_mean, one_of
from cok.core.text import quoted

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
            sentences.append(f"unknown field {quoted(field)}{hint}")
        elif kind == "missing":
            sentences.append(f"missing field {quoted(field)}")
        elif kind in ("literal_error", "enum") and (choices := _choices(model, loc)):
            sentences.append(f"{field}: {one_of(err.get('input'), choices)}")
        else:
            value = err.get("input")
            msg = _sentence(kind, err.get("ctx") or {})
            shown = f" (got {value!r})" if _short(value) else ""
            sentences.append(f"{field}: {msg}{shown}" if field else f"{msg}{shown}")
    return sentences


#: pydantic's error types, in our words: its own messages change between releases.
_KINDS = {
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "finite_number": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be text",
    "list_type": "must be a list",
    "tuple_type": "must be a list",
    "set_type": "must be a list",
    "frozen_set_type": "must be a list",
    "dict_type": "must be a mapping (`key: value` lines)",
    "model_type": "must be a mapping (`key: value` lines)",
    "model_attributes_type": "must be a mapping (`key: value` lines)",
    "dataclass_type": "must be a mapping (`key: value` lines)",
    "date_type": "must be a date (2026-01-31)",
    "date_parsing": "must be a date (2026-01-31)",
    "date_from_datetime_parsing": "must be a date (2026-01-31)",
    "datetime_type": "must be a date and time (2026-01-31T20:00:00Z)",
    "datetime_parsing": "must be a date and time (2026-01-31T20:00:00Z)",
    "datetime_from_date_parsing": "must be a date and time (2026-01-31T20:00:00Z)",
    "none_required": "must be empty",
    "unexpected_keyword_argument": "is not a field here",
}
_BOUNDS = {
    "greater_than_equal": ("ge", "must be at least {}"),
    "greater_than": ("gt", "must be more than {}"),
    "less_than_equal": ("le", "must be at most {}"),
    "less_than": ("lt", "must be less than {}"),
    "too_short": ("min_length", "must hold at least {}"),
    "too_long": ("max_length", "must hold at most {}"),
    "string_too_short": ("min_length", "must be at least {} characters long"),
    "string_too_long": ("max_length", "must be at most {} characters long"),
    "string_pattern_mismatch": ("pattern", "must have the form {}"),
    "literal_error": ("expected", "must be one of {}"),
    "enum": ("expected", "must be one of {}"),
}


#: The forms our models ask of text, in words.
_FORMS = {
    r"^[a-z0-9_-]+$": "must be an id: lowercase letters, digits, '-' and '_'",
    r"^[0-9a-f]{64}$": "must be 64 lowercase hexadecimal digits (a SHA-256 seal)",
    r"^[a-z0-9_-]+-[1-9][0-9]*$": "must be an army's id: its kingdom's id, '-' and a number (ana-2)",
    r"^art-[1-9][0-9]*$": "must be an artefact's id: 'art-' and a number (art-1)",
}


def _sentence(kind: str, ctx: dict[str, Any]) -> str:
    """One of pydantic's error types as our sentence (a rule's own ValueError keeps its words)."""
    if kind in ("value_error", "assertion_error") and "error" in ctx:
        return str(ctx["error"])
    if kind == "string_pattern_mismatch" and ctx.get("pattern") in _FORMS:
        return _FORMS[ctx["pattern"]]
    if kind in _KINDS:
        return _KINDS[kind]
    if kind in _BOUNDS and _BOUNDS[kind][0] in ctx:
        key, words = _BOUNDS[kind]
        return words.format(ctx[key])
    return "is not a value this field takes"


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
