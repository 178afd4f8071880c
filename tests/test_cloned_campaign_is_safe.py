"""A campaign cloned from a stranger is safe to open, in every game: cok deletes, writes and
shows nothing outside what the user asked, whatever the folder ships (a record of a site, a
symlink, a map that is no map)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cok.core.publish import MANIFEST

from .conftest import Cok, Run
from .games import GAMES, begun, command, scenarios, scene


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Cok:
    """A new campaign of each game, as `cok init` makes it (with its first scenario's keys)."""
    return begun(tmp_path, request.param, name="game")


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


# The log through a symlink ------------------------------------------------------------------


def recordings(game: str) -> list[list[str]]:
    """Two recordings the game accepts on a new campaign, one after the other: its first
    scenario's first two steps."""
    return [command(game, *step) for step in scene(game).steps[:2]]


def game_of(game: Cok) -> str:
    return next(g for g in GAMES if f"ruleset: {g}" in (game.cwd / "campaign.yaml").read_text())


def linked(game: Cok, target: Path) -> Path:
    """The campaign's log made a symlink to `target`, in a folder of its own outside."""
    (game.cwd / "events.yaml").unlink(missing_ok=True)
    (game.cwd / "events.yaml").symlink_to(target)
    return target.parent


def test_the_log_is_never_created_through_a_dangling_symlink(game: Cok) -> None:
    outside = game.cwd.parent / "outside"
    outside.mkdir()
    linked(game, outside / "events.yaml")
    assert game("standings").exit_code == 1  # before any cache is written
    for args in [*recordings(game_of(game)), ["check"], ["standings"]]:
        run = game(*args)
        assert run.exit_code == 1 and "symlink" in run.stderr, (args, run.stdout)
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("content", ["# my notes\n# nothing else\n", "", "root:x:0:0:root:/root:/bin/bash\n"])
def test_a_symlinked_log_is_appended_to_only_when_it_already_is_a_cok_event_log(game: Cok, content: str) -> None:
    outside = game.cwd.parent / "outside"
    outside.mkdir()
    (outside / "notes.yaml").write_text(content)
    linked(game, outside / "notes.yaml")
    for args in recordings(game_of(game)):
        run = game(*args)
        assert run.exit_code == 1, (args, run.stdout)
    assert (outside / "notes.yaml").read_text() == content
    assert [p.name for p in outside.iterdir()] == ["notes.yaml"]  # no lock, no journal left there


def test_a_symlinked_log_that_is_a_cok_event_log_is_appended_to(game: Cok) -> None:
    first, second = recordings(game_of(game))
    assert game(*first).exit_code == 0
    shared = game.cwd.parent / "shared"
    shared.mkdir()
    (game.cwd / "events.yaml").rename(shared / "events.yaml")
    before = (shared / "events.yaml").read_text()
    linked(game, shared / "events.yaml")
    run = game(*second)
    assert run.exit_code == 0, run.stderr
    now = (shared / "events.yaml").read_text()
    assert now.startswith(before) and len(now) > len(before)


def test_init_never_creates_the_log_through_a_dangling_symlink(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "cloned").mkdir()
    (tmp_path / "cloned" / "events.yaml").symlink_to(outside / "events.yaml")
    run = Cok(tmp_path)("init", "cloned")
    assert run.exit_code == 1 and "symlink" in run.stderr
    assert list(outside.iterdir()) == [] and not (tmp_path / "cloned" / "campaign.yaml").exists()


# `map:` in campaign.yaml ---------------------------------------------------------------------

SHADOW = "root:$y$j9T$secret-hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n"
PASSWD = "root:x:0:0:root:/root:/bin/bash\nname: secret-name\n"


def mapped(game: Cok, entry: str) -> None:
    """The campaign's `map:` set to `entry` (campaign.yaml is a block or a flow mapping)."""
    settings = game.cwd / "campaign.yaml"
    settings.write_text(settings.read_text().replace("map: map.yaml", f"map: {entry}"))


@pytest.mark.parametrize("content", [SHADOW, PASSWD, "name: x\nroot: secret-name\n", "just: [secret-name]\n"])
def test_a_map_that_is_no_map_of_the_game_is_refused_without_showing_what_it_holds(game: Cok, content: str) -> None:
    secret = game.cwd.parent / "secret"
    secret.write_text(content)
    mapped(game, str(secret))
    for args in (["check"], ["standings"], ["map", "--svg", "-"]):
        run = game(*args)
        assert run.exit_code == 1
        said = run.stdout + run.stderr
        assert "campaign.yaml:" in said and "is not a map of " in said and "it lacks" in said, said
        assert not any(held in said for held in ("secret-hash", "secret-name", "daemon", "/bin/bash")), said


@pytest.mark.parametrize(
    ("entry", "said"), [("/dev/null", "a device"), (".", "a folder"), ("/dev/urandom", "a device")]
)
def test_a_map_that_is_a_device_or_a_folder_is_said_to_be_one(game: Cok, entry: str, said: str) -> None:
    mapped(game, entry)
    run = game("check")
    assert run.exit_code == 1 and said in run.stderr and "not found" not in run.stderr, run.stderr


def test_a_map_not_found_says_where_it_was_looked_for_and_how_to_fix_it(game: Cok) -> None:
    mapped(game, "maps/nowhere.yaml")
    run = game("check")
    assert run.exit_code == 1
    assert "relative to the campaign's folder" in run.stderr and "cok init" in run.stderr, run.stderr


# A huge value is quoted cut -------------------------------------------------------------------

BIG = "x" * 1_000_000

#: For every game: a mistake in the log and in the map (each game's own), each quoting a 1 MB value.
EVERY_GAME = {
    "events.yaml": [f"- type: {BIG}\n", f"- type: void\n  target: {BIG}\n  reason: r\n"],
    "campaign.yaml": [("map: map.yaml", f"map: {BIG}"), ("ruleset: ", f"ruleset: {BIG}"), ("name: ", f"name: [{BIG}]")],
}


def short_enough(run: Run) -> None:
    assert run.exit_code == 1
    lines = (run.stdout + run.stderr).splitlines()
    assert lines and max(map(len, lines)) <= 1200, max(map(len, lines))
    assert "(1,000,000 characters)" in run.stdout + run.stderr or "x" * 1001 not in run.stdout + run.stderr


def test_a_message_quotes_a_huge_value_cut_to_a_readable_length(game: Cok) -> None:
    files = {name: (game.cwd / name).read_text() for name in ("events.yaml", "map.yaml", "campaign.yaml")}
    mistakes = scenarios(game_of(game))
    wrong = mistakes.wrong_entry.format(value=BIG)
    cases = [("events.yaml", files["events.yaml"] + text) for text in [wrong, *EVERY_GAME["events.yaml"]]]
    key = mistakes.map_line.split(":", 1)[0]
    cases += [("map.yaml", files["map.yaml"].replace(mistakes.map_line, f"{key}: {BIG}", 1))]
    for old, new in EVERY_GAME["campaign.yaml"]:
        cases.append(("campaign.yaml", files["campaign.yaml"].replace(old, new, 1)))
    for name, text in cases:
        assert text != files[name]
        (game.cwd / name).write_text(text)
        short_enough(game("check"))
        (game.cwd / name).write_text(files[name])


def test_a_huge_value_typed_on_the_command_line_is_quoted_cut(game: Cok) -> None:
    short_enough(game("void", BIG, "--reason", "typo"))
    short_enough(game("log", "--player", BIG))


def test_quoted_cuts_only_a_long_value_and_says_how_long_it_was() -> None:
    from cok.core.text import quoted, readable

    assert quoted("Winterfell") == "'Winterfell'"
    assert quoted(BIG) == "'" + "x" * 60 + "…' (1,000,000 characters)"
    message = "unknown faction 'starks' (did you mean 'stark'?); known factions: stark, lannister"
    assert readable(message) == message
    assert readable(f'the key "{BIG}" appears twice').startswith("the key 'xxx")
    many = "\n".join(f"  line {n}: battle at Starfall: the attacker holds nothing there" for n in range(100))
    assert readable(many) == many  # one line per event, each short: all of them
