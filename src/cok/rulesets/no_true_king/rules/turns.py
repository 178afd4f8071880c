"""Whose turn it is and what the ledger waits for (contract §4.2): placement from the first
player clockwise, resolution gated maester → marshal → lord, then exchanges, unseal, over."""

from __future__ import annotations

from dataclasses import dataclass, field

from cok.core.errors import RuleError
from cok.rulesets.no_true_king.map import SPACES
from cok.rulesets.no_true_king.rules.state import Realm

AGENTS_EACH = 3


@dataclass(frozen=True)
class Wait:
    """One thing the ledger waits for: `what` (an event type) by `player`."""

    what: str
    player: str | None = None
    agents: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (house, space) that may resolve
    free: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # free spaces (placement)
    area: str | None = None  # where the combat is that a card is played in

    def sentence(self) -> str:
        if self.what == "conspiracy":
            return "conspiracies to join (2 to 4: `cok ntk join`), then the seats (`cok ntk begin`)"
        if self.what == "begin":
            return "the seats and the first player (`cok ntk begin --seats P… --first P`), or another conspiracy"
        if self.what == "place":
            return f"{self.player} to place an agent"
        if self.what == "resolve":
            spaces = ", ".join(f"{h} {s}" for h, s in self.agents)
            return f"{self.player} to resolve an agent ({spaces})"
        if self.what == "card":
            return f"{self.player} to play a card, or none, in the combat in {self.area} (`card`)"
        if self.what == "exchange":
            return f"{self.player} to exchange two loyalty tokens or pass"
        if self.what == "unseal":
            return f"{self.player} to unseal their loyalty card"
        return "nothing: the game is over"


def by_default(event: object) -> bool:
    """Whether the ledger recorded the event for a missed deadline (issue 48: `default:`): only
    then may a placement pass or an agent resolve taking no action (docs/no-true-king.md)."""
    return getattr(event, "default", None) is not None


def free_spaces(state: Realm) -> list[tuple[str, str]]:
    return [(h, s) for h in state.board.houses for s in SPACES if (h, s) not in state.agents]


def next_resolver(state: Realm, start: str) -> str | None:
    """From `start` clockwise, the first player with an agent that may resolve."""
    for player in state.clockwise_from(start):
        if state.may_resolve(player):
            return player
    return None


def waiting_for(state: Realm) -> list[Wait]:
    """What the ledger waits for now, in the order the table plays it."""
    phase = state.phase
    if phase == "setup":
        return [Wait("begin")] if len(state.players) >= 2 else [Wait("conspiracy")]
    if phase == "placement":
        return [Wait("place", state.active, free=tuple(free_spaces(state)))]
    if phase == "resolution" and state.active is not None and state.fight_at is not None:
        from cok.rulesets.no_true_king.rules.cards import next_to_play

        playing = next_to_play(state)
        if playing is not None:
            return [Wait("card", playing, area=state.fight_at[1])]
    if phase == "resolution" and state.active is not None:
        return [Wait("resolve", state.active, agents=tuple(sorted(state.may_resolve(state.active))))]
    if phase == "exchanges":
        return [Wait("exchange", state.active)]
    if phase == "unseal":
        return [Wait("unseal", p) for p in state.seats if not state.players[p].unsealed]
    return [Wait("over")]


def waits_text(state: Realm) -> str:
    return "; ".join(w.sentence() for w in waiting_for(state))


def refuse_out_of_turn(state: Realm, what: str, player: str) -> None:
    """Refuse an event of the wrong phase or turn, naming what the ledger waits for."""
    waits = waiting_for(state)
    if not any(w.what == what and (w.player is None or w.player == player) for w in waits):
        if what == "exchange" and any(w.what == "exchange" and w.player == player for w in waits):
            return
        raise RuleError(f"not now: the ledger waits for {waits_text(state)}")


def start_placement(state: Realm) -> None:
    state.phase = "placement"
    state.placed = {p: 0 for p in state.seats}
    state.active = state.first


def after_placement(state: Realm) -> None:
    """Clockwise, one agent a turn, until every player has placed three."""
    assert state.active is not None
    if all(n >= AGENTS_EACH for n in state.placed.values()):
        state.phase = "resolution"
        assert state.first is not None
        state.active = next_resolver(state, state.first)
        return
    player = state.next_seat(state.active)
    while state.placed[player] >= AGENTS_EACH:  # pragma: no cover - every player places 3 in turn
        player = state.next_seat(player)
    state.active = player


def after_resolution(state: Realm) -> bool:
    """The next active player clockwise with an agent that may resolve; False when every
    agent is resolved (the round's rankings come next)."""
    assert state.active is not None
    if not state.agents:
        state.active = None
        return False
    state.active = next_resolver(state, state.next_seat(state.active))
    return state.active is not None
