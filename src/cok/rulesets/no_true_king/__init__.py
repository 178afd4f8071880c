"""No True King: hidden conspiracies move five great houses with agents on the board of
A Game of Thrones: The Board Game (contract: docs/no-true-king.md). Commands: `cok ntk …`.

This module stays light: what a command does not use is imported when first needed.
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
    from cok.rulesets.no_true_king.rules.state import State


class NoTrueKing:
    id = "no-true-king"
    title = "No True King"
    #: Events only an organiser records (the order of play). A conspiracy joins as itself,
    #: from its own phone, so that its seal is made where its secret stays (§4.6).
    organiser_events = frozenset({"begin"})
    command = "ntk"
    sequential = True  # whose turn it is: every event waits for the ones before it
    first_step = "cok ntk seal PLAYER H H H H H, then cok ntk join PLAYER --symbol S --seal HEX"
    map_file = "westeros-agot.yaml"
    new_settings: Mapping[str, Any] = {"loyalty": "sealed"}
    upcasts: Mapping[str, Sequence[Upcast]] = {}

    @property
    def events(self) -> Mapping[str, type[EventBase]]:
        from cok.rulesets.no_true_king.events import EVENT_TYPES

        return EVENT_TYPES

    @property
    def settings_model(self) -> type[BaseModel]:
        from cok.rulesets.no_true_king.settings import NoTrueKingSettings

        return NoTrueKingSettings

    @property
    def map_model(self) -> type[BaseModel]:
        from cok.rulesets.no_true_king.mapfile import BoardSpec

        return BoardSpec

    @property
    def cached_types(self) -> Sequence[type]:
        from cok.rulesets.no_true_king.map import Area, Board, Card
        from cok.rulesets.no_true_king.rules.state import Conspirator, State

        return (State, Conspirator, Board, Area, Card)

    def builtin_map(self) -> Path:
        from cok.core.setup import shipped_map

        return shipped_map(self.map_file)

    def load_map(self, text: str, shown: str) -> Any:
        from cok.rulesets.no_true_king.mapfile import read_board

        return read_board(text, shown)

    def initial_state(self, map: Any, settings: Any) -> State:
        from cok.rulesets.no_true_king.rules.apply import initial_state

        return initial_state(map, settings.loyalty)

    def apply(self, state: State, event: EventBase) -> Any:
        from cok.rulesets.no_true_king.rules.apply import apply

        return apply(state, event)

    def build(self, state: State, type: str, fields: Mapping[str, Any], answers: Mapping[str, Any], dice: Dice) -> Any:
        """An event from what a user gave (names as typed, the rules' answers routed)."""
        from cok.rulesets.no_true_king.intents import build

        return build(state, type, fields, answers, dice)

    def named(self, state: State, type: str, fields: Mapping[str, Any]) -> frozenset[str] | None:
        """The conspiracy a draft acts as (who may record it)."""
        from cok.rulesets.no_true_king.intents import named

        return named(state, type, fields)

    def names(self, state: State, kind: str) -> list[str]:
        """Names for shell completion: conspiracies (`player`), houses, spaces, areas."""
        from cok.rulesets.no_true_king.map import SPACES

        found: dict[str, list[str]] = {
            "player": list(state.players),
            "house": list(state.board.houses),
            "space": list(SPACES),
            "area": list(state.board.areas),
        }
        return found.get(kind, [])

    def label(self, event: EventBase) -> str:
        player = getattr(event, "player", None)
        house, space = getattr(event, "house", None), getattr(event, "space", None)
        if house and space:
            return f"{event.type} {player} {house} {space}"
        return f"{event.type} {player}" if player else event.type

    def tell(self, state: State, outcome: Any) -> str:
        from cok.rulesets.no_true_king.words import tell

        return tell(state, outcome)

    def untold(self, state: State, event: EventBase) -> str:
        from cok.rulesets.no_true_king.words import untold

        return untold(event)

    def player(self, state: State, typed: str) -> str:
        from cok.rulesets.no_true_king.rules.places import find_player

        return find_player(state, typed)

    def involved(self, event: EventBase) -> frozenset[str]:
        from cok.rulesets.no_true_king.events import involved

        return involved(event)

    def public(self, event: EventBase) -> dict[str, Any]:
        """The event as the history shows it: an open loyalty card never (§4.6: nothing secret
        in the log's words, the site or JSON; the card is shown with the scores at the end)."""
        shown = event.model_dump(mode="json", exclude_none=True)
        if shown.get("type") in ("conspiracy", "unseal"):  # cards: shown with the scores, once over
            shown.pop("loyalty", None)
            shown.pop("secret", None)
        return shown

    def tally(self, state: State) -> dict[str, Any]:
        """The house rankings: a recording's summary says when they changed."""
        return dict(state.ranks)

    def report(self, recorded: Recorded) -> Report:
        from cok.rulesets.no_true_king.reports import recording_report

        return recording_report(recorded)

    def status(self, campaign: Campaign) -> dict[str, Any]:
        """`cok ntk status --json`."""
        from cok.rulesets.no_true_king.documents import status_doc

        return status_doc(campaign.name, campaign.state)

    def standings(self, campaign: Campaign, as_json: bool) -> Report:
        from cok.rulesets.no_true_king.reports import standings_report

        return standings_report(campaign, as_json)

    def site_pages(self, campaign: Campaign) -> Iterable[tuple[str, str]]:
        from cok.rulesets.no_true_king.site import site_pages

        return site_pages(campaign)

    def map_svg(self, campaign: Campaign) -> str:
        from cok.rulesets.no_true_king.site import board_svg

        return board_svg(campaign.state, campaign.name)

    def commands(self) -> Any:
        from cok.rulesets.no_true_king.cli import app

        return app

    def web(self) -> Any:
        """Its pages at the table (`cok serve`): a `cok.serve.kit.Web`."""
        from cok.rulesets.no_true_king.table import web

        return web()


RULESET = NoTrueKing()
