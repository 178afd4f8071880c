"""Text from the campaign's files made safe to show: a name may hold control characters,
which must not reach a terminal (they are commands to it) nor an XML document (where they
are not allowed at all, even escaped)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: The bidirectional controls (marks, embeddings, overrides, isolates): in a name or a note,
#: a right-to-left override reverses the rest of the line it is shown on.
_BIDI = "\u200e\u200f\u202a-\u202e\u2066-\u2069"
_TERMINAL = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{_BIDI}]")
_CELL = re.compile(rf"[\x00-\x1f\x7f-\x9f\u2028\u2029{_BIDI}]")
_OPENING = re.compile("[\u202a\u202b\u202d\u202e\u2066-\u2068]")
_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


#: How many characters of a value from the user's files or command line a message quotes:
#: enough to recognise it, never a whole megabyte of it.
QUOTED = 60


def quoted(value: object, limit: int = QUOTED) -> str:
    """`repr(value)`, a long one cut: `'xxxx…' (1,000,000 characters)`."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit] + '…'!r} ({len(value):,} characters)"
    shown = repr(value)
    return shown if len(shown) <= limit else f"{shown[:limit]}… ({len(shown):,} characters)"


def cut(text: str, limit: int) -> str:
    """The text, a long one cut to `limit` characters and said to be."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit:,} more characters)"


#: The longest message shown whole: longer ones quoted a value without `quoted` (a game's
#: own message): their long quoted values are cut, then the message itself.
MESSAGE = 1000
_LONG_QUOTE = re.compile(r"'([^'\n]{200,})'|\"([^\"\n]{200,})\"")


def readable(message: str) -> str:
    """A message as every output shows it: a line of it longer than MESSAGE characters has
    each quoted value of over 200 characters cut (`'xxxx…' (1,000,000 characters)`), then is
    cut whole (a list of many short lines, one per event, is left whole)."""
    if len(message) <= MESSAGE:
        return message

    def short(match: re.Match[str]) -> str:
        value = match[1] if match[1] is not None else match[2]
        return quoted(value)

    return "\n".join(
        line if len(line) <= MESSAGE else cut(_LONG_QUOTE.sub(short, line), MESSAGE) for line in message.split("\n")
    )


def counted(n: int, one: str, many: str) -> str:
    """`1 territory`, `3 territories`."""
    return f"{n} {one if n == 1 else many}"


def for_terminal(text: str, *, one_line: bool = False) -> str:
    """Control characters written as `\\x1b`; line breaks kept unless `one_line` (a cell)."""
    return (_CELL if one_line else _TERMINAL).sub(_escape, text)


def for_markup(value: Any) -> Any:
    """A Jinja `finalize`: strings lose the characters HTML and XML cannot hold (shown as
    U+FFFD), and an embedding or override they open is closed at their end (it reverses
    nothing after them, in an attribute as in text); autoescaping then makes them text."""
    if not isinstance(value, str):
        return value
    value = _XML.sub("\ufffd", value)
    return isolated(value) if _OPENING.search(value) else value


def isolated(text: str) -> str:
    """The text with every bidirectional embedding, override or isolate it opens closed at
    its end: what a name holds stays in the name (pages also wrap it in `<bdi>`)."""
    embeddings = isolates = 0
    for char in text:
        if char in "\u202a\u202b\u202d\u202e":
            embeddings += 1
        elif char == "\u202c":
            embeddings = max(0, embeddings - 1)
        elif char in "\u2066\u2067\u2068":
            isolates += 1
        elif char == "\u2069":
            isolates = max(0, isolates - 1)
    return text + "\u2069" * isolates + "\u202c" * embeddings


#: How the rules name an event's field in a message: `winner`, `occupy: false`. Where the
#: mistake came from decides how the user reads it: the command line's options or the file's keys.
_FIELD = re.compile(r"`([a-z][a-z0-9_]*)(?:: ([a-z0-9_-]+))?`")


def in_file_words(message: str) -> str:
    """A rule's message for a mistake in the log: `winner` becomes `winner:`, as in the file."""
    return _FIELD.sub(lambda m: f"{m[1]}: {m[2]}" if m[2] else f"{m[1]}:", message)


#: A field followed by the command line's placeholder for its value (`override` REASON).
_PLACEHOLDER = re.compile(_FIELD.pattern + r" [A-Z][A-Z_]+\b")


def in_page_words(message: str, words: Mapping[str, str], people: Mapping[str, str] | None = None) -> str:
    """A rule's message on a page (`cok serve`): each field in the words its form uses
    (`roll` becomes "the dice"), else the field's name in plain letters; a player's id, a
    whole word, as their name (`people`: id -> name)."""

    def said(match: re.Match[str]) -> str:
        name = words.get(match[1], match[1].replace("_", " "))
        return f"{name} ({match[2]})" if match[2] and match[2] not in ("true", "false") else name

    message = _PLACEHOLDER.sub(said, message)  # `override` REASON: the page asks for it by name
    message = _FIELD.sub(said, message)
    if people:
        ids = sorted(people, key=len, reverse=True)
        pattern = re.compile(r"(?<![\w'-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w-])")
        message = pattern.sub(lambda m: people[m[1]], message)
    return message


def in_command_line_words(message: str) -> str:
    """A rule's message for a mistake typed on the command line: `winner` becomes --winner,
    `occupy: false` becomes --no-occupy (and `remaining` --remaining)."""

    def option(match: re.Match[str]) -> str:
        name = match[1].replace("_", "-")
        if match[2] == "false":
            return f"--no-{name}"
        if match[2] in (None, "true"):
            return f"--{name}"
        return f"--{name} {match[2]}"

    return _FIELD.sub(option, message)
