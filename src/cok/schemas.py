"""JSON Schemas of the campaign files, from the same pydantic models that read them,
so editors can validate and complete hand edits (`cok schema`, and `cok init`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from cok.campaign import CampaignSpec
from cok.events import Event
from cok.mapfile import MapSpec

KINDS = ("map", "campaign", "events")
SCHEMA_DIR = ".schemas"


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of one kind of file: map, campaign or events."""
    if kind == "map":
        found = MapSpec.model_json_schema()
    elif kind == "campaign":
        found = CampaignSpec.model_json_schema()
    elif kind == "events":
        found = TypeAdapter(list[Annotated[Event, Field(discriminator="type")]]).json_schema()
        found["title"] = "Clash of Kings event log"
    else:
        raise ValueError(kind)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **found}


def modeline(kind: str) -> str:
    """The first line that points yaml-language-server at the schema `cok init` wrote."""
    return f"# yaml-language-server: $schema={SCHEMA_DIR}/{kind}.schema.json\n"
