"""Issue #40: dice anyone can verify. Every die cok rolls comes from a seed committed before
the roll is asked, what is rolled and the asker's entropy; the seed is revealed when the
period ends, and `cok check` recomputes every die from the log alone. Issue #36: one path
for "roll it for me" in every game (the command line and the service record equal events)."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from cok.core.dice import ENTROPY, ROLL
from cok.core.errors import Refused
from cok.service import Draft, Who, record

from ..conftest import Cok

KINGDOMS = [
    "mk kingdom ana --race Elves --capital Emberhold --city 1,-4 --fortress 2,-5 --villages 0,-4 0,-5 --army 1,-4",
    "mk kingdom bo --race Orcs --capital Greywater --city 4,-1 --fortress 5,-1 --villages 3,0 3,1 --army 4,-1",
]


def independent_die(seed: str, what: str, entropy: str, n: int, sides: int) -> int:
    """docs/dice.md's derivation, written again from the docs (not cok's code)."""
    j = 0
    while True:
        message = f"cok-dice-1|{what}|{entropy}|{n}|{j}".encode()
        x = int.from_bytes(hmac.new(bytes.fromhex(seed), message, hashlib.sha256).digest()[:4], "big")
        if x < 2**32 - 2**32 % sides:
            return x % sides + 1
        j += 1


def ok(cok: Cok, *args: str) -> str:
    done = cok(*args)
    assert done.exit_code == 0, done.stderr
    return done.stdout


@pytest.fixture
def mk(tmp_path: Path) -> Cok:
    """Month 1 begun: ana-1 moves into the unknown, bo-1 defends."""
    Cok(tmp_path)("init", "mk", "--ruleset", "mighty-kingdoms")
    cok = Cok(tmp_path / "mk")
    for kingdom in KINGDOMS:
        ok(cok, *kingdom.split())
    ok(cok, "mk", "begin")
    ok(cok, "mk", "order", "ana-1", "move", "Emberfall Gorge")
    ok(cok, "mk", "order", "bo-1", "defend")
    return cok


def log_of(cok: Cok) -> list[dict[str, Any]]:
    return list(yaml.safe_load((cok.cwd / "events.yaml").read_text()) or [])


def line_of(cok: Cok, text: str) -> int:
    """The line of the log item holding `text`."""
    lines = (cok.cwd / "events.yaml").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if text in line)
    return next(i for i in range(at, -1, -1) if lines[i].startswith("- ")) + 1


def a_whole_month(mk: Cok) -> None:
    ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    ok(mk, "mk", "resolve", "bo-1")
    ok(mk, "mk", "reform", "--order", "ana", "bo")


def test_a_roll_is_recomputed_by_an_independent_function_from_the_logs_text_alone(mk: Cok) -> None:
    a_whole_month(mk)
    log = log_of(mk)
    commit = next(e for e in log if e["type"] == "dice-commit")
    reveal = next(e for e in log if e["type"] == "dice-reveal")
    resolve = next(e for e in log if e.get("rolled"))
    assert hashlib.sha256(bytes.fromhex(reveal["seed"])).hexdigest() == commit["sha256"]
    assert reveal["commit"] == commit["id"] == resolve["rolled"]["commit"]
    rolled = resolve["rolled"]
    again = [
        independent_die(reveal["seed"], rolled["what"], rolled["entropy"], n, s) for n, s in enumerate(rolled["sides"])
    ]
    assert again == rolled["dice"] == resolve["roll"]
    assert [e["type"] for e in log].index("dice-commit") < [e["type"] for e in log].index("resolve")
    assert ok(mk, "check") == ""
    assert "verified" in ok(mk, "dice") and "(verified)" in ok(mk, "log")


def test_the_roll_is_shown_where_it_was_asked_for(mk: Cok) -> None:
    """#35: `cok mk resolve --roll-dice` says the dice it rolled."""
    said = ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    roll = next(e for e in log_of(mk) if e.get("rolled"))["roll"]
    assert f"(2D6: {roll[0]}+{roll[1]})" in said


