"""Fighting Battles: checking a battle, deciding who won, and what the winner occupies."""

from __future__ import annotations

from cok.core.errors import ChoiceNeeded, NumbersNeeded, RuleError
from cok.core.names import unknown
from cok.core.text import counted
from cok.rulesets.clash_of_kings.events import Battle
from cok.rulesets.clash_of_kings.map import CASTLE_CAP
from cok.rulesets.clash_of_kings.rules.attacker import as_brotherhood
from cok.rulesets.clash_of_kings.rules.outcomes import Fought, Occupation
from cok.rulesets.clash_of_kings.rules.state import State
from cok.rulesets.clash_of_kings.rules.weeks import battle_week
from cok.rulesets.clash_of_kings.rules.where import where


def decide_battle(state: State, event: Battle) -> Fought:
    """Everything a battle event must satisfy, and everything it does."""
    a, b = event.players
    if a == b:
        raise RuleError(f"a battle needs two different players, not {a} twice")
    for player in (a, b):
        if player not in state.players:
            raise RuleError(_unknown_player(state, player))
    for field, value in (("winner", event.winner), ("attacker", event.attacker)):
        if value is not None and value not in (a, b):
            raise RuleError(f"{field} {value} did not fight in this battle ({a} v {b})")
    for field, scores in (("vp", event.vp), ("remaining", event.remaining)):
        stray = sorted(set(scores or {}) - {a, b})
        if stray:
            raise RuleError(f"{field} names {', '.join(stray)}, who did not fight in this battle")
    stray = sorted(set(event.brotherhood) - {a, b})
    if stray:
        raise RuleError(f"brotherhood names {', '.join(stray)}, who did not fight in this battle")
    brotherhood = as_brotherhood(state, (a, b), event.brotherhood)

    week = battle_week(state, event.week)
    if event.points is not None and event.points > state.limit_of(week):
        raise RuleError(f"{event.points} points is over week {week}'s points limit of {state.limit_of(week)}")
    _remaining_within_the_armies(state, event, week)
    mode = event.mode  # names are the map's and the campaign's own: `rules/spelling.py`
    location = event.location
    if state.geo.locations[location].is_region:
        raise RuleError(f"{location} is a region: battles are fought over locations that can be occupied")

    found = where(state, a, b, brotherhood, event.attacker)
    if found.decided_by == "roll-needed":
        raise ChoiceNeeded(
            f"{a} and {b} hold {counted(len(state.territories(a)), 'territory', 'territories')} each: they roll off, "
            "and the battle must name the roll's winner as `attacker`",
            "attacker",
            [a, b],
        )
    legal = found.locations or []
    if event.override is None and location not in legal:
        chooser = found.attacker or "either player"
        shown = ", ".join(legal) if legal else "none — only an organiser can place this battle"
        illegal = RuleError(f"{location} is not a legal location for {chooser} (legal: {shown})")
        illegal.hint = "an organiser may rule otherwise: `override` REASON"
        raise illegal

    winner, won_by = decide_winner(event, found.attacker)
    _agrees_with_the_score(event, winner)
    loser = None if winner is None else (b if winner == a else a)
    occupation = decide_occupation(state, winner, location, brotherhood, event.abandon, event.occupy)
    return Fought(
        week=week,
        players=(a, b),
        location=location,
        attacker=found.attacker,
        defender=found.defender,
        decided_by=found.decided_by,
        winner=winner,
        loser=loser,
        won_by=won_by,
        occupation=occupation,
        cp=_cp_changes(state, winner, location, occupation),
        brotherhood=brotherhood,
        override=event.override,
        vp=event.vp,
        remaining=event.remaining,
        mode=mode,
        points=event.points,
    )


def _unknown_player(state: State, player: str) -> str:
    return unknown(player, state.players, "player")


def decide_winner(event: Battle, attacker: str | None) -> tuple[str | None, str]:
    """Tied Games: more Victory Points wins; then "the tied player with the most points
    remaining on the battlefield"; "if the game is still tied, the Attacking player". Equal
    victory points without the points remaining is not decided: they are asked for, never
    guessed. With no attacker (both Brotherhood) a tie is a draw."""
    if event.winner is not None:
        return event.winner, "result"
    a, b = event.players
    if event.vp is None:
        raise RuleError("give `winner`, or both players' victory points with `vp`, to decide it")
    if set(event.vp) != {a, b}:
        raise RuleError(f"`vp` must give the victory points of both {a} and {b}")
    if event.vp[a] != event.vp[b]:
        return (a if event.vp[a] > event.vp[b] else b), "victory points"
    if event.remaining is None:
        if attacker is None:
            return None, "draw"
        raise NumbersNeeded(
            f"{a} and {b} tied on victory points ({event.vp[a]}–{event.vp[b]}): the tie goes to the player "
            "with more points remaining on the battlefield, and only a tie on both to the attacker; give "
            "both players' points remaining (`remaining`) or the `winner`",
            "remaining",
            [a, b],
            logged="A battle recorded before cok decided ties this way: void it (`cok void {ref}`) and record it "
            "again with both players' points remaining or the winner",
        )
    if event.remaining is not None:
        if set(event.remaining) != {a, b}:
            raise RuleError(f"`remaining` must give the points remaining of both {a} and {b}")
        if event.remaining[a] != event.remaining[b]:
            return (a if event.remaining[a] > event.remaining[b] else b), "points remaining"
    if attacker is None:
        return None, "draw"
    return attacker, "attacker"


