"""Clash of Kings at the table (`cok serve`): plan a battle as `cok where` says it, record its
result from that plan, record painting; the organiser starts a week, adjusts, adds players.
Each page turns a form into the same events as the commands, recorded by the server."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cok.rulesets.clash_of_kings.site import PAGES
from cok.serve.kit import Action, Form, Visit, Web


def web() -> Web:
    return Web(
        pages=PAGES,  # the site's own header's list
        actions=(
            Action("Plan a battle", "battle"),
            Action("Painting", "paint"),
            Action("New week", "week", organiser=True),
            Action("Adjust", "adjust", organiser=True),
            Action("Add a player", "join", organiser=True),
        ),
        forms=(
            Form("/battle", plan_battle),
            Form("/battle", record_battle, ("POST",)),
            Form("/paint", paint, ("GET", "POST")),
            Form("/week", week, ("GET", "POST"), organiser=True),
            Form("/adjust", adjust, ("GET", "POST"), organiser=True),
            Form("/join", join, ("GET", "POST"), organiser=True),
            Form("/modes", modes),
            Form("/locations", locations),
        ),
        templates="cok.rulesets.clash_of_kings.table",
        status="where",
        words={
            "remaining": "the points remaining",
            "winner": "who won",
            "vp": "the victory points",
            "override": "a ruling with its reason, on the organiser's battle form",
            "castle": "a starting castle",
            "attacker": "who attacks",
            "abandon": "the location the winner gives up",
            "location": "where",
            "occupy": "occupy",
            "territories": "three territories",
            "limit": "the points limit",
            "cp": "the CP",
            "mode": "the game mode",
            "points": "the army points",
        },
    )


async def _players(visit: Visit) -> list[tuple[str, str]]:
    """Every player's id and name, in the order they joined: the forms' choices."""
    return [(p["id"], p["name"]) for p in (await visit.read("players"))["players"]]


async def plan_battle(visit: Visit) -> Any:
    """Step by step: the opponent, then who attacks and where they may (a roll-off's winner
    first when the territories are level), then the result's form."""
    from cok.rulesets.clash_of_kings.views import DECIDED_WORDS, STEP_WORDS

    players = await _players(visit)
    names = dict(players)
    who = visit.who
    assert who is not None
    query = visit.request.query_params
    me = query.get("player") if who.organiser else who.name
    if who.organiser is False and who.name not in names:
        return visit.render("battle.html", step="not-a-player", players=players)
    them = query.get("opponent")
    if not me or me not in names or not them or them not in names or them == me:
        return visit.render("battle.html", step="opponent", players=players, me=me if me in names else None)
    # `--brotherhood`: who fights as the Brotherhood Without Banners (asked with the opponent)
    asked = {"me": me, "them": them}
    said = {asked[k] for k in ("me", "them") if query.get(f"bwb_{k}")} | set(query.get("brotherhood", "").split(","))
    brotherhood = [p for p in (me, them) if p in said]
    found = await visit.read("where", players=[me, them], brotherhood=brotherhood)
    chosen = query.get("attacker")
    rolled = found["decided_by"] == "roll-needed"
    if rolled and chosen in (me, them):
        found = next(o for o in found["options"] if o["attacker"] == chosen)
    elif rolled:
        return visit.render("battle.html", step="roll-off", me=me, them=them, names=names, brotherhood=brotherhood)
    allowed = await visit.read("modes")
    now = await visit.read("week")
    every = (await visit.read("locations"))["locations"] if who.organiser else []
    return visit.render(
        "battle.html",
        step="result",
        me=me,
        them=them,
        names=names,
        found=found,
        rolled=rolled,
        why=DECIDED_WORDS.get(found["decided_by"], found["decided_by"]),
        where=STEP_WORDS.get(found["step"] or "none", ""),
        modes=[m["id"] for m in allowed["modes"]] + allowed["house_modes"],
        limit=now["points_limit"],
        every=[loc["name"] for loc in every if loc["kind"] != "region"],
        brotherhood=brotherhood,
        week=now["week"],
        mode_names={m["id"]: m["name"] for m in allowed["modes"]},
    )


async def modes(visit: Visit) -> Any:
    """`cok modes`: the game modes this campaign's battles may be played in, each in full."""
    allowed = await visit.read("modes")
    return visit.render("modes.html", modes=allowed["modes"], house=allowed["house_modes"])


