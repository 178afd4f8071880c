"""Issue 39's nudges for what only one person can answer: a battle awaiting their
confirmation, a card only they hold (No True King), every open dispute for the organisers;
each posted once, mentioning them, again after the organiser's `--remind` delay while still
asked; and a player's own destination (a direct message) taking their nudges."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path
from types import SimpleNamespace

from cok.core.folders import data_dir
from cok.notify import outbox
from tests.conftest import Cok
from tests.notify.conftest import Fake


def _battle(cok: Cok, by: str, other: str) -> str:
    """A battle `by` recorded against `other` (from their phone, as it were): its id."""
    fought = ("battle", by, other, "--at", "Ghost Hill", "--vp", f"{by}=7", "--vp", f"{other}=5")
    done = cok(*fought, "--override", "a friendly game", env={"COK_BY": by})
    assert done.exit_code == 0, done.stderr
    return str(json.loads(cok("log", "--json").stdout)["events"][-1]["id"])


def _later(folder: Path, seconds: float) -> None:
    """`cok serve`'s courier, that long from now (the reminders come due)."""
    outbox.send(folder, now=lambda: time.time() + seconds)


def test_a_battle_awaiting_confirmation_nudges_the_other_side_once_by_their_chat_handle(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("invite", "matt", "--mention", "<@77>")
    cok("notify", "add", fake.url, "--only", "nudge")
    fought = _battle(cok, "tim", "matt")
    cok("notify", "send")
    cok("notify", "send")
    assert len(fake.bodies) == 1
    assert fake.bodies[0].startswith(f"The ledger waits for <@77>: to confirm or dispute the result {fought}: ")
    assert f"cok confirm {fought}" in fake.bodies[0]


def test_a_confirmation_nudge_is_posted_again_after_the_delay_only_while_the_result_awaits_them(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "nudge", "--remind", "1h")
    confirmed = _battle(cok, "tim", "matt")
    awaiting = _battle(cok, "tim", "dany")
    assert cok("confirm", confirmed, env={"COK_BY": "matt"}).exit_code == 0
    cok("notify", "send")
    fake.received.clear()
    _later(example, 3599)
    assert fake.bodies == []  # not yet
    _later(example, 3601)
    assert len(fake.bodies) == 1 and f"the result {awaiting}" in fake.bodies[0] and "dany" in fake.bodies[0]


def test_organisers_are_nudged_about_every_open_dispute_and_reminded_while_it_stays_open(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    cok("invite", "--organiser", "Ann", "--mention", "<@1>")
    cok("invite", "--organiser", "Bea")
    cok("notify", "add", fake.url, "--only", "nudge", "--remind", "2h")
    first, second = _battle(cok, "tim", "matt"), _battle(cok, "tim", "dany")
    assert cok("dispute", first, "--reason", "wrong table", env={"COK_BY": "matt"}).exit_code == 0
    assert cok("dispute", second, "--reason", "over points", env={"COK_BY": "dany"}).exit_code == 0
    fake.received.clear()
    cok("notify", "send")
    settle = [b for b in fake.bodies if "to settle a dispute" in b]
    assert len(settle) == 4  # each dispute, each organiser
    assert any(b.startswith("The ledger waits for <@1> (organiser) to settle a dispute: matt disputes") for b in settle)
    assert any(b.startswith("The ledger waits for Bea (organiser)") and f"cok settle {second}" in b for b in settle)
    assert cok("settle", first, "--reason", "the table was right").exit_code == 0
    fake.received.clear()
    _later(example, 2 * 3600 + 1)
    reminded = [b for b in fake.bodies if "to settle a dispute" in b]
    assert len(reminded) == 2 and all(f"cok settle {second}" in b for b in reminded)  # the settled one is not


def test_a_card_only_they_hold_is_asked_of_them_in_a_combat_not_of_the_active_player() -> None:
    from cok.rulesets.no_true_king.notify import waits
    from tests.no_true_king.helpers import rec
    from tests.no_true_king.test_cards_from_the_phones import karhold

    state = karhold()  # ana, active, moves into Karhold; bo holds a Greyjoy card
    assert waits(SimpleNamespace(state=state)) == ("ana", "their turn (resolution)")
    rec(state, type="card", player="ana", house="stark", to="Karhold")
    who, what = waits(SimpleNamespace(state=state)) or ("", "")
    assert who == "bo" and "a card to play, or none, in the combat in Karhold" in what
    rec(state, type="card", player="bo", card="Balon Greyjoy")
    assert waits(SimpleNamespace(state=state)) == ("ana", "their turn (resolution)")  # cy holds none: not asked


def test_a_players_own_destination_takes_their_nudges_instead_of_the_clubs_channel(
    example: Path, fake: Fake, own: Fake
) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    added = cok("notify", "add", own.url, "--player", "Matt")
    assert added.exit_code == 0 and "matt's own: their nudges" in added.stdout
    fought = _battle(cok, "tim", "matt")
    cok("notify", "send")
    assert len(own.bodies) == 1 and f"the result {fought}" in own.bodies[0]
    assert not any("The ledger waits for" in b for b in fake.bodies) and len(fake.bodies) == 1  # the battle
    kept = [p for p in data_dir().rglob("*.json") if own.url in p.read_text()]
    assert len(kept) == 1 and stat.S_IMODE(kept[0].stat().st_mode) == 0o600
    assert not any(own.url in p.read_text(errors="replace") for p in example.rglob("*") if p.is_file())
    assert "matt's own" in cok("notify", "list").stdout and str(own.port) not in cok("notify", "list").stdout


def test_a_players_own_destination_for_someone_unknown_is_refused_and_nothing_kept(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    refused = cok("notify", "add", fake.url, "--player", "nobody")
    assert refused.exit_code == 1 and "--player" in refused.stderr
    assert cok("notify", "add", fake.url, "--player", "tim", "--only", "battle").exit_code == 1
    assert not list(data_dir().rglob("destinations.json"))
