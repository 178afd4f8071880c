"""A club's bot on cok's API (docs/api.md), in a few dozen lines: it asks the campaign's history
for what is new (`GET /api/log?since=…`), says each event in the log's words, and answers
`!standings`. A chat bot posts these lines to its channel instead of printing them.

    python docs/bot.py http://192.168.1.20:8000 TOKEN               # the latest, then every 30 s
    python docs/bot.py http://192.168.1.20:8000 TOKEN '!standings'  # answer one command
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Iterator
from typing import Any

import httpx


def news(client: httpx.Client, since: str | None) -> Iterator[dict[str, Any]]:
    """Every event after `since` (the first time: all of them), a page at a time."""
    while True:
        page = client.get("/api/log", params={"limit": 100, **({"since": since} if since else {})})
        found = page.raise_for_status().json()
        yield from found["events"]
        since = found["last"]
        if not found["more"]:
            return


def told(entry: dict[str, Any]) -> str:
    """One event as the bot says it: the log's sentence, its dice' and result's standing."""
    marks = [m for m in (entry.get("dice"), (entry.get("confirmation") or {}).get("status")) if m]
    return entry["summary"] + (f" ({'; '.join(marks)})" if marks else "") + (" [voided]" if entry["voided"] else "")


def answer(client: httpx.Client, command: str) -> str:
    """`!standings`: the ranked players (or houses), as `cok standings` ranks them."""
    if command.strip() != "!standings":
        return "I answer !standings"
    document = client.get("/api/standings").raise_for_status().json()
    rows = next(v for v in document.values() if isinstance(v, list) and v and "rank" in v[0])
    score = next((k for k in ("cp", "vp", "points", "score") if k in rows[0]), None)
    return "\n".join(f"{r['rank']}. {r.get('name', r.get('id'))}" + (f" — {r[score]}" if score else "") for r in rows)


def main(url: str, token: str, command: str | None = None, rounds: int | None = None) -> None:
    """Answer `command`, or say the latest five events and then, every 30 s, what is new."""
    with httpx.Client(base_url=url.rstrip("/"), headers={"Authorization": f"Bearer {token}"}, timeout=10) as client:
        if command is not None:
            print(answer(client, command))
            return
        latest = deque(news(client, None), maxlen=5)
        since = latest[-1]["ref"] if latest else None
        for entry in latest:
            print(told(entry))
        while rounds is None or (rounds := rounds - 1) >= 0:
            time.sleep(30)
            for entry in news(client, since):
                print(told(entry))
                since = entry["ref"]


if __name__ == "__main__":
    main(*sys.argv[1:4])
