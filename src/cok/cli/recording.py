"""Recording from the command line: build the event, let the ledger record it, ask at a
terminal for any choice the rules need, and show the game's summary of what changed."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import typer

from cok.cli import options
from cok.core.errors import RuleError
from cok.core.names import normalize
from cok.core.text import in_command_line_words

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.errors import ChoiceNeeded, NumbersNeeded
    from cok.core.events import EventBase
    from cok.core.ledger import Recorded

Build = Callable[[dict[str, Any]], "EventBase"]


def ask(need: ChoiceNeeded) -> tuple[str, Any]:
    """Ask at the terminal for the choice the rules need: (event field, value)."""
    choices = list(need.options) + (["decline"] if need.decline else [])
    typer.echo(str(need), err=True)
    by_key = {normalize(c): c for c in choices}
    while True:
        typed = typer.prompt(f"{need.field} ({' / '.join(choices)})", err=True)
        answer = by_key.get(normalize(typed))
        if answer is not None:
            break
        typer.echo(f"choose one of: {', '.join(choices)}", err=True)
    if answer == "decline":
        return need.decline_field, False
    return need.field, answer


def ask_numbers(need: NumbersNeeded) -> dict[str, int]:
    """Ask at the terminal for a whole number (0 or more) for each key."""
    typer.echo(str(need), err=True)
    answers = {}
    for key in need.keys:
        while True:
            typed = typer.prompt(f"{need.field} for {key}", err=True).strip()
            if typed.isdigit():
                answers[key] = int(typed)
                break
            typer.echo("a whole number, 0 or more", err=True)
    return answers


def record_and_show(
    campaign: Campaign,
    build: Build,
    *,
    dry_run: bool,
    as_json: bool,
    no_cache: bool = False,
    also: Sequence[EventBase] = (),
    again: bool = False,
) -> Recorded:
    """Record an event, asking at a terminal for any choice the rules need; show the summary.
    `also`: events recorded with it as one change (all of them or none), told after it.
    `again`: record it even if it repeats an event recorded before (else asked, or refused)."""
    from cok.core.errors import ChoiceNeeded, NumbersNeeded, Repeated
    from cok.core.ledger import record_all

    answers: dict[str, Any] = {}
    built = validated(campaign, build)
    while True:
        try:
            done, *others = record_all(
                campaign, [built(answers), *also], dry_run=dry_run, use_cache=not no_cache, again=again
            )
            break
        except Repeated as repeated:
            if not options.interactive() or as_json:
                raise RuleError(f"{repeated}: if it really was played twice, record it with --again") from None
            typer.echo(f"{repeated}.", err=True)
            if not typer.confirm("Record it again?", default=False, err=True):
                raise typer.Exit(1) from None
            again = True
        except NumbersNeeded as need:
            if not options.interactive() or as_json:
                how = " ".join(f"--{need.field} {key}=N" for key in need.keys)
                raise RuleError(f"{need} — e.g. {how}") from None
            answers[need.field] = ask_numbers(need)
        except ChoiceNeeded as need:
            if not options.interactive() or as_json:
                flag = f"--{need.field}"
                how = " or ".join(f"{flag} {o!r}" if " " in o else f"{flag} {o}" for o in need.options)
                if need.decline:
                    how += (" or " if how else "") + f"--no-{need.decline_field}"
                raise RuleError(f"{need} — choose with {how}") from None
            need.args = (in_command_line_words(str(need)),)
            field, value = ask(need)
            answers[field] = value
    report = campaign.ruleset.report(done)
    try:
        if as_json:
            together = [o.event.model_dump(mode="json", exclude_none=True) for o in others]
            options.emit_json({**report.document, **({"together_with": together} if others else {})})
        else:
            from cok.render.output import show
            from cok.render.views import Line

            with_it = [Line.of(f"  {o.text}") for o in others]
            head = [f"and, as one change, {len(others)} more:"] if others else []
            show(*report.lines[:1], *head, *with_it, *report.lines[1:])
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as error:  # the event is in the log: that is a success, whatever the output
        if not done.written:
            raise
        typer.echo(
            f"cok: recorded as {done.event.id}, but its summary could not be printed ({error.strerror or error})",
            err=True,
        )
        _quiet_stdout()
    return done


def _quiet_stdout() -> None:
    """Send what is left for standard output nowhere, so that Python's own flush at exit
    cannot fail (it would exit 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until exit


def validated(campaign: Campaign, build: Build) -> Build:
    """Turn a pydantic error from command-line values into a plain refusal."""
    from pydantic import ValidationError

    from cok.core.events import EventBase
    from cok.core.log import event_types
    from cok.core.validation import describe

    def wrapped(answers: dict[str, Any]) -> EventBase:
        try:
            return build(answers)
        except ValidationError as exc:
            models = {m.__name__: m for m in event_types(campaign.ruleset).values()}
            raise RuleError("; ".join(describe(exc, models.get(exc.title, EventBase)))) from None

    return wrapped
