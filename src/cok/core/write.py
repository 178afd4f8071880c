"""An event as the text appended to the log: one block list item, a field a line, every
string written so that it reads back exactly; and the fields the ledger adds to it."""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Mapping
from typing import Any

import yaml

from cok.core.events import EventBase


def new_id() -> str:
    """A random id: unique across branches of the log that are merged later."""
    return secrets.token_hex(6)


def with_metadata(event: EventBase, by: str | None = None) -> EventBase:
    """The fields the ledger writes on every event it appends; `at` by the ledger's clock
    (`COK_NOW` when set: docs/deadlines.md)."""
    from cok.core.deadlines import now as ledger_now

    now = ledger_now().astimezone(dt.UTC).replace(microsecond=0)
    return event.model_copy(update={"id": event.id or new_id(), "at": event.at or now, "by": event.by or by})


def to_yaml(event: EventBase) -> str:
    """The event as one block list item, a field a line, short lists and maps inline:

    - type: battle
      players: [tim, matt]
      location: Starfall
    """
    lines = [f"{key}: {_inline(value)}" for key, value in as_written(event).items()]
    return "- " + "\n  ".join(lines) + "\n"


def as_written(event: EventBase) -> dict[str, Any]:
    """The event's fields in the order `to_yaml` writes them: what reading its block back
    must give (the append checks it before writing)."""
    data = event.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
    data.pop("type", None)
    meta: dict[str, Any] = {k: data.pop(k) for k in ("rolled", "id", "at", "by", "default", "due", "note") if k in data}
    return {"type": getattr(event, "type", None), **data, **meta}


def not_text(value: Any, name: str = "") -> str | None:
    """The field (`note`, `vp.tim`) of the first string UTF-8 cannot hold — a lone surrogate,
    which is how Python keeps a byte that was not UTF-8 (a terminal's argument) — else None.
    Written, it would be an escape no YAML reader accepts, and the whole log unreadable."""
    if isinstance(value, str):
        return name if any("\ud800" <= ch <= "\udfff" for ch in value) else None
    items = value.items() if isinstance(value, Mapping) else enumerate(value) if isinstance(value, list | tuple) else ()
    for key, item in items:
        inner = f"{name}.{shown_key(key)}" if name else shown_key(key)
        if not_text(key, inner) is not None:
            return inner
        found = not_text(item, inner if isinstance(value, Mapping) else name)
        if found is not None:
            return found
    return None


def shown_key(key: Any) -> str:
    """A key as a message may print it: a byte that was not UTF-8 as its escape."""
    return str(key).encode("utf-8", "backslashreplace").decode("utf-8")


def _inline(value: Any) -> str:
    """One YAML value on one line, quoted where YAML needs it."""
    if isinstance(value, list):
        return "[" + ", ".join(_inline(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_inline(k)}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str) and (any(ch in ",[]{}" for ch in value) or not all(_plain_char(ch) for ch in value)):
        return _double_quoted(value)  # a comma or bracket would split it inside [...] or {...}: "3,-2"
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=float("inf")).strip()
    return text.removesuffix("...").rstrip()


def _plain_char(ch: str) -> bool:
    """Characters PyYAML writes and reads back unchanged without escapes."""
    return ch.isprintable() and ord(ch) <= 0xFFFF and ch not in "\u2028\u2029\x85\ufeff"


def _double_quoted(value: str) -> str:
    """A YAML double-quoted scalar with every unusual character escaped (PyYAML would write
    characters beyond U+FFFF as surrogate pairs, which do not read back)."""
    out = []
    for ch in value:
        if ch in '"\\':
            out.append("\\" + ch)
        elif _plain_char(ch):
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return '"' + "".join(out) + '"'