async def locations(visit: Visit) -> Any:
    """`cok locations [--free]`: the map's locations, kind, value and who holds each."""
    free = visit.request.query_params.get("free") == "1"
    found = await visit.read("locations", free=free)
    names = {p["id"]: p["name"] for p in (await visit.read("standings"))["players"]}
    rows = [(loc["name"], loc, names.get(loc["occupant"], loc["occupant"])) for loc in found["locations"]]
    return visit.render("locations.html", rows=rows, free=free)


def _number(form: Mapping[str, str], name: str) -> int | None:
    value = form.get(name, "").strip()
    return int(value) if value.isdigit() else None


async def record_battle(visit: Visit) -> Any:
    """The result from the plan: the same `battle` event `cok battle` records."""
    form = visit.form
    a, b = form.get("a", ""), form.get("b", "")
    fields: dict[str, Any] = {"players": [a, b], "location": form.get("location", "")}
    if form.get("attacker"):
        fields["attacker"] = form["attacker"]
    if brotherhood := [p for p in (a, b) if form.get(f"bwb:{p}")]:
        fields["brotherhood"] = brotherhood
    if (week := _number(form, "week")) is not None:
        fields["week"] = week  # `--week`: a battle of an earlier week
    if form.get("winner") in (a, b):
        fields["winner"] = form["winner"]
    vp = {p: n for p in (a, b) if (n := _number(form, f"vp:{p}")) is not None}
    if vp:
        fields["vp"] = vp
    if form.get("mode"):
        fields["mode"] = form["mode"]
    if (points := _number(form, "points")) is not None:
        fields["points"] = points
    if form.get("note", "").strip():
        fields["note"] = form["note"].strip()
    if visit.who is not None and visit.who.organiser:  # an organiser's ruling, with its reason
        if form.get("override", "").strip():
            fields["override"] = form["override"].strip()
        if form.get("ruled_location", "").strip():
            fields["location"] = form["ruled_location"].strip()
    from cok.serve.warm import Draft

    return await visit.record([Draft("battle", fields)])


async def paint(visit: Visit) -> Any:
    who = visit.who
    assert who is not None
    if visit.request.method == "GET":
        return visit.render("paint.html", players=await _players(visit), week=(await visit.read("week"))["week"])
    form = visit.form
    player = form.get("player", "") if who.organiser else who.name
    fields: dict[str, Any] = {
        "player": player,
        "fully_painted": form.get("fully_painted") == "on",
        "units": _number(form, "units") or 0,
        "models": _number(form, "models") or 0,
    }
    if form.get("commissioned"):
        fields["commissioned"] = form["commissioned"]
    from cok.serve.warm import Draft

    return await visit.record([Draft("painting", fields)])


async def week(visit: Visit) -> Any:
    now = await visit.read("week")
    if visit.request.method == "GET":
        return visit.render("week.html", week=now["week"], limit=now["points_limit"])
    starts = visit.form.get("week", "").strip()
    if starts and starts != str(now["week"] + 1):  # the form of a week already started, sent again
        said = f"week {starts} was started already (the campaign is at week {now['week']}): nothing was recorded"
        return visit.render("refused.html", 409, problems=[said])
    fields: dict[str, Any] = {}
    if (limit := _number(visit.form, "limit")) is not None:
        fields["limit"] = limit
    if visit.form.get("note", "").strip():
        fields["note"] = visit.form["note"].strip()
    from cok.serve.warm import Draft

    return await visit.record([Draft("week", fields)])


async def adjust(visit: Visit) -> Any:
    if visit.request.method == "GET":
        return visit.render("adjust.html", players=await _players(visit))
    form = visit.form
    cp = form.get("cp", "").strip()
    fields = {
        "player": form.get("player", ""),
        "cp": int(cp) if cp.lstrip("-").isdigit() else cp,
        "reason": form.get("reason", "").strip(),
    }
    from cok.serve.warm import Draft

    return await visit.record([Draft("adjust", fields)])


async def join(visit: Visit) -> Any:
    if visit.request.method == "GET":
        factions = (await visit.read("factions"))["factions"]
        return visit.render("join.html", factions=factions, week=(await visit.read("week"))["week"])
    form = visit.form
    fields: dict[str, Any] = {"player": form.get("player", "").strip(), "faction": form.get("faction", "").strip()}
    for key in ("name", "castle"):
        if form.get(key, "").strip():
            fields[key] = form[key].strip()
    from cok.serve.warm import Draft

    return await visit.record([Draft("join", fields)])