def test_the_reveal_never_comes_before_the_period_ends(mk: Cok) -> None:
    ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    ok(mk, "mk", "resolve", "bo-1")
    assert "dice-reveal" not in (mk.cwd / "events.yaml").read_text()
    refused = mk("dice", "reveal")
    assert refused.exit_code == 1 and "is not over" in refused.stderr
    assert "not verified yet" in ok(mk, "log") and "dice: the dice of year 1, month 1" in ok(mk, "check")
    ok(mk, "mk", "reform", "--order", "ana", "bo")
    # in the same change: the month's seed revealed, the next month's committed (docs/dice.md)
    assert [e["type"] for e in log_of(mk)][-3:] == ["reform", "dice-reveal", "dice-commit"]


def test_a_seed_is_kept_in_the_data_folder_never_in_the_campaign(mk: Cok, tmp_path: Path) -> None:
    import os

    ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    kept = list((Path(os.environ["COK_DATA_DIR"]) / "dice-seeds").glob("*.json"))
    seed = json.loads(kept[0].read_text())["seed"]
    assert len(kept) == 1 and oct(kept[0].stat().st_mode)[-3:] == "600"
    assert all(seed not in p.read_text(errors="ignore") for p in mk.cwd.rglob("*") if p.is_file())
    ok(mk, "mk", "resolve", "bo-1")
    ok(mk, "mk", "reform", "--order", "ana", "bo")
    assert not kept[0].exists()  # revealed: nothing secret left


def forged(mk: Cok, old: str, new: str) -> None:
    path = mk.cwd / "events.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_a_forged_roll_is_refused_at_its_line(mk: Cok) -> None:
    a_whole_month(mk)
    rolled = next(e for e in log_of(mk) if e.get("rolled"))
    dice = rolled["rolled"]["dice"]
    other = [7 - d for d in dice]
    forged(mk, f"dice: {dice}".replace("'", ""), f"dice: {other}")
    forged(mk, f"roll: {dice}", f"roll: {other}")
    done = mk("check")
    assert done.exit_code == 1
    assert f"events.yaml:{line_of(mk, 'rolled:')}: rolled: the dice {other} do not follow" in done.stdout + done.stderr


def test_a_swapped_seed_is_refused_at_its_line(mk: Cok) -> None:
    a_whole_month(mk)
    seed = next(e for e in log_of(mk) if e["type"] == "dice-reveal")["seed"]
    forged(mk, seed, "ab" * 32)
    said = mk("check")
    assert said.exit_code == 1 and f"events.yaml:{line_of(mk, 'seed: ')}: dice-reveal: this seed does not match" in (
        said.stdout + said.stderr
    )


def test_a_roll_whose_fields_disagree_with_its_dice_is_refused(mk: Cok) -> None:
    a_whole_month(mk)
    dice = next(e for e in log_of(mk) if e.get("rolled"))["roll"]
    forged(mk, f"roll: {dice}", f"roll: {[7 - d for d in dice]}")
    said = mk("check")
    assert said.exit_code == 1 and "rolled: the event says" in said.stdout + said.stderr


def test_a_replayed_entropy_and_a_seed_revealed_twice_are_refused_at_their_lines(mk: Cok) -> None:
    ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    ok(mk, "mk", "resolve", "bo-1")
    ok(mk, "mk", "reform", "--order", "ana", "bo")
    ok(mk, "mk", "order", "ana-1", "regroup")
    ok(mk, "mk", "order", "bo-1", "move", "4,-2")
    ok(mk, "mk", "resolve", "ana-1")
    ok(mk, "mk", "resolve", "bo-1", "--roll-dice")
    first, second = [e["rolled"]["entropy"] for e in log_of(mk) if e.get("rolled")]
    first_line, second_line = line_of(mk, f"entropy: {first}"), line_of(mk, f"entropy: {second}")
    forged(mk, f"entropy: {second}", f"entropy: {first}")
    reveal = next(e for e in log_of(mk) if e["type"] == "dice-reveal")
    path = mk.cwd / "events.yaml"
    twice_line = len(path.read_text().splitlines()) + 1
    path.write_text(path.read_text() + f"- type: dice-reveal\n  commit: {reveal['commit']}\n  seed: {reveal['seed']}\n")
    said = mk("check")
    text = said.stdout + said.stderr
    assert said.exit_code == 1
    assert f":{second_line}: rolled: the entropy was already used on line {first_line}: a replayed entropy" in text
    assert f":{twice_line}: dice-reveal: the seed committed on line" in text and "was already revealed" in text


