"""No True King at the table (`cok serve`): each conspiracy's page shows its agents, where
it may place, the agents it may resolve now (maester, then marshal, then lord: §4.2.2), the
combat a move would fight (as `cok ntk combat`), its house cards and the exchange at round's
end. Loyalty is sealed in the player's own browser (`seal.js`): the server gets the seal
only, and the card and secret only at `unseal` (§4.6). The organiser seats the table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from cok.core.dice import ENTROPY, ROLL
from cok.serve.kit import Action, Form, Visit, Web

if TYPE_CHECKING:
    from starlette.responses import Response

SYMBOLS = ("crown", "torch", "helm", "gauntlet")
POSITIONS = ("1", "2", "3", "4", "left")


def web() -> Web:
    return Web(
        actions=(
            Action("My conspiracy", "conspiracy"),
            Action("Join", "join", when=_seating),
            Action("Unseal", "unseal", when=_unsealing),
            Action("Seats", "begin", organiser=True, when=_seating),
        ),
        forms=(
            Form("/conspiracy", conspiracy),
            Form("/join", join, ("GET", "POST")),
            Form("/place", place, ("POST",)),
            Form("/combat", combat, ("POST",)),
            Form("/resolve", resolve, ("POST",)),
            Form("/card", card, ("POST",)),
            Form("/exchange", exchange, ("GET", "POST")),
            Form("/pass", pass_, ("POST",)),
            Form("/unseal", unseal, ("GET", "POST")),
            Form("/begin", begin, ("GET", "POST"), organiser=True),
            Form("/seal.js", seal_js),
            Form("/ntk.js", ntk_js),
        ),
        templates="cok.rulesets.no_true_king.table",
    )


def _seating(state: Any) -> bool:
    """The table is seated once (§2 Setup): "Seats" leaves the bar when the game has begun."""
    return not state.seats


def _unsealing(state: Any) -> bool:
    """Sealed cards are unsealed after the last round's exchanges (§4.6): "Unseal" is in the
    bar only then."""
    return bool(state.loyalty == "sealed" and state.phase == "unseal")


async def seal_js(visit: Visit) -> Response:
    """The sealing script, served from the server itself (its pages allow no other)."""
    from starlette.responses import Response

    text = resources.files(__package__).joinpath("seal.js").read_text(encoding="utf-8")
    return Response(text, media_type="text/javascript", headers={"cache-control": "no-cache"})


async def ntk_js(visit: Visit) -> Response:
    """The board's frame opened on the agent's troops (`table/board.py`)."""
    from starlette.responses import Response

    text = resources.files(__package__).joinpath("ntk.js").read_text(encoding="utf-8")
    return Response(text, media_type="text/javascript", headers={"cache-control": "no-cache"})


# ---------------------------------------------------------------- who acts


def _acting(visit: Visit, state: Any, given: str | None = None) -> str | None:
    """The conspiracy a page is about: a player's own; an organiser's choice (`?player=`)."""
    who = visit.who
    assert who is not None
    if not who.organiser:
        return who.name if who.name in state.players else None
    chosen = given if given is not None else visit.request.query_params.get("player", "")
    return chosen if chosen in state.players else None


def _draft(type: str, fields: dict[str, Any]) -> Any:
    from cok.serve.warm import Draft

    return Draft(type, {k: v for k, v in fields.items() if v not in (None, "", [], {})})


def _note(form: Mapping[str, str]) -> str | None:
    return form.get("note", "").strip() or None


# ---------------------------------------------------------------- a conspiracy's page


async def conspiracy(visit: Visit) -> Response:
    """What this conspiracy may do now, in the phase the game is in."""
    from cok.rulesets.no_true_king.offers import card_turn, turn_of

    campaign = await visit.campaign()
    state = campaign.state
    me = _acting(visit, state)
    if me is None:
        return visit.render("ntk.html", me=None, players=list(state.players), state=state, waits=_waits(state))
    mine = sorted((h, s) for (h, s), p in state.agents.items() if p == me)
    turn = turn_of(state, me)
    return visit.render(
        "ntk.html",
        me=me,
        players=list(state.players),
        state=state,
        waits=_waits(state),
        turn=turn.what,
        mine=mine,
        free=turn.free,
        resolvable=turn.resolvable,
        held=state.cards_held(me),
        shown=shown_words(state.players[me].shown),
        seal=state.players[me].seal or "",
        swaps=_swaps(state, me),
        unsealed=state.players[me].unsealed,
        open_card=state.players[me].card if state.loyalty == "open" else None,
        **(_resolving(visit, state, me) if turn.what == "resolve" else {}),
        **(card_turn(state, me) if turn.what == "card" else {}),
        table=[(state.players[p].name, c) for p, c in state.table],
        fight_at=state.fight_at,
    )


def _resolving(visit: Visit, state: Any, me: str) -> dict[str, Any]:
    """The resolve form for one agent (`?agent=HOUSE:SPACE`, else the first that may resolve):
    only its house's legal choices, and the board opened on its troops."""
    from cok.rulesets.no_true_king.offers import agents_to_resolve, cards_held, cards_to_play, offer
    from cok.rulesets.no_true_king.table.board import board
    from cok.rulesets.no_true_king.table.offers import plan_words

    agents = agents_to_resolve(state, me)
    first_at = state.won_at or state.fight_at  # the agent's own move's combat (Asha's comes after it)
    asked = visit.request.query_params.get("agent", "")
    chosen = next((a for a in agents if f"{a[0]}:{a[1]}" == asked), agents[0] if agents else None)
    if chosen is None:
        return {}
    house, space = chosen
    found = offer(state, house, space)
    cards = cards_to_play(state, me, found)
    return {
        "agent": chosen,
        "offer": found,
        "plan_words": plan_words,
        "cards": cards,
        "held_cards": cards_held(state, me),
        "on_table": {c for _, c in [*state.won_table, *state.table] if c},  # played on the tables already
        "first_at": first_at,
        "won_table": [(state.players[p].name, c) for p, c in state.won_table],
        # Cersei removes an agent still unresolved: never the one resolving now (§4.4)
        "lannister_agents": [
            s for (h, s), p in state.agents.items() if h == "lannister" and p is not None and (h, s) != chosen
        ],
        "opponents": [p for p in state.seats if p != me],
        "granted_offers": {h: offer(state, h, "lord") for h in ("greyjoy", "lannister") if h in state.board.houses},
        "board": board(state, found),
    }


