"""`cok dice`: the campaign's fair dice (docs/dice.md) — every die cok rolled, checked against
its revealed seed or waiting for it; the organiser's `reveal` (a period that ended where its
seed was not at hand) and `lost` (the seed's data folder is gone)."""

from __future__ import annotations

from typing import Annotated

import typer

from cok.cli.options import USUAL, Manner, emit_json, open_valid, reads, refusals, tells

app = typer.Typer(no_args_is_help=False, invoke_without_command=True)


@app.callback()
@refusals
@reads
def dice(ctx: typer.Context, how: Manner = USUAL) -> None:
    """Every die cok rolled: verified from its revealed seed, or waiting for the period to end.

    Example: cok dice
    """
    if ctx.invoked_subcommand is not None:
        return
    from cok.service.queries import dice_document

    opened = open_valid(how.campaign, how.no_cache)
    document = dice_document(opened)  # the document GET /api/dice answers
    rows, problems = document["commitments"], document["problems"]
    if how.as_json:
        emit_json(document)
        return
    if not rows:
        typer.echo("cok has rolled no dice in this campaign (dice typed at the table are in their events)")
    for shown in rows:
        sha = f"sha256 {shown['sha256'][:16]}…"
        typer.echo(f"{shown['period']}: committed on line {shown['line']} ({sha}), seed {shown['seed']}")
        for r in shown["rolls"]:
            faces = " ".join(f"{d}/d{s}" for d, s in zip(r["dice"], r["sides"], strict=False))
            typer.echo(f"  line {r['line']:>4}  {r['what']}: {faces}  — {r['verified']}")
    for p in problems:
        typer.echo(f"{opened.shown}:{p['line']}: {p['message']}", err=True)
    if problems:
        raise typer.Exit(1)


@app.command()
@refusals
@tells
def reveal(how: Manner = USUAL) -> None:
    """Reveal the seed of a period that is over (an organiser's; cok reveals it by itself
    when the event that ends the period is recorded where the seed is kept)."""
    from cok.service.dice import reveal as revealed
    from cok.service.recording import by_name

    event = revealed(open_valid(how.campaign), by_name(None))
    if how.as_json:
        emit_json({"revealed": event.commit, "seed": event.seed})
    else:
        typer.echo(f"the seed of the dice committed in {event.commit} is revealed: `cok check` verifies them")


@app.command()
@refusals
@tells
def lost(
    reason: Annotated[str, typer.Option("--reason", metavar="TEXT", help="Why the seed is lost.")],
    how: Manner = USUAL,
) -> None:
    """Record that the open period's seed is lost (its data folder is gone): only that
    period's dice can no longer be verified, and the next roll commits a new seed."""
    from cok.service.dice import lose
    from cok.service.recording import by_name

    event = lose(open_valid(how.campaign), reason, by_name(None))
    if how.as_json:
        emit_json({"lost": event.commit, "reason": event.reason})
    else:
        typer.echo(f"recorded: the seed of the dice committed in {event.commit} is lost; they cannot be verified")
