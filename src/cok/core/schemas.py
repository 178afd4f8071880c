"""JSON Schemas of a campaign's files, from the same pydantic models that read them, so
editors can validate and complete hand edits (`cok schema`, and `cok init`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import Field, TypeAdapter

from cok.core.events import CLOCK_EVENTS, DICE_EVENTS, VERDICT_EVENTS, Void

if TYPE_CHECKING:
    from cok.core.ruleset import Ruleset

KINDS = ("map", "campaign", "events")
SCHEMA_DIR = ".schemas"


def schema(kind: str, ruleset: Ruleset) -> dict[str, Any]:
    """The JSON Schema of one kind of file of this game: map, campaign or events."""
    if kind == "map":
        found = ruleset.map_model.model_json_schema()
    elif kind == "campaign":
        found = ruleset.settings_model.model_json_schema()
        found["properties"]["ruleset"] = {**found["properties"].get("ruleset", {}), "enum": [ruleset.id]}
    elif kind == "events":
        event: Any = Union[
            (*ruleset.events.values(), Void, *DICE_EVENTS.values(), *VERDICT_EVENTS.values(), *CLOCK_EVENTS.values())
        ]
        entries: Any = list[Annotated[event, Field(discriminator="type")]]
        found = TypeAdapter(entries).json_schema()
        for definition in found.get("$defs", {}).values():  # the log reader needs every `type`
            if "type" in definition.get("properties", {}):
                definition["required"] = ["type", *(r for r in definition.get("required", []) if r != "type")]
        found["title"] = f"{ruleset.title} event log"
    else:
        raise ValueError(kind)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **_closed(found)}


def _closed(node: Any) -> Any:
    """Mappings keyed by a pattern (player ids: `vp: {tim: 7}`) take no other keys, as the
    log reader refuses them: pydantic writes the pattern, not that."""
    if isinstance(node, dict):
        node = {k: _closed(v) for k, v in node.items()}
        patterns = node.get("patternProperties")
        if isinstance(patterns, dict) and len(patterns) == 1:
            node["propertyNames"] = {**node.get("propertyNames", {}), "pattern": next(iter(patterns))}
            node.setdefault("additionalProperties", False)
        return node
    if isinstance(node, list):
        return [_closed(v) for v in node]
    return node


def modeline(kind: str) -> str:
    """The first line that points yaml-language-server at the schema `cok init` wrote."""
    return f"# yaml-language-server: $schema={SCHEMA_DIR}/{kind}.schema.json\n"
