"""Issue 49, "the first tap that works": the first "Roll for me" of a month answered 422 with
"the dice … are committed now: nothing else was recorded; send it again" under "Nothing was
written" — yet the commitment was written, and the player did nothing wrong. The period's dice
are committed with the event that opens it (as the reveal is made with the event that ends it),
so a month's first tap rolls; the campaign's very first roll commits first, says so, and its page
sends the tap again by itself with new random bytes. Through the page (Starlette's test client)
and through the service every interface records with."""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cok.core.dice import ENTROPY, ROLL
from cok.serve.app import create_app
from cok.service import Draft, Who, record
from cok.service.dice import Committed
from tests.mighty_kingdoms.pages.kingdoms import ORGANISER, begun


def log_of(folder: Path) -> list[dict[str, Any]]:
    return list(yaml.safe_load((folder / "events.yaml").read_text()) or [])


class Phone:
    def __init__(self, folder: Path, client: TestClient, token: str) -> None:
        self.folder, self.client = folder, client
        client.cookies.clear()
        client.get(f"/join/{token}")
        found = re.search(r'name="csrf" value="([^"]+)"', client.get("/play/kingdom").text)
        assert found
        self.csrf = found[1]

    def tap(self, army: str, entropy: str) -> Any:
        """ "Roll for me" on the kingdom's page, with the phone's random bytes."""
        data = {"csrf": self.csrf, "army": army, "roll": "server", "entropy": entropy}
        return self.client.post("/play/resolve", data=data, follow_redirects=False)

    def send_again(self, page: str, entropy: str) -> Any:
        """What live.js does with a page marked to be sent again: its form, with new bytes."""
        form = page.split("data-send-again", 1)[1].split("</form>", 1)[0]
        fields = {k: html.unescape(v) for k, v in re.findall(r'name="([^"]+)" value="([^"]*)"', form)}
        return self.client.post("/record", data={**fields, "entropy": entropy}, follow_redirects=False)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Path, TestClient, dict[str, str]]]:
    folder = tmp_path / "mk"
    tokens = begun(folder)
    for draft in (
        Draft("order", {"army": "ana-1", "order": "move", "to": "0,0"}),
        Draft("order", {"army": "bo-1", "order": "defend"}),
    ):
        record(folder, [draft], by=ORGANISER)
    with TestClient(create_app(folder)) as client:
        yield folder, client, tokens


def test_the_campaigns_first_roll_says_the_commitment_was_written_and_is_sent_again(
    table: tuple[Path, TestClient, dict[str, str]],
) -> None:
    folder, client, tokens = table
    ana = Phone(folder, client, tokens["ana"])
    first = ana.tap("ana-1", "ab" * 16)
    assert first.status_code == 409 and "committed now" in first.text and "data-send-again" in first.text
    assert "Nothing was written" not in first.text and "nothing was recorded" not in first.text.lower()
    assert [e["type"] for e in log_of(folder)][-1] == "dice-commit"  # what the page says was written
    again = ana.send_again(first.text, "cd" * 16)
    assert again.status_code == 303, again.text
    resolve = log_of(folder)[-1]
    assert resolve["type"] == "resolve" and resolve["rolled"]["entropy"] == "cd" * 16  # the new bytes roll


def test_a_months_first_tap_rolls_its_dice_committed_when_the_month_opened(
    table: tuple[Path, TestClient, dict[str, str]],
) -> None:
    folder, client, tokens = table
    ana = Phone(folder, client, tokens["ana"])
    ana.send_again(ana.tap("ana-1", "ab" * 16).text, "cd" * 16)
    record(folder, [Draft("resolve", {"army": "bo-1"})], by=ORGANISER)
    record(folder, [Draft("reform", {"order": ["ana", "bo"]})], by=ORGANISER)
    kinds = [e["type"] for e in log_of(folder)]
    assert kinds[-3:] == ["reform", "dice-reveal", "dice-commit"]  # month 1 revealed, month 2 committed: one change
    assert log_of(folder)[-1]["period"] == "year 1, month 2"
    for draft in (
        Draft("order", {"army": "ana-1", "order": "regroup"}),
        Draft("order", {"army": "bo-1", "order": "move", "to": "1,-1"}),
    ):
        record(folder, [draft], by=ORGANISER)
    record(folder, [Draft("resolve", {"army": "ana-1"})], by=ORGANISER)
    bo = Phone(folder, client, tokens["bo"])
    tapped = bo.tap("bo-1", "ef" * 16)  # month 2's first roll: one tap
    assert tapped.status_code == 303, tapped.text
    resolve = log_of(folder)[-1]
    assert resolve["type"] == "resolve" and resolve["rolled"]["entropy"] == "ef" * 16
    assert resolve["rolled"]["commit"] == next(e["id"] for e in log_of(folder) if e.get("period") == "year 1, month 2")


def test_through_the_service_the_first_roll_says_what_was_written(
    table: tuple[Path, TestClient, dict[str, str]],
) -> None:
    """What the API and a bot are told: the commitment was written, and nothing else."""
    folder, _, _ = table
    with pytest.raises(Committed) as told:
        record(folder, [Draft("resolve", {"army": "ana-1"})], by=Who("ana"), answers={ROLL: True, ENTROPY: "ab" * 16})
    said = str(told.value)
    assert "the commitment was written" in said and "year 1, month 1" in said and "nothing was recorded" not in said
    assert [e["type"] for e in log_of(folder)][-1] == "dice-commit"


def test_a_forms_roll_for_me_is_read_the_same_way_by_every_game() -> None:
    """ "Roll for me" becomes the answers every game reads in one place (`Visit.rolled_for_me`):
    with the phone's random bytes when it sent them (else the ledger makes its own, as at a
    terminal); no game's pages build the answer themselves (issue #51)."""
    import ast

    from cok.serve.kit import Visit

    def visit(form: dict[str, str]) -> Visit:
        return Visit(None, None, None, "", lambda *a: None, lambda *a: None, form)  # type: ignore[arg-type]

    assert visit({"entropy": "ab" * 16}).rolled_for_me() == {ROLL: True, ENTROPY: "ab" * 16}
    assert visit({"roll": "server"}).rolled_for_me() == {ROLL: True}
    rulesets = Path(__file__).resolve().parents[2] / "src" / "cok" / "rulesets"
    tables = sorted(rulesets.glob("*/table/**/*.py"))
    assert tables
    built = [
        f"{path.relative_to(rulesets)}:{node.lineno}"
        for path in tables
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module == "cok.core.dice"
    ]
    assert built == []
