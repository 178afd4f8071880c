"""Clash of Kings as the shared tests play it (`cok.core.scenarios`): two players join, and
the reads a campaign answers then."""

from __future__ import annotations

from cok.core.scenarios import Read, Scenario, Scenarios

SCENARIOS = Scenarios(
    scenarios=(
        Scenario(
            moment="joined",
            steps=(
                ("join", "tim", "--faction", "stark", "--name", "Tim"),
                ("join", "sara", "--faction", "lannister"),
            ),
            reads=(
                Read("locations", command=("locations",)),
                Read("locations", "?free=1", ("locations", "--free")),
                Read("locations", "?player=tim", ("locations", "--player", "tim")),
                Read("modes", command=("modes", "-C", ".")),
                Read("modes", "?mode=a-clash-of-kings", ("modes", "a-clash-of-kings", "-C", ".")),
                Read("week", command=("week",)),
                Read("players"),
                Read("factions"),
            ),
        ),
    ),
    wrong_entry="- type: join\n  player: tim\n  faction: {value}\n",
    map_line="kind: fort",
)
