"""Issue 45: each game posts what opens its periods — Clash of Kings' weeks
(test_posts.py), Mighty Kingdoms' months and No True King's rounds, which a round's last
exchange opens (never posted before: only the game's beginning was)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.conftest import ROOT, Cok
from tests.notify.conftest import Fake


def test_each_new_round_of_no_true_king_is_posted_when_the_last_exchange_opens_it(tmp_path: Path, fake: Fake) -> None:
    copy = tmp_path / "ntk"
    shutil.copytree(ROOT / "campaigns" / "no-true-king-example", copy)
    log = copy / "events.yaml"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = [n for n, line in enumerate(lines) if line.startswith("- type: exchange")][2]  # round 1's last
    log.write_text("".join(lines[:cut]), encoding="utf-8")  # a copy, back before cy's exchange
    ntk = Cok(copy)
    ntk("notify", "add", fake.url, "--only", "round,summary")
    assert ntk("ntk", "exchange", "cy", "2", "4", "--reveal", "4=tyrell").exit_code == 0
    ntk("notify", "send")
    assert fake.bodies[0] == "Round 2 begins; bo is the first player."
    assert "tyrell" not in fake.bodies[0]  # the exchange itself is never posted
    assert len(fake.bodies) == 2 and "Waiting for bo" in fake.bodies[1]  # and the round's summary


def test_each_new_month_of_mighty_kingdoms_is_posted_when_the_reform_opens_it(kow: Cok, fake: Fake) -> None:
    kow("notify", "add", fake.url, "--only", "month")
    for army in ("dag-1", "dag-2", "dag-3", "bo-4", "bo-5", "cy-1"):
        assert kow("mk", "order", army, "defend").exit_code == 0
    while (found := re.search(r"to resolve one of ([\w-]+)", kow("mk", "status").stdout)) is not None:
        assert kow("mk", "resolve", found[1]).exit_code == 0
    assert kow("mk", "reform").exit_code == 0
    kow("notify", "send")
    assert len(fake.bodies) == 1 and fake.bodies[0].startswith("Month 2 of year 3 ends")
