"""Reading the user's YAML files strictly, keeping the line of every value.

Plain YAML loaders silently accept things that hide mistakes or danger: a key
written twice (the last one wins), anchors and aliases (the "billion laughs"),
and tags that build arbitrary objects. We refuse all of them, and every mapping
and sequence we return remembers the line it started on, so that errors can
point at `file:line`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import yaml
import yaml.reader
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from cok.errors import Problem, Refused

MAX_BYTES = 64 * 1024 * 1024

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_CONFLICT_MARKERS = ("<<<<<<<", "=======", ">>>>>>>", "|||||||")


class YamlMap(dict[str, Any]):
    """A mapping from a YAML file, with the line it starts on and each key's line."""

    line: int
    key_lines: dict[str, int]


class YamlList(list[Any]):
    """A sequence from a YAML file, with the line it starts on and each item's line."""

    line: int
    item_lines: list[int]
    flow: bool
    column: int
    start: int
    end: int


class _Unsafe(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses anchors and aliases while composing."""

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            raise _Unsafe(
                f"aliases (*{event.anchor}) are not allowed; write the value out in full",
                _line(event.start_mark),
            )
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Unsafe(
                f"anchors (&{anchor}) are not allowed; write the value out in full",
                _line(event.start_mark),
            )
        return super().compose_node(parent, index)


def _line(mark: Any) -> int | None:
    return mark.line + 1 if mark is not None else None


def display_path(path: Path) -> str:
    """The path as a user would type it: relative to the current folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def read_text(path: Path, what: str) -> str:
    """The file's text, or a clear refusal: missing, unreadable, too large, not UTF-8."""
    return read_file(path, what)[1]


def read_file(path: Path, what: str) -> tuple[bytes, str]:
    """The file's bytes and text (see `read_text`)."""
    shown = display_path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise Refused(Problem(shown, None, f"{what} not found")) from None
    except IsADirectoryError:
        raise Refused(Problem(shown, None, f"{what} is a folder, not a file")) from None
    except OSError as exc:
        raise Refused(Problem(shown, None, f"cannot read {what}: {exc.strerror}")) from None
    if len(data) > MAX_BYTES:
        raise Refused(Problem(shown, None, f"{what} is larger than {MAX_BYTES // 2**20} MiB"))
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise Refused(Problem(shown, line, f"{what} is a binary file, not YAML text"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Refused(Problem(shown, line, f"{what} is not UTF-8 text")) from None
    return data, text


def parse(text: str, shown: str) -> Any:
    """Parse one YAML document into plain values (YamlMap/YamlList keep their lines)."""
    for number, text_line in enumerate(text.splitlines(), start=1):
        if text_line.startswith(_CONFLICT_MARKERS) and (text_line[7:8] in ("", " ")):
            raise Refused(Problem(shown, number, "unresolved git merge conflict marker; resolve the merge first"))
    loader: yaml.SafeLoader | None = None
    try:
        if _fast_path_is_safe(text):
            node = yaml.compose(text, Loader=yaml.CSafeLoader)
        else:
            loader = _StrictLoader(text)
            node = loader.get_single_node()
        return None if node is None else _build(node, SafeConstructor())
    except _Unsafe as exc:
        raise Refused(Problem(shown, exc.line, exc.message)) from None
    except yaml.MarkedYAMLError as exc:
        line = _line(exc.problem_mark or exc.context_mark)
        detail = " ".join(p for p in (exc.context, exc.problem) if p)
        if "tab" in detail or "'\\t'" in detail:
            detail += " (YAML does not allow tabs for indentation; use spaces)"
        raise Refused(Problem(shown, line, f"invalid YAML: {detail}")) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
        shown_char = repr(exc.character) if isinstance(exc.character, str) else f"byte {exc.character!r}"
        raise Refused(Problem(shown, line, f"invalid YAML: the character {shown_char} is not allowed")) from None
    except yaml.YAMLError as exc:
        raise Refused(Problem(shown, None, "invalid YAML: " + " ".join(str(exc).split()))) from None
    except RecursionError:
        raise Refused(Problem(shown, None, f"invalid YAML: nested more than {MAX_DEPTH} levels deep")) from None
    finally:
        if loader is not None:
            loader.dispose()


#: Deeper than this is never one of our files, and libyaml's composer recurses in C,
#: so deeper nesting would crash the process instead of raising an error.
MAX_DEPTH = 200


def _fast_path_is_safe(text: str) -> bool:
    """Scan libyaml's event stream once (fast, not recursive): refuse anchors, aliases and
    deep nesting, so that libyaml's composer is only ever given what it can handle."""
    if not yaml.__with_libyaml__:
        return False
    depth = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, yaml.AliasEvent):
            raise _Unsafe(
                f"aliases (*{event.anchor}) are not allowed; write the value out in full", _line(event.start_mark)
            )
        if isinstance(event, (yaml.CollectionStartEvent, yaml.ScalarEvent)) and event.anchor is not None:
            raise _Unsafe(
                f"anchors (&{event.anchor}) are not allowed; write the value out in full", _line(event.start_mark)
            )
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _Unsafe(f"nested more than {MAX_DEPTH} levels deep", _line(event.start_mark))
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return True


def load(path: Path, what: str) -> Any:
    """Read and parse a YAML file (see `parse`)."""
    return parse(read_text(path, what), display_path(path))


def _tag_message(tag: str) -> str:
    shown = tag.replace("tag:yaml.org,2002:", "!!")
    return f"the tag {shown} is not allowed; write plain values"


def _build(node: Node, loader: SafeConstructor) -> Any:
    line = node.start_mark.line + 1
    if isinstance(node, ScalarNode):
        if node.tag not in _PLAIN_TAGS:
            raise _Unsafe(_tag_message(node.tag), line)
        value = loader.construct_object(node, deep=True)
        if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return value.isoformat()
        return value
    if isinstance(node, SequenceNode):
        if node.tag != _SEQ_TAG:
            raise _Unsafe(_tag_message(node.tag), line)
        seq = YamlList(_build(item, loader) for item in node.value)
        seq.line = line
        seq.item_lines = [item.start_mark.line + 1 for item in node.value]
        seq.flow = bool(node.flow_style)
        seq.column = node.start_mark.column
        seq.start = node.start_mark.index
        seq.end = node.end_mark.index
        return seq
    if isinstance(node, MappingNode):
        if node.tag != _MAP_TAG:
            raise _Unsafe(_tag_message(node.tag), line)
        mapping = YamlMap()
        mapping.line = line
        mapping.key_lines = {}
        for key_node, value_node in node.value:
            key = _build(key_node, loader)
            key_line = key_node.start_mark.line + 1
            if not isinstance(key, str):
                if isinstance(key, (int, float, bool)) or key is None:
                    key = str(key).lower() if isinstance(key, bool) else str(key)
                else:
                    raise _Unsafe("a mapping key must be plain text", key_line)
            if key in mapping:
                raise _Unsafe(
                    f"the key {key!r} appears twice in one mapping (first on line "
                    f"{mapping.key_lines[key]}); keep only one",
                    key_line,
                )
            mapping[key] = _build(value_node, loader)
            mapping.key_lines[key] = key_line
        return mapping
    raise _Unsafe("unsupported YAML node", line)  # pragma: no cover
