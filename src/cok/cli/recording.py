"""Recording from the command line: build the event (a game's own commands give the
service a draft), let the ledger record it, ask at a terminal for any answer the rules need
(else say which option gives it), and show the game's summary of what changed."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer

from cok.cli import options
from cok.core.errors import RuleError
from cok.core.names import normalize
from cok.core.text import in_command_line_words

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.service import Draft, Question, Recording


def ask(need: Question) -> tuple[str, Any]:
    """Ask at the terminal for the choice the rules need: (event field, value)."""
    choices = list(need.options) + (["decline"] if need.decline_field else [])
    typer.echo(in_command_line_words(need.words), err=True)
    by_key = {normalize(c): c for c in choices}
    while True:
        typed = typer.prompt(f"{need.field} ({' / '.join(choices)})", err=True)
        answer = by_key.get(normalize(typed))
        if answer is not None:
            break
        typer.echo(f"choose one of: {', '.join(choices)}", err=True)
    if answer == "decline" and need.decline_field:
        return need.decline_field, False
    return need.field, answer


def ask_numbers(need: Question) -> dict[str, int]:
    """Ask at the terminal for a whole number (0 or more) for each key."""
    typer.echo(need.words, err=True)
    answers = {}
    for key in need.keys:
        while True:
            typed = typer.prompt(f"{need.field} for {key}", err=True).strip()
            if typed.isdigit():
                answers[key] = int(typed)
                break
            typer.echo("a whole number, 0 or more", err=True)
    return answers


def choose_with(need: Question) -> str:
    """How to answer a choice on the command line, each option said once: `choose one with
    --castle NAME: Hardhome, 'Castle Black', …` (quoted as a shell needs), `or --no-occupy`."""
    named = ", ".join(repr(o) if " " in o else o for o in need.options)
    how = f"choose one with --{need.field} NAME: {named}" if need.options else ""
    if need.decline_field:
        how += (", or " if how else "") + f"--no-{need.decline_field}"
    return how


def answer(need: Question, as_json: bool, answers: dict[str, Any]) -> None:
    """Answer the rules' question at a terminal (into `answers`), or refuse saying which
    option answers it; a warning that needs a yes is only said when no one is there."""
    asking = options.interactive() and not as_json
    if need.kind == "repeated":
        if not asking:
            raise RuleError(f"{need.words}: if it really was played twice, record it with --again")
        typer.echo(f"{need.words}.", err=True)
        if not typer.confirm("Record it again?", default=False, err=True):
            raise typer.Exit(1)
        answers["again"] = True
    elif need.kind == "confirm":
        if not asking:
            typer.echo(f"cok: warning: {in_command_line_words(need.words)}", err=True)
        else:
            typer.echo(f"{in_command_line_words(need.words)}.", err=True)
            if not typer.confirm("Record it all the same?", default=False, err=True):
                raise typer.Exit(1)
        answers[need.field] = True
    elif need.kind == "numbers":
        if not asking:
            how = " ".join(f"--{need.field} {key}=N" for key in need.keys)
            raise RuleError(f"{need.words} — e.g. {how}")
        answers[need.field] = ask_numbers(need)
    else:
        if not asking:
            raise RuleError(f"{need.words} — {choose_with(need)}")
        field, value = ask(need)
        answers[field] = value


def record_drafts(
    campaign: Campaign,
    drafts: Sequence[Draft],
    *,
    dry_run: bool,
    as_json: bool,
    no_cache: bool = False,
    again: bool = False,
    answers: dict[str, Any] | None = None,
) -> Recording:
    """Record drafts through the service (as every interface does), asking at a terminal
    for any answer the rules need; show the summary. Who records: $COK_BY, else the login.
    `answers`: what the command's options already answer (`--roll-dice`: roll it for me).
    What follows the write (the club's chat: queued, sent by `cok serve` or `cok notify send`)
    is the service's, as for every interface."""
    from cok.service import Asked, record
    from cok.service.recording import Refusal

    answers = {**(answers or {}), **({"again": True} if again else {})}
    while True:
        try:
            done = record(
                campaign.folder,
                drafts,
                answers=answers,
                dry_run=dry_run,
                use_cache=not no_cache,
                campaign=campaign,
            )
            break
        except Refusal as refused:
            rule = refused.rule
            raise (RuleError(rule.with_hint()) if rule.hint else rule) from None
        except Asked as asked:
            answer(asked.question, as_json, answers)
    _show(done.document if as_json else None, done.lines, done.told[1:], done.written, done.events[0].id)
    for warning in done.warnings:
        typer.echo(f"cok: warning: {warning}", err=True)
    return done


def _show(document: dict[str, Any] | None, lines: list[Any], others: list[str], written: bool, event_id: Any) -> None:
    """The summary: the JSON document, or the report's lines with the events recorded with
    it; a summary that cannot be printed after the write is said, never a failure."""
    try:
        if document is not None:
            options.emit_json(document)
        else:
            from cok.render.output import show
            from cok.render.views import Line

            with_it = [Line.of(f"  {text}") for text in others]
            head = [f"and, as one change, {len(others)} more:"] if others else []
            show(*lines[:1], *head, *with_it, *lines[1:])
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as error:  # the event is in the log: that is a success, whatever the output
        if not written:
            raise
        typer.echo(
            f"cok: recorded as {event_id}, but its summary could not be printed ({error.strerror or error})",
            err=True,
        )
        _quiet_stdout()


def _quiet_stdout() -> None:
    """Send what is left for standard output nowhere, so that Python's own flush at exit
    cannot fail (it would exit 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
    except OSError:
        pass
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until exit
