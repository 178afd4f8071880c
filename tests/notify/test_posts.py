"""Issue 39, "Posts in the club's chat": destinations kept as secrets, the log's own words
posted through an outbox, against fake chat services on 127.0.0.1."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

from cok.core.folders import data_dir
from cok.notify import outbox
from tests.conftest import Cok
from tests.notify.conftest import Fake


def _log_lines(cok: Cok) -> list[str]:
    return [e["summary"] for e in json.loads(cok("log", "--json").stdout)["events"]]


def test_a_destination_is_a_secret_kept_in_the_user_data_folder_never_in_the_campaign_folder(
    example: Path, fake: Fake
) -> None:
    cok = Cok(example)
    secret = "json://127.0.0.1:9/s3cr3t-webhook-token"
    assert cok("notify", "add", secret).exit_code == 0
    kept = [p for p in data_dir().rglob("*.json") if secret in p.read_text()]
    assert len(kept) == 1 and stat.S_IMODE(kept[0].stat().st_mode) == 0o600
    assert not any(secret in p.read_text(errors="replace") for p in example.parent.rglob("*") if p.is_file())
    listed = cok("notify", "list")
    assert listed.exit_code == 0 and "s3cr3t" not in listed.stdout and "json://" in listed.stdout
    assert "s3cr3t" not in cok("notify", "list", "--json").stdout


def test_a_destination_apprise_does_not_know_is_refused_and_nothing_kept(example: Path) -> None:
    cok = Cok(example)
    refused = cok("notify", "add", "nosuchservice://x/y")
    assert refused.exit_code == 1 and "Apprise" in refused.stderr
    assert cok("notify", "add", "json://127.0.0.1:9/x", "--only", "battles,typo").exit_code == 1
    assert not list(data_dir().rglob("destinations.json"))


def test_each_recording_the_organiser_chose_is_posted_in_the_logs_own_words(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    assert cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim").exit_code == 0
    assert fake.received == []  # recorded at a terminal while no server runs: queued, not sent
    sent = cok("notify", "send")
    assert sent.exit_code == 0, sent.stderr
    assert fake.bodies == [_log_lines(cok)[-1]]


def test_a_link_to_its_page_on_the_server_when_there_is_one(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    cok("notify", "server", "https://club.example/cok/")
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    cok("notify", "send")
    assert fake.bodies[0].endswith("\nhttps://club.example/cok/activity")


def test_only_the_kinds_the_organiser_chose_are_posted(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url, "--only", "void")
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    cok("notify", "send")
    assert fake.received == []


def test_a_void_is_posted_naming_what_it_took_back(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    battle = json.loads(cok("log", "--json").stdout)["events"][-1]["id"]
    cok("notify", "add", fake.url)
    assert cok("void", battle, "--reason", "wrong table").exit_code == 0
    cok("notify", "send")
    told = _log_lines(cok)
    assert fake.bodies == [f"{told[-1]} (took back: {told[-2]})"] and battle in fake.bodies[0]


def test_a_new_week_is_posted_with_a_summary_of_leaders_and_points_limit(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    assert cok("week", "--next").exit_code == 0
    cok("notify", "send")
    standings = json.loads(cok("standings", "--json").stdout)
    leader = next(p["name"] for p in standings["players"] if p["rank"] == 1)
    assert fake.bodies[0] == _log_lines(cok)[-1]
    assert f"Leading: {leader}" in fake.bodies[1] and f"Points limit: {standings['points_limit']}" in fake.bodies[1]


def test_each_event_is_posted_at_most_once(example: Path, fake: Fake, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    cok = Cok(example)
    cok("notify", "add", fake.url)
    seen = []
    queue = outbox.enqueue
    monkeypatch.setattr(outbox, "enqueue", lambda folder, recording: seen.append(recording) or queue(folder, recording))
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    assert outbox.enqueue(example, seen[0]) == 0  # the same recording queued again: not twice
    cok("notify", "send")
    assert outbox.enqueue(example, seen[0]) == 0  # nor once sent
    cok("notify", "send")
    assert len(fake.received) == 1


def test_a_service_that_answers_429_is_tried_again_later_and_shown_in_status(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    fake.answer = 429
    assert cok("notify", "send").exit_code == 1
    status = json.loads(cok("notify", "status", "--json").stdout)["waiting"]
    assert len(status) == 1 and status[0]["tries"] == 1 and status[0]["error"]
    assert status[0]["next_try"] > time.time()  # backed off: not tried again at once
    fake.answer = 200
    assert outbox.send(example, now=lambda: time.time() + 3600) == (1, 0)
    assert fake.bodies == [_log_lines(cok)[-1]]
    assert json.loads(cok("notify", "status", "--json").stdout)["waiting"] == []


def test_posting_never_slows_or_fails_a_recording_when_the_service_is_down(example: Path, down: str) -> None:
    cok = Cok(example)
    cok("notify", "add", down)
    started = time.perf_counter()
    recorded = cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    assert recorded.exit_code == 0 and "warning" not in recorded.stderr
    assert time.perf_counter() - started < 5
    assert cok("notify", "send").exit_code == 1
    shown = cok("notify", "status")
    assert "1 failed" in shown.stdout and "127.0.0.1" not in shown.stdout  # the URL stays hidden


def test_the_outbox_is_kept_across_a_restart(example: Path, fake: Fake, down: str) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    fake.answer = 500
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    cok("notify", "send")
    fake.answer = 200  # a new process (the next `cok serve` or `cok notify send`) reads the outbox again
    assert outbox.send(example, now=lambda: time.time() + 3600) == (1, 0)
    assert len(fake.received) == 1


def test_failures_show_on_the_organisers_activity_page(example: Path, down: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import warnings

    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from cok.links import invites
    from cok.serve.app import create_app

    cok = Cok(example)
    cok("notify", "add", down)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    cok("notify", "send")
    organiser = invites.invite(example, "Ann", organiser=True)
    tim = invites.invite(example, "tim")
    with TestClient(create_app(example)) as client:
        client.get(f"/join/{tim}")
        assert "cok notify status" not in client.get("/activity").text  # a player is not told
        client.cookies.clear()  # another person on this phone: signed out first (else asked first)
        client.get(f"/join/{organiser}")
        assert "1 post to the club's chat could not be sent yet" in client.get("/activity").text


def test_test_posts_to_a_destination_now_and_remove_forgets_it(example: Path, fake: Fake, down: str) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    cok("notify", "add", down)
    assert cok("notify", "test", "1").exit_code == 0 and len(fake.received) == 1
    failed = cok("notify", "test", "2")
    assert failed.exit_code == 1 and "127.0.0.1" not in failed.stderr
    assert cok("notify", "test", "3").exit_code == 1
    assert cok("notify", "remove", "2").exit_code == 0
    assert json.loads(cok("notify", "list", "--json").stdout)["destinations"][0]["number"] == 1
    assert len(json.loads(cok("notify", "list", "--json").stdout)["destinations"]) == 1


def test_a_dry_run_posts_nothing(example: Path, fake: Fake) -> None:
    cok = Cok(example)
    cok("notify", "add", fake.url)
    assert cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim", "--dry-run").exit_code == 0
    cok("notify", "send")
    assert fake.received == []


def test_a_server_and_notify_send_at_once_post_each_event_once(example: Path, fake: Fake) -> None:
    import threading

    cok = Cok(example)
    cok("notify", "add", fake.url)
    cok("battle", "tim", "matt", "--at", "Sunspear", "--winner", "tim")
    posted = []

    def slow(destination: object, text: str) -> bool:
        posted.append(text)
        time.sleep(0.3)
        return True

    both = [threading.Thread(target=lambda: outbox.send(example, sender=slow)) for _ in range(2)]
    for thread in both:
        thread.start()
    for thread in both:
        thread.join()
    assert len(posted) == 1
