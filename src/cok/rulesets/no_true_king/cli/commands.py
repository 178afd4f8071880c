"""The No True King commands (`cok ntk …`, contract §5): each parses, asks the ledger,
renders. A few rule fragments are still here, to move into the rules and intents: the seats
named once each (`begin`), who holds the area a `resolve` moves into, the seal a card
unseals against."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from cok.cli.basics import emit_json, open_valid
from cok.cli.drafts import record_given
from cok.cli.options import (
    USUAL,
    DisplayNameOpt,
    Manner,
    NoteOpt,
    complete,
    reads,
    records,
    refusals,
    said,
    showing,
    tells,
    words,
)
from cok.core.dice import ROLL
from cok.core.errors import RuleError

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.rulesets.no_true_king.rules.state import State

app = typer.Typer(no_args_is_help=True)
RULESET = "no-true-king"
WORDS = {"ignore_unknown_options": True, "allow_extra_args": True}

Player = Annotated[
    str, typer.Argument(metavar="PLAYER", help="The player's id (or name).", autocompletion=complete("player"))
]
House = Annotated[
    str,
    typer.Argument(
        metavar="HOUSE", help="baratheon, stark, lannister, greyjoy or tyrell.", autocompletion=complete("house")
    ),
]
Space = Annotated[
    str, typer.Argument(metavar="SPACE", help="maester, marshal or lord.", autocompletion=complete("space"))
]
Loyalty = Annotated[
    tuple[str, str, str, str, str] | None,
    typer.Option("--loyalty", metavar="H H H H H", help="The card: houses at 1, 2, 3, 4, then the left-over token."),
]


def _open(how: Manner) -> Campaign:
    return open_valid(how.campaign, how.no_cache).require(RULESET, "see `cok --help`")


def _show(*views: Any) -> None:
    from cok.render.output import show

    show(*views)


_record = record_given  # the event as typed, built by the game's intents and recorded through the service


def _player(state: State, typed: str) -> str:
    from cok.rulesets.no_true_king.rules.places import find_player

    return find_player(state, typed)


def _houses(state: State, typed: tuple[str, ...] | list[str]) -> list[str]:
    from cok.rulesets.no_true_king.rules.places import find_house

    return [find_house(state.board, h) for h in typed]


@app.command()
@refusals
@records
def join(
    player: Annotated[str, typer.Argument(help="The player's id: lowercase letters, digits, '-' and '_'.")],
    symbol: Annotated[str, typer.Option("--symbol", metavar="S", help="crown, torch, helm or gauntlet.")],
    seal: Annotated[str | None, typer.Option("--seal", metavar="HEX", help="The seal `cok ntk seal` made.")] = None,
    loyalty: Loyalty = None,
    name: DisplayNameOpt = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """A conspiracy joins, with a sealed loyalty card (--seal) or an open one (--loyalty).

    Example: cok ntk join ana --symbol crown --seal "$(cok ntk seal ana baratheon stark lannister greyjoy tyrell
    --seal-only)"
    """
    fields = {"player": player, "name": name, "symbol": symbol, "seal": seal, "loyalty": loyalty, "note": note}
    _record(_open(how), "conspiracy", fields, how)


@app.command()
@refusals
@tells
def seal(
    player: Annotated[str, typer.Argument(help="The player's id, as they will join.")],
    houses: Annotated[list[str], typer.Argument(metavar="H H H H H", help="Ranks 1–4, then the left-over token.")],
    seal_only: Annotated[bool, typer.Option("--seal-only", help="Print only the seal (for `join --seal`).")] = False,
    how: Manner = USUAL,
) -> None:
    """Make a secret and the seal of a loyalty card; print both, and keep the secret in your
    data folder ($COK_DATA_DIR moves it), never in the campaign.

    Example: cok ntk seal ana baratheon stark lannister greyjoy tyrell
    """
    from cok.rulesets.no_true_king import sealbox
    from cok.rulesets.no_true_king.rules.loyalty import check_card, seal_of

    state = _seal_state(how.campaign)
    card = check_card(state, _houses(state, houses))
    secret = sealbox.new_secret()
    sealed = seal_of(player, card, secret)
    kept = sealbox.keep(sealed, player, card, secret)
    if how.as_json:
        emit_json({"player": player, "seal": sealed, "secret": secret, "kept": str(kept)})
    elif seal_only:
        typer.echo(sealed)
    else:
        typer.echo(f"seal:   {sealed}\nsecret: {secret}\nkept in {kept}; keep the secret too, to unseal elsewhere.")


def _seal_state(campaign: str | None) -> State:
    """The campaign's state when there is one here; else the shipped board's (a player may
    seal on a machine without the campaign)."""
    from cok.core.errors import Refused

    try:
        found: State = _open(Manner(campaign)).state
        return found
    except Refused:
        if campaign:
            raise
    from cok.rulesets.no_true_king import RULESET as GAME
    from cok.rulesets.no_true_king.rules.apply import initial_state

    shipped = GAME.builtin_map()
    return initial_state(GAME.load_map(shipped.read_text(encoding="utf-8"), str(shipped)), "sealed")


@app.command(context_settings=WORDS, options_metavar="--seats P… (--first P | --roll) [OPTIONS]")
@refusals
@records
@words(
    ("--seats P…", "Every player once, clockwise from any of them."),
    ("--first P", "The first player (or --roll)."),
)
def begin(
    ctx: typer.Context,
    roll: Annotated[bool, typer.Option("--roll", help="Choose the first player at random.")] = False,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Seat the players clockwise (--seats P…) and choose the first player (--first P or --roll).

    Example: cok ntk begin --seats ana bo cy --first bo
    """
    from cok.rulesets.no_true_king.cli.phrases import split

    _, given = split(list(ctx.args), said(begin))
    opened = _open(how)
    state = opened.state
    seats = [_player(state, p) for typed in given.all("seats") for w in typed for p in w.split(",") if p]
    first = given.one("first")
    if (first is None) == (not roll):
        raise RuleError("choose the first player: --first P, or --roll for a random one")
    if roll and not seats:
        raise RuleError("--seats P… names every player once, clockwise")
    fields = {"seats": seats, "first": first, "note": note}
    rolled = {ROLL: True} if roll else None
    _record(opened, "begin", fields, how, answers=rolled)


