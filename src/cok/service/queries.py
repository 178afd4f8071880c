"""What the read-only commands show, for the command line and the server alike: the standings
of every game, a campaign's problems (of every campaign below a folder), each game's
status (Clash of Kings' `where`), and every read a game names in its `queries` (`read`: the
same document for `--json`, its pages and `GET /api/<name>`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cok.core.errors import Problem, Refused
from cok.core.plain import json_default

if TYPE_CHECKING:
    from cok.core.campaign import Campaign
    from cok.core.dicecheck import Audit
    from cok.core.history import Told
    from cok.core.ruleset import Standings


def opened(folder_or_campaign: Path | str | Campaign, *, use_cache: bool = True) -> Campaign:
    """The campaign (refusing one whose log has problems, as the commands do)."""
    from cok.core.campaign import Campaign, open_campaign

    if isinstance(folder_or_campaign, Campaign):
        return folder_or_campaign.valid()
    return open_campaign(Path(folder_or_campaign), use_cache=use_cache).valid()


def ranking(folder_or_campaign: Path | str | Campaign, *, use_cache: bool = True) -> Standings:
    """`cok standings`, for every game: its table and its document, each made when asked."""
    campaign = opened(folder_or_campaign, use_cache=use_cache)
    return campaign.ruleset.standings(campaign)


def standings(folder_or_campaign: Path | str | Campaign) -> dict[str, Any]:
    """`cok standings --json`, for every game."""
    document: dict[str, Any] = jsonable(ranking(folder_or_campaign).document)
    return document


@dataclass(frozen=True)
class Checked:
    """`cok check` of one campaign, from one opening of it: every problem of its files, the
    periods whose dice wait for their seed, and the campaign (None: refused as it was read)."""

    problems: list[Problem]
    dice_waiting: list[str] = field(default_factory=list)
    campaign: Campaign | None = None


def checked(folder: Path | str, *, use_cache: bool = True) -> Checked:
    """`cok check`: the campaign opened once, and asked its problems and its dice waiting."""
    from cok.core.campaign import open_campaign

    try:
        opened = open_campaign(Path(folder), use_cache=use_cache)
    except Refused as refused:
        return Checked(list(refused.problems))
    audited = dice(opened)
    return Checked([*opened.problems, *audited.problems], audited.pending(), opened)


def check(folder: Path | str, *, use_cache: bool = True) -> list[Problem]:
    """`cok check`: every problem of the campaign's files (none: all is well)."""
    return checked(folder, use_cache=use_cache).problems


def dice(campaign: Campaign) -> Audit:
    """The campaign's dice checked from its log alone (docs/dice.md): a roll that does not
    follow from its revealed seed, a seed that does not match its commitment, revealed twice
    or never used, each a problem at its line; the periods not revealed yet, listed."""
    from cok.core.dicecheck import Audit, audit

    if not _mentions_dice(campaign):
        return Audit()
    return audit(campaign.history(), campaign.shown, campaign.ruleset.dice_agree)


def rolled_words(campaign: Campaign) -> dict[str, str]:
    """Whether the dice cok rolled for each event are verified yet, by the event's ref
    (`cok log`, the Activity page; the history itself says which dice cok rolled)."""
    return {ref: f"({verdict})" for ref, verdict in verdicts(campaign).items()}


def verdicts(campaign: Campaign) -> dict[str, str]:
    """Each event's dice verdict by its ref, in words: verified, or why not (yet)."""
    done = dice(campaign)
    refused = {p.line for p in done.problems}
    said = {}
    for committed in done.commitments.values():
        for row in committed.rolls:
            if row.line in refused:
                verdict = "refused by cok check"
            elif str(row.ref) in done.verified:
                verdict = "verified"
            elif committed.closed == "lost":
                verdict = "never verifiable: the seed is lost"
            else:
                verdict = f"not verified yet: the seed is revealed when {committed.period} ends"
            said[str(row.ref)] = verdict
    return said


