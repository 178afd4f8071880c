"""The shape of each read of this game (`core.shapes`), as `GET /api/<name>` publishes them."""

from __future__ import annotations

from pydantic import BaseModel

SHAPES: dict[str, type[BaseModel]] = {}
