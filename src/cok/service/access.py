"""Who may record what, decided before the rules are asked (a stranger learns nothing from
the answer): an organiser anything; a player only the events the game's `involved` names
them in, and in those only the fields the game's `player_fields` lists (an `override` is an
organiser's ruling); an event that names no player, or that is the organiser's although it
names one (a week, an adjustment, a void, a join), only an organiser."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.errors import RuleError
from cok.service.drafts import RESERVED, Draft, Who, build

if TYPE_CHECKING:
    from cok.core.campaign import Campaign


def may_record(
    folder_or_campaign: Path | str | Campaign,
    draft: Draft,
    who: Who,
    answers: Mapping[str, Any] | None = None,
) -> bool:
    """Whether `who` may record this draft (with these answers to the rules' questions)."""
    return refusal(folder_or_campaign, draft, who, answers) is None


def refusal(
    folder_or_campaign: Path | str | Campaign,
    draft: Draft,
    who: Who,
    answers: Mapping[str, Any] | None = None,
) -> str | None:
    """Why `who` may not record this draft, in a sentence; None when they may. Decided once,
    field by field: a player sends only the types and fields their game's `player_fields`
    lists (an `override` is an organiser's ruling), about themselves (the players it names
    are found as a recording would find them, names in any spelling)."""
    from cok.core.ruleset import organiser_events

    if who.organiser:
        return None
    campaign = _opened(folder_or_campaign)
    ruleset = campaign.ruleset
    theirs = f"{who.name} may record only events they take part in; ask an organiser"
    if not isinstance(draft.type, str) or not isinstance(draft.fields, Mapping):
        return theirs  # not an event at all: nothing a player may record
    if draft.type in ("confirm", "dispute"):  # the other side of its result (docs/confirm.md)
        from cok.service.confirming import refusal as answering

        target = draft.fields.get("target")
        if not isinstance(target, str):
            return f"a {draft.type} names its result: `target`"
        extra = sorted(str(k) for k in draft.fields if k not in {"type", "target", "reason", "note"})
        if extra:
            return ", ".join(f"`{k}`" for k in extra) + f": not a field a player gives in a {draft.type}"
        return answering(campaign, draft.type, target, who)
    allowed = ruleset.player_fields.get(draft.type)
    if draft.type in organiser_events(ruleset) or allowed is None:
        article = "an" if draft.type[:1] in "aeiou" else "a"
        return f"{article} {draft.type} is recorded by an organiser; ask one"
    fields = _event_fields(ruleset, draft.type)
    own = {"type", *RESERVED, *allowed}  # the ledger's own fields are refused to everyone when recording
    sent = [str(k) for k in draft.fields if k not in own]
    sent += [str(k) for k in (answers or {}) if k in fields and k not in own and k not in sent]
    if sent:
        named = ", ".join(f"`{k}`" for k in sent)
        return f"{named}: an organiser's to give in a {draft.type}, not a player's; ask an organiser"
    named_players = _named(campaign, draft)
    try:
        player = ruleset.player(campaign.state, who.name)
    except RuleError:  # invited, not yet in the game: a join that names them as themselves
        player = who.name
    if player in named_players:
        return None
    return _games_reason(campaign, draft, player) or theirs


def _event_fields(ruleset: Any, type: str) -> set[str]:
    """An event type's fields as the log names them (aliases), with the ledger's own."""
    from cok.core.log import event_types

    model = event_types(ruleset).get(type)
    if model is None:
        return set()
    return {*(f.alias or n for n, f in model.model_fields.items()), *model.model_fields}


def _games_reason(campaign: Campaign, draft: Draft, player: str) -> str | None:
    """The game's own reason a player may not record this draft (its `refusal(state, type,
    fields, player)`: No True King's card waited for, a card not one's own), None without one."""
    said = campaign.ruleset.refusal(campaign.state, draft.type, draft.fields, player)
    return str(said) if said else None


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
