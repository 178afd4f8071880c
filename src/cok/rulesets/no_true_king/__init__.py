"""No True King: hidden conspiracies move five great houses with agents on the board of
A Game of Thrones: The Board Game (contract: docs/no-true-king.md). Commands: `cok ntk …`.

This module stays light: what a command does not use is imported when first needed (`Lazy`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cok.core.ruleset import Game, Lazy, Ruleset

if TYPE_CHECKING:
    from cok.core.events import EventBase
    from cok.core.ruleset import Campaign
    from cok.rulesets.no_true_king.rules.state import State


class NoTrueKing(Game):
    id = "no-true-king"
    title = "No True King"
    #: Events only an organiser records (the order of play). A conspiracy joins as itself,
    #: from its own phone, so that its seal is made where its secret stays (§4.6).
    organiser_events = frozenset({"begin"})
    results = frozenset({"resolve"})  # a resolve with a combat: confirmed by the others who fought (docs/confirm.md)
    #: What a conspiracy may record from a phone, field by field (docs/no-true-king.md).
    player_fields: Mapping[str, frozenset[str]] = {
        "conspiracy": frozenset({"player", "name", "symbol", "seal", "loyalty", "note"}),
        "place": frozenset({"player", "house", "space", "note"}),
        "resolve": frozenset({"player", "house", "space", "actions", "combat", "note"}),
        "card": frozenset({"player", "card", "house", "to", "note"}),
        "exchange": frozenset({"player", "swap", "reveal", "note"}),
        "pass": frozenset({"player", "note"}),
        "unseal": frozenset({"player", "loyalty", "secret", "note"}),
    }
    command: str | None = "ntk"
    sequential = True  # whose turn it is: every event waits for the ones before it
    first_step = "cok ntk seal PLAYER H H H H H, then cok ntk join PLAYER --symbol S --seal HEX"
    map_file = "westeros-agot.yaml"
    new_settings: Mapping[str, Any] = {"loyalty": "sealed"}

    events = Lazy("events:EVENT_TYPES")
    notify_kinds = Lazy("notify:KINDS")  # which events are posted in the club's chat
    notify_waits = Lazy("notify:waits")  # whom the ledger waits for (a nudge)
    notify_ended = Lazy("notify:ended")  # the game's end with its scores
    notify_opened = Lazy("notify:opened")  # the next round, opened by a round's last exchange
    deadline_steps = Lazy("deadlines:STEPS")  # a conspiracy's turn, an unseal (issue 48)
    waits = Lazy("deadlines:waits")  # whose turn the ledger waits for, each turn its own key
    defaults = Lazy("deadlines:defaults")  # a missed turn passes, taking nothing from the game
    settings_model = Lazy("settings:NoTrueKingSettings")
    map_model = Lazy("mapfile:BoardSpec")
    load_map = Lazy("mapfile:read_board")
    apply = Lazy("rules.apply:apply")
    decide = Lazy("rules.apply:decide")  # a recording decides once, then commits
    commit = Lazy("rules.apply:commit")
    tell = Lazy("words:tell")
    queries = Lazy("queries:QUERIES")  # its reads by name: `--json`, the pages, GET /api/<name>
    build = Lazy("intents:build")  # an event from what a user gave (names as typed, the rules' answers routed)
    period = Lazy("intents:period")  # whose dice are committed and revealed together (docs/dice.md)
    dice_agree = Lazy("intents:dice_agree")  # its fields say what the dice cok rolled gave
    named = Lazy("intents:named")  # the conspiracy a draft acts as (who may record it)
    refusal = Lazy("intents:refusal")  # why a player may not record a draft, in the game's words
    player = Lazy("rules.places:find_player")
    involved = Lazy("events:involved")
    report = Lazy("reports:recording_report")
    standings = Lazy("reports:standings_report")
    site_pages = Lazy("site:site_pages")
    web = Lazy("table:web")  # its pages at the table (`cok serve`)

    @property
    def cached_types(self) -> Sequence[type]:
        from cok.core.deadlines import Clock
        from cok.rulesets.no_true_king.map import Area, Board, Card
        from cok.rulesets.no_true_king.rules.state import Conspirator, State

        return (State, Conspirator, Board, Area, Card, Clock)

    def initial_state(self, map: Any, settings: Any) -> State:
        return self.own("rules.apply:initial_state")(map, settings.loyalty)  # type: ignore[no-any-return]

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

    def untold(self, state: State, event: EventBase) -> str:
        return str(self.own("words:untold")(event))

    def public(self, event: EventBase) -> dict[str, Any]:
        """The event as the history shows it: an open loyalty card never (§4.6: nothing secret
        in the log's words, the site or JSON; the card is shown with the scores at the end)."""
        shown = super().public(event)
        if shown.get("type") in ("conspiracy", "unseal"):  # cards: shown with the scores, once over
            shown.pop("loyalty", None)
            shown.pop("secret", None)
        return shown

    def tally(self, state: State) -> dict[str, Any]:
        """The house rankings: a recording's summary says when they changed."""
        return dict(state.ranks)

    def status(self, campaign: Campaign, **args: Any) -> dict[str, Any]:
        """`cok ntk status --json`."""
        return dict(self.queries["status"](campaign))

    def map_svg(self, campaign: Campaign) -> str:
        return str(self.own("site:board_svg")(campaign.state, campaign.name))

    def commands(self) -> Any:
        return self.own("cli:app")


RULESET: Ruleset = NoTrueKing()
