"""A campaign cloned from a stranger is safe to open, in every game: cok deletes, writes and
shows nothing outside what the user asked, whatever the folder ships (a record of a site, a
symlink, a map that is no map)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.core.publish import MANIFEST

from .conftest import Cok

GAMES = ["clash-of-kings", "mighty-kingdoms", "no-true-king"]


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Cok:
    """A new campaign of each game, as `cok init` makes it."""
    assert Cok(tmp_path)("init", "game", "--ruleset", request.param).exit_code == 0
    return Cok(tmp_path / "game")


def built(game: Cok) -> Path:
    out = game.cwd.parent / "public"
    run = game("site", str(out))
    assert run.exit_code == 0, run.stderr
    return out


def listing(out: Path, *names: str) -> None:
    """The site's record lists these files too, as a cloned folder may ship it."""
    with open(out / MANIFEST, "a", encoding="utf-8") as record:
        record.write("".join(f"{name}\n" for name in names))


# `cok site OUTDIR`: deleting stale files ---------------------------------------------------


def test_site_never_deletes_through_a_symlinked_folder(game: Cok) -> None:
    out = built(game)
    outside = game.cwd.parent / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("not the site's")
    (out / "evil").symlink_to(outside, target_is_directory=True)
    listing(out, "evil/victim.txt")
    assert game("site", str(out)).exit_code == 0
    assert (outside / "victim.txt").read_text() == "not the site's"


def test_site_never_deletes_a_symlink_nor_what_it_points_to(game: Cok) -> None:
    out = built(game)
    target = game.cwd.parent / "target.html"
    target.write_text((out / "index.html").read_text())  # even a page cok made, elsewhere
    (out / "old.html").symlink_to(target)
    listing(out, "old.html")
    assert game("site", str(out)).exit_code == 0
    assert (out / "old.html").is_symlink() and target.read_text() == (out / "index.html").read_text()


def test_site_deletes_only_stale_files_cok_made_whatever_its_record_lists(game: Cok) -> None:
    out = built(game)
    (out / "CNAME").write_text("campaign.example.org\n")
    (out / ".git").mkdir()
    (out / ".git" / "config").write_text("[core]\n")
    (out / "notes.html").write_text("<!doctype html>\n<p>the club's own page</p>\n")
    (out / "old.html").write_text((out / "log.html").read_text())  # a page an earlier build made
    listing(out, "CNAME", ".git/config", "notes.html", "old.html")
    assert game("site", str(out)).exit_code == 0
    assert (out / "CNAME").read_text() == "campaign.example.org\n"
    assert (out / ".git" / "config").read_text() == "[core]\n"
    assert "the club's own page" in (out / "notes.html").read_text()
    assert not (out / "old.html").exists()


def test_every_file_of_a_site_says_cok_made_it(game: Cok) -> None:
    from cok.core.publish import SITE_MARK

    out = built(game)
    files = [p for p in out.rglob("*") if p.is_file() and p.name != MANIFEST]
    assert files and all(SITE_MARK in p.read_text() for p in files)
    home = (out / "index.html").read_text()
    assert home.lower().startswith("<!doctype html>")  # the mark never puts a page in quirks mode


def test_a_build_removes_the_temporary_pages_a_killed_build_left(game: Cok) -> None:
    out = built(game)
    left = [out / ".index.html.4242.tmp", out / f".{MANIFEST}.4242.tmp", out / ".style.css.7.tmp"]
    for path in left:
        path.write_text("<!doctype html>\n<p>half a pa")
    users = [out / ".draft.html.12.tmp", out / ".index.html.tmp", out / ".index.html.12.tmp.keep"]
    for path in users:
        path.write_text("mine")
    assert game("site", str(out)).exit_code == 0
    assert [p for p in left if p.exists()] == []
    assert all(p.read_text() == "mine" for p in users)


# `cok map --svg FILE` and `cok site OUTDIR`: never over the campaign's own files -----------

OWN = ["campaign.yaml", "events.yaml", "map.yaml", ".schemas/events.schema.json", ".schemas/map.schema.json"]


@pytest.mark.parametrize("own", OWN)
def test_map_svg_never_draws_over_the_campaigns_own_files_even_forced(game: Cok, own: str) -> None:
    path = game.cwd / own
    before = path.read_bytes()
    for forced in ([], ["--force"]):
        run = game("map", "--svg", str(path), *forced)
        assert run.exit_code == 1, run.stdout
        assert "the campaign's" in run.stderr and "--force" not in run.stderr
        assert path.read_bytes() == before


def test_map_svg_never_draws_over_a_map_outside_the_campaign_folder(game: Cok) -> None:
    board = game.cwd.parent / "board.yaml"
    (game.cwd / "map.yaml").rename(board)
    settings = game.cwd / "campaign.yaml"
    settings.write_text(settings.read_text().replace("map: map.yaml", "map: ../board.yaml"))
    before = board.read_bytes()
    run = game("map", "--svg", str(board), "--force")
    assert run.exit_code == 1 and "the campaign's map" in run.stderr
    assert board.read_bytes() == before


def test_site_never_writes_or_removes_the_campaigns_own_files_even_forced(game: Cok) -> None:
    from cok.core.publish import MANIFEST_HEAD, SITE_MARK

    with open(game.cwd / "events.yaml", "a", encoding="utf-8") as log:
        log.write(f"# {SITE_MARK}\n")  # a mark in a comment proves nothing about the log
    before = {own: (game.cwd / own).read_bytes() for own in OWN}
    (game.cwd / MANIFEST).write_text(MANIFEST_HEAD + "".join(f"{own}\n" for own in OWN))
    assert game("site", str(game.cwd), "--force").exit_code == 0
    assert {own: (game.cwd / own).read_bytes() for own in OWN} == before
