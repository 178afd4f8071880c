"""Setup (contract §4.1): conspiracies join; `begin` seats them and names the first player."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.events import Begin, Conspiracy
from cok.rulesets.no_true_king.rules.loyalty import check_card
from cok.rulesets.no_true_king.rules.outcomes import Begun, Joined
from cok.rulesets.no_true_king.rules.state import Conspirator, Realm
from cok.rulesets.no_true_king.rules.turns import start_placement, waits_text

MAX_PLAYERS = 4


def join(state: Realm, event: Conspiracy) -> Joined:
    if state.phase != "setup":
        raise RuleError(f"conspiracies join before `begin`; the ledger waits for {waits_text(state)}")
    if event.player in state.players:
        raise RuleError(f"{event.player} has already joined")
    if len(state.players) >= MAX_PLAYERS:
        raise RuleError(f"No True King is played by 2 to {MAX_PLAYERS} conspiracies")
    taken = {p.symbol: p.id for p in state.players.values()}
    if event.symbol in taken:
        raise RuleError(f"the {event.symbol} is {taken[event.symbol]}'s symbol; each conspiracy has its own")
    if state.loyalty == "sealed":
        if event.loyalty is not None or event.seal is None:
            raise RuleError("this game's loyalty is sealed: the conspiracy carries only `seal` (see `cok ntk seal`)")
        owner = next((p.id for p in state.players.values() if p.seal == event.seal), None)
        if owner is not None:  # §4.6: a seal names its player, so the second could never unseal
            raise RuleError(
                f"this seal is already {owner}'s: a seal belongs to one conspiracy; "
                f"make {event.player}'s own with `cok ntk seal {event.player} …`"
            )
        card = None
    else:
        if event.seal is not None or event.loyalty is None:
            raise RuleError("this game's loyalty is open: the conspiracy carries only `loyalty`")
        card = check_card(state, list(event.loyalty))
    name = event.name or event.player
    state.players[event.player] = Conspirator(event.player, name, event.symbol, event.seal, card, [""] * 5)
    return Joined(event.player, name, event.symbol, card is None)


def begin(state: Realm, event: Begin) -> Begun:
    if state.phase != "setup":
        raise RuleError(f"the game has already begun; the ledger waits for {waits_text(state)}")
    if len(state.players) < 2:
        raise RuleError(f"No True King needs 2 to {MAX_PLAYERS} conspiracies; {len(state.players)} joined")
    if sorted(event.seats) != sorted(state.players) or len(set(event.seats)) != len(event.seats):
        raise RuleError(f"`seats` names every player once, clockwise: {', '.join(state.players)}")
    if event.first not in event.seats:
        raise RuleError(f"the first player {event.first!r} is not seated")
    state.seats = list(event.seats)
    state.round = 1
    state.first = event.first
    start_placement(state)
    return Begun(tuple(event.seats), event.first)