def test_a_restart_between_commit_and_reveal_keeps_the_seed(tmp_path: Path, mk: Cok) -> None:
    """The server's restart: the seed waits in the data folder, and a new server (a new
    ledger) reveals it with the event that ends the month."""
    from cok.service import Ledger

    first = Ledger(mk.cwd)
    with pytest.raises(Refused, match="committed now"):  # the phone's first roll of the month
        first.record([Draft("resolve", {"army": "ana-1"})], by=Who("ana"), answers={ROLL: True, ENTROPY: "aa" * 16})
    first.record([Draft("resolve", {"army": "ana-1"})], by=Who("ana"), answers={ROLL: True, ENTROPY: "bb" * 16})
    del first
    again = Ledger(mk.cwd)  # a restart: nothing kept in memory
    again.record([Draft("resolve", {"army": "bo-1"})], by=Who("bo"))
    again.record([Draft("reform", {"order": ["ana", "bo"]})], by=Who("org", organiser=True))
    types = [e["type"] for e in log_of(mk)]
    assert types.count("dice-commit") == 2 and types[-2:] == ["dice-reveal", "dice-commit"]
    assert ok(mk, "check") == "" and "verified" in ok(mk, "dice")


def test_a_lost_seed_is_recorded_and_only_that_periods_dice_go_unverified(mk: Cok) -> None:
    import os
    import shutil

    ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    shutil.rmtree(Path(os.environ["COK_DATA_DIR"]) / "dice-seeds")
    ok(mk, "mk", "resolve", "bo-1")
    ok(mk, "mk", "reform", "--order", "ana", "bo")
    assert "dice: the dice of year 1, month 1" in ok(mk, "check")
    ok(mk, "dice", "lost", "--reason", "the laptop's disk died")
    assert "never verifiable" in ok(mk, "log") and ok(mk, "check") == ""


# ---------------------------------------------------------------- one path (#36), a test per game


@pytest.fixture
def fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed for every commitment, the terminal's entropy fixed too."""
    monkeypatch.setattr("cok.service.dice.new_seed", lambda: "5e" * 32)
    monkeypatch.setattr("cok.service.dice.new_entropy", lambda: "0f" * 16)


def as_phone(folder: Path, draft: Draft, by: Who) -> None:
    """As a page records: the answer "roll it for me" and the phone's entropy; the first roll
    of a period commits, and the phone sends again."""
    answers = {ROLL: True, ENTROPY: "0f" * 16}
    with pytest.raises(Refused, match="committed now"):
        record(folder, [draft], by=by, answers=answers)
    record(folder, [draft], by=by, answers=answers)


def same(one: Path, other: Path, kind: str) -> dict[str, Any]:
    a, b = ([e for e in yaml.safe_load((f / "events.yaml").read_text()) if e["type"] == kind][-1] for f in (one, other))
    for event in (a, b):
        event["rolled"].pop("commit")
        for key in ("id", "at", "by"):
            event.pop(key)
    assert a == b
    return a