@app.command()
@refusals
@records
def place(player: Player, house: House, space: Space, note: NoteOpt = None, how: Manner = USUAL) -> None:
    """Place an agent on an empty action space.

    Example: cok ntk place ana stark maester
    """
    fields = {"player": player, "house": house, "space": space, "note": note}
    _record(_open(how), "place", fields, how)


def _resolve_words(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion inside `resolve`'s words: the conspiracy, the house, the space, then
    the areas after --move, --muster, --promote and --retreat, units, houses, players (#29)."""
    from cok.rulesets.no_true_king.cli.phrases import UNIT_WORDS, next_kind

    typed = [*(ctx.params.get("given") or ()), *ctx.args]
    kind = next_kind(typed)
    if kind is None:
        return []
    if kind == "unit":
        return [u for u in UNIT_WORDS if u.startswith(incomplete.casefold())]
    pair = kind.endswith("=")
    offered = complete(kind.rstrip("="))(ctx, incomplete)
    return [f"{name}=" for name in offered] if pair else offered


@app.command(context_settings=WORDS, options_metavar="PLAYER HOUSE SPACE [ACTIONS…] [COMBAT…] [OPTIONS]")
@refusals
@records
@words(
    ("--muster AREA=UNITS…", "Muster: AREA=footman, AREA=ship:SEA (several: AREA=footman,ship:SEA)."),
    ("--promote AREA…", "Muster: a footman promoted to a knight in each area."),
    ("--move FROM TO UNITS…", "Move units, e.g. --move Winterfell 'Moat Cailin' footman 2 knights."),
    ("--draw", "Draw a house card."),
    ("--card PLAYER=CARD", "A card played in the combat (once per player)."),
    ("--winner HOUSE", "The winner of a tied combat."),
    ("--retreat AREA", "Where the loser retreats."),
    ("--remove SPACE", "Cersei Lannister: the Lannister agent removed."),
    ("--discard PLAYER=HOUSE", "Melisandre: the opponent and the house of the card discarded."),
    ("--then-muster AREA=UNITS…", "A granted muster (Jaime)."),
    ("--then-promote AREA…", "A granted muster's promotions."),
    ("--then-move FROM TO UNITS…", "A granted move (Asha)."),
    ("--then-draw", "A granted draw."),
    ("--then-combat", "A granted move into troops, with no card played."),
    ("--then-card PLAYER=CARD", "A card played in the granted move's combat."),
    ("--then-winner HOUSE", "The winner of the granted move's tied combat."),
    ("--then-retreat AREA", "Where the granted move's loser retreats."),
)
def resolve(
    ctx: typer.Context,
    given: Annotated[list[str] | None, typer.Argument(hidden=True, autocompletion=_resolve_words)] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Resolve an agent: PLAYER HOUSE SPACE, then its actions in the order taken —
    --muster AREA=footman[,ship:SEA]… --promote AREA…, --move FROM TO UNITS…, --draw — and,
    for a move into another house's troops, --card PLAYER=CARD (each), --winner HOUSE (a tie),
    --retreat AREA, and the cards' effects: --then-move/--then-muster (Asha, Jaime; a granted
    move into troops takes --then-combat or --then-card/--then-winner/--then-retreat),
    --remove SPACE (Cersei), --discard PLAYER=HOUSE (Melisandre).

    Example: cok ntk resolve ana stark maester --move Winterfell 'Moat Cailin' footman knight
    """
    from cok.rulesets.no_true_king.cli.phrases import COMMON, actions, combat, split

    positional, words = split([*(given or []), *ctx.args], said(resolve) | COMMON)
    if len(positional) != 3:
        raise RuleError("resolve takes PLAYER HOUSE SPACE, then its actions (see --help)")
    opened = _open(how)
    player, house, space = positional
    fields = {"player": player, "house": house, "space": space, "actions": actions(words), "combat": combat(words)}
    _record(opened, "resolve", {**fields, "note": note}, how)


@app.command(context_settings=WORDS, options_metavar="HOUSE FROM TO UNITS… [--card PLAYER=CARD…] [OPTIONS]")
@refusals
@reads
@words(
    ("--card PLAYER=CARD", "A card played (once per player)."),
    ("--player P", "The active player, who plays cards first (default: whose turn it is)."),
)
def combat(ctx: typer.Context, how: Manner = USUAL) -> None:
    """Before recording a move into another house's troops: HOUSE FROM TO UNITS… [--card
    PLAYER=CARD…] shows each side's power, the cards still in play, the casualties and the
    legal retreats, for either winner.

    Example: cok ntk combat stark 'Moat Cailin' 'The Twins' footman knight --card ana='Robb Stark'
    """
    from cok.rulesets.no_true_king.cli.phrases import cards, split, units
    from cok.rulesets.no_true_king.preview import preview, preview_doc, preview_views

    positional, words = split(list(ctx.args), said(combat))
    if len(positional) < 4:
        raise RuleError("combat takes HOUSE FROM TO UNITS…, e.g. combat stark Winterfell 'Moat Cailin' footman")
    opened = _open(how)
    state = opened.state
    (hid,) = _houses(state, [positional[0]])
    found = preview(state, hid, positional[1], positional[2], units(positional[3:]), cards(words), words.one("player"))
    if how.as_json:
        emit_json(preview_doc(found))
    else:
        _show(*preview_views(found))


@app.command()
@refusals
@records
def exchange(
    player: Player,
    a: Annotated[str, typer.Argument(metavar="A", help="A position: 1, 2, 3, 4 or left.")],
    b: Annotated[str, typer.Argument(metavar="B", help="The other position.")],
    reveal: Annotated[
        str | None,
        typer.Option(
            "--reveal",
            metavar="POS[=HOUSE]",
            help="The token revealed: its position after the swap (and its house; else read from your card).",
        ),
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Swap two loyalty tokens and reveal one (end of a round).

    Example: cok ntk exchange ana 2 left --reveal 2
    """
    from cok.rulesets.no_true_king.reveal import revealed_house

    opened = _open(how)
    state = opened.state
    pid = _player(state, player)
    shown: dict[str, str] | None = None
    if reveal is not None:
        position, eq, house = reveal.partition("=")
        house = house.strip() if eq else revealed_house(state, pid, a, b, position.strip())
        shown = {position.strip(): house}
    fields = {"player": pid, "swap": [a, b], "reveal": shown, "note": note}
    _record(opened, "exchange", fields, how)


@app.command(name="card")
@refusals
@records
def card_(
    player: Player,
    card: Annotated[str | None, typer.Argument(help="The card played (none: plays no card).")] = None,
    house: Annotated[
        str | None, typer.Option("--house", metavar="H", help="The active player's: the house it moves.")
    ] = None,
    to: Annotated[
        str | None, typer.Option("--to", metavar="AREA", help="The active player's: the area it enters.")
    ] = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Play a card, or none, before a combat is resolved, in turn from the active player, who
    opens it with --house and --to (as each phone plays its own at the table).

    Example: cok ntk card ana --house stark --to Karhold "Robb Stark"; cok ntk card bo
    """
    fields = {"player": player, "card": card, "house": house, "to": to, "note": note}
    _record(_open(how), "card", fields, how)


@app.command(name="pass")
@refusals
@records
def pass_(player: Player, note: NoteOpt = None, how: Manner = USUAL) -> None:
    """Keep your loyalty tokens as they are (end of a round).

    Example: cok ntk pass bo
    """
    fields = {"player": player, "note": note}
    _record(_open(how), "pass", fields, how)


@app.command()
@refusals
@records
def unseal(
    player: Player,
    secret: Annotated[
        str | None, typer.Option("--secret", help="The secret `seal` printed (else the kept one).")
    ] = None,
    loyalty: Loyalty = None,
    note: NoteOpt = None,
    how: Manner = USUAL,
) -> None:
    """Reveal a sealed loyalty card after the last round (reads the secret kept by `seal`).

    Example: cok ntk unseal ana
    """
    from cok.rulesets.no_true_king import sealbox

    opened = _open(how)
    state = opened.state
    pid = _player(state, player)
    card = _houses(state, loyalty) if loyalty else None
    if card is None or secret is None:
        kept = sealbox.find(state.players[pid].seal or "")
        if kept is None:
            raise RuleError(
                f"no secret for {pid}'s seal is kept on this machine: "
                "give --secret and --loyalty as `seal` printed them"
            )
        card = card or kept[0]
        secret = secret or kept[1]
    fields = {"player": pid, "loyalty": card, "secret": secret, "note": note}
    _record(opened, "unseal", fields, how)


@app.command()
@refusals
@reads
def status(how: Manner = USUAL) -> None:
    """The round, the first player, the phase, whose turn it is, what the ledger waits for and when it is due.

    Example: cok ntk status --json
    """
    opened = _open(how)
    if how.as_json:
        from cok.service.queries import read

        emit_json(read(opened, "status"))
        return
    from cok.core.deadlines import BadNow, now
    from cok.rulesets.no_true_king.views import status_views
    from cok.service.deadlines import pending

    try:
        at = now()  # COK_NOW: the due times judged at the ledger's clock (issue 48)
    except BadNow as error:
        raise RuleError(str(error)) from None
    _show(*status_views(opened.name, opened.state, at, pending(opened)))


def _board(opened: Campaign, doc: Any) -> None:
    from cok.rulesets.no_true_king.views import board_grid

    _show(board_grid(doc["areas"]))


def _houses_table(opened: Campaign, doc: Any) -> None:
    from cok.rulesets.no_true_king.views import houses_grid

    _show(houses_grid(doc["houses"]))


board = app.command()(
    showing(
        "board",
        """Per area: the house that controls it, its footmen, knights, ships and flag.

    Example: cok ntk board
    """,
        _open,
        _board,
    )
)
houses = app.command()(
    showing(
        "houses",
        """Per house: ranking, crowns, castles, towns, barrels, troops, and cards held by whom.

    Example: cok ntk houses
    """,
        _open,
        _houses_table,
    )
)
