"""What a game shows of itself to the tests every game shares: its scenarios (a campaign at a
moment worth testing, made as its players would make it), the reads each answers, and the
mistakes a log and a map of the game can hold. Each game declares its own in its
`scenarios.py` (`SCENARIOS`), so a new game is tested by everything the games share without a
line outside its folder (tests/games.py finds them through the registry)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Read:
    """One of the game's reads (its `queries`) as a scenario answers it: the arguments as a
    query string (`?player=ana`), and the game's command that prints it with `--json` (None:
    only its pages ask it)."""

    name: str
    query: str = ""
    command: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Scenario:
    """A campaign at a moment: `cok init --ruleset <game>`, these keys set in campaign.yaml,
    then these commands of the game (as typed after `cok` and the game's group, if any)."""

    moment: str  # names the scenario in the tests' ids: "setup", "summer", "kings-of-war"
    steps: tuple[tuple[str, ...], ...]
    settings: Mapping[str, object] = field(default_factory=dict)
    reads: tuple[Read, ...] = ()


@dataclass(frozen=True)
class Scenarios:
    """Every scenario of a game (the first: the two first recordings of a new campaign, one
    after the other) and the mistakes a shared test writes into its files."""

    scenarios: tuple[Scenario, ...]
    #: an entry of the log that quotes `{value}` back in its refusal (a join with a faction …)
    wrong_entry: str
    #: a `key: value` line of the game's map whose value, replaced, is quoted back
    map_line: str
