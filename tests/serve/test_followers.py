"""Issue 45: one write, its followers. Every change the ledger appends — a phone's recording,
the dice commitment made before its roll, the reveal with the event that ends the period, a
seed lost — is committed to git as exactly that change by `cok serve --commit`; the followers
run after the ledger's lock, in the log's order, so that no page waits for git; and they
start and stop with the application (its lifespan), for one campaign and for a club."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cok.core.dice import ENTROPY, ROLL
from cok.core.errors import Refused
from cok.links import invites
from cok.serve.app import create_app
from cok.serve.warm import WarmCampaign
from cok.service import Draft, Who
from cok.service.followers import Backup
from tests.conftest import Cok

KINGDOMS = [
    "mk kingdom ana --race Elves --capital Emberhold --city 1,-4 --fortress 2,-5 --villages 0,-4 0,-5 --army 1,-4",
    "mk kingdom bo --race Orcs --capital Greywater --city 4,-1 --fortress 5,-1 --villages 3,0 3,1 --army 4,-1",
]
ORGANISER = Who("org", organiser=True)


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=o", "-c", "user.email=o@x", *args], cwd=repo, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def month(tmp_path: Path) -> Path:
    """A Mighty Kingdoms campaign in its own git repository, month 1 begun: ana-1 moves into
    the unknown (its resolve rolls), bo-1 defends."""
    repo = tmp_path / "club"
    repo.mkdir()
    assert Cok(repo)("init", "mk", "--ruleset", "mighty-kingdoms").exit_code == 0
    cok = Cok(repo / "mk")
    lines = [k.split() for k in KINGDOMS] + [["mk", "begin"], ["mk", "order", "bo-1", "defend"]]
    for line in [*lines, ["mk", "order", "ana-1", "move", "Emberfall Gorge"]]:
        done = cok(*line)
        assert done.exit_code == 0, done.stderr
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "the campaign")
    return repo / "mk"


def roll_for_me(warm: WarmCampaign, draft: Draft, who: Who, entropy: str) -> None:
    """As a phone's "Roll for me": the period's first roll commits its dice, and the phone
    sends again with new random bytes."""
    try:
        warm.record([draft], who, answers={ROLL: True, ENTROPY: entropy})
    except Refused as refused:
        assert "committed now" in str(refused)
        warm.record([draft], who, answers={ROLL: True, ENTROPY: entropy[::-1] + "0"})


def every_commit_checks_in_a_clone(repo: Path, tmp_path: Path) -> list[str]:
    """`cok check` of the campaign at every commit of the repository, in a clone of it."""
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    said = []
    for commit in git(clone, "rev-list", "HEAD").split():
        git(clone, "checkout", "-q", commit)
        checked = Cok(clone / "mk")("check", "--no-cache")
        said += [f"{commit[:10]}: {checked.stdout}{checked.stderr}"] if checked.exit_code != 0 else []
    return said


def test_every_commit_of_a_month_of_phones_rolling_for_me_passes_check_in_a_clone(month: Path, tmp_path: Path) -> None:
    """The measured bug: the roll was committed, its `dice-commit` was not, and a clone failed
    `cok check` ("rolled: no dice-commit … before this line"); the reveal was the same."""
    warm = WarmCampaign(month, Backup(commit=True))
    warm.start()  # as the application starts it
    try:
        roll_for_me(warm, Draft("resolve", {"army": "ana-1"}), Who("ana"), "aa" * 16)
        warm.record([Draft("resolve", {"army": "bo-1"})], Who("bo"))
        warm.record([Draft("reform", {"order": ["ana", "bo"]})], ORGANISER)  # the month ends: revealed
    finally:
        warm.stop()  # every change handed over is committed first
    repo = month.parent
    log = (month / "events.yaml").read_text()
    assert "dice-commit" in log and "dice-reveal" in log and "rolled:" in log
    assert git(repo, "show", "HEAD:mk/events.yaml") == log  # the log in git is the log on disk
    assert every_commit_checks_in_a_clone(repo, tmp_path) == []
    authors = git(repo, "log", "--format=%an").split()
    assert authors[:4] == ["org", "bo", "ana", "ana"]  # the reform, bo's, ana's roll and its commitment


def test_a_period_revealed_late_is_committed_as_its_own_change(month: Path, tmp_path: Path) -> None:
    """The month ended at the terminal without the seed at hand: the server's next recording
    reveals it first, as its own change, and commits it."""
    import os
    import shutil

    warm = WarmCampaign(month, Backup(commit=True))  # not started: its followers follow at once
    roll_for_me(warm, Draft("resolve", {"army": "ana-1"}), Who("ana"), "ab" * 16)
    seeds = Path(os.environ["COK_DATA_DIR"]) / "dice-seeds"
    shutil.move(seeds, tmp_path / "away")
    assert Cok(month)("mk", "resolve", "bo-1").exit_code == 0
    assert Cok(month)("mk", "reform", "--order", "ana", "bo").exit_code == 0
    git(month.parent, "commit", "-qam", "the terminal's")
    shutil.move(tmp_path / "away", seeds)
    warm.record([Draft("order", {"army": "ana-1", "order": "regroup"})], Who("ana"))
    assert "dice-reveal" in git(month.parent, "show", "HEAD~1") and "type: order" in git(month.parent, "show", "HEAD")
    assert git(month.parent, "show", "HEAD:mk/events.yaml") == (month / "events.yaml").read_text()
    assert every_commit_checks_in_a_clone(month.parent, tmp_path) == []


def test_a_seed_lost_is_committed_as_its_own_change(month: Path, tmp_path: Path) -> None:
    import os
    import shutil

    from cok.core.campaign import open_campaign
    from cok.service.dice import lose

    warm = WarmCampaign(month, Backup(commit=True))
    roll_for_me(warm, Draft("resolve", {"army": "ana-1"}), Who("ana"), "ab" * 16)
    shutil.rmtree(Path(os.environ["COK_DATA_DIR"]) / "dice-seeds")
    warm.record([Draft("resolve", {"army": "bo-1"})], Who("bo"))
    warm.record([Draft("reform", {"order": ["ana", "bo"]})], ORGANISER)
    lose(open_campaign(month), "the laptop's disk died", "org", warm.followers)
    assert "dice-lost" in git(month.parent, "show", "HEAD")
    assert git(month.parent, "show", "HEAD:mk/events.yaml") == (month / "events.yaml").read_text()
    assert every_commit_checks_in_a_clone(month.parent, tmp_path) == []


@pytest.fixture
def slow_git(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, float]]:
    """A git commit that takes its time (a hook, a lock, a slow disk): it waits until released,
    at most 5 s, and says when it started and ended."""
    import cok.service.commit as commit

    times: dict[str, float] = {}
    release = threading.Event()

    def slow(folder: Path, change: object) -> None:
        times["started"] = time.monotonic()
        release.wait(5)
        times["ended"] = time.monotonic()

    monkeypatch.setattr(commit, "git_commit", slow)
    yield times
    release.set()


def test_a_page_answers_while_a_slow_git_commit_follows_a_recording(example: Path, slow_git: dict[str, float]) -> None:
    tim = invites.invite(example, "tim")
    painting = {"type": "painting", "player": "tim", "units": 1}
    with TestClient(create_app(example, backup=Backup(commit=True))) as client:
        answer = client.post("/api/events", json=painting, headers={"authorization": f"Bearer {tim}"})
        assert answer.status_code == 201, answer.text
        recorded = time.monotonic()
        assert client.get("/api/standings").status_code == 200
        assert client.get("/activity").status_code == 200
        shown = time.monotonic()
        assert "ended" not in slow_git  # the commit still runs: neither the answer nor the pages waited
        assert shown - recorded < 4
    assert slow_git["ended"] >= shown  # and it was done before the application stopped


def test_the_application_starts_and_stops_its_background_work_with_it(example: Path) -> None:
    def named() -> set[str]:
        return {t.name for t in threading.enumerate()}

    app = create_app(example, backup=Backup(commit=False))
    assert "cok-followers" not in named()
    with TestClient(app):
        assert "cok-followers" in named()
    assert "cok-followers" not in named()


def test_a_clubs_campaigns_start_and_stop_their_background_work_with_the_club(example: Path) -> None:
    from cok.serve import club

    folder = example.parent
    members = club.gathered(folder)
    app = club.club_app(folder, members, lambda f: create_app(f))
    started = [m.app.warm.followers for m in members if m.app is not None]  # type: ignore[attr-defined]
    assert started and all(f._worker is None for f in started)
    with TestClient(app):
        assert all(f._worker is not None and f._worker.is_alive() for f in started)
    assert all(f._worker is None for f in started)


def test_a_follower_that_fails_is_said_on_the_organisers_page_and_the_event_stays(example: Path) -> None:
    """Not a git repository (it was moved): the commit fails after the answer, and says so."""
    tim, ann = invites.invite(example, "tim"), invites.invite(example, "Ann", organiser=True)
    painting = {"type": "painting", "player": "tim", "units": 1}
    app = create_app(example, backup=Backup(commit=True))
    with TestClient(app) as client:
        answer = client.post("/api/events", json=painting, headers={"authorization": f"Bearer {tim}"})
        assert answer.status_code == 201, answer.text
        followers = app.state.server.warm.followers
        deadline = time.monotonic() + 10
        while not followers.troubles() and time.monotonic() < deadline:
            time.sleep(0.05)
        client.get(f"/join/{ann}")
        page = client.get("/activity").text
    event = answer.json()["id"]
    assert event in (example / "events.yaml").read_text()
    assert f"recorded as {event}, but its git commit failed" in page


def test_a_campaign_added_to_a_served_club_starts_its_background_work_and_one_removed_stops_it(
    example: Path,
) -> None:
    import shutil

    from cok.serve import club

    folder = example.parent
    app = club.club_app(folder, club.gathered(folder), lambda f: create_app(f))
    with TestClient(app) as client:
        shutil.copytree(example, folder / "friday")
        assert client.get("/friday/").status_code == 200
        served = next(m for m in app.state.club.members if m.folder.name == "friday")
        followers = served.app.warm.followers  # type: ignore[union-attr]
        assert followers._worker is not None and followers._worker.is_alive()
        shutil.rmtree(folder / "friday")
        assert client.get("/friday/").status_code == 404
        assert followers._worker is None