def shown_words(shown: list[str]) -> str:
    """The tokens turned face up by exchanges (§4.6), as the table sees them."""
    places = ["position 1", "position 2", "position 3", "position 4", "the left-over token"]
    up = [f"{where}, {house.capitalize()}" for where, house in zip(places, shown, strict=False) if house]
    return "Shown to the table: " + ("; ".join(up) if up else "none of your tokens yet") + "."


def _swaps(state: Any, player: str) -> str:
    """The positions each recorded exchange swapped, in order (public in the log): the page
    applies them to the card its browser keeps."""
    return json.dumps([[a, b] for _, _, a, b, _, _ in state.players[player].exchanges])


def table_identity(campaign: Any) -> str:
    """What the browser keeps a draw under (issue 34): this campaign, not its name — its
    folder and its first event's id (random, written once), or before any event its settings
    file's time (a new game made there anew has another); a digest, naming nothing."""
    import hashlib

    first = next(iter(campaign.ids()), None)
    if first is None:
        try:
            first = "new:" + str((campaign.folder / "campaign.yaml").stat().st_mtime_ns)
        except OSError:
            first = "new"
    text = f"ntk-table:{campaign.folder.resolve()}:{first}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _waits(state: Any) -> list[str]:
    from cok.rulesets.no_true_king.words import waiting_words

    return [waiting_words(state)]


def _cards(state: Any, me: str | None, form: Mapping[str, str]) -> dict[str, str | None]:
    """The card this conspiracy plays in the combat (`card`): only its own — another's card is
    its player's to play (§4.4), and the ledger refuses it from anyone else but an organiser."""
    card = form.get("card", "")
    return {me: card} if me is not None and card else {}


async def place(visit: Visit) -> Response:
    """An agent on an empty space: the same `place` as `cok ntk place`."""
    campaign = await visit.campaign()
    form = visit.form
    me = _acting(visit, campaign.state, form.get("player", ""))
    house, _, space = form.get("spot", "").partition(":")
    return await visit.record([_draft("place", {"player": me, "house": house, "space": space, "note": _note(form)})])


