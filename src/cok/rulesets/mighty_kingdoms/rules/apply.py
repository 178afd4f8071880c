"""The Mighty Kingdoms ruleset: decide what an event does, then commit it to the state.

Deciding never changes the state, so a dry run, a phone's preview and a refused batch leave
it as it was; committing applies an outcome the rules already accepted and refuses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cok.core.errors import RuleError
from cok.core.events import EventBase
from cok.rulesets.mighty_kingdoms import events as ev
from cok.rulesets.mighty_kingdoms.map import HexMap
from cok.rulesets.mighty_kingdoms.rules import battle, quests, setup, summer, winter
from cok.rulesets.mighty_kingdoms.rules import outcomes as o
from cok.rulesets.mighty_kingdoms.rules.outcomes import Outcome
from cok.rulesets.mighty_kingdoms.rules.spelling import spelled
from cok.rulesets.mighty_kingdoms.rules.state import Settings, State

DECIDE: dict[type[EventBase], Callable[[State, Any], Outcome]] = {
    ev.Kingdom: setup.decide_kingdom,
    ev.Begin: setup.decide_begin,
    ev.Order: summer.decide_order,
    ev.Resolve: summer.decide_resolve,
    ev.Battle: battle.decide_battle,
    ev.Reform: summer.decide_reform,
    ev.Winter: winter.decide_winter,
    ev.Tithe: winter.decide_tithe,
    ev.Build: winter.decide_build,
    ev.Recruit: winter.decide_recruit,
    ev.Feed: winter.decide_feed,
    ev.Deploy: winter.decide_deploy,
    ev.Spring: winter.decide_spring,
    ev.Quest: quests.decide_quest,
    ev.Artefact: quests.decide_artefact,
}

COMMIT: dict[type, Callable[[Any, State], None]] = {
    o.Founded: setup.commit_founded,
    o.Begun: setup.commit_begun,
    o.Ordered: summer.commit_ordered,
    o.Resolved: summer.commit_resolved,
    o.Fought: battle.commit_fought,
    o.Reformed: summer.commit_reformed,
    o.WinterBegun: winter.commit_winter,
    o.Tithed: winter.commit_tithed,
    o.Built: winter.commit_built,
    o.Recruited: winter.commit_recruited,
    o.Fed: winter.commit_fed,
    o.Deployed: winter.commit_deployed,
    o.Sprung: winter.commit_sprung,
    o.Quested: quests.commit_quested,
    o.Handed: quests.commit_handed,
}


def initial_state(hexmap: HexMap, settings: Settings) -> State:
    return State(hexmap, settings)


def decide(state: State, event: EventBase) -> Outcome:
    """What the event would do; RuleError if the rules refuse it. Changes nothing."""
    rule = DECIDE.get(type(event))
    if rule is None:
        raise RuleError(f"no Mighty Kingdoms rule for a {event.type} event")
    return rule(state, spelled(state, event))  # names made the map's own in one place, then the rule


def commit(outcome: Outcome, state: State) -> None:
    """Apply an outcome `decide` gave for this very state."""
    COMMIT[type(outcome)](outcome, state)


def apply(state: State, event: EventBase) -> Outcome:
    """Decide, then commit: the state changes only when the rules accept the event."""
    outcome = decide(state, event)
    commit(outcome, state)
    return outcome
