"""No True King as the shared tests play it (`cok.core.scenarios`): two conspirators join
with their loyalty open, and the first round begins."""

from __future__ import annotations

from cok.core.scenarios import Read, Scenario, Scenarios

HOUSES = ("baratheon", "stark", "lannister", "greyjoy", "tyrell")

SCENARIOS = Scenarios(
    scenarios=(
        Scenario(
            "begun",
            (
                ("join", "ana", "--symbol", "crown", "--loyalty", *HOUSES, "--name", "Ana"),
                ("join", "bo", "--symbol", "torch", "--loyalty", *HOUSES),
                ("begin", "--seats", "ana", "bo", "--first", "ana"),
            ),
            settings={"loyalty": "open"},
            reads=(
                Read("board", command=("board",)),
                Read("houses", command=("houses",)),
                Read("status", command=("status",)),
                Read("game"),
                Read("turn", "?player=ana"),
                Read("resolving", "?player=Ana"),
                Read("cards", "?player=ana"),
                Read("picture"),
                # Greyjoy's ships into Lannister's: a combat (Pyke to Ironman's Bay was none, a 422)
                Read("combat", "?house=greyjoy&origin=Ironman's Bay&to=The Golden Sound&units=ship"),
                Read("opening", "?house=greyjoy&then=move&then_route=Pyke|Ironman's Bay&granted_to=Ironman's Bay"),
            ),
        ),
    ),
    wrong_entry="- type: conspiracy\n  player: ana\n  symbol: crown\n  seal: {value}\n",
    map_line="kind: land",
)