def test_clash_of_kings_roll_off_from_the_terminal_and_the_phone_is_the_same_event(
    tmp_path: Path, fixed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.conftest import WESTEROS

    monkeypatch.setattr("cok.service.dice.new_seed", lambda: "09" * 32)  # two ties, then matt's 4 against tim's 6

    folders = []
    for name in ("terminal", "phone"):
        folder = tmp_path / name / "c"
        folder.mkdir(parents=True)
        (folder / "campaign.yaml").write_text(f"name: T\nmap: {WESTEROS}\npoints: {{start: 20, step: 3}}\n")
        (folder / "events.yaml").write_text(
            "- type: join\n  player: tim\n  name: Tim\n  faction: martell\n  id: j1\n"
            "- type: join\n  player: matt\n  name: Matt\n  faction: lannister\n  id: j2\n"
        )
        folders.append(folder)
    ok(Cok(folders[0]), "battle", "tim", "matt", "--at", "Tarth", "--winner", "tim", "--roll-dice")
    as_phone(
        folders[1], Draft("battle", {"players": ["tim", "matt"], "location": "Tarth", "winner": "tim"}), Who("tim")
    )
    battle = same(*folders, "battle")
    assert battle["rolled"]["what"] == "roll-off week 1 matt tim"  # the players' ids in order, whoever is typed first
    assert battle["attacker"] == "tim" and battle["rolled"]["dice"] == [1, 1, 3, 3, 4, 6]
    assert "dice: the dice of week 1 (committed on line 11)" in ok(Cok(folders[0]), "check")


def test_no_true_king_seating_from_the_terminal_and_the_service_is_the_same_event(tmp_path: Path, fixed: None) -> None:
    from tests.no_true_king.test_cli import joined

    folders = []
    for name in ("terminal", "phone"):
        (tmp_path / name).mkdir()
        Cok(tmp_path / name)("init", "game", "--ruleset", "no-true-king")
        joined(Cok(tmp_path / name / "game"))
        folders.append(tmp_path / name / "game")
    ok(Cok(folders[0]), "ntk", "begin", "--seats", "ana", "bo", "--roll")
    as_phone(folders[1], Draft("begin", {"seats": ["ana", "bo"]}), Who("org", organiser=True))
    begin = same(*folders, "begin")
    assert begin["first"] == sorted(begin["seats"])[begin["rolled"]["dice"][0] - 1] and begin["rolled"]["sides"] == [2]


def test_the_reform_roll_off_of_players_tied_on_armies_is_rolled_by_cok_and_revealed_with_it(mk: Cok) -> None:
    """Every die cok rolls goes through the fair dice: the roll-off for the player order too."""
    ok(mk, "mk", "resolve", "ana-1", "--roll-dice")
    ok(mk, "mk", "resolve", "bo-1")
    said = ok(mk, "mk", "reform", "--roll-dice")
    reform = next(e for e in log_of(mk) if e["type"] == "reform")
    first, second = reform["rolled"]["dice"][:2]
    assert first != second or len(reform["rolled"]["dice"]) > 2
    if first != second:
        assert reform["order"] == (["ana", "bo"] if first > second else ["bo", "ana"])
    assert "dice rolled by cok" in said and [e["type"] for e in log_of(mk)][-2:] == ["dice-reveal", "dice-commit"]
    assert ok(mk, "check") == ""


def test_a_commitment_no_roll_used_is_never_revealed_and_the_next_period_commits_anew(mk: Cok) -> None:
    """A phone's first roll commits the month's dice, and the player types the dice instead:
    the seed has nothing to verify, so it is not revealed (a reveal with no roll is refused as a
    seed never used), and the next month's own is committed with the event that opens it."""
    with pytest.raises(Refused, match="committed now"):
        record(mk.cwd, [Draft("resolve", {"army": "ana-1"})], by=Who("ana"), answers={ROLL: True, ENTROPY: "aa" * 16})
    ok(mk, "mk", "resolve", "ana-1", "--roll", "3", "4")
    ok(mk, "mk", "resolve", "bo-1")
    ok(mk, "mk", "reform", "--order", "ana", "bo")
    assert "dice-reveal" not in (mk.cwd / "events.yaml").read_text()
    assert [e["type"] for e in log_of(mk)][-2:] == ["reform", "dice-commit"]  # month 2's, as it opens
    assert ok(mk, "check") == ""
    ok(mk, "mk", "order", "ana-1", "regroup")
    ok(mk, "mk", "order", "bo-1", "move", "4,-2")
    ok(mk, "mk", "resolve", "ana-1")
    ok(mk, "mk", "resolve", "bo-1", "--roll-dice")
    ok(mk, "mk", "reform", "--roll-dice")
    types = [e["type"] for e in log_of(mk)]
    assert types.count("dice-commit") == 3 and types.count("dice-reveal") == 1
    assert types[-3:] == ["reform", "dice-reveal", "dice-commit"]
    assert ok(mk, "check") == ""
