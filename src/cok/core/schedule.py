"""The organiser's schedule in campaign.yaml (issue 48, docs/deadlines.md): `timezone:`,
`deadlines:`, `defaults:`, `reminders:` and `extension:` checked against the game's own steps,
each mistake refused at its own line with what would be accepted; and the clock a campaign's
replay starts from. The model has read the keys' shapes; only this module knows the steps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cok.core.deadlines import Clock, Spec, Step, set_up, spec, zone
from cok.core.errors import Problem
from cok.core.names import did_you_mean, one_of
from cok.core.yamlfile import YamlList, YamlMap

if TYPE_CHECKING:
    from cok.core.ruleset import Ruleset


def refusals(ruleset: Ruleset, data: YamlMap, shown: str) -> list[Problem]:
    """Every mistake in the campaign's time keys, each at its line: an unknown zone, a step
    the game does not have, a time that does not read, a default the step does not offer."""
    steps = {s.key: s for s in ruleset.deadline_steps}
    problems: list[Problem] = []

    def line(mapping: Any, key: str) -> int:
        if isinstance(mapping, YamlMap):
            return mapping.key_lines.get(key, mapping.line)
        return data.line

    name = data.get("timezone")
    if isinstance(name, str):
        found = zone(name)
        if isinstance(found, str):
            problems.append(Problem(shown, line(data, "timezone"), f"timezone: {found}"))
    for key in ("deadlines", "defaults"):
        given = data.get(key)
        if not isinstance(given, YamlMap):
            continue
        for step_key, value in given.items():
            step = steps.get(step_key)
            at = line(given, step_key)
            if step is None:
                problems.append(Problem(shown, at, f"{key}.{step_key}: {_unknown(ruleset, step_key, steps)}"))
            elif key == "deadlines":
                read = spec(str(value))
                if isinstance(read, str):
                    problems.append(Problem(shown, at, f"deadlines.{step_key}: {read}"))
            elif str(value) not in step.defaults:
                said = one_of(str(value), step.defaults)
                problems.append(Problem(shown, at, f"defaults.{step_key}: {said} ({_choices(step)})"))
    reminders = data.get("reminders")
    if isinstance(reminders, YamlList):
        for index, value in enumerate(reminders):
            at = reminders.item_lines[index] if index < len(reminders.item_lines) else reminders.line
            wrong = _duration(str(value))
            if wrong is not None:
                problems.append(Problem(shown, at, f"reminders[{index + 1}]: {wrong}"))
    extension = data.get("extension")
    if isinstance(extension, str):
        wrong = _duration(extension)
        if wrong is not None:
            problems.append(Problem(shown, line(data, "extension"), f"extension: {wrong}"))
    return problems


def _unknown(ruleset: Ruleset, key: str, steps: dict[str, Step]) -> str:
    if not steps:
        return f"{ruleset.title} has no deadlines (it waits for nothing a deadline could end)"
    return f"{ruleset.title} has no step {key!r}{did_you_mean(key, steps)}; its steps: {', '.join(steps)}"


def _choices(step: Step) -> str:
    return f"{step.key}: {step.defaults[0]}, the safest, when not given"


def _duration(text: str) -> str | None:
    """What is wrong with a length of time (a reminder, an extension), None when it reads."""
    read = spec(text)
    if isinstance(read, str):
        return read
    if read.weekday is not None:
        return f"{text!r} is a weekday and time; write a length of time like 24h, 2h or 1d12h"
    return None


def clock(settings: Any) -> Clock:
    """The clock a campaign's log is replayed from: its deadlines, zone and absences, as the
    settings give them (none: the clock is off and the fold never asks the game)."""
    deadlines = getattr(settings, "deadlines", None) or {}
    made = set_up(
        {k: str(v) for k, v in deadlines.items()},
        str(getattr(settings, "timezone", "UTC") or "UTC"),
        int(getattr(settings, "absent_after", 0) or 0),
    )
    made.extensions = int(getattr(settings, "extensions", 0) or 0)
    return made


def length(text: str) -> Spec:
    """A length of time as read (an extension), ValueError in words when it is not one."""
    said = _duration(text)
    if said is not None:
        raise ValueError(said)
    read = spec(text)
    assert isinstance(read, Spec)
    return read
