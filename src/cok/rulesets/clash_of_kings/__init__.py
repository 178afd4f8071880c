"""Clash of Kings: the map campaign for A Song of Ice and Fire: TMG on Westeros.

Its commands are `cok`'s top-level ones. This module stays light: what a command does not
use (pydantic's event models, PyYAML, Jinja) is imported when it is first needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Report, Upcast

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cok.core.campaign import Campaign
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.core.ledger import Recorded
    from cok.rulesets.clash_of_kings.rules.state import State


class ClashOfKings:
    id = "clash-of-kings"
    title = "Clash of Kings"
    map_file = "westeros.yaml"
    new_settings: Mapping[str, Any] = {"points": {"start": 20, "step": 3}}
    #: Events only an organiser records, although they name a player.
    organiser_events = frozenset({"join", "week", "adjust"})
    #: Upgrades of older event shapes, per event type, applied as each event is read: the
    #: file itself is never rewritten. (None yet: every shape shipped is today's.)
    upcasts: Mapping[str, Sequence[Upcast]] = {}

    @property
    def events(self) -> Mapping[str, type[EventBase]]:
        from cok.rulesets.clash_of_kings.events import EVENT_TYPES

        return EVENT_TYPES

    @property
    def settings_model(self) -> type[BaseModel]:
        from cok.rulesets.clash_of_kings.settings import ClashOfKingsSettings

        return ClashOfKingsSettings

    @property
    def map_model(self) -> type[BaseModel]:
        from cok.rulesets.clash_of_kings.mapfile import MapSpec

        return MapSpec

    @property
    def cached_types(self) -> Sequence[type]:
        from cok.rulesets.clash_of_kings.map import Geography, Location, Route
        from cok.rulesets.clash_of_kings.rules.state import BattleRecord, Player, Settings, State

        return (State, Player, BattleRecord, Settings, Geography, Location, Route)

    def builtin_map(self) -> Path:
        from cok.core.setup import shipped_map

        return shipped_map(self.map_file)

    def load_map(self, text: str, shown: str) -> Any:
        from cok.rulesets.clash_of_kings.mapfile import read_map

        return read_map(text, shown)

    def initial_state(self, map: Any, settings: Any) -> State:
        from cok.rulesets.clash_of_kings.modes import allowed_modes
        from cok.rulesets.clash_of_kings.rules.apply import initial_state
        from cok.rulesets.clash_of_kings.rules.state import Settings

        modes = tuple(allowed_modes(tuple(settings.modes) if settings.modes is not None else None))
        factions = tuple(settings.factions)
        return initial_state(map, Settings(settings.points.start, settings.points.step, modes, factions))

    def apply(self, state: State, event: EventBase) -> Any:
        from cok.rulesets.clash_of_kings.rules.apply import apply

        return apply(state, event)

    def build(self, state: State, type: str, fields: Mapping[str, Any], answers: Mapping[str, Any], dice: Dice) -> Any:
        """An event from what a user gave (names as typed, `P=N`, answers, the dice)."""
        from cok.rulesets.clash_of_kings.intents import build

        return build(state, type, fields, answers, dice)

    def named(self, state: State, type: str, fields: Mapping[str, Any]) -> frozenset[str] | None:
        """The players a draft names (who may record it)."""
        from cok.rulesets.clash_of_kings.intents import named

        return named(state, type, fields)

    def status(
        self,
        campaign: Campaign,
        players: Sequence[str] = (),
        attacker: str | None = None,
        brotherhood: Sequence[str] = (),
    ) -> dict[str, Any]:
        """`cok where P1 P2 --json`: who attacks, and the legal locations."""
        from cok.core.errors import RuleError
        from cok.rulesets.clash_of_kings.documents import where_doc
        from cok.rulesets.clash_of_kings.intents import plan

        if len(players) != 2:
            raise RuleError("where needs two players: `players` P1 P2")
        state = campaign.state
        return where_doc(state, plan(state, players[0], players[1], attacker, brotherhood))

    def copy(self, state: State) -> State:
        """A copy a dry run decides on (the map and settings shared)."""
        return state.copy()

    def repeats(self, state: State, event: EventBase) -> str | None:
        """The same battle (players, location, week, winner) recorded twice."""
        from cok.rulesets.clash_of_kings.rules.apply import repeats

        return repeats(state, event)

    def names(self, state: State, kind: str) -> list[str]:
        """Names for shell completion: players (ids), locations, factions, game modes."""
        if kind == "player":
            return list(state.players)
        if kind == "location":
            return list(state.geo.locations)
        if kind == "faction":
            from cok.rulesets.clash_of_kings.rules.start import known_factions

            return known_factions(state)
        if kind == "mode":
            return list(state.settings.modes)
        return []

    def label(self, event: EventBase) -> str:
        location = getattr(event, "location", None)
        if location is not None:
            return f"{event.type} at {location}"
        player = getattr(event, "player", None)
        return f"{event.type} {player}" if player is not None else event.type

    def tell(self, state: State, outcome: Any) -> str:
        from cok.rulesets.clash_of_kings.words import Teller

        return Teller(state).tell(outcome)

    def untold(self, state: State, event: EventBase) -> str:
        from cok.rulesets.clash_of_kings.words import Teller

        return Teller(state).untold(event)

    def player(self, state: State, typed: str) -> str:
        from cok.rulesets.clash_of_kings.rules.start import find_player

        return find_player(state, typed)

    def involved(self, event: EventBase) -> frozenset[str]:
        from cok.rulesets.clash_of_kings.events import involved

        return involved(event)

    def tally(self, state: State) -> dict[str, int]:
        """Each player's total CP: a recording's summary shows what it changed."""
        return {p: state.total_cp(p) for p in state.players}

    def report(self, recorded: Recorded) -> Report:
        from cok.rulesets.clash_of_kings.reports import recording_report

        return recording_report(recorded)

    def standings(self, campaign: Campaign, as_json: bool) -> Report:
        from cok.rulesets.clash_of_kings.reports import standings_report

        return standings_report(campaign, as_json)

    def site_pages(self, campaign: Campaign) -> Iterable[tuple[str, str]]:
        from cok.rulesets.clash_of_kings.site.pages import site_pages

        return site_pages(campaign)

    def map_svg(self, campaign: Campaign) -> str:
        from cok.rulesets.clash_of_kings.site.pages import campaign_map_svg

        return campaign_map_svg(campaign)

    def commands(self) -> Any:
        from cok.rulesets.clash_of_kings.cli import app

        return app

    def web(self) -> Any:
        """Its pages at the table (`cok serve`): a `cok.serve.kit.Web`."""
        from cok.rulesets.clash_of_kings.table import web

        return web()


RULESET = ClashOfKings()
