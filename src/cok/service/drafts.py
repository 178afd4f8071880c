"""A draft: one event as a user gave it (its type, its fields as typed), and who gives it;
and how a draft becomes the event the log will hold, through the game's intents or, for a
game or an event without them, through the event model, as the log itself is read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cok.core.errors import RuleError

if TYPE_CHECKING:
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.core.ruleset import Ruleset

#: What the ledger sets on an event (`rolled`: the dice cok rolled for it; `default`, `due`: a
#: missed deadline's, docs/deadlines.md): a client never gives them.
RESERVED = ("id", "at", "by", "rolled", "default", "due")


@dataclass(frozen=True)
class Draft:
    """One event as a user gave it: its `type` and its fields under the event's own field
    names (the log's keys, as in events.yaml), values as people type them: names in any
    case or spelling `cok` accepts, `P=N` strings or {P: N} mappings. No `id`, `at`, `by`."""

    type: str
    fields: Mapping[str, Any] = field(default_factory=dict)
    #: What the ledger itself sets on the event it builds (a default's `default:`, `due:` and
    #: `at:`, docs/deadlines.md): never from a client, whose drafts carry only `fields`.
    marks: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Who:
    """Who records: a player id of the campaign, or an organiser (name: the invited name)."""

    name: str
    organiser: bool = False


def build(ruleset: Ruleset, state: Any, draft: Draft, answers: Mapping[str, Any], dice: Dice) -> EventBase:
    """The event a draft stands for, with the answers to the rules' questions: RuleError
    when it cannot be one (an unknown name, a field the event does not have…)."""
    from pydantic import ValidationError

    from cok.core.log import event_types
    from cok.core.names import did_you_mean
    from cok.core.validation import describe

    types = event_types(ruleset)
    if not isinstance(draft.type, str) or not isinstance(draft.fields, Mapping):
        raise RuleError("an event is a `type` and a mapping of its fields to their values")
    if not all(isinstance(name, str) for name in draft.fields):
        raise RuleError("an event's fields are named by text")
    if draft.type not in types:
        near = did_you_mean(draft.type, types)
        raise RuleError(f"unknown event type {draft.type!r}{near}; known: {', '.join(types)}")
    given = [name for name in RESERVED if name in draft.fields or name in answers]
    if given:
        raise RuleError(f"{', '.join(f'`{name}`' for name in given)}: set by cok when it records, never given")
    if "type" in draft.fields and draft.fields["type"] != draft.type:
        raise RuleError(f"the draft is a {draft.type!r} but its `type` says {draft.fields['type']!r}")
    model = types[draft.type]
    known = {"type", *model.model_fields, *(f.alias for f in model.model_fields.values() if f.alias)}
    stray = [name for name in draft.fields if name not in known]
    if stray:
        near = "".join(did_you_mean(name, known) for name in stray[:1])
        raise RuleError(f"a {draft.type} has no {', '.join(f'`{name}`' for name in stray)}{near}")
    try:
        event = ruleset.build(state, draft.type, draft.fields, answers, dice)
    except ValidationError as error:
        raise RuleError("; ".join(describe(error, types[draft.type]))) from None
    made = event if event is not None else as_logged(ruleset, draft, answers)
    return made.model_copy(update=dict(draft.marks)) if draft.marks else made


def as_logged(ruleset: Ruleset, draft: Draft, answers: Mapping[str, Any]) -> EventBase:
    """The draft read as the log reads an event (its upcasts, its model), the answers given
    as its fields: what `POST /api/events` sends for every game."""
    from cok.core.log import event_types, parse_event
    from cok.core.yamlfile import YamlMap

    data = {"type": draft.type, **draft.fields, **{k: v for k, v in answers.items() if k in _fields(ruleset, draft)}}
    item = YamlMap(data)
    item.line, item.key_lines = 0, {}
    event, errors = parse_event(item, event_types(ruleset), ruleset)
    if event is None:
        raise RuleError("; ".join(errors) or f"not a {draft.type} event")
    return event


def _fields(ruleset: Ruleset, draft: Draft) -> set[str]:
    from cok.core.log import event_types

    model = event_types(ruleset).get(draft.type)
    return set(model.model_fields) if model is not None else set()
