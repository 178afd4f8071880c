"""The documents the API answers that are its own (not a game's read): each a model, so that
the server writes them through it and the OpenAPI document (`openapi.py`) is made from the very
same models. Their fields are a contract: within a major version of the API a field is added,
never removed, renamed or given another meaning (docs/api.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from cok.core.shapes import Document, Waited


class ProblemItem(Document):
    message: str = Field(description="What is wrong, in the words `cok check` and the pages use.")


class Problems(Document):
    """Every refusal of the API: nothing was written."""

    problems: list[ProblemItem] = Field(min_length=1)
    names: list[str] | None = Field(None, description="404 of a read: the reads this game answers.")
    retry_after: int | None = Field(
        None, description="401 after many wrong tokens from one address: seconds to wait before sending another."
    )


class Question(Document):
    kind: Literal["choice", "numbers", "repeated", "confirm"]
    field: str = Field(description="Where the answer goes: `answers[field]` in the event sent again.")
    message: str
    options: list[str] = Field(description="A choice's options.")
    keys: list[str] = Field(description="Numbers: one whole number (0 or more) per key.")
    decline_field: str | None = Field(description="A choice that may be declined: `answers[decline_field] = false`.")


class Asked(Document):
    """409: the rules ask a question before anything is recorded (nothing was written)."""

    question: Question


class Recorded(Document):
    """201 (recorded) or 200 with `dry_run` (what would be recorded: nothing written)."""

    id: str | None = Field(description="The event's id in the log (null for a dry run).")
    told: str = Field(description="The event in the log's words, as `cok log` tells it.")
    warnings: list[str]
    dry_run: bool | None = None


class Version(Document):
    version: str = Field(description="Changes whenever anyone records (here or with `cok` at a terminal).")


class Confirmation(Document):
    status: str = Field(description="awaiting, confirmed, disputed or kept (docs/confirm.md).")
    other_side: list[str] = Field(description="Who may confirm or dispute it, besides an organiser.")
    said_by: str | None = None
    reason: str | None = None
    ruling: str | None = None


class LogEntry(Document):
    line: int = Field(description="Its line in events.yaml.")
    id: str | None
    ref: str | None = Field(description="How `since` and a void name it: its id, or `=…` for an event without one.")
    type: str
    summary: str = Field(description="The event in the log's words.")
    voided: bool
    event: dict[str, Any] = Field(description="The event as the log holds it.")
    confirmation: Confirmation | None = Field(None, description="A result's standing (docs/confirm.md).")
    dice: str | None = Field(None, description="The dice cok rolled for it: verified, or not yet, and why.")


class LogPage(Document):
    """`cok log --json`, a page of it: the events after `since`, oldest first."""

    events: list[LogEntry]
    more: bool | None = Field(None, description="More events follow this page: ask again with `since` = `last`.")
    last: str | None = Field(None, description="The ref of the page's last event (null: none).")


class Roll(Document):
    line: int
    id: str | None
    what: str
    dice: list[int]
    sides: list[int]
    entropy: str
    verified: Literal["verified", "not verified yet", "refused"]


class Commitment(Document):
    period: str
    commit: str | None
    line: int
    sha256: str
    seed: str = Field(description="revealed; not revealed yet; lost: never verifiable")
    rolls: list[Roll]


class DiceProblem(Document):
    line: int | None
    message: str


class Dice(Document):
    """`cok dice --json`: every die cok rolled, checked against its revealed seed."""

    commitments: list[Commitment]
    problems: list[DiceProblem]


class CampaignLine(Document):
    path: str = Field(description="Where it is served: /PATH/ (its API at /PATH/api/).")
    name: str
    game: str
    period: str = Field(description="Where it stands, in the game's words (week 5, game over).")
    leads: str
    problems: list[str] = Field(description="Why it cannot be served (it answers 503 until fixed).")
    due: Waited | None = Field(
        None, description="Its next deadline, as the club's page shows it (null: it keeps none, or nothing is due)."
    )


class Campaigns(Document):
    """A club's campaigns, as its page lists them."""

    campaigns: list[CampaignLine]


def written(model: type[BaseModel], **values: Any) -> dict[str, Any]:
    """A document as the API sends it: checked by its model first (a field it does not have
    is a mistake of the server's, never sent); only the fields given are sent."""
    said: dict[str, Any] = model(**values).model_dump(mode="json", exclude_unset=True)
    return said
