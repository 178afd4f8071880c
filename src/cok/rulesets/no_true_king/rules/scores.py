"""The end of the game (contract §4.6): each player's points, and the winner with every
tie-break — fewest revealed tokens, most cards of the first-ranked houses, then seats."""

from __future__ import annotations

from dataclasses import dataclass

from cok.rulesets.no_true_king.rules.loyalty import score
from cok.rulesets.no_true_king.rules.state import State


@dataclass(frozen=True)
class Standing:
    player: str
    score: int | None
    revealed: int
    cards: dict[str, int]
    rank: int | None
    decided_by: str | None  # what put this player ahead of the next one


def rank_groups(ranks: dict[str, int]) -> list[list[str]]:
    """The houses by rank, houses sharing a rank together."""
    return [[h for h, r in ranks.items() if r == rank] for rank in sorted(set(ranks.values()))]


def next_first(state: State) -> str:
    """Who would be first player if there were another round."""
    assert state.first is not None
    return state.next_seat(state.first)


def final_standings(state: State) -> list[Standing]:
    """The players in order: scores once every card is known, with the deciding tie-break."""
    players = state.players
    revealed = {p: sum(1 for h in players[p].shown if h) for p in state.seats or players}
    held = {p: state.cards_held(p) for p in players}
    if state.phase != "over":
        return [Standing(p, None, revealed[p], held[p], None, None) for p in (state.seats or list(players))]
    groups = rank_groups(state.ranks)
    leader = next_first(state)
    distance = {p: state.clockwise_from(leader).index(p) for p in state.seats}
    scores = {p: score(players[p].card or [], state.ranks) for p in state.seats}

    def key(p: str) -> tuple[int, ...]:
        by_rank = tuple(-sum(held[p].get(h, 0) for h in group) for group in groups)
        return (-scores[p], revealed[p], *by_rank, distance[p])

    order = sorted(state.seats, key=key)
    reasons = ["points", "fewer revealed tokens"]
    reasons += [f"more cards of {' and '.join(g)}" for g in groups]
    reasons.append("nearer the next first player")
    standings = []
    for i, p in enumerate(order):
        decided = None
        if i + 1 < len(order):
            mine, theirs = key(p), key(order[i + 1])
            first_diff = next(j for j in range(len(mine)) if mine[j] != theirs[j])
            decided = reasons[first_diff]
        standings.append(Standing(p, scores[p], revealed[p], held[p], i + 1, decided))
    return standings
