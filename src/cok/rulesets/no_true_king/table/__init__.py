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

from cok.rulesets.no_true_king.site import PAGES
from cok.serve.kit import Action, Form, Visit, Web

if TYPE_CHECKING:
    from starlette.responses import Response

SYMBOLS = ("crown", "torch", "helm", "gauntlet")
#: A resolve's form naming no agent: it opens no table and fights nothing (the rules refuse it).
CLOSED: dict[str, Any] = {"table": None, "granted_table": None, "fights": False, "granted_fights": False}
POSITIONS = ("1", "2", "3", "4", "left")


def web() -> Web:
    return Web(
        pages=PAGES,  # the site's own header's list
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


def _acting(visit: Visit, game: Mapping[str, Any], given: str | None = None) -> str | None:
    """The conspiracy a page is about (`game`: the `game` read): a player's own; an
    organiser's choice (`?player=`)."""
    who = visit.who
    assert who is not None
    if not who.organiser:
        return who.name if who.name in game["players"] else None
    chosen = given if given is not None else visit.request.query_params.get("player", "")
    return chosen if chosen in game["players"] else None


def _names(game: Mapping[str, Any]) -> dict[str, str]:
    """Each conspiracy's id with its name."""
    return {pid: p["name"] for pid, p in game["players"].items()}


def _draft(type: str, fields: dict[str, Any]) -> Any:
    from cok.serve.warm import Draft

    return Draft(type, {k: v for k, v in fields.items() if v not in (None, "", [], {})})


def _note(form: Mapping[str, str]) -> str | None:
    return form.get("note", "").strip() or None


# ---------------------------------------------------------------- a conspiracy's page


async def conspiracy(visit: Visit) -> Response:
    """What this conspiracy may do now, in the phase the game is in."""
    game = await visit.read("game")
    me = _acting(visit, game)
    players = list(game["players"])
    if me is None:
        return visit.render("ntk.html", me=None, players=players, game=game, waits=[game["waiting"]])
    mine = sorted((a["house"], a["space"]) for a in game["agents"] if a["player"] == me)
    turn = await visit.read("turn", player=me)
    player = game["players"][me]
    return visit.render(
        "ntk.html",
        me=me,
        players=players,
        game=game,
        waits=[game["waiting"]],
        turn=turn["what"],
        mine=mine,
        free=turn["free"],
        resolvable=turn["resolvable"],
        held=turn["held"],
        shown=shown_words(player["shown"]),
        seal=player["seal"] or "",
        swaps=json.dumps(player["swaps"]),
        unsealed=player["unsealed"],
        open_card=await _open_card(visit, me) if game["loyalty"] == "open" else None,
        **(await _resolving(visit, game, me) if turn["what"] == "resolve" else {}),
        **(await visit.read("cards", player=me) if turn["what"] == "card" else {}),
        table=[(game["players"][p]["name"], c) for p, c in game["table"]],
        fight_at=game["fight_at"],
        my_grants=my_grants(game, me),
    )


def my_grants(game: Mapping[str, Any], me: str) -> list[dict[str, str]]:
    """Asha Greyjoy or Ser Jaime Lannister this conspiracy played on the first combat's table
    while another resolves (§4.4): if its house wins, the move (muster) is its player's to
    choose, and the active player's one resolve records it (`after`); its page says so."""
    grants = game["grants"]
    first = game["won_table"] if game["won_at"] else game["table"]
    at = game["won_at"] or game["fight_at"]
    if not first or at is None or first[0][0] == me:  # the active player opens the table
        return []
    active = game["players"][first[0][0]]["name"]
    return [
        {"card": c, "house": grants[c]["house"], "kind": grants[c]["kind"], "area": at[1], "active": active}
        for p, c in first
        if p == me and c in grants
    ]


async def _open_card(visit: Visit, me: str) -> list[str] | None:
    """The conspiracy's own open loyalty card, shown on its page only: no read holds a
    loyalty card before the game is over (any link's holder may ask a read)."""
    campaign = await visit.campaign()
    card: list[str] | None = campaign.state.players[me].card
    return card


async def _resolving(visit: Visit, game: Mapping[str, Any], me: str) -> dict[str, Any]:
    """The resolve form for one agent (`?agent=HOUSE:SPACE`, else the first that may resolve):
    only its house's legal choices (the `resolving` read), and the board opened on its troops."""
    from cok.rulesets.no_true_king.table.board import board
    from cok.rulesets.no_true_king.table.resolve_form import plan_words

    found = await visit.read("resolving", player=me, agent=visit.request.query_params.get("agent", ""))
    if found["agent"] is None:
        return {}
    return {
        "agent": tuple(found["agent"]),
        "offer": found["offer"],
        "plan_words": plan_words,
        "cards": found["cards"],
        "held_cards": found["held_cards"],
        "on_table": found["on_table"],
        "first_at": found["first_at"],
        "won_table": [(game["players"][p]["name"], c) for p, c in game["won_table"]],
        "lannister_agents": found["lannister_agents"],
        "opponents": found["opponents"],
        "granted_offers": found["granted_offers"],
        "granted_by": {c: game["players"][p]["name"] for c, p in found["granted_by"].items()},
        "board": board(await visit.read("picture"), found["offer"]),
    }


def shown_words(shown: list[str]) -> str:
    """The tokens turned face up by exchanges (§4.6), as the table sees them."""
    places = ["position 1", "position 2", "position 3", "position 4", "the left-over token"]
    up = [f"{where}, {house.capitalize()}" for where, house in zip(places, shown, strict=False) if house]
    return "Shown to the table: " + ("; ".join(up) if up else "none of your tokens yet") + "."


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


def _cards(me: str | None, form: Mapping[str, str]) -> dict[str, str | None]:
    """The card this conspiracy plays in the combat (`card`): only its own — another's card is
    its player's to play (§4.4), and the ledger refuses it from anyone else but an organiser."""
    card = form.get("card", "")
    return {me: card} if me is not None and card else {}


async def place(visit: Visit) -> Response:
    """An agent on an empty space: the same `place` as `cok ntk place`."""
    form = visit.form
    me = _acting(visit, await visit.read("game"), form.get("player", ""))
    house, _, space = form.get("spot", "").partition(":")
    return await visit.record([_draft("place", {"player": me, "house": house, "space": space, "note": _note(form)})])


async def combat(visit: Visit) -> Response:
    """`cok ntk combat` before a move into another house's troops, from the resolve form itself
    (a POST: its CSRF token never in a URL): both sides' power after what the plan does before
    the move (a muster, a draw), the cards in play, and for either winner the casualties and
    retreats."""
    from cok.core.errors import RuleError
    from cok.rulesets.no_true_king.table.resolve_form import actions, move_of

    game = await visit.read("game")
    form = visit.form
    me = _acting(visit, game, form.get("player", ""))
    house, _, space = form.get("agent", "").partition(":")
    taken = actions(form)
    kinds = [next(iter(a)) for a in taken]
    before = taken[: kinds.index("move")] if "move" in kinds else []
    move = move_of(form)
    asked = {"house": house, "origin": move["from"], "to": move["to"], "units": move["units"]}
    try:  # the cards on the table, else the phone's own
        played = {"card": form.get("card", ""), "player": me, "before": json.dumps(before)}
        found, problem = await visit.read("combat", **asked, **played), None
    except (RuleError, KeyError, ValueError) as error:
        found, problem = None, str(error)
    return visit.render(
        "combat.html", me=me, found=found, problem=problem, house=house, space=space, names=_names(game)
    )


async def resolve(visit: Visit) -> Response:
    """An agent resolved as planned (and the card its player plays in the combat, and what a
    card grants when its house wins): the same `resolve` as `cok ntk resolve`; the rules ask
    for a tied combat's winner or a retreat."""
    from cok.rulesets.no_true_king.table.resolve_form import actions, granted, move_of

    form = visit.form
    me = _acting(visit, await visit.read("game"), form.get("player", ""))
    house, _, space = form.get("agent", "").partition(":")
    then = {"card": form.get("card", ""), "then": form.get("then", ""), "then_route": form.get("then-route", "")}
    then["granted_to"] = move_of(form, "then-")["to"] if form.get("then") == "move" else ""
    found = await visit.read("opening", house=house, actions=json.dumps(actions(form)), **then) if house else CLOSED
    if found["table"] is not None:  # the others play their cards first, each from their own phone
        opened = {"player": me, "card": form.get("card", ""), "house": house, "to": found["table"], "note": _note(form)}
        return await visit.record([_draft("card", opened)])
    if found["granted_table"] is not None:  # Asha's move fights too: its cards, in turn, from the phones
        card = form.get("then-card", "")
        opened = {"player": me, "card": card, "house": "greyjoy", "to": found["granted_table"], "note": _note(form)}
        return await visit.record([_draft("card", opened)])
    fights = found["fights"]
    played = _cards(me, form) if fights else {}  # a card is played only where the move fights
    effects = granted(form, me, found["granted_fights"]) if fights else {}
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
    form = visit.form
    me = _acting(visit, await visit.read("game"), form.get("player", ""))
    return await visit.record([_draft("card", {"player": me, "card": form.get("card", ""), "note": _note(form)})])


# ---------------------------------------------------------------- loyalty


async def join(visit: Visit) -> Response:
    """Join with a card drawn and sealed in this browser: only the seal is sent."""
    who = visit.who
    assert who is not None
    if visit.request.method == "GET":
        game = await visit.read("game")
        return visit.render(
            "join.html",
            table=table_identity(await visit.campaign()),
            player=who.name,
            joined=who.name in game["players"],
            organiser=who.organiser,
            houses=",".join(game["houses"]),
            symbols=[s for s in SYMBOLS if s not in {p["symbol"] for p in game["players"].values()}],
            sealed=game["loyalty"] == "sealed",
            begun=bool(game["seats"]),
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
    game = await visit.read("game")
    if visit.request.method == "GET":
        me = _acting(visit, game)
        mine = game["players"][me] if me else None
        return visit.render(
            "exchange.html",
            me=me,
            names=_names(game),
            players=list(game["players"]),
            positions=POSITIONS,
            houses=game["houses"],
            swaps=json.dumps(mine["swaps"]) if mine else "[]",
            seal=mine["seal"] or "" if mine else "",
            shown=shown_words(mine["shown"]) if mine else "",
            turn=bool(me) and "exchange" in (await visit.read("turn", player=me))["waits"],
        )
    form = visit.form
    me = _acting(visit, game, form.get("player", ""))
    fields: dict[str, Any] = {"player": me, "swap": [form.get("a", ""), form.get("b", "")], "note": _note(form)}
    if form.get("reveal") and form.get("house"):
        fields["reveal"] = {form["reveal"]: form["house"]}
    return await visit.record([_draft("exchange", fields)])


async def pass_(visit: Visit) -> Response:
    me = _acting(visit, await visit.read("game"), visit.form.get("player", ""))
    return await visit.record([_draft("pass", {"player": me, "note": _note(visit.form)})])


async def unseal(visit: Visit) -> Response:
    """After the last round: the card and secret this browser kept (or pasted from the kept
    copy), checked against the seal in the page before they are sent."""
    game = await visit.read("game")
    if visit.request.method == "GET":
        me = _acting(visit, game)
        seal = game["players"][me]["seal"] if me else None
        done = bool(me) and game["players"][me]["unsealed"]
        return visit.render(
            "unseal.html",
            me=me,
            names=_names(game),
            players=list(game["players"]),
            seal=seal or "",
            phase=game["phase"],
            done=done,
        )
    form = visit.form
    me = _acting(visit, game, form.get("player", ""))
    fields = {"player": me, "loyalty": _loyalty(form), "secret": form.get("secret", "")}
    return await visit.record([_draft("unseal", fields)])


def _loyalty(form: Mapping[str, str]) -> list[str]:
    """The card as five fields, `loyalty0` … `loyalty4` (positions 1–4, then the left-over)."""
    return [form.get(f"loyalty{i}", "") for i in range(5)]


# ---------------------------------------------------------------- the organiser


async def begin(visit: Visit) -> Response:
    """The organiser seats the table clockwise and names the first player."""
    game = await visit.read("game")
    if visit.request.method == "GET":
        return visit.render("begin.html", players=list(game["players"]), game=game, waits=[game["waiting"]])
    form = visit.form
    seats = [s.strip() for s in form.get("seats", "").replace(",", " ").split() if s.strip()]
    first = form.get("first", "")
    if first == "roll":  # the ledger's fair dice, in the intents, with the phone's own random bytes
        rolled = visit.rolled_for_me()
        if form.get("preview") == "1":
            return await _preview_roll(visit, _names(game), seats, rolled)
        return await visit.record([_draft("begin", {"seats": seats, "note": _note(form)})], rolled)
    return await visit.record([_draft("begin", {"seats": seats, "first": first, "note": _note(form)})])


async def _preview_roll(visit: Visit, named: Mapping[str, str], seats: list[str], rolled: dict[str, Any]) -> Response:
    """The seating's preview when the ledger rolls the first player: a dry run rolls no dice
    (docs/dice.md), so the seats are checked with the first seat, and the page says the dice
    choose as it is recorded; "Record it" then rolls (a refusal is shown as the form's)."""
    from types import SimpleNamespace

    from cok.core.errors import Refused
    from cok.service.questions import Asked

    note = _note(visit.form)
    trial = _draft("begin", {"seats": seats, "first": seats[0] if seats else "", "note": note})
    try:
        await visit.trial([trial])
    except (Refused, Asked):
        return await visit.record([trial])  # the same refusal, on the server's page
    names = ", ".join(named.get(s, s) for s in seats)
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
