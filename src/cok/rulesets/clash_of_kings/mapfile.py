"""Loading a map file (`maps/*.yaml`) into a Geography, refusing every mistake with its line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cok.core.errors import display_path
from cok.core.maps import Bad, joined, named_once, read_spec
from cok.core.names import did_you_mean, normalize
from cok.core.validation import check
from cok.core.yamlfile import YamlList, YamlMap, read_text
from cok.rulesets.clash_of_kings.map import VALUE, Geography, Location, Route


def _only_castles_have_a_bonus(schema: dict[str, Any]) -> None:
    schema["if"] = {"properties": {"kind": {"not": {"const": "castle"}}}}
    schema["then"] = {"not": {"required": ["bonus"]}}


def _one_or_many(schema: dict[str, Any]) -> None:
    schema.pop("type", None)
    schema.pop("items", None)
    schema["anyOf"] = [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]


class LocationSpec(BaseModel):
    """One entry of `locations:` in a map file."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_only_castles_have_a_bonus)

    name: str = Field(min_length=1, description="The location's name, as the log spells it.")
    kind: str = Field(description="castle | fort | village | region", json_schema_extra={"enum": list(VALUE)})
    home: list[str] = Field(
        default_factory=list,
        description="Factions whose traditional seat this is (one, or a list).",
        json_schema_extra=_one_or_many,
    )
    bonus: str | None = Field(default=None, description="The Castle Bonus text (castles only).")
    at: tuple[float, float] | None = Field(
        default=None, description="Position for drawn maps: [x, y], y grows downward."
    )

    @field_validator("home", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class RoutesSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    land: list[tuple[str, str]] = Field(default_factory=list)
    sea: list[tuple[str, str]] = Field(default_factory=list)


class MapSpec(BaseModel):
    """The whole map file (used for its JSON Schema; loading validates piece by piece)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    locations: list[LocationSpec]
    routes: RoutesSpec = Field(default_factory=RoutesSpec)


def load_map(path: Path) -> Geography:
    """Read and validate a map file; Refused lists every problem found."""
    return read_map(read_text(path, "map file"), display_path(path))


def read_map(text: str, shown: str) -> Geography:
    """Validate a map file's text (`shown`: its path, for messages)."""
    return read_spec(text, shown, MapSpec, "map", _geography)


def _geography(data: YamlMap, name: str, bad: Bad) -> Geography:
    locations, named = _locations(data, bad)
    return Geography(name, locations, _routes(data, locations, named, bad))


def _locations(data: YamlMap, bad: Any) -> tuple[dict[str, Location], set[str]]:
    """The valid locations, and the (normalized) names of every entry, valid or not, so that
    a route to a location with a mistake is not reported a second time."""
    raw = data.get("locations")
    if not isinstance(raw, YamlList) or not raw:
        if "locations" in data:  # a missing one: the map needs it
            bad(data.key_lines["locations"], "`locations` must be a non-empty list")
        return {}, set()
    locations: dict[str, Location] = {}
    first_line: dict[str, int] = {}
    named: set[str] = set()
    for entry, line in zip(raw, raw.item_lines, strict=True):
        if isinstance(entry, dict) and isinstance(entry.get("name"), str):
            named.add(normalize(entry["name"]))
        spec, errors = check(LocationSpec, entry)
        if spec is None:
            label = entry.get("name") if isinstance(entry, dict) else None
            for err in errors:
                bad(line, f"location {label!r}: {err}" if isinstance(label, str) else f"location: {err}")
            continue
        if spec.kind not in VALUE:
            bad(
                line,
                f"location {spec.name!r}: unknown kind {spec.kind!r}{did_you_mean(spec.kind, VALUE)}"
                " (castle, fort, village or region)",
            )
            continue
        if spec.bonus is not None and spec.kind != "castle":
            bad(line, f"location {spec.name!r}: only castles have a bonus, and this is a {spec.kind}")
        if not named_once(first_line, "location", spec.name, line, bad):
            continue
        locations[spec.name] = Location(
            name=spec.name,
            kind=spec.kind,  # type: ignore[arg-type]
            home=tuple(h.strip().casefold() for h in spec.home),
            bonus=spec.bonus,
            at=spec.at,
            line=line,
        )
    return locations, named


def _routes(data: YamlMap, locations: dict[str, Location], named: set[str], bad: Any) -> list[Route]:
    raw = data.get("routes", YamlMap())
    if not isinstance(raw, YamlMap):
        bad(data.key_lines.get("routes", data.line), "`routes` must be a mapping with `land` and `sea` lists")
        return []
    by_key = {normalize(n): n for n in locations}
    seen: dict[frozenset[str], int] = {}
    routes: list[Route] = []
    for kind, entries in raw.items():
        kind_line = raw.key_lines[kind]
        if kind not in ("land", "sea"):
            bad(kind_line, f"unknown route kind {kind!r}{did_you_mean(kind, ['land', 'sea'])} (land or sea)")
            continue
        if entries is None:
            continue
        if not isinstance(entries, YamlList):
            bad(kind_line, f"`routes.{kind}` must be a list of [A, B] pairs")
            continue
        for pair, line in zip(entries, entries.item_lines, strict=True):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
                bad(line, f"a {kind} route must be a pair of location names, like [Winterfell, Moat Cailin]")
                continue
            ends = []
            for end in pair:
                found = by_key.get(normalize(end))
                if found is None and normalize(end) not in named:
                    bad(
                        line,
                        f"{kind} route {pair[0]} — {pair[1]}: unknown location {end!r}{did_you_mean(end, locations)}",
                    )
                ends.append(found)
            link = joined(ends, line, seen, bad, f"{kind} route", "route")
            if link is not None:
                routes.append(Route(*link, kind))  # type: ignore[arg-type]
    return routes
