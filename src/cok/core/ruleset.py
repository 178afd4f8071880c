"""What a game gives the ledger (the `Ruleset` protocol), and the registry of games.

The core knows no game: the command line registers the built-in rulesets by module name
(`cok.rulesets.install`), and a ruleset's module is imported only when a campaign of that
game is opened.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from cok.core.errors import Refused

if TYPE_CHECKING:
    from pydantic import BaseModel

    from cok.core.deadlines import Step, Wait
    from cok.core.dice import Dice
    from cok.core.events import EventBase
    from cok.core.history import Told

#: Turns an event's fields as written in an older shape into today's shape.
Upcast = Callable[[dict[str, Any]], dict[str, Any]]
#: One of a game's reads: a document of the campaign (keyword arguments as a user gives them,
#: e.g. `player="tim"`, `free="yes"`), the same for `--json`, the pages and `GET /api/<name>`.
Query = Callable[..., dict[str, Any]]

DEFAULT = "clash-of-kings"


@dataclass(frozen=True)
class Report:
    """What a recording command shows: its words, and its `--json` document."""

    lines: list[Any]  # render.views.View | str
    document: dict[str, Any]


@dataclass(frozen=True)
class Standings:
    """`cok standings`: the table and the `--json` document, each made only when it is
    asked for (a command shows one of them, and a warm `cok standings` must stay quick)."""

    table: Callable[[], list[Any]]  # render.views.View | str
    doc: Callable[[], dict[str, Any]]

    @property
    def lines(self) -> list[Any]:
        return self.table()

    @property
    def document(self) -> dict[str, Any]:
        return self.doc()


class Campaign(Protocol):
    """What a game's views see of an opened campaign (`core.campaign.Campaign`)."""

    @property
    def name(self) -> str: ...

    @property
    def state(self) -> Any: ...

    def history(self) -> list[Told]: ...


class Recorded(Protocol):
    """What a game's summary sees of a recording (`core.ledger.Recorded`)."""

    @property
    def event(self) -> EventBase: ...

    @property
    def outcome(self) -> Any: ...

    @property
    def text(self) -> str:
        """The outcome in a sentence."""

    @property
    def before(self) -> Any:
        """The game's tally before the event."""

    @property
    def written(self) -> bool: ...

    @property
    def state(self) -> Any: ...


