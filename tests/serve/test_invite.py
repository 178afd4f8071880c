"""`cok invite`: personal links, kept only as hashes, outside the campaign folder."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from cok.links import invites
from tests.conftest import Cok


def test_a_link_carries_at_least_128_random_bits(example: Path) -> None:
    run = Cok(example)("invite", "tim", "--json")
    assert run.exit_code == 0, run.stderr
    link = json.loads(run.stdout)
    assert link["player"] == "tim" and link["url"].endswith(f"/join/{link['token']}")
    raw = base64.urlsafe_b64decode(link["token"] + "=" * (-len(link["token"]) % 4))
    assert len(raw) * 8 >= 128
    assert Cok(example)("invite", "tim", "--json").stdout != run.stdout


def test_only_the_hash_is_kept_outside_the_campaign_folder(example: Path, _own_data: Path) -> None:
    before = {p: p.read_bytes() for p in example.rglob("*") if p.is_file()}
    token = json.loads(Cok(example)("invite", "tim", "--json").stdout)["token"]
    after = {p: p.read_bytes() for p in example.rglob("*") if p.is_file()}
    settings = example / "campaign.yaml"
    identity = invites.identity(example)
    assert identity is not None and token not in after[settings].decode()
    assert (
        after.pop(settings)
        == before.pop(settings) + f"id: {identity}  # links and sessions are kept under it\n".encode()
    )
    assert after == before  # nothing else written in the campaign folder: only the campaign's id
    kept = invites.store(example)
    assert kept.is_relative_to(_own_data)
    text = kept.read_text()
    assert token not in text and invites.hashed(token) in text
    assert kept.stat().st_mode & 0o077 == 0  # readable by this user only


def test_a_new_link_replaces_the_old_one(example: Path) -> None:
    old = invites.invite(example, "tim")
    new = invites.invite(example, "tim")
    keys = invites.Keys(example)
    assert keys.find(old) is None and keys.find(new) is not None


def test_several_organisers_may_be_invited(example: Path) -> None:
    for name in ("Ann", "Bob"):
        assert Cok(example)("invite", "--organiser", name).exit_code == 0
    listed = Cok(example)("invite", "--list", "--json")
    assert json.loads(listed.stdout)["links"] == [
        {"name": "Ann", "organiser": True},
        {"name": "Bob", "organiser": True},
    ]


def test_revoke_stops_a_link(example: Path) -> None:
    token = invites.invite(example, "tim")
    run = Cok(example)("invite", "--revoke", "tim")
    assert run.exit_code == 0
    assert invites.Keys(example).find(token) is None


def test_revoking_nobody_says_who_has_links(example: Path) -> None:
    invites.invite(example, "matt")
    run = Cok(example)("invite", "--revoke", "tim")
    assert run.exit_code == 1 and "matt" in run.stderr


def test_an_unknown_player_gets_no_link(example: Path) -> None:
    run = Cok(example)("invite", "nobody")
    assert run.exit_code == 1 and "nobody" in run.stderr and "tim" in run.stderr
    assert invites.links(example) == []


def test_one_thing_at_a_time(example: Path) -> None:
    run = Cok(example)("invite", "tim", "--list")
    assert run.exit_code == 1 and "one of" in run.stderr


def test_a_player_not_in_the_campaign_is_refused_with_how_to_invite_a_newcomer(example: Path) -> None:
    run = Cok(example)("invite", "ana")
    assert run.exit_code == 1 and "cok invite ana --new" in run.stderr
    assert not invites.links(example)


def test_a_newcomer_who_joins_from_their_phone_is_invited_with_new(example: Path) -> None:
    run = Cok(example)("invite", "ana", "--new", "--json")
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["player"] == "ana"
    assert invites.Keys(example).find(json.loads(run.stdout)["token"]) is not None


def test_new_refuses_a_player_already_in_the_game_and_a_name_that_is_no_id(example: Path) -> None:
    playing = Cok(example)("invite", "tim", "--new")
    assert playing.exit_code == 1 and "cok invite tim" in playing.stderr
    bad = Cok(example)("invite", "Ana Smith", "--new")
    assert bad.exit_code == 1 and "lowercase" in bad.stderr
    assert not invites.links(example)
