"""The README's test command passes on a machine without Chromium, saying what it left out;
under CI, which installs Chromium, a missing one fails the browser tests instead (#33)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import NO_CHROMIUM, chromium, unavailable

ROOT = Path(__file__).resolve().parents[1]


def test_a_browser_test_without_chromium_is_skipped_on_a_contributors_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=NO_CHROMIUM):
        unavailable("none found")


def test_under_ci_a_browser_test_without_chromium_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=NO_CHROMIUM):
        unavailable("none found")


def test_a_chromium_named_by_cok_chromium_that_is_not_a_file_is_said(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("COK_CHROMIUM", str(tmp_path / "no-such-chromium"))
    with pytest.raises(pytest.skip.Exception, match="is not a file"):
        chromium()


def test_the_runs_last_lines_count_the_skipped_browser_tests_and_say_how_to_run_them(tmp_path: Path) -> None:
    """A run whose browser tests found no Chromium ends by saying how many and how to run them."""
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_terminal_summary  # noqa: F401\n")
    (tmp_path / "test_pages.py").write_text(
        "from tests.browser import unavailable\n\n"
        "def test_one_page():\n    unavailable('none found')\n\n"
        "def test_another_page():\n    unavailable('none found')\n\n"
        "def test_not_a_page():\n    assert True\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CI"} | {"PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    said = next(line for line in lines if NO_CHROMIUM in line)
    assert said.startswith("2 browser tests skipped")
    assert "apt-get install chromium" in said and "playwright install chromium" in said
    assert lines.index(said) >= len(lines) - 3  # among the run's last lines