def _remaining_within_the_armies(state: State, event: Battle, week: int) -> None:
    """Tied Games: points remaining on the battlefield are what is left of an army of at
    most the battle's points (else the week's points limit): more cannot be (issue #29)."""
    cap = event.points if event.points is not None else state.limit_of(week)
    what = f"the battle's {cap} points" if event.points is not None else f"week {week}'s points limit of {cap}"
    for who, left in (event.remaining or {}).items():
        if left > cap:
            raise RuleError(f"{who} cannot have {left} points remaining: that is more than {what} (`remaining`)")


def _agrees_with_the_score(event: Battle, winner: str | None) -> None:
    """A `winner` with fewer victory points than the loser contradicts the score: refused
    unless an organiser's `override` gives the reason."""
    vp = event.vp or {}
    loser = next((p for p in event.players if p != winner), None)
    if event.winner is None or loser is None or event.override or not {event.winner, loser} <= set(vp):
        return
    if vp[event.winner] < vp[loser]:
        contradicted = RuleError(
            f"{event.winner} is given as the winner with {vp[event.winner]} victory points against {loser}'s "
            f"{vp[loser]}: correct the score or the winner"
        )
        contradicted.hint = "an organiser may rule otherwise: `override` REASON"
        contradicted.logged = (
            "A battle recorded before cok checked this: void it (`cok void {ref}`) and record it again with --override"
        )
        raise contradicted


def decide_occupation(
    state: State,
    winner: str | None,
    location: str,
    brotherhood: tuple[str, ...],
    abandon: str | None,
    occupy: bool,
) -> Occupation:
    """Occupying Territory, in order: the Brotherhood, already held, My last territory!,
    Supply Lines, the castle cap, then the winner's crest goes on the location."""
    geo = state.geo
    if winner is None:
        return _unchanged(abandon, occupy, "draw", "the battle was a draw")
    if winner in brotherhood:
        return _unchanged(abandon, occupy, "brotherhood", f"{winner} fought as the Brotherhood Without Banners")
    holder = state.holder.get(location)
    if holder == winner:
        return _unchanged(abandon, occupy, "already-held", f"{location} is already {winner}'s")
    if holder is not None and len(state.territories(holder)) == 1:
        return _unchanged(
            abandon, occupy, "last-territory", f"{location} is {holder}'s last territory", previous=holder
        )

    value = geo.value(location)
    mine = state.territories(winner)
    abandoned: str | None = None
    reason: str | None = None
    if state.under_supply_lines(winner):
        options = sorted(loc for loc in mine if geo.value(loc) >= value)
        if not occupy:
            if abandon is not None:
                raise RuleError("give either `abandon` or `occupy: false`, not both")
            return Occupation(False, unchanged="declined")
        if abandon is None:
            raise ChoiceNeeded(
                f"{winner} leads by 10 CP or more and is under supply lines: to occupy {location} "
                f"{winner} must abandon a location worth at least {value} CP "
                f"({', '.join(options) or 'none held'}), or decline with `occupy: false`",
                "abandon",
                options,
                decline=True,
            )
        abandoned = _own(state, winner, abandon)
        if geo.value(abandoned) < value:
            raise RuleError(
                f"under supply lines {winner} must abandon a location worth at least {value} CP "
                f"to occupy {location}; {abandoned} is worth {geo.value(abandoned)} "
                f"(choose from: {', '.join(options) or 'none held'})"
            )
        reason = "supply lines"
    elif not occupy:
        raise RuleError(f"`occupy: false` is only for a winner under supply lines, and {winner} is not")

    if geo.kind(location) == "castle":
        # A supply-lines abandon is worth at least a castle's 10 CP, so it already made room.
        castles = [c for c in state.castles_of(winner) if c != abandoned]
        if len(castles) >= CASTLE_CAP:
            if abandon is None:
                raise ChoiceNeeded(
                    f"{winner} already holds {CASTLE_CAP} castles ({', '.join(castles)}): to occupy "
                    f"{location}, {winner} must abandon one of them",
                    "abandon",
                    castles,
                )
            abandoned = _own(state, winner, abandon)
            if abandoned not in castles:
                raise RuleError(
                    f"{winner} must abandon one of the castles {', '.join(castles)} "
                    f"to occupy a fourth; {abandoned} is not one of them"
                )
            reason = "castle cap"
    if abandon is not None and abandoned is None:
        raise RuleError(
            f"nothing calls for abandoning a location: {winner} is not under supply lines "
            "and would not hold more than three castles"
        )
    return Occupation(True, previous=holder, abandoned=abandoned, abandon_reason=reason)


def _own(state: State, player: str, location: str) -> str:
    if state.holder.get(location) != player:
        held = ", ".join(sorted(state.territories(player)))
        raise RuleError(f"{player} cannot abandon {location}, which is not theirs (they hold {held})")
    return location


def _unchanged(abandon: str | None, occupy: bool, why: str, words: str, previous: str | None = None) -> Occupation:
    if abandon is not None:
        raise RuleError(f"nothing is occupied ({words}), so there is nothing to abandon")
    if not occupy:
        raise RuleError(f"nothing is occupied ({words}), so `occupy: false` does not apply")
    return Occupation(False, previous=previous, unchanged=why)


def _cp_changes(state: State, winner: str | None, location: str, occupation: Occupation) -> dict[str, int]:
    if not occupation.occupied or winner is None:
        return {}
    geo = state.geo
    change = {winner: geo.value(location)}
    if occupation.abandoned is not None:
        change[winner] -= geo.value(occupation.abandoned)
    if occupation.previous is not None:
        change[occupation.previous] = change.get(occupation.previous, 0) - geo.value(location)
    return change
