"""Issue 34, "nothing that breaks the log is ever written, from any interface": text that is
not UTF-8 (a lone surrogate) is refused where it comes in and by the append itself, text over
its bound is refused with the bound, and a recording never reports failure once written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cok.core.append import append, locked, stamp
from cok.core.campaign import open_campaign
from cok.core.errors import Refused
from cok.core.events import Void
from cok.service import Draft, Who, record
from cok.service.recording import MAX_NAME, MAX_NOTE

from ..games import GAMES, played
from .conftest import shipped

ORGANISER = Who("Ann", organiser=True)


def last_id(folder: Path) -> str:
    campaign = open_campaign(folder, use_cache=False)
    return list(campaign.ids())[-1]


def reads(folder: Path) -> bool:
    """The log reads back whole: every command still works."""
    return not open_campaign(folder, use_cache=False).problems


@pytest.mark.parametrize("game", GAMES)
def test_a_lone_surrogate_in_a_draft_is_refused_and_nothing_is_written(tmp_path: Path, game: str) -> None:
    folder = played(tmp_path, game)
    before = (folder / "events.yaml").read_bytes()
    draft = Draft("void", {"target": last_id(folder), "reason": "bad\udcff"})
    with pytest.raises(Refused) as refused:
        record(folder, [draft], by=ORGANISER)
    assert "`reason`" in str(refused.value) and "UTF-8" in str(refused.value)
    assert (folder / "events.yaml").read_bytes() == before


@pytest.mark.parametrize("game", GAMES)
def test_the_append_itself_refuses_text_that_would_not_read_back(tmp_path: Path, game: str) -> None:
    """Whatever path an event takes to the log, the append writes only what reads back."""
    folder = played(tmp_path, game)
    log = folder / "events.yaml"
    before = log.read_bytes()
    event = Void(target=last_id(folder), reason="why", note="bad\ud800", id="abcdef012345")
    with locked(log), pytest.raises(Refused) as refused:
        append(log, [event], expected=stamp(log))
    assert "nothing was recorded" in str(refused.value)
    assert log.read_bytes() == before and reads(folder)


@pytest.mark.parametrize("game", GAMES)
def test_a_note_over_the_bound_is_refused_with_the_bound(tmp_path: Path, game: str) -> None:
    folder = played(tmp_path, game)
    before = (folder / "events.yaml").read_bytes()
    draft = Draft("void", {"target": last_id(folder), "reason": "x" * (MAX_NOTE + 1)})
    with pytest.raises(Refused) as refused:
        record(folder, [draft], by=ORGANISER)
    assert f"{MAX_NOTE:,}" in str(refused.value)
    assert (folder / "events.yaml").read_bytes() == before


@pytest.mark.parametrize("game", GAMES)
def test_a_name_over_the_bound_is_refused_with_the_bound(tmp_path: Path, game: str) -> None:
    folder = played(tmp_path, game)
    before = (folder / "events.yaml").read_bytes()
    draft = Draft("void", {"target": "x" * (MAX_NAME + 1), "reason": "too long"})
    with pytest.raises(Refused) as refused:
        record(folder, [draft], by=ORGANISER)
    assert f"{MAX_NAME:,}" in str(refused.value) and "`target`" in str(refused.value)
    assert (folder / "events.yaml").read_bytes() == before


def test_a_note_at_the_bound_is_recorded(tmp_path: Path) -> None:
    two = shipped(tmp_path, "example")
    done = record(two, [Draft("painting", {"player": "tim", "units": 1, "note": "x" * MAX_NOTE})], by="tim")
    assert done.written and reads(two)


def test_a_recording_never_reports_failure_once_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache failing after the append (as it did on a surrogate) is not the recording's
    failure: the event is in the log, and the command says it was recorded."""
    from cok.core.campaign import Campaign

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    two = shipped(tmp_path, "example")
    opened = open_campaign(two)
    monkeypatch.setattr(Campaign, "save", broken)
    done = record(two, [Draft("painting", {"player": "tim", "units": 1})], by="tim", campaign=opened)
    assert done.written and done.events[0].id in (two / "events.yaml").read_text()


def cok_bytes(folder: Path, *args: bytes) -> subprocess.CompletedProcess[bytes]:
    """The real console script, its arguments as raw bytes (as a shell passes `$(printf '\\xff')`)."""
    script = Path(sys.executable).with_name("cok")
    env = {**os.environ, "COK_CAMPAIGN": str(folder)}
    return subprocess.run([os.fsencode(script), *args], capture_output=True, env=env, cwd=folder, check=False)


@pytest.mark.parametrize("game", GAMES)
def test_a_byte_that_is_not_utf8_on_the_command_line_is_refused(tmp_path: Path, game: str) -> None:
    folder = played(tmp_path, game)
    before = (folder / "events.yaml").read_bytes()
    done = cok_bytes(folder, b"void", last_id(folder).encode(), b"--reason", b"bad\xff")
    assert done.returncode == 1
    said = done.stderr.decode()
    assert "UTF-8" in said and "internal error" not in said and "Traceback" not in said
    assert (folder / "events.yaml").read_bytes() == before


def test_the_painting_of_the_issue_is_refused_at_the_terminal(two: Path) -> None:
    """`cok paint tim --units 1 --note "$(printf 'bad\\xff')"`: exit 1, nothing written."""
    before = (two / "events.yaml").read_bytes()
    done = cok_bytes(two, b"paint", b"tim", b"--units", b"1", b"--note", b"bad\xff")
    assert done.returncode == 1 and "UTF-8" in done.stderr.decode()
    assert (two / "events.yaml").read_bytes() == before


def test_a_note_over_the_bound_is_refused_at_the_terminal(two: Path) -> None:
    before = (two / "events.yaml").read_bytes()
    done = cok_bytes(two, b"paint", b"tim", b"--units", b"1", b"--note", b"x" * (MAX_NOTE + 1))
    assert done.returncode == 1 and f"{MAX_NOTE:,}" in done.stderr.decode()
    assert "internal error" not in done.stderr.decode()
    assert (two / "events.yaml").read_bytes() == before
