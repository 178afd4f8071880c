"""What the commands do that needs no Typer: open the campaign a command is about, print a
JSON document, word a refusal, and show the standings and the problems. `cok.cli.options`
hands them to the commands; a plain `cok standings` or `cok check` line (read by
`cok.cli.shortcut`) runs them without loading Typer at all."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
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


def say(line: str) -> None:
    """A line on standard error, as Typer's commands write theirs."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def show_standings(campaign: str | None, no_cache: bool, as_json: bool) -> None:
    """`cok standings`: the players, ranked: a table, or one JSON document (the campaign
    opened once, and asked the standings and the results' marks)."""
    from cok.service.queries import ranking

    found = open_valid(campaign, no_cache)
    standings = ranking(found)
    marked = _results_marked(found)
    if as_json:
        emit_json({**standings.document, **({"results": marked[1]} if marked[1] else {})})
        return
    from cok.render.output import show

    show(*standings.lines, *marked[0])


def _results_marked(found: Campaign) -> tuple[list[str], dict[str, Any]]:
    """The results disputed (or awaiting confirmation, when required) that the standings count
    meanwhile (docs/confirm.md): lines under the table, and the `results` field of `--json`."""
    from cok.service import confirming

    if found.ruleset.results and not found.problems:
        with contextlib.suppress(Refused):  # its settings gone since it was opened: no marks
            return confirming.open_results(found)
    return [], {}


def show_problems(campaign: str | None, every: bool, no_cache: bool, as_json: bool) -> bool:
    """`cok check`: say every problem of the campaign (of every campaign below this folder,
    with `every`), silent when there is none; False when there is one. The campaign is
    opened (replayed, with `--no-cache`) once, and asked its problems, its dice still
    waiting and its results' marks."""
    from cok.service import queries

    checked = None
    if every:
        problems = queries.check_below(Path.cwd(), use_cache=not no_cache)
    else:
        try:
            checked = queries.checked(find_campaign(campaign), use_cache=not no_cache)
            problems = checked.problems
        except Refused as refused:  # no campaign there
            problems = list(refused.problems)
    if as_json:
        from cok.render.documents import problems_doc

        emit_json(problems_doc(problems))
    elif problems:
        from cok.core.errors import told

        for line in told(problems):
            say(line)
    if checked is not None and checked.campaign is not None and not as_json:
        for waiting in checked.dice_waiting:  # listed, not a problem: the dice of a period still going on
            print(f"dice: {waiting}")
        for line in _results_marked(checked.campaign)[0]:  # docs/confirm.md: for the organiser
            print(line)
    return not problems
