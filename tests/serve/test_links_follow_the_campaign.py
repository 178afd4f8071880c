"""Issue 47: every printed link and QR card opens its campaign, whatever order the organiser did
things in. Each test is named after the issue's item: 1 a link is the campaign's, not the path's;
2 the Links page's address; 3 printed addresses are this run's; 4 the campaign's id made once,
so moving the folder signs nobody out; 5 the club follows its folder."""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cok.links import addresses, invites, qr
from cok.serve import club
from cok.serve.app import create_app
from cok.serve.reach import Listen, Listening
from cok.serve.sessions import COOKIE
from tests.conftest import EXAMPLE, ROOT, Cok
from tests.serve.process import COK, answering, free_port, served_club

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A club's folder of two campaigns, never served yet."""
    made = tmp_path / "club"
    shutil.copytree(EXAMPLE, made / "example")
    shutil.copytree(ROOT / "campaigns" / "mighty-kingdoms", made / "ember")
    return made


@pytest.fixture
def served(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(club, "RESCAN", 0.0)  # the folder looked at again at every request
    with TestClient(club.club_app(folder, club.gathered(folder), create_app)) as client:
        yield client


def _printed(said: str) -> str:
    found = re.search(r"https?://\S+/join/\S+", said)
    assert found, said
    return found[0]


def _signed_in(client: TestClient, link: str, campaign: str) -> None:
    """The link, opened as a phone opens it (redirects followed), signs in to `campaign`."""
    client.cookies.clear()
    opened = client.get(link)
    assert opened.status_code == 200, (link, opened.status_code, opened.text[:300])
    assert opened.url.path == f"{campaign}/", opened.url
    assert any(c.name.startswith(COOKIE) and c.path == f"{campaign}/" for c in client.cookies.jar)


# --- item 1: a link is the campaign's, not the path's -------------------------------------------------


def test_item1_invite_before_the_clubs_first_serve_prints_the_clubs_path(folder: Path, tmp_path: Path) -> None:
    said = Cok(tmp_path)("invite", "matt", "-C", str(folder / "example"), "--url", "http://192.168.1.20:8750")
    assert said.exit_code == 0, said.stderr
    assert _printed(said.stdout).startswith("http://192.168.1.20:8750/example/join/")


def test_item1_a_link_printed_without_the_clubs_path_opens_its_campaign(folder: Path, served: TestClient) -> None:
    token = invites.invite(folder / "example", "matt")  # a card printed as http://HOST/join/TOKEN
    sent = served.get(f"/join/{token}", follow_redirects=False)
    assert sent.status_code == 307 and sent.headers["location"] == f"/example/join/{token}"
    _signed_in(served, f"/join/{token}", "/example")


def test_item1_a_campaign_made_with_cok_init_in_a_club_prints_its_path_and_opens(
    folder: Path, served: TestClient, tmp_path: Path
) -> None:
    assert Cok(tmp_path)("init", str(folder / "friday")).exit_code == 0
    joined = Cok(tmp_path)("join", "tim", "--faction", "stark", "-C", str(folder / "friday"))
    assert joined.exit_code == 0, joined.stderr
    said = Cok(tmp_path)("invite", "tim", "-C", str(folder / "friday"), "--url", "http://192.168.1.20:8750")
    link = _printed(said.stdout)
    assert link.startswith("http://192.168.1.20:8750/friday/join/"), link
    _signed_in(served, link.removeprefix("http://192.168.1.20:8750"), "/friday")
    _signed_in(served, f"/join/{link.rsplit('/', 1)[1]}", "/friday")  # and without the path


def test_item1_a_clubs_link_opens_its_campaign_served_alone(folder: Path) -> None:
    token = invites.invite(folder / "example", "matt")
    with TestClient(create_app(folder / "example")) as alone:
        sent = alone.get(f"/example/join/{token}", follow_redirects=False)
        assert sent.status_code == 307 and sent.headers["location"] == f"/join/{token}"
        alone.get(f"/example/join/{token}")
        assert alone.get("/play/paint").status_code == 200  # signed in as matt


def test_item1_a_link_under_a_renamed_folders_old_path_opens_its_campaign(folder: Path, served: TestClient) -> None:
    token = invites.invite(folder / "example", "matt")
    (folder / "example").rename(folder / "tuesdays")
    _signed_in(served, f"/example/join/{token}", "/tuesdays")


def test_item1_a_wrong_link_at_the_clubs_root_opens_nothing_and_counts_against_its_sender(
    folder: Path, served: TestClient
) -> None:
    wrong = served.get("/join/not-a-link")
    assert wrong.status_code == 401 and "opens none of the club" in wrong.text
    answers = [served.get(f"/join/wrong-{n}").status_code for n in range(12)]
    assert answers[-1] == 429


def test_item1_a_card_printed_before_the_first_serve_opens_on_the_real_server(folder: Path, tmp_path: Path) -> None:
    port = free_port()
    said = Cok(tmp_path)("invite", "matt", "-C", str(folder / "example"), "--url", f"http://127.0.0.1:{port}")
    card = _printed(said.stdout)
    bare = card.replace("/example/join/", "/join/")  # as cok printed it before this change
    with served_club(folder, port) as (url, _):
        for link in (card, bare):
            with httpx.Client(follow_redirects=True) as phone:
                opened = phone.get(link)
                assert opened.status_code == 200 and opened.url.path == "/example/", (link, opened.url)
                assert phone.get(f"{url}/example/play/paint").status_code == 200


# --- item 2: the Links page's address -------------------------------------------------------------------


def _made_link(app: object, folder: Path, base_url: str) -> tuple[str, str]:
    """The link the organiser's Links page makes for tim, and the page."""
    ann = invites.invite(folder, "Ann", organiser=True)
    with TestClient(app, base_url=base_url) as organiser:  # type: ignore[arg-type]
        organiser.get(f"/join/{ann}")
        csrf = re.search(r'name="csrf" value="([^"]+)"', organiser.get("/links").text)
        assert csrf
        page = organiser.post("/links", data={"csrf": csrf[1], "player": "tim"}).text
    link = re.search(r'<code class="link">([^<]+)</code>', page)
    assert link, page
    assert qr.svg(link[1]) in page  # the QR code is the link shown
    return link[1], page


def test_item2_the_links_page_says_plainly_when_it_has_only_localhost(example: Path) -> None:
    for scheme in ("http", "https"):
        app = Listen(create_app(example), Listening("127.0.0.1", 8000, scheme))
        link, page = _made_link(app, example, f"{scheme}://localhost:8000")
        assert link.startswith(f"{scheme}://localhost:8000/join/")
        assert "opens on this machine alone" in page and "--host 0.0.0.0" in page


def test_item2_the_links_page_uses_the_stores_network_address_over_https(
    example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(addresses, "store_address", lambda: "192.168.1.20")
    app = Listen(create_app(example), Listening("0.0.0.0", 8443, "https"))
    link, page = _made_link(app, example, "https://localhost:8443")  # the organiser's own screen
    assert link.startswith("https://192.168.1.20:8443/join/") and "machine alone" not in page


def test_item2_the_links_page_uses_the_public_address_the_organiser_gave(example: Path) -> None:
    addresses.remember(example, "https://club.example/cok")
    app = Listen(create_app(example), Listening("0.0.0.0", 8000, "http"))
    link, page = _made_link(app, example, "http://localhost:8000")
    assert link.startswith("https://club.example/cok/join/") and "machine alone" not in page


# --- item 3: printed addresses are this run's -----------------------------------------------------------


def test_item3_serve_prints_this_runs_scheme_and_port_not_an_earlier_invite_url(folder: Path, tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("--https makes its certificate with openssl")
    Cok(tmp_path)("invite", "matt", "-C", str(folder / "example"), "--url", "http://127.0.0.1:8750")
    port = free_port()
    process = subprocess.Popen(
        [*COK, "serve", "-C", str(folder), "--https", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_for_tls(port)
        said = Cok(tmp_path)("invite", "tim", "-C", str(folder / "example"))
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=10)
    assert f"https://localhost:{port}/example/" in out and "8750" not in out, out
    assert _printed(said.stdout).startswith(f"https://localhost:{port}/example/join/"), said.stdout


def _wait_for_tls(port: int) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"https://127.0.0.1:{port}/", verify=False, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "cok serve --https did not answer"
        time.sleep(0.1)


# --- item 4: the campaign's id made once ------------------------------------------------------------------


def test_item4_a_phone_signed_in_before_the_first_invite_stays_signed_in_when_the_folder_moves(
    example: Path,
) -> None:
    assert invites.identity(example) is None
    with TestClient(create_app(example)) as first:  # the server started before the first invite
        tim = invites.invite(example, "tim")
        first.get(f"/join/{tim}")
        sid = first.cookies[COOKIE]
    moved = example.parent / "moved"
    example.rename(moved)
    with TestClient(create_app(moved)) as restarted:
        restarted.cookies.set(COOKIE, sid)
        assert restarted.get("/play/paint").status_code == 200


def test_item4_a_session_kept_by_path_is_moved_under_the_id_made_with_it(example: Path) -> None:
    from cok.serve.sessions import Sessions

    kept = Sessions(invites.sessions_by_path(example))  # a server from before ids
    sid = kept.start(invites.Link("tim", False, "ab" * 32))
    assert invites.identity(example) is None
    again = Sessions.of_campaign(example)
    again.start(invites.Link("matt", False, "cd" * 32))  # the campaign's first session since: its id made
    assert invites.identity(example) is not None and not invites.sessions_by_path(example).exists()
    moved = example.parent / "moved"
    example.rename(moved)
    assert Sessions.of_campaign(moved).find(sid) is not None


def test_item4_the_id_is_added_once_when_many_ask_at_once(example: Path) -> None:
    before = (example / "campaign.yaml").read_text()
    made: list[str] = []
    threads = [threading.Thread(target=lambda: made.append(invites.give_identity(example))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = (example / "campaign.yaml").read_text()
    assert len(set(made)) == 1 and after == before + f"id: {made[0]}  # links and sessions are kept under it\n"
    assert Cok(example)("check").exit_code == 0


def test_item4_a_campaign_yaml_with_an_id_cok_did_not_make_is_left_as_it_was(example: Path) -> None:
    settings = example / "campaign.yaml"
    settings.write_text(settings.read_text() + "id: not-ours\n")
    before = settings.read_bytes()
    with pytest.raises(OSError):
        invites.give_identity(example)
    assert settings.read_bytes() == before and not list(example.glob(".campaign.yaml.*"))


# --- item 5: the club follows its folder ----------------------------------------------------------------


def test_item5_a_campaign_added_while_serving_is_served_without_a_restart(folder: Path, served: TestClient) -> None:
    assert served.get("/pyke/").status_code == 404
    shutil.copytree(ROOT / "campaigns" / "no-true-king-example", folder / "pyke")
    assert served.get("/pyke/").status_code == 200
    assert 'href="/pyke/"' in served.get("/").text


def test_item5_a_campaign_removed_while_serving_answers_404_with_the_clubs_page(
    folder: Path, served: TestClient
) -> None:
    assert served.get("/ember/").status_code == 200
    shutil.rmtree(folder / "ember")
    for path in ("/ember/", "/ember/api/standings", "/ember/play/paint"):
        gone = served.get(path)
        assert gone.status_code == 404, (path, gone.status_code)
        assert "No campaign is served at /ember/" in gone.text and "The club" in gone.text
    assert 'href="/ember/"' not in served.get("/").text and served.get("/example/").status_code == 200


def test_item5_a_removed_campaign_says_no_traceback_on_the_real_server(folder: Path) -> None:
    with served_club(folder) as (url, process):
        answering(f"{url}/ember/", process)
        shutil.rmtree(folder / "ember")
        assert httpx.get(f"{url}/ember/").status_code == 404
    err = process.stderr.read() if process.stderr else ""
    assert "Traceback" not in err, err


def test_item3_a_campaign_added_to_a_served_club_gets_links_at_this_runs_address(folder: Path, tmp_path: Path) -> None:
    with served_club(folder) as (url, _):
        port = url.rsplit(":", 1)[1]
        assert Cok(tmp_path)("init", str(folder / "friday")).exit_code == 0
        Cok(tmp_path)("join", "tim", "--faction", "stark", "-C", str(folder / "friday"))
        link = _printed(Cok(tmp_path)("invite", "tim", "-C", str(folder / "friday")).stdout)
        assert link.startswith(f"http://localhost:{port}/friday/join/"), link
        with httpx.Client(follow_redirects=True) as phone:
            opened = phone.get(link.replace("localhost", "127.0.0.1"))
            assert opened.status_code == 200 and opened.url.path == "/friday/"


def test_item5_a_campaigns_path_without_its_slash_is_sent_to_it_not_called_gone(served: TestClient) -> None:
    sent = served.get("/example", follow_redirects=False)
    assert sent.status_code == 308 and sent.headers["location"] == "/example/"


def test_item4_the_https_certificate_made_before_the_id_serves_on_after_it(example: Path, tmp_path: Path) -> None:
    from cok.serve import certificate

    if shutil.which("openssl") is None:
        pytest.skip("--https makes its certificate with openssl")
    before = certificate.made_for(example, [])
    invites.invite(example, "tim")  # the campaign's id made
    assert certificate.made_for(example, []) == before  # phones accepted it once: not made again


def test_item3_an_address_of_this_machine_the_organiser_named_is_kept_at_this_runs_port(example: Path) -> None:
    addresses.remember(example, "http://127.0.0.1:8750")
    addresses.served_now(example, "http://localhost:8750/")  # the same scheme and port: their name kept
    assert addresses.remembered(example) == "http://127.0.0.1:8750"
    addresses.served_now(example, "https://localhost:8755/")  # another run: its own
    assert addresses.remembered(example) == "https://localhost:8755"
    addresses.remember(example, "https://club.example/cok")
    addresses.served_now(example, "http://localhost:8000/")  # a public address is the organiser's
    assert addresses.remembered(example) == "https://club.example/cok"


def test_item5_a_campaign_caught_half_copied_in_is_served_once_whole(
    folder: Path, served: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(club, "RETRY", 0.0)
    (folder / "pyke").mkdir()
    shutil.copy(ROOT / "campaigns" / "no-true-king-example" / "campaign.yaml", folder / "pyke")
    assert served.get("/pyke/").status_code == 503  # listed with what it lacks
    shutil.copytree(ROOT / "campaigns" / "no-true-king-example", folder / "pyke", dirs_exist_ok=True)
    assert served.get("/pyke/").status_code == 200
