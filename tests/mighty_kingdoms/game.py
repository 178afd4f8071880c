"""A small hex map and a table to play the rules on in tests, without files.

The map (radius 4 round 0,0): start tiles W (-2,0), E (2,0) and N (0,-3); the middle tile
0,0 holds a river; 0,1 is a marsh; the edge -1,0|0,0 is a mountain, 1,0|1,-1 a forest, and
0,-1|1,-1 water.
"""

from __future__ import annotations

from typing import Any

import pytest

from cok.core.errors import RuleError
from cok.core.plain import encode
from cok.rulesets.mighty_kingdoms.events import EVENT_TYPES
from cok.rulesets.mighty_kingdoms.mapfile import read_map
from cok.rulesets.mighty_kingdoms.rules.apply import commit, decide
from cok.rulesets.mighty_kingdoms.rules.state import Settings, State

from .play import indexes_agree


def test_map_text() -> str:
    tiles = []
    for q in range(-4, 5):
        for r in range(-4, 5):
            if abs(q + r) > 4:
                continue
            extra = {
                (-2, 0): "name: West, start: true",
                (2, 0): "name: East, start: true",
                (0, -3): "name: North, start: true",
                (0, 0): "name: Ford, river: true",
                (0, 1): "marsh: true",
                (-1, 0): "sides: {se: mountain}",
                (1, 0): "sides: {n: forest}",
                (0, -1): "sides: {se: water}",
            }.get((q, r))
            tiles.append(f"  - {{at: [{q}, {r}]{', ' + extra if extra else ''}}}")
    return "name: Test Hexes\ntiles:\n" + "\n".join(tiles) + "\n"


MAP_TEXT = test_map_text()
test_map_text.__test__ = False  # type: ignore[attr-defined]

WEST = {"capital": "West", "city": "-1,0", "fortress": "-2,-1", "villages": ["-1,-1", "-2,1"]}
EAST = {"capital": "East", "city": "1,0", "fortress": "2,-1", "villages": ["3,-1", "2,1"]}
NORTH = {"capital": "North", "city": "0,-2", "fortress": "1,-4", "villages": ["-1,-3", "1,-3"]}


class Game:
    """A campaign's state, and events applied to it as the log would."""

    def __init__(self, **settings: Any) -> None:
        hexes = read_map(MAP_TEXT, "test.yaml")
        advanced = settings.pop("advanced", ())
        self.state = State(hexes, Settings(advanced=tuple(advanced), **settings))

    def __call__(self, kind: str, **fields: Any) -> Any:
        """Apply one event, as the ledger does: decide (which changes nothing), then commit;
        return its outcome."""
        if "from_" in fields:
            fields["from"] = fields.pop("from_")
        event = EVENT_TYPES[kind].model_validate({"type": kind, **fields})
        before = encode(self.state)
        outcome = decide(self.state, event)
        assert encode(self.state) == before, f"deciding a {kind} event changed the state"
        commit(outcome, self.state)
        indexes_agree(self.state)  # also: a test that changed armies by hand did it through the state
        return outcome

    def refused(self, kind: str, **fields: Any) -> str:
        """The rules refuse the event, and the state is exactly as it was."""
        before = encode(self.state)
        with pytest.raises(RuleError) as caught:
            self(kind, **fields)
        assert encode(self.state) == before, "a refused event changed the state"
        return str(caught.value)

    # ------------------------------------------------------------ set pieces

    def kingdom(self, player: str, at: dict[str, Any], army: str | None = None, **extra: Any) -> Any:
        kow = {"list": f"{player} 500"} if self.state.settings.kings_of_war and "list" not in extra else {}
        return self("kingdom", player=player, race="elves", army=army or at["city"], **at, **kow, **extra)

    def two_kingdoms(self, **extra: Any) -> Game:
        """ana in the west, bo in the east, each army on its city next to the Ford; begun."""
        self.kingdom("ana", WEST, **extra)
        self.kingdom("bo", EAST, **extra)
        self("begin")
        return self

    def orders(self, **given: str) -> None:
        """`orders(**{"ana-1": "move 0,0", "bo-1": "defend"})`."""
        for army, text in given.items():
            what, _, to = text.partition(" ")
            self("order", army=army, order=what, to=to or None)

    def meeting(self, **extra: Any) -> Game:
        """Month 1: ana-1 explores the Ford (empty), bo-1 follows it in: battles phase."""
        self.two_kingdoms(**extra)
        self.orders(**{"ana-1": "move 0,0", "bo-1": "move 0,0"})
        self("resolve", army="ana-1", roll=[3, 4])
        self("resolve", army="bo-1")
        return self

    def army(self, army_id: str) -> Any:
        return self.state.armies[army_id]

    def move(self, army_id: str, tile: str) -> None:
        """Put an army on a tile by hand (through the state, which keeps its indexes)."""
        self.state.move_army(self.army(army_id), tile)


def to_winter(game: Game, recall: dict[str, str] | None = None) -> Game:
    """The sixth month, quietly: every army defends; then `winter` (recall and gather)."""
    state = game.state
    state.month = 6
    for army in list(state.armies.values()):
        game("order", army=army.id, order="defend" if army.upright else "regroup")
    while any(not a.resolved for a in state.armies.values()):
        from cok.rulesets.mighty_kingdoms.rules.phase import resolver

        player = resolver(state)
        game("resolve", army=next(a.id for a in state.armies_of(player or "") if not a.resolved))
    from cok.rulesets.mighty_kingdoms.rules.phase import counts, ties

    tied = ties(state)
    game("reform", order=sorted(state.order, key=lambda p: -counts(state)[p]) if tied else None)
    game("winter", recall=recall or {})
    return game
