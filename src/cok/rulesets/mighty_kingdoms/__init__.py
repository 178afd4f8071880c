"""Mighty Kingdoms: a Kings of War campaign on a hex map (`cok mk …`).

Kingdoms explore, raze, fight and reform through six summer months, then gather, build,
recruit, feed and deploy in winter. This module stays light: the rules, pydantic and the
views are imported when a command first needs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Report, Upcast
from cok.rulesets.mighty_kingdoms.upcasts import UPCASTS

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cok.core.campaign import Campaign
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.core.ledger import Recorded
    from cok.rulesets.mighty_kingdoms.rules.state import State


class MightyKingdoms:
    id = "mighty-kingdoms"
    title = "Mighty Kingdoms"
    #: Events only an organiser records (a player joining, the order of play).
    organiser_events = frozenset({"kingdom", "begin", "reform", "spring"})
    command = "mk"
    sequential = True  # the phase and whose turn it is: every event waits for the ones before it
    map_file = "ember-reaches.yaml"
    first_step = (
        "cok mk kingdom PLAYER --race R --capital TILE --city TILE --fortress TILE --villages TILE TILE --army TILE"
    )
    new_settings: Mapping[str, Any] = {"battles": "simple", "army_limit": 6, "advanced": []}
    upcasts: Mapping[str, Sequence[Upcast]] = UPCASTS

    @property
    def events(self) -> Mapping[str, type[EventBase]]:
        from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES

        return EVENT_TYPES

    @property
    def settings_model(self) -> type[BaseModel]:
        from cok.rulesets.mighty_kingdoms.settings import MightyKingdomsSettings

        return MightyKingdomsSettings

    @property
    def map_model(self) -> type[BaseModel]:
        from cok.rulesets.mighty_kingdoms.mapfile import MapSpec

        return MapSpec

    @property
    def cached_types(self) -> Sequence[type]:
        from cok.rulesets.mighty_kingdoms.map import HexMap, Tile
        from cok.rulesets.mighty_kingdoms.rules.state import Army, ArtefactHeld, Gathered, Kingdom, Settings, State

        return (State, Settings, Army, Kingdom, ArtefactHeld, Gathered, HexMap, Tile)

    def builtin_map(self) -> Path:
        from cok.core.setup import shipped_map

        return shipped_map(self.map_file)

    def load_map(self, text: str, shown: str) -> Any:
        from cok.rulesets.mighty_kingdoms.mapfile import read_map

        return read_map(text, shown)

    def initial_state(self, map: Any, settings: Any) -> State:
        from cok.rulesets.mighty_kingdoms.rules.apply import initial_state
        from cok.rulesets.mighty_kingdoms.rules.state import Settings

        return initial_state(map, Settings(settings.battles, settings.army_limit, tuple(settings.advanced)))

    def apply(self, state: State, event: EventBase) -> Any:
        """The rules' own apply, imported on the first event; from then on the instance holds
        it, so that a replay's every event is not an import statement too (~1 µs each)."""
        from cok.rulesets.mighty_kingdoms.rules.apply import apply

        self.apply = apply  # type: ignore[method-assign]
        return apply(state, event)

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

    def tell(self, state: State, outcome: Any) -> str:
        from cok.rulesets.mighty_kingdoms.words import tell

        return tell(state, outcome)

    def untold(self, state: State, event: EventBase) -> str:
        from cok.rulesets.mighty_kingdoms.words import untold

        return untold(state, event)

    def player(self, state: State, typed: str) -> str:
        from cok.rulesets.mighty_kingdoms.rules.setup import find_player

        return find_player(state, typed)

    def build(self, state: State, type: str, fields: Mapping[str, Any], answers: Mapping[str, Any], dice: Dice) -> Any:
        """An event from what a user gave (the answers, the dice the ledger rolls)."""
        from cok.rulesets.mighty_kingdoms.intents import build

        return build(state, type, fields, answers, dice)

    def named(self, state: State, type: str, fields: Mapping[str, Any]) -> frozenset[str] | None:
        """The kingdoms a draft names, an army for its kingdom (who may record it)."""
        from cok.rulesets.mighty_kingdoms.intents import named

        return named(state, type, fields)

    def involved(self, event: EventBase) -> frozenset[str]:
        from cok.rulesets.mighty_kingdoms.events import involved

        return involved(event)

    def tally(self, state: State) -> dict[str, Any]:
        """Each kingdom's tiles, settlements, armies and resources: a summary shows the changes."""
        from cok.rulesets.mighty_kingdoms.reports import tally

        return tally(state)

    def report(self, recorded: Recorded) -> Report:
        from cok.rulesets.mighty_kingdoms.reports import recording_report

        return recording_report(recorded)

    def status(self, campaign: Campaign) -> dict[str, Any]:
        """`cok mk status --json`."""
        from cok.rulesets.mighty_kingdoms.documents import status_doc

        return status_doc(campaign.name, campaign.state)

    def standings(self, campaign: Campaign, as_json: bool) -> Report:
        from cok.rulesets.mighty_kingdoms.reports import standings_report

        return standings_report(campaign, as_json)

    def site_pages(self, campaign: Campaign) -> Iterable[tuple[str, str]]:
        from cok.rulesets.mighty_kingdoms.site import site_pages

        return site_pages(campaign)

    def map_svg(self, campaign: Campaign) -> str:
        from cok.rulesets.mighty_kingdoms.site import campaign_map_svg

        return campaign_map_svg(campaign)

    def commands(self) -> Any:
        from cok.rulesets.mighty_kingdoms.cli import app

        return app

    def web(self) -> Any:
        """Its pages at the table (`cok serve`): a `cok.serve.kit.Web`."""
        from cok.rulesets.mighty_kingdoms.table import web

        return web()


RULESET = MightyKingdoms()
