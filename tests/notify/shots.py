"""What a post and a nudge look like in each chat service (issue 39's note): a battle is recorded
on a copy of the example and its posts sent through Apprise to Discord, Slack, Matrix, Telegram,
e-mail and json:// destinations, every one a fake on 127.0.0.1; the payloads each received are
rendered as an HTML page, screenshot in Chromium at 1280 px.

    python -m tests.notify.shots /tmp/chat-shots

Matrix (its webhook mode) and e-mail take a host, so they are pointed at the fakes as they are;
Discord, Slack and Telegram always post to their own hosts, so while this script runs (never in
cok) `requests` is made to send those to the fake instead: nothing reaches a real service."""

from __future__ import annotations

import html
import json
import os
import shutil
import socketserver
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
SERVICES = {"discord.com": "Discord", "hooks.slack.com": "Slack", "api.telegram.org": "Telegram"}


class Received:
    def __init__(self) -> None:
        self.items: list[tuple[str, str, str]] = []  # (service, what was called, the payload)
        self.lock = threading.Lock()

    def add(self, service: str, called: str, payload: str) -> None:
        with self.lock:
            self.items.append((service, called, payload))


def web_fake(received: Received) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def _any(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service = self.headers.get("X-Fake-For") or ("Matrix" if "/matrix/" in self.path else "json://")
            try:
                shown = json.dumps(json.loads(body), indent=2, ensure_ascii=False)
            except ValueError:
                shown = body.decode(errors="replace")
            received.add(service, f"{self.command} {_masked(self.path)}", shown)
            answer = b"ok" if service == "Slack" else b'{"ok": true, "result": {"message_id": 1}, "event_id": "$1"}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

        do_POST = do_PUT = _any

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _masked(path: str) -> str:
    """The webhook's path with its tokens hidden (a destination is a secret)."""
    return "/".join(part if len(part) < 12 and not part.isdigit() else "…" for part in path.split("/"))


def mail_fake(received: Received) -> socketserver.ThreadingTCPServer:
    """The smallest SMTP server that takes one message (EHLO, MAIL, RCPT, DATA, QUIT)."""

    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            self.wfile.write(b"220 fake ESMTP\r\n")
            while line := self.rfile.readline():
                verb = line[:4].upper()
                if verb == b"DATA":
                    self.wfile.write(b"354 go on\r\n")
                    lines = []
                    while (part := self.rfile.readline()) not in (b".\r\n", b""):
                        lines.append(part.decode(errors="replace"))
                    received.add("e-mail", "SMTP DATA", "".join(lines))
                    self.wfile.write(b"250 queued\r\n")
                elif verb == b"QUIT":
                    self.wfile.write(b"221 bye\r\n")
                    return
                elif verb == b"EHLO":
                    self.wfile.write(b"250 fake\r\n")
                else:
                    self.wfile.write(b"250 ok\r\n")

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def redirected(port: int) -> None:
    """Discord's, Slack's and Telegram's posts sent to the fake on 127.0.0.1 (this script only)."""
    import requests

    original = requests.Session.send

    def send(self: Any, request: Any, **kwargs: Any) -> Any:
        parts = urlsplit(request.url)
        service = SERVICES.get(parts.hostname or "")
        if service is None and parts.hostname != "127.0.0.1":
            raise RuntimeError(f"refused to reach {parts.hostname}")
        if service is not None:
            request.url = f"http://127.0.0.1:{port}{parts.path}" + (f"?{parts.query}" if parts.query else "")
            request.headers["X-Fake-For"] = service
        return original(self, request, **kwargs)

    requests.Session.send = send  # type: ignore[method-assign]


def page(items: list[tuple[str, str, str]]) -> str:
    cards = "\n".join(
        f"<section><h2>{html.escape(s)}</h2><p><code>{html.escape(c)}</code></p><pre>{html.escape(p)}</pre></section>"
        for s, c, p in items
    )
    return f"""<!doctype html><meta charset="utf-8"><title>cok: what each chat service received</title>
<style>
body {{ font: 15px/1.4 system-ui, sans-serif; margin: 24px; background: #f4f4f6; color: #222; }}
h1 {{ font-size: 20px; }} main {{ display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }}
section {{ background: white; border-radius: 8px; padding: 12px 16px; box-shadow: 0 1px 3px #0002; }}
h2 {{ font-size: 16px; margin: 0 0 4px; }} p {{ margin: 0 0 8px; color: #555; }}
pre {{ white-space: pre-wrap; word-break: break-word; font-size: 12.5px; background: #f7f7f9;
      padding: 8px; border-radius: 6px; margin: 0; }}
</style>
<h1>What each chat service received for a battle Tim recorded (its post, and the nudge asking
Matt to confirm it): fakes on 127.0.0.1, through Apprise</h1>
<main>{cards}</main>"""


def main(out: Path) -> Path:
    received = Received()
    web, mail = web_fake(received), mail_fake(received)
    port, smtp = web.server_address[1], mail.server_address[1]
    redirected(port)
    data = Path(tempfile.mkdtemp())
    os.environ["COK_DATA_DIR"] = str(data / "data")
    folder = data / "example"
    shutil.copytree(ROOT / "campaigns" / "example", folder)
    from tests.conftest import Cok

    cok = Cok(folder)
    for url in (
        "discord://123456789012345678/aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
        "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ/#wargames",
        f"matrix://s3cr3tt0k3n@127.0.0.1:{port}/?mode=matrix",
        "tgram://123456789:AAHfakefakefakefakefakefakefake/-1001234567890",
        f"mailto://127.0.0.1:{smtp}?from=cok@club.example&to=club@club.example",
        f"json://127.0.0.1:{port}/hook",
    ):
        added = cok("notify", "add", url)
        assert added.exit_code == 0, added.stderr
    cok("invite", "matt", "--mention", "<@1234>")
    cok("notify", "server", "https://club.example/cok")
    battle = ("battle", "tim", "matt", "--at", "Ghost Hill", "--vp", "tim=7", "--vp", "matt=5")
    assert cok(*battle, "--override", "a friendly game", env={"COK_BY": "tim"}).exit_code == 0
    sent = cok("notify", "send")
    print(sent.stdout.strip(), cok("notify", "status").stdout, file=sys.stderr)
    web.shutdown()
    mail.shutdown()
    order = ["Discord", "Slack", "Matrix", "Telegram", "e-mail", "json://"]
    items = sorted(received.items, key=lambda i: order.index(i[0]) if i[0] in order else 99)
    out.mkdir(parents=True, exist_ok=True)
    (out / "payloads.html").write_text(page(items), encoding="utf-8")
    from tests.browser import browser

    with browser() as chromium:
        tab = chromium.new_page(viewport={"width": 1280, "height": 900})
        tab.goto((out / "payloads.html").as_uri())
        tab.screenshot(path=str(out / "payloads-1280.png"), full_page=True)
    return out / "payloads-1280.png"


if __name__ == "__main__":
    print(main(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/chat-shots")))
