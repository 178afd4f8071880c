"""`cok ntk combat`: a combat worked out before it is recorded — both sides' power with the
cards named, the cards still in play, and for either winner the casualties and retreats."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cok.core.errors import RuleError
from cok.render.views import Grid, View
from cok.rulesets.no_true_king.rules.actions import (
    Counts,
    check_move,
    counts_of,
    describe_units,
    draw,
    enters_troops,
    muster,
    take_out,
)
from cok.rulesets.no_true_king.rules.combat import kill, play_cards, retreats_after, sides
from cok.rulesets.no_true_king.rules.outcomes import Sides
from cok.rulesets.no_true_king.rules.overlay import Overlay
from cok.rulesets.no_true_king.rules.places import find_area
from cok.rulesets.no_true_king.rules.spelling import spelled_cards, spelled_muster
from cok.rulesets.no_true_king.rules.state import State


@dataclass(frozen=True)
class Ending:
    winner: str
    loser: str
    kills: dict[str, Counts]
    retreats: tuple[str, ...]  # empty: the loser's troops are all killed
    none_left: bool = False  # retreats exist, but the casualties take every figure that could go


@dataclass(frozen=True)
class Preview:
    sides: Sides
    playable: dict[str, tuple[str, ...]]  # house -> cards not yet played
    holders: dict[str, dict[str, int]]  # house -> player -> cards held
    endings: tuple[Ending, ...]
    stronger: str | None


def preview(
    state: State,
    house: str,
    origin_typed: str,
    to_typed: str,
    units: list[str],
    given: dict[str, str | None],
    active: str | None,
    before: list[dict[str, Any]] | None = None,
) -> Preview:
    """`before`: the actions the resolve takes before its move (a muster, a draw), as the log
    writes them: the combat is fought on the board they leave."""
    work = Overlay(state)  # the combat's changes drafted and dropped: the state is never touched
    for action in before or []:
        if action.get("muster") is not None:
            muster(work, house, spelled_muster(work.board, action["muster"]))
        elif action.get("draw") and (active or work.active):
            draw(work, active or work.active or "", house)
    origin, to = find_area(work.board, origin_typed), find_area(work.board, to_typed)
    group = counts_of(units)
    why = check_move(work, house, origin, to, group)
    if why:
        raise RuleError(f"move {origin} → {to}: {why}")
    defender = enters_troops(work, house, to)
    if defender is None:
        raise RuleError(f"{to} holds no other house's troops: the move is no combat")
    take_out(work, house, origin, group)
    player = active or work.active or (work.seats[0] if work.seats else None)
    if player is None:
        raise RuleError("the game has not begun")
    played = play_cards(work, spelled_cards(work, given), player, (house, defender))
    seen = sides(work, house, to, group, played)
    endings = []
    for winner in (house, defender):
        loser = defender if winner == house else house
        losing = seen.defending if loser == defender else group
        winning = group if winner == house else seen.defending
        kills = {loser: 2, winner: 1}
        for _, card in played:
            other = loser if card.house == winner else winner
            kills[other] += card.swords
            kills[card.house] -= card.towers
        options = tuple(retreats_after(work, loser, to, losing, house, group))
        lost = losing if not options else kill(losing, max(0, kills[loser]))[1]
        none_left = bool(options) and lost == losing
        lost_winner = kill(winning, max(0, kills[winner]))[1]
        endings.append(Ending(winner, loser, {loser: lost, winner: lost_winner}, options, none_left))
    pa, pd = seen.power[house], seen.power[defender]
    playable = {
        h: tuple(c.name for c in work.board.house_cards(h) if c.name not in work.played) for h in (house, defender)
    }
    holders = {h: {p: n for (p, hh), n in work.held.items() if hh == h and n} for h in (house, defender)}
    stronger = house if pa > pd else defender if pd > pa else None
    return Preview(seen, playable, holders, tuple(endings), stronger)


def preview_doc(found: Preview) -> dict[str, Any]:
    s = found.sides
    return {
        "area": s.area,
        "attacker": {"house": s.attacker, "units": _units(s.attacking), "power": s.power[s.attacker]},
        "defender": {"house": s.defender, "units": _units(s.defending), "power": s.power[s.defender], "fort": s.fort},
        "cards_played": [{"player": p, "card": c} for p, c in s.cards],
        "cards_in_play": {h: {"cards": list(c), "held": found.holders[h]} for h, c in found.playable.items()},
        "winner": found.stronger,
        "endings": [
            {
                "winner": e.winner,
                "loser": e.loser,
                "killed": {h: _units(k) for h, k in e.kills.items()},
                "retreats": list(e.retreats),
                "none_left": e.none_left,
            }
            for e in found.endings
        ],
    }


def _units(units: Counts) -> dict[str, int]:
    return dict(zip(("footmen", "knights", "ships"), units, strict=True))


def preview_views(found: Preview) -> list[View | str]:
    s = found.sides
    grid = Grid(f"Combat in {s.area}", [("side", "left"), ("house", "fixed"), ("troops", "left"), ("power", "right")])
    fort = f" (fort +{s.fort})" if s.fort else ""
    grid.add("attacker", s.attacker, describe_units(s.attacking), str(s.power[s.attacker]))
    grid.add("defender", s.defender, describe_units(s.defending) + fort, str(s.power[s.defender]))
    lines: list[View | str] = [grid]
    if s.cards:
        lines.append("Cards played: " + ", ".join(f"{p} {c}" for p, c in s.cards))
    for house, cards in found.playable.items():
        held = ", ".join(f"{p} {n}" for p, n in found.holders[house].items()) or "nobody"
        lines.append(f"{house} cards still in play: {', '.join(cards) or 'none'} (held: {held})")
    lines.append(
        f"{found.stronger} wins on power."
        if found.stronger
        else "A tie: the active player names the winner (--winner)."
    )
    endings = Grid("If…", [("winner", "left"), ("killed", "left"), ("loser retreats to", "left")])
    for e in found.endings:
        killed = "; ".join(f"{h} {describe_units(k)}" for h, k in e.kills.items() if any(k)) or "none"
        endings.add(
            e.winner, killed, "none left to retreat" if e.none_left else ", ".join(e.retreats) or "nowhere: all killed"
        )
    lines.append(endings)
    return lines
