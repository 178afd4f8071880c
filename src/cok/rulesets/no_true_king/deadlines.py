"""No True King's deadlines (issue 48, docs/no-true-king.md "Deadlines"): what the ledger waits
for in a round — each conspiracy's turn — and what is recorded when a turn is missed.

A turn (`turn`) is whatever the ledger waits for from one conspiracy (§4.2): a placement, the
resolution of an agent, a card in a combat (asked of players who are not the active one, §4.4),
an exchange or a pass. The default takes as little of the game as the rules leave: the turn
passes with nothing placed, the agent resolves taking no action (it still moves up or returns,
§4.2.2), no card is played (the rules allow none), no tokens are exchanged (a pass). Unsealing
(§4.6) needs the player's own secret: a default can never give it, so it is only told (`none`).
Pure: reads the state, never the clock.
"""

from __future__ import annotations

from typing import Any

from cok.core.deadlines import NONE, Step, Wait
from cok.rulesets.no_true_king.rules.state import State
from cok.rulesets.no_true_king.rules.turns import Wait as Turn
from cok.rulesets.no_true_king.rules.turns import waiting_for

#: The organiser's choice for a missed turn that records the turn passing (see `defaults`).
PASS = "pass"

STEPS = (
    Step(
        "turn",
        "turn",  # said in the log as "no turn from bo by Thu 3 Dec 20:00 (…): bo places no agent: …"
        (PASS, NONE),
        "The turn passes taking nothing from the game: no agent placed, the agent resolves taking no "
        "action and still moves up or returns (§4.2.2), no card played (§4.4: each player 'may' play "
        "one), no exchange (§4.2.4: exchanging is an option). Whatever else a default did would move a "
        "house for a conspiracy that chose nothing.",
    ),
    Step(
        "unseal",
        "unsealed loyalty card",
        (NONE,),
        "Only the player holds the secret of their seal (§4.6): no default can unseal for them, so a "
        "missed unseal is only told to the organisers.",
    ),
)


def waits(state: State) -> list[Wait]:
    """What the ledger waits for from each conspiracy now, as `rules/turns.py` says, each with
    a key new for every turn: the round, the kind of turn and the player, and what tells this
    turn from the player's next one of the same kind (the agent being placed, the agents that
    may resolve, the combat a card is asked for). Setup is the organisers' and has no step."""
    found: list[Wait] = []
    for turn in waiting_for(state):
        if turn.player is None or turn.what in ("conspiracy", "begin", "over"):
            continue
        step = "unseal" if turn.what == "unseal" else "turn"
        found.append(Wait(step, turn.player, turn.sentence(), _key(state, turn)))
    return found


def _key(state: State, turn: Turn) -> str:
    player, what = turn.player, turn.what
    if what == "unseal":
        return f"unseal:{player}"
    head = f"turn:r{state.round}:{what}:{player}"
    if what == "place":
        return f"{head}:{state.placed.get(str(player), 0) + 1}"  # the player's agent being placed
    if what == "resolve":  # the agents that may resolve only shrink or rise a space each turn
        return f"{head}:" + ",".join(f"{h}-{s}" for h, s in turn.agents)
    if what == "card" and state.fight_at is not None:
        mine = ",".join(f"{h}-{s}" for h, s in state.may_resolve(str(state.active)))
        granted = ":granted" if state.won_at is not None else ""
        return f"{head}:{state.active}:{mine}:{state.fight_at[0]}@{state.fight_at[1]}{granted}"
    return head  # an exchange or pass: once a round


def defaults(state: State, wait: Wait, choice: str) -> list[tuple[str, dict[str, Any]]]:
    """The drafts recorded for a missed turn under the organiser's choice, as `cok ntk …` would
    send them: `pass` is a `pass` (placement, exchange), a `resolve` with no actions (the first
    agent of the player's that may resolve, in the board's order of houses) or a `card` of none;
    `none`, or a wait no longer open, records nothing. Never a secret: nothing is unsealed."""
    if choice != PASS or wait.step != "turn":
        return []
    turn = next((t for t in waiting_for(state) if t.player == wait.who and _key(state, t) == wait.key), None)
    if turn is None:
        return []
    player = str(turn.player)
    if turn.what in ("place", "exchange"):
        return [("pass", {"player": player})]
    if turn.what == "card":
        return [("card", {"player": player})]
    if turn.what == "resolve" and turn.agents:
        order = list(state.board.houses)
        house, space = min(turn.agents, key=lambda a: (order.index(a[0]) if a[0] in order else len(order), a[1]))
        return [("resolve", {"player": player, "house": house, "space": space, "actions": []})]
    return []
