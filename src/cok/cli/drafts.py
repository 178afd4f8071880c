"""A draft from a command's options, recorded: what every game's recording commands end with
(kept apart from `options.py`, which `recording.py` itself imports)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cok.cli.options import Manner, given

if TYPE_CHECKING:
    from cok.core.campaign import Campaign

Answers = dict[str, Any] | None


def record_given(opened: Campaign, type: str, fields: dict[str, Any], how: Manner, answers: Answers = None) -> None:
    """Options → draft (an option left out gives no field) → the service (the game's intents
    build the event, the rules decide) → the summary, as on a phone; the rules' questions
    asked at a terminal (`answers`: what the options already answer, e.g. roll it for me)."""
    from cok.cli.recording import record_drafts
    from cok.service.drafts import Draft

    record_drafts(opened, [Draft(type, given(fields))], **how.recording(), answers=answers)
