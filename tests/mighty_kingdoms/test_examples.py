"""The shipped examples replay clean and show what issue #11 asks of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.core.log import read_log
from cok.core.yamlfile import read_file
from cok.rulesets.mighty_kingdoms import RULESET
from cok.rulesets.mighty_kingdoms.rules.apply import apply

from .examples import KINGS_OF_WAR, KOW_FEATURES, SIMPLE, SIMPLE_FEATURES, before, features
from .play import new_state


def shown(folder: Path) -> set[str]:
    """Replay the example event by event, noting the features its outcomes show."""
    campaign = open_campaign(folder, use_cache=False)
    assert campaign.problems == []
    state = new_state(campaign.state.settings, folder / "map.yaml")
    seen: set[str] = set()
    raw, text = read_file(folder / "events.yaml", "event log")
    for entry in read_log(raw, text, "events.yaml", RULESET).entries:
        data = entry.event.model_dump(mode="json", exclude_none=True, by_alias=True)
        pre = before(state, data)
        seen |= features(pre, apply(state, entry.event), state)
    return seen


@pytest.mark.parametrize(("folder", "wanted"), [(SIMPLE, SIMPLE_FEATURES), (KINGS_OF_WAR, KOW_FEATURES)])
def test_the_example_replays_clean_and_shows_every_feature(folder: Path, wanted: tuple[str, ...]) -> None:
    assert set(wanted) <= shown(folder)


def test_the_simple_example_has_four_kingdoms_and_reaches_the_next_year() -> None:
    state = open_campaign(SIMPLE, use_cache=False).state
    assert len(state.kingdoms) == 4 and state.year >= 2 and not state.settings.kings_of_war


def test_the_kings_of_war_example_plays_kings_of_war_battles() -> None:
    state = open_campaign(KINGS_OF_WAR, use_cache=False).state
    assert state.settings.kings_of_war and all(k.list for k in state.kingdoms.values())
