"""Campaign Points and the standings."""

from __future__ import annotations

from dataclasses import dataclass

from cok.rulesets.clash_of_kings.rules.state import Player, State


@dataclass(frozen=True)
class Standing:
    player: Player
    rank: int
    cp: int
    territory_cp: int
    bonus_cp: int
    territories: tuple[str, ...]
    castles: int
    forts: int
    villages: int
    battles: int
    wins: int
    losses: int
    supply_lines: bool
    castle_bonuses: tuple[tuple[str, str], ...] = ()  # (castle, the organiser's bonus text)


def castle_bonuses(state: State, held: list[str]) -> tuple[tuple[str, str], ...]:
    """Castle Bonuses: "a special boon that only the holder of each castle is granted". The
    source names none: they are the organiser's text on the map, shown, never applied."""
    found = ((loc, state.geo.locations[loc].bonus) for loc in held if state.geo.kind(loc) == "castle")
    return tuple((loc, text) for loc, text in found if text)


def standings(state: State) -> list[Standing]:
    """Players ranked by total CP (territory + bonus), highest first; equal totals share
    a rank (1, 2, 2, 4) and are listed by player id."""
    totals = {p: state.total_cp(p) for p in state.players}
    order = sorted(state.players, key=lambda p: (-totals[p], p))
    table = []
    for pid in order:
        held = sorted(state.territories(pid))
        kinds = [state.geo.kind(loc) for loc in held]
        record = state.records[pid]
        table.append(
            Standing(
                player=state.players[pid],
                rank=1 + sum(1 for other in totals.values() if other > totals[pid]),
                cp=totals[pid],
                territory_cp=state.territory_cp(pid),
                bonus_cp=state.bonus.get(pid, 0),
                territories=tuple(held),
                castles=kinds.count("castle"),
                forts=kinds.count("fort"),
                villages=kinds.count("village"),
                battles=record.battles,
                wins=record.wins,
                losses=record.losses,
                supply_lines=state.under_supply_lines(pid),
                castle_bonuses=castle_bonuses(state, held),
            )
        )
    return table
