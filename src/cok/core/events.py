"""What every game's events share: the metadata the ledger writes, the `void` event, and
an entry (an event with the line it stands on in the log).

Events are frozen pydantic models: read from the log, never changed; the state is only
ever rebuilt from them.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, WithJsonSchema

#: What an id may hold (a player's, a house's): lowercase letters, digits, '-' and '_'.
ID_PATTERN = r"^[a-z0-9_-]+$"
PlayerId = Annotated[str, StringConstraints(pattern=ID_PATTERN, min_length=1, max_length=64)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


#: When an event was recorded: an ISO-8601 date, or date and time (YAML's timestamps).
AT_PATTERN = r"^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)? *([Zz]|[+-]\d{2}(:?\d{2})?)?)?$"


def _iso(value: Any) -> Any:
    """Only a date or a date and time as ISO-8601 writes it (no seconds since 1970), so that
    the log's schema and its reader agree."""
    if isinstance(value, dt.datetime) or value is None:
        return value
    if isinstance(value, str) and re.match(AT_PATTERN, value.strip()):
        return value.strip()
    raise ValueError("write it as an ISO-8601 date and time, like 2026-10-07T20:30:00Z")


At = Annotated[
    dt.datetime | None,
    BeforeValidator(_iso),
    WithJsonSchema({"anyOf": [{"type": "string", "pattern": AT_PATTERN}, {"type": "null"}]}),
]


class EventBase(BaseModel):
    """Fields every event may carry; the ledger writes them on append."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    type: str
    id: Text | None = Field(default=None, description="Unique id (random, so merges stay unique).")
    at: At = Field(default=None, description="When it was recorded (ISO-8601).")
    by: str | None = Field(default=None, description="Who recorded it.")
    note: str | None = Field(default=None, description="Free text.")


class Void(EventBase):
    """Cancels an earlier event as if it had never been recorded (every game has it)."""

    type: Literal["void"] = "void"
    target: Text
    reason: Text


def content_ref(event: EventBase) -> str:
    """How a void names an event written by hand without an `id`: `=` and a digest of its
    fields, which stays the same wherever a merge moves the event."""
    fields = json.dumps(event.model_dump(mode="json", exclude_none=True), sort_keys=True, ensure_ascii=False)
    return "=" + hashlib.sha256(fields.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Entry:
    """An event and the line it stands on in the log (None: not written yet)."""

    event: EventBase
    line: int | None
