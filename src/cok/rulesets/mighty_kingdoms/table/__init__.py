"""Mighty Kingdoms at the table (`cok serve`): a kingdom's page shows what it may do in the
phase the campaign is in (`offers.py`) — order its armies on the map, resolve its orders in
turn, record a battle it fought, tithe, build, recruit, feed, deploy — and the organiser's page
records the organiser's events. Each form makes the same draft as the `cok mk` command, built
by `intents.py` and recorded by the server, which checks who may record it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from cok.rulesets.mighty_kingdoms.site import PAGES
from cok.serve.kit import Action, Form, Visit, Web

#: How many allocation rows a simple battle's form offers beyond the dice: one per die.
DIE_FACES = (1, 2, 3, 4, 5, 6)


def web() -> Web:
    return Web(
        pages=PAGES,  # the site's own header's list
        actions=(Action("My kingdom", "kingdom"), Action("Organiser", "organiser", organiser=True)),
        forms=(
            Form("/kingdom", kingdom),
            Form("/order", order, ("GET", "POST")),
            Form("/resolve", resolve, ("POST",)),
            Form("/battle", battle, ("GET", "POST")),
            Form("/tithe", winter_step, ("POST",)),
            Form("/build", winter_step, ("POST",)),
            Form("/recruit", winter_step, ("POST",)),
            Form("/feed", winter_step, ("POST",)),
            Form("/deploy", winter_step, ("POST",)),
            Form("/organiser", organiser, ("GET", "POST"), organiser=True),
            Form("/quest", quest, ("GET", "POST")),
            Form("/artefact", artefact, ("GET", "POST")),
        ),
        templates="cok.rulesets.mighty_kingdoms.table",
        words={
            "roll": "roll (First die and Second die)",
            "reroll": "roll after the double (its first and second die)",
            "order": "the roll-off's order",
            "result": "the result",
            "override": "the organiser's reason",
            "army": "the army",
            "tower": "the tower",
            "to": "where it goes",
            "tile": "the tile",
        },
    )


def _draft(type: str, fields: Mapping[str, Any]) -> Any:
    from cok.serve.warm import Draft

    return Draft(type, {k: v for k, v in fields.items() if v is not None and v != ""})


async def _offers(visit: Visit, asked: str | None) -> dict[str, Any] | None:
    """What the kingdom whose page it is may do now (the `offers` read; its `player` is the
    kingdom's id): the signed-in kingdom's, or for an organiser the one asked for; None when
    no kingdom has that name."""
    from cok.core.errors import RuleError

    who = visit.who
    assert who is not None
    typed = (asked or "") if who.organiser else who.name
    if not typed:
        return None
    try:
        return await visit.read("offers", player=typed)
    except RuleError:  # no kingdom of that name: the page lists them
        return None


#: A kingdom's page: the visit, whose page it is, and what that kingdom may do now (its offer).
Page = Callable[[Visit, str, dict[str, Any]], Awaitable[Any]]


def _of_a_kingdom(page: Page) -> Callable[[Visit], Awaitable[Any]]:
    """`page` for the kingdom the visit is about; or, when no kingdom is named (an organiser
    who chose none), the page listing the kingdoms to choose from."""

    async def shown(visit: Visit) -> Any:
        offer = await _offers(visit, visit.request.query_params.get("player"))
        if offer is None:
            return visit.render("kingdom.html", offer=None, kingdoms=await _kingdoms(visit), phase=await _phase(visit))
        return await page(visit, offer["player"], offer)

    return shown


async def _board(visit: Visit, player: str, army: str | None, chosen: str | None) -> Any:
    """The map, with the tiles the army may move into (the `targets` read) as links."""
    from cok.rulesets.mighty_kingdoms.table.board import board

    found = await visit.read("targets", player=player, army=army)
    links = [
        (t["tile"], t["label"], "?" + urlencode({"army": army or "", "to": t["tile"], "player": player}))
        for t in found["tiles"]
    ]
    return board(await visit.read("picture"), links, chosen, around=found["around"])


def _place(tile: Mapping[str, str]) -> dict[str, str]:
    """A tile of a read (`tile`, `name`) as the forms name it: `key`, `label`."""
    return {"key": tile["tile"], "label": tile["name"]}


# ---------------------------------------------------------------- a kingdom's page


@_of_a_kingdom
async def kingdom(visit: Visit, me: str, offer: dict[str, Any]) -> Any:
    """What the kingdom may do now, and whether the ledger waits for it."""
    rules = await visit.read("rules")
    return visit.render(
        "kingdom.html",
        offer=offer,
        kingdoms=await _kingdoms(visit),
        phase=await _phase(visit),
        kow=rules["kings_of_war"],
        towers=rules["towers"],
        board=await _board(visit, me, None, None) if offer["phase"] != "setup" else None,
        armies=(await visit.read("armies", player=me))["armies"],
    )


async def _kingdoms(visit: Visit) -> list[tuple[str, str]]:
    """Each kingdom's id and name, as `cok mk kingdoms` lists them."""
    return [(k["id"], k["name"]) for k in (await visit.read("kingdoms"))["kingdoms"]]


async def _phase(visit: Visit) -> str:
    """Where the campaign is and whom it waits for, in a line: every page's heading."""
    words: str = (await visit.read("phase"))["words"]
    return words


async def order(visit: Visit) -> Any:
    """GET: the army's legal moves on the map (tap a tile), and its other orders; POST: the
    order, as `cok mk order ARMY ORDER [TILE]`."""
    if visit.request.method == "POST":
        form = visit.form
        fields = {"army": form.get("army", ""), "order": form.get("order", ""), "to": form.get("to")}
        return await visit.record([_draft("order", fields)])
    return await _order_page(visit)


@_of_a_kingdom
async def _order_page(visit: Visit, me: str, offer: dict[str, Any]) -> Any:
    """The army's legal moves on the map, and its other orders."""
    query = visit.request.query_params
    army = next((a for a in offer["orders"] if a["id"] == query.get("army")), None)
    to = query.get("to")
    chosen = next((p for p in army["moves"] if p["key"] == to), None) if army is not None else None
    return visit.render(
        "order.html",
        offer=offer,
        army=army,
        chosen=chosen,
        here=army["at"] if army is not None else None,
        board=await _board(visit, me, army["id"] if army else None, to),
    )


async def resolve(visit: Visit) -> Any:
    """`cok mk resolve ARMY [--roll D D | --roll-dice]`: dice as rolled at the table, or
    rolled by cok (the intents, with the phone's entropy) and recorded."""
    form = visit.form
    fields: dict[str, Any] = {"army": form.get("army", "")}
    if form.get("roll") == "server":
        return await visit.record([_draft("resolve", fields)], visit.rolled_for_me())
    dice = [form.get("die1", ""), form.get("die2", "")]
    if all(d.isdigit() for d in dice):
        fields["roll"] = [int(d) for d in dice]
    rerolled = [form.get("reroll1", ""), form.get("reroll2", "")]
    if all(d.isdigit() for d in rerolled):
        fields["reroll"] = [int(d) for d in rerolled]
    return await visit.record([_draft("resolve", fields)])


# ---------------------------------------------------------------- battles


async def battle(visit: Visit) -> Any:
    """GET: the battle's form for a tile the kingdom may attack in (simple: each upright army's
    die typed, or "Roll the dice for me"; Kings of War: the result and the Unit Strength
    changes), with what `cok mk battles` shows of it; POST: the battle, as `cok mk battle`.
    The allocations of rolled dice and the retreats are the rules' questions, asked once the
    dice and the result are known."""
    if visit.request.method == "POST":
        fields = _battle_fields(visit.form)
        if visit.form.get("roll") == "server":  # rolled by the intents, never the form's
            fields["dice"] = fields["allocate"] = None
            return await visit.record([_draft("battle", fields)], visit.rolled_for_me())
        return await visit.record([_draft("battle", fields)])
    return await _battle_page(visit)


@_of_a_kingdom
async def _battle_page(visit: Visit, _me: str, offer: dict[str, Any]) -> Any:
    """The battle's form for a tile the kingdom may attack in, and the battle as shown."""
    query = visit.request.query_params
    fight = next((f for f in offer["fights"] if f["tile"]["key"] == query.get("tile")), None)
    enemy = query.get("defender") if fight is not None and query.get("defender") in fight["enemies"] else None
    if fight is not None and enemy is None and len(fight["enemies"]) == 1:
        enemy = fight["enemies"][0]
    every = {a["id"]: a for a in (await visit.read("armies"))["armies"]} if fight is not None else {}
    armies = [every[a] for a in fight["armies"]] if fight is not None else []
    fought = (await visit.read("battles")).get("battles", [])
    return visit.render(
        "battle.html",
        offer=offer,
        fight=fight,
        enemy=enemy,
        kow=(await visit.read("rules"))["kings_of_war"],
        armies=armies,
        sides={a["id"]: a["player"] for a in armies},
        faces=DIE_FACES,
        names=dict(await _kingdoms(visit)),
        # the battle as `cok mk battles` shows it: board size, benefit, points and Defence (5.4)
        shown=next((b for b in fought if b.get("tile") == fight["tile"]["key"]), None) if fight is not None else None,
    )


def _battle_fields(form: Mapping[str, str]) -> dict[str, Any]:
    fields: dict[str, Any] = {k: form.get(k, "") for k in ("tile", "attacker", "defender")}
    dice = {k.split(":", 1)[1]: int(v) for k, v in form.items() if k.startswith("die:") and v.isdigit()}
    steps = sorted(int(k.split(":")[1]) for k in form if k.startswith("alloc:") and k.split(":")[1].isdigit())
    allocate = []
    for step in dict.fromkeys(steps):  # every row sent, in order (#35: not only as many as the dice typed)
        die, target = form.get(f"alloc:{step}:die", ""), form.get(f"alloc:{step}:target", "")
        if die and target:
            allocate.append([die, target])
    retreat = {k.split(":", 1)[1]: v for k, v in form.items() if k.startswith("retreat:") and v}
    strength: dict[str, dict[str, int]] = {}
    for key, value in form.items():
        if key.startswith("strength:") and value.lstrip("+-").isdigit() and int(value):
            _, army, unit = key.split(":", 2)
            strength.setdefault(army, {})[unit] = int(value)
    advance = form.get("advance", "")
    more = {
        "result": form.get("result") or None,
        "dice": dice or None,
        "allocate": allocate or None,
        "retreat": retreat or None,
        "advance": dict([advance.split("=", 1)]) if "=" in advance else None,
        "strength": strength or None,
        "slaughter": form.get("slaughter") or None,
    }
    return {**fields, **more}


# ---------------------------------------------------------------- winter


async def winter_step(visit: Visit) -> Any:
    """Tithe, build, recruit, feed and deploy: each its `cok mk` command's draft."""
    form = visit.form
    step = visit.request.url.path.rstrip("/").rsplit("/", 1)[-1]
    if step == "tithe":
        gold, food = int(form.get("gold") == "1"), int(form.get("food") == "1")
        fields: dict[str, Any] = {"from": form.get("player", ""), "to": form.get("to", ""), "gold": gold, "food": food}
    elif step == "build":
        tile, _, settlement = form.get("build", "").partition("=")
        fields = {"player": form.get("player", ""), "tile": tile, "settlement": settlement}
    elif step == "recruit":
        fields = {"player": form.get("player", ""), "tile": form.get("tile", ""), "disband": form.get("disband")}
        fields.update({"list": form.get("list", "").strip(), "units": _units(form.get("units", ""))})
        fields["allied"] = form.get("allied") == "1"
    elif step == "feed":
        unfed = [k.split(":", 1)[1] for k, v in form.items() if k.startswith("unfed:") and v == "on"]
        fields = {"player": form.get("player", ""), "unfed": unfed}
    else:
        fields = {"army": form.get("army", ""), "tile": form.get("tile", "")}
    return await visit.record([_draft(step, fields)])


def _units(typed: str) -> dict[str, Any] | None:
    """Kings of War: `Spearmen=2`, one a line, as `--unit` takes them; a value that is not a
    whole number is left as typed, for the event's schema to refuse in its words."""
    units: dict[str, Any] = {}
    for line in typed.splitlines():
        name, sep, value = line.rpartition("=")
        if sep and name.strip():
            units[name.strip()] = int(value) if value.strip().lstrip("+-").isdigit() else value.strip()
    return units or None


# ---------------------------------------------------------------- the organiser


async def organiser(visit: Visit) -> Any:
    """The organiser's events: begin, reform, winter (with recall's choices), spring — the
    one the ledger waits for, with the roll-off's order when players are tied on armies."""
    if visit.request.method == "POST":
        form = visit.form
        kind = form.get("event", "")
        order = [p.strip() for p in form.get("order", "").replace(",", " ").split() if p.strip()] or None
        fields: dict[str, Any] = {"order": order}
        if kind == "winter":
            fields = {"recall": {k.split(":", 1)[1]: v for k, v in form.items() if k.startswith("recall:") and v}}
        if form.get("roll") == "server" and kind in ("reform", "spring"):  # the roll-off rolled by cok
            return await visit.record([_draft(kind, {})], visit.rolled_for_me())
        return await visit.record([_draft(kind, fields)])
    status = await visit.read("status")
    first = status["waiting_for"][0]
    recall = {}
    if first["what"] == "winter":
        recall = {p: [_place(t) for t in tiles] for p, tiles in (await visit.read("recalls")).items()}
    return visit.render(
        "organiser.html",
        phase=await _phase(visit),
        what=first["what"],
        order_needed=bool(first.get("order_needed")),
        recall=recall,
        kingdoms=await _kingdoms(visit),
        player_order=status["player_order"],
    )


# ---------------------------------------------------------------- wizard's towers


@_of_a_kingdom
async def quest(visit: Visit, me: str, offer: dict[str, Any]) -> Any:
    """`cok mk quest`: a hero sent to a wizard's tower next to the kingdom, its d6 typed or
    rolled by cok with the phone's random bytes (5.7)."""
    if visit.request.method == "GET":
        return visit.render(
            "quest.html",
            player=me,
            name=offer["name"],
            towers=[_place(t) for t in (await visit.read("towers", player=me))["towers"]],
            armies=[a["id"] for a in (await visit.read("armies", player=me))["armies"]],
            kow=(await visit.read("rules"))["kings_of_war"],
        )
    form = visit.form
    fields: dict[str, Any] = {
        "player": me,
        "tower": form.get("tower", ""),
        "army": form.get("army") or None,
        "hero": form.get("hero", "").strip(),
        "points": int(p) if (p := form.get("points", "").strip()).isdigit() else 0,
        "artefact": form.get("artefact", "").strip() or None,
    }
    if form.get("roll") == "server":  # with the phone's own random bytes, as every roll for a phone
        return await visit.record([_draft("quest", fields)], visit.rolled_for_me())
    if form.get("die", "").isdigit():
        fields["roll"] = int(form["die"])
    return await visit.record([_draft("quest", fields)])


async def artefact(visit: Visit) -> Any:
    """`cok mk artefact ART --to P|pool [--override REASON]`: an artefact changes hands, or is
    lost to the pool; the organiser's reason when the ledger sees no cause."""
    who = visit.who
    assert who is not None
    if visit.request.method == "GET":
        found = (await visit.read("artefacts"))["artefacts"]
        held = [a for a in found if who.organiser or a["holder"] == who.name]
        kingdoms = await _kingdoms(visit)
        return visit.render("artefact.html", held=held, kingdoms=kingdoms, names=dict(kingdoms))
    form = visit.form
    fields: dict[str, Any] = {"artefact": form.get("artefact", ""), "to": form.get("to", "")}
    if who.organiser and form.get("override", "").strip():
        fields["override"] = form["override"].strip()
    return await visit.record([_draft("artefact", fields)])