class Ruleset(Protocol):
    """One game. Everything not listed here — the log, voids, the fold, the cache, appends,
    merges, the shared commands — is the core's and the same for every game."""

    id: str  # as written in campaign.yaml's `ruleset:`
    title: str
    events: Mapping[str, type[EventBase]]  # its event models by `type` (the core adds `void`)
    upcasts: Mapping[str, Sequence[Upcast]]  # per event type, oldest first
    settings_model: type[BaseModel]  # campaign.yaml: the core's keys and the game's
    new_settings: Mapping[str, Any]  # the game's keys as `cok init` writes them
    map_model: type[BaseModel]  # the map file's shape, for its JSON Schema

    @property
    def cached_types(self) -> Sequence[type]:
        """The dataclasses its state and map are made of: the only ones the cache may build."""

    command: str | None  # its group of commands (`mk`: `cok mk …`); None: the top-level ones
    first_step: str  # what `cok init` says to run next
    sequential: bool  # every event waits for the ones before it (whose turn it is)
    organiser_events: frozenset[str]  # types only an organiser records although they name a player
    results: frozenset[str]  # types of its results (battles) the other side confirms or disputes
    #: What a player may record from a phone: per event type, the fields (as the log names
    #: them) a player may send; a type or field not listed is an organiser's.
    player_fields: Mapping[str, frozenset[str]]

    def other_side(self, players: frozenset[str], by: str | None) -> frozenset[str]:
        """Who confirms or disputes a result among its players, recorded `by` someone
        (docs/confirm.md): the players not on the recorder's side (none: nobody is asked)."""

    def builtin_map(self) -> Path:
        """The map a new campaign of this game gets a copy of."""

    def load_map(self, text: str, shown: str) -> Any:
        """The map file's text as the game's map; Refused listing every mistake with its line."""

    def initial_state(self, map: Any, settings: Any) -> Any:
        """The state before the first event, on this map with these settings."""

    def decide(self, state: Any, event: EventBase) -> Any:
        """What the event does, as an outcome (RuleError/ChoiceNeeded when refused). Changes
        nothing: a recording decides once, asks `repeats` of the outcome, then commits it."""

    def commit(self, outcome: Any, state: Any) -> None:
        """Apply an outcome `decide` gave for this very state."""

    def apply(self, state: Any, event: EventBase) -> Any:
        """`decide`, then `commit` (a replay's every event): the outcome. A refused event
        changes nothing."""

    def label(self, event: EventBase) -> str:
        """How an error names the event: `battle at Starfall`."""

    def tell(self, state: Any, outcome: Any) -> str:
        """The outcome in a sentence for `cok log` (state: just after the event)."""

    def untold(self, state: Any, event: EventBase) -> str:
        """A voided event, which the rules never applied, in a few words."""

    def player(self, state: Any, typed: str) -> str:
        """A player's id from their id or name as typed; RuleError naming the known ones."""

    def involved(self, event: EventBase) -> frozenset[str]:
        """The players an event is about (`cok log --player`)."""

    def tally(self, state: Any) -> Any:
        """What a recording's summary compares before and after (e.g. each player's CP)."""

    def report(self, recorded: Recorded) -> Report:
        """The summary of a recording: what changed, in words and as JSON."""

    def standings(self, campaign: Campaign) -> Standings:
        """`cok standings`: the players, ranked."""

    def site_pages(self, campaign: Campaign, served: bool = False) -> Iterable[tuple[str, str]]:
        """`cok site`: the static site's files (path relative to its folder, text), one at a
        time, so that a long campaign's site is never held whole. `served`: as `cok serve`
        shows them after every recording (shorter pages of the log and of each player)."""

    def map_svg(self, campaign: Campaign) -> str:
        """`cok map --svg`: the map as a standalone SVG document."""

    def commands(self) -> Any:
        """The game's own commands (a typer.Typer)."""

    def repeats(self, state: Any, outcome: Any) -> str | None:
        """That a decided event repeats one recorded before (the same battle twice), in
        words: refused without `--again`, asked at a terminal; None when it does not. Judged
        from `decide`'s outcome, so that a recording runs the event's rule once."""

    def names(self, state: Any, kind: str) -> list[str]:
        """Names for shell completion by kind (`player`, `location`; another game's `tile`)."""

    def public(self, event: EventBase) -> dict[str, Any]:
        """The fields of an event the history may keep (`cok log --json`, the site)."""

    def build(
        self, state: Any, type: str, fields: Mapping[str, Any], answers: Mapping[str, Any], dice: Dice
    ) -> EventBase | None:
        """Its intents (see `Intents`): None leaves the event to the log's own shape."""

    def named(self, state: Any, type: str, fields: Mapping[str, Any]) -> frozenset[str] | None:
        """The players a draft names, found as recording finds them (who may record it);
        None: the players of the event it builds into."""

    def copy(self, state: Any) -> Any:
        """A copy of the state the rules may change (a dry run, a batch)."""

    def period(self, state: Any) -> str:
        """The period the campaign is in, in words (`week 3`): its dice are committed before
        its first roll and revealed when it ends (docs/dice.md)."""

    def dice_agree(self, type: str, fields: dict[str, Any], dice: list[int]) -> str | None:
        """Whether an event's own fields say what the dice cok rolled for it gave (its log
        fields, as `cok log --json` shows them): a sentence when they do not."""

    def status(self, campaign: Campaign, **args: Any) -> dict[str, Any] | None:
        """Its status document (`cok where --json`, `cok mk status --json`); None: it has none."""

    def web(self) -> Any:
        """Its pages at the table (`cok serve`), a `cok.serve.kit.Web`; None: served read-only."""

    @property
    def queries(self) -> Mapping[str, Query]:
        """Its reads by name (`cok mk armies --json` is `armies`): the one home of every
        document its commands, its pages and `GET /api/<name>` show (`service.queries.read`)."""

    @property
    def shapes(self) -> Mapping[str, type[BaseModel]]:
        """The shape of each read's document (`standings` and each of its `queries`), as a
        model (`core.shapes.Document`): what `GET /api/<name>` publishes in the OpenAPI."""

    def refusal(self, state: Any, type: str, fields: Mapping[str, Any], who: str) -> str | None:
        """Why a player may not record this draft, in the game's words (No True King: a card
        waited for, a card not one's own); None: the service's own rules decide."""

    #: Its event types posted in the club's chat (cok notify), as the kind of post each is.
    notify_kinds: Mapping[str, str]

    def notify_waits(self, campaign: Campaign) -> tuple[str, str] | None:
        """Whom the ledger waits for and what for (a nudge in the club's chat); None: nobody."""

    def notify_ended(self, recorded: Recorded) -> str | None:
        """The game's end with its scores, posted when this recording ended it; None: not ended."""

    def notify_opened(self, recorded: Recorded) -> tuple[str, str] | None:
        """A period this recording opens besides its own post (No True King's next round), as
        (post kind, words); None: it opens none."""

    #: What its ledger waits for, as `campaign.yaml`'s `deadlines:` and `defaults:` name each
    #: step (docs/deadlines.md); empty: the game has no deadlines.
    deadline_steps: Sequence[Step]

    def waits(self, state: Any) -> Sequence[Wait]:
        """Everything the ledger waits for now, each with its step, player and identity (pure:
        the fold asks it after every event of a campaign with deadlines)."""

    def defaults(self, state: Any, wait: Wait, choice: str) -> Sequence[tuple[str, dict[str, Any]]]:
        """The drafts (event type, fields as a user would give them) recorded for `wait` when
        it is missed, under the organiser's `choice` of its step's defaults; none for `none`.
        They go through the one recording path, the game's intents and fair dice included."""


