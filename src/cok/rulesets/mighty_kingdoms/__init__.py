"""Mighty Kingdoms: a Kings of War campaign on a hex map (`cok mk …`).

Kingdoms explore, raze, fight and reform through six summer months, then gather, build,
recruit, feed and deploy in winter. This module stays light: the rules, pydantic and the
views are imported when a command first needs them (`Lazy`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Game, Lazy, Ruleset

if TYPE_CHECKING:
    from cok.core.events import EventBase
    from cok.core.ruleset import Campaign
    from cok.rulesets.mighty_kingdoms.rules.state import State


class MightyKingdoms(Game):
    id = "mighty-kingdoms"
    title = "Mighty Kingdoms"
    #: Events only an organiser records (a player joining, the order of play).
    organiser_events = frozenset({"kingdom", "begin", "reform", "spring"})
    results = frozenset({"battle"})  # a battle is confirmed by the other kingdom (docs/confirm.md)
    #: What a kingdom may record from a phone, field by field (docs/mighty-kingdoms.md); an
    #: artefact's `override` is the organiser's reason, never a kingdom's.
    player_fields: Mapping[str, frozenset[str]] = {
        "order": frozenset({"army", "order", "to", "note"}),
        "resolve": frozenset({"army", "roll", "reroll", "note"}),
        "battle": frozenset(
            {"tile", "attacker", "defender", "result", "dice", "allocate", "retreat", "advance", "strength"}
            | {"slaughter", "note"}
        ),
        "tithe": frozenset({"from", "to", "gold", "food", "note"}),
        "build": frozenset({"player", "tile", "settlement", "note"}),
        "recruit": frozenset({"player", "tile", "list", "units", "disband", "allied", "note"}),
        "feed": frozenset({"player", "unfed", "note"}),
        "deploy": frozenset({"army", "tile", "note"}),
        "quest": frozenset({"player", "tower", "army", "hero", "roll", "points", "artefact", "note"}),
        "artefact": frozenset({"artefact", "to", "note"}),
    }
    command: str | None = "mk"
    sequential = True  # the phase and whose turn it is: every event waits for the ones before it
    map_file = "ember-reaches.yaml"
    first_step = (
        "cok mk kingdom PLAYER --race R --capital TILE --city TILE --fortress TILE --villages TILE TILE --army TILE"
    )
    new_settings: Mapping[str, Any] = {"battles": "simple", "army_limit": 6, "advanced": []}

    upcasts = Lazy("upcasts:UPCASTS")
    events = Lazy("events:EVENT_TYPES")
    notify_kinds = Lazy("notify:KINDS")  # which events are posted in the club's chat
    notify_waits = Lazy("notify:waits")  # whom the ledger waits for (a nudge)
    settings_model = Lazy("settings:MightyKingdomsSettings")
    map_model = Lazy("mapfile:MapSpec")
    load_map = Lazy("mapfile:read_map")
    apply = Lazy("rules.apply:apply")
    decide = Lazy("rules.apply:decide")  # a recording decides once, then commits
    commit = Lazy("rules.apply:commit")
    tell = Lazy("words:tell")
    untold = Lazy("words:untold")
    build = Lazy("intents:build")  # an event from what a user gave (the answers, the dice the ledger rolls)
    period = Lazy("intents:period")  # whose dice are committed and revealed together (docs/dice.md)
    dice_agree = Lazy("intents:dice_agree")  # its fields say what the dice cok rolled gave
    named = Lazy("intents:named")  # the kingdoms a draft names, an army for its kingdom (who may record it)
    player = Lazy("rules.setup:find_player")
    involved = Lazy("events:involved")
    tally = Lazy("reports:tally")  # each kingdom's tiles, settlements, armies and resources
    report = Lazy("reports:recording_report")
    standings = Lazy("reports:standings_report")
    site_pages = Lazy("site:site_pages")
    map_svg = Lazy("site:campaign_map_svg")
    web = Lazy("table:web")  # its pages at the table (`cok serve`)
    queries = Lazy("queries:QUERIES")  # its reads by name: `--json`, the pages, GET /api/<name>
    deadline_steps = Lazy("deadlines:STEPS")  # what its ledger waits for (issue 48, docs/mighty-kingdoms.md)
    waits = Lazy("deadlines:waits")  # every wait open now, one per kingdom and step
    defaults = Lazy("deadlines:defaults")  # what is recorded for a missed wait

    @property
    def cached_types(self) -> Sequence[type]:
        from cok.core.deadlines import Clock
        from cok.rulesets.mighty_kingdoms.map import HexMap, Tile
        from cok.rulesets.mighty_kingdoms.rules.state import Army, ArtefactHeld, Gathered, Kingdom, Settings, State

        return (State, Settings, Army, Kingdom, ArtefactHeld, Gathered, HexMap, Tile, Clock)

    def copy(self, state: State) -> State:
        """A copy the rules may change (the map, settings and winters gathered shared)."""
        return state.copy()

    def initial_state(self, map: Any, settings: Any) -> State:
        from cok.rulesets.mighty_kingdoms.rules.apply import initial_state
        from cok.rulesets.mighty_kingdoms.rules.state import Settings

        return initial_state(map, Settings(settings.battles, settings.army_limit, tuple(settings.advanced)))

    def names(self, state: State, kind: str) -> list[str]:
        """Names for shell completion: players, tiles (names, and q,r for the unnamed), armies."""
        if kind == "player":
            return list(state.kingdoms)
        if kind == "tile":
            return [tile.name or key for key, tile in state.map.tiles.items()]
        if kind == "army":
            return list(state.armies)
        if kind in ("order", "settlement"):  # the fixed sets, from the events that take them
            import typing

            from cok.rulesets.mighty_kingdoms.events import Build, Order

            model, field = (Order, "order") if kind == "order" else (Build, "settlement")
            return list(typing.get_args(model.model_fields[field].annotation))
        return []

    def label(self, event: EventBase) -> str:
        for field in ("army", "tile", "player", "artefact"):
            value = getattr(event, field, None)
            if value is not None:
                return f"{event.type} {value}" if field != "tile" else f"{event.type} at {value}"
        return event.type

    def status(self, campaign: Campaign, **args: Any) -> dict[str, Any]:
        """`cok mk status --json`."""
        return dict(self.queries["status"](campaign))

    def commands(self) -> Any:
        return self.own("cli:app")


RULESET: Ruleset = MightyKingdoms()
