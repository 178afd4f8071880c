"""What the site-data tests of every game share: the example's log grown one event at a
time, the game's site data folded as it grows against the same made from the whole log."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from cok.core.campaign import Campaign, open_campaign
from cok.render.site import fold_of


def blocks(events: Path) -> tuple[str, list[str]]:
    """The log's head (its comments) and each event's text, as written."""
    head: list[str] = []
    found: list[list[str]] = []
    for line in events.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("- "):
            found.append([line])
        elif found:
            found[-1].append(line)
        else:
            head.append(line)
    return "".join(head), ["".join(b) for b in found]


def grown(example: Path, into: Path) -> Iterator[Campaign]:
    """The example copied into `into` with an empty log, then its events appended one at a
    time: the campaign as it is after each (opened through the cache, as a server would)."""
    folder = into / example.name
    shutil.copytree(example, folder)
    head, events = blocks(folder / "events.yaml")
    written = head
    for text in events:
        written += text
        (folder / "events.yaml").write_text(written, encoding="utf-8")
        yield open_campaign(folder)


def appended(campaign: Campaign, text: str) -> Campaign:
    """The campaign with one more event (YAML of a list item) at the end of its log."""
    with open(campaign.events_file, "a", encoding="utf-8") as handle:
        handle.write(text)
    return open_campaign(campaign.folder)


def whole(campaign: Campaign, make: Callable[[], Any]) -> Any:
    """The site data made from the whole log, folding nothing kept."""
    data = make()
    for told in campaign.told():
        data.add(told)
    return data


def passes(campaign: Campaign) -> int:
    return fold_of(campaign).full_passes


def plain(data: Any) -> Any:
    """A game's site data as plain values to compare: its newest pages as pages, its deques
    as lists, its other parts by their fields."""
    from collections import deque

    from cok.render.paging import Newest

    if isinstance(data, Newest):
        page = data.page()
        return (page.file, page.groups, page.entries)
    if isinstance(data, deque):
        return list(data)
    if isinstance(data, dict):
        return {k: plain(v) for k, v in data.items()}
    if hasattr(data, "__dict__") and not hasattr(data, "__dataclass_fields__"):
        return {k: plain(v) for k, v in vars(data).items()}
    return data


def checked_event_by_event(
    example: Path, into: Path, make: Callable[[], Any], site_data: Callable[[Campaign], Any]
) -> Campaign:
    """After each event of the example: the site data folded (as the pages use it) is the
    site data made from the whole log. Only the first event and each void cost a full pass."""
    from cok.render.site import site_history

    last = None
    for campaign in grown(example, into):
        site_data(campaign)
        assert plain(site_history(campaign, make)) == plain(whole(campaign, make))
        last = campaign
    assert last is not None
    voids = sum(1 for t in last.told() if t.type == "void")
    assert passes(last) == 1 + voids
    return last


def checked_after_a_void(campaign: Campaign, make: Callable[[], Any], site_data: Callable[[Campaign], Any]) -> None:
    """A void of the log's last event: the site data is made again (one full pass) and is
    the whole log's."""
    from cok.render.site import site_history

    site_data(campaign)
    target = [t for t in campaign.told() if t.type != "void"][-1]
    before = passes(campaign)
    campaign = appended(campaign, f"- type: void\n  target: {target.ref}\n  reason: a typo\n")
    site_data(campaign)
    assert plain(site_history(campaign, make)) == plain(whole(campaign, make))
    assert any(t.voided and t.ref == target.ref for t in campaign.told())
    assert passes(campaign) == before + 1