class Lazy:
    """A member of the game's own package (`"module:name"`), imported the first time it is
    used and then kept on the game: a game's module stays light (a warm `cok standings` loads
    no rules it does not run), and a replay's every event is no import statement (~1 µs each)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, game: object | None, owner: type) -> Any:
        found = own(owner, self.where)
        if game is not None:
            vars(game)[self.name] = found
        return found


def own(game: type, where: str) -> Any:
    """`"module:name"` of the package that defines the game's class, imported now."""
    module, _, member = where.partition(":")
    # an import statement's own path (`__import__`), so that `-X importtime` sees it too
    return getattr(__import__(f"{game.__module__}.{module}", fromlist=[member]), member)


class Game:
    """What every game has unless it says otherwise: the `Ruleset` protocol's optional members
    with their defaults. A game subclasses it and names its modules' members with `Lazy`."""

    command: str | None = None
    first_step = "cok join PLAYER"
    sequential = False
    organiser_events: frozenset[str] = frozenset()
    results: frozenset[str] = frozenset()
    player_fields: Mapping[str, frozenset[str]] = {}
    upcasts: Mapping[str, Sequence[Upcast]] = {}
    map_file = ""  # the shipped map's file name, in the game's own `maps/` folder

    def builtin_map(self) -> Path:
        return shipped_map(type(self).__module__, self.map_file)

    def repeats(self, state: Any, outcome: Any) -> str | None:
        return None

    def names(self, state: Any, kind: str) -> list[str]:
        return []

    def public(self, event: EventBase) -> dict[str, Any]:
        shown: dict[str, Any] = event.model_dump(mode="json", exclude_none=True)
        return shown

    def build(
        self, state: Any, type: str, fields: Mapping[str, Any], answers: Mapping[str, Any], dice: Dice
    ) -> EventBase | None:
        return None

    def named(self, state: Any, type: str, fields: Mapping[str, Any]) -> frozenset[str] | None:
        return None

    def other_side(self, players: frozenset[str], by: str | None) -> frozenset[str]:
        # each player is a side of their own: everyone but the recorder; none when the recorder took
        # no part (an organiser's recording is already a ruling: nobody is asked to confirm it)
        return players - {by} if by in players else frozenset()

    def copy(self, state: Any) -> Any:
        return copy.deepcopy(state)

    def period(self, state: Any) -> str:
        return "the campaign"

    def dice_agree(self, type: str, fields: dict[str, Any], dice: list[int]) -> str | None:
        return None

    def status(self, campaign: Campaign, **args: Any) -> dict[str, Any] | None:
        return None

    def web(self) -> Any:
        return None

    @property
    def queries(self) -> Mapping[str, Query]:
        return {}

    @property
    def shapes(self) -> Mapping[str, type[BaseModel]]:
        return {}

    def refusal(self, state: Any, type: str, fields: Mapping[str, Any], who: str) -> str | None:
        return None

    notify_kinds: Mapping[str, str] = {}

    def notify_waits(self, campaign: Campaign) -> tuple[str, str] | None:
        return None

    def notify_ended(self, recorded: Recorded) -> str | None:
        return None

    def notify_opened(self, recorded: Recorded) -> tuple[str, str] | None:
        return None

    deadline_steps: Sequence[Step] = ()

    def waits(self, state: Any) -> Sequence[Wait]:
        return ()

    def defaults(self, state: Any, wait: Wait, choice: str) -> Sequence[tuple[str, dict[str, Any]]]:
        return ()

    def own(self, where: str) -> Any:
        """`"module:name"` of the game's own package, imported now (`Lazy` for a member)."""
        return own(type(self), where)


