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
from typing import Annotated, Any, Literal, TypeVar

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


class Rolled(BaseModel):
    """The dice `cok` rolled for this event (docs/dice.md): each die from the seed committed
    by `commit`, what was rolled (`what`) and the asker's `entropy`; checked once revealed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    commit: Text = Field(description="The id of the dice-commit whose seed rolled them.")
    what: Text = Field(description="What was rolled: the roll's identity in the derivation.")
    entropy: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32,128}$")] = Field(
        description="The asker's random bytes (hex)."
    )
    sides: list[Annotated[int, Field(ge=2, le=1000)]] = Field(min_length=1, description="Each die's faces.")
    dice: list[Annotated[int, Field(ge=1)]] = Field(min_length=1, description="Each die as rolled.")


class EventBase(BaseModel):
    """Fields every event may carry; the ledger writes them on append."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    type: str
    id: Text | None = Field(default=None, description="Unique id (random, so merges stay unique).")
    at: At = Field(default=None, description="When it was recorded (ISO-8601).")
    by: str | None = Field(default=None, description="Who recorded it.")
    note: str | None = Field(default=None, description="Free text.")
    rolled: Rolled | None = Field(default=None, description="The dice cok rolled for it (docs/dice.md).")
    default: Literal["deadline", "absent"] | None = Field(
        default=None,
        description="Recorded by the ledger for a wait that was missed (docs/deadlines.md): `deadline` once its "
        "due time passed, `absent` at once for a player marked absent.",
    )
    due: At = Field(default=None, description="When the wait this default closes was due (ISO-8601 with offset).")


class Void(EventBase):
    """Cancels an earlier event as if it had never been recorded (every game has it)."""

    type: Literal["void"] = "void"
    target: Text
    reason: Text


Digest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class DiceCommit(EventBase):
    """The campaign commits to the secret seed of a period's dice: only its SHA-256 is
    written, before any die of the period is asked for (docs/dice.md)."""

    type: Literal["dice-commit"] = "dice-commit"
    period: Text
    sha256: Digest


class DiceReveal(EventBase):
    """The seed of a commitment, revealed once its period is over: anyone may check it
    against the commitment and recompute every die rolled with it."""

    type: Literal["dice-reveal"] = "dice-reveal"
    commit: Text
    seed: Digest


class DiceLost(EventBase):
    """The organiser records that a commitment's seed is lost (its data folder is gone):
    the dice rolled with it can never be verified."""

    type: Literal["dice-lost"] = "dice-lost"
    commit: Text
    reason: Text


#: The core's dice events, in every game's log.
DICE_EVENTS: dict[str, type[EventBase]] = {"dice-commit": DiceCommit, "dice-reveal": DiceReveal, "dice-lost": DiceLost}
DiceEvent = DiceCommit | DiceReveal | DiceLost


class Confirm(EventBase):
    """The other side of a result (a battle) says it happened as recorded (docs/confirm.md):
    only they or an organiser may, never whoever recorded it."""

    type: Literal["confirm"] = "confirm"
    target: Text


class Dispute(EventBase):
    """The other side of a result says it did not happen as recorded, and why: the result is
    marked wherever it is shown until an organiser settles it (keeps it, or voids it)."""

    type: Literal["dispute"] = "dispute"
    target: Text
    reason: Text


class Settle(EventBase):
    """An organiser closes a dispute by keeping the result as recorded, saying why (voiding it
    instead is the ordinary `void`)."""

    type: Literal["settle"] = "settle"
    target: Text
    reason: Text


#: The core's events about a result: the other side's word and the organiser's ruling.
VERDICT_EVENTS: dict[str, type[EventBase]] = {"confirm": Confirm, "dispute": Dispute, "settle": Settle}
Verdict = Confirm | Dispute | Settle


class Extend(EventBase):
    """More time for what the ledger waits for (docs/deadlines.md): the open waits it names
    (a player's, a step's, else every one) are due `length` later. `asked`: the player asked
    it themselves, counted against `extensions:` in campaign.yaml."""

    type: Literal["extend"] = "extend"
    length: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)] = Field(
        description="How much longer: a duration like 24h, 2d or 1d12h."
    )
    player: Annotated[str, StringConstraints(pattern=ID_PATTERN, min_length=1, max_length=64)] | None = Field(
        default=None, description="Only this player's waits (an id); none: every open wait."
    )
    step: Text | None = Field(default=None, description="Only the waits of this step (`orders`, `week`).")
    asked: bool | None = Field(default=None, description="True when the player asked it from their own page.")


class Present(EventBase):
    """An organiser brings an absent player back (docs/deadlines.md): their waits are given
    their whole deadline again, and their missed deadlines counted from nought."""

    type: Literal["present"] = "present"
    player: PlayerId


#: The core's events about the campaign's time, in every game's log (docs/deadlines.md).
CLOCK_EVENTS: dict[str, type[EventBase]] = {"extend": Extend, "present": Present}
ClockEvent = Extend | Present


Model = TypeVar("Model", bound=BaseModel)


def amended(model: Model, changes: dict[str, Any]) -> Model:
    """The model itself when every change is what it already holds, else a copy with the
    changes: a game's spelling step makes names exact this way, so a long fold whose names
    are exact already (the usual case) copies no event."""
    new = {k: v for k, v in changes.items() if v is not getattr(model, k) and v != getattr(model, k)}
    return model.model_copy(update=new) if new else model


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
