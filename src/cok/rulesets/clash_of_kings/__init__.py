"""Clash of Kings: the map campaign for A Song of Ice and Fire: TMG on Westeros.

Its commands are `cok`'s top-level ones. This module stays light: what a command does not
use (pydantic's event models, PyYAML, Jinja) is imported when it is first needed (`Lazy`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Game, Lazy, Ruleset

if TYPE_CHECKING:
    from cok.core.events import EventBase
    from cok.core.ruleset import Campaign
    from cok.rulesets.clash_of_kings.rules.state import State


class ClashOfKings(Game):
    id = "clash-of-kings"
    title = "Clash of Kings"
    map_file = "westeros.yaml"
    first_step = "cok join PLAYER --faction FACTION"
    new_settings: Mapping[str, Any] = {"points": {"start": 20, "step": 3}}
    #: Events only an organiser records, although they name a player.
    organiser_events = frozenset({"join", "week", "adjust"})
    results = frozenset({"battle"})  # a battle is confirmed by the other player (docs/confirm.md)
    #: What a player may record from a phone, field by field (docs/clash-of-kings.md): their
    #: battles and their own painting claims; an `override` is an organiser's ruling.
    player_fields: Mapping[str, frozenset[str]] = {
        "battle": frozenset(
            {"players", "location", "week", "attacker", "winner", "vp", "remaining", "mode", "points"}
            | {"brotherhood", "abandon", "occupy", "note"}
        ),
        "painting": frozenset({"player", "week", "fully_painted", "units", "models", "commissioned", "note"}),
    }
    # upcasts: none yet, every event shape shipped is today's

    events = Lazy("events:EVENT_TYPES")
    notify_kinds = Lazy("notify:KINDS")  # which events are posted in the club's chat
    notify_waits = Lazy("notify:waits")  # whom the ledger waits for (a nudge)
    settings_model = Lazy("settings:ClashOfKingsSettings")
    map_model = Lazy("mapfile:MapSpec")
    load_map = Lazy("mapfile:read_map")
    apply = Lazy("rules.apply:apply")
    decide = Lazy("rules.apply:decide")  # a recording decides once, then commits
    commit = Lazy("rules.apply:commit")
    repeats = Lazy("rules.apply:repeats")  # the same battle (players, location, week, winner) twice
    build = Lazy("intents:build")  # an event from what a user gave (names as typed, `P=N`, answers, dice)
    period = Lazy("intents:period")  # whose dice are committed and revealed together (docs/dice.md)
    dice_agree = Lazy("intents:dice_agree")  # its fields say what the dice cok rolled gave
    named = Lazy("intents:named")  # the players a draft names (who may record it)
    player = Lazy("rules.spelling:player")
    involved = Lazy("events:involved")
    report = Lazy("reports:recording_report")
    standings = Lazy("reports:standings_report")
    site_pages = Lazy("site.pages:site_pages")
    map_svg = Lazy("site.pages:campaign_map_svg")
    queries = Lazy("queries:QUERIES")  # its reads by name: `--json`, the pages, GET /api/<name>
    deadline_steps = Lazy("deadlines:STEPS")  # what its ledger waits for (docs/deadlines.md)
    waits = Lazy("deadlines:waits")
    defaults = Lazy("deadlines:defaults")  # what is recorded for a missed week

    @property
    def cached_types(self) -> Sequence[type]:
        from cok.core.deadlines import Clock
        from cok.rulesets.clash_of_kings.map import Geography, Location, Route
        from cok.rulesets.clash_of_kings.rules.state import BattleRecord, Player, Settings, State

        return (State, Player, BattleRecord, Settings, Geography, Location, Route, Clock)

    def initial_state(self, map: Any, settings: Any) -> State:
        from cok.rulesets.clash_of_kings.modes import allowed_modes
        from cok.rulesets.clash_of_kings.rules.apply import initial_state
        from cok.rulesets.clash_of_kings.rules.state import Settings

        modes = tuple(allowed_modes(tuple(settings.modes) if settings.modes is not None else None))
        factions = tuple(settings.factions)
        return initial_state(map, Settings(settings.points.start, settings.points.step, modes, factions))

    def status(self, campaign: Campaign, **args: Any) -> dict[str, Any]:
        """`cok where P1 P2 --json`: who attacks, and the legal locations."""
        return dict(self.queries["where"](campaign, **args))

    def copy(self, state: State) -> State:
        """A copy a dry run decides on (the map and settings shared)."""
        return state.copy()

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
        return str(self.own("words:Teller")(state).tell(outcome))

    def untold(self, state: State, event: EventBase) -> str:
        return str(self.own("words:Teller")(state).untold(event))

    def tally(self, state: State) -> dict[str, int]:
        """Each player's total CP: a recording's summary shows what it changed."""
        return {p: state.total_cp(p) for p in state.players}

    def commands(self) -> Any:
        return self.own("cli:app")

    def web(self) -> Any:
        """Its pages at the table (`cok serve`): a `cok.serve.kit.Web`."""
        return self.own("table:web")()


RULESET: Ruleset = ClashOfKings()