async def combat(visit: Visit) -> Response:
    """`cok ntk combat` before a move into another house's troops, from the resolve form itself
    (a POST: its CSRF token never in a URL): both sides' power after what the plan does before
    the move (a muster, a draw), the cards in play, and for either winner the casualties and
    retreats."""
    from cok.core.errors import RuleError
    from cok.rulesets.no_true_king.preview import preview, preview_doc
    from cok.rulesets.no_true_king.table.offers import actions, move_of

    campaign = await visit.campaign()
    state = campaign.state
    form = visit.form
    me = _acting(visit, state, form.get("player", ""))
    house, _, space = form.get("agent", "").partition(":")
    taken = actions(form)
    kinds = [next(iter(a)) for a in taken]
    before = taken[: kinds.index("move")] if "move" in kinds else []
    move = move_of(form)
    first = state.won_table if state.won_at is not None else state.table  # Asha's table comes after the first
    played = {p: c for p, c in first if c} if first else _cards(state, me, form)  # the phones' cards
    try:
        found = preview_doc(preview(state, house, move["from"], move["to"], move["units"], played, me, before))
        problem = None
    except (RuleError, KeyError, ValueError) as error:
        found, problem = None, str(error)
    names = {p: c.name for p, c in state.players.items()}
    return visit.render("combat.html", me=me, found=found, problem=problem, house=house, space=space, names=names)


async def resolve(visit: Visit) -> Response:
    """An agent resolved as planned (and the card its player plays in the combat, and what a
    card grants when its house wins): the same `resolve` as `cok ntk resolve`; the rules ask
    for a tied combat's winner or a retreat."""
    from cok.rulesets.no_true_king.intents import empty_combat
    from cok.rulesets.no_true_king.offers import opens_the_granted_table, opens_the_table
    from cok.rulesets.no_true_king.table.offers import actions, granted

    campaign = await visit.campaign()
    form = visit.form
    state = campaign.state
    me = _acting(visit, state, form.get("player", ""))
    house, _, space = form.get("agent", "").partition(":")
    opening = opens_the_table(state, house, actions(form), form)
    if opening is not None:  # the others play their cards first, each from their own phone
        opened = {"player": me, "card": form.get("card", ""), "house": house, "to": opening, "note": _note(form)}
        return await visit.record([_draft("card", opened)])
    granted_at = opens_the_granted_table(state, form)
    if granted_at is not None:  # Asha's move fights too: its cards, in turn, from the phones
        card = form.get("then-card", "")
        opened = {"player": me, "card": card, "house": "greyjoy", "to": granted_at, "note": _note(form)}
        return await visit.record([_draft("card", opened)])
    fights = house in state.board.houses and empty_combat(state, house, actions(form)) is not None
    played = _cards(state, me, form) if fights else {}  # a card is played only where the move fights
    effects = granted(form, state, me) if fights else {}
    fight: dict[str, Any] = ({"cards": played} if played or effects else {}) | effects
    fields = {
        "player": me,
        "house": house,
        "space": space,
        "actions": actions(form),
        "combat": fight,
        "note": _note(form),
    }
    return await visit.record([_draft("resolve", fields)])


async def card(visit: Visit) -> Response:
    """A card played, or none, in turn, in the combat the active player opened: only its own
    player's (or an organiser's for them)."""
    campaign = await visit.campaign()
    form = visit.form
    me = _acting(visit, campaign.state, form.get("player", ""))
    return await visit.record([_draft("card", {"player": me, "card": form.get("card", ""), "note": _note(form)})])


# ---------------------------------------------------------------- loyalty


async def join(visit: Visit) -> Response:
    """Join with a card drawn and sealed in this browser: only the seal is sent."""
    campaign = await visit.campaign()
    state = campaign.state
    who = visit.who
    assert who is not None
    if visit.request.method == "GET":
        return visit.render(
            "join.html",
            table=table_identity(campaign),
            player=who.name,
            joined=who.name in state.players,
            organiser=who.organiser,
            houses=",".join(state.board.houses),
            symbols=[s for s in SYMBOLS if s not in {p.symbol for p in state.players.values()}],
            sealed=state.loyalty == "sealed",
            begun=bool(state.seats),
        )
    form = visit.form
    fields = {
        "player": who.name if not who.organiser else form.get("player", ""),
        "symbol": form.get("symbol", ""),
        "name": form.get("name", "").strip() or None,
        "seal": form.get("seal", "").strip(),
    }
    return await visit.record([_draft("conspiracy", fields)])


