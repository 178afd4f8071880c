"""cok writes only where it was asked: never over a campaign's files or a file it did not
make (without --force), never through a symlink out of the site's folder, and every value it
writes into YAML reads back as the same value."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from cok.core.publish import MANIFEST

from .conftest import Cok


def test_map_svg_never_overwrites_the_event_log(example: Path) -> None:
    before = (example / "events.yaml").read_bytes()
    run = Cok(example)("map", "--svg", str(example / "events.yaml"))
    assert run.exit_code == 1
    assert "the campaign's event log" in run.stderr
    assert (example / "events.yaml").read_bytes() == before


def test_map_svg_replaces_only_a_picture_cok_drew_unless_forced(example: Path, tmp_path: Path) -> None:
    cok = Cok(example)
    notes = tmp_path / "notes.svg"
    notes.write_text("my own drawing")
    assert cok("map", "--svg", str(notes)).exit_code == 1
    assert notes.read_text() == "my own drawing"
    picture = tmp_path / "map.svg"
    assert cok("map", "--svg", str(picture)).exit_code == 0
    assert cok("map", "--svg", str(picture)).exit_code == 0  # its own picture: drawn again
    assert picture.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by cok')
    assert cok("map", "--svg", str(notes), "--force").exit_code == 0
    assert "<svg" in notes.read_text()


def test_site_refuses_a_folder_that_is_not_a_cok_site(example: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    out.mkdir()
    (out / "index.html").write_text("the club's own home page")
    run = Cok(example)("site", str(out))
    assert run.exit_code == 1
    assert "not empty and holds no cok site" in run.stderr
    assert (out / "index.html").read_text() == "the club's own home page"


def test_site_builds_again_over_its_own_files_and_keeps_a_record_of_them(example: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    cok = Cok(example)
    assert cok("site", str(out)).exit_code == 0
    assert cok("site", str(out)).exit_code == 0
    recorded = (out / MANIFEST).read_text().splitlines()[1:]
    assert "index.html" in recorded and "players/tim.html" in recorded


def test_site_never_writes_through_a_symlink_out_of_its_folder(example: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    cok = Cok(example)
    assert cok("site", str(out)).exit_code == 0
    outside = tmp_path / "outside.css"
    outside.write_text("not the site's")
    (out / "style.css").unlink()
    (out / "style.css").symlink_to(outside)
    assert cok("site", str(out)).exit_code == 0
    assert outside.read_text() == "not the site's"
    assert not (out / "style.css").is_symlink()


def test_site_refuses_a_symlinked_folder_inside_it(example: Path, tmp_path: Path) -> None:
    out = tmp_path / "public"
    cok = Cok(example)
    assert cok("site", str(out)).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for page in (out / "players").iterdir():
        page.unlink()
    (out / "players").rmdir()
    (out / "players").symlink_to(elsewhere)
    run = cok("site", str(out))
    assert run.exit_code == 1
    assert "players is a symlink" in run.stderr
    assert list(elsewhere.iterdir()) == []


def test_a_name_with_line_breaks_reads_back_as_the_same_name_and_writes_no_event(tmp_path: Path) -> None:
    name = "War\n- type: week\n#"
    run = Cok(tmp_path)("init", "x", "--name", name)
    assert run.exit_code == 0, run.stderr
    cok = Cok(tmp_path / "x")
    assert cok("log", "--json").stdout.strip() == '{\n  "events": []\n}'
    assert cok("check").exit_code == 0
    assert cok("week", "--json").stdout.count('"campaign": "War\\n- type: week\\n#"') == 1


def test_a_page_that_cannot_be_written_leaves_the_old_one_whole(
    example: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cok.core.publish as publish

    out = tmp_path / "public"
    cok = Cok(example)
    assert cok("site", str(out)).exit_code == 0
    before = (out / "index.html").read_text()
    assert cok("adjust", "tim", "1", "--reason", "a ruling").exit_code == 0  # the home page changes

    def full_disk(source: object, target: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(publish.os, "replace", full_disk)
    run = cok("site", str(out))
    assert run.exit_code == 1
    assert "No space left on device" in run.stderr
    assert (out / "index.html").read_text() == before
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
