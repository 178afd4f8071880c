"""The fold's one step: an event through the rule it belongs to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cok.core.errors import RuleError
from cok.core.events import EventBase
from cok.rulesets.mighty_kingdoms import events as ev
from cok.rulesets.mighty_kingdoms.map import HexMap
from cok.rulesets.mighty_kingdoms.rules import battle, quests, setup, summer, winter
from cok.rulesets.mighty_kingdoms.rules.state import Settings, State

RULES: dict[type[EventBase], Callable[[State, Any], Any]] = {
    ev.Kingdom: setup.found,
    ev.Begin: setup.begin,
    ev.Order: summer.order,
    ev.Resolve: summer.resolve,
    ev.Battle: battle.fight,
    ev.Reform: summer.reform,
    ev.Winter: winter.begin_winter,
    ev.Tithe: winter.tithe,
    ev.Build: winter.build,
    ev.Recruit: winter.recruit,
    ev.Feed: winter.feed,
    ev.Deploy: winter.deploy,
    ev.Spring: winter.spring,
    ev.Quest: quests.quest,
    ev.Artefact: quests.hand_over,
}


def initial_state(hexmap: HexMap, settings: Settings) -> State:
    return State(hexmap, settings)


def apply(state: State, event: EventBase) -> Any:
    """Decide (RuleError when the rules refuse; the state is then untouched), then commit."""
    rule = RULES.get(type(event))
    if rule is None:
        raise RuleError(f"no Mighty Kingdoms rule for a {event.type} event")
    return rule(state, event)