async def exchange(visit: Visit) -> Response:
    """Swap two tokens and reveal one: the house shown is read from the card kept in this
    browser (the card itself is never sent), or chosen by hand."""
    from cok.rulesets.no_true_king.offers import turn_of

    campaign = await visit.campaign()
    state = campaign.state
    if visit.request.method == "GET":
        me = _acting(visit, state)
        return visit.render(
            "exchange.html",
            me=me,
            names={p: c.name for p, c in state.players.items()},
            players=list(state.players),
            positions=POSITIONS,
            houses=list(state.board.houses),
            swaps=_swaps(state, me) if me else "[]",
            seal=state.players[me].seal or "" if me else "",
            shown=shown_words(state.players[me].shown) if me else "",
            turn=bool(me) and "exchange" in turn_of(state, me or "").waits,
        )
    form = visit.form
    me = _acting(visit, state, form.get("player", ""))
    fields: dict[str, Any] = {"player": me, "swap": [form.get("a", ""), form.get("b", "")], "note": _note(form)}
    if form.get("reveal") and form.get("house"):
        fields["reveal"] = {form["reveal"]: form["house"]}
    return await visit.record([_draft("exchange", fields)])


async def pass_(visit: Visit) -> Response:
    campaign = await visit.campaign()
    me = _acting(visit, campaign.state, visit.form.get("player", ""))
    return await visit.record([_draft("pass", {"player": me, "note": _note(visit.form)})])


async def unseal(visit: Visit) -> Response:
    """After the last round: the card and secret this browser kept (or pasted from the kept
    copy), checked against the seal in the page before they are sent."""
    campaign = await visit.campaign()
    state = campaign.state
    if visit.request.method == "GET":
        me = _acting(visit, state)
        seal = state.players[me].seal if me else None
        done = bool(me) and state.players[me].unsealed
        return visit.render(
            "unseal.html",
            me=me,
            names={p: c.name for p, c in state.players.items()},
            players=list(state.players),
            seal=seal or "",
            phase=state.phase,
            done=done,
        )
    form = visit.form
    me = _acting(visit, state, form.get("player", ""))
    fields = {"player": me, "loyalty": _loyalty(form), "secret": form.get("secret", "")}
    return await visit.record([_draft("unseal", fields)])


def _loyalty(form: Mapping[str, str]) -> list[str]:
    """The card as five fields, `loyalty0` … `loyalty4` (positions 1–4, then the left-over)."""
    return [form.get(f"loyalty{i}", "") for i in range(5)]


# ---------------------------------------------------------------- the organiser


async def begin(visit: Visit) -> Response:
    """The organiser seats the table clockwise and names the first player."""
    campaign = await visit.campaign()
    state = campaign.state
    if visit.request.method == "GET":
        return visit.render("begin.html", players=list(state.players), state=state, waits=_waits(state))
    form = visit.form
    seats = [s.strip() for s in form.get("seats", "").replace(",", " ").split() if s.strip()]
    first = form.get("first", "")
    if first == "roll":  # the ledger's fair dice, in the intents, with the phone's own random bytes
        entropy = form.get("entropy", "")
        rolled = {ROLL: True, **({ENTROPY: entropy} if entropy else {})}
        if form.get("preview") == "1":
            return await _preview_roll(visit, state, seats, rolled)
        return await visit.record([_draft("begin", {"seats": seats, "note": _note(form)})], rolled)
    return await visit.record([_draft("begin", {"seats": seats, "first": first, "note": _note(form)})])


async def _preview_roll(visit: Visit, state: Any, seats: list[str], rolled: dict[str, Any]) -> Response:
    """The seating's preview when the ledger rolls the first player: a dry run rolls no dice
    (docs/dice.md), so the seats are checked with the first seat, and the page says the dice
    choose as it is recorded; "Record it" then rolls (a refusal is shown as the form's)."""
    from types import SimpleNamespace

    from starlette.concurrency import run_in_threadpool

    from cok.core.errors import Refused
    from cok.service.questions import Asked

    note = _note(visit.form)
    trial = _draft("begin", {"seats": seats, "first": seats[0] if seats else "", "note": note})
    who = visit.who
    assert who is not None
    try:
        await run_in_threadpool(lambda: visit.table.record([trial], who, dry_run=True))
    except (Refused, Asked):
        return await visit.record([trial])  # the same refusal, on the server's page
    names = ", ".join(state.players[s].name if s in state.players else s for s in seats)
    told = f"The game begins: seats {names} clockwise; the ledger's dice choose the first player as it is recorded."
    draft = _draft("begin", {"seats": seats, "note": note})
    return visit.render(
        "preview.html",
        recording=SimpleNamespace(told=[told], lines=[], document={}),
        drafts=json.dumps([{"type": draft.type, "fields": dict(draft.fields)}]),
        answers=json.dumps(rolled),
        again="",
        carried_once=visit.form.get("once", ""),
    )
