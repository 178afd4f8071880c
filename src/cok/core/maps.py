"""The file `map:` names in campaign.yaml, read only when it can be the game's map: a path
that is missing, a folder or a device is said to be one, with how to fix it; a file that
lacks the keys every map of the game has (`/etc/shadow`) is refused without a word of what it
holds, since its lines would come back as errors to whoever reads the output. And the steps
every game's map reader shares (`read_spec`)."""

from __future__ import annotations

import re
import stat
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from cok.core.errors import Problem, Refused, display_path
from cok.core.folders import read_bytes
from cok.core.text import quoted

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cok.core.ruleset import Ruleset
    from cok.core.yamlfile import YamlMap

#: How a map reader says a problem: its line, and the message.
Bad = Callable[[int | None, str], None]
Read = TypeVar("Read")


def read_spec(
    text: str, shown: str, spec: type[BaseModel], noun: str, build: Callable[[YamlMap, str, Bad], Read]
) -> Read:
    """A game's map file read as every game reads one: strict YAML; a mapping (else refused
    with the spec's keys); every key one of the spec's (a misspelt one gets "did you mean"),
    every required one there; a `name` in text. Then the game's `build(data, name, bad)`
    reads its own parts, saying each problem through `bad`; Refused lists every problem
    found, each with its line (`noun`: how messages name the file, "map", "board")."""
    from cok.core.names import did_you_mean
    from cok.core.yamlfile import YamlMap, parse

    data = parse(text, shown)
    problems: list[Problem] = []

    def bad(line: int | None, message: str) -> None:
        problems.append(Problem(shown, line, message))

    fields = spec.model_fields
    if not isinstance(data, YamlMap):
        keys = ", ".join(f"`{key}`" for key in fields)
        raise Refused(Problem(shown, 1, f"a {noun} file must be a mapping with {keys}"))
    for key in data:
        if key not in fields:
            bad(data.key_lines[key], f"unknown field {key!r}{did_you_mean(key, fields)}")
    for key, field in fields.items():
        if field.is_required() and key not in data:
            bad(data.line, f"the {noun} needs `{key}`")
    name: Any = data.get("name")
    if "name" in data and (not isinstance(name, str) or not name.strip()):
        bad(data.key_lines["name"], f"the {noun}'s `name` must be text")
    found = build(data, name.strip() if isinstance(name, str) and name.strip() else "?", bad)
    if problems:
        raise Refused(problems)
    return found


def named_once(first: dict[str, int], what: str, name: str, line: int, bad: Bad) -> bool:
    """Whether `name` (in any spelling) is given here first: a second is refused with the line
    of the first, so that a map names each place once."""
    from cok.core.names import normalize

    key = normalize(name)
    if key in first:
        bad(line, f"{what} {name!r} is already defined on line {first[key]}")
        return False
    first[key] = line
    return True


def joined(
    ends: Sequence[str | None], line: int, seen: dict[frozenset[str], int], bad: Bad, what: str, noun: str
) -> tuple[str, str] | None:
    """A map's link between two places found (a route, a border), kept in `seen`; None when
    an end is unknown (the caller said so), it joins a place to itself, or it was given
    before: said through `bad` (`what`: "land route", "border"; `noun`: "route", "border")."""
    a, b = ends
    if a is None or b is None:
        return None
    if a == b:
        bad(line, f"{what} joins {a} to itself")
        return None
    key = frozenset((a, b))
    if key in seen:
        bad(line, f"{noun} {a} — {b} is already given on line {seen[key]}")
        return None
    seen[key] = line
    return a, b


def read_map(folder: Path, entry: str, ruleset: Ruleset, shown: str, line: int | None) -> tuple[Path, bytes]:
    """The map file `entry` names (relative to the campaign's folder) and its bytes; Refused
    at campaign.yaml's `map:` line (`shown`, `line`) when it cannot be this game's map."""
    path = folder / entry
    named = f"the map {quoted(entry, 200)}"
    where = "`map:` names the map file, relative to the campaign's folder"
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise Refused(
            Problem(
                shown,
                line,
                f"{named} was not found (looked for {display_path(path)}): {where}, where `cok init` puts a "
                "copy of the game's map as map.yaml; copy a map there, or correct `map:`",
            )
        ) from None
    except OSError as error:
        raise Refused(Problem(shown, line, f"{named} cannot be read ({error.strerror})")) from None
    if stat.S_ISDIR(mode):
        raise Refused(Problem(shown, line, f"{named} is a folder, not a map file: {where}"))
    if not stat.S_ISREG(mode):
        kind = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a pipe or a socket"
        raise Refused(Problem(shown, line, f"{named} is {kind}, not a map file: {where}"))
    data = read_bytes(path, "map file")
    lacks = [key for key in required_keys(ruleset) if not _has_key(data, key)]
    if lacks:
        keys = ", ".join(f"`{key}:`" for key in lacks[:-1]) + (" and " if len(lacks) > 1 else "") + f"`{lacks[-1]}:`"
        raise Refused(
            Problem(
                shown,
                line,
                f"{named} is not a map of {ruleset.title}: it lacks {keys}; {where}",
            )
        )
    return path, data


def required_keys(ruleset: Ruleset) -> list[str]:
    """The keys every map of the game has: the required fields of its map model."""
    fields = ruleset.map_model.model_fields
    return [field.alias or name for name, field in fields.items() if field.is_required()]


def _has_key(data: bytes, key: str) -> bool:
    """Whether some line starts with `key:` (block YAML), quoted or not (a JSON map)."""
    name = re.escape(key.encode())
    return (
        re.search(rb"(?m)^[ \t]*[{,]?[ \t]*(" + name + rb"|\"" + name + rb"\"|'" + name + rb"')[ \t]*:", data)
        is not None
    )