def with_verdicts(campaign: Campaign, rows: Iterable[Told]) -> Iterator[Told]:
    """The history's rows, each with dice cok rolled followed by whether they are verified."""
    from dataclasses import replace

    said = rolled_words(campaign)
    for row in rows:
        verdict = said.get(str(row.ref))
        yield replace(row, text=f"{row.text} {verdict}") if verdict else row


def history(campaign: Campaign, player: str | None = None) -> Iterator[dict[str, Any]]:
    """`cok log --json`'s events, oldest first (never held whole): each with its sentence in
    the log's words, a result's confirmation (docs/confirm.md) and its dice' verdict
    (docs/dice.md); `player`: only the events about them."""
    from cok.service.confirming import confirmation_of

    pid = campaign.ruleset.player(campaign.state, player) if player else None  # refused before a line is written
    confirmation = confirmation_of(campaign)
    verdict = verdicts(campaign)
    return (_entry(t, confirmation, verdict) for t in campaign.told() if pid is None or pid in t.players)


def _entry(t: Told, confirmation: Any, verdict: dict[str, str]) -> dict[str, Any]:
    """One event as `cok log --json` and `GET /api/log` show it."""
    return {
        "line": t.line,
        "id": t.id,
        "ref": t.ref,
        "type": t.type,
        "summary": t.text,
        "voided": t.voided,
        "event": t.event,
        **({"confirmation": c} if (c := confirmation(t)) is not None else {}),
        **({"dice": d} if (d := verdict.get(str(t.ref))) is not None else {}),
    }


def after(campaign: Campaign, entries: Iterable[dict[str, Any]], since: str | None, limit: int) -> dict[str, Any]:
    """A page of the history: at most `limit` events after the one `since` names (its id or
    ref, or a unique start of one, as `cok void` takes it; none: from the first), and whether
    more follow. An event `since` does not name is refused, saying so."""
    from itertools import islice

    rows = iter(entries)
    if since:
        target = _event_named(campaign, since)
        for row in rows:
            if row["ref"] == target:
                break
    page = list(islice(rows, limit + 1))
    more = len(page) > limit
    page = page[:limit]
    return {"events": page, "more": more, "last": page[-1]["ref"] if page else (since or None)}


def _event_named(campaign: Campaign, named: str) -> str:
    """The ref of the event `named` (its id, its ref, a unique start of one), refused when
    the log holds none or several."""
    from cok.core.errors import RuleError

    found = [t.ref for t in campaign.told() if t.ref is not None and (t.ref == named or t.id == named)]
    if not found:
        found = [t.ref for t in campaign.told() if t.ref is not None and t.ref.startswith(named)]
    if len(found) != 1:
        said = "no event" if not found else f"{len(found)} events"
        raise RuleError(f"{said} in the log is named {named!r}: give an event's id as `cok log` shows it")
    return str(found[0])


def dice_document(campaign: Campaign) -> dict[str, Any]:
    """`cok dice --json`: every die cok rolled, with its period's commitment and whether it
    is verified from the revealed seed, and the log's dice problems."""
    done = dice(campaign)
    refused = {p.line: p.message for p in done.problems}
    rows: list[dict[str, Any]] = []
    for c in done.commitments.values():
        state = {"revealed": "revealed", "lost": "lost: never verifiable"}.get(c.closed, "not revealed yet")
        rolls = []
        for row in c.rolls:
            rolled = row.event["rolled"]
            verified = "verified" if str(row.ref) in done.verified else "not verified yet"
            verdict = "refused" if row.line in refused else verified
            rolls.append(
                {
                    "line": row.line,
                    "id": row.id,
                    "what": rolled["what"],
                    "dice": rolled["dice"],
                    "sides": rolled["sides"],
                    "entropy": rolled["entropy"],
                    "verified": verdict,
                }
            )
        rows.append(
            {"period": c.period, "commit": c.id, "line": c.line, "sha256": c.sha256, "seed": state, "rolls": rolls}
        )
    return {"commitments": rows, "problems": [{"line": p.line, "message": p.message} for p in done.problems]}


