"""The replay cache may make cok faster, never different."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cok.core.cache import entry_file, load_entry, rows_file
from cok.core.campaign import open_campaign
from cok.core.position import digest
from cok.core.write import to_yaml
from cok.rulesets.clash_of_kings.map import Geography

from .clash_of_kings.test_properties import Intent, campaign_events, intents, maps, summary
from .conftest import EXAMPLE, Cok, event


def write_campaign(folder: Path, geo: Geography, log: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    locations = [{"name": n, "kind": loc.kind} for n, loc in geo.locations.items()]
    routes = {
        "land": [[r.a, r.b] for r in geo.routes if r.kind == "land"],
        "sea": [[r.a, r.b] for r in geo.routes if r.kind == "sea"],
    }
    (folder / "map.yaml").write_text(yaml.safe_dump({"name": "random", "locations": locations, "routes": routes}))
    (folder / "campaign.yaml").write_text("name: Random\nmap: map.yaml\n")
    (folder / "events.yaml").write_text("".join(to_yaml(event(e)) for e in log))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@pytest.mark.slow
@given(geo=maps(), plan=intents, split=st.integers(0, 100))
def test_cached_and_uncached_replays_agree_on_random_campaigns(
    tmp_path_factory: Any, geo: Geography, plan: list[Intent], split: int
) -> None:
    folder = tmp_path_factory.mktemp("random")
    log = campaign_events(geo, plan, 3)
    cut = len(log) * split // 100
    write_campaign(folder, geo, log[:cut] or log[:1])
    assert summary(open_campaign(folder).state) == summary(uncached(folder).state)  # cold, then cached
    assert summary(open_campaign(folder).state) == summary(uncached(folder).state)  # warm
    with open(folder / "events.yaml", "a") as handle:  # the log grows: only the new events replay
        handle.write("".join(to_yaml(event(e)) for e in log[max(cut, 1) :]))
    grown = open_campaign(folder)
    assert grown.problems == uncached(folder).problems == []
    assert summary(grown.state) == summary(uncached(folder).state)
    assert open_campaign(folder).history() == uncached(folder).history()


def uncached(folder: Path) -> Any:
    return open_campaign(folder, use_cache=False)


def test_a_corrupt_cache_is_ignored_and_rebuilt(example: Path) -> None:
    expected = Cok(example)("standings", "--json", "--no-cache").stdout
    assert Cok(example)("standings", "--json").stdout == expected
    target = entry_file(example)
    assert target.exists()
    for garbage in (b"", b"not json", os.urandom(300), target.read_bytes()[:50]):
        target.write_bytes(garbage)
        assert Cok(example)("standings", "--json").stdout == expected
    assert open_campaign(example).name == "The War of the Five Kings"


def test_a_foreign_cache_is_ignored(tmp_path: Path, example: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(example.parent / "example", other / "campaigns" / "x")
    Cok(example)("standings")
    entry_file(other / "campaigns" / "x").parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(entry_file(example), entry_file(other / "campaigns" / "x"))
    (other / "campaigns" / "x" / "campaign.yaml").write_text("name: Other\nmap: map.yaml\n")
    assert open_campaign(other / "campaigns" / "x").name == "Other"


def test_an_edited_log_is_replayed_in_full(example: Path) -> None:
    Cok(example)("standings")
    log = example / "events.yaml"
    text = log.read_text()
    log.write_text(text.replace("name: Tim", "name: Timothy", 1) + "- type: week\n")
    run = Cok(example)("standings", "--json")
    assert '"Timothy"' in run.stdout
    assert '"week": 6' in run.stdout


def test_a_changed_map_or_settings_is_noticed(example: Path) -> None:
    assert "The War of the Five Kings" in Cok(example)("standings").stdout
    settings_file = example / "campaign.yaml"
    settings_file.write_text(settings_file.read_text().replace("The War of the Five Kings", "A Dance with Dragons"))
    assert "A Dance with Dragons" in Cok(example)("standings").stdout


def test_recording_keeps_the_cache_in_step(example: Path) -> None:
    cok = Cok(example)
    assert cok("week", "--next").exit_code == 0
    assert cok("adjust", "tim", "2", "--reason", "x").exit_code == 0
    assert cok("standings", "--json").stdout == cok("standings", "--json", "--no-cache").stdout
    entry = load_entry(example)
    assert entry is not None
    assert entry["log"]["digest"] == digest((example / "events.yaml").read_bytes())
    assert cok("log", "--json").stdout == cok("log", "--json", "--no-cache").stdout


def test_check_no_cache_writes_no_cache() -> None:
    assert Cok(EXAMPLE)("check", "--no-cache").exit_code == 0
    assert not entry_file(EXAMPLE).exists()


def test_a_lost_id_index_means_a_full_replay_before_recording(example: Path) -> None:
    cok = Cok(example)
    cok("standings")
    rows_file(example, "ids").write_bytes(b"garbage")
    assert cok("adjust", "tim", "1", "--reason", "x").exit_code == 0
    assert cok("check", "--no-cache").exit_code == 0
    assert cok("standings", "--json").stdout == cok("standings", "--json", "--no-cache").stdout


def test_a_lost_history_means_a_full_replay_for_the_log(example: Path) -> None:
    cok = Cok(example)
    expected = cok("log", "--json", "--no-cache").stdout
    cok("standings")
    rows = rows_file(example, "history")
    rows.write_bytes(rows.read_bytes().replace(b"week", b"weak", 1))
    assert cok("log", "--json").stdout == expected


def test_where_log_site_and_map_read_the_cached_state(example: Path, tmp_path: Path) -> None:
    """One path to the state: every reading command agrees with a replay of the whole log."""
    cok = Cok(example)
    cok("standings")
    for args in (("where", "tim", "matt", "--json"), ("log", "--json"), ("locations", "--json")):
        assert cok(*args).stdout == cok(*args, "--no-cache").stdout
    cok("map", "--svg", str(tmp_path / "a.svg"))
    cok("map", "--svg", str(tmp_path / "b.svg"), "--no-cache")
    assert (tmp_path / "a.svg").read_text() == (tmp_path / "b.svg").read_text()


def test_a_history_broken_part_way_is_told_on_from_a_replay(example: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr("cok.core.cache.CHUNK", 4)  # a line of rows every four events
    whole = [t.text for t in open_campaign(example, use_cache=False).history()]
    open_campaign(example)  # writes the cache
    path = rows_file(example, "history")
    assert path is not None
    lines = path.read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"', b"'", 1)  # the third line no longer matches its checksum
    path.write_bytes(b"\n".join(lines))
    told = open_campaign(example).told()
    first = [next(told).text for _ in range(8)]  # the two good lines
    assert [*first, *(t.text for t in told)] == whole


def test_the_log_as_json_is_written_a_piece_at_a_time_as_the_whole_document() -> None:
    from cok.render.documents import dumps, dumps_list

    for items in ([], [{"a": 1, "b": [1, 2], "c": "x\ny"}], [{"a": {}}, {"b": []}, 3, "é"]):
        assert "".join(dumps_list("events", items, per_piece=2)) == dumps({"events": items})


def test_the_first_replay_writes_the_history_to_the_cache_as_it_goes_and_keeps_none_of_it(example: Path) -> None:
    whole = [t.text for t in open_campaign(example, use_cache=False).history()]
    first = open_campaign(example)  # no cache yet: a full replay
    assert first._history is None and first._history_rows is None
    assert [t.text for t in first.told()] == whole
    leftovers = [p.name for p in rows_file(example, "history").parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


def test_a_cached_state_goes_straight_to_the_collectors_oldest_generation(example: Path) -> None:
    """The cached state stays alive for the whole command: the young collections must not
    scan it (at 100,000 events, a 10 ms pass on the first of them)."""
    import gc

    open_campaign(example)  # writes the cache
    opened = open_campaign(example)
    young = {id(o) for generation in (0, 1) for o in gc.get_objects(generation=generation)}
    assert gc.isenabled()
    assert id(opened.state) not in young
    assert not any(id(v) in young for v in vars(opened.state).values())
