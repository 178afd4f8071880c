"""A toy game that exercises the core alone: players join and score points on a board
whose `cap` bounds one score. Everything a ruleset gives the core, in a few lines."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from pydantic import BaseModel, ConfigDict, Field

from cok.core.errors import Problem, Refused, RuleError
from cok.core.events import EventBase, PlayerId
from cok.core.ruleset import Game, Report, Standings
from cok.core.settings import CampaignSettings
from cok.core.yamlfile import YamlMap, parse


class Join(EventBase):
    type: Literal["join"] = "join"
    player: PlayerId


class Score(EventBase):
    type: Literal["score"] = "score"
    player: PlayerId
    points: Annotated[int, Field(ge=0)]


class ToySettings(CampaignSettings):
    bonus: int = 0


class BoardSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    cap: int


@dataclass(frozen=True)
class Board:
    name: str
    cap: int


@dataclass
class ToyState:
    board: Board
    bonus: int = 0
    totals: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Joined:
    player: str


@dataclass(frozen=True)
class Scored:
    player: str
    points: int


class Toy(Game):
    id = "toy"
    title = "Toy"
    events: Mapping[str, type[EventBase]] = {"join": Join, "score": Score}
    settings_model = ToySettings
    map_model = BoardSpec
    new_settings: Mapping[str, Any] = {"bonus": 0}
    cached_types: Sequence[type] = (ToyState, Board)

    def builtin_map(self) -> Path:
        return Path(__file__).with_name("toy-board.yaml")

    def load_map(self, text: str, shown: str) -> Board:
        data = parse(text, shown)
        if not isinstance(data, YamlMap) or not isinstance(data.get("cap"), int):
            raise Refused(Problem(shown, 1, "a board is a mapping with name and an integer cap"))
        return Board(str(data.get("name", "board")), data["cap"])

    def initial_state(self, map: Board, settings: ToySettings) -> ToyState:
        return ToyState(map, settings.bonus)

    def decide(self, state: ToyState, event: EventBase) -> object:
        if isinstance(event, Join):
            if event.player in state.totals:
                raise RuleError(f"{event.player} has already joined")
            return Joined(event.player)
        if isinstance(event, Score):
            if event.player not in state.totals:
                raise RuleError(f"unknown player {event.player!r}")
            if event.points > state.board.cap:
                raise RuleError(f"at most {state.board.cap} points a score")
            return Scored(event.player, event.points)
        raise RuleError(f"no rule for {event.type}")

    def commit(self, outcome: object, state: ToyState) -> None:
        if isinstance(outcome, Joined):
            state.totals[outcome.player] = state.bonus
        elif isinstance(outcome, Scored):
            state.totals[outcome.player] += outcome.points

    def apply(self, state: ToyState, event: EventBase) -> object:
        outcome = self.decide(state, event)
        self.commit(outcome, state)
        return outcome

    def label(self, event: EventBase) -> str:
        return f"{event.type} {getattr(event, 'player', '')}".strip()

    def tell(self, state: ToyState, outcome: Any) -> str:
        if isinstance(outcome, Joined):
            return f"{outcome.player} joins"
        return f"{outcome.player} scores {outcome.points}"

    def untold(self, state: ToyState, event: EventBase) -> str:
        return f"{event.type} {getattr(event, 'player', '')}"

    def player(self, state: ToyState, typed: str) -> str:
        if typed not in state.totals:
            raise RuleError(f"unknown player {typed!r}")
        return typed

    def involved(self, event: EventBase) -> frozenset[str]:
        return frozenset({getattr(event, "player")})  # noqa: B009 - every toy event has one

    def tally(self, state: ToyState) -> dict[str, int]:
        return dict(state.totals)

    def report(self, recorded: Any) -> Report:
        return Report([recorded.text], {"summary": recorded.text, "written": recorded.written})

    def standings(self, campaign: Any) -> Standings:
        totals = sorted(campaign.state.totals.items(), key=lambda item: -item[1])
        return Standings(lambda: [f"{p} {n}" for p, n in totals], lambda: {"players": dict(totals)})

    def site_pages(self, campaign: Any) -> Iterable[tuple[str, str]]:
        yield "index.html", f"<h1>{campaign.name}</h1>"

    def map_svg(self, campaign: Any) -> str:
        return f"<svg><title>{campaign.state.board.name}</title></svg>"

    def commands(self) -> typer.Typer:
        return typer.Typer()


RULESET = Toy()
