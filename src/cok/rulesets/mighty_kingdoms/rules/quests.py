"""Wizard's towers and quests (contract 5.7, `advanced: [wizards-towers]`): heroes' quests in
winter, and artefacts changing hands."""

from __future__ import annotations

from cok.core.errors import RuleError
from cok.rulesets.mighty_kingdoms.events import Artefact, Quest
from cok.rulesets.mighty_kingdoms.rules.outcomes import Handed, Quested
from cok.rulesets.mighty_kingdoms.rules.state import ArtefactHeld, State
from cok.rulesets.mighty_kingdoms.rules.summer import find_army
from cok.rulesets.mighty_kingdoms.rules.winter import spending

#: The quest table by roll + bonus: what comes back (the artefact's points band).
QUEST = {1: ("lost", None), 2: ("hurt", None), 3: ("nothing", None), 4: ("artefact", "5-15"), 5: ("artefact", "20-30")}


def quest_bonus(points: int) -> int:
    """The bonus to a quest's roll: "Add 1 to the roll for every full 100 points the hero costs" (5.7)."""
    return points // 100


def quest_result(total: int) -> tuple[str, str | None]:
    return QUEST.get(total, ("artefact", "rare"))


def towers_only(state: State, what: str) -> None:
    if not state.settings.towers:
        raise RuleError(f"{what} is part of the wizards-towers rule, which this campaign does not use")


def towers_near(state: State, player: str) -> list[str]:
    """The wizard's towers a kingdom may send a hero to: those next to a tile it controls (5.7)."""
    return sorted(t for t in state.towers if any(state.control.get(n) == player for n in state.map.neighbours(t)))


def decide_quest(state: State, event: Quest) -> Quested:
    """5.7: a hero sent to a tower next to the kingdom's tiles rolls on the quest table; a hero
    lost or hurt costs its unit (Kings of War), an artefact comes back. Changes nothing."""
    towers_only(state, "a quest")
    player = event.player
    spending(state, player, "a quest")
    tower = event.tower
    if tower not in state.towers:
        known = ", ".join(state.map.label(t) for t in sorted(state.towers)) or "none yet"
        raise RuleError(f"{state.map.label(tower)} is not a wizard's tower (towers: {known})")
    if tower not in towers_near(state, player):
        raise RuleError(f"{player} controls no tile next to the tower {state.map.label(tower)}")
    if (tower, player) in state.quests:
        raise RuleError(f"{player} has already sent a hero to {state.map.label(tower)} this winter")
    army = None
    if event.army is not None:
        army = find_army(state, event.army)
        if army.player != player:
            raise RuleError(f"{army.id} is {army.player}'s army, not {player}'s")
    elif state.settings.kings_of_war:
        raise RuleError("in a kings-of-war campaign the hero comes from an army: give `army`")
    hero = event.hero  # its unit's name in the army's list, as the spelling step found it
    if army is not None and army.units is not None and hero not in army.units:
        raise RuleError(f"{army.id} has no unit {hero!r}; its units: {', '.join(army.units)}")
    who = (army.id if army is not None else player, hero)
    if who in state.heroes:
        raise RuleError(f"{hero} has already been on a quest this winter")
    bonus = quest_bonus(event.points)
    total = event.roll + bonus
    result, points = quest_result(total)
    if event.artefact is not None:
        if result != "artefact":
            raise RuleError(f"a roll of {total} brings back no artefact")
        held = [a for a in state.artefacts.values() if a.holder != "pool" and a.name]
        if any(a.name == event.artefact for a in held):
            raise RuleError(f"the artefact {event.artefact!r} is already held: artefacts are unique in the campaign")
    unit_lost = army_lost = False
    if result in ("lost", "hurt") and army is not None and army.units is not None and state.settings.kings_of_war:
        # a hurt hero's −1 may take its unit to −2: Reform step 4's loss, at once
        unit_lost = result == "lost" or army.strength(hero) - 1 <= -2
        army_lost = unit_lost and len(army.units) == 1
    return Quested(
        player,
        hero,
        army.id if army else None,
        tower,
        total,
        result,
        f"art-{len(state.artefacts) + 1}" if result == "artefact" else None,
        points,
        unit_lost,
        army_lost,
        roll=event.roll,
        hero_points=event.points,
        bonus=bonus,
        name=event.artefact,
    )


def commit_quested(outcome: Quested, state: State) -> None:
    state.quests.add((outcome.tower, outcome.player))
    state.heroes.add((outcome.army or outcome.player, outcome.hero))
    state.tithing_over = True
    army = state.armies.get(outcome.army or "")
    if army is not None and army.units is not None and outcome.result in ("lost", "hurt"):
        if outcome.unit_lost:
            army.units.pop(outcome.hero, None)
            army.changes.pop(outcome.hero, None)
        elif state.settings.kings_of_war:
            army.changes[outcome.hero] = army.changes.get(outcome.hero, 0) - 1
        if outcome.army_lost:
            state.remove_army(army.id)
    if outcome.artefact is not None:
        state.artefacts[outcome.artefact] = ArtefactHeld(
            outcome.artefact, outcome.name, outcome.points or "", outcome.player, outcome.player, state.year
        )


def decide_artefact(state: State, event: Artefact) -> Handed:
    """5.7: an artefact passes to a kingdom that beat its holder in battle or took its capital
    since the last deploy (or the organiser says why), or goes back to the pool."""
    towers_only(state, "an artefact")
    if state.year == 0:
        raise RuleError("artefacts change hands after setup")
    held = state.artefacts.get(event.artefact)
    if held is None:
        known = ", ".join(state.artefacts) or "none yet"
        raise RuleError(f"there is no artefact {event.artefact} (artefacts: {known})")
    if held.holder == "pool":
        raise RuleError(f"{held.id} is back in the pool: it is gone from the ledger")
    receiver = event.to
    if receiver == held.holder:
        raise RuleError(f"{held.id} is already {receiver}'s")
    giver = held.holder
    cause = None if receiver == "pool" else state.causes.get((receiver, giver))
    if receiver != "pool" and cause is None and event.override is None:
        uncaused = RuleError(
            f"the ledger sees no cause for {held.id} to pass from {giver} to {receiver}: since the last "
            f"deploy, {receiver} has neither won a battle against {giver} nor taken {giver}'s capital"
        )
        uncaused.hint = "if the table saw a cause, give the organiser's reason with `override`"
        uncaused.logged = "If the table saw a cause, give the organiser's reason with `override`"
        raise uncaused
    return Handed(held.id, held.name, giver, receiver, cause, event.override)


def commit_handed(outcome: Handed, state: State) -> None:
    state.artefacts[outcome.artefact].holder = outcome.receiver
