"""The contract every ruleset keeps with the core, as one test class run for every game
(as eventsourcing runs one recorder test case for every storage backend): cached and
uncached replays agree, a void is the log without its target, events read back as
written, and the events' JSON Schema accepts exactly what the log reader accepts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cok.core.campaign import open_campaign
from cok.core.events import Entry
from cok.core.fold import fold
from cok.core.log import event_types, parse_event
from cok.core.plain import encode
from cok.core.ruleset import Ruleset
from cok.core.schemas import schema
from cok.core.write import to_yaml
from cok.core.yamlfile import YamlMap, parse

#: One class runs for every game, so each test is called from several subclasses: hypothesis's
#: `differing_executors` check is about exactly that, and draws here depend on the class only.
EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI never meets a new one by chance
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.differing_executors,
    ],
)


def canonical(state: Any) -> str:
    """The state as text that is equal exactly when the states are (sets in any order)."""

    def norm(value: Any) -> Any:
        if isinstance(value, dict):
            if len(value) == 1 and set(value) <= {"s", "f"}:
                return {k: sorted((norm(v) for v in items), key=json.dumps) for k, items in value.items()}
            if len(value) == 1 and set(value) <= {"fs", "ff"}:  # by columns: compare the rows, sorted
                ((tag, (shape, columns)),) = value.items()
                rows = columns if shape == -1 else [list(row) for row in zip(*columns, strict=True)]
                return {tag: sorted(rows, key=json.dumps)}
            return {k: norm(v) for k, v in value.items()}
        if isinstance(value, list):
            return [norm(v) for v in value]
        return value

    return json.dumps(norm(encode(state)), sort_keys=True)


def as_item(data: dict[str, Any]) -> YamlMap:
    item = YamlMap(data)
    item.line, item.key_lines = 1, {}
    return item


class RulesetContract:
    """Subclass with `ruleset`, `logs` (a strategy of valid logs: lists of event dicts
    with ids) and `write_campaign`."""

    ruleset: Ruleset
    logs: st.SearchStrategy[list[dict[str, Any]]]

    def write_campaign(self, folder: Path, log: list[dict[str, Any]]) -> None:
        raise NotImplementedError

    def parsed(self, data: dict[str, Any]) -> Any:
        found, errors = parse_event(as_item(data), event_types(self.ruleset), self.ruleset)
        assert found is not None, errors
        return found

    def folded(self, log: list[dict[str, Any]], state: Any) -> Any:
        entries = [Entry(self.parsed(data), line) for line, data in enumerate(log, start=1)]
        return fold(self.ruleset, entries, state, "events.yaml")

    def fresh(self, tmp: Path) -> Any:
        self.write_campaign(tmp / "fresh", [])
        return open_campaign(tmp / "fresh", use_cache=False).state

    @pytest.mark.slow
    @EXAMPLES
    @given(data=st.data())
    def test_cached_and_uncached_replays_agree(self, tmp_path_factory: Any, data: st.DataObject) -> None:
        log = data.draw(self.logs)
        cut = data.draw(st.integers(0, len(log)))
        folder = tmp_path_factory.mktemp("contract")
        self.write_campaign(folder, log[:cut])
        cold = open_campaign(folder)  # writes the cache
        warm = open_campaign(folder)  # reads it back
        assert canonical(warm.state) == canonical(cold.state) == canonical(open_campaign(folder, use_cache=False).state)
        with open(folder / "events.yaml", "a", encoding="utf-8") as handle:  # the log grows
            handle.write("".join(to_yaml(self.parsed(e)) for e in log[cut:]))
        grown = open_campaign(folder)
        full = open_campaign(folder, use_cache=False)
        assert grown.problems == full.problems == []
        assert canonical(grown.state) == canonical(full.state)
        assert open_campaign(folder).history() == full.history()

    @pytest.mark.slow
    @EXAMPLES
    @given(data=st.data())
    def test_voiding_an_event_gives_the_state_of_the_log_without_it(
        self, tmp_path_factory: Any, data: st.DataObject
    ) -> None:
        log = data.draw(self.logs.filter(bool))
        target = data.draw(st.integers(0, len(log) - 1))
        tmp = tmp_path_factory.mktemp("void")
        without = self.folded(log[:target] + log[target + 1 :], self.fresh(tmp))
        void = {"type": "void", "target": log[target]["id"], "reason": "test", "id": "the-void"}
        voided = self.folded([*log, void], self.fresh(tmp))
        if without.problems:  # later events needed the voided one: the void is refused too
            assert voided.problems
        else:
            assert voided.problems == []
            assert canonical(voided.state) == canonical(without.state)

    @pytest.mark.slow
    @EXAMPLES
    @given(data=st.data())
    def test_voiding_a_void_gives_the_state_of_the_log_with_its_target(
        self, tmp_path_factory: Any, data: st.DataObject
    ) -> None:
        """Issue #35: a mistaken void undone by voiding it: the events come back, and the whole
        log (a cached replay, or a folded list) is as if neither void were recorded."""
        log = data.draw(self.logs.filter(bool))
        target = data.draw(st.integers(0, len(log) - 1))
        tmp = tmp_path_factory.mktemp("undo")
        kept = self.folded(log, self.fresh(tmp))
        void = {"type": "void", "target": log[target]["id"], "reason": "test", "id": "the-void"}
        undo = {"type": "void", "target": "the-void", "reason": "undone", "id": "the-undo"}
        undone = self.folded([*log, void, undo], self.fresh(tmp))
        assert [p.message for p in undone.problems] == [p.message for p in kept.problems]
        assert canonical(undone.state) == canonical(kept.state)
        self.write_campaign(tmp / "read", [*log, void, undo])
        assert canonical(open_campaign(tmp / "read", use_cache=False).state) == canonical(kept.state)

    @EXAMPLES
    @given(data=st.data())
    def test_events_round_trip_through_yaml(self, data: st.DataObject) -> None:
        for entry in data.draw(self.logs):
            event = self.parsed(entry)
            (item,) = parse(to_yaml(event), "events.yaml")
            again, errors = parse_event(item, event_types(self.ruleset), self.ruleset)
            assert errors == []
            assert again == event

    @pytest.mark.slow
    @EXAMPLES
    @given(data=st.data())
    def test_the_schema_accepts_what_the_parser_accepts(self, data: st.DataObject) -> None:
        validator = jsonschema.Draft202012Validator(schema("events", self.ruleset))
        log = data.draw(self.logs)
        written = [self.parsed(e).model_dump(mode="json", exclude_none=True) for e in log]
        assert list(validator.iter_errors(written)) == []
        if not written:
            return
        entry = dict(written[data.draw(st.integers(0, len(written) - 1))])
        broken = data.draw(
            st.sampled_from(
                [
                    {**entry, "no_such_field": 1},
                    {**entry, "type": "no-such-event"},
                    {k: v for k, v in entry.items() if k not in ("type",)},
                ]
            )
        )
        accepted, _ = parse_event(as_item(broken), event_types(self.ruleset), self.ruleset)
        assert (accepted is not None) == validator.is_valid([broken])
