"""Issue 46, "the ledger refuses, before writing, anything `cok check` would refuse": on main
Sara's battle sent with the entropy of Tim's recorded roll-off answered 303 and was written, and
`cok check` refused the log from then on ("a replayed entropy"); two `cok serve` and 8 first
rolls at once wrote two or three `dice-commit` for one week ("one commitment a period"). An
event that would make `cok check` fail is never appended, whichever interface sends it and
whichever process writes: every dice event's shape is sent through the terminal, a page's
form and the API, and the check passes after all of them; two processes race for one period."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from cok.core.dice import ENTROPY, ROLL
from cok.core.errors import Refused
from cok.links import invites
from cok.serve.app import create_app
from cok.service import Draft, Who, record
from tests.conftest import ROOT, Cok

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

FORM = {"content-type": "application/x-www-form-urlencoded"}
ORGANISER = Who("org", organiser=True)
THREE = (
    "- type: join\n  player: tim\n  name: Tim\n  faction: martell\n  id: j1\n"
    "- type: join\n  player: matt\n  name: Matt\n  faction: lannister\n  id: j2\n"
    "- type: join\n  player: sara\n  name: Sara\n  faction: stark\n  id: j3\n"
)


@pytest.fixture
def three(campaign: Path) -> Path:
    """Tim, Matt and Sara, week 1: every battle between two of them rolls off for the attacker."""
    (campaign / "events.yaml").write_text(THREE)
    return campaign


def log_of(folder: Path) -> list[dict[str, Any]]:
    return list(yaml.safe_load((folder / "events.yaml").read_text()) or [])


def battle(players: list[str], winner: str) -> Draft:
    return Draft("battle", {"players": players, "location": "Tarth", "winner": winner, "override": "a test"})


def rolled_by_phone(folder: Path, draft: Draft, entropy: str) -> dict[str, Any]:
    """As a page records "roll for me" (the first roll of a period commits first)."""
    answers = {ROLL: True, ENTROPY: entropy}
    try:
        record(folder, [draft], by=ORGANISER, answers=answers)
    except Refused as refused:
        assert "committed now" in str(refused)
        record(folder, [draft], by=ORGANISER, answers=answers)
    return log_of(folder)[-1]


def checks(folder: Path) -> None:
    done = Cok(folder)("check")
    assert done.exit_code == 0 and "refus" not in done.stdout + done.stderr, done.stdout + done.stderr


def test_a_replayed_entropy_is_refused_before_it_is_written(three: Path) -> None:
    tims = rolled_by_phone(three, battle(["tim", "matt"], "tim"), "ab" * 16)
    before = (three / "events.yaml").read_bytes()
    with pytest.raises(Refused, match="replayed entropy"):
        record(three, [battle(["sara", "matt"], "sara")], by=ORGANISER, answers={ROLL: True, ENTROPY: "ab" * 16})
    assert (three / "events.yaml").read_bytes() == before and tims["rolled"]["entropy"] == "ab" * 16
    checks(three)


@dataclass
class Served:
    folder: Path
    client: TestClient
    token: str

    def csrf(self) -> str:
        self.client.get(f"/join/{self.token}")
        found = re.search(r'name="csrf" value="([^"]+)"', self.client.get("/void").text)
        assert found
        return found[1]

    def form(self, kind: str, fields: dict[str, Any], answers: dict[str, Any] | None = None) -> int:
        """A page's form of this event (`POST /record`): its status."""
        data = {
            "csrf": self.csrf(),
            "drafts": json.dumps([{"type": kind, "fields": fields}]),
            "answers": json.dumps(answers or {}),
        }
        return self.client.post("/record", data=data, follow_redirects=False).status_code

    def api(self, kind: str, fields: dict[str, Any]) -> int:
        headers = {"authorization": f"Bearer {self.token}"}
        return self.client.post("/api/events", json={"type": kind, **fields}, headers=headers).status_code


@pytest.fixture
def served(three: Path) -> Iterator[Served]:
    token = invites.invite(three, "Org", organiser=True)
    with TestClient(create_app(three)) as client:
        yield Served(three, client, token)


