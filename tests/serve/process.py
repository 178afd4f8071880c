"""`cok serve` as a real process on 127.0.0.1 and a free port, for the tests that kill it or
send it many requests at once."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

COK = [sys.executable, "-m", "cok"]


def free_port() -> int:
    """A free port on 127.0.0.1: any, or one of $COK_TEST_PORTS (`9100-9199`) when a machine
    shared by several people gives each a range of their own."""
    low, _, high = os.environ.get("COK_TEST_PORTS", "0-0").partition("-")
    for port in range(int(low), int(high or low) + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise OSError(f"no free port in COK_TEST_PORTS={os.environ['COK_TEST_PORTS']}")


class Served:
    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process = process
        self.url = url

    def kill(self) -> None:
        """kill -9: no chance to finish anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)


def answering(url: str, process: subprocess.Popen[str] | None = None, seconds: float = 30) -> None:
    """Wait until `url` answers 200 (a server just started), failing at once if its process stopped."""
    deadline = time.monotonic() + seconds
    while True:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"cok serve stopped: {process.stderr.read() if process.stderr else ''}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"{url} did not answer within {seconds:g} s"
        time.sleep(0.1)


@contextmanager
def serving(folder: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    port = free_port()
    process = subprocess.Popen(
        [*COK, "serve", "-C", str(folder), "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    root = next((a.split("=", 1)[1] for a in args if a.startswith("--root-path=")), "")
    url = f"http://127.0.0.1:{port}"
    try:
        answering(f"{url}/api/standings", process)
        yield Served(process, url + root)
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


@contextmanager
def served_club(folder: Path, port: int | None = None) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`cok serve -C FOLDER` of a club's folder as a real process (on `port`, else a free
    one), once its club's page answers; stopped after (what it printed is then left in its
    pipes)."""
    port = port or free_port()
    process = subprocess.Popen(
        [*COK, "serve", "-C", str(folder), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        answering(f"{url}/", process)
        yield url, process
    finally:
        process.terminate()
        process.wait(10)
