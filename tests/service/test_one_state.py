"""Issue 34, "Pages and recordings see one state": an event is built under the lock, on the
state the rules decide on; a page is made from one whole state while recordings go on."""

from __future__ import annotations

import threading
from pathlib import Path

from cok.core.campaign import open_campaign
from cok.serve.warm import WarmCampaign
from cok.service import Asked, Draft, Who, record

from .conftest import log_of


def test_a_draft_is_built_on_the_state_the_rules_decide_on_not_one_read_before_the_lock(two: Path) -> None:
    warm = open_campaign(two)  # a server's campaign, read before a terminal records
    record(two, [Draft("join", {"player": "sara", "name": "Sara", "faction": "stark"})], by="ann")
    done = record(two, [Draft("adjust", {"player": "Sara", "cp": 1, "reason": "late"})], by="ann", campaign=warm)
    assert done.written and done.events[0].player == "sara"  # type: ignore[attr-defined]
    assert log_of(two).count("player: sara") == 2


FACTIONS = ["stark", "lannister", "baratheon", "targaryen", "greyjoy", "martell", "bolton", "nights-watch"]


def _join(table: WarmCampaign, n: int) -> None:
    """A join, its castle the first free one when the faction's home is taken."""
    draft = Draft("join", {"player": f"p{n}", "faction": FACTIONS[n % len(FACTIONS)]})
    try:
        table.record([draft], Who("ann", organiser=True))
    except Asked as asked:
        question = asked.question
        table.record([draft], Who("ann", organiser=True), answers={question.field: question.options[0]})


def test_a_recording_never_changes_the_campaign_a_page_holds(two: Path) -> None:
    """A dict taken by a page gained a player after a join: the page's campaign is one whole
    version, and the recording makes the next."""
    table = WarmCampaign(two)
    view = table.view()
    held, players = view.campaign, view.campaign.state.players
    before, position, ids = dict(players), held.position, dict(held.ids())
    _join(table, 0)
    assert held.state.players is players and players == before
    assert held.position == position and held.ids() == ids
    assert "p0" in table.view().campaign.state.players  # the next page sees the join


def test_joins_recorded_in_threads_while_pages_render_never_show_half_a_state(two: Path) -> None:
    table = WarmCampaign(two)
    table.view().page("index.html")
    errors: list[BaseException] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            try:
                view = table.view()
                campaign = view.campaign
                seen = list(campaign.state.players)
                for _ in campaign.state.players.items():  # a page iterating the state
                    pass
                view.page("index.html")
                view.standings()
                assert list(campaign.state.players) == seen, "the page's state changed under it"
            except BaseException as error:  # every failure is the test's
                errors.append(error)
                return

    readers = [threading.Thread(target=read) for _ in range(3)]
    for reader in readers:
        reader.start()
    try:
        for n in range(12):
            _join(table, n)
    finally:
        stop.set()
        for reader in readers:
            reader.join()
    assert errors == []
    assert len(table.view().campaign.state.players) == 14
