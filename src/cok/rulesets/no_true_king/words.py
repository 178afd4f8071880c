"""Outcomes in sentences, for `cok log`, the site and a recording's summary. Nothing secret:
a draw names the house, not the card; no loyalty card is told (the standings and the site
show them once the game is over)."""

from __future__ import annotations

from typing import Any

from cok.core.events import EventBase
from cok.core.text import counted
from cok.rulesets.no_true_king.rules.actions import describe_units
from cok.rulesets.no_true_king.rules.outcomes import (
    Begun,
    CardPlayed,
    Drew,
    Exchanged,
    Fought,
    Joined,
    Moved,
    Mustered,
    Outcome,
    Passed,
    Placed,
    Resolved,
    RoundEnded,
    Unsealed,
)
from cok.rulesets.no_true_king.rules.ranking import in_rank_order
from cok.rulesets.no_true_king.rules.state import State


def tell(state: State, outcome: Outcome) -> str:
    """The sentence of an outcome, its players named by name, as the pages speak (issue 35)."""

    def name(player: str) -> str:
        found = state.players.get(player)
        return found.name if found is not None and found.name else player

    text = _result(outcome.result, name)
    if outcome.then is not None:
        text += " " + _then(state, outcome.then)
    return text


def _result(result: Any, name: Any = str) -> str:
    if isinstance(result, Joined):
        how = "a sealed loyalty card" if result.sealed else "an open loyalty card"
        return f"{result.name} joins the game with the {result.symbol} and {how}."
    if isinstance(result, Begun):
        seats = ", ".join(name(s) for s in result.seats)
        return f"The game begins: seats {seats} clockwise; {name(result.first)} is the first player."
    if isinstance(result, Placed):
        return f"{name(result.player)} places an agent on the {_h(result.house)} {result.space} space."
    if isinstance(result, Resolved):
        done = "; ".join(_action(a, name) for a in result.done) or "takes no action"
        after = f"the agent moves up to {_h(result.house)} {result.up}" if result.up else "the agent returns"
        return f"{name(result.player)} resolves the {_h(result.house)} {result.space}: {done}; {after}."
    if isinstance(result, CardPlayed):
        played = f"plays {result.card}" if result.card else "plays no card"
        return f"{name(result.player)} {played} in {_h(result.house)}'s combat in {result.area}."
    if isinstance(result, Exchanged):
        shown = f", revealing {result.reveal[1]} at {result.reveal[0]}" if result.reveal else ""
        return f"{name(result.player)} exchanges loyalty tokens {result.swap[0]} and {result.swap[1]}{shown}."
    if isinstance(result, Passed) and result.placement:
        return f"{name(result.player)} places no agent: the turn passes."
    if isinstance(result, Passed):
        return f"{name(result.player)} keeps their loyalty tokens."
    if isinstance(result, Unsealed):
        return f"{name(result.player)} unseals their loyalty card: it matches its seal and every reveal."
    return str(result)


def _action(done: Any, name: Any = str) -> str:
    if isinstance(done, Mustered):
        parts = [f"a footman in {a}" for a in done.footmen]
        parts += [f"a ship in {sea} (through {through})" for through, sea in done.ships]
        parts += [f"a knight promoted in {a}" for a in done.promoted]
        points = counted(done.points, "point", "points")
        return f"musters {', '.join(parts) or 'nothing'} for {_h(done.house)} ({points})"
    if isinstance(done, Moved):
        flag = ", leaving a flag" if done.flag else ""
        return f"moves {describe_units(done.units)} of {_h(done.house)} from {done.origin} to {done.to}{flag}"
    if isinstance(done, Drew):
        return f"draws a {_h(done.house)} card"
    if isinstance(done, tuple):
        moved, fought = done
        return f"{_action(moved, name)}, a combat: {combat_sentence(fought, name)}"
    return str(done)


def combat_sentence(fought: Fought, name: Any = str) -> str:
    s = fought.sides
    cards = ", ".join(f"{name(p)} plays {c}" for p, c in s.cards)
    fort = f", fort +{s.fort}" if s.fort else ""
    text = (
        f"{_h(s.attacker)} {s.power[s.attacker]} against {_h(s.defender)} {s.power[s.defender]}{fort}"
        f"{' (' + cards + ')' if cards else ''}; {_h(fought.winner)} wins"
    )
    if fought.retreat:
        text += f"; {_h(fought.loser)} retreats to {fought.retreat}"
    elif fought.none_left:
        text += f"; {_h(fought.loser)} loses every figure that fought: none is left to retreat"
    else:
        text += f"; {_h(fought.loser)} has nowhere to retreat"
    losses = [f"{_h(h)} loses {describe_units(k)}" for h, k in fought.kills.items() if any(k)]
    if losses:
        text += "; " + ", ".join(losses)
    for after in fought.after:
        text += f"; then {_action(after, name)}"
    if fought.removed:
        text += f"; Cersei removes {name(fought.removed[2])}'s agent from {_h(fought.removed[0])} {fought.removed[1]}"
    if fought.discard:
        text += f"; Melisandre makes {name(fought.discard[1])} discard a {_h(fought.discard[2])} card"
    return text


def _then(state: State, then: RoundEnded) -> str:
    if then.ranks is not None:
        order = in_rank_order(then.ranks, state.board.houses)
        return f"Round {then.round}'s rankings: {', '.join(f'{then.ranks[h]}. {_h(h)}' for h in order)}."
    if then.over:
        return "The game is over."
    if then.next_first is not None:
        return f"Round {then.round + 1} begins; {then.next_first} is the first player."
    return "Every round is played: the sealed cards are unsealed next."


def _h(house: str) -> str:
    """A house as the board writes it (Greyjoy), in a sentence."""
    return house.capitalize()


def untold(event: EventBase) -> str:
    player = getattr(event, "player", None)
    return f"{event.type} {player}" if player else event.type


def waiting_words(state: State) -> str:
    """What the ledger waits for, in the words of the phone's pages: names, houses as the
    board writes them, no commands (the terminal's `waits_text` names the commands)."""
    from cok.rulesets.no_true_king.rules.turns import waiting_for

    def name(player: str | None) -> str:
        found = state.players.get(player) if player else None
        return found.name if found is not None else str(player)

    said = []
    for wait in waiting_for(state):
        if wait.what == "conspiracy":
            said.append("conspiracies to join (2 to 4), then the organiser to seat the table")
        elif wait.what == "begin":
            said.append("the organiser to seat the table, or another conspiracy to join")
        elif wait.what == "place":
            said.append(f"{name(wait.player)} to place an agent")
        elif wait.what == "resolve":
            agents = ", ".join(f"{h.capitalize()}'s {s}" for h, s in wait.agents)
            said.append(f"{name(wait.player)} to resolve an agent ({agents})")
        elif wait.what == "card":
            said.append(f"{name(wait.player)} to play a card, or none, in the combat in {wait.area}")
        elif wait.what == "exchange":
            said.append(f"{name(wait.player)} to exchange two loyalty tokens or pass")
        elif wait.what == "unseal":
            said.append(f"{name(wait.player)} to unseal their loyalty card")
        else:
            said.append("nothing: the game is over")
    return "; ".join(said)
