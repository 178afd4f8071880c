"""A cold replay applies each event as it is read (a long log is never held whole), and
must come out exactly as replaying the whole list would: the voids are found beforehand,
and a void the search could not see makes the replay start again from the whole list."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.core import fold as folding
from cok.core.campaign import open_campaign, read, read_entries, set_up
from cok.core.fold import fold
from cok.core.log import planned_voids, read_log
from cok.core.plain import encode
from cok.rulesets.clash_of_kings import RULESET

from .conftest import joins

START = "".join(
    f"- type: join\n  player: {e['player']}\n  faction: {e['faction']}\n  castle: {e['castle']}\n"
    f"  id: j-{e['player']}\n"
    for e in joins(tim="Winterfell", matt="Casterly Rock")
)
ADJUST = "- type: adjust\n  player: tim\n  cp: 2\n  reason: {reason}\n  id: {id}\n"


def by_list(folder: Path) -> tuple[object, list[tuple[int | None, str]]]:
    """The state and problems of replaying the log read whole (the reference)."""
    files = read(folder)
    setup = set_up(folder, files)
    log = read_entries(folder, files, setup.ruleset)
    done = fold(setup.ruleset, log.entries, setup.state, log.shown)
    return encode(done.state), [(p.line, p.message) for p in [*log.problems, *done.problems]]


def streamed(folder: Path) -> tuple[object, list[tuple[int | None, str]]]:
    campaign = open_campaign(folder, use_cache=False)
    return encode(campaign.state), [(p.line, p.message) for p in campaign.problems]


def test_a_cold_replay_keeps_no_event_it_has_applied(campaign: Path) -> None:
    (campaign / "events.yaml").write_text(START + ADJUST.format(reason="late", id="a1"))
    files = read(campaign)
    taken = []
    log = read_log(files.events, files.events.decode(), "events.yaml", RULESET, take=taken.append)
    assert log.entries == [] and [e.event.type for e in taken] == ["join", "join", "adjust"]


def test_voids_are_found_before_the_replay_with_the_line_each_starts_on(campaign: Path) -> None:
    text = START + ADJUST.format(reason="void me", id="a1") + "- type: void\n  target: a1\n  reason: typo\n"
    assert planned_voids(text, "events.yaml", RULESET) == {"a1": [16]}


def test_the_word_void_in_a_reason_voids_nothing(campaign: Path) -> None:
    (campaign / "events.yaml").write_text(START + ADJUST.format(reason="void of meaning", id="a1"))
    assert streamed(campaign) == by_list(campaign)
    assert open_campaign(campaign, use_cache=False).state.bonus["tim"] == 2


def test_a_voided_event_is_left_out_of_a_streamed_replay(campaign: Path) -> None:
    log = START + ADJUST.format(reason="one", id="a1") + ADJUST.format(reason="two", id="a2")
    (campaign / "events.yaml").write_text(log + "- type: void\n  target: a1\n  reason: typo\n")
    assert streamed(campaign) == by_list(campaign)
    assert open_campaign(campaign, use_cache=False).state.bonus["tim"] == 2


@pytest.mark.parametrize(
    "void",
    [
        '- type: "\\x76oid"\n  target: a1\n  reason: typo\n',  # the word is not in the text
        "- {type: void, target: a1, reason: typo}\n",
        "-\n  type: void\n  target: a1\n  reason: typo\n",
        "- type: void\n  target: nowhere\n  reason: typo\n- type: void\n  target: a1\n  reason: typo\n",
        "- type: void\n  target: a1\n  reason: typo\n- type: void\n  target: a1\n  reason: again\n",
    ],
    ids=["escaped", "flow", "item-on-its-own-line", "unknown-target-first", "voided-twice"],
)
def test_a_void_however_written_gives_the_state_of_the_whole_list(campaign: Path, void: str) -> None:
    (campaign / "events.yaml").write_text(START + ADJUST.format(reason="one", id="a1") + void)
    assert streamed(campaign) == by_list(campaign)
    assert open_campaign(campaign, use_cache=False).state.bonus.get("tim", 0) == 0


def test_a_void_the_search_misses_starts_the_replay_again(campaign: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (campaign / "events.yaml").write_text(
        START + ADJUST.format(reason="one", id="a1") + "- type: void\n  target: a1\n  reason: typo\n"
    )
    monkeypatch.setattr("cok.core.log.planned_voids", lambda *_: {})  # it finds none
    restarted = []
    real = folding.fold
    monkeypatch.setattr(folding, "fold", lambda *a, **k: restarted.append(1) or real(*a, **k))
    assert streamed(campaign) == by_list(campaign)
    assert restarted == [1]  # started again, from the whole list


class _Scanned(str):
    """A log's text that counts the characters its searches pass over."""

    scanned = 0

    def find(self, sub: str, start: int | None = None, end: int | None = None) -> int:  # type: ignore[override]
        start = 0 if start is None else start
        found = str.find(self, sub, start, len(self) if end is None else end)
        _Scanned.scanned += (found if found >= 0 else len(self) if end is None else end) - start
        return found

    def rfind(self, sub: str, start: int | None = None, end: int | None = None) -> int:  # type: ignore[override]
        start, end = 0 if start is None else start, len(self) if end is None else end
        found = str.rfind(self, sub, start, end)
        _Scanned.scanned += end - (found if found >= 0 else start)
        return found


def test_the_voids_of_a_long_log_are_found_reading_each_item_once() -> None:
    """Issue 37: a log of many voids (No True King's heavy campaign: 50,000) had its whole
    text searched twice for each, and its cold replay took minutes."""
    pairs = "".join(
        ADJUST.format(reason=f"slip {n}", id=f"a{n}") + f"- type: void\n  target: a{n}\n  reason: typo\n"
        for n in range(300)
    )
    text = _Scanned(START + pairs)
    _Scanned.scanned = 0
    found = planned_voids(text, "events.yaml", RULESET)
    assert found is not None and len(found) == 300
    assert _Scanned.scanned < 4 * len(text)