class Intents(Protocol):
    """How a game turns what a user gave into an event (its `build`, an optional member):
    names as typed, `P=N` pairs, the answers to the rules' questions and the dice it rolls,
    into the event the log will hold. Pure: it reads the state and changes nothing."""

    def __call__(
        self, state: Any, type: str, fields: Mapping[str, Any], answers: Mapping[str, Any], dice: Dice
    ) -> EventBase | None:
        """The event (RuleError when refused), or None for a type it leaves to the log's
        own shape (the event model reads the fields as the log writes them)."""


def organiser_events(ruleset: Ruleset) -> frozenset[str]:
    """The event types only an organiser records although they name a player (a join, an
    adjustment): the game's `organiser_events`, and a void, a dispute's settling, an extension
    and bringing a player back always (a player asks for time through `service.deadlines`)."""
    return frozenset({"void", "settle", "extend", "present", *ruleset.organiser_events})


_KNOWN: dict[str, str] = {}
_LOADED: dict[str, Ruleset] = {}


def register(ruleset_id: str, module: str) -> None:
    """Make a game known by the module that holds its `RULESET` (imported on first use)."""
    _KNOWN[ruleset_id] = module
    _LOADED.pop(ruleset_id, None)


def known() -> list[str]:
    return list(_KNOWN)


def get(ruleset_id: str) -> Ruleset:
    """The ruleset of that id; KeyError when unknown."""
    found = _LOADED.get(ruleset_id)
    if found is None:
        found = importlib.import_module(_KNOWN[ruleset_id]).RULESET
        _LOADED[ruleset_id] = found
    return found


def refuse_unknown(ruleset_id: object, where: str, line: int | None) -> Refused:
    from cok.core.errors import Problem
    from cok.core.names import did_you_mean
    from cok.core.text import quoted

    return Refused(
        Problem(
            where,
            line,
            f"unknown ruleset {quoted(ruleset_id)}{did_you_mean(str(ruleset_id), _KNOWN)}; "
            f"known rulesets: {', '.join(_KNOWN) or 'none'}",
        )
    )


def shipped_map(package: str, file_name: str) -> Path:
    """A map shipped with a game: package data in its own folder (`rulesets/<game>/maps/`),
    so that a game brings its map the way it brings its templates, in a wheel and a checkout."""
    packaged = resources.files(package).joinpath("maps", file_name)
    if packaged.is_file():
        return Path(str(packaged))
    raise Refused(f"the built-in map {file_name} is missing from this installation; give --map PATH")
