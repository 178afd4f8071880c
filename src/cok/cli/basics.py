"""What the commands do that needs no Typer: open the campaign a command is about, print a
JSON document, and word a refusal. `cok.cli.options` hands them to the commands; a plain
`cok standings` or `cok check` (`cok.cli.shortcut`) uses them without loading Typer at all."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cok.core.errors import Refused, RuleError
from cok.core.folders import find_campaign

if TYPE_CHECKING:
    from cok.core.campaign import Campaign


def open_valid(campaign: str | None, no_cache: bool = False) -> Campaign:
    """The campaign the command is about (cached when it fits), refusing an invalid log."""
    from cok.core.campaign import open_campaign

    return open_campaign(find_campaign(campaign), use_cache=not no_cache).valid()


def emit_json(document: Any) -> None:
    from cok.render.documents import dumps
    from cok.render.output import write

    write(dumps(document) + "\n")


def refusal(error: Refused | RuleError) -> list[str]:
    """What a refused command says on standard error, a line each: every problem as
    `file:line: message`, or the rule the command line broke, in its words."""
    if isinstance(error, Refused):
        from cok.core.errors import told

        return told(error.problems)
    from cok.core.text import in_command_line_words, readable

    return [f"cok: {in_command_line_words(readable(str(error)))}"]
