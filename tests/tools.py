"""Programs some tests check the project's files with (nginx, caddy, systemd-analyze, zbarimg):
skipped on a contributor's machine without one; under CI (`CI` set), which installs them all
(.ci/run), a missing one fails, so that a skip never hides a failure there."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(what: str, install: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed under CI: .ci/run installs it ({install})")
    pytest.skip(f"{what} is not installed ({install})")
