"""Who may record what, decided before the rules are asked (a stranger learns nothing from
the answer): an organiser anything; a player only the events the game's `involved` names
them in; an event that names no player, or that is the organiser's although it names one
(a week, an adjustment, a void, a join), only an organiser."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.errors import RuleError
from cok.service.drafts import Draft, Who, build

if TYPE_CHECKING:
    from cok.core.campaign import Campaign


def may_record(folder_or_campaign: Path | str | Campaign, draft: Draft, who: Who) -> bool:
    """Whether `who` may record this draft: the players it names are found as a recording
    would find them (names in any spelling), and nothing else is decided."""
    from cok.core.ruleset import organiser_events

    if who.organiser:
        return True
    campaign = _opened(folder_or_campaign)
    ruleset = campaign.ruleset
    if not isinstance(draft.type, str) or not isinstance(draft.fields, Mapping):
        return False  # not an event at all: nothing a player may record
    if draft.type in organiser_events(ruleset):
        return False
    named = _named(campaign, draft)
    if not named:
        return False
    try:
        player = ruleset.player(campaign.state, who.name)
    except RuleError:  # invited, not yet in the game: a join that names them as themselves
        player = who.name
    return player in named


def refusal(folder_or_campaign: Path | str | Campaign, draft: Draft, who: Who) -> str:
    """Why `who` may not record this draft: the game's own reason when it has one (its
    `refusal(state, type, fields, player)`), else the general one."""
    general = f"{who.name} may record only events they take part in; ask an organiser"
    campaign = _opened(folder_or_campaign)
    reason = getattr(campaign.ruleset, "refusal", None)
    if not callable(reason) or not isinstance(draft.type, str) or not isinstance(draft.fields, Mapping):
        return general
    try:
        player = campaign.ruleset.player(campaign.state, who.name)
    except RuleError:
        return general
    said = reason(campaign.state, draft.type, draft.fields, player)
    return str(said) if said else general


def _named(campaign: Campaign, draft: Draft) -> frozenset[str]:
    """The players a draft is about: the game's own `named(state, type, fields)` when it has
    one (it reads only the player fields, so a mistake elsewhere is the rules' to say), else
    the players of the event the draft builds into, or (when it does not build: a mistake
    the rules will name) of its fields as given; none when even those say no one."""
    from cok.core.dice import RandomDice
    from cok.core.log import event_types

    ruleset = campaign.ruleset
    found = ruleset.named(campaign.state, draft.type, draft.fields)
    if found is not None:
        return frozenset(found)
    try:
        return ruleset.involved(build(ruleset, campaign.state, draft, {}, RandomDice()))
    except (RuleError, ValueError, TypeError):
        pass
    model = event_types(ruleset).get(draft.type)
    try:  # the fields as given, unchecked: only to see whom they name
        return frozenset(ruleset.involved(model.model_construct(**draft.fields))) if model else frozenset()
    except Exception:  # fields of any shape: naming no one is the safe answer
        return frozenset()


def _opened(folder_or_campaign: Any) -> Campaign:
    from cok.core.campaign import Campaign, open_campaign

    if isinstance(folder_or_campaign, Campaign):
        return folder_or_campaign.valid()
    return open_campaign(Path(folder_or_campaign)).valid()
