"""What every game's events share: the metadata the ledger writes, the `void` event, and
an entry (an event with the line it stands on in the log).

Events are frozen pydantic models: read from the log, never changed; the state is only
ever rebuilt from them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

PlayerId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_-]+$", min_length=1, max_length=64)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class EventBase(BaseModel):
    """Fields every event may carry; the ledger writes them on append."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    type: str
    id: Text | None = Field(default=None, description="Unique id (random, so merges stay unique).")
    at: dt.datetime | None = Field(default=None, description="When it was recorded (ISO-8601).")
    by: str | None = Field(default=None, description="Who recorded it.")
    note: str | None = Field(default=None, description="Free text.")


class Void(EventBase):
    """Cancels an earlier event as if it had never been recorded (every game has it)."""

    type: Literal["void"] = "void"
    target: Text
    reason: Text


@dataclass(frozen=True)
class Entry:
    """An event and the line it stands on in the log (None: not written yet)."""

    event: EventBase
    line: int | None
