"""Turning pydantic's validation errors into sentences an organiser can act on."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cok.core.names import did_you_mean
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
        else:
            value = err.get("input")
            msg = err["msg"]
            msg = msg[0].lower() + msg[1:] if msg else msg
            msg = msg.replace("value error, ", "")
            shown = f" (got {value!r})" if _short(value) else ""
            sentences.append(f"{field}: {msg}{shown}" if field else f"{msg}{shown}")
    return sentences


def _short(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and len(repr(value)) <= 60


def check(model: type[M], data: Any) -> tuple[M | None, list[str]]:
    """Validate `data`; return the model or the sentences saying what is wrong."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, describe(exc, model)
