"""Issue 37: No True King's board is laid out once per board in a process (the layout
depends on the board file alone), so a page made again after each recording does not push
its areas apart again; the picture is the one a fresh layout draws."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cok.core.campaign import open_campaign
from cok.rulesets.no_true_king.site import board

from ..conftest import ROOT

EXAMPLE = ROOT / "campaigns" / "no-true-king-example"


def test_the_board_is_laid_out_once_and_drawn_as_a_fresh_layout_draws_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "example")
    state = open_campaign(tmp_path / "example").state
    monkeypatch.setattr(board, "_LAID_OUT", {})
    fresh = board.board_picture(state, "the board")
    calls: list[object] = []
    laid_out = board._laid_out
    monkeypatch.setattr(board, "_laid_out", lambda key: calls.append(key) or laid_out(key))
    again = [board.board_picture(state, "the board") for _ in range(3)]
    assert calls == []
    assert all(picture == fresh for picture in again)
    at, _, _ = board.layout(state)
    at.clear()  # a caller's copy: the kept layout is not changed by it
    assert board.board_picture(state, "the board") == fresh
