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
