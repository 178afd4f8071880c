"""Recording: drafts built into events through the game's intents, decided by its rules
and appended as one change under the campaign's lock, by the very ledger the command line
uses, then handed to the campaign's followers (service/followers.py: the chat's outbox, the
git commit, the push). A refusal or a question writes nothing; a follower never undoes it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.errors import Problem, Refused, RuleError
from cok.service.drafts import Draft, Who, build
from cok.service.questions import Asked, question

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.core.ledger import Recorded
    from cok.service.followers import Followers


@dataclass(frozen=True)
class Recording:
    """What recording did (or, for a dry run, would do)."""

    events: list[EventBase]  # as written (ids, at, by set); for a dry run, as they would be
    told: list[str]  # each in words, as `cok log` tells it
    document: dict[str, Any]  # the ruleset's report document (what `--json` prints)
    lines: list[Any]  # the report's lines (what the terminal shows)
    written: bool  # False for a dry run
    warnings: list[str] = field(default_factory=list)  # e.g. a follower that failed (the append stays)
    recorded: tuple[Recorded, ...] = ()  # the ledger's own account: the campaign after it, the outcomes

    @property
    def campaign(self) -> Campaign:
        """The campaign with these events (a dry run's: a copy no one else holds)."""
        return self.recorded[0].campaign


class Refusal(Refused):
    """The rules (or the draft) refused: nothing written. `rule` is the rules' own error,
    its message naming fields in backticks, for an interface to word as its own."""

    def __init__(self, shown: str, rule: RuleError, ruling: bool = True) -> None:
        from cok.core.text import in_file_words

        # the hint is what an organiser may rule instead (`override`): never offered to a player
        super().__init__(Problem(shown, None, in_file_words(rule.with_hint() if ruling else str(rule))))
        self.rule = rule


def by_name(by: Who | str | None) -> str | None:
    """The `by:` an event gets: the player's or organiser's name; None: $COK_BY or the login."""
    from cok.core.ledger import recorder

    if isinstance(by, Who):
        return by.name
    return by if by is not None else recorder()


#: The drafts to record, or how to draft them from the campaign as it is under the lock (the
#: ledger's defaults, docs/deadlines.md: decided once, whoever else records meanwhile).
Drafts = Sequence[Draft] | Callable[["Campaign"], Sequence[Draft]]


def record(
    folder: Path,
    drafts: Drafts,
    *,
    by: Who | str | None = None,
    answers: Mapping[str, Any] | None = None,
    dry_run: bool = False,
    again: bool = False,
    followers: Followers | None = None,
    under_lock: Callable[[list[Recorded]], None] | None = None,
    dice: Dice | None = None,
    use_cache: bool = True,
    campaign: Campaign | None = None,
    shared: bool = False,
    state_later: bool = False,
) -> Recording:
    """Build each draft into an event through the game's intents (pure: state, fields,
    answers, dice), decide, and append them as one change under the campaign's lock.
    Raises Refused (nothing written) or Asked (nothing written). Every change written (a
    dice commitment or a reveal made first is a change of its own) is handed to `followers`
    (default: the terminal's, `Followers(folder)`); a follower that failed at once is a
    warning, never a refusal. `under_lock`: the caller's own bookkeeping once written (the
    warm ledger's file stamps), never a follower.
    `campaign`: the folder's campaign already open (it is checked against the files);
    `shared`: others may read its state meanwhile (it is replaced, never changed);
    `state_later`: its state is written to the cache when the caller says (see `record_all`)."""
    from cok.core.campaign import open_campaign
    from cok.core.fairdice import Uncommitted
    from cok.service import confirming
    from cok.service import dice as fair
    from cok.service.followers import Followers

    answered = dict(answers or {})
    again = again or answered.pop("again", False) is True
    opened = campaign if campaign is not None else open_campaign(Path(folder), use_cache=use_cache)
    opened.valid()
    drafting = drafts if callable(drafts) else None
    if drafting is None and not drafts:
        raise Refused(Problem(opened.shown, None, "nothing to record: no event was given"))
    if not callable(drafts):
        given_text(opened.shown, drafts)

    def drafted(campaign: Campaign) -> Sequence[Draft]:
        return drafting(campaign) if drafting is not None else drafts  # type: ignore[return-value]

    following = followers if followers is not None else Followers(opened.folder)
    rolling = fair.dice_of(opened, answered) if dice is None else None
    if rolling is not None and not dry_run and fair.reveal_ended(opened, rolling, by_name(by), following):
        opened = open_campaign(opened.folder, use_cache=use_cache) if campaign is None else opened
        rolling = fair.dice_of(opened, answered)
    made: list[EventBase] = []  # the events built under the lock, which a reveal may close

    try:
        prebuilt: list[EventBase] | None = None
        if rolling is not None:  # a roll's period must be committed before it is rolled (docs/dice.md)
            try:
                prebuilt = _built(opened, drafted(opened), answered, dice, rolling)
            except Uncommitted:
                rolling = fair.first_roll(opened, answered, by_name(by), dry_run, following)
                prebuilt = _built(opened, drafted(opened), answered, dice, rolling)
            except RuleError:  # perhaps only on the state read before the lock: decided under it
                prebuilt = None

        def built(campaign: Campaign) -> list[EventBase]:
            """Under the lock, on the state the rules will decide on (a terminal may have
            recorded since the campaign was read); dice already rolled on that same state stand."""
            same = prebuilt is not None and (campaign is opened or dry_run)
            events = (
                list(prebuilt)
                if same and prebuilt is not None
                else _built(campaign, drafted(campaign), answered, dice, rolling)
            )
            confirming.check(campaign, events, by)  # only the other side or an organiser (docs/confirm.md)
            made[:] = events
            return events

        def closing(after: Campaign) -> list[EventBase]:
            """The seed revealed with the events that end its period, from the state they left."""
            return [] if rolling is None else fair.reveals(after, rolling, made, dry_run)

        done, warned = following.write(
            opened,
            built,
            then=closing,
            under_lock=under_lock,
            dry_run=dry_run,
            use_cache=use_cache,
            again=again,
            by=by_name(by),
            shared=shared,
            state_later=state_later,
        )
    except RuleError as error:
        if rolling is not None:
            fair.kept_after(rolling, [], written=False)  # the dice shown with a question stay the same
        asked = question(error)
        if asked is not None:
            raise Asked(asked) from error
        raise Refusal(opened.shown, error, ruling=not isinstance(by, Who) or by.organiser) from error
    if rolling is not None:
        fair.kept_after(rolling, [d.event for d in done], written=done[0].written)
    recording = _recording(done)
    recording.warnings.extend(warned)
    return recording


def _built(
    opened: Campaign, drafts: Sequence[Draft], answered: dict[str, Any], dice: Dice | None, rolling: Any
) -> list[EventBase]:
    """Each draft built by the game's intents, with the dice cok rolled for it recorded."""
    from cok.service.dice import with_rolled

    events = []
    for draft in drafts:
        if rolling is None:
            assert dice is not None
            events.append(build(opened.ruleset, opened.state, draft, answered, dice))
            continue
        since = len(rolling.dice.rolls)
        events.append(with_rolled(rolling, since, build(opened.ruleset, opened.state, draft, answered, rolling.dice)))
    return events


#: The longest free text one field may hold (a note, a reason, an override, an army list's
#: name): a paragraph, which the site and `cok log` show whole. Any other text (names, ids,
#: choices) is shorter still. Both keep a log of thousands of events quick to read.
MAX_NOTE = 2000
MAX_NAME = 200
FREE_TEXT = ("note", "reason", "override", "list")


def given_text(shown: str, drafts: Sequence[Draft]) -> None:
    """Refuse, before anything is decided, text that could not be written or is too long: a
    character that is not text (a byte that was not UTF-8, a lone surrogate in JSON) and any
    text over its bound, for every interface alike."""
    from cok.core.write import not_text, shown_key

    for draft in drafts:
        bad = not_text(draft.fields)
        if bad is not None:
            raise Refused(
                Problem(
                    shown,
                    None,
                    f"`{bad}` holds a character that is not text (a byte that is not UTF-8, or a lone "
                    "surrogate): type it again; nothing was recorded",
                )
            )
        for key, text in _texts(draft.fields, ""):
            bound = MAX_NOTE if key.split(".")[0] in FREE_TEXT else MAX_NAME
            if len(text) > bound:
                raise Refused(
                    Problem(
                        shown,
                        None,
                        f"`{shown_key(key)}` is {len(text):,} characters long: at most {bound:,} "
                        f"({'a note, reason or override' if bound == MAX_NOTE else 'a name or choice'}); "
                        "nothing was recorded",
                    )
                )


def _texts(value: Any, name: str) -> list[tuple[str, str]]:
    """Every string in a draft's fields (keys too), with the field it is in."""
    if isinstance(value, str):
        return [(name, value)]
    found: list[tuple[str, str]] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            inner = f"{name}.{key}" if name else str(key)
            found += [(inner, str(key))] if isinstance(key, str) else []
            found += _texts(item, inner)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found += _texts(item, name)
    return found


def _recording(done: Sequence[Recorded]) -> Recording:
    first, *others = done
    report = first.campaign.ruleset.report(first)
    together = [o.event.model_dump(mode="json", exclude_none=True) for o in others]
    document = {**report.document, **({"together_with": together} if others else {})}
    return Recording(
        events=[d.event for d in done],
        told=[d.text for d in done],
        document=document,
        lines=list(report.lines),
        written=first.written,
        recorded=tuple(done),
    )
