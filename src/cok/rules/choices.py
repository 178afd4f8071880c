"""A rule that needs a choice the event did not make."""

from __future__ import annotations

from cok.errors import RuleError


class ChoiceNeeded(RuleError):
    """The rules need a decision (which castle to abandon, who won the roll-off…).

    `field` names the event field that would carry it; `options` are the valid
    values; `decline` says whether `occupy: false` is also a valid answer. The CLI
    asks at a terminal, and otherwise reports the message with the options.
    """

    def __init__(self, message: str, field: str, options: list[str], decline: bool = False) -> None:
        super().__init__(message)
        self.field = field
        self.options = options
        self.decline = decline
