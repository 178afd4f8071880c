"""Reading the user's YAML files strictly, keeping the line of every value.

Plain YAML loaders silently accept things that hide mistakes or danger: a key
written twice (the last one wins), anchors and aliases (the "billion laughs"),
and tags that build arbitrary objects. We refuse all of them, and every mapping
and sequence we return remembers the line it started on, so that errors can
point at `file:line`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
import yaml.reader
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode

from cok.core.errors import Problem, Refused, display_path
from cok.core.folders import read_bytes
from cok.core.text import quoted

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
_CONFLICT_MARKER = re.compile(r"^(?:<<<<<<<|=======|>>>>>>>|\|\|\|\|\|\|\|)(?: |\r?$)", re.MULTILINE)


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


def _line(mark: Any) -> int | None:
    return mark.line + 1 if mark is not None else None


def read_text(path: Path, what: str) -> str:
    """The file's text, or a clear refusal: missing, unreadable, too large, not UTF-8."""
    return read_file(path, what)[1]


def read_file(path: Path, what: str) -> tuple[bytes, str]:
    """The file's bytes and text (see `read_text`)."""
    return (data := read_bytes(path, what)), decode(data, display_path(path), what)


def decode(data: bytes, shown: str, what: str, first_line: int = 1) -> str:
    """The bytes as text, refusing binary files and text that is not UTF-8."""
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + first_line
        raise Refused(Problem(shown, line, f"{what} is a binary file, not YAML text"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + first_line
        raise Refused(Problem(shown, line, f"{what} is not UTF-8 text")) from None


def parse(text: str, shown: str, sink: Callable[[Any, int], None] | None = None) -> Any:
    """Parse one YAML document into plain values (YamlMap/YamlList keep their lines).

    With a `sink`, each item of a top-level list is handed to `sink(item, line)` as soon as
    it is read, instead of being kept in the list: a 100,000-event log is never held whole."""
    marker = _CONFLICT_MARKER.search(text)
    if marker is not None:
        at = text.count("\n", 0, marker.start()) + 1
        raise Refused(Problem(shown, at, "unresolved git merge conflict marker; resolve the merge first"))
    loader = _Loader(text)
    try:
        return _Builder().build(loader, sink)
    except _Unsafe as exc:
        raise Refused(Problem(shown, exc.line, exc.message)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        deep = None if mark is None else _flow_too_deep(text, mark.index)
        if deep is not None:  # the parser's own depth limit came before ours: say it in our words
            raise Refused(Problem(shown, deep, f"nested more than {MAX_DEPTH} levels deep")) from None
        line = _line(mark)
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
    finally:
        loader.dispose()


#: Deeper than this is never one of our files.
MAX_DEPTH = 200

#: How far before a parser's refusal `_flow_too_deep` looks. libyaml holds back the tokens of
#: flow collections that might still be keys until a key is ruled out (a new line, or 1,024
#: characters on), so its own nesting limit can fire before our builder sees that depth: the
#: brackets that took it there all lie within this distance.
_LOOK_BACK = 4096
_QUOTED = re.compile(r"'[^'\n]*'|\"(?:[^\"\\\n]|\\.)*\"|#[^\n]*")


def _flow_too_deep(text: str, index: int) -> int | None:
    """The line where flow collections (`[`, `{`) open more than MAX_DEPTH deep within the
    stretch of text before `index`, where a parser refused it; None if they do not.

    Parsers have nesting limits of their own, reported in their own words and differently in
    each release: this decides from the text alone, so the message is ours whatever the
    parser says (issue: a new PyYAML refused deep input before our builder's check)."""
    start = max(0, index - _LOOK_BACK)
    stretch = _QUOTED.sub(lambda m: " " * len(m.group()), text[start : index + 1])
    depth = 0
    for at, char in enumerate(stretch):
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, start + at) + 1
        elif char in "]}":
            depth = max(0, depth - 1)
    return None


#: libyaml's parser when it is there (fast); PyYAML's own otherwise. Only the parser's event
#: stream is used: values are built here, in one pass, without libyaml's composer (which
#: recurses in C and would crash on deep nesting) and without reading the text twice.
_Loader: Any = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
_IMPLICIT = yaml.resolver.Resolver.yaml_implicit_resolvers
_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
MAX_DIGITS = 15  # no count in a campaign comes near; Python refuses to print past 4,300
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
_LENIENT = {"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"}  # `<<` and `=`: plain text to us


#: Plain texts whose tags one parse remembers (a log's words, ids and numbers repeat).
RESOLVED = 4096


def _resolve(value: str) -> str:
    """The tag YAML 1.1 gives a plain scalar (as PyYAML's resolver decides)."""
    for tag, regexp in _IMPLICIT.get(value[0] if value else "", ()):
        if regexp.match(value):
            return str(tag)
    return _STR


class _Builder:
    """Builds YamlMap / YamlList / scalars straight from the parser's events."""

    def __init__(self) -> None:
        self.constructor = SafeConstructor()

    def scalar(self, event: Any, resolved: str | None = None) -> Any:
        """The scalar's value; `resolved`: its plain text's tag, when already found."""
        value: str = event.value
        tag = event.tag
        if resolved is not None:
            tag = resolved
        elif tag is None or tag == "!":
            if event.style or not event.implicit[0]:  # quoted or block text: a string
                return value
            tag = _resolve(value)
        if tag == _STR or tag in _LENIENT:
            return value
        if tag == _NULL:
            return None
        if tag == _BOOL:
            return self.constructor.bool_values[value.lower()]
        if tag not in _PLAIN_TAGS:
            raise _Unsafe(_tag_message(tag), _line(event.start_mark))
        shown = value if len(value) <= 30 else value[:27] + "…"
        if tag == _INT and len(value.replace("_", "")) > MAX_DIGITS + 2:
            raise _Unsafe(f"{shown} is too large a number (at most {MAX_DIGITS} digits)", _line(event.start_mark))
        try:
            made = int(value) if tag == _INT and value.lstrip("+-").isdigit() else self._construct(tag, value, event)
        except (ValueError, OverflowError):
            kind = {_INT: "number", "tag:yaml.org,2002:timestamp": "date"}.get(tag, "value")
            raise _Unsafe(f"{shown} is not a valid {kind}", _line(event.start_mark)) from None
        if isinstance(made, int) and not isinstance(made, bool) and abs(made) >= 10**MAX_DIGITS:
            raise _Unsafe(f"{shown} is too large a number (at most {MAX_DIGITS} digits)", _line(event.start_mark))
        if isinstance(made, dt.date) and not isinstance(made, dt.datetime):
            return made.isoformat()
        return made

    def _construct(self, tag: str, value: str, event: Any) -> Any:
        return self.constructor.construct_object(ScalarNode(tag, value, event.start_mark, event.end_mark))

    def build(self, loader: Any, sink: Callable[[Any, int], None] | None = None) -> Any:
        scalar_event, alias_event = yaml.ScalarEvent, yaml.AliasEvent
        seq_start, map_start = yaml.SequenceStartEvent, yaml.MappingStartEvent
        seq_end, map_end = yaml.SequenceEndEvent, yaml.MappingEndEvent
        root: Any = None
        value: Any
        documents = 0
        resolved: dict[str, str] = {}  # plain texts' tags: a log repeats the same words
        # Each open collection: [container, pending key (mappings), that key's line,
        # the line of a top-level item that goes to the sink when complete (else 0)].
        stack: list[list[Any]] = []
        while True:
            event = loader.get_event()
            kind = type(event)
            if kind is scalar_event:
                if event.anchor is not None:
                    raise _Unsafe(
                        f"anchors (&{event.anchor}) are not allowed; write the value out in full",
                        _line(event.start_mark),
                    )
                if event.tag is None and not event.style and event.implicit[0]:  # plain text: most are
                    value = event.value
                    tag = resolved.get(value)
                    if tag is None:
                        tag = _resolve(value)
                        if len(resolved) < RESOLVED:
                            resolved[value] = tag
                    if tag != _STR:
                        value = self.scalar(event, tag)
                else:
                    value = self.scalar(event)
            elif kind is seq_start or kind is map_start:
                line = event.start_mark.line + 1
                if event.anchor is not None:
                    raise _Unsafe(f"anchors (&{event.anchor}) are not allowed; write the value out in full", line)
                if event.tag not in (None, "!", _SEQ_TAG if kind is seq_start else _MAP_TAG):
                    raise _Unsafe(_tag_message(event.tag), line)
                if len(stack) >= MAX_DEPTH:
                    raise _Unsafe(f"nested more than {MAX_DEPTH} levels deep", line)
                if kind is seq_start:
                    seq = YamlList()
                    seq.line, seq.item_lines, seq.flow = line, [], bool(event.flow_style)
                    seq.column, seq.start = event.start_mark.column, event.start_mark.index
                    value = seq
                else:
                    mapping = YamlMap()
                    mapping.line, mapping.key_lines = line, {}
                    value = mapping
            elif kind is seq_end or kind is map_end:
                done, _, _, sunk = stack.pop()
                if kind is seq_end:
                    done.end = event.end_mark.index
                if sunk and sink is not None:
                    sink(done, sunk)
                continue
            elif kind is alias_event:
                raise _Unsafe(
                    f"aliases (*{event.anchor}) are not allowed; write the value out in full", _line(event.start_mark)
                )
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise _Unsafe("only one YAML document is allowed (remove the `---` line)", _line(event.start_mark))
                continue
            elif kind is yaml.StreamEndEvent:
                return root
            else:
                continue
            sunk = 0
            if not stack:
                root = value
            else:
                top = stack[-1]
                container = top[0]
                line = event.start_mark.line + 1
                if type(container) is YamlList:
                    container.item_lines.append(line)
                    if sink is not None and container is root:
                        if kind is scalar_event:
                            sink(value, line)
                        else:
                            sunk = line  # handed over when it is complete
                    else:
                        container.append(value)
                elif top[1] is None:
                    fresh = type(value) is str and value not in container  # most keys
                    top[1], top[2] = value if fresh else self.key(value, container, line), line
                else:
                    container[top[1]] = value
                    container.key_lines[top[1]] = top[2]
                    top[1] = None
            if kind is seq_start or kind is map_start:
                stack.append([value, None, 0, sunk])

    @staticmethod
    def key(found: Any, mapping: YamlMap, line: int) -> str:
        if isinstance(found, (YamlMap, YamlList)):
            raise _Unsafe("a mapping key must be plain text", line)
        value = found if isinstance(found, str) else str(found).lower() if isinstance(found, bool) else str(found)
        if value in mapping:
            raise _Unsafe(
                f"the key {quoted(value)} appears twice in one mapping (first on line "
                f"{mapping.key_lines[value]}); keep only one",
                line,
            )
        return value


def _tag_message(tag: str) -> str:
    shown = tag.replace("tag:yaml.org,2002:", "!!")
    return f"the tag {shown} is not allowed; write plain values"
