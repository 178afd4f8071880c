"""A void's full pass (`campaign.replayed_without`: the log replayed with the void appended, as
a recording decides it) applies each event as it is read, never holding the whole log's
events at once (the 100,000-event server's peak after a void, issue #37), and decides
exactly as the whole list folded does: the same state, problems and refused events."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cok.core import log as logs
from cok.core.campaign import open_campaign, read, replayed_without
from cok.core.events import Entry, Void
from cok.core.fold import Folded, fold
from cok.core.plain import encode
from cok.core.replay import read_entries, set_up
from cok.rulesets import install

ROOT = Path(__file__).resolve().parents[1]
#: Every shipped example campaign (each game's long logs), found in campaigns/.
EXAMPLES = sorted(folder for folder in (ROOT / "campaigns").iterdir() if (folder / "campaign.yaml").is_file())


def _whole_list(folder: Path, voids: list[Void]) -> Folded:
    """The same pass with every event of the log read into one list first (as it was done)."""
    files = read(folder)
    setup = set_up(folder, files)
    log = read_entries(folder, files, setup.ruleset)
    entries = [*log.entries, *(Entry(v, None) for v in voids)]
    return fold(setup.ruleset, entries, setup.state, log.shown, telling=False)


def _decided(done: Folded) -> tuple[Any, ...]:
    return (
        encode(done.state),  # as the cache keeps it (the map's lazily worked out parts left out)
        [(p.line, p.message) for p in done.problems],
        [(r.ref, r.problem.line) for r in done.refused],
        done.ids,
    )


def _void(target: str, n: int) -> Void:
    return Void(target=target, reason=f"test {n}", id=f"v{n:011d}")


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_a_voids_pass_decides_as_the_whole_list_folded(example: Path, tmp_path: Path) -> None:
    install()
    folder = tmp_path / example.name
    shutil.copytree(example, folder)
    refs = [t.ref for t in open_campaign(folder, use_cache=False).told() if t.ref]
    assert len(refs) > 20
    targets = [*refs[:: max(1, len(refs) // 12)], refs[-1]]
    refused_somewhere = False
    for n, target in enumerate(targets):
        voids = [_void(target, n)]
        streamed = replayed_without(folder, voids)
        assert _decided(streamed) == _decided(_whole_list(folder, voids)), target
        refused_somewhere |= bool(streamed.refused)
    both = [_void(targets[-1], 90), _void(targets[-2], 91)]  # several voids recorded as one change
    assert _decided(replayed_without(folder, both)) == _decided(_whole_list(folder, both))
    if example.name == "example":
        assert refused_somewhere  # a void that leaves later events refused was among them


def test_a_void_of_a_void_in_the_log_brings_its_target_back_as_the_whole_list_does(tmp_path: Path) -> None:
    install()
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLES[0], folder)
    campaign = open_campaign(folder, use_cache=False)
    void = next(t for t in campaign.told() if t.type == "void")
    assert void.id is not None
    voids = [_void(void.id, 1)]
    streamed = replayed_without(folder, voids)
    assert _decided(streamed) == _decided(_whole_list(folder, voids))
    assert encode(streamed.state) != encode(campaign.state)  # its target stands again


def test_a_voids_pass_hands_each_event_on_as_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    install()
    folder = tmp_path / "example"
    shutil.copytree(EXAMPLES[0], folder)
    target = next(t.ref for t in open_campaign(folder, use_cache=False).told() if t.ref)
    kept: list[int] = []
    reading = logs.read_log

    def watched(*args: Any, **kw: Any) -> logs.Log:
        found = reading(*args, **kw)
        kept.append(len(found.entries) if kw.get("take") is not None else -1)
        return found

    monkeypatch.setattr(logs, "read_log", watched)
    replayed_without(folder, [_void(target, 1)])
    assert kept == [0]  # read once, streamed, nothing left held