def _mentions_dice(campaign: Campaign) -> bool:
    """Whether the log holds a dice event or a rolled die at all (most logs: none, and the
    history is not read)."""
    from cok.core.folders import mentions

    try:
        with open(campaign.events_file, "rb") as handle:
            return mentions(handle, (b"dice-", b"rolled"))  # never the log whole
    except OSError:
        return True


def check_below(root: Path | str, *, use_cache: bool = True) -> list[Problem]:
    """`cok check --all` (a pre-commit hook): every problem of every campaign below `root`."""
    return [problem for folder in campaigns_below(Path(root)) for problem in check(folder, use_cache=use_cache)]


def campaigns_below(root: Path) -> list[Path]:
    """Every folder below `root` holding a campaign.yaml (hidden folders and installed
    packages skipped)."""
    found = []
    for path in sorted(root.rglob("campaign.yaml")):
        parts = path.relative_to(root).parts
        if not any(p.startswith(".") or p in ("node_modules", "site-packages") for p in parts[:-1]):
            found.append(path.parent)
    return found


def status(folder_or_campaign: Path | str | Campaign, **args: Any) -> dict[str, Any]:
    """The game's status, as its command's `--json`: Clash of Kings' `where` (players=[P1,
    P2], attacker=, brotherhood=[…]) is `cok where P1 P2 --json`; Mighty Kingdoms' is `cok
    mk status --json`, No True King's `cok ntk status --json`. Refused (RuleError) as
    those commands refuse."""
    campaign = opened(folder_or_campaign)
    said = campaign.ruleset.status(campaign, **args)
    if said is None:
        raise Refused(Problem(campaign.shown, None, f"{campaign.ruleset.title} has no status to show"))
    document: dict[str, Any] = jsonable(said)
    return document


def names(folder_or_campaign: Path | str | Campaign) -> list[str]:
    """The reads a campaign's game answers (`GET /api/<name>`): the standings and its own."""
    campaign = opened(folder_or_campaign)
    return ["standings", *campaign.ruleset.queries]


def read(folder_or_campaign: Path | str | Campaign, name: str, **args: Any) -> dict[str, Any]:
    """One of the game's reads by name (`armies`, player="tim"), as its command's `--json`
    prints it. Refused naming the reads there are for an unknown name, and the arguments a
    read takes for one it does not; a rule's refusal (an unknown player) is the rules' own."""
    import inspect

    campaign = opened(folder_or_campaign)
    query = _standings if name == "standings" else campaign.ruleset.queries.get(name)
    if query is None:
        known = ", ".join(names(campaign))
        said = f"no read {name!r} in {campaign.ruleset.title}; its reads: {known}"
        raise Refused(Problem(campaign.shown, None, said))
    options = list(inspect.signature(query).parameters.values())[1:]
    takes = [o.name for o in options]
    unknown = sorted(set(args) - set(takes))
    if unknown:
        given = ", ".join(f"`{a}`" for a in unknown)
        allowed = f"it takes {', '.join(f'`{a}`' for a in takes)}" if takes else "it takes none"
        raise Refused(Problem(campaign.shown, None, f"{name} takes no {given}: {allowed}"))
    missing = [o.name for o in options if o.default is inspect.Parameter.empty and o.name not in args]
    if missing:
        raise Refused(Problem(campaign.shown, None, f"{name} needs {', '.join(f'`{m}`' for m in missing)}"))
    document: dict[str, Any] = jsonable(query(campaign, **args))
    return document


def _standings(campaign: Campaign) -> dict[str, Any]:
    """`cok standings --json`, the one read every game answers."""
    return standings(campaign)


def jsonable(document: Any) -> Any:
    """The document as the JSON the command prints reads back: sets as sorted lists,
    dataclasses as mappings, times in ISO 8601."""
    return json.loads(json.dumps(document, ensure_ascii=False, default=json_default))
