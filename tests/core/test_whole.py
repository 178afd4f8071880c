"""A file replaced whole (core.whole): the one way cok puts a file the user or the server keeps."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from cok.core.whole import TEMPORARY, replace_whole


def test_a_file_replaced_whole_holds_the_new_text_and_nothing_is_left_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    path.write_text("name: old\n")
    replace_whole(path, "name: new\n")
    assert path.read_text() == "name: new\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["campaign.yaml"]


def test_a_secret_is_written_readable_by_its_owner_alone(tmp_path: Path) -> None:
    path = tmp_path / "links.json"
    replace_whole(path, b"{}", mode=0o600)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_file_the_user_keeps_keeps_the_mode_it_had(tmp_path: Path) -> None:
    path = tmp_path / "campaign.yaml"
    path.write_text("name: old\n")
    os.chmod(path, 0o664)
    replace_whole(path, "name: old\nid: 1\n", mode=stat.S_IMODE(path.stat().st_mode))
    assert stat.S_IMODE(path.stat().st_mode) == 0o664


def test_a_symlink_at_the_path_is_replaced_never_written_through(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("theirs\n")
    page = tmp_path / "index.html"
    page.symlink_to(elsewhere)
    replace_whole(page, "<p>ours</p>\n")
    assert elsewhere.read_text() == "theirs\n"
    assert not page.is_symlink() and page.read_text() == "<p>ours</p>\n"


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "index.html"
    path.write_text("old\n")
    with pytest.raises(TypeError):
        replace_whole(path, 42)  # type: ignore[arg-type]
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html"]


@pytest.mark.parametrize("left", [".index.html.4242-139.tmp", ".index.html.4242.tmp"])
def test_the_temporary_name_is_known_again_with_the_file_it_stood_for(left: str) -> None:
    found = TEMPORARY.fullmatch(left)
    assert found is not None and found["name"] == "index.html"