def test_every_dice_event_shape_through_every_interface_leaves_a_log_the_check_accepts(served: Served) -> None:
    folder = served.folder
    tims = rolled_by_phone(folder, battle(["tim", "matt"], "tim"), "ab" * 16)
    commit = next(e for e in log_of(folder) if e["type"] == "dice-commit")
    other = "cd" * 32
    shapes: list[tuple[str, dict[str, Any]]] = [
        ("dice-commit", {"period": commit["period"], "sha256": other}),  # a second commitment for week 1
        ("dice-reveal", {"commit": commit["id"], "seed": other}),  # a swapped seed (and too early)
        ("dice-reveal", {"commit": "nosuch", "seed": other}),  # a reveal of nothing
        ("dice-lost", {"commit": "nosuch", "reason": "gone"}),  # a seed lost that was never committed
    ]
    for kind, fields in shapes:
        before = (folder / "events.yaml").read_bytes()
        assert served.form(kind, fields) in (400, 403, 409, 422), (kind, fields)
        assert served.api(kind, fields) in (400, 403, 409, 422), (kind, fields)
        cli = Cok(folder)("dice", "lost", "--reason", "x") if kind == "dice-lost" else None
        assert (folder / "events.yaml").read_bytes() == before or (cli is not None and cli.exit_code == 0)
        checks(folder)
    replayed = {ROLL: True, ENTROPY: tims["rolled"]["entropy"]}
    before = (folder / "events.yaml").read_bytes()
    assert served.form("battle", {**battle(["sara", "matt"], "sara").fields}, replayed) == 422
    assert (folder / "events.yaml").read_bytes() == before
    checks(folder)


def test_the_terminal_rolls_and_reveals_and_the_check_accepts_the_log(three: Path) -> None:
    cok = Cok(three)
    assert cok(
        "battle", "tim", "matt", "--at", "Tarth", "--winner", "tim", "--roll-dice", "--override", "t"
    ).exit_code in (0, 1)
    assert cok("week", "--next").exit_code == 0
    checks(three)
    kinds = [e["type"] for e in log_of(three)]
    assert kinds.count("dice-commit") >= 1 and kinds.count("dice-reveal") <= 1


RACE = """
import sys
from pathlib import Path
from cok import rulesets
from cok.core.dice import ENTROPY, ROLL
from cok.core.errors import Refused
rulesets.install()
from cok.service import Draft, Who, record
folder, players, entropy = Path(sys.argv[1]), sys.argv[2].split(","), sys.argv[3]
draft = Draft("battle", {"players": players, "location": "Tarth", "winner": players[0], "override": "race"})
try:
    record(folder, [draft], by=Who("org", organiser=True), answers={ROLL: True, ENTROPY: entropy})
    print("recorded")
except Refused as refused:
    print("refused", refused)
"""


@pytest.mark.parametrize("attempt", range(3))
def test_two_processes_asking_the_first_rolls_of_a_period_at_once_write_one_commitment(
    three: Path, attempt: int
) -> None:
    """Several processes (two servers, a server and a terminal) ask the first roll of a
    period at the same moment: one commitment is written, never two; the check accepts the log."""
    pairs = ["tim,matt", "sara,matt", "sara,tim", "matt,tim"]
    running = [
        subprocess.Popen(
            [sys.executable, "-c", RACE, str(three), pair, f"{i + 1:02x}" * 16 + f"{attempt:02x}" * 2],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for i, pair in enumerate(pairs)
    ]
    said = [p.communicate(timeout=120) for p in running]
    assert all("Traceback" not in err for _, err in said), said
    kinds = [e["type"] for e in log_of(three)]
    assert kinds.count("dice-commit") == 1, "\n".join(
        [*(o + e for o, e in said), (three / "events.yaml").read_text()[-1500:]]
    )
    checks(three)


def test_a_lost_race_to_commit_a_period_is_known_by_the_refusals_type(three: Path) -> None:
    """The ledger refuses a second commitment for a period as `CommittedTwice`, and the
    process that lost the race learns it from that type (`Meanwhile`), not from the words
    of the refusal; nothing is written."""
    from cok.core.campaign import open_campaign
    from cok.core.dicecheck import CommittedTwice
    from cok.core.events import DiceCommit
    from cok.service import dice
    from cok.service.followers import Followers

    stale = open_campaign(three)  # read before another process committed the period
    dice.commit(open_campaign(three), "org", Followers(three))
    before = (three / "events.yaml").read_bytes()
    period = stale.ruleset.period(stale.state)
    with pytest.raises(CommittedTwice):
        Followers(three).write(open_campaign(three), [DiceCommit(period=period, sha256="ab" * 32)], by="org")
    with pytest.raises(dice.Meanwhile):
        dice.commit(stale, "org", Followers(three))
    assert (three / "events.yaml").read_bytes() == before
    checks(three)


def test_a_void_that_would_leave_rolls_without_their_commitment_is_refused(three: Path) -> None:
    """Voiding a commitment that rolls were made with would leave them with no dice-commit
    before them, which the check refuses: the void is refused, and voiding a roll itself is not."""
    from cok.service.voiding import void

    rolled_by_phone(three, battle(["tim", "matt"], "tim"), "ab" * 16)
    commit = next(e for e in log_of(three) if e["type"] == "dice-commit")
    before = (three / "events.yaml").read_bytes()
    with pytest.raises(Refused, match="no dice-commit"):
        void(three, commit["id"], "a mistake", by=ORGANISER)
    assert (three / "events.yaml").read_bytes() == before
    void(three, log_of(three)[-1]["id"], "the battle was not played", by=ORGANISER)
    checks(three)
